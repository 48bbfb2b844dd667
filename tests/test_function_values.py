"""Functions and intrinsics as values (issue 17), as Numba has them: a device or @jit function
that takes a function is specialised per function passed (cuda.atomic.*, other device functions,
operator-module functions); a global or a variable may hold one; the operator module's functions
are the operators they name; a parameter that sizes a local/shared array takes a constant (Numba
retries such a call with literal arguments); arrays index by a tuple variable. The expectations
were computed by Numba 0.68 / numba-cuda 0.30 (its simulator for the kernels) on the same code."""
import operator

import numpy as np

from cujit import cuda, njit

ADD = cuda.atomic.add  # an intrinsic bound at module level
SUB = operator.sub


@cuda.jit(device=True)
def apply3(f, a, i, v):
    return f(a, i, v)


@cuda.jit
def atomics_as_values(a, old):
    old[0] = apply3(cuda.atomic.add, a, 0, 5)
    old[1] = apply3(cuda.atomic.max, a, 1, 7)
    old[2] = apply3(cuda.atomic.add, a, (1,), 5)  # a 1-tuple index on a 1-d array
    old[3] = apply3(ADD, a, 2, 3)
    old[4] = apply3(cuda.atomic.sub, a, 2, 1)
    old[5] = apply3(cuda.atomic.exch, a, 3, 9)
    old[6] = apply3(cuda.atomic.min, a, 3, 4)


def test_atomics_passed_to_a_device_function(target):
    a = np.zeros(4, np.int64)
    old = np.full(7, -1, np.int64)
    atomics_as_values[1, 1](a, old)
    np.testing.assert_array_equal(a, [5, 12, 2, 4])
    np.testing.assert_array_equal(old, [0, 0, 7, 0, 3, 0, 9])


@cuda.jit(device=True)
def apply_int(f, a, i, v):
    return f(a, i, v)


@cuda.jit
def int_atomics(a, old):
    old[0] = apply_int(cuda.atomic.and_, a, 0, np.uint32(6))
    old[1] = apply_int(cuda.atomic.or_, a, 1, np.uint32(6))
    old[2] = apply_int(cuda.atomic.xor, a, 2, np.uint32(6))
    old[3] = apply_int(cuda.atomic.inc, a, 3, np.uint32(10))
    old[4] = apply_int(cuda.atomic.dec, a, 4, np.uint32(10))


def test_integer_atomics_passed_to_a_device_function(target):
    a = np.array([12, 12, 12, 10, 0], np.uint32)
    old = np.zeros(5, np.uint32)
    int_atomics[1, 1](a, old)
    np.testing.assert_array_equal(a, [4, 14, 10, 0, 10])
    np.testing.assert_array_equal(old, [12, 12, 12, 10, 0])


@cuda.jit(device=True)
def sq(x):
    return x * x


@cuda.jit(device=True)
def cube(x):
    return x * x * x


@cuda.jit(device=True)
def apply1(f, x):
    return f(x)


@cuda.jit
def device_functions_as_values(out):
    out[0] = apply1(sq, 3)
    out[1] = apply1(cube, 3)  # its own specialisation of apply1
    f = sq
    out[2] = f(4)
    out[3] = apply1(operator.neg, 5)
    out[4] = SUB(10, 4)
    out[5] = operator.mul(4, 5)
    out[6] = operator.not_(0)


def test_device_functions_and_operators_as_values(target):
    out = np.zeros(7, np.int64)
    device_functions_as_values[1, 1](out)
    np.testing.assert_array_equal(out, [9, 27, 16, -5, 6, 20, 1])


@cuda.jit(device=True)
def cas_with(op, res, idx, old, val):
    return op(res, idx, old, val)


@cuda.jit
def cas_2d(res, old, ary, fill):
    gid = cuda.grid(2)
    if gid[0] < res.shape[0] and gid[1] < res.shape[1]:
        old[gid] = cas_with(cuda.atomic.cas, res, gid, fill, ary[gid])  # a tuple variable as index


def test_cas_with_a_tuple_index_on_a_2d_array(target):
    res = np.array([[1, 7, 1], [7, 2, 7]], np.int32)
    ary = np.arange(6, dtype=np.int32).reshape(2, 3) + 10
    old = np.zeros_like(res)
    cas_2d[(1, 1), (2, 3)](res, old, ary, 7)
    np.testing.assert_array_equal(res, [[1, 11, 1], [13, 2, 15]])
    np.testing.assert_array_equal(old, [[1, 7, 1], [7, 2, 7]])


@cuda.jit(device=True)
def block_histogram(ary, n, dtype, shape, op):
    # n and shape are constants at every call: the shared arrays take them as sizes
    tid = cuda.threadIdx.x
    sm = cuda.shared.array(n, dtype)
    sm2 = cuda.shared.array(shape, dtype)
    sm[tid] = 0
    sm2[tid % shape[0], tid // shape[0]] = 0
    cuda.syncthreads()
    op(sm, ary[tid] % n, 1)
    op(sm2, (ary[tid] % shape[0], 0), 1)
    cuda.syncthreads()
    ary[tid] = sm[tid]


@cuda.jit
def histogram(ary):
    block_histogram(ary, 16, np.uint32, (4, 4), cuda.atomic.add)


def test_constant_arguments_size_shared_arrays(target):
    ary = (np.arange(16, dtype=np.uint32) * 5) % 7
    expect = np.bincount(ary % 16, minlength=16).astype(np.uint32)
    histogram[1, 16](ary)
    np.testing.assert_array_equal(ary, expect)


# ---- @jit ----------------------------------------------------------------------------------------


@njit
def jsq(x):
    return x * x


@njit
def jneg(x):
    return -x


@njit
def japply(f, x):
    return f(x)


@njit
def jit_functions_as_values(x):
    return japply(jsq, x), japply(jneg, x), japply(jsq, 2.5)


def test_jit_functions_as_values():
    assert jit_functions_as_values(3) == (9, -3, 6.25)


@njit
def jit_operators(a, b):
    return (SUB(a, b), operator.truediv(a, b), operator.floordiv(a, b), operator.mod(a, b),
            operator.pow(a, 2), operator.lshift(a, 2), operator.lt(a, b), operator.invert(a),
            operator.pos(b), operator.ixor(a, b))


def test_jit_operator_module():
    r = jit_operators(7, -2)
    assert r == (9, -3.5, -4, -1, 49, 28, False, -8, -2, -7)
    assert type(r[1]) is float and type(r[2]) is int


@njit
def jit_items(a):
    operator.setitem(a, 1, 5.0)
    return operator.getitem(a, 1)


def test_jit_getitem_setitem():
    a = np.zeros(3)
    assert jit_items(a) == 5.0
    np.testing.assert_array_equal(a, [0, 5, 0])


@njit
def jit_tuple_index(a):
    t = (1, 2)
    a[t] = 7
    u = (0, np.int32(1))
    a[u] = 2
    return a[t] + a[u]


def test_jit_array_indexed_by_a_tuple_variable():
    a = np.zeros((3, 4))
    assert jit_tuple_index(a) == 9.0
    assert a[1, 2] == 7 and a[0, 1] == 2


@cuda.jit(device=True)
def wrapped_add(ary, op2, op, wrap):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    idx = (tx, np.uint64(ty))
    if wrap:  # uint64 % int64 is float64: typed only where wrap may be true
        idx = (idx[0] % ary.shape[0], idx[1] % ary.shape[1])
    op(ary, idx, op2)


@cuda.jit
def pruned(ary):
    wrapped_add(ary, 1, cuda.atomic.add, False)


def test_constant_false_argument_prunes_a_branch_that_fails_to_type(target):
    # Numba's plain typing fails (a float64 index); it retries with False as a literal and
    # prunes the branch.
    ary = np.zeros((4, 8), np.uint32)
    pruned[1, (4, 8)](ary)
    np.testing.assert_array_equal(ary, np.ones((4, 8), np.uint32))


@njit
def keep_branch(x, flag):
    y = 1
    if flag:
        y = 2.5
    return x + y


@njit
def typed_with_both_branches(x):
    return keep_branch(x, False)


def test_constant_argument_does_not_prune_where_plain_types_work():
    # Numba types y as float64 (both branches) since that typing succeeds: no literal retry.
    r = typed_with_both_branches(1)
    assert r == 2.0 and type(r) is float


@cuda.jit(device=True)
def counted_pair(calls):
    cuda.atomic.add(calls, 0, 1)
    return (calls[0], 2)


@cuda.jit
def tuple_once(calls, out):
    t = counted_pair(calls) + (5,)  # concatenation
    out[0] = t[2]
    out[1] = min(counted_pair(calls))
    out[2] = len(counted_pair(calls))
    cuda.atomic.add(out, (counted_pair(calls)[1] - 2,), 10)  # a call in an atomic's index


def test_a_tuple_valued_call_runs_once(target):
    # Each use of a call's tuple evaluates the call once, as Python does.
    calls = np.zeros(1, np.int64)
    out = np.zeros(3, np.int64)
    tuple_once[1, 1](calls, out)
    assert calls[0] == 4
    np.testing.assert_array_equal(out, [15, 2, 2])
