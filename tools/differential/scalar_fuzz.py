"""Random scalar expressions in @njit functions, for a differential run against real Numba
(run.sh). `scalar_fuzz.py gen SEED N K > prog.py` writes N*K functions of 13 arguments (NumPy
and Python scalars of every kind); `python prog.py numba|cujit` prints each function's result
with its Python type, or the exception's class. Shift counts are literals 0..9 and integer casts
take integer arguments, so that C's undefined cases (where Numba's results are LLVM's) stay out."""
import random, sys

ARGS = [("a", "np.int8(-7)"), ("b", "np.uint16(65000)"), ("c", "np.int64(-123456789012)"),
        ("d", "np.uint64(18446744073709551000)"), ("e", "np.float32(3.75)"), ("f", "np.float64(-0.3)"),
        ("g", "True"), ("h", "np.int32(2147483000)"), ("i", "np.uint8(200)"), ("j", "5"), ("k", "2.5"),
        ("m", "np.float32(-1e30)"), ("n", "np.int16(-32768)")]
BIN = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<", "<=", "==", "!=", ">", ">="]
UN = ["-", "+", "~", "not "]
FN = ["abs", "int", "float", "bool", "min", "max", "round", "math.floor", "math.ceil", "math.trunc",
      "math.sqrt", "math.exp", "math.log1p", "math.fabs", "math.copysign", "math.fmod", "math.hypot",
      "math.atan2", "np.float32", "np.int8", "np.uint8", "np.int16", "np.uint32", "np.int64",
      "np.uint64", "np.float64", "math.isnan", "math.isinf", "divmod", "pow", "math.pow"]
TWO = {"min", "max", "math.copysign", "math.fmod", "math.hypot", "math.atan2", "divmod", "pow", "math.pow"}

def expr(r, depth):
    if depth <= 0 or r.random() < 0.3:
        x = r.random()
        if x < 0.75:
            return r.choice(ARGS)[0]
        return r.choice(["1", "0", "-1", "3", "0.5", "255", "2**40", "-2.0", "7", "1e300"])
    x = r.random()
    if x < 0.55:
        op = r.choice(BIN)
        if op in ("<<", ">>"):
            return "(%s %s %d)" % (expr(r, depth - 1), op, r.randint(0, 9))
        return "(%s %s %s)" % (expr(r, depth - 1), op, expr(r, depth - 1))
    if x < 0.7:
        return "(%s%s)" % (r.choice(UN), expr(r, depth - 1))
    if x < 0.8:
        return "(%s if %s else %s)" % (expr(r, depth - 1), expr(r, depth - 1), expr(r, depth - 1))
    fn = r.choice(FN)
    if fn.startswith("np.int") or fn.startswith("np.uint") or fn in ("int", "math.trunc"):
        return "%s(%s)" % (fn, r.choice("abchijn"))
    if fn in TWO:
        return "%s(%s, %s)" % (fn, expr(r, depth - 1), expr(r, depth - 1))
    return "%s(%s)" % (fn, expr(r, depth - 1))

def gen(seed, n, k):
    r = random.Random(seed)
    out = ["import math, sys, numpy as np",
           "if sys.argv[1] == 'numba':\n    from numba import njit\nelse:\n    from cujit import njit",
           "ARGS = (%s)" % ", ".join(v for _, v in ARGS),
           "def show(v):\n    if isinstance(v, tuple): return '(' + ','.join(show(x) for x in v) + ')'\n"
           "    t = type(v).__name__\n    if isinstance(v, float) or isinstance(v, np.floating):\n"
           "        return '%s:%r' % (t, float(v)) if v == v else t + ':nan'\n    return '%s:%r' % (t, v)"]
    names = ", ".join(a for a, _ in ARGS)
    for fi in range(n):
        for ki in range(k):
            out.append("@njit\ndef f%d_%d(%s):\n    return %s" % (fi, ki, names, expr(r, 3)))
    out.append("import warnings\nwarnings.simplefilter('ignore')")
    out.append("for name in sorted(n for n in dir() if n.startswith('f') and '_' in n):\n"
               "    fn = globals()[name]\n    try:\n        v = show(fn(*ARGS))\n"
               "    except Exception as ex:\n        msg = str(ex).split(chr(10))[0]\n"
               "        v = 'EXC ' + type(ex).__name__ + (': ' + msg[:60] if type(ex).__name__ not in ('TypingError', 'UnsupportedError', 'CompileError', 'TypeError', 'NumbaTypeError', 'LoweringError', 'NotImplementedError') else '')\n"
               "    print(name, v, flush=True)")
    return "\n".join(out)

if __name__ == "__main__":
    print(gen(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
