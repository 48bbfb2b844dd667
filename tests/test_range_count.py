"""Three-argument range loops run on a count of items computed first (issue 23, kern23), as
Numba's range does: NVVM can then unroll a grid-stride loop and keep several loads in flight.
These pin the loop's results at its edges (empty, negative step, the step past the last item
leaving int64, `continue`, the loop variable after the loop, start evaluated once) and, in PTX,
that the grid-stride loop is unrolled."""
import numpy as np

from cujit import cuda, int64


@cuda.jit
def grid_stride_sum(x, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        cuda.atomic.add(out, 0, x[i])


@cuda.jit
def ranges(args, out):
    # out[k] = (count, sum of items, last item) of range(args[k, 0], args[k, 1], args[k, 2])
    k = cuda.grid(1)
    if k < args.shape[0]:
        n = 0
        s = 0
        last = int64(-12345)
        for v in range(args[k, 0], args[k, 1], args[k, 2]):
            n += 1
            s += v
            last = v
        out[k, 0] = n
        out[k, 1] = s
        out[k, 2] = last


@cuda.jit
def evens_with_continue(n, step, out):
    total = 0
    for v in range(0, n, step):
        if v % 2 == 1:
            continue
        total += v
    out[0] = total
    out[1] = v  # the loop variable keeps its last value after the loop


@cuda.jit(device=True)
def counted_start(calls):
    cuda.atomic.add(calls, 0, 1)
    return 2


@cuda.jit
def start_once(calls, n, step, out):
    s = 0
    for v in range(counted_start(calls), n, step):
        s += v
    out[0] = s


def test_grid_stride_loop_counts_every_item(target):
    for n in (0, 1, 255, 256, 257, 10_000):
        x = np.arange(n, dtype=np.int64) % 7
        out = cuda.to_device(np.zeros(1, np.int64))
        grid_stride_sum[3, 64](cuda.to_device(x), out)
        assert out.copy_to_host()[0] == x.sum(), n


def test_range_edges(target):
    big = 2**63 - 1
    cases = [(0, 10, 3), (0, 9, 3), (5, 5, 1), (5, 0, 2), (9, -1, -2), (9, -2, -3), (0, 10, -1),
             (-10, 10, 7), (big - 10, big, 4), (-big, -big + 9, 4), (big - 1, -big, -2**62)]
    args = np.array(cases, dtype=np.int64)
    out = cuda.to_device(np.zeros((len(cases), 3), np.int64))
    ranges[1, 32](cuda.to_device(args), out)
    got = out.copy_to_host()
    for (a, b, c), row in zip(cases, got):
        items = list(range(a, b, c))
        # the sum as int64 arithmetic wraps it
        s = int(np.array(items, dtype=np.int64).sum()) if items else 0
        assert list(row) == [len(items), s, items[-1] if items else -12345], (a, b, c)


def test_continue_and_the_loop_variable_after_the_loop(target):
    out = cuda.to_device(np.zeros(2, np.int64))
    evens_with_continue[1, 1](11, 3, out)
    assert list(out.copy_to_host()) == [0 + 6, 9]


def test_start_is_evaluated_once(target):
    calls = cuda.to_device(np.zeros(1, np.int32))
    out = cuda.to_device(np.zeros(1, np.int64))
    start_once[1, 1](calls, 20, 5, out)
    assert out.copy_to_host()[0] == 2 + 7 + 12 + 17
    assert calls.copy_to_host()[0] == 1


def test_grid_stride_loop_is_unrolled_in_ptx(target):
    # Tested as `step > 0 ? i < stop : i > stop`, the loop had one load per trip; counted, NVVM
    # unrolls it by 4 (and keeps one for the remainder): numba-cuda's code has the same shape.
    out = cuda.to_device(np.zeros(1, np.int64))
    grid_stride_sum[1, 32](cuda.to_device(np.ones(100, np.int64)), out)
    ptx = grid_stride_sum._image(0, "compute_90").decode()
    loads = [l for l in ptx.splitlines() if "ld.global" in l and ".s64" in l or "ld.global.u64" in l]
    assert len(loads) >= 4, ptx


def test_jit_range_edges():
    from cujit import jit

    @jit
    def summary(a, b, c):
        n = 0
        s = 0
        for v in range(a, b, c):
            n += 1
            s += v
        return n, s

    big = 2**63 - 1
    for a, b, c in [(0, 10, 3), (9, -1, -2), (big - 10, big, 4), (big - 1, -big, -2**62), (3, 3, 5)]:
        items = list(range(a, b, c))
        s = int(np.array(items, dtype=np.int64).sum()) if items else 0
        assert summary(a, b, c) == (len(items), s), (a, b, c)
