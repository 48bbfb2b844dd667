from cujit import cuda, njit


@njit
def f(a):
    i = cuda.grid(1)  # error: TypingError: cuda.grid() is GPU code: it cannot be called from a CPU function (@jit); compile the function with @cuda.jit instead
    a[i] = 1


f(__import__("numpy").zeros(4))
