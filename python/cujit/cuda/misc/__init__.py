"""numba.cuda.misc: its ``special`` submodule."""
from . import special  # noqa: F401
