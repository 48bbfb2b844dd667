"""numba.cuda.descriptor: ``cuda_target.typing_context.can_convert``, the one question about
Numba's typing context that user code (and numba-cuda's test_enums.py) asks: can a value of one
type be converted to another, and how. cujit's compiler types programs itself, so the rest of
the typing context is Numba's internals and raises NotImplementedError naming what was asked.

The answers are Numba's: its conversion kinds (exact < promote < safe < unsafe) between number
types, from the rules Numba registers for neighbouring types and their combination along a chain
(the loosest step of the best chain); an IntEnum member converts as its value's type does, at
least safe (None where that cannot convert, numba-cuda's fix of Numba PR #10047); a number or an
enum member to an array, tuple or record (or back) does not convert. Conversions between
containers are not modelled: asking raises NotImplementedError rather than guessing."""
import enum as _enum

from .. import types as _types
from ..internals import _missing


class Conversion(_enum.IntEnum):
    """Numba's conversion kinds, from stricter to looser (numba.core.typeconv.Conversion)."""
    exact = 1
    promote = 2
    safe = 3
    unsafe = 4
    nil = 99


_P, _S, _U = Conversion.promote, Conversion.safe, Conversion.unsafe

# Numba's rules between neighbouring number types: (from, to, forward kind, backward kind or None).
_RULES = (
    ("boolean", "int8", _S, _U), ("boolean", "uint8", _S, _U),
    ("int8", "int16", _P, _U), ("uint8", "uint16", _P, _U),
    ("int16", "int32", _P, _U), ("uint16", "uint32", _P, _U),
    ("int32", "int64", _P, _U), ("uint32", "uint64", _P, _U),
    ("uint8", "int16", _S, _U), ("uint16", "int32", _S, _U), ("uint32", "int64", _S, _U),
    ("int8", "float16", _S, _U), ("int16", "float32", _S, _U), ("int32", "float64", _S, _U),
    ("int16", "float16", _U, _U), ("int32", "float32", _U, _U),
    ("int64", "float64", _S, _U), ("uint64", "float64", _S, _U),
    ("float16", "float32", _P, _U), ("float32", "float64", _P, _U),
    ("float32", "complex64", _S, None), ("float64", "complex128", _S, None),
    ("complex64", "complex128", _P, _U),
)


def _closure():
    """The best kind from each number type to each other: over every chain of rules, the chain
    whose loosest step is strictest (a fixed point: a dozen types, computed once)."""
    best = {}
    for a, b, fwd, back in _RULES:
        best[a, b] = min(best.get((a, b), Conversion.nil), fwd)
        if back is not None:
            best[b, a] = min(best.get((b, a), Conversion.nil), back)
    changed = True
    while changed:
        changed = False
        for (a, b), ab in list(best.items()):
            for (c, d), cd in list(best.items()):
                if c != b or a == d:
                    continue
                k = max(ab, cd)
                if k < best.get((a, d), Conversion.nil):
                    best[a, d] = k
                    changed = True
    return best


_NUMBERS = _closure()
_NUMBER_NAMES = {n for pair in _NUMBERS for n in pair}


def _number_name(t):
    if isinstance(t, _types.ScalarType) and not isinstance(t, _types.Record) and t.name in _NUMBER_NAMES:
        return t.name
    return None


def _is_value(t):
    """A number or an enum member: what never converts to or from a container."""
    return _number_name(t) is not None or isinstance(t, _types.EnumMember)


class _TypingContext:
    """numba-cuda's CUDA typing context, as far as can_convert goes."""

    def can_convert(self, fromty, toty):
        """A Conversion from `fromty` to `toty`, or None where there is none."""
        if fromty == toty:
            return Conversion.exact
        a, b = _number_name(fromty), _number_name(toty)
        if a is not None and b is not None:
            k = _NUMBERS.get((a, b))
            return k  # None where no chain of rules leads there
        if isinstance(fromty, _types.EnumMember):
            if isinstance(fromty, _types.IntEnumMember) and issubclass(fromty.instance_class, _enum.IntEnum):
                k = self.can_convert(fromty.dtype, toty)
                return None if k is None else max(k, Conversion.safe)
            if _is_value(toty) or isinstance(toty, (_types.ArrayType, _types.BaseTuple, _types.Record)):
                return None  # an Enum member converts to nothing but its own type
        containers = (_types.ArrayType, _types.BaseTuple, _types.Record)
        if (_is_value(fromty) and isinstance(toty, containers)) or (isinstance(fromty, containers) and _is_value(toty)):
            return None
        if a is not None and isinstance(toty, _types.EnumMember):
            return None  # nothing converts to an enum member
        raise NotImplementedError(
            "cujit's typing_context.can_convert answers for numbers, booleans and enum members "
            "(and those against containers), not %s -> %s" % (fromty, toty))

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _missing("numba.cuda.descriptor", "cuda_target.typing_context." + attr)


class _CUDATarget:
    typing_context = _TypingContext()

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _missing("numba.cuda.descriptor", "cuda_target." + attr)


cuda_target = _CUDATarget()


def __getattr__(attr):
    if attr.startswith("_"):
        raise AttributeError(attr)
    return _missing("numba.cuda.descriptor", attr)
