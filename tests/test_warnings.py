"""numba-cuda's warnings (cudapy/test_warning.py): NumbaPerformanceWarning for a grid of under 128
blocks and for host arrays given to kernels (on by default, as in numba-cuda; the suite's conftest
turns them off, these tests turn them on), and NumbaInvalidConfigWarning for debug=True with opt
on. The messages are numba-cuda's, word for word."""
import contextlib
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

from cujit import config, cuda
from cujit.errors import NumbaInvalidConfigWarning, NumbaPerformanceWarning


@contextlib.contextmanager
def setting(name, value):
    old = getattr(config, name)
    setattr(config, name, value)
    try:
        yield
    finally:
        setattr(config, name, old)


@cuda.jit
def noop():
    pass


@cuda.jit
def add_one(r, x):
    r[0] = x + 1


LOW = "Grid size 1 will likely result in GPU under-utilization due to low occupancy."
COPY = "Host array used in CUDA kernel will incur copy overhead to/from device."


def messages(record):
    return [str(w.message) for w in record]


def test_low_occupancy_warning_at_configuration(target):
    with setting("CUDA_LOW_OCCUPANCY_WARNINGS", 1):
        with pytest.warns(NumbaPerformanceWarning) as rec:
            launch = noop[1, 1]
        assert messages(rec) == [LOW]
        launch()
        # Again for the same configuration (cujit reuses its parsed values), and for configure().
        with pytest.warns(NumbaPerformanceWarning, match="Grid size 1 "):
            noop[1, 1]()
        with pytest.warns(NumbaPerformanceWarning, match=r"Grid size 6 will likely"):
            noop.configure((3, 2, 1), 1)()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            noop[128, 1]()
            noop[(16, 8), 1]()
        with setting("DISABLE_PERFORMANCE_WARNINGS", 1):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                noop[1, 1]()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        noop[2, 1]()  # off (as the suite's conftest sets it)


def test_low_occupancy_warning_once_per_line_as_python(target):
    # The default filter shows a warning once per line; cujit skips the repeated PyErr_WarnEx at
    # the same place (kernel_checks.cpp), and must still show it wherever CPython would: under
    # "always", in a new catch_warnings block, at another line, with another text.
    def loop(n, grid):
        for _ in range(n):
            noop[grid, 1]()

    with setting("CUDA_LOW_OCCUPANCY_WARNINGS", 1):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("default")
            loop(5, 1)
            loop(3, 2)
            noop[1, 1]()
        assert messages(rec) == [LOW, LOW.replace("size 1", "size 2"), LOW]
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            loop(4, 1)
        assert messages(rec) == [LOW] * 4
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("default")
            loop(2, 1)  # a new block: shown again, once
        assert messages(rec) == [LOW]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(NumbaPerformanceWarning):
                loop(1, 1)


def test_low_occupancy_warning_as_error_launches_nothing(target):
    a = np.zeros(1, np.float32)
    with setting("CUDA_LOW_OCCUPANCY_WARNINGS", 1), warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(NumbaPerformanceWarning):
            add_one[1, 1](a, 5)
    assert a[0] == 0


def test_implicit_copy_warning(target):
    n = 10
    with setting("CUDA_WARN_ON_IMPLICIT_COPY", 1):
        for host in (np.zeros(n, np.float32), cuda.pinned_array(n, dtype=np.float32)):
            host[:] = 0
            with pytest.warns(NumbaPerformanceWarning) as rec:
                add_one[1, n](host, n)
            assert messages(rec) == [COPY]
            assert host[0] == n + 1  # still copied back
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            d = cuda.device_array(n, dtype=np.float32)
            add_one[1, n](d, n)
            assert d.copy_to_host()[0] == n + 1
            m = cuda.mapped_array(n, dtype=np.float32)
            add_one[1, n](m, n)
            cuda.synchronize()
            assert m[0] == n + 1
        with setting("DISABLE_PERFORMANCE_WARNINGS", 1), warnings.catch_warnings():
            warnings.simplefilter("error")
            add_one[1, n](np.zeros(n, np.float32), n)


def test_debug_with_opt_warns():
    msg = ("debug=True with opt=True is not supported by CUDA. This may result in a crash - set "
           "debug=False or opt=False.")
    for kwargs in ({"debug": True, "opt": True}, {"debug": True}):
        with pytest.warns(NumbaInvalidConfigWarning) as rec:
            cuda.jit(**kwargs)
        assert messages(rec) == [msg]
    with pytest.warns(NumbaInvalidConfigWarning, match="debug and lineinfo are mutually exclusive"):
        cuda.jit(debug=True, opt=False, lineinfo=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuda.jit(debug=True, opt=False)
        cuda.jit()
        cuda.jit(opt=True)


def test_debug_and_opt_defaults_from_config():
    with setting("CUDA_DEBUGINFO_DEFAULT", 1):
        for opt in (1, 2, 3, "max"):
            with setting("OPT", config._OptLevel(opt)):
                with pytest.warns(NumbaInvalidConfigWarning, match="not supported by CUDA"):
                    cuda.jit()
        with setting("OPT", config._OptLevel(0)), warnings.catch_warnings():
            warnings.simplefilter("error")
            cuda.jit()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            cuda.jit(opt=False)
    with setting("OPT", config._OptLevel(0)), warnings.catch_warnings():
        warnings.simplefilter("error")
        cuda.jit(debug=True)
    assert config._OptLevel("max") == 3 and config._OptLevel("max").is_opt_max
    assert repr(config._OptLevel(2)) == "_OptLevel(2)"


def test_performance_warnings_on_by_default():
    # numba-cuda's defaults; NUMBA_CUDA_* variables set them, as there.
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CUDA_")}
    code = ("from cujit import config; print(config.CUDA_LOW_OCCUPANCY_WARNINGS, "
            "config.CUDA_WARN_ON_IMPLICIT_COPY, config.DISABLE_PERFORMANCE_WARNINGS)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "1", "0"]
    env["NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS"] = "0"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "1", "0"]


def vector_add(a, b):
    return a + b


def test_cuda_vectorize_options(target):
    # numba-cuda's CUDA vectorize: nopython is redundant (a RuntimeWarning), other options refused.
    from cujit import vectorize
    a = np.array([2.0], np.float32)
    with pytest.warns(RuntimeWarning) as rec:
        f = vectorize(["float32(float32, float32)"], target="cuda", nopython=True)(vector_add)
    assert messages(rec) == ["nopython kwarg for cuda target is redundant"]
    np.testing.assert_array_equal(f(a, a), [4.0])
    with pytest.raises(KeyError, match="Unrecognized options. cuda vectorize target does not support "
                                       "option: 'nonexistent'"):
        vectorize(["float32(float32, float32)"], target="cuda", nonexistent=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        vectorize(["float32(float32, float32)"], target="cpu", nopython=True)(vector_add)
        vectorize(["float32(float32, float32)"], target="cuda")(vector_add)


def test_gufunc_low_occupancy_warning(target):
    from cujit import guvectorize

    @guvectorize(["void(float32[:], float32[:], float32[:])"], "(n),(n)->(n)", target="cuda")
    def mul(a, b, out):
        for i in range(a.shape[0]):
            out[i] = a[i] * b[i]

    a = np.arange(64, dtype=np.float32)
    with setting("CUDA_LOW_OCCUPANCY_WARNINGS", 1):
        with pytest.warns(NumbaPerformanceWarning, match="Grid size 1 will likely result"):
            out = mul(a, a)
    np.testing.assert_array_equal(out, a * a)


def test_lto_where_nvjitlink_loads():
    # cujit compiles the whole program as one NVRTC unit, so lto=True changes nothing where
    # nvJitLink can be loaded, and gives numba-cuda's RuntimeError where it cannot; lto=False is fine.
    from cujit.cuda.cudadrv.driver import _have_nvjitlink
    cuda.jit(lto=False)(vector_add)
    if not _have_nvjitlink():
        with pytest.raises(RuntimeError, match=r"^LTO requires nvjitlink, which is not available or not "
                                               r"sufficiently recent \(>=12\.3\)$"):
            cuda.jit(lto=True)
        return
    k = cuda.jit(lto=True)(vector_add)
    assert hasattr(k, "inspect_lto_ptx")
