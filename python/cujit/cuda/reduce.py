"""@cuda.reduce: a reduction over a 1-d array with any associative, commutative binary function,
as in ``numba.cuda.reduce``.

    @cuda.reduce
    def sum_reduce(a, b):
        return a + b

    total = sum_reduce(arr)                  # a NumPy scalar of arr's dtype
    sum_reduce(d_arr, res=d_out, init=0.0)   # into d_out[0], no copy to the host

One launch, whatever the size: enough blocks to fill the GPU, each thread folding a grid-stride
slice of the array (eight loads in flight per step) and each block folding its threads' values in
shared memory; the last block to finish then folds the per-block partials and `init`, and
writes the result straight into mapped host memory, so a call is one launch and one synchronise.
The kernel is written below in the kernel subset itself, with the user's function as a device
function, and compiled once per dtype.
"""
import operator

import numpy as np

from .dispatcher import DeviceFunction, Dispatcher
from .. import _core
from ..types import from_dtype

_DeviceNDArray = _core.DeviceNDArray

_BLOCK = 256        # threads per block; a power of two (the in-block tree halves it)
_BLOCKS_PER_SM = 4  # resident on any GPU (1,024 threads per SM) whatever the kernel's registers,
                    # so the grid is a single wave with eight loads in flight per thread
_SIM_BLOCKS = 64    # the simulator runs blocks on CPU threads: a few per core is plenty


def _max_blocks():
    from cujit import cuda
    if cuda.simulator_enabled():
        return _SIM_BLOCKS
    global _GPU_BLOCKS
    if _GPU_BLOCKS is None:
        from .. import _core
        _GPU_BLOCKS = _core.device_info()["multiprocessors"] * _BLOCKS_PER_SM
    return _GPU_BLOCKS


_GPU_BLOCKS = None


def _make_kernel(op, nbtype):
    from cujit import cuda

    @cuda.jit(device=True)
    def block_fold(v, valid):
        """Folds the values `v` of threads [0, valid) of the block; thread 0 gets the result."""
        tid = cuda.threadIdx.x
        sm = cuda.shared.array(_BLOCK, nbtype)
        sm[tid] = v
        cuda.syncthreads()
        s = _BLOCK // 2
        while s > 0:
            if tid < s and tid + s < valid:
                sm[tid] = op(sm[tid], sm[tid + s])
            cuda.syncthreads()
            s //= 2
        r = sm[0]
        cuda.syncthreads()  # sm is reused by the next fold
        return r

    def reduce_all(arr, n, partials, count, out, init):
        tid = cuda.threadIdx.x
        i = cuda.blockIdx.x * cuda.blockDim.x + tid
        stride = cuda.gridDim.x * cuda.blockDim.x
        v = arr[0]  # overwritten below for every thread that owns an element
        if i < n:
            v = arr[i]
            i += stride
            while i + 7 * stride < n:
                a0 = arr[i]
                a1 = arr[i + stride]
                a2 = arr[i + 2 * stride]
                a3 = arr[i + 3 * stride]
                a4 = arr[i + 4 * stride]
                a5 = arr[i + 5 * stride]
                a6 = arr[i + 6 * stride]
                a7 = arr[i + 7 * stride]
                v = op(v, op(op(op(a0, a1), op(a2, a3)), op(op(a4, a5), op(a6, a7))))
                i += 8 * stride
            while i < n:
                v = op(v, arr[i])
                i += stride
        # Threads [0, valid) of this block own at least one element.
        r = block_fold(v, min(cuda.blockDim.x, n - cuda.blockIdx.x * cuda.blockDim.x))
        # The last block to finish folds every block's partial (CUDA's threadFenceReduction):
        # one launch whatever the size.
        last = cuda.shared.array(1, np.int32)
        if tid == 0:
            partials[cuda.blockIdx.x] = r
            cuda.threadfence()
            last[0] = cuda.atomic.add(count, 0, 1) == cuda.gridDim.x - 1
        cuda.syncthreads()
        if last[0] != 0:
            nb = cuda.gridDim.x
            if tid < nb:
                v = partials[tid]
                j = tid + cuda.blockDim.x
                while j < nb:
                    v = op(v, partials[j])
                    j += cuda.blockDim.x
            r = block_fold(v, min(cuda.blockDim.x, nb))
            if tid == 0:
                out[0] = op(r, init)
                count[0] = 0  # ready for the next call

    return Dispatcher(reduce_all)


def _writeable(a):
    """False for a read-only NumPy array, device array or __cuda_array_interface__ object."""
    if isinstance(a, np.ndarray):
        return bool(a.flags.writeable)
    readonly = getattr(a, "_readonly", None)  # a DeviceNDArray
    if readonly is not None:
        return not readonly
    cai = getattr(a, "__cuda_array_interface__", None)
    return not (isinstance(cai, dict) and cai.get("data", (0, False))[1])


class Reduce:
    """A reduction built from a binary function (a Python function or a lambda)."""

    # The result comes back through mapped memory (see _scratch); False: copied back from a
    # device array, as before (benchmarks/ufunc_paths.py compares the two).
    _mapped_result = True

    def __init__(self, functor):
        self._fast = None  # (dtype, stream, simulator, device, _State) of the last common call
        self._functor = functor
        self._device = functor if isinstance(functor, DeviceFunction) else DeviceFunction(functor)
        self._kernels = {}
        self._buffers = {}
        self.__name__ = getattr(functor, "__name__", "reduce")
        self.__doc__ = getattr(functor, "__doc__", None)

    def __reduce__(self):
        """By value (cujit/_pickle.py): its function (or device function)."""
        from .. import _pickle
        return _pickle.reduce(self)

    def _pickle_spec(self):
        # A device function given to cuda.reduce travels as itself (it pickles by value too).
        if isinstance(self._functor, DeviceFunction):
            return ("reduce_device", None, {"device": self._functor})
        return ("reduce", self._functor, {})

    def _kernel(self, dtype):
        k = self._kernels.get(dtype)
        if k is None:
            k = self._kernels[dtype] = _make_kernel(self._device, from_dtype(dtype))
        return k

    def _scratch(self, dtype, stream):
        """The per-call state of (dtype, stream, backend, device): the per-block partials, the
        arrival counter (zero between calls), a one-element device result, the host result (a
        mapped array: the kernel writes it over the bus, so a call is one launch and one
        synchronise, with no copy back) and its device view, the stream to synchronise, and the
        kernel configured for a full grid. Calls on one stream are ordered, so they can share."""
        from cujit import cuda
        sim = _core.simulator_enabled()
        key = (dtype, getattr(stream, "handle", stream), sim, _core.current_device_id())
        s = self._buffers.get(key)
        if s is None:
            blocks = _max_blocks()
            host = cuda.mapped_array(1, dtype=dtype)
            kernel = self._kernel(dtype)
            s = self._buffers[key] = _State(
                partials=cuda.device_array(blocks, dtype=dtype), count=cuda.to_device(np.zeros(1, np.int32)),
                out=cuda.device_array(1, dtype=dtype), host=host,
                host_dev=_core.mapped_device_array(host, host._cujit_alloc),
                # The default stream's; a stream given is synchronised through itself (the state
                # holds no stream object, nor a launcher bound to one, so it keeps none alive).
                sync=cuda.default_stream().synchronize, blocks=blocks, kernel=kernel,
                full=kernel[blocks, _BLOCK, 0] if not stream else None, zero=dtype.type(0))
        return s

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        """Reduces `arr` (host or device, 1-d; its first `size` elements if given) and returns the
        result as a NumPy scalar, or writes it to `res[0]` (a device array) and returns None."""
        from cujit import cuda
        # The common call again (a cujit device array reduced whole into a NumPy scalar, init 0,
        # the same dtype object, stream object, backend and device as the last such call): its
        # state without the lookups below.
        f = self._fast
        plain = res is None and size is None and type(init) is int and init == 0 and type(arr) is _DeviceNDArray
        if (f is not None and plain and self._mapped_result and stream is f[1] and arr.dtype is f[0] and arr.ndim == 1
                and _core.simulator_enabled() is f[2] and _core.current_device_id() == f[3]):
            s = f[4]
            n = arr.shape[0]
            if n >= 1:
                blocks = (n + _BLOCK - 1) // _BLOCK
                launch = s.full if blocks >= s.blocks else s.kernel[blocks, _BLOCK, 0]
                launch(arr, n, s.partials, s.count, s.host_dev, s.zero)
                s.sync()
                return s.host[0]
        if getattr(arr, "ndim", None) != 1:
            raise TypeError("only 1-d arrays can be reduced, got %s with %s dimension(s)"
                            % (type(arr).__name__, getattr(arr, "ndim", "no")))
        if res is not None and not _writeable(res):
            raise ValueError("reduce(): res is a read-only array")
        # operator.index: int() would take size=2.5 as 2 in silence (numba-cuda raises TypeError).
        n = arr.shape[0] if size is None else min(operator.index(size), arr.shape[0])
        dtype = np.dtype(arr.dtype)
        init = dtype.type(init)
        if n < 1:
            if res is not None:
                res.copy_to_device(np.full(res.shape, init, dtype=dtype), stream=stream)
                return None
            return init
        if not cuda.is_cuda_array(arr):
            arr = cuda.to_device(np.ascontiguousarray(arr[:n]), stream=stream)
        s = self._scratch(dtype, stream)
        blocks = (n + _BLOCK - 1) // _BLOCK
        if blocks >= s.blocks and s.full is not None:
            launch = s.full
        else:
            launch = s.kernel[min(blocks, s.blocks), _BLOCK, stream]
        if res is not None:
            launch(arr, n, s.partials, s.count, res, init)
            return None
        # A raw stream handle (an int) has no synchronize(): its result is copied back.
        sync = getattr(stream, "synchronize", None) if stream else s.sync
        if sync is None or not self._mapped_result:
            self._fast = None
            launch(arr, n, s.partials, s.count, s.out, init)
            return s.out.copy_to_host(s.host, stream=stream)[0]
        if plain and not stream and arr.dtype == dtype:
            # The fast path above takes this call next time (stream 0 only: it holds the object).
            self._fast = (arr.dtype, stream, _core.simulator_enabled(), _core.current_device_id(), s)
        launch(arr, n, s.partials, s.count, s.host_dev, init)
        sync()
        return s.host[0]


class _State:
    """What Reduce._scratch keeps per (dtype, stream, backend, device)."""
    __slots__ = ("partials", "count", "out", "host", "host_dev", "sync", "blocks", "kernel", "full", "zero")

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)


reduce = Reduce
