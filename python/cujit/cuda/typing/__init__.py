"""numba.cuda.typing: ``signature`` and ``typeof``, the two names user code takes from Numba's
typing package (the rest of it is Numba's type-inference machinery, which cujit's is not)."""
from ...types import Signature
from . import typeof  # noqa: F401  (the module, as numba.cuda.typing.typeof)


def signature(return_type, *args):
    """The function type ``return_type(*args)``, as ``float32(float32, float32)`` writes it."""
    return Signature(return_type, args)
