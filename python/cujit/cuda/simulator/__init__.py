"""numba.cuda.simulator: numba-cuda's simulator package. cujit's simulator is the same generated
code built for the CPU (CUJIT_ENABLE_CUDASIM=1); this package only holds the submodules test code
imports from it."""
from . import vector_types  # noqa: F401
