"""numba.cuda.kernels: library kernels (``transpose``)."""
from . import transpose  # noqa: F401
