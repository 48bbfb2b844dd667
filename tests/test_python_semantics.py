"""Python's and NumPy's run-time semantics in compiled code, each pinned to what Numba 0.68 /
numba-cuda 0.30 do on the same program (expected values and messages are literals taken from
running it there): errors Python raises, round(), print() of floats, and boundscheck."""
import math

import numpy as np
import pytest

import cujit
from cujit import config, cuda, njit

INT64_MIN = -(2 ** 63)


def raises_msg(exc, msg):
    return pytest.raises(exc, match="^" + msg.replace("(", r"\(").replace(")", r"\)") + "$")


# ---- print(): floats as Python's repr ---------------------------------------------------------

@njit
def _print_values(x, y, b, i, u):
    print(x, y, b, i, u, "s", None)
    print(1e16, 1e-05, 0.0001, -0.0, np.inf, -np.inf, np.nan, 123456789012345678.0, 1.5, 100.0)
    print()


def test_print_floats_as_repr_in_jit(capfd):
    _print_values(1e-10, np.float32(0.1), True, -3, np.uint64(2 ** 64 - 1))
    _print_values(0.1, np.float32(3.4e38), False, 0, np.uint8(5))
    out = capfd.readouterr().out
    # Numba's output, line for line (a float32 prints as the float64 it converts to).
    assert out == ("1e-10 0.10000000149011612 True -3 18446744073709551615 s None\n"
                   "1e+16 1e-05 0.0001 -0.0 inf -inf nan 1.2345678901234568e+17 1.5 100.0\n"
                   "\n"
                   "0.1 3.3999999521443642e+38 False 0 5 s None\n"
                   "1e+16 1e-05 0.0001 -0.0 inf -inf nan 1.2345678901234568e+17 1.5 100.0\n"
                   "\n")


def test_print_shortest_round_trip_digits(capfd):
    @njit
    def show(a):
        for i in range(a.shape[0]):
            print(a[i])

    rng = np.random.default_rng(7)
    values = np.concatenate([
        rng.standard_normal(200) * 10.0 ** rng.integers(-300, 300, 200),
        rng.integers(0, 10 ** 6, 100) / 10.0 ** rng.integers(0, 22, 100),
        # ties between two shortest candidates (even wins), subnormals, extremes, the 1e16 edge
        [1734806643877314.25, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e23,
         9999999999999998.0, 1e15, 0.1 + 0.2, 2.0 / 3, 4.35, 1e-7, 0.00012345, 1e22],
    ])
    show(values)
    assert capfd.readouterr().out.split("\n")[:-1] == [repr(float(v)) for v in values]


def test_print_in_kernel(target, capfd):
    @cuda.jit
    def k(x, y):
        print(x, y, True, 7, "s", None)
        print(1e16, -0.0, np.inf, np.nan)

    k[1, 1](1e-10, np.float32(0.1))
    cuda.synchronize()
    assert capfd.readouterr().out == ("1e-10 0.10000000149011612 True 7 s None\n"
                                      "1e+16 -0.0 inf nan\n")


# ---- errors Python raises ---------------------------------------------------------------------

@pytest.mark.parametrize("fn, msg", [
    (lambda a: a.min(), "zero-size array to reduction operation minimum which has no identity"),
    (lambda a: a.max(), "zero-size array to reduction operation maximum which has no identity"),
    (lambda a: np.min(a), "zero-size array to reduction operation minimum which has no identity"),
    (lambda a: np.max(a), "zero-size array to reduction operation maximum which has no identity"),
    (lambda a: np.amin(a), "zero-size array to reduction operation minimum which has no identity"),
])
def test_empty_reductions_raise(fn, msg):
    f = njit(fn)
    for a in (np.zeros(0), np.zeros((0, 3)), np.zeros(0, np.int64)):
        with raises_msg(ValueError, msg):
            f(a)
    assert f(np.array([3.0, 1.0, 2.0])) in (1.0, 3.0)


def test_empty_sum_and_mean_do_not_raise():
    assert njit(lambda a: a.sum())(np.zeros(0)) == 0.0
    assert math.isnan(njit(lambda a: np.mean(a))(np.zeros(0)))


def _count(n, s):
    c = 0
    for i in range(0, n, s):
        c += 1
    return c


@pytest.mark.parametrize("error_model", ["python", "numpy"])
def test_range_zero_step_raises(error_model):
    f = njit(error_model=error_model)(_count)
    with raises_msg(ValueError, "range() arg 3 must not be zero"):
        f(5, 0)
    assert f(5, 2) == 3 and f(5, -1) == 0


def test_prange_zero_step_raises():
    @njit(parallel=True)
    def f(n, s):
        t = 0
        for i in cujit.prange(0, n, s):
            t += i
        return t

    with raises_msg(ValueError, "range() arg 3 must not be zero"):
        f(5, 0)
    assert f(5, 1) == 10


def test_range_zero_step_in_kernel(target):
    @cuda.jit
    def k(out, s):
        out[0] = 1
        for i in range(0, 5, s):
            out[1] += 1
        out[2] = 1

    out = np.zeros(3, np.int64)
    if target == "sim":
        with pytest.raises(cujit.errors.SimulatorError, match="ValueError: range\\(\\) arg 3 must not be zero"):
            k[1, 1](out, 0)
    else:  # the thread ends there, as numba-cuda's kernels end on an exception
        k[1, 1](out, 0)
        assert list(out) == [1, 0, 0]
    out[:] = 0
    k[1, 1](out, 2)
    assert list(out) == [1, 3, 1]


def test_arange_zero_step_raises():
    with raises_msg(ValueError, "Maximum allowed size exceeded"):
        njit(lambda s: np.arange(0, 5, s))(0)
    with raises_msg(ValueError, "Maximum allowed size exceeded"):
        njit(lambda s: np.arange(0.0, 5.0, s))(0.0)
    assert list(njit(lambda s: np.arange(0, 5, s))(2)) == [0, 2, 4]


@pytest.mark.parametrize("a, b, expect", [(2, -1, 0), (-2, -1, 0), (1, -1, 1), (-1, -3, -1), (-1, -2, 1), (2, -2, 0),
                                          (3, 4, 81)])
def test_int_power_negative_exponent(a, b, expect):
    assert njit(lambda a, b: a ** b)(a, b) == expect


def test_int_zero_to_negative_power():
    with raises_msg(ZeroDivisionError, "0 cannot be raised to a negative power"):
        njit(lambda a, b: a ** b)(0, -1)
    with raises_msg(ZeroDivisionError, "0 cannot be raised to a negative power"):
        njit(lambda a: a ** -2)(0)
    with raises_msg(ZeroDivisionError, "0 cannot be raised to a negative power"):
        njit(lambda a, b: a ** b)(np.int32(0), np.int32(-1))
    # Numba's NumPy error model returns the type's smallest value there.
    assert njit(error_model="numpy")(lambda a, b: a ** b)(0, -1) == INT64_MIN


@pytest.mark.parametrize("error_model", ["python", "numpy"])
def test_float_zero_to_negative_int_power(error_model):
    f = njit(error_model=error_model)(lambda a, b: a ** b)
    with raises_msg(ZeroDivisionError, "division by zero"):
        f(0.0, -1)
    with raises_msg(ZeroDivisionError, "division by zero"):
        f(1e-200, -2)  # the power underflows to 0 before Numba inverts it
    assert f(2.0, -2) == 0.25
    assert njit(error_model=error_model)(lambda a, b: a ** b)(0.0, -1.0) == math.inf


def test_int_zero_power_in_kernel(target):
    @cuda.jit
    def k(out, a, b):
        out[0] = a ** b
        out[1] = (a + 2) ** b

    out = np.zeros(2, np.int64)
    k[1, 1](out, 0, -1)
    assert list(out) == [INT64_MIN, 0]  # numba-cuda's NumPy error model


# ---- round ------------------------------------------------------------------------------------

@pytest.mark.parametrize("x, n, expect", [
    (1e308, 1, 1e308), (-1.7e308, 2, -1.7e308), (12345.678, -2, 12300.0), (0.1, 400, 0.1), (2.675, 2, 2.68),
    (0.125, 2, 0.12), (0.5, 0, 0.0), (1.5, 0, 2.0), (25.0, -1, 20.0), (35.0, -1, 40.0), (5e-324, 323, 0.0),
    (1.23e-300, 302, 1.2299999999999995e-300), (-0.001, 1, -0.0), (1.0, 23, 1.0), (123.456, 30, 123.456),
    # Python's answer where 10**-n overflows (Numba's is nan)
    (12345.678, -400, 0.0), (-5.0, -309, -0.0),
])
def test_round_ndigits(x, n, expect):
    r = njit(lambda x, n: round(x, n))(x, n)
    assert r == expect and math.copysign(1, r) == math.copysign(1, expect)


@pytest.mark.parametrize("x, n, expect", [(2.675, 2, 2.680000066757202), (1.2345, 3, 1.2339999675750732),
                                          (3.4e38, 1, math.inf)])
def test_round_float32_in_float32(x, n, expect):
    assert njit(lambda x, n: round(x, n))(np.float32(x), n) == expect


def test_round_ints_and_specials():
    assert njit(lambda x: round(x))(7) == 7
    assert njit(lambda x, n: round(x, n))(1250, -2) == 1200.0
    assert njit(lambda x, n: round(x, n))(1234, 2) == 1234.0
    assert njit(lambda x: round(x))(2.5) == 2
    assert math.isnan(njit(lambda x, n: round(x, n))(math.nan, 2))
    assert njit(lambda x, n: round(x, n))(-math.inf, 2) == -math.inf


def test_round_in_kernel(target):
    @cuda.jit
    def k(out, x):
        out[0] = round(x, 1)
        out[1] = round(x, -400)
        out[2] = round(2.675, 2)

    out = np.zeros(3)
    k[1, 1](out, 1e308)
    assert list(out) == [1e308, 0.0, 2.68]


# ---- boundscheck ------------------------------------------------------------------------------

def _store(a, i):
    a[i] = 1.0


@pytest.mark.parametrize("fn, args", [
    (lambda a, i: a[i], (np.arange(5.0), 5)),
    (lambda a, i: a[i], (np.arange(5.0), -6)),
    (_store, (np.arange(5.0), 7)),
    (lambda a, i, j: a[i, j], (np.zeros((2, 3)), 1, 3)),
    (lambda a, i: a[i], (np.zeros((2, 3)), 2)),
    (lambda a, i: a[i, :].sum(), (np.ones((2, 3)), 5)),
    (lambda a, i: a[:, i].sum(), (np.ones((2, 3)), -4)),
])
def test_boundscheck_raises_index_error(fn, args):
    with raises_msg(IndexError, "index is out of bounds"):
        njit(boundscheck=True)(fn)(*args)


def test_boundscheck_in_bounds_and_slices():
    a = np.arange(5.0)
    assert njit(boundscheck=True)(lambda a, i: a[i])(a, -5) == 0.0
    assert njit(boundscheck=True)(lambda a: a[2:100].sum())(a) == 9.0  # slices clip, as in Python
    assert njit(boundscheck=True)(lambda a, i: a[i, 1:].sum())(np.ones((2, 3)), -1) == 2.0


def test_boundscheck_off_by_default_and_environment_override(monkeypatch):
    read = lambda a, i: a[i]  # noqa: E731
    plain = njit(read)
    assert "cj::elem_bc(" not in plain.inspect_source(["float64[::1]", "int64"])
    assert "cj::elem_bc(" in njit(boundscheck=True)(read).inspect_source(["float64[::1]", "int64"])
    monkeypatch.setattr(config, "BOUNDSCHECK", True)  # CUJIT_BOUNDSCHECK=1 / NUMBA_BOUNDSCHECK=1
    with raises_msg(IndexError, "index is out of bounds"):
        njit(read)(np.arange(3.0), 3)
    monkeypatch.setattr(config, "BOUNDSCHECK", False)  # =0 wins over the option, as in Numba
    assert "cj::elem_bc(" not in njit(boundscheck=True)(read).inspect_source(["float64[::1]", "int64"])


def test_boundscheck_environment_parsing(monkeypatch):
    for value, expect in [("", None), ("1", True), ("0", False)]:
        monkeypatch.setenv("NUMBA_BOUNDSCHECK", value)
        monkeypatch.delenv("CUJIT_BOUNDSCHECK", raising=False)
        assert config._tristate("CUJIT_BOUNDSCHECK", "NUMBA_BOUNDSCHECK") is expect
    monkeypatch.setenv("CUJIT_BOUNDSCHECK", "0")
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "1")
    assert config._tristate("CUJIT_BOUNDSCHECK", "NUMBA_BOUNDSCHECK") is False


def test_cuda_jit_boundscheck_refused_as_numba_cuda():
    with raises_msg(NotImplementedError, "bounds checking is not supported for CUDA"):
        cuda.jit(boundscheck=True)
    cuda.jit(boundscheck=False)


def test_boundscheck_environment_checks_gpu_indices(monkeypatch):
    monkeypatch.setattr(config, "BOUNDSCHECK", True)

    @cuda.jit
    def k(a, i):
        a[i] = 1.0

    assert "#define CJ_DEBUG_CHECKS 1" in k.inspect_source(["float64[::1]", "int64"])
    monkeypatch.setattr(config, "BOUNDSCHECK", None)

    @cuda.jit
    def plain(a, i):
        a[i] = 1.0

    assert "#define CJ_DEBUG_CHECKS 1" not in plain.inspect_source(["float64[::1]", "int64"])


def test_view_integer_index_checked_in_kernel(target):
    @cuda.jit(debug=True, opt=False)
    def k(a, i, out):
        out[0] = a[i, :].shape[0]

    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 of 'a' with size 2"):
        k[1, 1](np.ones((2, 3)), 5, np.zeros(1, np.int64))


# ---- found on the way: an OpenMP library unloaded under libgomp's threads ----------------------

def test_prange_function_collected_after_other_jit_calls(tmp_path):
    """A @jit call, then a prange function called and garbage-collected, crashed the process in
    libgomp (its library was dlclosed under the idle worker threads); it must exit normally."""
    import os
    import subprocess
    import sys
    script = tmp_path / "collect.py"
    script.write_text(
        "import gc\nimport cujit\n\n\n@cujit.njit\ndef one(n):\n    return n + 1\n\n\n"
        "def run():\n    @cujit.njit(parallel=True)\n    def f(n):\n        t = 0\n"
        "        for i in cujit.prange(n):\n            t += i\n        return t\n    return f(5)\n\n\n"
        "one(1)\nassert run() == 10\ngc.collect()\nprint('done')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0 and p.stdout == "done\n", p.stderr


def test_cpu_ufunc_raising_element_does_not_end_the_process():
    """Numba's @vectorize raises here; a NumPy loop has no error channel, so the element is 0
    (documented), but the exception must not escape the loop (it ended the process)."""
    f = cujit.vectorize(["float64(float64, int64)"])(lambda a, b: a ** b)
    assert list(f(np.array([0.0, 2.0]), np.array([-1, -1]))) == [0.0, 0.5]

    def count(n, s):
        c = 0
        for i in range(0, n, s):
            c += 1
        return c

    g = cujit.vectorize(["int64(int64, int64)"])(count)
    assert list(g(np.array([5, 5]), np.array([0, 2]))) == [0, 3]


def test_tuple_index_out_of_range_raises():
    f = njit(lambda i: (1.0, 2.0, 3.0)[i])
    assert f(-1) == 3.0 and f(2) == 3.0
    for i in (3, 5, -4):
        with raises_msg(IndexError, "tuple index out of range"):
            f(i)
    with raises_msg(IndexError, "tuple index out of range"):
        njit(lambda a, i: a.shape[i])(np.zeros((2, 3)), 2)


def test_tuple_index_out_of_range_in_kernel(target):
    @cuda.jit
    def k(out, i):
        t = (1.0, 2.0, 3.0)
        out[0] = t[i]
        out[1] = 1.0

    out = np.zeros(2)
    if target == "sim":
        with pytest.raises(IndexError, match="tuple index out of range"):
            k[1, 1](out, 3)
    else:  # the thread ends, as numba-cuda's does on an exception
        k[1, 1](out, 3)
        assert list(out) == [0.0, 0.0]
    k[1, 1](out, -1)
    assert list(out) == [3.0, 1.0]
