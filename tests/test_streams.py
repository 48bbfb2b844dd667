"""Streams and events (src/runtime/stream.h, src/bindings/streams.cpp): creation, the default
streams, synchronize/query/auto_synchronize, copies and launches on a stream, events (record,
synchronize, wait, query, elapsed_time), and streams of one backend passed to the other.

On the simulator every operation is complete when it returns, so asynchrony itself cannot be shown
there: those tests check that streams are accepted everywhere a stream is, order nothing wrongly,
and that events measure real host time. On the GPU the same tests check ordering for real (each
result is read only after the stream or event it depends on is synchronised)."""
import gc
import time

import numpy as np
import pytest

from cujit import _core, cuda
from cujit.errors import CudaAPIError


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] += 1


def test_stream_object(target):
    s = cuda.stream()
    assert isinstance(s, cuda.Stream)
    assert isinstance(s.handle, int) and int(s) == s.handle
    assert s.__cuda_stream__() == (0, s.handle)
    if target == "gpu":
        assert s.handle not in (0, 1, 2)
        assert repr(s) == "<CUDA stream %d>" % s.handle
        assert cuda.stream().handle != s.handle
    else:
        # Simulator streams all have handle 0, so a GPU operation given one uses the default stream.
        assert s.handle == 0
        assert repr(s) == "<CUDA stream 0 on the simulator>"
    assert s.synchronize() is None
    assert s.query() is True  # nothing queued


def test_default_streams(target):
    suffix = "" if target == "gpu" else " on the simulator"
    d, l, p = cuda.default_stream(), cuda.legacy_default_stream(), cuda.per_thread_default_stream()
    assert repr(d) == "<Default CUDA stream%s>" % suffix
    assert repr(l) == "<Legacy default CUDA stream%s>" % suffix
    assert repr(p) == "<Per-thread default CUDA stream%s>" % suffix
    # Numba's handles: 0, CU_STREAM_LEGACY (1), CU_STREAM_PER_THREAD (2).
    assert (d.handle, l.handle, p.handle) == ((0, 1, 2) if target == "gpu" else (0, 0, 0))
    for s in (d, l, p):
        s.synchronize()
        assert s.query()
        x = np.arange(10.0)
        assert np.array_equal(cuda.to_device(x, stream=s).copy_to_host(stream=s), x)


def test_auto_synchronize(target):
    s = cuda.stream()
    x = np.arange(1000, dtype=np.int32)
    out = np.zeros_like(x)
    with s.auto_synchronize() as t:
        assert t is s
        d = cuda.to_device(x, stream=s)
        add_one[4, 256, s](d)
        d.copy_to_host(out, stream=s)
    assert s.query()
    assert np.array_equal(out, x + 1)
    # An exception leaves the block without a sync and is not swallowed.
    with pytest.raises(KeyError):
        with s.auto_synchronize():
            raise KeyError("x")


def test_copies_and_launches_on_a_stream(target):
    s = cuda.stream()
    x = np.arange(3000, dtype=np.float32)
    d = cuda.device_array(x.shape, np.float32, stream=s)
    d.copy_to_device(x, stream=s)
    add_one[(x.size + 127) // 128, 128, s](d)
    add_one.configure((x.size + 127) // 128, 128, stream=s)(d)
    e = cuda.device_array_like(d, stream=s)
    e.copy_to_device(d, stream=s)
    got = e.copy_to_host(stream=s)
    s.synchronize()
    assert np.array_equal(got, x + 2)


def test_stream_argument_errors(target):
    with pytest.raises(TypeError, match="stream"):
        cuda.to_device(np.zeros(3), stream="fast")
    with pytest.raises(TypeError):
        cuda.event().record(stream=object())


def test_buffer_keeps_its_stream_alive(target):
    # The array's memory is freed on its stream (cuMemFreeAsync), so the stream must outlive
    # the Python stream object; freeing the array afterwards must work and later streams too.
    s = cuda.stream()
    d = cuda.to_device(np.arange(100.0), stream=s)
    del s
    gc.collect()
    assert np.array_equal(d.copy_to_host(), np.arange(100.0))
    del d
    gc.collect()
    s2 = cuda.stream()
    assert np.array_equal(cuda.to_device(np.ones(4), stream=s2).copy_to_host(stream=s2), np.ones(4))


def test_events_time_work(target):
    s = cuda.stream()
    start, end = cuda.event(), cuda.event(timing=True)
    assert isinstance(start, cuda.Event) and start.timing
    start.record(s)
    time.sleep(0.02)
    end.record(s)
    end.synchronize()
    assert end.query() and start.query()
    ms = start.elapsed_time(end)
    assert ms == cuda.event_elapsed_time(start, end)
    assert isinstance(ms, float)
    # Both backends time the 20 ms the host slept between the records: on the GPU the idle stream
    # reaches each record as it is made; on the simulator the records read the host's clock.
    assert 15.0 <= ms < 5000.0
    if target == "sim":
        assert end.elapsed_time(start) == -ms  # the clock readings, subtracted the other way


def test_event_default_stream_and_query(target):
    e = cuda.event()
    assert e.query()  # never recorded: nothing to wait for
    e.record()
    e.synchronize()
    assert e.query()
    assert isinstance(e.handle, int) and (e.handle != 0) == (target == "gpu")


def test_event_wait_orders_streams(target):
    # Work on s2 after ev.wait(s2) sees what s1 did before ev.record(s1).
    s1, s2 = cuda.stream(), cuda.stream()
    x = np.arange(1 << 16, dtype=np.int64)
    d = cuda.to_device(x, stream=s1)
    add_one[(x.size + 255) // 256, 256, s1](d)
    ev = cuda.event(timing=False)
    ev.record(s1)
    ev.wait(s2)
    out = cuda.pinned_array_like(x)
    d.copy_to_host(out, stream=s2)
    s2.synchronize()
    assert np.array_equal(out, x + 1)


def test_elapsed_time_errors(target):
    a, b = cuda.event(timing=False), cuda.event(timing=False)
    a.record()
    b.record()
    b.synchronize()
    with pytest.raises(CudaAPIError) as info:
        a.elapsed_time(b)
    assert info.value.name == "CUDA_ERROR_INVALID_HANDLE"
    never_a, never_b = cuda.event(), cuda.event()
    with pytest.raises(CudaAPIError):
        never_a.elapsed_time(never_b)
    with pytest.raises(TypeError):
        cuda.event_elapsed_time(a, "not an event")


@pytest.mark.gpu
def test_streams_across_backends():
    previous = _core.simulator_enabled()
    try:
        _core.set_simulator(True)
        sim_stream, sim_event = cuda.stream(), cuda.event()
        _core.set_simulator(False)
        gpu_stream, gpu_event = cuda.stream(), cuda.event()
        x = np.arange(50.0)
        # A simulator stream given to a GPU operation is the default stream: harmless.
        d = cuda.to_device(x, stream=sim_stream)
        add_one[1, 64, sim_stream](d)
        assert np.array_equal(d.copy_to_host(stream=sim_stream), x + 1)
        # The simulator ignores a GPU stream's handle: its work is done when the call returns.
        _core.set_simulator(True)
        d = cuda.to_device(x, stream=gpu_stream)
        add_one[1, 64, gpu_stream](d)
        assert np.array_equal(d.copy_to_host(stream=gpu_stream), x + 1)
        # Events of different backends cannot be compared.
        sim_event.record()
        gpu_event.record()
        with pytest.raises(ValueError, match="different backends"):
            cuda.event_elapsed_time(sim_event, gpu_event)
    finally:
        _core.set_simulator(previous)


@pytest.mark.gpu
def test_stream_and_event_query_after_queued_work():
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        s = cuda.stream()
        done = cuda.event(timing=False)
        d = cuda.to_device(np.zeros(1 << 22, np.int64), stream=s)
        for _ in range(50):
            add_one[(d.size + 255) // 256, 256, s](d)
        done.record(s)
        # Work may still be running here (query False); after the event's sync it is not.
        done.synchronize()
        assert done.query() and s.query()
        out = cuda.pinned_array(d.shape, np.int64)
        d.copy_to_host(out, stream=s)
        s.synchronize()
        assert (out == 50).all()
    finally:
        _core.set_simulator(previous)
