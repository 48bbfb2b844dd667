"""numba.cuda.args: the kernel-argument copy hints In/Out/InOut (not supported yet: making one
raises NotImplementedError)."""
from .compat import In, Out, InOut  # noqa: F401


def wrap_arg(value, default=InOut):
    return default(value)
