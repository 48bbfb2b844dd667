"""numba.cuda.cudadrv.devicearray: device arrays."""
from ... import _core

DeviceNDArray = _core.DeviceNDArray
from ..host_memory import MappedNDArray, ManagedNDArray  # noqa: E402,F401


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


def _reduce_device_array(ary):
    """``pickle`` of a device array (DeviceNDArray.__reduce__): its data goes through the host,
    C-ordered in the array's own memory order (dimensions sorted by stride, outermost first), so
    the array rebuilt on load has the same shape, dtype, order of strides (C, F or another) and
    contents, in the device memory of the backend current then."""
    import numpy as np
    perm = sorted(range(ary.ndim), key=lambda d: (-abs(ary.strides[d]), d))
    host = np.ascontiguousarray(ary.transpose(tuple(perm)).copy_to_host()) if ary.ndim else ary.copy_to_host()
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
