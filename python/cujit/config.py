"""Run-time settings, read from the environment once at import.

CUJIT_ENABLE_CUDASIM=1 (or Numba's NUMBA_ENABLE_CUDASIM=1): run CUDA kernels and ufuncs on the
    CPU simulator instead of the GPU.
NUMBA_DISABLE_JIT=1 (or CUJIT_DISABLE_JIT=1): @jit and @njit return the Python function unchanged,
    as Numba's do, so it can be stepped through with a debugger. CUDA kernels, device functions and
    ufuncs are compiled as usual (Numba does the same; use the simulator to debug those).
CUJIT_DEBUG=1..3: print the compiler's stages, then the typed trees, then the generated code.
CUJIT_CACHE_DIR: the disk cache folder (default ~/.cache/cujit); CUJIT_DISABLE_CACHE=1 turns it off.
CUJIT_CHECK_PTX=1: on the simulator, also compile every kernel with NVRTC to PTX for sm_90, so code
    that would not build for the GPU fails on a machine without one (the test suite sets it).
CUJIT_SIM_RACECHECK=1: kernels compiled from then on report shared-memory races on the simulator
    (SimulatorRaceError); read by the C++ core (src/pipeline.cpp) at each kernel compile.
CUJIT_BOUNDSCHECK=0/1 (or Numba's NUMBA_BOUNDSCHECK): overrides @jit's boundscheck option, as
    Numba's variable does (1: every @jit index is checked, IndexError; 0: none is); 1 also turns
    on the GPU's index checks of kernels (as debug=True does). Unset or empty: the option decides.
CUJIT_COMPILE_PROGRESS=SECONDS: a compile that takes longer prints "cujit: compiling ..." on stderr,
    and its total when done (default 1; 0: every compile that runs a compiler; "off": never).

Other NUMBA_* variables are not read: `python -m cujit --info` lists those set as ignored.
"""

import os
import sys


def _flag(*names):
    for n in names:
        v = os.environ.get(n, "")
        if v not in ("", "0", "false", "False", "no"):
            return True
    return False


def _seconds(name, default):
    """A number of seconds from the environment; None for "off" (or a negative number)."""
    v = os.environ.get(name, "").strip()
    if v == "":
        return default
    if v.lower() in ("off", "never", "no", "false", "none"):
        return None
    try:
        x = float(v)
    except ValueError:
        return default
    return None if x < 0 else x


def _tristate(*names):
    """None when none of `names` is set (or all are empty), else whether the first set one is on."""
    for n in names:
        v = os.environ.get(n, "").strip()
        if v != "":
            return v not in ("0", "false", "False", "no")
    return None


ENABLE_CUDASIM = _flag("CUJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM")
DISABLE_JIT = _flag("CUJIT_DISABLE_JIT", "NUMBA_DISABLE_JIT")
CHECK_PTX = _flag("CUJIT_CHECK_PTX")
BOUNDSCHECK = _tristate("CUJIT_BOUNDSCHECK", "NUMBA_BOUNDSCHECK")
COMPILE_PROGRESS_AFTER = _seconds("CUJIT_COMPILE_PROGRESS", 1.0)

# Every environment variable cujit (or the C++ core) reads, with what it does, for
# `python -m cujit --info`. Numba's own variables are here where cujit gives them Numba's meaning;
# --info names every other NUMBA_* variable that is set as not used.
ENVIRONMENT = {
    "CUJIT_ENABLE_CUDASIM": "kernels and ufuncs run on the CPU simulator",
    "NUMBA_ENABLE_CUDASIM": "as Numba: kernels and ufuncs run on the CPU simulator",
    "CUJIT_DISABLE_JIT": "@jit returns the Python function",
    "NUMBA_DISABLE_JIT": "as Numba: @jit returns the Python function",
    "CUJIT_DEBUG": "print the compiler's stages (1), typed trees (2), generated code (3)",
    "CUJIT_CACHE_DIR": "the disk cache's folder",
    "NUMBA_CACHE_DIR": "as Numba: the disk cache goes in its cujit/ subfolder (CUJIT_CACHE_DIR first)",
    "CUJIT_DISABLE_CACHE": "no disk cache",
    "CUJIT_DEBUG_CACHE": "print each disk cache hit, miss and save on stderr",
    "NUMBA_DEBUG_CACHE": "as Numba: print each disk cache hit, miss and save on stderr",
    "XDG_CACHE_HOME": "the disk cache's parent folder",
    "CUJIT_CHECK_PTX": "simulated kernels are also compiled to PTX",
    "CUJIT_RESTRICT": "0: kernels have no restrict variant (launches with non-overlapping arrays)",
    "CUJIT_SIM_RACECHECK": "the simulator reports shared-memory races",
    "CUJIT_BOUNDSCHECK": "0/1: @jit index checks off/on, whatever the option says",
    "NUMBA_BOUNDSCHECK": "as Numba: 0/1: @jit index checks off/on, whatever the option says",
    "NUMBA_OPT": "as Numba: the optimisation level, 0-3 or max (cuda.jit's opt= default: opt=False at 0)",
    "NUMBA_CUDA_DEBUGINFO": "as numba-cuda: cuda.jit's debug= default",
    "CUJIT_NUM_THREADS": "threads of parallel CPU code (prange, parallel ufuncs)",
    "NUMBA_NUM_THREADS": "as Numba: threads of parallel CPU code (prange, parallel ufuncs)",
    "CUJIT_COMPILE_PROGRESS": "seconds before a compile says it is running",
    "CXX": "the host C++ compiler",
    "CUDA_HOME": "where to find libnvrtc",
    "CUDA_PATH": "where to find libnvrtc",
    "CUDA_VISIBLE_DEVICES": "the GPUs the driver shows",
    "LD_LIBRARY_PATH": "where the system loader finds libcuda and libnvrtc",
    "NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS": "as numba-cuda: warn of grids under 128 blocks",
    "NUMBA_CUDA_WARN_ON_IMPLICIT_COPY": "as numba-cuda: warn of host arrays given to kernels",
    "NUMBA_DISABLE_PERFORMANCE_WARNINGS": "as Numba: no NumbaPerformanceWarning",
}


def nvrtc_wheel_dirs():
    """Folders of the pip wheels that ship libnvrtc (nvidia-cuda-nvrtc-cu12/cu13), if installed."""
    dirs = []
    for base in sys.path:
        for sub in ("nvidia/cuda_nvrtc/lib", "nvidia/cu13/lib", "nvidia/cu12/lib"):
            d = os.path.join(base, sub)
            if os.path.isdir(d):
                dirs.append(d)
    return dirs


def compiler_fallbacks():
    """C++ compilers pip can install, for machines without a system one: the `zig` of the ziglang
    package (`pip install ziglang`, or cujit[compiler]) as `zig c++`. Found by path, not imported."""
    for base in sys.path:
        zig = os.path.join(base or ".", "ziglang", "zig")
        if os.path.isfile(zig) and os.access(zig, os.X_OK):
            return [[os.path.abspath(zig), "c++"]]
    return []


def _int(name, default):
    """Numba's reading of an integer setting: the variable's value, or the default when unset."""
    v = os.environ.get(name, "").strip()
    try:
        return int(v) if v else default
    except ValueError:
        return default


# numba-cuda's performance warnings (NumbaPerformanceWarning), read by cujit at each launch from
# this module (so code may set them, as numba-cuda's override_config does), on by default as there,
# on both targets: a grid of under 128 blocks at kernel[grid, block], and a host NumPy array given
# to a kernel (an implicit copy to and from the device).
CUDA_LOW_OCCUPANCY_WARNINGS = _int("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", 1)
CUDA_WARN_ON_IMPLICIT_COPY = _int("NUMBA_CUDA_WARN_ON_IMPLICIT_COPY", 1)
DISABLE_PERFORMANCE_WARNINGS = _int("NUMBA_DISABLE_PERFORMANCE_WARNINGS", 0)

# Numba's other settings that code written for numba-cuda reads or sets (numba.cuda.config,
# numba.core.config; `override_config` in numba-cuda's tests), with Numba's defaults. cujit does
# not read them (but CUDA_DEBUGINFO_DEFAULT and OPT, which cuda.jit's debug/opt warning reads): the
# dumps and optimisation levels they ask for are Numba's (cujit's own are CUJIT_DEBUG and
# `python -m cujit`).
CUDA_ENABLE_NRT = False


class _OptLevel(int):
    """Numba's optimisation level (NUMBA_OPT): an int, 0 to 3, that remembers "max" (as 3)."""

    def __new__(cls, value):
        new = super().__new__(cls, 3 if value == "max" else int(value))
        new._raw_value = value if value == "max" else int(new)
        return new

    @property
    def is_opt_max(self):
        return self._raw_value == "max"

    def __repr__(self):
        return "_OptLevel(%r)" % (self._raw_value,)


def _opt_level():
    """NUMBA_OPT as Numba reads it: 0-3 or "max"; anything else is Numba's default, 3."""
    v = os.environ.get("NUMBA_OPT", "").strip()
    if v == "max":
        return _OptLevel("max")
    try:
        return _OptLevel(min(max(int(v), 0), 3)) if v else _OptLevel(3)
    except ValueError:
        return _OptLevel(3)


OPT = _opt_level()
DEBUG = 0
DUMP_ASSEMBLY = DUMP_LLVM = DUMP_IR = DUMP_CFG = DUMP_BYTECODE = 0
HTML = None
CUDA_DEALLOCS_COUNT = 10
CUDA_DEALLOCS_RATIO = 0.2
CUDA_DEBUG_POLY = False
CUDA_DEBUG_POLY_USE_TYPED_CONST = False
CUDA_NVRTC_EXTRA_SEARCH_PATHS = ""
ALWAYS_WARN_UNINIT_VAR = 0
CUDA_ARRAY_INTERFACE_SYNC = 1
CUDA_DEBUGINFO_DEFAULT = _int("NUMBA_CUDA_DEBUGINFO", 0)
DEBUGINFO_DEFAULT = 0
FORCE_CUDA_CC = None
CUDA_MEMORY_MANAGER = "default"
CUDA_DEFAULT_PTX_CC = (7, 5)
CUDA_PER_THREAD_DEFAULT_STREAM = 0
CUDA_LOG_LEVEL = ""
BOUNDSCHECK = None
DEVELOPER_MODE = FULL_TRACEBACKS = SHOW_HELP = 0


class _Settings(type(sys)):
    """This module's type: a change of a setting tells the C++ core, whose launch path keeps the
    performance-warning settings it read (a module getattr at every small-grid launch cost a third
    of numba-cuda's low-occupancy check). cujit/__init__.py adds the core's listener."""

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        for listener in _listeners:
            listener()

    def __delattr__(self, name):
        super().__delattr__(name)
        for listener in _listeners:
            listener()


_listeners = []
sys.modules[__name__].__class__ = _Settings
