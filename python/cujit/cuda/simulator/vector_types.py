"""numba.cuda.simulator.vector_types: the same table as numba.cuda.vector_types."""
from ..vector_types import vector_types, VectorType  # noqa: F401
