"""numba.cuda.np: its ``numpy_support`` submodule."""
from .. import numpy_support  # noqa: F401

# Under the alias this module stands for a Numba package: with a __path__, importing one of
# its submodules that cujit lacks reaches the alias's finder, whose ImportError names the
# module, instead of Python's "'numba.core' is not a package".
__path__ = []
