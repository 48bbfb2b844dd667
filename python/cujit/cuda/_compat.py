"""numba.cuda._compat: numba-cuda's switches on the versions of its dependencies. cujit does not
use cuda-core (its driver layer is its own C++), so they say what the installed one is, when
there is one."""


def _cuda_core_version():
    try:
        from importlib.metadata import version
        return tuple(int(p) for p in version("cuda-core").split(".")[:2])
    except Exception:
        return (0, 0)


CUDA_CORE_GE_1_0 = _cuda_core_version() >= (1, 0)
