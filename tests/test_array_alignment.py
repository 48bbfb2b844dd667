"""cuda.local.array / cuda.shared.array with alignment= (numba-cuda 0.30): the storage's address
is a multiple of it, on the GPU and the simulator; numba-cuda's rules for the value."""
import numpy as np
import pytest

import cujit
from cujit import cuda


def aligned(out):
    a = cuda.local.array(3, np.uint8, alignment=64)
    b = cuda.shared.array((2, 3), dtype=np.uint8, alignment=256)
    c = cuda.local.array(shape=1, dtype=np.uint64, alignment=None)  # the dtype's own
    d = cuda.shared.array(5, np.uint8, 128)  # positional
    for j in range(3):
        a[j] = j + 1
    b[0, 0] = 2
    c[0] = 3
    d[0] = 4
    out[0] = a[out.shape[0] % 3] + b[0, 0] + c[0] + d[0]  # a at a run-time index: in memory


k_aligned = cuda.jit(aligned)


def test_aligned_arrays_compile_and_run(target):
    out = np.zeros(1, np.int64)
    k_aligned[1, 1](out)
    assert out[0] == 11


def test_alignment_reaches_the_ptx():
    # The storage is declared alignas(n) on both targets, so its address is a multiple of n.
    ptx, _ = cuda.compile_ptx(aligned, "void(int64[:])")
    assert ".shared .align 256" in ptx and ".shared .align 128" in ptx
    assert ".local .align 64" in ptx


@pytest.mark.parametrize("alignment, message", [
    ("-1", "Alignment must be positive"),
    ("0", "Alignment must be positive"),
    ("3", "Alignment must be a power of 2"),
    ("4", "Alignment must be a multiple of 8"),
    ("1.5", "alignment must be a constant integer"),
    ("'16'", "alignment must be a constant integer"),
    ("n", "alignment must be a constant integer"),
])
@pytest.mark.parametrize("kind", ["local", "shared"])
def test_invalid_alignments(target, kind, alignment, message):
    src = ("def k(out, n):\n"
           "    a = cuda.%s.array(4, np.uint8, alignment=%s)\n"
           "    out[0] = a[0]\n" % (kind, alignment))
    ns = {"cuda": cuda, "np": np}
    import linecache
    filename = "<alignment_%s_%d>" % (kind, abs(hash(alignment)))
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    exec(compile(src, filename, "exec"), ns)
    with pytest.raises(cujit.errors.TypingError) as info:
        cuda.jit(ns["k"])[1, 1](np.zeros(1), 3)
    assert message in info.value.msg
    assert info.value.lineno == 2
