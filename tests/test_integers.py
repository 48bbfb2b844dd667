"""Integer values by Numba's rules where signed and unsigned meet: logical shifts of uint64
(xorshift64 streams), signed/unsigned comparisons, unary minus and invert in the operand's
own width, min/max of uint64 and int64, uint64 literals and globals. Every expectation was
checked against Numba 0.68 on the same program (its types in tests/numba_int_types.py)."""
import math

import numpy as np

from cujit import cuda, njit

U = np.uint64
I = np.int64
MASK = 2 ** 64 - 1
BIG_GLOBAL = 2 ** 63 + 5  # Numba types a global int beyond int64 as uint64


def xorshift64_reference(seed, n):
    """Marsaglia's xorshift64 in Python ints masked to 64 bits (NumPy uint64 arithmetic)."""
    out, x = [], seed
    for _ in range(n):
        x ^= (x << 13) & MASK
        x ^= x >> 7
        x ^= (x << 17) & MASK
        out.append(x)
    return np.array(out, dtype=np.uint64)


@cuda.jit(device=True)
def xorshift64_step(x):
    x ^= x << 13
    x ^= x >> 7  # logical: x is uint64 (an arithmetic shift gave a different stream)
    x ^= x << 17
    return x


@cuda.jit
def xorshift64_kernel(seeds, out):
    i = cuda.grid(1)
    if i < seeds.size:
        x = seeds[i]
        for k in range(out.shape[1]):
            x = xorshift64_step(x)
            out[i, k] = x


@njit
def xorshift64_jit(seed, n):
    out = np.empty(n, np.uint64)
    x = seed
    for k in range(n):
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
        out[k] = x
    return out


SEEDS = [88172645463325252, 2 ** 63 + 12345, 2 ** 64 - 1, 1]


def test_xorshift64_stream_kernel(target):
    seeds = np.array(SEEDS, dtype=np.uint64)
    out = np.zeros((len(SEEDS), 8), dtype=np.uint64)
    xorshift64_kernel[1, 32](seeds, out)
    for i, s in enumerate(SEEDS):
        np.testing.assert_array_equal(out[i], xorshift64_reference(s, 8))
    assert out[0, 0] == 8748534153485358512  # Numba's first draw from Marsaglia's seed


def test_xorshift64_stream_jit():
    for s in SEEDS:
        np.testing.assert_array_equal(xorshift64_jit(U(s), 16), xorshift64_reference(s, 16))


@njit
def splitmix64(x):
    # 0x9E3779B97F4A7C15 is beyond int64: a uint64 literal, as Numba types it.
    z = x + 0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    return z ^ (z >> 31)


def test_uint64_literals():
    def ref(x):
        z = (x + 0x9E3779B97F4A7C15) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)
    for s in [0, 1, 2 ** 63, 2 ** 64 - 1]:
        assert splitmix64(U(s)) == ref(s)


@njit
def compare_all(a, b):
    return (a < b, a <= b, a > b, a >= b, a == b, a != b)


def test_signed_unsigned_comparisons():
    # Numba compares a signed integer and a uint64 in float64 (NumPy's common type): the sign is
    # always right, but values 2**53 apart or closer can tie, as they do in Numba.
    T, F = True, False
    assert compare_all(U(2 ** 63), I(-1)) == (F, F, T, T, F, T)
    assert compare_all(I(-1), U(2 ** 63)) == (T, T, F, F, F, T)
    assert compare_all(U(2 ** 64 - 1), I(-1)) == (F, F, T, T, F, T)  # equal bits, not equal values
    assert compare_all(I(-1), U(2 ** 64 - 1)) == (T, T, F, F, F, T)
    assert compare_all(U(2 ** 63 + 1), I(2 ** 63 - 1)) == (F, T, F, T, T, F)  # a tie, as in Numba
    assert compare_all(U(2 ** 63 + 4096), I(2 ** 63 - 1)) == (F, F, T, T, F, T)
    assert compare_all(U(5), I(5)) == (F, T, F, T, T, F)
    assert compare_all(np.uint32(2 ** 32 - 1), np.int32(-1)) == (F, F, T, T, F, T)
    assert compare_all(np.uint8(255), np.int8(-1)) == (F, F, T, T, F, T)


@njit
def compare_literal(a):
    return (a > -1, a == -1, -1 < a)


def test_unsigned_against_negative_literal():
    assert compare_literal(U(2 ** 64 - 1)) == (True, False, True)
    assert compare_literal(U(0)) == (True, False, True)


@njit
def negate(a):
    return -a


@njit
def invert(a):
    return ~a


def test_unary_minus_and_invert_in_the_operands_width():
    # Numba computes in the operand's own width, then widens to (u)int64.
    assert negate(np.uint8(200)) == 56 and invert(np.uint8(200)) == 55
    assert negate(np.int8(-128)) == -128 and invert(np.int8(5)) == -6
    assert negate(np.uint16(1)) == 65535 and negate(np.uint32(1)) == 2 ** 32 - 1
    assert invert(np.uint32(0)) == 2 ** 32 - 1 and invert(np.uint8(0)) == 255
    assert negate(U(1)) == 2 ** 64 - 1
    assert negate(I(-2 ** 63)) == -2 ** 63
    assert negate(True) == -1 and invert(True) is False


@njit
def min_max(a, b):
    return min(a, b), max(a, b)


def test_min_max_of_uint64_and_int64_is_float64():
    lo, hi = min_max(U(2 ** 63 + 5), I(-1))
    assert type(lo) is float and lo == -1.0 and hi == float(2 ** 63 + 5)


@njit
def unify_mixed(a, c):
    if c:
        y = a
    else:
        y = 1
    return y


def test_uint64_and_int_unify_to_float64():
    assert unify_mixed(U(2 ** 63 + 1), True) == float(2 ** 63 + 1)


@njit
def shifts(a, b):
    return a >> b, a << b


def test_shifts_follow_the_left_operand():
    assert shifts(I(-16), U(2)) == (-4, -64)
    assert shifts(U(2 ** 63), I(3)) == (2 ** 60, 0)
    assert shifts(np.uint8(200), I(1)) == (100, 400)


@njit
def floor_and_int(x):
    return math.floor(x), int(x)


@njit
def big_global(x):
    return x + BIG_GLOBAL, -9223372036854775808


def test_unsigned_values_survive_conversions():
    assert floor_and_int(U(2 ** 64 - 1)) == (2 ** 64 - 1, 2 ** 64 - 1)
    assert big_global(U(1)) == (2 ** 63 + 6, -2 ** 63)


@njit
def top_bit(x):
    return (x & (1 << 63)) >> 63  # 1 << 63 is folded by Python: the uint64 literal 2**63


@njit
def folded_constants(x):
    return x * (2 ** 64 - 1), -(1 << 63) + x, x + (7 // -2) + (7 % -2) + (-7 // 2) + (-1) ** 3 + (-8 >> 1)


def test_constant_integer_expressions_are_folded_as_python_does():
    # Numba types the folded constant by its value (Python folds before Numba sees the code).
    assert top_bit(U(2 ** 63 + 3)) == 1 and top_bit(U(5)) == 0
    assert folded_constants(I(1)) == (-1, -2 ** 63 + 1, 1 - 4 + -1 - 4 - 1 - 4)


def test_constant_folding_types():
    from cujit import _core
    from cujit.decorators import capture

    def shifted(x):
        return 1 << 63

    def masked(x):
        return x & (2 ** 64 - 1)

    assert _core.infer_types(capture(shifted), ["int64"])[0] == "uint64"
    assert _core.infer_types(capture(masked), ["uint64"])[0] == "uint64"
    assert _core.infer_types(capture(masked), ["int64"])[0] == "int64"
