"""@vectorize: element-wise functions compiled into ufuncs.

With target='cuda' the result is a CUDA ufunc: the C++ core (_core.CudaUfunc) owns the compiled
loops and does selection, broadcasting, transfers and the launch, so a call runs no Python.
With target='cpu' (the default) or 'parallel' it is a real numpy.ufunc (cpu_ufunc.py), or, without
signatures, a DUFunc that compiles loops as calls need them.
"""

import warnings

import numpy as np

from . import _core
from .cpu_ufunc import DUFunc, make_ufunc
from .decorators import capture
from .types import signature_string


class CUDAUFunc(_core.CudaUfunc):
    """A vectorized function for the GPU (or the simulator). Call it on arrays and scalars;
    pass ``out=`` to write into an existing (host or device) array and ``stream=`` to order it."""

    def __init__(self, func, signatures):
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        self._signature_strings = [signature_string(s) for s in signatures]
        super().__init__(capture(func), self._signature_strings)

    def reduce(self, arg, stream=0):
        """numba-cuda's ``CUDAUFuncDispatcher.reduce``: folds a 1-D array (host or device) with
        this binary ufunc as a pairwise tree, one launch per level, and returns a NumPy scalar of
        the array's dtype. The order of the operations is numba-cuda's (an odd length folds its
        last element in after the rest; an even one adds the second half onto the first), so
        floating-point results are the same. Unlike numba-cuda, a device array is left as it was:
        the partial results go to a scratch array."""
        # numba-cuda's refusals, in its order and words (asserts there; raised here so that
        # python -O keeps them).
        if self.nin != 2:
            raise AssertionError("must be a binary ufunc")
        if arg.ndim != 1:
            raise AssertionError("must use 1d array")
        n = arg.shape[0]
        if n == 0:
            raise TypeError("Reduction on an empty array.")
        if n == 1:
            return arg[0]
        from . import cuda
        stream = stream or cuda.stream()
        with stream.auto_synchronize():
            if cuda.is_cuda_array(arg):
                mem = cuda.as_cuda_array(arg)
                scratch = cuda.device_array(n // 2, dtype=mem.dtype, stream=stream)
            else:
                mem = scratch = cuda.to_device(arg, stream)
            out = self._reduce_tree(mem, scratch, stream)
            buf = np.empty(1, dtype=arg.dtype)
            out.copy_to_host(buf, stream=stream)
        return buf[0]

    def _reduce_tree(self, mem, scratch, stream):
        """Folds mem (n >= 2 elements) into scratch[0:1] and returns that view. Writes only to
        scratch[:n // 2], which may be mem itself: each launch reads and writes element i alone."""
        n = mem.shape[0]
        if n % 2:
            out = self._reduce_tree(mem[:n - 1], scratch, stream)
            return self(out, mem[n - 1:], out=out, stream=stream)
        half = n // 2
        dst = scratch[:half]
        self(mem[:half], mem[half:], out=dst, stream=stream)
        return dst if half == 1 else self._reduce_tree(dst, dst, stream)

    def __reduce__(self):
        """By value (cujit/_pickle.py): the function and its signatures."""
        from . import _pickle
        return _pickle.reduce(self)

    def _pickle_spec(self):
        return ("cuda_ufunc", self.py_func, {"signatures": self._signature_strings})

    def __repr__(self):
        name = getattr(self, "__name__", "?")
        try:
            types = self.types
        except TypeError:  # its __init__ raised: no core object behind it
            return "<cujit CUDA ufunc %s (not initialised)>" % name
        return "<cujit CUDA ufunc %s with %d signature(s): %s>" % (name, len(types), ", ".join(types))


_TARGETS = ("cuda", "cpu", "parallel")


def vectorize(signatures=None, target="cpu", identity=None, nopython=None, cache=False,
              fastmath=False, **options):
    """Compile a scalar function into a ufunc (Numba's ``numba.vectorize``).

    ``signatures``: a list of signatures, as strings ('float32(float32, float32)') or type
    expressions (float32(float32, float32)); the GPU target needs at least one.
    ``target``: 'cuda' for the GPU; 'cpu'/'parallel' for the CPU, where the result is a
    numpy.ufunc (a lazy DUFunc without signatures); 'parallel' splits long loops over the cores.
    ``identity``: the CPU ufunc's identity for reductions: None, 0, 1 or 'reorderable'.
    """
    if callable(signatures) and not isinstance(signatures, (list, tuple, str)):
        return vectorize()(signatures)
    if target not in _TARGETS:
        raise ValueError("unknown vectorize target %r: use one of %s" % (target, ", ".join(_TARGETS)))
    if isinstance(signatures, str) or (signatures is not None and not isinstance(signatures, (list, tuple))):
        signatures = [signatures]

    if target == "cuda":  # numba-cuda's CUDA vectorize: its warning and refusal, word for word
        if nopython is not None:
            warnings.warn("nopython kwarg for cuda target is redundant", RuntimeWarning, stacklevel=2)
        for opt in options:
            raise KeyError("Unrecognized options. cuda vectorize target does not support option: '%s'" % opt)

    def wrap(func):
        if target == "cuda":
            if not signatures:
                raise TypeError("@vectorize(target='cuda') needs explicit signatures, as in "
                                "@vectorize(['float32(float32, float32)'], target='cuda')")
            return CUDAUFunc(func, signatures)
        if not signatures:
            return DUFunc(func, target, identity)
        return make_ufunc(func, signatures, target, identity)

    return wrap
