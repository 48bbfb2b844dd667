"""numba.cuda.cudadrv.devicearray: device arrays."""
from ... import _core

DeviceNDArray = _core.DeviceNDArray


def _numba_type_(ary):
    """numba-cuda's DeviceNDArray._numba_type_: the array type a kernel sees, types.Array(dtype,
    ndim, layout), layout 'C' when C-contiguous (also when F-contiguous too), else 'F' when
    F-contiguous, else 'A'; a broadcast array (a 0 stride, not empty) is 'A'."""
    from ...types import ArrayType, from_dtype
    broadcast = 0 in ary.strides and ary.size != 0
    if ary.is_c_contiguous() and not broadcast:
        layout = "C"
    elif ary.is_f_contiguous() and not broadcast:
        layout = "F"
    else:
        layout = "A"
    return ArrayType(from_dtype(ary.dtype), ary.ndim, layout)


# A read-only property of the C++ class (kept here rather than in darr's C++ binding: it builds a
# Python type object).
DeviceNDArray._numba_type_ = property(_numba_type_)


class DeviceRecord:
    """numba-cuda's device-side record scalar: cujit has no records yet."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("cujit does not support device records (DeviceRecord) yet")


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
