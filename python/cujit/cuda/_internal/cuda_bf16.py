from .._refuse import module_getattr

__getattr__ = module_getattr("numba.cuda._internal.cuda_bf16", "bfloat16")
