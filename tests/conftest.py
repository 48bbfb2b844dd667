"""The `target` fixture: every kernel and ufunc test runs on the simulator, and on the GPU too
where one exists. Without a GPU, every program is also compiled by NVRTC to PTX for sm_90
(CUJIT_CHECK_PTX), so CI proves the GPU code builds."""
import os

os.environ.setdefault("CUJIT_CHECK_PTX", "1")
# numba-cuda's performance warnings are on by default, as there; its own test case turns them off
# (most tests launch tiny grids with host arrays), and so does this suite, its subprocesses too.
# tests/test_warnings.py turns them on where it checks them.
os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")
os.environ.setdefault("NUMBA_CUDA_WARN_ON_IMPLICIT_COPY", "0")

import pytest  # noqa: E402

import cujit  # noqa: E402
from cujit import _core  # noqa: E402

HAS_GPU = _core.gpu_available()
_core.set_check_ptx(os.environ.get("CUJIT_CHECK_PTX") == "1" and not HAS_GPU)

TARGETS = ["sim"] + (["gpu"] if HAS_GPU else [])


@pytest.fixture(params=TARGETS)
def target(request):
    """'sim' or 'gpu': the backend new device arrays, ufunc calls and launches use."""
    previous = _core.simulator_enabled()
    _core.set_simulator(request.param == "sim")
    try:
        yield request.param
    finally:
        _core.set_simulator(previous)


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords and not HAS_GPU:
            item.add_marker(skip)
