"""The simulator's shared-memory race check (issue 8, CUJIT_SIM_RACECHECK=1): two threads of a
block touching one shared-memory element between barriers, one of them writing, stop the launch
with a SimulatorRaceError naming the array, the index, the block, both threads, both accesses and
both lines (shown with carets). The switch is read when a kernel is compiled, so each test makes
its kernels fresh (`cuda.jit(f)` of a plain function) after setting it. A race is a matter of
timing on a GPU, not an error it reports, so these tests run on the simulator only."""
import numpy as np
import pytest

import cujit.errors
from cujit import cuda, float32, int32

TPB = 64


@pytest.fixture
def sim(target):
    if target != "sim":
        pytest.skip("a GPU runs racy kernels without a report; the simulator's race check finds them")
    return target


@pytest.fixture
def racecheck(sim, monkeypatch):
    monkeypatch.setenv("CUJIT_SIM_RACECHECK", "1")
    return sim


def line_of(fn, text):
    """The file line number of the first line of `fn` that contains `text`."""
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, s in enumerate(lines) if text in s)


# ---- racy kernels ---------------------------------------------------------------------------------

def reduce_missing_barrier(a, out):
    s = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    s[t] = a[cuda.grid(1)]
    # missing: cuda.syncthreads()
    h = cuda.blockDim.x // 2
    while h > 0:
        if t < h:
            s[t] += s[t + h]
        cuda.syncthreads()
        h //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]


def last_writer_wins(out):
    s = cuda.shared.array(1, int32)
    s[0] = cuda.threadIdx.x
    cuda.syncthreads()
    out[cuda.blockIdx.x] = s[0]


def matmul_missing_second_barrier(A, B, C):
    sA = cuda.shared.array((8, 8), float32)
    sB = cuda.shared.array((8, 8), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = float32(0.0)
    for t in range(A.shape[1] // 8):
        sA[ty, tx] = A[y, t * 8 + tx]
        sB[ty, tx] = B[t * 8 + ty, x]
        cuda.syncthreads()
        for k in range(8):
            acc += sA[ty, k] * sB[k, tx]
        # missing: cuda.syncthreads() before the next tile overwrites sA and sB
    C[y, x] = acc


@cuda.jit(device=True)
def store(buf, i, v):
    buf[i] = v


def through_a_device_function(out):
    s = cuda.shared.array(32, int32)
    t = cuda.threadIdx.x
    store(s, t, t)
    out[t] = s[31 - t]


def dynamic_shared(out):
    s = cuda.shared.array(0, float32)
    t = cuda.threadIdx.x
    s[t] = t
    out[t] = s[(t + 1) % cuda.blockDim.x]


def warp_sum_without_syncwarp(a, out):
    s = cuda.shared.array(32, int32)
    t = cuda.threadIdx.x
    s[t] = a[t]
    cuda.syncwarp()
    h = 16
    while h > 0:
        if t < h:
            s[t] += s[t + h]
        h //= 2  # missing: cuda.syncwarp() after each step
    if t == 0:
        out[0] = s[0]


def transpose_missing_barrier(a, out):
    # No barrier anywhere: the simulator runs the block's threads one after another, and still
    # records every access.
    tile = cuda.shared.array((4, 4), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tile[ty, tx] = a[ty, tx]
    out[ty, tx] = tile[tx, ty]


# ---- correct kernels --------------------------------------------------------------------------------

def block_reduce(a, out):
    s = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    s[t] = a[cuda.grid(1)]
    cuda.syncthreads()
    h = cuda.blockDim.x // 2
    while h > 0:
        if t < h:
            s[t] += s[t + h]
        cuda.syncthreads()
        h //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]


def tiled_matmul(A, B, C):
    sA = cuda.shared.array((8, 8), float32)
    sB = cuda.shared.array((8, 8), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = float32(0.0)
    for t in range(A.shape[1] // 8):
        sA[ty, tx] = A[y, t * 8 + tx]
        sB[ty, tx] = B[t * 8 + ty, x]
        cuda.syncthreads()
        for k in range(8):
            acc += sA[ty, k] * sB[k, tx]
        cuda.syncthreads()
    C[y, x] = acc


def shared_histogram(a, out):
    h = cuda.shared.array(4, int32)
    t = cuda.threadIdx.x
    if t < 4:
        h[t] = 0
    cuda.syncthreads()
    cuda.atomic.add(h, a[cuda.grid(1)] % 4, 1)  # every thread, the same few elements
    cuda.atomic.max(h, 3, 0)
    cuda.syncthreads()
    if t < 4:
        cuda.atomic.add(out, t, h[t])


def warp_sum(a, out):
    s = cuda.shared.array(32, int32)
    t = cuda.threadIdx.x
    s[t] = a[t]
    cuda.syncwarp()
    h = 16
    while h > 0:
        if t < h:
            s[t] += s[t + h]
        cuda.syncwarp()
        h //= 2
    if t == 0:
        out[0] = s[0]


def own_elements_only(out):
    # Each thread reads and writes its own elements, and a second array between barriers: no race.
    s = cuda.shared.array(TPB, int32)
    t = cuda.threadIdx.x
    s[t] = t
    s[t] += 1
    cuda.syncthreads()
    out[t] = s[TPB - 1 - t]


# ---- tests ------------------------------------------------------------------------------------------

def test_reduction_missing_a_barrier_names_writer_and_reader(racecheck):
    k = cuda.jit(reduce_missing_barrier)
    a = np.arange(2 * TPB, dtype=np.float32)
    with pytest.raises(cujit.errors.SimulatorRaceError) as info:
        k[2, TPB](a, np.zeros(2, np.float32))
    e = info.value
    assert isinstance(e, cujit.errors.SimulatorError) and not isinstance(e, IndexError)
    read_line = line_of(reduce_missing_barrier, "s[t] += s[t + h]")
    write_line = line_of(reduce_missing_barrier, "s[t] = a[cuda.grid(1)]")
    # Thread 0 reads s[32] before thread 32 (which runs later) has written it.
    assert e.msg == (
        "race on shared memory s[32] in block (0, 0, 0): thread (0, 0, 0) read it at %s:%d:21 and "
        "thread (32, 0, 0) wrote it at %s:%d:5 with no cuda.syncthreads() between them "
        "(simulated kernel reduce_missing_barrier)" % (__file__, read_line, __file__, write_line))
    assert e.accesses == [("read", (0, 0, 0), __file__, read_line), ("wrote", (32, 0, 0), __file__, write_line)]
    assert (e.filename, e.lineno) == (__file__, write_line)
    # Both lines, each with a caret under its access.
    quoted = str(e).split("\n\n")[1:]
    assert quoted[0].splitlines() == ["%s:%d:" % (__file__, read_line), "    s[t] += s[t + h]", "            ^"]
    assert quoted[1].splitlines() == ["%s:%d:" % (__file__, write_line), "    s[t] = a[cuda.grid(1)]", "    ^"]


def test_write_write_race(racecheck):
    k = cuda.jit(last_writer_wins)
    with pytest.raises(cujit.errors.SimulatorRaceError) as info:
        k[1, 4](np.zeros(1, np.int32))
    line = line_of(last_writer_wins, "s[0] = cuda.threadIdx.x")
    assert ("race on shared memory s[0] in block (0, 0, 0): thread (0, 0, 0) wrote it at %s:%d:5 and "
            "thread (1, 0, 0) wrote it at %s:%d:5" % (__file__, line, __file__, line)) in str(info.value)


def test_tiled_matmul_missing_its_second_barrier(racecheck):
    k = cuda.jit(matmul_missing_second_barrier)
    A = np.ones((16, 16), np.float32)
    with pytest.raises(cujit.errors.SimulatorRaceError) as info:
        k[(2, 2), (8, 8)](A, A, np.zeros((16, 16), np.float32))
    e = info.value
    # Thread (0, 0) runs on into the next tile and overwrites sA[0, 0], which thread (1, 0) then
    # reads for the previous tile.
    assert e.accesses == [
        ("wrote", (0, 0, 0), __file__, line_of(matmul_missing_second_barrier, "sA[ty, tx] = A[y, t * 8 + tx]")),
        ("read", (1, 0, 0), __file__, line_of(matmul_missing_second_barrier, "acc += sA[ty, k] * sB[k, tx]"))]
    assert e.msg.startswith("race on shared memory sA[0, 0] in block (0, 0, 0): thread (0, 0, 0) wrote it at ")


def test_two_dimensional_blocks_without_any_barrier(racecheck):
    k = cuda.jit(transpose_missing_barrier)
    with pytest.raises(cujit.errors.SimulatorRaceError) as info:
        k[1, (4, 4)](np.ones((4, 4), np.float32), np.zeros((4, 4), np.float32))
    assert info.value.msg.startswith(
        "race on shared memory tile[1, 0] in block (0, 0, 0): thread (1, 0, 0) read it at %s:%d:19 and "
        "thread (0, 1, 0) wrote it at %s:%d:5 " % (__file__, line_of(transpose_missing_barrier, "out[ty, tx] ="),
                                                  __file__, line_of(transpose_missing_barrier, "tile[ty, tx] =")))


def test_access_through_a_device_function_names_both_arrays(racecheck):
    k = cuda.jit(through_a_device_function)
    with pytest.raises(cujit.errors.SimulatorRaceError) as info:
        k[1, 32](np.zeros(32, np.int32))
    e = info.value
    # Thread 15 reads s[16] first; thread 16 then writes it as `buf` inside store().
    assert e.msg.startswith("race on shared memory buf[16] in block (0, 0, 0): thread (15, 0, 0) read it (as 's') at ")
    assert "thread (16, 0, 0) wrote it at" in e.msg
    assert str(e).split("\n\n")[2].splitlines()[1:] == ["    buf[i] = v", "    ^"]


def test_dynamic_shared_memory(racecheck):
    k = cuda.jit(dynamic_shared)
    with pytest.raises(cujit.errors.SimulatorRaceError, match=r"s\[1\] in block \(0, 0, 0\): thread \(0, 0, 0\) read it"):
        k[1, 16, 0, 16 * 4](np.zeros(16, np.float32))


def test_warp_steps_need_syncwarp(racecheck):
    a = np.arange(32, dtype=np.int32)
    out = np.zeros(1, np.int32)
    cuda.jit(warp_sum)[1, 32](a, out)  # cuda.syncwarp() orders the lanes of a warp
    assert out[0] == a.sum()
    with pytest.raises(cujit.errors.SimulatorRaceError, match="wrote it at"):
        cuda.jit(warp_sum_without_syncwarp)[1, 32](a, out)


def test_correct_kernels_are_not_reported(racecheck):
    a = np.arange(4 * TPB, dtype=np.float32)
    sums = np.zeros(4, np.float32)
    cuda.jit(block_reduce)[4, TPB](a, sums)
    np.testing.assert_array_equal(sums, a.reshape(4, TPB).sum(axis=1))

    A = np.arange(24 * 24, dtype=np.float32).reshape(24, 24) % 7
    B = np.arange(24 * 24, dtype=np.float32).reshape(24, 24).T % 5
    C = np.zeros((24, 24), np.float32)
    cuda.jit(tiled_matmul)[(3, 3), (8, 8)](A, B, C)
    np.testing.assert_array_equal(C, A @ B)

    out = np.zeros(TPB, np.int32)
    cuda.jit(own_elements_only)[1, TPB](out)
    np.testing.assert_array_equal(out, np.arange(TPB)[::-1] + 1)


def test_atomics_on_shared_memory_are_not_races(racecheck):
    a = np.arange(2 * TPB, dtype=np.int32)
    out = np.zeros(4, np.int32)
    cuda.jit(shared_histogram)[2, TPB](a, out)
    np.testing.assert_array_equal(out, np.bincount(a % 4, minlength=4))


def test_off_by_default(sim, monkeypatch):
    monkeypatch.delenv("CUJIT_SIM_RACECHECK", raising=False)
    out = np.zeros(1, np.int32)
    cuda.jit(last_writer_wins)[1, 4](out)  # the simulator runs the threads in order: 3 wins
    assert out[0] == 3
    k = cuda.jit(reduce_missing_barrier)
    k[2, TPB](np.arange(2 * TPB, dtype=np.float32), np.zeros(2, np.float32))
    assert "cj::elem_race(" not in k.inspect_source(["float32[::1]", "float32[::1]"], cuda=False)
    monkeypatch.setenv("CUJIT_SIM_RACECHECK", "0")
    cuda.jit(last_writer_wins)[1, 4](out)


def test_the_switch_changes_only_the_simulator_build(sim, monkeypatch):
    sig = ["float32[::1]", "float32[::1]"]
    monkeypatch.delenv("CUJIT_SIM_RACECHECK", raising=False)
    off = cuda.jit(reduce_missing_barrier)
    gpu_off, host_off = off.inspect_source(sig, cuda=True), off.inspect_source(sig, cuda=False)
    monkeypatch.setenv("CUJIT_SIM_RACECHECK", "1")
    on = cuda.jit(reduce_missing_barrier)
    gpu_on, host_on = on.inspect_source(sig, cuda=True), on.inspect_source(sig, cuda=False)
    assert gpu_on == gpu_off  # the GPU's code is the same
    assert host_on.startswith("#define CJ_SIM_RACECHECK 1\n") and "cj::elem_race(" in host_on
    assert not host_off.startswith("#define CJ_SIM_RACECHECK") and "cj::elem_race(" not in host_off
    assert host_on.replace("#define CJ_SIM_RACECHECK 1\n", "", 1) != host_off


def axpy(out, a, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + out[i]


def test_kernels_without_shared_memory_are_not_instrumented(sim, monkeypatch):
    # Nothing to race on: the checked build would only be slower.
    sig = ["float32[::1]", "float32", "float32[::1]"]
    monkeypatch.delenv("CUJIT_SIM_RACECHECK", raising=False)
    off = cuda.jit(axpy).inspect_source(sig, cuda=False)
    monkeypatch.setenv("CUJIT_SIM_RACECHECK", "1")
    assert cuda.jit(axpy).inspect_source(sig, cuda=False) == off


def test_checked_and_unchecked_builds_never_share_a_cache_entry(sim, monkeypatch, tmp_path):
    # The same kernel off, on, then off again, each compiled through the same disk cache.
    monkeypatch.setenv("CUJIT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("CUJIT_DISABLE_CACHE", raising=False)
    out = np.zeros(1, np.int32)
    monkeypatch.delenv("CUJIT_SIM_RACECHECK", raising=False)
    cuda.jit(last_writer_wins)[1, 4](out)
    monkeypatch.setenv("CUJIT_SIM_RACECHECK", "1")
    with pytest.raises(cujit.errors.SimulatorRaceError):
        cuda.jit(last_writer_wins)[1, 4](out)
    monkeypatch.delenv("CUJIT_SIM_RACECHECK")
    cuda.jit(last_writer_wins)[1, 4](out)
    assert out[0] == 3
    assert len(list(tmp_path.rglob("*.so"))) == 2  # one unchecked, one checked


def test_the_simulator_goes_on_after_a_race(racecheck):
    racy = cuda.jit(reduce_missing_barrier)
    good = cuda.jit(block_reduce)
    a = np.arange(8 * TPB, dtype=np.float32)
    for _ in range(2):
        with pytest.raises(cujit.errors.SimulatorRaceError):
            racy[8, TPB](a, np.zeros(8, np.float32))
        sums = np.zeros(8, np.float32)
        good[8, TPB](a, sums)
        np.testing.assert_array_equal(sums, a.reshape(8, TPB).sum(axis=1))
