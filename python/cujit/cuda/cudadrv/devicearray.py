"""numba.cuda.cudadrv.devicearray: device arrays."""
from ... import _core

DeviceNDArray = _core.DeviceNDArray
# numba-cuda's base class of device arrays: cujit has one class.
DeviceNDArrayBase = DeviceNDArray
from ..host_memory import MappedNDArray, ManagedNDArray  # noqa: E402,F401
from .driver import MemoryPointer  # noqa: E402


def _construct(shape, strides, dtype, stream=0, gpu_data=None):
    """numba-cuda's ``DeviceNDArray(shape, strides, dtype, stream=0, gpu_data=None)`` (the class's
    constructor, bindings/module.cpp): a new, uninitialised array of that shape, dtype and byte
    strides."""
    import numpy as np
    if gpu_data is not None:
        raise NotImplementedError("cujit does not support DeviceNDArray(..., gpu_data=...): device arrays "
                                  "own their memory; use cuda.from_cuda_array_interface to view other memory")
    from .. import device_array
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    strides = tuple(strides) if isinstance(strides, (tuple, list)) else (strides,)
    if len(shape) != len(strides):
        raise ValueError("strides not match ndim")  # numba-cuda's message
    return device_array(shape, np.dtype(dtype), strides=strides, stream=stream)


def _is_record(ary):
    """A 0-d device array of a structured dtype: numba-cuda's DeviceRecord (``d[i]`` of a record
    array is one), which kernels take as a record."""
    return ary.ndim == 0 and ary.dtype.fields is not None


def _numba_type_(ary):
    """numba-cuda's DeviceNDArray._numba_type_: the array type a kernel sees, types.Array(dtype,
    ndim, layout), layout 'C' when C-contiguous (also when F-contiguous too), else 'F' when
    F-contiguous, else 'A'; a broadcast array (a 0 stride, not empty) is 'A'. A DeviceRecord's is
    its Record type."""
    from ...types import ArrayType, from_dtype
    if _is_record(ary):
        return from_dtype(ary.dtype)
    broadcast = 0 in ary.strides and ary.size != 0
    if ary.is_c_contiguous() and not broadcast:
        layout = "C"
    elif ary.is_f_contiguous() and not broadcast:
        layout = "F"
    else:
        layout = "A"
    return ArrayType(from_dtype(ary.dtype), ary.ndim, layout)


class _ArrayMemory(MemoryPointer):
    """What ``gpu_data`` of a device array gives (numba-cuda: the MemoryPointer of its memory,
    which a view of another dtype shares): a handle of the bytes the elements span. Two are equal
    when they are the same bytes of device memory (numba-cuda's views of one dtype share one
    object; separate allocations never compare equal)."""

    def __eq__(self, other):
        return self is other or (isinstance(other, MemoryPointer) and self._ptr != 0 and self._ptr == other._ptr
                                 and self.size == other.size)

    def __hash__(self):
        return hash((self._ptr, self.size))


def _gpu_data(ary):
    return _ArrayMemory._of(None, ary._bytes(), owner=ary)


DeviceNDArray._numba_type_ = property(_numba_type_)
DeviceNDArray.gpu_data = property(_gpu_data, doc=_ArrayMemory.__doc__)


class _DeviceRecordType(type):
    """``isinstance(x, DeviceRecord)`` is true for a 0-d device array of a structured dtype, which
    is what cujit's device records are (one class of device array, as the kernels see them)."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, DeviceNDArray) and _is_record(obj)

    def __call__(cls, dtype, stream=0, gpu_data=None):
        import numpy as np
        dtype = np.dtype(dtype)
        if dtype.fields is None:
            raise TypeError("DeviceRecord: %s is not a structured (record) dtype" % dtype)
        if gpu_data is None:
            from .. import device_array
            return device_array((), dtype, stream=stream)
        # A record in existing device memory (numba-cuda's DeviceRecord(dtype, gpu_data=...)).
        from .driver import _device_bytes
        data = _device_bytes(gpu_data)
        if data.size < dtype.itemsize:
            raise ValueError("DeviceRecord: gpu_data holds %d bytes, fewer than the %d of a %s"
                             % (data.size, dtype.itemsize, dtype))
        rec = data[:dtype.itemsize].view(dtype)[0]
        return rec.bind(stream) if stream else rec


class DeviceRecord(metaclass=_DeviceRecordType):
    """numba-cuda's device-side record scalar: ``DeviceRecord(dtype, stream=0, gpu_data=None)``
    is a 0-d device array of the structured dtype ``dtype`` (new memory, or the record at the
    start of ``gpu_data``), with the device arrays' ``copy_to_device``, ``copy_to_host`` (into an
    np.void / np.record too), field access ``r['x']`` and ``gpu_data``; kernels take it as a record
    (by reference: their writes land in it)."""


def is_cuda_ndarray(obj):
    """True for cujit's own device arrays."""
    return isinstance(obj, DeviceNDArray)


def verify_cuda_ndarray_interface(obj):
    """Raises TypeError unless ``obj`` is a device array."""
    if not is_cuda_ndarray(obj):
        raise TypeError("%r is not a cujit device array" % (obj,))


# numba-cuda's message for a host array that is not one block of memory.
errmsg_contiguous_buffer = ("Array contains non-contiguous buffer and cannot be transferred as a "
                            "single memory region. Please ensure contiguous buffer with numpy "
                            ".ascontiguousarray()")


def require_cuda_ndarray(obj):
    """numba-cuda's check: ValueError unless ``obj`` is a device array."""
    if not is_cuda_ndarray(obj):
        raise ValueError("require an cuda ndarray object")


def sentry_contiguous(ary):
    """numba-cuda's check before a memcpy: ValueError unless the array's core (see
    ``array_core``) is C- or F-contiguous."""
    core = array_core(ary)
    if not core.flags["C_CONTIGUOUS"] and not core.flags["F_CONTIGUOUS"]:
        raise ValueError(errmsg_contiguous_buffer)


def check_array_compatibility(ary1, ary2):
    """numba-cuda's check of two arrays a copy joins: the same dtype (TypeError), and the same
    shape and strides but for dimensions of length 1 (ValueError)."""
    ary1sq, ary2sq = ary1.squeeze(), ary2.squeeze()
    if ary1.dtype != ary2.dtype:
        raise TypeError("incompatible dtype: %s vs. %s" % (ary1.dtype, ary2.dtype))
    if ary1sq.shape != ary2sq.shape:
        raise ValueError("incompatible shape: %s vs. %s" % (ary1.shape, ary2.shape))
    if ary1.size and ary1sq.strides != ary2sq.strides:
        raise ValueError("incompatible strides: %s vs. %s" % (ary1.strides, ary2.strides))


def from_array_like(ary, stream=0, gpu_data=None):
    """A new, uninitialised device array with the shape, strides and dtype of ``ary``."""
    if gpu_data is not None:
        raise NotImplementedError("cujit does not support from_array_like(gpu_data=...): device arrays "
                                  "own their memory; use cuda.from_cuda_array_interface to view other memory")
    from .. import device_array
    return device_array(ary.shape, ary.dtype, strides=ary.strides, stream=stream)


def array_core(ary):
    """The part of a broadcast array that holds its data: each dimension of stride 0 cut to
    length 1 (a view)."""
    if not getattr(ary, "strides", None):
        return ary
    return ary[tuple(slice(0, 1) if st == 0 else slice(None) for st in ary.strides)]


def is_contiguous(ary):
    """True when ``ary`` is C-contiguous, not counting dimensions of length 1 or stride 0."""
    size = ary.dtype.itemsize
    for n, stride in zip(reversed(ary.shape), reversed(ary.strides)):
        if n > 1 and stride != 0:
            if stride != size:
                return False
            size *= n
    return True


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """``(device array, converted)``: ``obj`` itself if it is already on the device, else a copy
    of it (for a host array: with ``copy=False``, an uninitialised one of its shape). As in
    numba-cuda, a host array that is neither C- nor F-contiguous raises ValueError."""
    from .. import to_device, device_array_like, as_cuda_array, is_cuda_array
    if isinstance(obj, DeviceNDArray):
        return obj, False
    if is_cuda_array(obj):
        return as_cuda_array(obj), False
    import numpy as np
    arr = np.asarray(obj)
    if not (arr.flags.c_contiguous or arr.flags.f_contiguous or is_contiguous(arr)):
        raise ValueError(errmsg_contiguous_buffer)
    if not copy:
        return device_array_like(arr), True
    return (to_device(arr, stream=stream) if stream else to_device(arr)), True


def from_record_like(rec, stream=0, gpu_data=None):
    """A new device record (numba-cuda's DeviceRecord) of the dtype of ``rec``, a NumPy record
    scalar or a device record; uninitialised."""
    return DeviceRecord(rec.dtype, stream=stream, gpu_data=gpu_data)


def _reduce_device_array(ary):
    """``pickle`` of a device array (DeviceNDArray.__reduce__): its data goes through the host,
    C-ordered in the array's own memory order (dimensions sorted by stride, outermost first), so
    the array rebuilt on load has the same shape, dtype, order of strides (C, F or another) and
    contents, in the device memory of the backend current then."""
    import numpy as np
    perm = sorted(range(ary.ndim), key=lambda d: (-abs(ary.strides[d]), d))
    # __array__, not copy_to_host, which refuses negative strides on the GPU as numba-cuda's does.
    host = np.ascontiguousarray(ary.transpose(tuple(perm)).__array__()) if ary.ndim else ary.__array__()
    return _rebuild_device_array, (host, tuple(perm))


def _rebuild_device_array(host, perm):
    from .. import to_device
    d = to_device(host)
    if len(perm) < 2:
        return d
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return d.transpose(tuple(inverse))
