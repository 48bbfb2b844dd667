"""cujit: Numba's CUDA programming model, compiled by a C++ core.

    from cujit import vectorize, cuda, float32

    @vectorize(['float32(float32, float32)'], target='cuda')
    def add(x, y):
        return x + y

The decorators capture the function's source and the globals it names; the C++ core
(cujit._core) parses, types, generates CUDA C++, compiles it with NVRTC and launches it. With
CUJIT_ENABLE_CUDASIM=1 (or NUMBA_ENABLE_CUDASIM=1) the same code runs on the CPU simulator.
"""

import atexit as _atexit

from . import _texts
# First, so that strings given to exec()/compile() from here on are remembered as the source of
# the functions they define (numba-cuda's own tests make kernels that way).
_texts.install()
from . import _core
from . import config
from . import errors
from .errors import TypingError, UnsupportedError, CudaSupportError, CudaAPIError
from .errors import NumbaWarning, NumbaPerformanceWarning, NumbaDeprecationWarning
from .types import (void, boolean, bool_, int8, int16, int32, int64, uint8, uint16, uint32,
                    uint64, float32, float64, intp, uintp, float_, double, byte, int_, from_dtype,
                    typeof)
from . import types
from .numpy_support import carray, farray
from .ufunc import vectorize
from .cpu import jit, njit, prange, get_num_threads, set_num_threads, get_thread_id
from .gufunc import guvectorize
from . import cuda
from .cuda.compat import literal_unroll
from .alias import install_numba_alias

__version__ = "0.1.0"

_core.set_library_search_paths(config.nvrtc_wheel_dirs())
_core.set_compiler_fallbacks(config.compiler_fallbacks())
_core.set_simulator(config.ENABLE_CUDASIM)
_core.set_check_ptx(config.CHECK_PTX)
config._listeners.append(_core._config_changed)
# Device memory is freed through the driver; after interpreter teardown starts the driver may be
# gone, so frees are skipped from then on.
_atexit.register(_core._shutdown)


def load_ipython_extension(ipython):
    """``%load_ext cujit`` in IPython or Jupyter: installs the numba alias, so the notebook's
    ``import numba`` / ``from numba import cuda`` run on cujit."""
    install_numba_alias()


__all__ = [
    "vectorize", "guvectorize", "jit", "njit", "prange", "get_num_threads", "set_num_threads",
    "get_thread_id", "cuda", "errors", "config", "install_numba_alias", "TypingError",
    "UnsupportedError", "CudaSupportError", "CudaAPIError", "void", "boolean", "bool_", "int8",
    "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "intp",
    "uintp", "float_", "double", "byte", "int_", "from_dtype", "types", "typeof", "literal_unroll",
    "carray", "farray", "NumbaWarning", "NumbaPerformanceWarning", "NumbaDeprecationWarning",
]
