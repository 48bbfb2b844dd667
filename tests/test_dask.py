"""Dask with cujit: dask.array.map_blocks with CUDA ufuncs and kernels over NumPy blocks,
dask.delayed with @jit functions, and a distributed.LocalCluster of two worker processes (on the
simulator here; where a GPU exists the same runs on it). The GPU-only parts (CuPy blocks,
dask_cuda.LocalCUDACluster) are marked gpu. Dask is optional: `import cujit` never imports it."""
import os

import numpy as np
import pytest

import cujit
from cujit import cuda, njit, vectorize

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

SHIFT = 0.5


@vectorize(["float32(float32)", "float64(float64)"], target="cuda")
def relu_shift(x):
    return max(x - SHIFT, 0.0)


@vectorize(["float64(float64)"])
def cpu_relu_shift(x):
    return max(x - SHIFT, 0.0)


@cuda.jit
def square_kernel(a, out):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j] * a[i, j]


def square_block(block):
    """Runs the kernel over one block (a NumPy array here; a CuPy array on the GPU)."""
    out = np.empty_like(block)  # a CuPy array for a CuPy block (NumPy's __array_function__)
    tpb = (8, 8)
    bpg = ((block.shape[0] + 7) // 8, (block.shape[1] + 7) // 8)
    square_kernel[bpg, tpb](block, out)
    return out


@njit
def block_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


X = np.linspace(-2.0, 2.0, 24 * 10).reshape(24, 10)


def test_map_blocks_with_a_cuda_ufunc_and_a_kernel(target):
    x = da.from_array(X, chunks=(8, 5))
    got = x.map_blocks(relu_shift, dtype=X.dtype).compute(scheduler="threads")
    np.testing.assert_allclose(got, np.maximum(X - SHIFT, 0.0))
    got = x.map_blocks(square_block, dtype=X.dtype).compute(scheduler="threads")
    np.testing.assert_allclose(got, X * X)


def test_a_cpu_ufunc_applies_to_a_dask_array_directly():
    x = da.from_array(X, chunks=(8, 5))
    y = cpu_relu_shift(x)  # a real numpy.ufunc: Dask maps it over the blocks itself
    assert isinstance(y, da.Array)
    np.testing.assert_allclose(y.compute(), np.maximum(X - SHIFT, 0.0))


def test_delayed_with_jit_functions():
    parts = [dask.delayed(block_sum)(X[i:i + 8]) for i in range(0, 24, 8)]
    total = dask.delayed(sum)(parts)
    assert total.compute(scheduler="threads") == pytest.approx(X.sum())
    # The processes scheduler pickles the tasks (with cloudpickle) into worker processes.
    pytest.importorskip("cloudpickle")
    assert total.compute(scheduler="processes", num_workers=2) == pytest.approx(X.sum())


def test_local_cluster_of_two_worker_processes(target, monkeypatch):
    distributed = pytest.importorskip("distributed")
    # The workers are new processes: they read the backend from the environment.
    if target == "sim":
        monkeypatch.setenv("CUJIT_ENABLE_CUDASIM", "1")
    else:
        monkeypatch.delenv("CUJIT_ENABLE_CUDASIM", raising=False)
        monkeypatch.delenv("NUMBA_ENABLE_CUDASIM", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [os.path.dirname(os.path.dirname(cujit.__file__))] + os.environ.get("PYTHONPATH", "").split(os.pathsep)))
    # Compiled here first: the workers find the code in the disk cache.
    expected_relu = relu_shift(X)
    expected_sq = square_block(X[:8, :5])
    block_sum(X[:8])

    def make_local_kernel_block(scale):  # a closure of this test: pickled by value
        @cuda.jit
        def scaled(a, out):
            i, j = cuda.grid(2)
            if i < a.shape[0] and j < a.shape[1]:
                out[i, j] = a[i, j] * scale
        return scaled

    scaled = make_local_kernel_block(2.0)

    def scaled_block(block):
        out = np.empty_like(block)
        scaled[((block.shape[0] + 7) // 8, (block.shape[1] + 7) // 8), (8, 8)](block, out)
        return out

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        x = da.from_array(X, chunks=(8, 5))
        got = client.compute(x.map_blocks(relu_shift, dtype=X.dtype)).result()
        np.testing.assert_allclose(got, expected_relu)
        got = client.compute(x.map_blocks(square_block, dtype=X.dtype)).result()
        np.testing.assert_allclose(got, X * X)
        np.testing.assert_allclose(got[:8, :5], expected_sq)
        got = client.compute(x.map_blocks(scaled_block, dtype=X.dtype)).result()
        np.testing.assert_allclose(got, X * 2.0)
        futures = client.map(block_sum, [X[i:i + 8] for i in range(0, 24, 8)])
        assert sum(client.gather(futures)) == pytest.approx(X.sum())
        # Every block ran in a worker process, and both workers took part.
        pids = client.run(os.getpid)
        assert len(set(pids.values())) == 2 and os.getpid() not in pids.values()


@pytest.mark.gpu
def test_map_blocks_over_cupy_blocks_uses_the_device_memory():
    cupy = pytest.importorskip("cupy")
    x = da.from_array(cupy.asarray(X), chunks=(8, 5), asarray=False)
    # The ufunc takes the CuPy block through __cuda_array_interface__ and returns a device array,
    # which CuPy wraps without a copy.
    y = x.map_blocks(lambda b: cupy.asarray(relu_shift(b)), dtype=X.dtype)
    got = y.compute(scheduler="threads")
    assert isinstance(got, cupy.ndarray)
    np.testing.assert_allclose(cupy.asnumpy(got), np.maximum(X - SHIFT, 0.0))
    got = x.map_blocks(square_block, dtype=X.dtype).compute(scheduler="threads")
    assert isinstance(got, cupy.ndarray)
    np.testing.assert_allclose(cupy.asnumpy(got), X * X)


@pytest.mark.gpu
def test_local_cuda_cluster(monkeypatch):
    dask_cuda = pytest.importorskip("dask_cuda")
    distributed = pytest.importorskip("distributed")
    monkeypatch.delenv("CUJIT_ENABLE_CUDASIM", raising=False)  # one worker per GPU, on the GPU
    monkeypatch.delenv("NUMBA_ENABLE_CUDASIM", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [os.path.dirname(os.path.dirname(cujit.__file__))] + os.environ.get("PYTHONPATH", "").split(os.pathsep)))
    with dask_cuda.LocalCUDACluster(dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        x = da.from_array(X, chunks=(8, 5))
        got = client.compute(x.map_blocks(relu_shift, dtype=X.dtype)).result()
        np.testing.assert_allclose(got, np.maximum(X - SHIFT, 0.0))
        got = client.compute(x.map_blocks(square_block, dtype=X.dtype)).result()
        np.testing.assert_allclose(got, X * X)
