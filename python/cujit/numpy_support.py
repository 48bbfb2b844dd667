"""numba.np.numpy_support / numba.cuda.np.numpy_support: conversions between NumPy dtypes and
type objects; ``carray``/``farray`` (arrays over raw pointers) are not supported."""
import numpy as np

from .types import from_dtype, ScalarType  # noqa: F401

numpy_version = tuple(int(x) for x in np.__version__.split(".")[:2])


def as_dtype(nbtype):
    """The NumPy dtype of a scalar type object."""
    if isinstance(nbtype, ScalarType):
        return nbtype.dtype
    if isinstance(nbtype, (np.dtype, type)):
        return np.dtype(nbtype)
    raise NotImplementedError("cujit's as_dtype knows scalar types only, not %r" % (nbtype,))


def carray(ptr, shape, dtype=None):
    """Numba views a raw pointer as an array; cujit has no pointers: NotImplementedError."""
    raise NotImplementedError("carray(): cujit has no raw pointers to view as arrays")


def farray(ptr, shape, dtype=None):
    raise NotImplementedError("farray(): cujit has no raw pointers to view as arrays")
