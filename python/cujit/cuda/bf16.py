"""numba.cuda.bf16: cujit has no bfloat16 yet; every name imports and refuses when used."""
from ._refuse import module_getattr

__getattr__ = module_getattr("numba.cuda.bf16", "bfloat16")
