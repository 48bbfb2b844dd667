"""Run-time settings, read from the environment once at import.

CUJIT_ENABLE_CUDASIM=1 (or Numba's NUMBA_ENABLE_CUDASIM=1): run CUDA kernels and ufuncs on the
    CPU simulator instead of the GPU.
CUJIT_DEBUG=1..3: print the compiler's stages, then the typed trees, then the generated code.
CUJIT_CACHE_DIR: the disk cache folder (default ~/.cache/cujit); CUJIT_DISABLE_CACHE=1 turns it off.
CUJIT_CHECK_PTX=1: on the simulator, also compile every kernel with NVRTC to PTX for sm_90, so code
    that would not build for the GPU fails on a machine without one (the test suite sets it).
"""

import os
import sys


def _flag(*names):
    for n in names:
        v = os.environ.get(n, "")
        if v not in ("", "0", "false", "False", "no"):
            return True
    return False


ENABLE_CUDASIM = _flag("CUJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM")
CHECK_PTX = _flag("CUJIT_CHECK_PTX")


def nvrtc_wheel_dirs():
    """Folders of the pip wheels that ship libnvrtc (nvidia-cuda-nvrtc-cu12/cu13), if installed."""
    dirs = []
    for base in sys.path:
        for sub in ("nvidia/cuda_nvrtc/lib", "nvidia/cu13/lib", "nvidia/cu12/lib"):
            d = os.path.join(base, sub)
            if os.path.isdir(d):
                dirs.append(d)
    return dirs
