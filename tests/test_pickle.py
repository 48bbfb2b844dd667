"""Pickling of cujit's compiled objects by value (cujit/_pickle.py): kernels, device functions,
CUDA and CPU ufuncs and gufuncs, @jit dispatchers and cuda.reduce, in one process and across
processes, in both directions, with the standard pickle (and cloudpickle where installed)."""
import os
import pickle
import subprocess
import sys
from collections import namedtuple

import numpy as np
import pytest

import cujit
from cujit import cuda, guvectorize, njit, vectorize
from cujit import _pickle

SCALE = 3.0
_Point = namedtuple("_Point", "x y")


@cuda.jit(device=True)
def triple(x):
    return x * SCALE


@cuda.jit
def triple_all(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = triple(a[i])


@njit
def affine(x):
    return x * SCALE + 1


@njit
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)  # names itself: pickled as a reference to itself


@njit
def is_even(n):  # mutual recursion: each pickles with the other, as one group
    return True if n == 0 else is_odd(n - 1)


@njit
def is_odd(n):
    return False if n == 0 else is_even(n - 1)


@vectorize(["float64(float64)"], target="cuda")
def cuda_triple(x):
    return x * SCALE


@vectorize(["float64(float64)", "int64(int64)"])
def cpu_triple(x):
    return x * SCALE


@vectorize
def lazy_triple(x):
    return x * SCALE


@guvectorize(["void(float64[:], float64[:])"], "(n)->()")
def cpu_sum(a, out):
    s = 0.0
    for v in a:
        s += v
    out[0] = s * SCALE


@guvectorize("(n)->()")
def lazy_sum(a, out):
    s = 0.0
    for v in a:
        s += v
    out[0] = s


@guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="cuda")
def cuda_sum(a, out):
    s = 0.0
    for v in a:
        s += v
    out[0] = s * SCALE


add_reduce = cuda.reduce(lambda a, b: a + b)
max_reduce = cuda.reduce(cuda.jit(device=True)(lambda a, b: max(a, b)))

A = np.arange(6.0)
A2 = np.arange(12.0).reshape(3, 4)


def use(name, o):
    """What each object computes (the same code runs in the child processes)."""
    if name == "triple":
        return o.py_func(2.0)
    if name == "triple_all":
        x = A.copy()
        o[1, 8](x)
        return x
    if name == "affine":
        return o(2.0)
    if name == "fact":
        return o(6)
    if name in ("is_even", "is_odd"):
        return [o(7), o(10)]
    if name in ("cuda_triple", "cpu_triple", "lazy_triple"):
        return o(A)
    if name in ("cpu_sum", "cuda_sum"):
        return o(A2)
    if name == "lazy_sum":
        out = np.zeros(3)
        o(A2, out)
        return out
    return o(A)  # the reductions


NAMES = ["triple", "triple_all", "affine", "fact", "is_even", "is_odd", "cuda_triple", "cpu_triple", "lazy_triple",
         "cpu_sum", "lazy_sum", "cuda_sum", "add_reduce", "max_reduce"]
EXPECTED = {"triple": 6.0, "triple_all": A * 3, "affine": 7.0, "fact": 720,
            "is_even": [False, True], "is_odd": [True, False],
            "cuda_triple": A * 3, "cpu_triple": A * 3, "lazy_triple": A * 3,
            "cpu_sum": A2.sum(1) * 3, "lazy_sum": A2.sum(1), "cuda_sum": A2.sum(1) * 3,
            "add_reduce": 15.0, "max_reduce": 5.0}


def _child_env(target):
    paths = [os.path.dirname(os.path.dirname(cujit.__file__)), os.path.dirname(__file__)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        paths + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    env.pop("CUJIT_ENABLE_CUDASIM", None)
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    if target == "sim":
        env["CUJIT_ENABLE_CUDASIM"] = "1"
    return env


def _run_child(code, data, target):
    r = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True,
                       env=_child_env(target), timeout=600)
    assert r.returncode == 0, r.stderr.decode()[-3000:]
    return r.stdout


@pytest.mark.parametrize("name", NAMES)
def test_round_trip_in_one_process_gives_the_same_object(target, name):
    o = globals()[name]
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):  # as Numba's tests, every protocol
        got = pickle.loads(pickle.dumps(o, protocol))
        assert got is o  # as Numba's dispatchers: compiled code and state kept
    np.testing.assert_allclose(use(name, got), EXPECTED[name])


def test_every_object_rebuilds_in_another_process(target):
    """Pickled here, loaded and run by a child that never imports this module (everything the
    functions name travels by value); the child finds the compiled code in the disk cache."""
    for name in NAMES:  # compiled here first, so that the child's compiles are cache hits
        np.testing.assert_allclose(use(name, globals()[name]), EXPECTED[name])
    data = pickle.dumps({name: pickle.dumps(globals()[name]) for name in NAMES})
    code = ("import pickle, sys\n"
            "import numpy as np\n"
            "objs = {k: pickle.loads(v) for k, v in pickle.loads(sys.stdin.buffer.read()).items()}\n"
            "assert 'test_pickle' not in sys.modules\n"
            "from test_pickle import use\n"  # the driver only, imported after the loads
            "out = {k: (type(o).__name__, use(k, o)) for k, o in objs.items()}\n"
            "again = {k: pickle.loads(pickle.dumps(o)) is o for k, o in objs.items()}\n"
            "assert objs['is_even'].py_func.__globals__['is_odd'] is objs['is_odd']\n"
            "sys.stdout.buffer.write(pickle.dumps((out, again)))\n")
    out, again = pickle.loads(_run_child(code, data, target))
    for name in NAMES:
        kind, value = out[name]
        assert kind == type(globals()[name]).__name__, name
        np.testing.assert_allclose(value, EXPECTED[name], err_msg=name)
        assert again[name], name


_DEFINED_IN_MAIN = '''
import pickle, sys
import numpy as np
from cujit import cuda, njit, vectorize
OFFSET = 5

def make(k):
    @cuda.jit(device=True)
    def shift(x):
        return x + k + OFFSET

    @cuda.jit
    def shift_all(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = shift(a[i])
    return shift_all

@njit
def twice(x):
    return 2 * x + OFFSET

@vectorize(["float64(float64)"], target="cuda")
def halve(x):
    return x / 2

@vectorize(["int64(int64)"])
def cube(x):
    return x * x * x

objs = [make(100), twice, halve, cuda.reduce(lambda a, b: a * b), cube]
sys.stdout.buffer.write(pickle.dumps([pickle.dumps(o) for o in objs]))
'''


def test_objects_of_main_and_closures_come_back_from_another_process(target):
    """The other direction: a `python -c` program (no file) defines a kernel in a closure, a
    @jit function, a CUDA ufunc and a reduction with a lambda; this process runs them."""
    kernel, jitted, ufunc, reduction, cpu_ufunc = [pickle.loads(p) for p in pickle.loads(
        _run_child(_DEFINED_IN_MAIN, b"", target))]
    a = np.arange(4.0)
    kernel[1, 4](a)
    np.testing.assert_array_equal(a, np.arange(4.0) + 105)
    assert jitted(3) == 11
    np.testing.assert_array_equal(ufunc(np.arange(4.0)), np.arange(4.0) / 2)
    assert reduction(np.arange(1.0, 5.0), init=1) == 24.0
    assert kernel.__name__ == "shift_all" and jitted.py_func(3) == 11
    assert isinstance(cpu_ufunc, np.ufunc)  # NumPy would pickle it as __main__.cube
    np.testing.assert_array_equal(cpu_ufunc(np.arange(4)), np.arange(4) ** 3)


def test_other_ufuncs_still_pickle_as_numpy_does():
    # cujit registers a copyreg reducer for numpy.ufunc; NumPy's own ufuncs go to NumPy's.
    assert pickle.loads(pickle.dumps(np.add)) is np.add
    assert pickle.loads(pickle.dumps(np.sqrt)) is np.sqrt


def test_type_objects_pickle():
    """A kernel's globals may hold cujit's type objects; they travel with it."""
    from cujit import types
    P = _Point
    for t in (types.float32, types.float64[:, ::1], types.UniTuple(types.int64, 3),
              types.Tuple((types.int64, types.float32)), types.NamedTuple((types.int64, types.float32), P),
              types.NamedUniTuple(types.int64, 2, P), types.void):
        assert pickle.loads(pickle.dumps(t)) == t, t


def test_the_globals_travel_as_they_were_when_pickled(target):
    """The function's globals are captured by value when it is pickled (a snapshot, as Numba's
    serialisation does): a later change here is not seen by the copy in another process."""
    global SCALE
    data = pickle.dumps(affine)
    old = SCALE
    SCALE = 10.0
    try:
        code = "import pickle, sys\nprint(pickle.loads(sys.stdin.buffer.read())(2.0))\n"
        assert _run_child(code, data, target).split()[-1] == b"7.0"
    finally:
        SCALE = old


def test_a_local_function_pickles_with_the_standard_pickle(target):
    """As numba-cuda's own test_serialize (kernels and device functions in a test method)."""
    @cuda.jit(device=True)
    def inner(a):
        return a + 1

    @cuda.jit("void(intp[:])")
    def foo(arr):
        arr[0] = inner(arr[0])

    arr = np.array([100])
    foo1 = pickle.loads(pickle.dumps(foo))
    foo1[1, 1](arr)
    assert arr[0] == 101
    state = pickle.dumps(foo)
    del foo, foo1
    foo2 = pickle.loads(state)  # gone here: rebuilt from the state
    foo2[1, 1](arr)
    assert arr[0] == 102
    assert pickle.loads(pickle.dumps(foo2)) is foo2


def test_another_python_version_is_refused_clearly():
    (uid, kind, fstate, options), = affine.__reduce__()[1][0]
    fstate = dict(fstate, python="2.7")
    with pytest.raises(pickle.UnpicklingError, match=r"affine\(\) was pickled by Python 2.7"):
        _pickle._rebuild([("not-a-live-id", kind, fstate, options)])


def test_device_arrays_cross_processes_through_the_host(target):
    d = cuda.to_device(np.arange(6, dtype=np.int32).reshape(2, 3))
    code = ("import pickle, sys\nfrom cujit import cuda\nd = pickle.loads(sys.stdin.buffer.read())\n"
            "assert isinstance(d, cuda.DeviceNDArray)\n"
            "sys.stdout.buffer.write(pickle.dumps(d.copy_to_host()))\n")
    got = pickle.loads(_run_child(code, pickle.dumps(d), target))
    np.testing.assert_array_equal(got, np.arange(6, dtype=np.int32).reshape(2, 3))


def test_cloudpickle_round_trip(target):
    cloudpickle = pytest.importorskip("cloudpickle")
    k = 7

    def helper(x):  # a plain Python function of this test: cloudpickle takes it by value
        return x + k

    @njit
    def local(x):
        return x * SCALE + k

    for name in NAMES:
        np.testing.assert_allclose(use(name, cloudpickle.loads(cloudpickle.dumps(globals()[name]))),
                                   EXPECTED[name])
    data = cloudpickle.dumps((local, helper))
    code = "import pickle, sys\nf, h = pickle.loads(sys.stdin.buffer.read())\nprint(f(1.0), h(1))\n"
    assert _run_child(code, data, target).split() == [b"10.0", b"8"]


_FILL_CACHE = '''
import pickle, sys
import numpy as np
from cujit import cuda, njit

@njit
def hypot(x, y):
    return (x * x + y * y) ** 0.5

@cuda.jit
def double(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2

assert hypot(3.0, 4.0) == 5.0
d = cuda.to_device(np.arange(4.0))
double[1, 4](d)
sys.stdout.buffer.write(pickle.dumps((hypot, double)))
'''

_USE_CACHE = '''
import pickle, sys
import numpy as np
hypot, double = pickle.loads(sys.stdin.buffer.read())
assert hypot(3.0, 4.0) == 5.0
d = np.arange(4.0)
double[1, 4](d)
assert (d == np.arange(4.0) * 2).all()
with open("/proc/self/maps") as f:
    print("nvrtc loaded:", "libnvrtc" in f.read())
'''


def test_the_reader_finds_the_compiled_code_in_the_disk_cache(tmp_path):
    """A process that loads pickled functions compiles nothing that the writer compiled: every
    build is a disk cache hit (NVRTC, which CUJIT_CHECK_PTX runs for each program, is never
    loaded), and the cache gains no entry."""
    cache = tmp_path / "cache"
    # CUJIT_HOST_PCH=wait: no precompiled prelude still being built in the background when the
    # listing is taken.
    env = dict(_child_env("sim"), CUJIT_CACHE_DIR=str(cache), CUJIT_CHECK_PTX="1", CUJIT_HOST_PCH="wait")
    env.pop("CUJIT_DISABLE_CACHE", None)
    run = lambda code, data: subprocess.run([sys.executable, "-c", code], input=data,  # noqa: E731
                                            capture_output=True, env=env, timeout=600)
    r = run(_FILL_CACHE, b"")
    assert r.returncode == 0, r.stderr.decode()[-3000:]
    filled = sorted(p.name for p in cache.rglob("*") if p.is_file())
    assert any(n.endswith(".so") for n in filled)
    r2 = run(_USE_CACHE, r.stdout)
    assert r2.returncode == 0, r2.stderr.decode()[-3000:]
    assert b"nvrtc loaded: False" in r2.stdout
    assert sorted(p.name for p in cache.rglob("*") if p.is_file()) == filled


def test_import_cujit_never_imports_dask():
    # Meaningful where they are installed (make test installs them): here, not in test_dask.py,
    # which is skipped as a whole without Dask.
    code = ("import sys, cujit, cujit.cuda\n"
            "cujit.vectorize(['float64(float64)'])(lambda x: x)\n"
            "bad = [m for m in ('dask', 'distributed', 'cloudpickle', 'dask_cuda', 'cupy') if m in sys.modules]\n"
            "assert not bad, bad\n")
    _run_child(code, b"", "sim")


def test_a_configured_launch_pickles(target):
    """kernel[grid, block] pickles as the kernel and its configuration (numba-cuda's
    test_serialize pickles `foo[5, 8]` and reads griddim and blockdim back)."""
    launch = triple_all[(2, 1), 4]
    assert launch.griddim == (2, 1, 1) and launch.blockdim == (4, 1, 1)
    got = pickle.loads(pickle.dumps(launch))
    assert got.griddim == (2, 1, 1) and got.blockdim == (4, 1, 1)
    x = A.copy()
    got(x)
    np.testing.assert_allclose(x, A * 3)
    code = ("import pickle, sys\nimport numpy as np\nlaunch = pickle.loads(sys.stdin.buffer.read())\n"
            "x = np.arange(6.0)\nlaunch(x)\nprint(launch.griddim, launch.blockdim, x.tolist())\n")
    out = _run_child(code, pickle.dumps(triple_all[3, 2]), target).decode()
    assert out.split("\n")[-2] == "(3, 1, 1) (2, 1, 1) [0.0, 3.0, 6.0, 9.0, 12.0, 15.0]"
