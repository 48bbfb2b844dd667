"""The launch fast path (src/bindings/kernel.cpp): a call whose arguments match the last launch's
plan skips the general marshalling. Each test changes one thing the plan depends on between two
launches of the same kernel and checks the second launch still computes the right thing: the
plan must notice the change rather than reuse stale words or the wrong specialisation."""
import numpy as np
import pytest

import cujit.errors

from cujit import cuda, float32, int32, void
from cujit.errors import CudaAPIError


@cuda.jit
def scale_into(out, a, factor):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] * factor


def _run(out, a, factor):
    scale_into[1, 64](out, a, factor)
    return out.copy_to_host() if hasattr(out, "copy_to_host") else out


def test_same_arguments_many_times_use_the_new_values(target):
    a = cuda.to_device(np.arange(10, dtype=np.float32))
    out = cuda.device_array(10, np.float32)
    for k in range(5):  # the plan is reused: the scalar's value and the array's data are read each time
        np.testing.assert_array_equal(_run(out, a, float(k)), np.arange(10, dtype=np.float32) * k)
    b = cuda.to_device(np.arange(10, dtype=np.float32) + 100)
    np.testing.assert_array_equal(_run(out, b, 2.0), (np.arange(10) + 100) * 2)


def test_a_new_dtype_takes_a_new_specialisation(target):
    out32 = cuda.device_array(4, np.float32)
    out64 = cuda.device_array(4, np.float64)
    a32 = cuda.to_device(np.array([1.5, 2.5, 3.5, 4.5], np.float32))
    a64 = cuda.to_device(np.array([1e300, 2.0, 3.0, 4.0]))
    np.testing.assert_array_equal(_run(out32, a32, 2.0), [3, 5, 7, 9])
    r = _run(out64, a64, 2.0)  # float32 words here would lose the 1e300
    assert r[0] == 2e300
    np.testing.assert_array_equal(_run(out32, a32, 3.0), [4.5, 7.5, 10.5, 13.5])
    assert len(scale_into.signatures) >= 2


def test_a_strided_view_after_a_contiguous_array(target):
    host = np.arange(20, dtype=np.float32)
    a = cuda.to_device(host)
    out = cuda.device_array(10, np.float32)
    np.testing.assert_array_equal(_run(out, a[:10], 1.0), host[:10])
    # a[::2] has the same type, dtype and ndim: only the layout (and the stride word) differs
    np.testing.assert_array_equal(_run(out, a[::2], 1.0), host[::2])
    np.testing.assert_array_equal(_run(out, a[1:11], 1.0), host[1:11])


def test_scalar_kinds_changing_between_launches(target):
    a = cuda.to_device(np.ones(4, np.float64))
    out = cuda.device_array(4, np.float64)
    for factor in (2.0, 3, True, np.float32(0.5), np.int16(-4), 2.5, 7):
        np.testing.assert_array_equal(_run(out, a, factor), np.ones(4) * float(factor))


def test_ints_past_int64_are_typed_as_numba_types_them(target):
    a = cuda.to_device(np.ones(4, np.float64))
    out = cuda.device_array(4, np.float64)
    _run(out, a, 2)  # records a plan with an int64 scalar
    np.testing.assert_array_equal(_run(out, a, 2 ** 63), [2.0 ** 63] * 4)  # uint64, as Numba's typeof
    with pytest.raises(ValueError, match="Int value is too large: 1180591620717411303424"):
        scale_into[1, 64](out, a, 2 ** 70)
    with pytest.raises(ValueError, match="Int value is too large: -"):
        scale_into[1, 64](out, a, -2 ** 64)
    np.testing.assert_array_equal(_run(out, a, 3), [3, 3, 3, 3])


def test_host_arrays_are_copied_back_on_every_launch(target):
    a = np.arange(6, dtype=np.float32)
    out = np.zeros(6, np.float32)
    for k in (1.0, 2.0, 3.0):
        scale_into[1, 64](out, a, k)
        np.testing.assert_array_equal(out, a * k)
    d_out = cuda.device_array(6, np.float32)
    np.testing.assert_array_equal(_run(d_out, a, 4.0), a * 4)  # device then host array in one call


def test_declared_signature_converts_scalars_on_the_fast_path(target):
    @cuda.jit(void(float32[:], int32))
    def put(out, v):
        out[0] = v

    out = cuda.device_array(1, np.float32)
    for v in (3, 4, 5.9, np.int64(-2)):  # float -> int32 truncates, as Numba converts
        put[1, 1](out, v)
        assert out.copy_to_host()[0] == int(v)


def test_argument_count_and_keywords(target):
    a = cuda.to_device(np.ones(4, np.float64))
    out = cuda.device_array(4, np.float64)
    _run(out, a, 1.0)
    with pytest.raises(cujit.errors.TypingError, match=r"called with 2 argument\(s\) but scale_into\(\) takes 3"):
        scale_into[1, 64](out, a)
    with pytest.raises(TypeError, match="keyword"):
        scale_into[1, 64](out, a, factor=2.0)
    with pytest.raises(TypeError, match="Cannot determine Numba type of <class 'dict'>"):
        scale_into[1, 64](out, a, {})
    np.testing.assert_array_equal(_run(out, a, 5.0), [5, 5, 5, 5])


def test_many_arguments_take_the_general_path(target):
    @cuda.jit
    def total(out, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16):
        out[0] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15 + a16

    out = cuda.device_array(1, np.int64)
    for base in (0, 1):
        total[1, 1](out, *[base + i for i in range(17)])
        assert out.copy_to_host()[0] == sum(base + i for i in range(17))


def test_configuration_objects(target):
    a = cuda.to_device(np.ones(4, np.float64))
    out = cuda.device_array(4, np.float64)
    launch = scale_into[1, 64]
    assert type(launch).__name__ == "KernelLaunch"
    launch(out, a, 2.0)
    launch(out, a, 3.0)
    np.testing.assert_array_equal(out.copy_to_host(), [3, 3, 3, 3])
    scale_into.configure(1, 64)(out, a, 4.0)
    np.testing.assert_array_equal(out.copy_to_host(), [4, 4, 4, 4])
    scale_into.__getitem__((1, 64))(out, a, 5.0)  # the slot wrapper of the C subscript
    np.testing.assert_array_equal(out.copy_to_host(), [5, 5, 5, 5])
    config = [1, 64]
    with pytest.raises(TypeError, match=r"kernel\[blocks, threads\]"):
        scale_into[config]
    with pytest.raises(ValueError, match="sizes must be positive"):
        scale_into[0, 64]
    scale_into[1, 64](out, a, 6.0)  # a failed subscript leaves the last good configuration
    np.testing.assert_array_equal(out.copy_to_host(), [6, 6, 6, 6])


# Launch sizes through operator.index (numba-cuda's test_non_integral_dims): a float is a
# TypeError naming the value, not pybind11's cast RuntimeError; numpy integers are sizes; a size
# past 32 bits is refused instead of being cut to its low bits (2**32 + 1 launched one block).
def test_launch_sizes_are_integers_that_fit(target):
    a = cuda.to_device(np.ones(4, np.float64))
    out = cuda.device_array(4, np.float64)
    # numba-cuda's messages (normalize_kernel_dimensions); sizes past the GPU's limits are the
    # driver's CUDA_ERROR_INVALID_VALUE on both backends (tests/test_user_errors.py).
    with pytest.raises(TypeError, match=r"griddim must be a sequence of integers, got \[2.0\]"):
        scale_into[2.0, 64]
    with pytest.raises(TypeError, match=r"blockdim must be a sequence of integers, got \[3.0, 1\]"):
        scale_into[1, (3.0, 1)]
    with pytest.raises(TypeError, match="sharedmem must be an integer"):
        scale_into[1, 64, 0, 1.5]
    with pytest.raises(CudaAPIError, match=r"4294967297 in x, above the GPU's limit"):
        scale_into[2 ** 32 + 1, 64]
    with pytest.raises(CudaAPIError, match="above the GPU's limit"):
        scale_into[(1, 2 ** 70), 64]
    scale_into[np.int64(1), np.int32(64)](out, a, 7.0)
    np.testing.assert_array_equal(out.copy_to_host(), [7, 7, 7, 7])
