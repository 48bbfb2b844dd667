"""raise, assert and try/except (issue 19), pinned against Numba 0.68 and numba-cuda 0.30.

@jit: the exception reaches the caller with its class (builtin or the user's, whose __init__
runs) and its arguments, run-time values included; what ran before the raise stays done;
callees' exceptions propagate; try/except catches as Numba's nopython mode does (a bare except
or `except Exception`). Kernels: numba-cuda's semantics. The simulator raises always (as
numba-cuda's simulator); the GPU with debug=True, naming the function, file, line and thread;
without debug the thread that raised returns and nothing is reported."""
import numpy as np
import pytest

from cujit import cuda, njit


class MyError(Exception):
    pass


class ErrorWithInit(ValueError):
    def __init__(self, a, b=3):
        super().__init__(a, b)


class NotAnException:
    pass


# ---- @jit: raise ---------------------------------------------------------------------------------

@njit
def raise_class(x):
    if x > 0:
        raise ValueError
    return x


@njit
def raise_message(x):
    if x > 0:
        raise ValueError("bad value")
    return x


@njit
def raise_runtime_args(x):
    if x > 0:
        raise ValueError("bad", 1, x)
    return x


@njit
def raise_user(x):
    if x > 0:
        raise MyError("m", x)
    return x


@njit
def raise_user_init(x):
    if x > 0:
        raise ErrorWithInit("q")
    return x


@njit
def raise_values(x):
    raise ValueError(x * 2.5, True, 2j, None, np.float32(x), np.uint64(7))


@njit
def raise_empty_call(x):
    raise ZeroDivisionError()


@pytest.mark.parametrize("fn, arg, cls, args", [
    (raise_class, 1, ValueError, ()),
    (raise_message, 1, ValueError, ("bad value",)),
    (raise_runtime_args, 7, ValueError, ("bad", 1, 7)),
    (raise_user, 3, MyError, ("m", 3)),
    (raise_user_init, 1, ErrorWithInit, ("q", 3)),
    (raise_values, 2, ValueError, (5.0, True, 2j, None, 2.0, 7)),
    (raise_empty_call, 1, ZeroDivisionError, ()),
])
def test_raise(fn, arg, cls, args):
    with pytest.raises(cls) as e:
        fn(arg)
    assert type(e.value) is cls
    assert e.value.args == args
    assert [type(a) for a in e.value.args] == [type(a) for a in args]


def test_no_raise_returns():
    assert raise_message(-1) == -1
    assert raise_user(0) == 0


@njit
def assert_plain(x):
    assert x > 0
    return x


@njit
def assert_message(x):
    assert x > 0, "x must be positive"
    return x


@njit
def assert_value(x):
    assert x > 0, x
    return x


def test_assert():
    assert assert_plain(2) == 2
    with pytest.raises(AssertionError) as e:
        assert_plain(-1)
    assert e.value.args == ()
    with pytest.raises(AssertionError) as e:
        assert_message(-1)
    assert e.value.args == ("x must be positive",)
    with pytest.raises(AssertionError) as e:
        assert_value(-2)
    assert e.value.args == (-2,)


@njit
def callee(x):
    if x:
        raise IndexError("from callee")
    return 1


@njit
def caller(x):
    return callee(x) + 1


@njit
def write_then_raise(a):
    a[0] = 5
    raise ValueError("after write")


def test_propagation_and_side_effects():
    assert caller(0) == 2
    with pytest.raises(IndexError, match="from callee"):
        caller(1)
    a = np.zeros(3)
    with pytest.raises(ValueError, match="after write"):
        write_then_raise(a)
    assert a.tolist() == [5.0, 0.0, 0.0]


# ---- @jit: try/except ----------------------------------------------------------------------------

@njit
def bare_except(x):
    try:
        callee(x)
        r = 1
    except:  # noqa: E722
        r = 2
    return r


@njit
def except_exception(x):
    try:
        callee(x)
        r = 1
    except Exception:
        r = 2
    return r


@njit
def except_else(x):
    try:
        callee(x)
        r = 1
    except Exception:
        r = 2
    else:
        r = 4
    return r


@njit
def zero_division_caught(x):
    try:
        r = 10 // x
    except:  # noqa: E722
        r = -1
    return r


@njit
def caught_in_loop(x):
    for i in range(3):
        try:
            if i == x:
                raise MyError
        except Exception:
            return i
    return -1


@njit
def nested_try(x):
    try:
        try:
            callee(x)
        except Exception:
            raise ValueError("in")
    except Exception:
        return 5
    return 1


@njit
def raise_base_exception(x):
    try:
        raise KeyboardInterrupt
    except Exception:
        return 1
    return 2


@njit
def state_kept_in_handler(a):
    n = 0
    try:
        for i in range(a.size):
            n += 1
            if a[i] < 0:
                raise ValueError
    except Exception:
        return -n
    return n


def test_try_except():
    assert bare_except(0) == 1 and bare_except(1) == 2
    assert except_exception(0) == 1 and except_exception(1) == 2
    assert except_else(0) == 4 and except_else(1) == 2
    assert zero_division_caught(2) == 5 and zero_division_caught(0) == -1
    assert caught_in_loop(1) == 1 and caught_in_loop(5) == -1
    assert nested_try(1) == 5 and nested_try(0) == 1
    assert state_kept_in_handler(np.array([1.0, 2.0, -1.0, 3.0])) == -3
    assert state_kept_in_handler(np.array([1.0, 2.0])) == 2
    with pytest.raises(KeyboardInterrupt):  # `except Exception` lets BaseException pass
        raise_base_exception(0)


# ---- kernels -------------------------------------------------------------------------------------

def test_kernel_raise_debug(target):
    @cuda.jit("void(int32)", debug=True, opt=False)
    def test_exc(x):
        if x == 1:
            raise MyError
        elif x == 2:
            raise MyError("foo", 3)

    test_exc[1, 1](0)
    with pytest.raises(MyError) as e:
        test_exc[1, 1](1)
    msg = str(e.value)
    assert "tid=[0, 0, 0] ctaid=[0, 0, 0]" in msg
    assert msg.startswith("In function 'test_exc', file ") and __file__ in msg
    with pytest.raises(MyError) as e:
        test_exc[1, 1](2)
    assert str(e.value.args[0]).endswith("tid=[0, 0, 0] ctaid=[0, 0, 0]: foo")
    assert e.value.args[1] == 3


def test_kernel_raise_names_the_thread(target):
    @cuda.jit(debug=True, opt=False)
    def k(a):
        i = cuda.grid(1)
        if i == 37:
            raise ValueError("stop")
        a[i] = i

    a = np.zeros(64)
    with pytest.raises(ValueError) as e:
        k[2, 32](a)
    # numba-cuda's order: z, y, x.
    assert "tid=[0, 0, 5] ctaid=[0, 0, 1]: stop" in str(e.value)


def test_kernel_assert_and_device_function(target):
    @cuda.jit(device=True)
    def check(v):
        if v < 0:
            raise ValueError("negative")
        return v * 2

    @cuda.jit(debug=True, opt=False)
    def k(a, out):
        i = cuda.grid(1)
        assert a[i] != 7, "seven"
        out[i] = check(a[i])

    out = np.zeros(4)
    k[1, 4](np.arange(4.0), out)
    assert out.tolist() == [0.0, 2.0, 4.0, 6.0]
    with pytest.raises(ValueError, match="negative"):
        k[1, 4](np.array([1.0, -1.0, 2.0, 3.0]), out)
    with pytest.raises(AssertionError, match="seven"):
        k[1, 4](np.array([1.0, 7.0, 2.0, 3.0]), out)


def test_kernel_raise_without_debug(target):
    @cuda.jit
    def k(a):
        i = cuda.grid(1)
        if i == 1:
            raise ValueError("ignored on the GPU")
        a[i] = 1

    a = np.zeros(4)
    if target == "sim":  # numba-cuda's simulator raises whatever debug says
        with pytest.raises(ValueError, match="ignored on the GPU"):
            k[1, 4](a)
    else:  # the thread that raised returns; the others ran
        k[1, 4](a)
        assert a.tolist() == [1.0, 0.0, 1.0, 1.0]


MESSAGE = "a global message"


@njit
def raise_global_message(x):
    raise ValueError(MESSAGE, x)


def test_string_global_and_closure_arguments(target):
    with pytest.raises(ValueError) as e:
        raise_global_message(4)
    assert e.value.args == ("a global message", 4)
    msg = "Device Function Error"

    @cuda.jit(device=True)
    def f():
        raise ValueError(msg)

    @cuda.jit(debug=True, opt=False)
    def kernel():
        f()

    with pytest.raises(ValueError) as e:
        kernel[1, 1]()
    assert str(e.value).endswith("tid=[0, 0, 0] ctaid=[0, 0, 0]: Device Function Error")


def test_debug_division_by_zero(target):
    # numba-cuda: with debug=True the GPU uses the Python error model (ZeroDivisionError) and
    # its simulator NumPy's np.seterr(divide='raise') (FloatingPointError); the thread stops
    # there. Without debug, inf and execution goes on (test_no_zero_division_error).
    @cuda.jit(debug=True, opt=False)
    def f(r, x, y):
        r[0] = y[0] / x[0]
        r[1] = y[0]

    r = np.zeros(2)
    with pytest.raises(FloatingPointError if target == "sim" else ZeroDivisionError) as e:
        f[1, 1](r, np.zeros(1), np.ones(1))
    assert "tid=[0, 0, 0] ctaid=[0, 0, 0]: " in str(e.value)
    assert r.tolist() == [0.0, 0.0]

    @cuda.jit(debug=True, opt=False)
    def g(r, x, y):
        r[0] = y[0] // x[0]
        r[1] = x[0] / x[0]  # 0 / 0: nan on the simulator (NumPy's 'invalid', not 'divide')

    with pytest.raises(FloatingPointError if target == "sim" else ZeroDivisionError):
        g[1, 1](r, np.zeros(1, np.int64), np.ones(1, np.int64))
    if target == "sim":
        g[1, 1](r, np.zeros(1), np.zeros(1))
        assert np.isnan(r[1])

    @cuda.jit
    def h(r, x, y):
        r[0] = y[0] / x[0]
        r[1] = y[0]

    h[1, 1](r, np.zeros(1), np.ones(1))
    assert np.isinf(r[0]) and r[1] == 1.0


@njit
def handler_sees_last_value(x):
    y = 0
    try:
        y = 2
        callee(x)
        y = 3
    except Exception:
        y += 10
    return y


def test_handler_sees_the_value_assigned_before_the_raise():
    assert handler_sees_last_value(1) == 12  # Numba: 12
    assert handler_sees_last_value(0) == 3


def test_exception_in_prange_loop():
    from cujit import prange

    @njit(parallel=True)
    def pr(n):
        s = 0
        for i in prange(n):
            if i == 7:
                raise ValueError("at", i)
            s += i
        return s

    assert pr(5) == 10
    with pytest.raises(ValueError) as e:
        pr(10)
    assert e.value.args == ("at", 7)


def test_debug_tuple_index_out_of_range(target):
    # numba-cuda's test_exception::test_exception: a run-time index past a tuple's end raises
    # IndexError("tuple index out of range") in debug kernels (on the GPU: a raise site; the
    # simulator always); the threads with good indices write.
    def foo(ary, out):
        x = cuda.threadIdx.x
        out[x] = ary.shape[-x]

    safe = cuda.jit(debug=True, opt=False)(foo)
    out = np.zeros(3, np.int64)
    with pytest.raises(IndexError, match="tuple index out of range"):
        safe[1, 3](np.array([0, 1]), out)
    ok = np.zeros(2, np.int64)
    safe[1, 2](np.zeros((4, 5)), ok)
    assert ok.tolist() == [4, 5]
