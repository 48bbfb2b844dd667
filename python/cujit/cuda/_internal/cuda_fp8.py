from .._refuse import module_getattr

__getattr__ = module_getattr("numba.cuda._internal.cuda_fp8", "fp8 types")
