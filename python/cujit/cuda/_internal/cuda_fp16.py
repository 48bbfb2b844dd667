"""numba.cuda._internal.cuda_fp16: the cuda.fp16 intrinsics under cuda_fp16.h's names where cujit
has them (__hadd is cuda.fp16.hadd, ...); the other names refuse when used."""
from .. import fp16 as _fp16
from .._refuse import module_getattr

_refused = module_getattr("numba.cuda._internal.cuda_fp16", "this cuda_fp16.h binding")


def __getattr__(name):
    short = name[2:] if name.startswith("__h") else None
    if short is not None and short in _fp16._NAMES:
        return getattr(_fp16, short)
    return _refused(name)
