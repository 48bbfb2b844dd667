"""The builtin pow(a, b) is a ** b, as in Numba 0.68; and a call (pow, operator.pow, operator.add,
...) is computed at run time with Numba's types, never folded as Python folds a literal operator
expression: pow(2, -1) is int ** int (0 in Numba), while `2 ** -1` is the float 0.5 that CPython
folds before Numba sees it; operator.add(2**62, 2**62) wraps in int64. Values pinned from Numba."""
import operator

from cujit import njit


def test_pow_builtin():
    @njit
    def f(x):
        return pow(x, 3), pow(2.0, x), pow(x, -1)

    assert f(4) == (64, 16.0, 0)


def test_calls_of_literals_are_not_folded():
    @njit
    def f(x):
        return operator.pow(2, -1), operator.add(1 << 62, 1 << 62), pow(2, -1), operator.truediv(1, 2), 2 ** -1

    got = f(1)
    assert got == (0, -9223372036854775808, 0, 0.5, 0.5)
    assert type(got[0]) is int and type(got[2]) is int and type(got[4]) is float


# Numba's int_power (cpython/numbers.py) for int ** int and float ** int: the exponent keeps its own
# type, and an exponent above 0x10000 goes to math.pow(a, float(b)) in double rather than being
# squared. Squaring drifted silently before (float32 1.0001 ** 70000 gave 1095.90, Numba 1097.52)
# and a uint64 exponent above 2**63 was taken as negative. Values pinned from Numba 0.68.
def test_large_and_unsigned_exponents_as_numba():
    import numpy as np

    @njit
    def p(a, b):
        return a ** b

    assert p(1.0000001, 100001).hex() == "0x1.0292a7829d873p+0"
    assert p(1.0000001, 65536).hex() == "0x1.01aee83bced61p+0"  # at the cutoff: still squared
    assert p(1.0000001, 65537).hex() == "0x1.01aee9ec2158ap+0"
    assert p(0.99999, -70000).hex() == "0x1.01c2e13246963p+1"
    assert p(np.float32(1.0001), 70000) == 1097.5234375
    assert p(-1, 100001) == -1
    assert p(0.5, np.uint64(2**63 + 1)) == 0.0
    assert p(True, np.uint64(2**64 - 600)) == 1
    assert p(0.0, -70000) == float("inf")  # math.pow, no 1 / 0 past the cutoff
    assert p(2.0, -70000) == 0.0
    assert p(np.uint64(3), np.int64(5)) == 243


def test_large_exponents_of_int_arrays_as_numba():
    import numpy as np

    @njit
    def f(a, b):
        return np.power(a, b), a ** b

    a = np.array([0, 2, -1, 1], dtype=np.int64)
    b = np.array([-1, -1, -70001, -5], dtype=np.int64)
    for r in f(a, b):  # array expressions take NumPy's error model: 0 ** -1 is the smallest int64
        np.testing.assert_array_equal(r, [-2**63, 0, -1, 1])
    r = f(np.array([1.0001, 3], np.float32), np.array([70000, 3], np.int64))[0]
    np.testing.assert_array_equal(r, np.array([1097.5234375, 27], np.float32))


def test_large_exponents_in_kernels(target):
    import numpy as np
    from cujit import cuda

    @cuda.jit
    def k(x, n, u, out):
        out[0] = x[0] ** n[0]
        out[1] = x[1] ** n[1]
        out[2] = x[2] ** u[0]
        out[3] = x[3] ** n[2]

    x = np.array([1.0000001, 0.99999, 0.5, 1.0000001])
    out = np.zeros(4)
    k[1, 1](x, np.array([100001, -70000, 65536]), np.array([2**63 + 1], dtype=np.uint64), out)
    want = [float.fromhex(h) for h in ("0x1.0292a7829d873p+0", "0x1.01c2e13246963p+1", "0x0.0p+0",
                                       "0x1.01aee83bced61p+0")]
    if target == "sim":  # glibc's pow, as Numba's CPU target
        assert list(out) == want
    else:  # libdevice's pow is within 2 ulp; squaring was 1e-12 away
        np.testing.assert_allclose(out, want, rtol=1e-15)
