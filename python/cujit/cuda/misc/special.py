"""numba.cuda.misc.special: ``literal_unroll``."""
from ..compat import literal_unroll  # noqa: F401
