from cujit import cuda
import numpy as np


@cuda.jit
def k(a):
    a[0].y = a[0].z  # error: TypingError: cannot store a [char x 3] into a record field of type [unichr x 4]


k[1, 1](np.zeros(2, dtype=[("y", "U4"), ("z", "S3")]))
