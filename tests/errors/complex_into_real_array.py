from cujit import cuda


@cuda.jit("void(float64[::1], complex128)")
def k(a, z):
    a[0] = z  # error: TypingError: cannot store a complex128 into an element of array(float64, 1d, C) (a complex number does not convert to a real one)
