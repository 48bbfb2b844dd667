"""Hand-written @njit programs over Python's semantics (unification, loops, tuples, containers,
strings, NumPy scalars); `python semantics.py numba|cujit` prints each result (run.sh compares)."""
import sys, math
import numpy as np
if sys.argv[1] == 'numba':
    from numba import njit
else:
    from cujit import njit
P = []
def case(*args):
    def deco(fn):
        P.append((fn.__name__, njit(fn), args)); return fn
    return deco

@case(5, 2.5)
def unify_branch(n, x):
    y = 0
    if n > 3:
        y = x
    return y
@case(7)
def loop_var_after(n):
    for i in range(n):
        pass
    return i
@case(10)
def range_neg(n):
    s = 0
    for i in range(n, -n, -3):
        s = s * 3 + i
    return s
@case(3, 0.0)
def or_value(a, b):
    return (b or a), (a and b), (0 or b), (a and 7)
@case((1, 2.5, 3), (1, 2.5, 4))
def tuple_cmp(a, b):
    return a < b, a == b, a >= b, max(a[0], a[1]), min(b)
@case(10)
def while_else(n):
    i = 0
    while i < n:
        i += 3
        if i == 7:
            break
    else:
        i = -i
    return i
@case(10)
def for_else(n):
    for i in range(n):
        if i == 20:
            break
    else:
        return -1
    return i
@case(-7, 2)
def intdiv(a, b):
    return a // b, a % b, -a // b, a / b, divmod(a, b), a // -b, a % -b
@case(-7.5, 2.0)
def floatdiv(a, b):
    return a // b, a % b, a // -b, a % -b, divmod(a, b), math.fmod(a, b) if False else 0.0
@case(np.int32(2**31 - 1), np.int32(1))
def i32_overflow(a, b):
    return a + b, a * b, -a - b - b
@case(np.uint8(250), np.uint8(10))
def u8_ops(a, b):
    return a + b, a - b, a * b, a // b, b - a, a ^ b, ~a, -a
@case(np.int8(-128))
def i8_neg(a):
    return -a, abs(a), a // np.int8(-1) if False else 0, a * a
@case(3, 4.0)
def mixed_pow(a, b):
    return a ** 2, a ** -1, b ** 0.5, (-b) ** 0.5 if False else 0.0, 2 ** a, a ** a
@case(1e308, 10.0)
def float_overflow(a, b):
    return a * b, -a * b, (a * b) - (a * b), math.isinf(a * b)
@case(0.1, 0.2)
def rounding(a, b):
    return round(a + b, 1), round(2.5), round(3.5), round(-2.5), round(a * 1000), round(1234.5678, -2)
@case(17)
def bits(n):
    return n.bit_length() if False else 0, n & -n, n | 8, n >> 1, n << 60, (n << 62) >> 62
@case(5)
def closures(n):
    k = 3
    def g(x):
        return x * k + n
    return g(2) + g(n)
@case(6)
def lambdas(n):
    f = lambda x, y=2: x * y
    return f(n), f(n, 3)
@case(3)
def nested_tuple(n):
    t = ((1, 2.5), (n, 4))
    a, (b, c) = t[0][0], t[1]
    return a + b + c, t[1][0] * t[0][1], len(t)
@case(np.arange(10.0))
def array_iter(a):
    s = 0.0
    for i, v in enumerate(a[::-2]):
        s += i * v
    return s
@case(np.arange(12).reshape(3, 4))
def array_2d(a):
    s = 0
    for row in a:
        for v in row[1:3]:
            s += v
    return s, a[-1, -1], a[1].sum(), a.T[2, 1], a.shape, a.size, a.ndim
@case(4)
def zip_enum(n):
    r = 0
    for i, (a, b) in enumerate(zip(range(n), range(10, 20))):
        r += i * a + b
    return r
@case(10)
def min_max_mixed(n):
    return min(n, 2.5), max(n, 2.5, 11), min(3, True), max(-1, False), min(1.5, 2)
@case(2.0, 0.0)
def nan_cmp(a, b):
    c = b / b if False else math.nan
    return c == c, c != c, c < a, max(a, c), min(c, a), math.isnan(c), bool(c)
@case(7, 3)
def chained(a, b):
    return 1 < a < 10, b < a < b, a == 7 == a, a > b > 0 > -1
@case(np.float32(0.1), 0.1)
def f32_mix(a, b):
    return a + b, a * 3, a == b, a + np.float32(0.2), float(a), a * a
@case(300)
def int_conv(n):
    return np.uint8(n), np.int8(n), int(2.9), int(-2.9), int(True), float(n) / 7, np.int16(-n * 200)
@case(5)
def bool_arith(n):
    t = n > 2
    return t + t, t * 3.5, -t, ~t, t / 2, t & False, t ^ True
@case(1.5)
def math_misc(x):
    return math.floor(x), math.ceil(-x), math.trunc(-x), math.copysign(3, -0.0), math.frexp(x), math.ldexp(x, 3), math.isfinite(x), math.gcd(12, 18)
@case(12, 18)
def aug(a, b):
    a += b; a -= 3; a *= 2; a //= 5; a %= 7; a **= 3; a <<= 2; a >>= 1; a |= 1; a &= 0xff; a ^= 0x0f
    return a
@case(np.arange(5), 2)
def arr_aug(x, k):
    y = x.copy()
    y += k; y *= 3; y //= 2; y -= 1
    return y.sum(), y[0], y[-1]
@case(9)
def recursion(n):
    return fib(n)
@njit
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
@case(3.7)
def ret_types(x):
    if x > 3:
        return 1
    return x
@case("hello", "l")
def strs(s, c):
    return s.find(c), s.count(c), s.upper(), s[1:-1], s * 2, c in s, len(s), s.replace("l", "L", 1), s.rfind(c)
@case([3, 1, 2])
def lists(l):
    m = list(l)
    m.append(0); m.sort(); m.insert(1, 9); m.reverse()
    return m[0], m[-1], len(m), sum(m), m.index(9), m.pop(), m.pop(0), sorted(l, reverse=True)[0]
@case(10)
def list_comp(n):
    a = [i * i for i in range(n) if i % 3]
    return len(a), a[-1], sum(a)
@case(4)
def dicts(n):
    d = {}
    for i in range(n):
        d[i] = i * 1.5
    d[2] = -1.0
    return len(d), d[2], d.get(7, 9.0), 3 in d, sum(d.values()), list(d.keys())[1]
@case(5)
def sets(n):
    s = set()
    for i in range(n):
        s.add(i % 3)
    return len(s), 2 in s, 5 in s
@case(3)
def exc(n):
    try:
        if n > 2:
            raise ValueError("big")
        return 1
    except ValueError:
        return 2
@case(np.array([3.0, np.nan, 1.0]))
def arr_nan(a):
    return a.max(), a.min(), np.nanmax(a), a.argmax(), np.sum(a), np.nansum(a), a.mean()
@case(np.array([3, -1, 2], dtype=np.int8))
def arr_small(a):
    return a.sum(), a.prod(), a.cumsum()[-1], a.max(), (a * a).sum(), a.mean(), np.abs(a).sum()
@case(np.arange(6, dtype=np.uint32))
def arr_uint(a):
    return (a - 3)[0], (a - 3.0)[0], (a * -1)[1], (a // 2).dtype == np.uint32, a.sum()
@case(5.5, 2)
def format_(x, n):
    return str(n), str(-n), str(True) if False else "x", len(str(12345))

for name, fn, args in P:
    try:
        v = fn(*args)
        print(name, repr(v), flush=True)
    except Exception as e:
        print(name, "EXC", type(e).__name__, str(e).split("\n")[0][:80], flush=True)
