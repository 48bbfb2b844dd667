"""Stand-in for numba-cuda's ``numba.cuda.testing``, served by the conformance runner only.

numba-cuda's own module imports its driver, pytest fixtures and the filecheck package; this one
offers the names the test files import, written against the environment alone, so the same
stand-in serves cujit and numba-cuda (the baseline) and the two are compared on equal terms.
Whether the simulator is in use is read from NUMBA_ENABLE_CUDASIM / CUJIT_ENABLE_CUDASIM, which
the runner sets; on the GPU the device's compute capability comes from ``cuda.get_current_device``.
"""
import os
import platform
import shutil
import unittest
from pathlib import Path

import numpy as np

from numba.cuda.tests.support import TestCase

ENABLE_CUDASIM = any(os.environ.get(v, "") not in ("", "0")
                     for v in ("NUMBA_ENABLE_CUDASIM", "CUJIT_ENABLE_CUDASIM"))

# The data files (.cu, .ptx, ...) some tests link: they ship in the wheel beside the tests.
test_data_dir = Path(os.environ["CONFORMANCE_TESTS_DIR"]) / "data"


class CUDATestCase(TestCase):
    """A test that uses a CUDA device (or the simulator)."""

    FLOAT16_RTOL = np.finfo(np.float16).eps

    def setUp(self):
        from numba.cuda import config
        # numba-cuda's test case silences these two warnings for the whole suite.
        self._saved_config = {}
        for name in ("CUDA_LOW_OCCUPANCY_WARNINGS", "CUDA_WARN_ON_IMPLICIT_COPY"):
            if hasattr(config, name):
                self._saved_config[name] = getattr(config, name)
                setattr(config, name, 0)

    def tearDown(self):
        from numba.cuda import config
        for name, value in self._saved_config.items():
            setattr(config, name, value)

    # FileCheck (exact LLVM/PTX text) needs the filecheck package, which neither side installs
    # here, and checks a compiler's output text rather than behaviour: skipped on both sides.
    def assertFileCheckMatches(self, *args, **kwargs):
        self.skipTest("FileCheck is not available in the conformance runner")

    assertFileCheckAsm = assertFileCheckMatches
    assertFileCheckLLVM = assertFileCheckMatches


def skip_on_cudasim(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(ENABLE_CUDASIM, reason)


def skip_unless_cudasim(reason):
    assert isinstance(reason, str)
    return unittest.skipUnless(ENABLE_CUDASIM, reason)


def _has_numba():
    from numba.cuda import HAS_NUMBA
    return HAS_NUMBA


skip_on_standalone_numba_cuda = unittest.skipUnless(_has_numba(), "requires base numba install")


def skip_unless_conda_cudatoolkit(reason):
    return unittest.skip(reason)


def skip_if_external_memmgr(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(os.environ.get("NUMBA_CUDA_MEMORY_MANAGER", "default") != "default", reason)


def skip_under_cuda_memcheck(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(os.environ.get("CUDA_MEMCHECK") is not None, reason)


def skip_without_nvdisasm(reason):
    return unittest.skipIf(shutil.which("nvdisasm") is None, reason)


def skip_with_nvdisasm(reason):
    return unittest.skipIf(shutil.which("nvdisasm") is not None, reason)


def skip_on_arm(reason):
    cpu = platform.machine().lower()
    return unittest.skipIf(cpu.startswith("arm") or cpu.startswith("aarch"), reason)


def skip_on_wsl2(reason):
    return unittest.skipIf("wsl2" in platform.release().lower(), reason)


def _cuda_include_dir():
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.path.isdir(os.path.join(root, "include")):
            return os.path.join(root, "include")
    return None


def skip_if_cuda_includes_missing(fn):
    inc = _cuda_include_dir()
    return unittest.skipUnless(inc and os.path.isfile(os.path.join(inc, "cuda.h")),
                               "CUDA include dir not available on this system")(fn)


def skip_if_curand_kernel_missing(fn):
    inc = _cuda_include_dir()
    return unittest.skipUnless(inc and os.path.isfile(os.path.join(inc, "curand_kernel.h")),
                               "curand_kernel.h not available on this system")(fn)


def cc_X_or_above(major, minor):
    if ENABLE_CUDASIM:
        return True
    from numba import cuda
    return tuple(cuda.get_current_device().compute_capability) >= (major, minor)


def skip_unless_cc_50(fn):
    return unittest.skipUnless(cc_X_or_above(5, 0), "requires cc >= 5.0")(fn)


def skip_unless_cc_53(fn):
    return unittest.skipUnless(cc_X_or_above(5, 3), "requires cc >= 5.3")(fn)


def skip_unless_cc_60(fn):
    return unittest.skipUnless(cc_X_or_above(6, 0), "requires cc >= 6.0")(fn)


def skip_unless_cc_75(fn):
    return unittest.skipUnless(cc_X_or_above(7, 5), "requires cc >= 7.5")(fn)


def skip_unless_cc_90(fn):
    return unittest.skipUnless(cc_X_or_above(9, 0), "requires cc >= 9.0")(fn)


def xfail_unless_cudasim(fn):
    return fn if ENABLE_CUDASIM else unittest.expectedFailure(fn)


def cudadevrt_missing():
    if ENABLE_CUDASIM:
        return False
    inc = _cuda_include_dir()
    return not (inc and os.path.isfile(os.path.join(os.path.dirname(inc), "lib64", "libcudadevrt.a")))


def skip_if_cudadevrt_missing(fn):
    return unittest.skipIf(cudadevrt_missing(), "cudadevrt missing")(fn)


def _have_nvjitlink():
    try:
        from numba.cuda.cudadrv.driver import _have_nvjitlink as have
        return bool(have())
    except Exception:
        return False


def skip_if_nvjitlink_missing(reason):
    return unittest.skipIf(not _have_nvjitlink(), reason)


def skip_on_nvjitlink_13_1_sm_120(reason):
    # The runner's machines are sm_90 (H100/H200) or the simulator: never sm_120.
    return unittest.skipIf(False, reason)


class ForeignArray:
    """An array from "another library": a device array behind only __cuda_array_interface__."""

    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__
