"""Numba's typing rules (DESIGN.md decision 3), pinned on the types the compiler infers. Each
expectation is what Numba infers for the same function and argument types."""
import math

import numpy as np
import pytest

from cujit import _core
from cujit.decorators import capture

F32 = np.float32(1.5)


def types_of(func, *args):
    ret, local = _core.infer_types(capture(func), list(args))
    return ret, local


def f_int_literal(x):
    y = 1
    return y


def f_float_literal(x):
    return 1.0


def f_add(x, y):
    return x + y


def f_div(x, y):
    return x / y


def f_floordiv(x, y):
    return x // y


def f_mod(x, y):
    return x % y


def f_pow(x, y):
    return x ** y


def f_pow_literal(x):
    return x ** 2


def f_pow_half(x):
    return x ** 0.5


def f_neg(x):
    return -x


def f_unify(x):
    if x > 0:
        r = 0
    else:
        r = 1.5
    return r


def f_unify_ints(x, y):
    if x > 0:
        r = x
    else:
        r = y
    return r


def f_global_f32(x):
    return F32


def f_global_f32_times(x):
    return x * F32


def f_compare(x, y):
    return x < y


def f_tuple(x, y):
    return x, y


def f_floor(x):
    return math.floor(x)


def f_sqrt(x):
    return math.sqrt(x)


def f_atan2(x, y):
    return math.atan2(x, y)


def f_isnan(x):
    return math.isnan(x)


def f_abs(x):
    return abs(x)


def f_minmax(x, y):
    return max(x, y)


def f_round(x):
    return round(x)


def f_round2(x):
    return round(x, 2)


def f_int(x):
    return int(x)


def f_loop(n):
    acc = 0
    for i in range(n):
        acc += i * 0.5
    return acc


def f_bitand(x, y):
    return x & y


def f_not(x):
    return not x


def f_ternary(x):
    return 1 if x > 0 else 2.5


def f_np_cast(x):
    return np.float32(x)


CASES = [
    (f_int_literal, ["float32"], "int64"),
    (f_float_literal, ["float32"], "float64"),
    (f_add, ["float32", "float32"], "float32"),
    (f_add, ["float32", "float64"], "float64"),
    (f_add, ["int64", "float32"], "float64"),
    (f_add, ["int16", "float32"], "float32"),
    (f_add, ["int32", "float32"], "float64"),
    (f_add, ["int16", "int16"], "int64"),
    (f_add, ["int8", "uint8"], "int64"),
    (f_add, ["uint32", "uint64"], "uint64"),
    (f_add, ["int64", "uint64"], "int64"),
    (f_add, ["boolean", "boolean"], "int64"),
    (f_div, ["int64", "int64"], "float64"),
    (f_div, ["float32", "float32"], "float32"),
    (f_div, ["float32", "int64"], "float64"),
    (f_floordiv, ["int32", "int32"], "int64"),
    (f_floordiv, ["float32", "float32"], "float32"),
    (f_mod, ["int64", "int64"], "int64"),
    (f_pow, ["int64", "int64"], "int64"),
    (f_pow, ["float32", "int64"], "float32"),
    (f_pow, ["float32", "float64"], "float64"),
    (f_pow, ["int64", "float32"], "float64"),
    (f_pow_literal, ["float32"], "float32"),
    (f_pow_half, ["float32"], "float64"),
    (f_neg, ["int16"], "int64"),
    (f_neg, ["float32"], "float32"),
    (f_unify, ["int64"], "float64"),
    (f_unify_ints, ["int16", "int64"], "int64"),
    (f_global_f32, ["int64"], "float32"),
    (f_global_f32_times, ["float32"], "float32"),
    (f_compare, ["int64", "float32"], "bool"),
    (f_tuple, ["int64", "float32"], "Tuple(int64, float32)"),
    (f_tuple, ["float32", "float32"], "UniTuple(float32 x 2)"),
    (f_floor, ["float32"], "int64"),
    (f_sqrt, ["float32"], "float32"),
    (f_sqrt, ["int64"], "float64"),
    (f_atan2, ["float32", "float32"], "float32"),
    (f_atan2, ["float32", "float64"], "float64"),
    (f_isnan, ["float32"], "bool"),
    (f_abs, ["int16"], "int16"),
    (f_abs, ["float32"], "float32"),
    (f_minmax, ["int64", "float32"], "float64"),
    (f_round, ["float64"], "int64"),
    (f_round2, ["float32"], "float32"),
    (f_int, ["float32"], "int64"),
    (f_loop, ["int64"], "float64"),
    (f_bitand, ["boolean", "boolean"], "bool"),
    (f_bitand, ["int32", "int64"], "int64"),
    (f_not, ["float32"], "bool"),
    (f_ternary, ["int64"], "float64"),
    (f_np_cast, ["int64"], "float32"),
]


@pytest.mark.parametrize("func,args,expected", CASES,
                         ids=["%s(%s)" % (c[0].__name__, ",".join(c[1])) for c in CASES])
def test_inferred_return_type(func, args, expected):
    ret, _ = types_of(func, *args)
    assert ret == expected


def test_locals_are_versioned_as_numba_ssa():
    # Numba 0.68's typemap of f_loop(int64): each assignment of acc is a version with its own
    # type, and the loop's head joins the int64 one with the float64 one (acc.1, a phi).
    _, local = types_of(f_loop, "int64")
    assert local == {"n": "int64", "acc": "int64", "acc.1": "float64", "acc.2": "float64", "i": "int64"}


# ---- integers of every width and signedness (tests/numba_int_types.py, generated from Numba) ----
from numba_int_types import BINARY, CODES, INTS, UNARY  # noqa: E402


def _source(args, expr):
    """A FunctionSource for `def f(args): return expr` (or `expr; return x` for an augmented
    assignment), with math and numpy as globals."""
    body = ("    %s\n    return x\n" % expr) if "=" in expr and "==" not in expr else "    return %s\n" % expr
    fs = _core.FunctionSource("f", "def f(%s):\n%s" % (args, body), "<int-table>", 1, 0)
    fs.set_globals({"math": ("module", "math"), "np": ("module", "numpy")})
    return fs


_BIN_CASES = [(name, a, b, CODES[code])
              for name, (expr, rows) in BINARY.items()
              for a, row in zip(INTS, rows)
              for b, code in zip(INTS, row.split()) if code != "-"]
_UN_CASES = [(name, a, CODES[code])
             for name, (expr, row) in UNARY.items()
             for a, code in zip(INTS, row.split()) if code != "-"]


# Numba's SSA gives `x += y` a new version of x with its own type (uint64 + int64 is int64, not the
# float64 that unifying it with the uint64 argument would give): iadd(uint64, int8...) pin that.
@pytest.mark.parametrize("name,a,b,expected", _BIN_CASES, ids=["%s(%s,%s)" % c[:3] for c in _BIN_CASES])
def test_mixed_integer_binary_types(name, a, b, expected):
    ret, _ = _core.infer_types(_source("x, y", BINARY[name][0]), [a, b])
    assert ret == expected


@pytest.mark.parametrize("name,a,expected", _UN_CASES, ids=["%s(%s)" % c[:2] for c in _UN_CASES])
def test_integer_unary_types(name, a, expected):
    ret, _ = _core.infer_types(_source("x", UNARY[name][0]), [a])
    assert ret == expected
