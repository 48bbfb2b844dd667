"""numba.core and numba.cuda.core: the submodules users import from them, ``errors``, ``config``
and ``types``."""
from .. import errors, config, types  # noqa: F401
