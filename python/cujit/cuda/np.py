"""numba.cuda.np: its ``numpy_support`` submodule."""
from .. import numpy_support  # noqa: F401
