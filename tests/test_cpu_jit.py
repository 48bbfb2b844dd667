"""@jit / @njit on the CPU (issue 5, first slice): scalar and array arguments, scalar results,
one specialisation per argument types, declared signatures, calls between jitted functions,
py_func, and the TypingError for an argument cujit cannot type. No GPU or simulator involved:
the host C++ compiler builds the same generated code the simulator runs."""
import io
import math

import numpy as np
import pytest

import cujit
from cujit import jit, njit


@jit
def hypot(x, y):
    # The course's first example.
    x = abs(x)
    y = abs(y)
    t = min(x, y)
    x = max(x, y)
    t = t / x
    return x * math.sqrt(1 + t * t)


@njit
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def twice_total(a):
    return 2 * total(a)  # a jitted function calling another


@njit
def scale_in_place(a, k):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] *= k


@jit("float32(float32, float32)")
def add32(a, b):
    return a + b


@njit
def returns_nothing(a):
    a[0] = 1


@njit
def is_positive(x):
    return x > 0


@njit
def cannot_compile(x):
    return x["key"]


def test_hypot_matches_py_func():
    assert hypot(3.0, 4.0) == hypot.py_func(3.0, 4.0) == 5.0
    assert hypot(3, 4) == 5.0 and type(hypot(3, 4)) is float
    assert hypot.signatures == ["(float64, float64)", "(int64, int64)"]
    assert hypot.__name__ == "hypot" and hypot.py_func.__name__ == "hypot"


def test_arrays_are_used_in_place_and_calls_nest():
    a = np.arange(10.0)
    assert total(a) == 45.0 and twice_total(a) == 90.0
    assert total(np.arange(10, dtype=np.int32)) == 45.0  # a second specialisation
    assert total(a[::2]) == a[::2].sum()                   # a strided view, layout 'A'
    m = np.ones((3, 4), np.float32)
    scale_in_place(m, 3)
    assert (m == 3).all()
    assert returns_nothing(np.zeros(2)) is None


def test_result_types_follow_numba():
    assert is_positive(2) is True and is_positive(-1.5) is False
    r = add32(1, 2)  # declared signature: ints converted to float32, result a Python float
    assert r == 3.0 and type(r) is float
    assert add32.signatures == ["(float32, float32)"]
    with pytest.raises(TypeError, match="No matching definition"):
        add32(np.zeros(2), 1.0)


def test_unknown_argument_type_is_a_typing_error_at_the_parameter():
    with pytest.raises(cujit.TypingError) as e:
        cannot_compile(dict(key="value"))
    text = str(e.value)
    # A plain dict: Numba refuses reflected dicts (bindings/dicts.h; a typed.Dict passes).
    assert "non-precise type pyobject: argument 0 of cannot_compile(): non-precise type pyobject: a Python dict" in text
    assert "reflected dicts are not supported" in text
    assert "def cannot_compile(x):" in text
    # The caret sits under the parameter.
    lines = text.splitlines()
    src = next(i for i, ln in enumerate(lines) if "def cannot_compile(x):" in ln)
    assert lines[src + 1].index("^") == lines[src].index("x):")


def test_options_are_accepted():
    f = jit(nopython=True, cache=True, fastmath=True, boundscheck=False, error_model="numpy")(hypot.py_func)
    assert f(6.0, 8.0) == 10.0
    with pytest.raises(NotImplementedError, match="object mode"):
        jit(forceobj=True)(hypot.py_func)


def test_inspect_types_annotates_each_line():
    hypot(3.0, 4.0)
    out = io.StringIO()
    hypot.inspect_types(file=out)
    text = out.getvalue()
    # One listing per specialisation, headed as Numba's: name (argtypes), then the file.
    assert text.startswith("hypot (float64, float64)\n" + "-" * 80 + "\n# File: ")
    assert "hypot (int64, int64)" in text or len(hypot.signatures) == 1
    first = text.split("=" * 80)[0]
    assert "#   x = arg(0, name=x)  :: float64" in first
    assert "#   abs(float64)  :: float64" in first
    assert "#   t  :: float64" in first
    assert "#   math.sqrt(float64)  :: float64" in first
    assert "#   $return  :: float64" in first
    # Each source line appears under its own LINE header.
    assert "    return x * math.sqrt(1 + t * t)" in first
    only = io.StringIO()
    hypot.inspect_types(file=only, signature=(cujit.float64, cujit.float64))
    assert only.getvalue().count("-" * 80) == 1


def test_overloads_are_keyed_by_argument_types():
    hypot(3.0, 4.0)
    assert (cujit.float64, cujit.float64) in hypot.overloads
    ov = hypot.overloads[(cujit.float64, cujit.float64)]
    assert "cj_cpu_hypot" in ov.source


@njit
def _array_plus(a, x):
    return a.sum() + x


def test_overloads_and_inspect_types_with_array_arguments():
    import io
    _array_plus(np.ones(3), 1.0)
    _array_plus(np.ones((2, 2), np.float32), 1)
    assert _array_plus.signatures == ["(array(float64, 1d, C), float64)", "(array(float32, 2d, C), int64)"]
    sources = [o.source for o in _array_plus.overloads.values()]
    assert all("cj_cpu__array_plus" in s for s in sources) and sources[0] != sources[1]
    out = io.StringIO()
    _array_plus.inspect_types(file=out, signature=(cujit.float32[:, ::1], cujit.int64))
    text = out.getvalue()
    assert "array(float32, 2d, C)" in text and "array(float64, 1d, C)" not in text


@jit(
    "float64(float64)",
    cache=True,
)
def _odd_layout(x):
    """A docstring whose lines
go back to column 0, which ends the block by indentation."""
    y = (x +
1.0)  # a bracket continued at column 0
    return y
def _next_definition(x):  # right after, with no blank line
    return x


def test_source_of_oddly_laid_out_functions():
    from cujit.decorators import get_source
    assert _odd_layout(1.0) == 2.0
    text = get_source(_odd_layout.py_func)[0]
    assert text.startswith("@jit(") and text.rstrip().endswith("return y")
    assert "_next_definition" not in text
    assert get_source(_next_definition)[0].startswith("def _next_definition")
    assert jit(_next_definition)(3) == 3
