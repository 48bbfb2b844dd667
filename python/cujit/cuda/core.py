"""numba.core and numba.cuda.core: the submodules users import from them, ``errors``, ``config``
and ``types``."""
from .. import errors, config, types  # noqa: F401

# Under the alias this module stands for a Numba package: with a __path__, importing one of
# its submodules that cujit lacks reaches the alias's finder, whose ImportError names the
# module, instead of Python's "'numba.core' is not a package".
__path__ = []
