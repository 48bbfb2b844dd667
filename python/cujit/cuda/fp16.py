"""numba.cuda.fp16: float16 intrinsics, usable only inside GPU code (the compiler knows them as
cuda.fp16.<name>, builtins.def); called from Python they raise, as the other cuda.* intrinsics."""
from . import _KernelOnly

_NAMES = ["hadd", "hsub", "hmul", "hdiv", "hfma", "hneg", "habs", "hmax", "hmin", "hsin", "hcos",
          "hlog", "hlog2", "hlog10", "hexp", "hexp2", "hexp10", "hsqrt", "hrsqrt", "hrcp", "hceil",
          "hfloor", "htrunc", "hrint", "heq", "hne", "hgt", "hge", "hlt", "hle"]
for _n in _NAMES:
    globals()[_n] = _KernelOnly("fp16." + _n)
del _n
__all__ = list(_NAMES)
