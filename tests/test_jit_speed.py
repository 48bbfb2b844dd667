"""@jit CPU speed (issues 20 and 23): what a call costs beyond the compiled loop itself.

benchmarks/numpy_jit.py measures the times beside Numba; these tests pin the causes found there
with counts that do not depend on the machine's load."""
import resource

import numpy as np
import pytest

from cujit import njit
from memory_probe import UNDER_ASAN


def minor_faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


@njit
def plus_trace(a):  # Numba's 5-minute-guide function (go_fast)
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


@pytest.mark.skipif(UNDER_ASAN, reason="ASan's allocator quarantines freed blocks")
def test_a_dropped_result_block_is_reused_warm_by_the_next_call():
    # An 8 MB result dropped after each call: the next call's block should be the freed one, with
    # its pages already mapped. It was not (glibc's memalign asks for more than the block it
    # kept), so each call page-faulted a fresh 8 MB (1953 faults): go_fast ran at 2x Numba's time.
    a = np.random.default_rng(0).random((1000, 1000))
    want = a + np.tanh(np.diagonal(a)).sum()
    np.testing.assert_allclose(plus_trace(a), want, rtol=1e-12)
    plus_trace(a)
    before = minor_faults()
    for _ in range(5):
        plus_trace(a)
    faults = minor_faults() - before
    assert faults < 1000, f"{faults} page faults over 5 calls (8 MB each is 1953)"


@pytest.mark.skipif(UNDER_ASAN, reason="ASan's allocator quarantines freed blocks")
def test_simulator_device_arrays_reuse_a_freed_block_warm(target):
    # The same cause in the simulator's "device" memory (posix_memalign): an 8 MB device array
    # made and dropped in a loop page-faulted fresh memory every time.
    if target != "sim":
        pytest.skip("the simulator's memory")
    from cujit import cuda
    for _ in range(2):
        d = cuda.device_array(10 ** 6)
        d[:] = 1.0
        del d
    before = minor_faults()
    for _ in range(5):
        d = cuda.device_array(10 ** 6)
        d[:] = 1.0
        del d
    faults = minor_faults() - before
    assert faults < 1000, f"{faults} page faults over 5 arrays (8 MB each is 1953)"
