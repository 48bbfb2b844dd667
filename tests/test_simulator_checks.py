"""The simulator finds bugs (issue 8): every array index in simulated GPU code is checked, and an
out-of-bounds one stops the launch with an IndexError naming the index, the axis, the array and
its size, the thread, the block and the Python line (shown with a caret). On a GPU these kernels
would read or corrupt other memory, so the tests run on the simulator only."""
import numpy as np
import pytest

import cujit.errors
from cujit import cuda


@pytest.fixture
def sim(target):
    if target != "sim":
        pytest.skip("out-of-bounds accesses are undefined behaviour on a GPU; the simulator finds them")
    return target


@cuda.jit
def one_past_the_end(a):
    i = cuda.grid(1)
    a[i] = i  # 16 threads, 12 elements


@cuda.jit
def after_a_barrier(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i
    cuda.syncthreads()
    a[i + 1] += 1.0  # the last thread of each block steps past the end


@cuda.jit
def second_axis(m):
    i, j = cuda.grid(2)
    m[i, j + 1] = 1.0


@cuda.jit
def negative(a, k):
    a[k] = 7.0


@cuda.jit
def shared_tile(out):
    tile = cuda.shared.array(8, np.float32)
    t = cuda.threadIdx.x
    tile[t] = t
    cuda.syncthreads()
    out[t] = tile[t + 1]  # thread 7 reads tile[8]


@cuda.jit(device=True)
def get(a, i):
    return a[i]


@cuda.jit
def through_a_device_function(a, out):
    i = cuda.grid(1)
    out[i] = get(a, i + 100)


def test_out_of_bounds_write(sim):
    with pytest.raises(cujit.errors.SimulatorIndexError) as info:
        one_past_the_end[2, 8](cuda.to_device(np.zeros(12)))
    e = info.value
    assert isinstance(e, IndexError) and isinstance(e, cujit.errors.SimulatorError)
    msg = str(e)
    assert "index 12 is out of bounds for axis 0 of 'a' with size 12" in msg
    assert "in thread (4, 0, 0) of block (1, 0, 0)" in msg  # the first bad thread
    assert "simulated kernel one_past_the_end" in msg
    assert e.filename == __file__ and e.lineno == one_past_the_end.py_func.__code__.co_firstlineno + 3
    lines = msg.splitlines()
    assert lines[-2].strip() == "a[i] = i  # 16 threads, 12 elements" and lines[-1].strip() == "^"


def test_out_of_bounds_in_a_kernel_with_barriers(sim):
    # Kernels that synchronise run their threads as fibers: the check stops those too.
    with pytest.raises(IndexError, match=r"index 8 is out of bounds for axis 0 of 'a' with size 8, in thread \(7, 0, 0\) of block \(0, 0, 0\)"):
        after_a_barrier[1, 8](cuda.to_device(np.zeros(8)))


def test_axis_and_two_dimensional_threads(sim):
    with pytest.raises(IndexError, match=r"index 4 is out of bounds for axis 1 of 'm' with size 4, in thread \(0, 3, 0\)"):
        second_axis[(1, 1), (2, 4)](cuda.to_device(np.zeros((2, 4))))


def test_negative_indices_count_from_the_end(sim):
    d = cuda.to_device(np.zeros(4))
    negative[1, 1](d, -1)
    assert d.copy_to_host()[-1] == 7.0
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 0 of 'a' with size 4"):
        negative[1, 1](d, -5)


def test_shared_memory_and_device_functions(sim):
    with pytest.raises(IndexError, match=r"index 8 is out of bounds for axis 0 of 'tile' with size 8, in thread \(7, 0, 0\)"):
        shared_tile[1, 8](cuda.device_array(8, np.float32))
    with pytest.raises(IndexError, match="index 100 is out of bounds for axis 0 of 'a' with size 4"):
        through_a_device_function[1, 4](cuda.to_device(np.zeros(4)), cuda.device_array(4))


def test_the_simulator_goes_on_after_a_fault(sim):
    with pytest.raises(IndexError):
        one_past_the_end[2, 8](cuda.to_device(np.zeros(12)))
    d = cuda.to_device(np.zeros(16))
    one_past_the_end[2, 8](d)
    assert (d.copy_to_host() == np.arange(16)).all()


@cuda.jit
def barrier_in_a_branch(a):
    i = cuda.threadIdx.x + cuda.blockDim.x * cuda.threadIdx.y
    if cuda.threadIdx.y == 0:
        return
    cuda.syncthreads()
    a[i] = i


def test_a_barrier_part_of_the_block_skips_is_released(sim):
    # The threads of row 0 return before the barrier: as on the GPU (PTX's `exit` releases a
    # barrier only exited threads hold up), the others pass it; the simulator reported a
    # deadlock here before.
    a = cuda.to_device(np.zeros(64))
    barrier_in_a_branch[(1, 2), (8, 8)](a)
    expect = np.arange(64.0)
    expect[:8] = 0.0
    assert (a.copy_to_host() == expect).all()


@cuda.jit
def votes_after_returns(out):
    t = cuda.threadIdx.x
    if t >= 24:
        return
    c = cuda.syncthreads_count(t < 30)
    a = cuda.syncthreads_and(t < 30)
    out[t, 0] = c
    out[t, 1] = a


def test_returned_threads_do_not_vote(sim):
    # 8 of 32 threads return first: the barriers count the 24 that arrive, so every arriving
    # thread's predicate being true makes syncthreads_and true.
    out = np.full((32, 2), -1, np.int32)
    votes_after_returns[1, 32](out)
    assert (out[:24, 0] == 24).all() and (out[:24, 1] == 1).all() and (out[24:] == -1).all()
