from cujit import cuda


@cuda.jit("void(float64[:], float64[:])")
def k(a, out):
    b = a.copy()  # error: UnsupportedError: copies only a global NumPy array
    out[0] = b[0]
