"""numba.cuda.cudadrv: the public classes and errors of numba-cuda's driver layer, for code that
imports them from there. cujit's driver is C++ (src/runtime/); the raw driver API (``driver``,
cuMem* calls, memory pointers) is not exposed and says so when used."""
from . import driver, devicearray, error, devices, linkable_code, nvrtc  # noqa: F401
