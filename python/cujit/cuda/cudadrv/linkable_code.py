"""numba.cuda.cudadrv.linkable_code: the classes of code to link into kernels (not supported
yet: making one raises NotImplementedError)."""
from ..compat import LinkableCode, CUSource, PTXSource, Cubin, Fatbin, Object, Archive, LTOIR  # noqa: F401
