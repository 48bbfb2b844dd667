"""numba.cuda.cudadrv.devicearray: device arrays."""
from ... import _core

DeviceNDArray = _core.DeviceNDArray


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


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """``(device array, converted)``: ``obj`` itself if it is already on the device, else a copy
    of it (for a host array: with ``copy=False``, an uninitialised one of its shape)."""
    from .. import to_device, device_array_like, as_cuda_array, is_cuda_array
    if isinstance(obj, DeviceNDArray):
        return obj, False
    if is_cuda_array(obj):
        return as_cuda_array(obj), False
    import numpy as np
    arr = np.asarray(obj)
    if not copy:
        return device_array_like(arr), True
    return (to_device(arr, stream=stream) if stream else to_device(arr)), True
