"""Enum and IntEnum members as globals, class attributes and items, and arguments: Numba's
EnumMember (compared with ==, != and is, .value; no arithmetic) and IntEnumMember (an integer
everywhere, that keeps its class). A member a @jit function returns comes back as the member.
Expectations are what Numba 0.68 / numba-cuda 0.30 give for the same programs."""
from enum import Enum, IntEnum

import numpy as np
import pytest

from cujit import cuda, njit
from cujit.errors import TypingError


class Color(Enum):
    red = 1
    green = 2


class Shape(IntEnum):
    circle = 1
    square = 2


class Negatives(IntEnum):
    one = -1
    two = 1


class Planet(Enum):
    MERCURY = (3.303e23, 2.4397e6)
    EARTH = (5.976e24, 6.37814e6)


class Weight(Enum):
    light = 0.5
    heavy = 2.5


def test_jit_members_returned_as_members():
    assert njit(lambda: Color.red)() is Color.red
    assert njit(lambda: Shape.circle)() is Shape.circle
    assert njit(lambda: Color["green"])() is Color.green
    assert njit(lambda c: c)(Color.green) is Color.green
    assert njit(lambda s: s)(Shape.square) is Shape.square
    assert njit(lambda p: p)(Planet.EARTH) is Planet.EARTH


def test_jit_value_and_comparisons():
    value = njit(lambda c: c.value)
    assert value(Color.green) == 2 and type(value(Color.green)) is int
    assert value(Weight.heavy) == 2.5
    assert value(Planet.EARTH) == (5.976e24, 6.37814e6)
    cmp = njit(lambda a, b: (a == b, a != b, a is b, a is not b))
    assert cmp(Color.red, Color.green) == (False, True, False, True)
    assert cmp(Color.red, Color.red) == (True, False, True, False)
    assert cmp(Planet.EARTH, Planet.MERCURY) == (False, True, False, True)
    assert cmp(Shape.circle, Negatives.two) == (True, False, False, True)  # IntEnums compare as ints
    assert njit(lambda c: 10 if c == Color.red else 20)(Color.green) == 20


def test_jit_int_enum_is_an_integer():
    assert njit(lambda a: a + 1)(Shape.square) == 3
    assert njit(lambda a: a == 2)(Shape.square) is True
    assert njit(lambda a, s: a[s])(np.arange(5), Shape.square) == 2
    assert njit(lambda: Color.red.value + Shape.square)() == 3


def test_jit_refusals_as_numba():
    with pytest.raises(TypingError, match="Unknown attribute 'name' of type Enum<int64>\\(Color\\)"):
        njit(lambda c: c.name)(Color.red)
    with pytest.raises(TypingError, match="'==' is not supported between Enum<int64>\\(Color\\) and int64"):
        njit(lambda c: c == 1)(Color.red)
    with pytest.raises(TypingError, match="unsupported operand"):
        njit(lambda c: c + 1)(Color.red)


def test_jit_dispatch_per_enum_class():
    f = njit(lambda x: x)
    assert f(Shape.circle) is Shape.circle
    r = f(1)  # an int, not the IntEnum member of the same value
    assert r == 1 and type(r) is int
    assert f._signatures == [["IntEnum<int64>(Shape)"], ["int64"]]


def test_kernel_compare_members(target):
    @cuda.jit
    def f(a, b, out):
        out[0] = a == b
        out[1] = a != b
        out[2] = a is b
        out[3] = a is not b

    for a, b, expect in [(Color.red, Color.red, [1, 0, 1, 0]), (Color.red, Color.green, [0, 1, 0, 1]),
                         (Planet.EARTH, Planet.EARTH, [1, 0, 1, 0]), (Planet.EARTH, Planet.MERCURY, [0, 1, 0, 1]),
                         (Shape.circle, Negatives.two, [1, 0, 0, 1])]:
        got = np.zeros(4, dtype=np.bool_)
        f[1, 1](a, b, got)
        assert list(got) == [bool(x) for x in expect], (a, b)


def test_kernel_int_enum_arithmetic_and_class_lookup(target):
    @cuda.jit
    def f(x, out):
        if x > Shape.square:
            out[0] = x - Negatives.one
        else:
            out[0] = x + Shape.circle
        out[1] = Color.red == Color.green
        out[2] = Color["red"] == Color["red"]
        out[3] = Planet.EARTH.value[1] > 6e6

    out = np.zeros(4, dtype=np.int32)
    f[1, 1](5, out)
    assert list(out) == [6, 0, 1, 1]
    f[1, 1](2, out)
    assert out[0] == 3


# Numba's typing_context.can_convert between number types (numba.cuda.descriptor.cuda_target,
# read from numba-cuda 0.30): per source type, the kind to each type of NUMBER_NAMES in order,
# 1 exact, 2 promote, 3 safe, 4 unsafe, '-' none.
NUMBER_NAMES = ["boolean", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128"]
NUMBA_CONVERSIONS = {
    "boolean": "13333333333333",
    "int8": "41222444433333",
    "int16": "44122444443333",
    "int32": "44412444444343",
    "int64": "44441444444343",
    "uint8": "44333122243333",
    "uint16": "44433412244343",
    "uint32": "44443441244343",
    "uint64": "44444444144343",
    "float16": "44444444412233",
    "float32": "44444444441233",
    "float64": "44444444444143",
    "complex64": "------------12",
    "complex128": "------------41",
}


def test_typing_context_can_convert_numbers():
    from cujit import types
    from cujit.cuda.descriptor import Conversion, cuda_target
    ctx = cuda_target.typing_context
    for a in NUMBER_NAMES:
        got = ""
        for b in NUMBER_NAMES:
            k = ctx.can_convert(getattr(types, a), getattr(types, b))
            got += "-" if k is None else str(int(k))
            assert k is None or isinstance(k, Conversion)
        assert got == NUMBA_CONVERSIONS[a], a


def test_typing_context_int_enum_no_conversion():
    # numba-cuda's test_enums.py::test_int_enum_no_conversion (Numba PR #10047): an IntEnum
    # member converts as its value's type, at least safe, and to an array not at all.
    from cujit import types
    from cujit.cuda.descriptor import Conversion, cuda_target
    ctx = cuda_target.typing_context
    ie = types.IntEnumMember(Shape, types.int64)
    assert ctx.can_convert(ie, types.int64[::1]) is None
    assert ctx.can_convert(ie, types.int64) == Conversion.safe
    assert ctx.can_convert(ie, types.float32) == Conversion.unsafe
    assert ctx.can_convert(ie, ie) == Conversion.exact
    assert ctx.can_convert(types.int64, ie) is None
    e = types.EnumMember(Color, types.int64)
    assert ctx.can_convert(e, types.int64) is None
    with pytest.raises(NotImplementedError, match="part of Numba's internals"):
        ctx.resolve_function_type(None, (), {})
