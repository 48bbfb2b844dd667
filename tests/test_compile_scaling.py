"""Compile time grows linearly with a function's length. Generated code (unrolled loops, code
written by tools) makes long functions; a 200k-line function once took 145 s because the
inspect_types listing rescanned the source for every line, and the source capture built a Python
ast object per node."""
import io
import time

from cujit import _core, njit
from cujit.decorators import capture


def _long_function(tmp_path, n):
    lines = ["def f(x):", "    s = x"] + ["    s = s + %d" % (i % 7) for i in range(n)] + ["    return s"]
    src = "\n".join(lines) + "\n"
    path = tmp_path / ("long_%d.py" % n)
    path.write_text(src)
    ns = {}
    exec(compile(src, str(path), "exec"), ns)
    return ns["f"], sum(i % 7 for i in range(n))


def _front_end_seconds(tmp_path, n):
    f, _ = _long_function(tmp_path, n)
    t = time.process_time()
    listing = _core.annotate_types(capture(f), ["int64"])
    elapsed = time.process_time() - t
    assert listing.count("# --- LINE") == n + 3
    return elapsed


def test_front_end_is_linear_in_function_length(tmp_path):
    # A ratio of CPU times (not wall clock, not an absolute bound: the sanitizer build and a busy
    # machine are slower, alike for both sizes). 4x the lines: about 4x the time when linear,
    # 16x when quadratic (the old listing: 8 s at 40k lines).
    _front_end_seconds(tmp_path, 2000)  # warm up (imports, first-use costs)
    small = min(_front_end_seconds(tmp_path, 10000) for _ in range(2))
    large = _front_end_seconds(tmp_path, 40000)
    assert large < 8 * small + 0.2, "10k lines: %.2f s, 40k lines: %.2f s (not linear)" % (small, large)


def test_20k_line_function_compiles_and_lists_in_seconds(tmp_path):
    f, total = _long_function(tmp_path, 20000)
    jf = njit(f)
    assert jf(1) == 1 + total
    out = io.StringIO()
    jf.inspect_types(file=out)
    assert "# --- LINE 20003 ---" in out.getvalue()
