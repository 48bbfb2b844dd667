"""numba.cuda.cudadrv.linkable_code: the classes of code to link into kernels (link= of
cuda.declare_device and cuda.jit; see docs/api.md, "Foreign code")."""
from ..compat import LinkableCode, CUSource, PTXSource, Cubin, Fatbin, Object, Archive, LTOIR  # noqa: F401
