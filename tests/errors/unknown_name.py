from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    return x + undefined_thing  # error: TypingError: NameError: name 'undefined_thing' is not defined
