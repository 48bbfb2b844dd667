"""Cooperative groups: cuda.cg.this_grid() and grid.sync(). A kernel that calls this_grid() is
launched cooperatively (all blocks resident at once; on the simulator each block runs on a CPU
thread of its own), so grid.sync() is a barrier of the whole grid. Expectations are numba-cuda's
(cudapy/test_cooperative_groups.py) where its simulator has them; numba-cuda's simulator does not
synchronise the grid at all (its sequential_rows result is wrong on more than one block)."""
import numpy as np
import pytest

from cujit import cuda
from cujit.errors import CudaAPIError, SimulatorError
from cujit.types import int32


def sequential_rows(M):
    # Each row is written from the previous row's opposite element, which another block may own:
    # without a grid barrier between rows some threads would read a stale row.
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    rows = M.shape[0]
    cols = M.shape[1]
    for row in range(1, rows):
        opposite = cols - col - 1
        M[row, col] = M[row - 1, opposite] + 1
        g.sync()


def test_grid_sync_orders_rows_across_blocks(target):
    kernel = cuda.jit((int32[:, ::1],))(sequential_rows)
    A = np.zeros((48, 64), dtype=np.int32)
    blocks, threads = 4, 16
    assert kernel.max_cooperative_grid_blocks(threads) >= blocks
    kernel[blocks, threads](A)
    np.testing.assert_equal(A, np.tile(np.arange(48), (64, 1)).T)


def test_grid_sync_makes_every_block_see_every_write(target):
    @cuda.jit
    def shift(a, out):
        g = cuda.cg.this_grid()
        i = cuda.grid(1)
        a[i] = i * 3
        g.sync()
        out[i] = a[(i + 17) % a.size]

    a = np.zeros(96, np.int64)
    out = np.zeros(96, np.int64)
    shift[6, 16](a, out)
    np.testing.assert_equal(out, ((np.arange(96) + 17) % 96) * 3)


def test_this_grid_alone_and_sync_in_a_device_function(target):
    @cuda.jit(device=True)
    def barrier(g):
        g.sync()

    @cuda.jit
    def k(A):
        g = cuda.cg.this_grid()
        barrier(g)
        A[0] = 1.0

    @cuda.jit
    def this_grid(A):
        cuda.cg.this_grid()
        A[0] = 1.0

    for kern in (k, this_grid):
        A = np.full(1, np.nan)
        kern[1, 1](A)
        assert A[0] == 1.0
        assert kern.cooperative(0)


def test_only_kernels_using_this_grid_are_cooperative(target):
    @cuda.jit
    def no_sync(A):
        A[0] = cuda.grid(1)

    no_sync[1, 1](np.zeros(1))
    assert not no_sync.cooperative(0)


def test_max_cooperative_grid_blocks_depends_on_the_thread_count(target):
    kernel = cuda.jit((int32[:, ::1],))(sequential_rows)
    b1 = kernel.max_cooperative_grid_blocks(256)
    assert b1 >= 1
    assert kernel.max_cooperative_grid_blocks((16, 16)) == b1
    assert kernel.max_cooperative_grid_blocks((16, 4, 4)) == b1
    assert kernel.max_cooperative_grid_blocks(32) >= b1


def test_overloads_say_cooperative_and_their_grid_limit(target):
    # numba-cuda's spelling: kernel.overloads[argtypes].cooperative / .max_cooperative_grid_blocks
    kernel = cuda.jit((int32[:, ::1],))(sequential_rows)
    overload = kernel.overloads[(int32[:, ::1],)]
    assert overload.cooperative
    assert overload.max_cooperative_grid_blocks((16, 16)) == kernel.max_cooperative_grid_blocks(256) >= 1

    @cuda.jit("void(float64[::1])")
    def plain(A):
        A[0] = 1.0

    assert not plain.overloads[(cuda.float64[::1],)].cooperative


def test_max_cooperative_grid_blocks_needs_one_compiled_signature(target):
    kernel = cuda.jit(sequential_rows)
    with pytest.raises(TypeError, match="compiled signatures"):
        kernel.max_cooperative_grid_blocks(32)


def test_a_grid_larger_than_the_cooperative_limit_is_refused(target):
    kernel = cuda.jit((int32[:, ::1],))(sequential_rows)
    most = kernel.max_cooperative_grid_blocks(32)
    A = np.zeros((2, 32 * (most + 1)), dtype=np.int32)
    with pytest.raises(CudaAPIError, match="COOPERATIVE_LAUNCH_TOO_LARGE"):
        kernel[most + 1, 32](A)
        cuda.synchronize()


def test_simulator_reports_a_block_that_never_reaches_grid_sync():
    @cuda.jit
    def early_exit(A):
        g = cuda.cg.this_grid()
        if cuda.blockIdx.x == 0:
            return
        g.sync()
        A[cuda.grid(1)] = 1

    from cujit import _core
    previous = _core.simulator_enabled()
    _core.set_simulator(True)
    try:
        with pytest.raises(SimulatorError, match=r"deadlock in the grid: block \(\d, 0, 0\) waits at grid.sync\(\)"):
            early_exit[3, 4](np.zeros(12))
    finally:
        _core.set_simulator(previous)


def test_a_fault_in_one_block_stops_the_others_waiting_at_grid_sync():
    @cuda.jit
    def faulty(A):
        g = cuda.cg.this_grid()
        if cuda.blockIdx.x == 2:
            A[cuda.grid(1) + 1000] = 1
        g.sync()

    from cujit import _core
    previous = _core.simulator_enabled()
    _core.set_simulator(True)
    try:
        with pytest.raises(IndexError, match="index 10(08|09|10|11) is out of bounds"):
            faulty[3, 4](np.zeros(12))
    finally:
        _core.set_simulator(previous)


def test_this_grid_in_cpu_code_is_refused():
    from cujit import jit
    from cujit.errors import TypingError

    @jit
    def f():
        cuda.cg.this_grid()
        return 1

    with pytest.raises(TypingError, match="GPU code"):
        f()
