"""Pinned (page-locked), mapped and managed host memory, as in ``numba.cuda``: ``pinned_array``,
``pinned_array_like``, ``mapped_array``, ``mapped_array_like``, ``managed_array``, ``pinned``,
``mapped``.

The memory comes from ``_core.host_alloc`` / ``_core.host_register`` (src/runtime/host_memory.h).
A pinned or mapped array is a real ``numpy.ndarray`` built on a ``_core.HostAllocation`` buffer,
which frees the memory when the last view of it dies. Copies to and from pinned memory are DMA'd
directly, and on a stream they are asynchronous (src/runtime/memory.h).

A mapped array is a ``MappedNDArray``: an ndarray subclass that kernels on the GPU can also use as
device memory, through ``__cuda_array_interface__`` (the device address of the same bytes). On the
simulator the memory is ordinary aligned host memory and a mapped array has no
``__cuda_array_interface__``: it is simply used in place as a host array. A managed array
(``ManagedNDArray``, from ``_core.managed_alloc``: cuMemAllocManaged) is the same, with memory
that the host and the device address at one address.
"""

import contextlib
import operator

import numpy as np

from .. import _core


def _ints(values, what):
    """An int or a sequence of them, through operator.index as NumPy takes shapes: int() would
    make a float dimension (2.5, or a 0-d float array) its integer part in silence."""
    if not isinstance(values, (tuple, list)) and not (isinstance(values, np.ndarray) and values.ndim > 0):
        values = (values,)
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise TypeError("%s must be an int or a sequence of ints, got %r" % (what, values)) from None


def _normalize(shape, dtype, strides, order):
    shape = _ints(shape, "shape")
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions are not allowed, got shape %r" % (shape,))
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        dtype = np.dtype(dtype.dtype)  # cujit's type objects (cujit.float32) carry a NumPy dtype
    if order not in ("C", "F"):
        raise ValueError("order must be 'C' or 'F', got %r" % (order,))
    if strides is not None:
        strides = _ints(strides, "strides")
        if len(strides) != len(shape):
            raise ValueError("strides %r do not match shape %r" % (strides, shape))
    return shape, dtype, strides


def _nbytes(shape, strides, dtype):
    if any(d == 0 for d in shape):
        return 0
    if strides is None:
        return int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    return dtype.itemsize + sum((d - 1) * abs(s) for d, s in zip(shape, strides))


def _host_array(shape, dtype, strides, order, subtype=np.ndarray, **flags):
    shape, dtype, strides = _normalize(shape, dtype, strides, order)
    alloc = _core.host_alloc(_nbytes(shape, strides, dtype), **flags)
    # The array's base is the allocation: the memory lives as long as any view of it.
    return np.ndarray.__new__(subtype, shape=shape, dtype=dtype, strides=strides, order=order, buffer=alloc), alloc


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """An uninitialised ndarray in page-locked host memory (like ``np.empty``): copies between
    it and the device run at full DMA speed, and asynchronously on a stream."""
    return _host_array(shape, dtype, strides, order)[0]


class _HostDeviceNDArray(np.ndarray):
    """A host array whose memory the device also addresses (mapped or managed memory)."""

    def __array_finalize__(self, obj):
        alloc = getattr(obj, "_cujit_alloc", None)
        if alloc is not None and not _inside(self, alloc):
            alloc = None  # a new array (a ufunc result, a copy): not in the mapped memory
        self._cujit_alloc = alloc
        self.stream = getattr(obj, "stream", 0)

    @property
    def __cuda_array_interface__(self):
        alloc = getattr(self, "_cujit_alloc", None)
        kind = self._kind
        if alloc is None:
            raise AttributeError("this array is not in %s memory (it was computed from a %s array)" % (kind, kind))
        if alloc.backend != "GPU":
            # Simulator memory is host memory; without the attribute, the array is used in place.
            raise AttributeError("a %s array of the simulator has no __cuda_array_interface__; it is "
                                 "used in place as a host array" % kind)
        ptr = self.__array_interface__["data"][0]
        dev = alloc.device_ptr + (ptr - alloc.ptr)
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (dev, not self.flags.writeable),
            "strides": None if self.flags.c_contiguous else self.strides,
            "version": 3,
            "stream": None,  # host writes are visible to the device at once: nothing to wait for
        }

    # numba-cuda's DeviceNDArrayBase surface of these arrays (numba.cuda.cudadrv.driver's functions
    # take them as device memory); an array computed from one is host memory only.
    @property
    def __cuda_memory__(self):
        return getattr(self, "_cujit_alloc", None) is not None

    def _device_view(self):
        """A DeviceNDArray of the same bytes (the device side of this array)."""
        alloc = getattr(self, "_cujit_alloc", None)
        if alloc is None:
            raise TypeError("this array is not in %s memory (it was computed from a %s array)"
                            % (self._kind, self._kind))
        return _core.mapped_device_array(self, alloc)

    @property
    def device_ctypes_pointer(self):
        import ctypes
        return ctypes.c_size_t(self._device_view()._device_pointer)

    @property
    def alloc_size(self):
        return self._device_view().alloc_size

    def bind(self, stream=0):
        v = self.view(type(self))
        v.stream = stream
        return v

    def copy_to_host(self, ary=None, stream=0):
        return self._device_view().copy_to_host(ary, stream=stream or self.stream)

    def copy_to_device(self, ary, stream=0):
        self._device_view().copy_to_device(ary, stream=stream or self.stream)


class MappedNDArray(_HostDeviceNDArray):
    """A host array in mapped page-locked memory: on the GPU, ``__cuda_array_interface__`` gives
    the device address of the same bytes, so kernels read and write it directly (call
    ``cuda.synchronize()`` or the stream's ``synchronize()`` before reading kernel results on the
    host). Views and slices of it are mapped too; arrays made from it by computation are not."""
    _kind = "mapped"


class ManagedNDArray(_HostDeviceNDArray):
    """A host array in CUDA managed (unified) memory, which the host and the device address alike
    (``cuda.managed_array``): kernels use it directly on the GPU (call ``cuda.synchronize()``
    before the host reads what they wrote). On the simulator it is ordinary host memory."""
    _kind = "managed"


def _inside(ary, alloc):
    ptr = ary.__array_interface__["data"][0]
    lo = hi = 0
    if ary.size:
        hi = ary.itemsize
        for d, s in zip(ary.shape, ary.strides):
            if s < 0:
                lo += (d - 1) * s
            else:
                hi += (d - 1) * s
    return alloc.ptr <= ptr + lo and ptr + hi <= alloc.ptr + max(alloc.nbytes, 1)


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """An uninitialised array in page-locked host memory that is also mapped into the device's
    address space (a ``MappedNDArray``). ``portable``: usable from every context; ``wc``:
    write-combined (fast for the host to write and the device to read, slow for the host to
    read)."""
    ary, alloc = _host_array(shape, dtype, strides, order, MappedNDArray, mapped=True, portable=portable, wc=wc)
    ary._cujit_alloc = alloc
    ary.stream = stream
    return ary


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """An uninitialised array (like ``np.empty``) in CUDA managed memory (cuMemAllocManaged), a
    ``ManagedNDArray`` that host code and kernels use alike. ``attach_global=False`` attaches it
    to the host (CU_MEM_ATTACH_HOST): devices of compute capability 6.0 and later may still use
    it. On the simulator it is host memory."""
    shape, dtype, strides = _normalize(shape, dtype, strides, order)
    alloc = _core.managed_alloc(_nbytes(shape, strides, dtype), attach_global=bool(attach_global))
    ary = np.ndarray.__new__(ManagedNDArray, shape=shape, dtype=dtype, strides=strides, order=order, buffer=alloc)
    ary._cujit_alloc = alloc
    ary.stream = stream
    return ary


def _contiguous_strides_like(ary):
    # Numba's rule: a contiguous (or 1-d) array keeps its layout; otherwise the new array is
    # contiguous with the dimensions in the same stride order.
    if ary.flags.c_contiguous or ary.flags.f_contiguous or ary.ndim <= 1:
        return None
    strides = [0] * ary.ndim
    step = ary.dtype.itemsize
    for i in sorted(range(ary.ndim), key=lambda i: (abs(ary.strides[i]), i)):
        strides[i] = step
        step *= ary.shape[i]
    return tuple(strides)


def _order_like(ary):
    return "F" if ary.flags.f_contiguous and not ary.flags.c_contiguous else "C"


def pinned_array_like(ary):
    "``pinned_array`` with the shape, dtype and layout of ``ary``."
    return pinned_array(ary.shape, ary.dtype, _contiguous_strides_like(ary), _order_like(ary))


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    "``mapped_array`` with the shape, dtype and layout of ``ary``."
    return mapped_array(ary.shape, ary.dtype, _contiguous_strides_like(ary), _order_like(ary), stream=stream,
                        portable=portable, wc=wc)


def _register_all(arylist, mapped):
    regs = []
    try:
        for ary in arylist:
            regs.append(_core.host_register(ary, mapped=mapped))
    except BaseException:
        for r in regs:
            r.release()
        raise
    return regs


@contextlib.contextmanager
def pinned(*arylist):
    """Page-locks the memory of the given host arrays for the duration of the block, so copies
    of them run at full speed (and asynchronously on a stream); unlocks it on exit."""
    regs = _register_all(arylist, mapped=False)
    try:
        yield
    finally:
        for r in regs:
            r.release()


@contextlib.contextmanager
def mapped(*arylist, **kws):
    """Page-locks and maps the given host arrays for the duration of the block and yields a
    device array for each (one array alone, else a list) that kernels can use directly. The
    mapping is removed on exit: the device arrays must not be used after the block."""
    if kws and set(kws) != {"stream"}:
        raise TypeError("cuda.mapped() accepts only the keyword 'stream', got %s" % ", ".join(sorted(kws)))
    regs = _register_all(arylist, mapped=True)
    try:
        devarys = [_core.mapped_device_array(a, r) for a, r in zip(arylist, regs)]
        yield devarys[0] if len(devarys) == 1 else devarys
    finally:
        for r in regs:
            r.release()
