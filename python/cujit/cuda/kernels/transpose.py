"""numba.cuda.kernels.transpose: the transpose of a 2-D device array, computed on the device."""
import numpy as np


_kernels = {}


def _kernel():
    # Made on first use: importing cujit.cuda must not compile anything.
    if "t" not in _kernels:
        from .. import jit, grid

        @jit
        def _transpose(src, dst):
            i, j = grid(2)
            if i < dst.shape[0] and j < dst.shape[1]:
                dst[i, j] = src[j, i]
        _kernels["t"] = _transpose
    return _kernels["t"]


def transpose(a, b=None):
    """Writes the transpose of the 2-D device array ``a`` into ``b`` (made when not given) and
    returns ``b``."""
    from .. import device_array, is_cuda_array, as_cuda_array
    if not is_cuda_array(a):
        raise TypeError("transpose: a must be a device array, got %s" % type(a).__name__)
    if len(a.shape) != 2:
        raise ValueError("transpose: a must be 2-D, got %d dimensions" % len(a.shape))
    if b is None:
        b = device_array((a.shape[1], a.shape[0]), dtype=a.dtype)
    elif not is_cuda_array(b):
        raise TypeError("transpose: b must be a device array, got %s" % type(b).__name__)
    if tuple(b.shape) != (a.shape[1], a.shape[0]):
        raise ValueError("transpose: b has shape %s, the transpose of %s needs %s"
                         % (tuple(b.shape), tuple(a.shape), (a.shape[1], a.shape[0])))
    if np.dtype(a.dtype) != np.dtype(b.dtype):
        raise TypeError("transpose: a (%s) and b (%s) must have the same dtype" % (a.dtype, b.dtype))
    if b.shape[0] and b.shape[1]:
        tpb = 16
        blocks = ((b.shape[0] + tpb - 1) // tpb, (b.shape[1] + tpb - 1) // tpb)
        _kernel()[blocks, (tpb, tpb)](a, b)
    return b
