from cujit import njit


@njit
def make_list(n):  # Numba's issue 4387: each level's tuple holds the one below
    if n <= 0:
        return None
    return (n, make_list(n - 1))  # error: TypingError: Return type of recursive function does not converge


make_list(3)
