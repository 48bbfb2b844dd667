from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    values = [x, x]  # error: UnsupportedError: list literals are not supported in a CUDA ufunc (@vectorize(target='cuda')) (lists exist in CPU code only, as in numba-cuda); use a tuple, or an array (cuda.local.array)
    return x
