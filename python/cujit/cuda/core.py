"""numba.cuda.core: the two of its submodules users import, ``errors`` and ``config``."""
from .. import errors, config  # noqa: F401
