"""numba.cuda.cudadrv.error: the driver-layer error classes."""
from ...errors import CudaSupportError, CudaDriverError, CudaAPIError, NvrtcError, LinkerError  # noqa: F401
