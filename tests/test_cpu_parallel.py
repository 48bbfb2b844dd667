"""prange and @jit(parallel=True) (issue 5): the outermost prange loops run on OpenMP threads,
scalars updated with +=, -=, *=, /=, |=, &=, ^=, x = x + e or x = min(x, e) are reductions, and
the results equal the serial ones (each function's py_func, or NumPy)."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cujit
from cujit import njit, prange


@njit(parallel=True)
def reductions(n):
    s = 0.0
    p = 1.0
    q = 0
    d = 1.0
    lo = 1e9
    hi = -1e9
    bits = 0
    for i in prange(n):
        t = i * 2.0
        s += t
        p *= 1.0001
        q -= i
        d /= 1.0001
        lo = min(lo, (i - 37) ** 2)
        hi = max(i % 91, hi)
        bits |= 1 << (i % 13)
    return s, p, q, d, lo, hi, bits


def test_reductions_equal_serial():
    got = reductions(1000)
    want = reductions.py_func(1000)
    assert got[2] == want[2] and got[5] == want[5] and got[6] == want[6]
    np.testing.assert_allclose(got, want, rtol=1e-12)


@njit(parallel=True)
def assign_forms(n):
    s = 0
    m = 1.0
    lo = 0
    for i in prange(1, n):
        s = s + i
        m = 1.01 * m
        s = i + s
        lo = min(-i, lo)
    return s, m, lo


def test_assignment_forms_are_reductions():
    got, want = assign_forms(100), assign_forms.py_func(100)
    assert got[0] == want[0] and got[2] == want[2]
    assert got[1] == pytest.approx(want[1], rel=1e-12)


@njit(parallel=True)
def row_sums(a):
    out = np.empty(a.shape[0])
    for i in prange(a.shape[0]):
        acc = 0.0  # assigned first in the iteration: private to it
        for j in range(a.shape[1]):
            acc += a[i, j]
        out[i] = acc
    return out


def test_private_accumulator_and_inner_serial_loop():
    a = np.random.default_rng(1).random((257, 33))
    np.testing.assert_allclose(row_sums(a), a.sum(axis=1))


@njit(parallel=True)
def steps(n):
    s = 0
    for i in prange(10, n, 3):
        s += i
    for i in prange(n, 0, -2):
        s += i
    for i in prange(n, n):  # empty
        s += 1000
    return s


def test_ranges_with_steps():
    assert steps(300) == steps.py_func(300)


@njit(parallel=True)
def nested(n):
    s = 0
    for i in prange(n):
        for j in prange(i):  # nested prange: a plain serial loop inside the parallel one
            s += j
    return s


def test_nested_prange():
    assert nested(50) == nested.py_func(50)


@njit(parallel=True)
def allocates(n):
    out = np.empty(n)
    for i in prange(n):
        tmp = np.arange(i + 1.0)  # made on a worker thread, in the call's arena
        out[i] = tmp.sum()
    return out


def test_arrays_made_in_parallel_iterations():
    n = 500
    np.testing.assert_allclose(allocates(n), [i * (i + 1) / 2.0 for i in range(n)])


@njit(parallel=True)
def thread_ids(n):
    out = np.empty(n, np.int64)
    for i in prange(n):
        out[i] = cujit.get_thread_id()
    return out


def test_prange_without_parallel_is_range():
    @njit
    def serial(n):
        s = 0
        for i in prange(n):
            s += i
        return s

    assert serial(100) == 4950
    assert list(prange(3)) == [0, 1, 2] and cujit.get_thread_id() == 0


def test_runs_on_several_threads(tmp_path):
    # A child process with four threads, so the check does not depend on this machine's cores.
    code = textwrap.dedent("""
        import numpy as np, cujit
        from cujit import njit, prange

        @njit(parallel=True)
        def ids(n):
            out = np.empty(n, np.int64)
            for i in prange(n):
                out[i] = cujit.get_thread_id()
            return out

        print(cujit.get_num_threads(), sorted(set(ids(4000).tolist())))
        cujit.set_num_threads(1)
        print(sorted(set(ids(4000).tolist())))
    """)
    script = tmp_path / "threads.py"
    script.write_text(code)  # cujit compiles from source files
    env = dict(os.environ, CUJIT_NUM_THREADS="4")
    run = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    lines = out.splitlines()
    assert lines[0] == "4 [0, 1, 2, 3]"  # a static schedule gives every thread a block
    assert lines[1] == "[0]"


def test_set_num_threads_checks_its_argument():
    limit = cujit.get_num_threads()
    with pytest.raises(ValueError, match="between 1 and"):
        cujit.set_num_threads(0)
    with pytest.raises(ValueError, match="between 1 and"):
        cujit.set_num_threads(10 ** 6)
    with pytest.raises(TypeError):
        cujit.set_num_threads(1.5)
    cujit.set_num_threads(1)
    try:
        assert cujit.get_num_threads() == 1
        assert set(thread_ids(100).tolist()) == {0}
        np.testing.assert_allclose(reductions(1000), reductions.py_func(1000), rtol=1e-12)
    finally:
        cujit.set_num_threads(limit)


def test_numba_spellings():
    import cujit as numba  # what `import numba` gives through the alias

    @numba.njit(parallel=True)
    def total(a):
        s = 0.0
        for i in numba.prange(a.shape[0]):
            s += a[i]
        return s

    a = np.arange(1000.0)
    assert total(a) == a.sum()
    assert "#pragma omp parallel" in total.inspect_source(["float64[::1]"])


def test_kernels_treat_prange_as_range(target):
    from cujit import cuda

    @cuda.jit
    def fill(out):
        for i in prange(out.size):
            out[i] = i * 2

    d = cuda.device_array(16, np.int64)
    fill[1, 1](d)
    assert (d.copy_to_host() == np.arange(16) * 2).all()
