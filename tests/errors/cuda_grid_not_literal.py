from cujit import cuda


@cuda.jit("void(int32)")
def k(x):
    cuda.grid(x)  # error: TypingError: cuda.grid() needs the constant 1, 2 or 3 (RequireLiteralValue: got a value of type int32, not a literal)
