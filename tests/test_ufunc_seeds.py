"""Every CUDA ufunc sample of the seeds (course section 1 and the notes), compared with NumPy,
on the simulator and on the GPU."""
import math

import numpy as np
import pytest

from cujit import cuda, vectorize, float32, float64

SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


@vectorize(['int64(int64, int64)'], target='cuda')
def add_ufunc(x, y):
    return x + y


@vectorize(['float32(float32, float32, float32)'], target='cuda')
def gaussian_pdf(x, mean, sigma):
    '''Compute the value of a Gaussian probability density function at x with given mean and sigma.'''
    return math.exp(-0.5 * ((x - mean) / sigma)**2) / (sigma * SQRT_2PI)


@cuda.jit(device=True)
def polar_to_cartesian(rho, theta):
    x = rho * math.cos(theta)
    y = rho * math.sin(theta)
    return x, y


@vectorize(['float32(float32, float32, float32, float32)'], target='cuda')
def polar_distance(rho1, theta1, rho2, theta2):
    x1, y1 = polar_to_cartesian(rho1, theta1)  # We can use device functions inside our GPU ufuncs
    x2, y2 = polar_to_cartesian(rho2, theta2)

    return ((x1 - x2)**2 + (y1 - y2)**2)**0.5


@vectorize(['int16(int16, int16)'], target='cuda')
def zero_suppress(waveform_value, threshold):
    if waveform_value < threshold:
        result = 0
    else:
        result = waveform_value
    return result


@vectorize(['float32(float32, float32, float32)'], target='cuda')
def make_pulses(i, period, amplitude):
    return max(math.sin(i / period) - 0.3, 0.0) * amplitude


@vectorize(['float32(float32, float32)'], target='cuda')
def add_f32(x, y):
    return x + y


@vectorize(['float32(float32, float32, float32)',
            'float64(float64, float64, float64)'],
           target='cuda')
def cu_discriminant(a, b, c):
    return math.sqrt(b ** 2 - 4 * a * c)


def test_add_ufunc_small_arrays_and_broadcast(target):
    a = np.array([1, 2, 3, 4])
    b = np.array([10, 20, 30, 40])
    c = np.arange(4 * 4).reshape((4, 4))
    r = add_ufunc(a, b)
    assert isinstance(r, np.ndarray) and r.dtype == np.int64
    np.testing.assert_array_equal(r, [11, 22, 33, 44])
    np.testing.assert_array_equal(add_ufunc(b, c), np.add(b, c))
    np.testing.assert_array_equal(add_ufunc(a, 100), a + 100)


def test_gaussian_pdf(target):
    x = np.random.uniform(-3, 3, size=1000000).astype(np.float32)
    mean = np.float32(0.0)
    sigma = np.float32(1.0)
    r = gaussian_pdf(x, mean, sigma)
    ref = np.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)
    assert r.dtype == np.float32 and r.shape == x.shape
    np.testing.assert_allclose(r, ref, rtol=1e-5, atol=1e-7)
    one = gaussian_pdf(x[0], 0.0, 1.0)  # all scalars: a 1-element array, as in Numba
    assert one.shape == (1,) and one.dtype == np.float32
    np.testing.assert_allclose(one[0], ref[0], rtol=1e-5)


def test_polar_distance_with_device_function(target):
    n = 100000
    rho1 = np.random.uniform(0.5, 1.5, size=n).astype(np.float32)
    theta1 = np.random.uniform(-np.pi, np.pi, size=n).astype(np.float32)
    rho2 = np.random.uniform(0.5, 1.5, size=n).astype(np.float32)
    theta2 = np.random.uniform(-np.pi, np.pi, size=n).astype(np.float32)
    r = polar_distance(rho1, theta1, rho2, theta2)
    x1, y1 = rho1 * np.cos(theta1), rho1 * np.sin(theta1)
    x2, y2 = rho2 * np.cos(theta2), rho2 * np.sin(theta2)
    np.testing.assert_allclose(r, np.sqrt((x1 - x2) ** 2 + (y1 - y2) ** 2), rtol=1e-4, atol=1e-5)


def test_zero_suppress_int16(target):
    n = 100000
    noise = np.random.normal(size=n) * 3
    pulses = np.maximum(np.sin(np.arange(n) / (n / 23)) - 0.3, 0.0)
    waveform = ((pulses * 300) + noise).astype(np.int16)
    r = zero_suppress(waveform, 15)
    assert r.dtype == np.int16
    np.testing.assert_array_equal(r, np.where(waveform < 15, 0, waveform))


def test_make_pulses_and_add_on_device_with_out(target):
    n = 100000
    noise = (np.random.normal(size=n) * 3).astype(np.float32)
    t = np.arange(n, dtype=np.float32)
    period = n / 23
    d_t = cuda.to_device(t)
    d_noise = cuda.to_device(noise)
    out_device = cuda.device_array(shape=(n,), dtype=np.float32)
    pulses = make_pulses(d_t, period, 100.0, out=out_device)
    assert pulses is out_device
    waveform = add_f32(pulses, d_noise, out=out_device)
    assert isinstance(waveform, cuda.DeviceNDArray)
    host = out_device.copy_to_host()
    ref = (np.maximum(np.sin(t / np.float32(period)) - 0.3, 0.0) * 100.0).astype(np.float32) + noise
    np.testing.assert_allclose(host, ref, rtol=1e-4, atol=1e-3)


def test_device_inputs_give_device_result(target):
    n = 100000
    x = np.arange(n).astype(np.float32)
    y = 2 * x
    x_device = cuda.to_device(x)
    y_device = cuda.to_device(y)
    r = add_f32(x_device, y_device)
    assert isinstance(r, cuda.DeviceNDArray)
    np.testing.assert_array_equal(r.copy_to_host(), x + y)
    out_device = cuda.device_array(shape=(n,), dtype=np.float32)
    add_f32(x_device, y_device, out=out_device)
    np.testing.assert_array_equal(out_device.copy_to_host()[:10], [0., 3., 6., 9., 12., 15., 18., 21., 24., 27.])


def test_int32_add_with_device_arrays_and_out(target):
    @vectorize(['int32(int32, int32)'], target='cuda')
    def add(x, y):
        return x + y

    n = 10
    x = np.arange(n).astype(np.int32)
    y = np.ones_like(x)
    d_x, d_y = cuda.to_device(x), cuda.to_device(y)
    np.testing.assert_array_equal(add(d_x, d_y).copy_to_host(), x + y)
    d_res = cuda.device_array(shape=(n,), dtype=np.int32)
    add(d_x, d_y, out=d_res)
    np.testing.assert_array_equal(d_res.copy_to_host(), x + y)


def test_cu_discriminant_two_signatures(target):
    n = 10000
    for dt in (np.float32, np.float64):
        a = np.random.uniform(0.1, 1, n).astype(dt)
        b = np.random.uniform(2, 3, n).astype(dt)
        c = np.random.uniform(0.1, 1, n).astype(dt)
        r = cu_discriminant(a, b, c)
        assert r.dtype == dt
        np.testing.assert_allclose(r, np.sqrt(b ** 2 - 4 * a * c), rtol=1e-5 if dt == np.float32 else 1e-12)


def test_exact_array_types_are_required(target):
    with pytest.raises(TypeError, match="No matching version"):
        add_f32(np.arange(4, dtype=np.float64), np.arange(4, dtype=np.float64))


def test_type_object_signatures(target):
    @vectorize([float32(float32), float64(float64)], target='cuda')
    def doubled(x):
        return x * 2

    a = np.random.randn(3, 3).astype(np.float32)
    np.testing.assert_array_equal(doubled(a), a * 2)
    assert doubled(a.astype(np.float64)).dtype == np.float64


def test_broadcast_views_and_fortran_order(target):
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    b = np.asfortranarray(np.arange(24, dtype=np.float32).reshape(4, 6))
    np.testing.assert_array_equal(add_f32(a, b), a + b)
    np.testing.assert_array_equal(add_f32(a.T, b.T), a.T + b.T)
    np.testing.assert_array_equal(add_f32(a[:, ::2], np.float32(1)), a[:, ::2] + 1)
    col = np.arange(4, dtype=np.float32).reshape(4, 1)
    np.testing.assert_array_equal(add_f32(a, col), a + col)
    with pytest.raises(ValueError, match="broadcast"):
        add_f32(a, np.ones(5, dtype=np.float32))


def test_host_out(target):
    a = np.arange(10, dtype=np.float32)
    out = np.zeros(10, dtype=np.float32)
    r = add_f32(a, a, out=out)
    assert r is out
    np.testing.assert_array_equal(out, a * 2)


def make_scaler(factor, offset):
    @vectorize(['float64(float64)'], target='cuda')
    def scale(x):
        return x * factor + offset  # closure variables are snapshotted as constants
    return scale


def test_closure_variables_are_constants(target):
    s = make_scaler(3, np.float32(0.5))
    np.testing.assert_array_equal(s(np.arange(4.0)), np.arange(4.0) * 3 + 0.5)
    t = make_scaler(2.0, 1)
    np.testing.assert_array_equal(t(np.arange(4.0)), np.arange(4.0) * 2.0 + 1)
