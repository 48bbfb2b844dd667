"""@cuda.reduce: a reduction over a 1-d array with any associative, commutative binary function,
as in ``numba.cuda.reduce``.

    @cuda.reduce
    def sum_reduce(a, b):
        return a + b

    total = sum_reduce(arr)                  # a NumPy scalar of arr's dtype
    sum_reduce(d_arr, res=d_out, init=0.0)   # into d_out[0], no copy to the host

Two launches of one kernel, whatever the size: first enough blocks to fill the GPU, each thread
folding a grid-stride slice of the array (four loads in flight per step) and each block folding
its threads' values in shared memory; then one block folds the per-block partials and `init`.
The kernel is written below in the kernel subset itself, with the user's function as a device
function, and compiled once per dtype.
"""
import numpy as np

from .dispatcher import DeviceFunction, Dispatcher
from ..types import from_dtype

_BLOCK = 256        # threads per block; a power of two (the in-block tree halves it)
_MAX_BLOCKS = 1024  # enough blocks to keep every SM of a large GPU streaming


def _make_kernel(op, nbtype):
    from cujit import cuda

    def reduce_blocks(arr, n, out, init, use_init):
        tid = cuda.threadIdx.x
        i = cuda.blockIdx.x * cuda.blockDim.x + tid
        stride = cuda.gridDim.x * cuda.blockDim.x
        v = arr[0]  # overwritten below for every thread that owns an element
        if i < n:
            v = arr[i]
            i += stride
            while i + 3 * stride < n:
                a0 = arr[i]
                a1 = arr[i + stride]
                a2 = arr[i + 2 * stride]
                a3 = arr[i + 3 * stride]
                v = op(v, op(op(a0, a1), op(a2, a3)))
                i += 4 * stride
            while i < n:
                v = op(v, arr[i])
                i += stride
        # Threads [0, valid) of this block own at least one element.
        valid = min(cuda.blockDim.x, n - cuda.blockIdx.x * cuda.blockDim.x)
        sm = cuda.shared.array(_BLOCK, nbtype)
        sm[tid] = v
        cuda.syncthreads()
        s = _BLOCK // 2
        while s > 0:
            if tid < s and tid + s < valid:
                sm[tid] = op(sm[tid], sm[tid + s])
            cuda.syncthreads()
            s //= 2
        if tid == 0:
            r = sm[0]
            if use_init:
                r = op(r, init)
            out[cuda.blockIdx.x] = r

    return Dispatcher(reduce_blocks)


class Reduce:
    """A reduction built from a binary function (a Python function or a lambda)."""

    def __init__(self, functor):
        self._functor = functor
        self._device = functor if isinstance(functor, DeviceFunction) else DeviceFunction(functor)
        self._kernels = {}
        self.__name__ = getattr(functor, "__name__", "reduce")
        self.__doc__ = getattr(functor, "__doc__", None)

    def _kernel(self, dtype):
        k = self._kernels.get(dtype)
        if k is None:
            k = self._kernels[dtype] = _make_kernel(self._device, from_dtype(dtype))
        return k

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        """Reduces `arr` (host or device, 1-d; its first `size` elements if given) and returns the
        result as a NumPy scalar, or writes it to `res[0]` (a device array) and returns None."""
        from cujit import cuda
        if getattr(arr, "ndim", None) != 1:
            raise TypeError("only 1-d arrays can be reduced, got %s with %s dimension(s)"
                            % (type(arr).__name__, getattr(arr, "ndim", "no")))
        n = arr.shape[0] if size is None else min(int(size), arr.shape[0])
        dtype = np.dtype(arr.dtype)
        init = dtype.type(init)
        if n < 1:
            if res is not None:
                res.copy_to_device(np.full(res.shape, init, dtype=dtype), stream=stream)
                return None
            return init
        if not cuda.is_cuda_array(arr):
            arr = cuda.to_device(np.ascontiguousarray(arr[:n]), stream=stream)
        kernel = self._kernel(dtype)
        blocks = min((n + _BLOCK - 1) // _BLOCK, _MAX_BLOCKS)
        out = res if res is not None else cuda.device_array(1, dtype=dtype, stream=stream)
        if blocks == 1:
            kernel[1, _BLOCK, stream](arr, n, out, init, True)
        else:
            partials = cuda.device_array(blocks, dtype=dtype, stream=stream)
            kernel[blocks, _BLOCK, stream](arr, n, partials, init, False)
            kernel[1, _BLOCK, stream](partials, blocks, out, init, True)
        if res is not None:
            return None
        return out.copy_to_host(stream=stream)[0]


reduce = Reduce
