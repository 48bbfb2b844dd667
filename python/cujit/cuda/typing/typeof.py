"""numba.cuda.typing.typeof: the type object of a value."""
from ...types import typeof  # noqa: F401
