"""numba.cuda._internal: numba-cuda's generated bindings of cuda_fp16.h, cuda_bf16.h and
cuda_fp8.h, which its test files import by name. cujit's float16 is cuda.fp16 (and the float16
type); the bfloat16 and fp8 names here import and refuse when used."""
