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


def test_front_end_is_linear_in_function_length(tmp_path):
    # CPU time of this process (not the wall clock, which other work on the machine stretches):
    # about 1 s here for 40k lines; the quadratic listing took 8 s.
    f, _ = _long_function(tmp_path, 40000)
    t = time.process_time()
    listing = _core.annotate_types(capture(f), ["int64"])
    elapsed = time.process_time() - t
    assert listing.count("# --- LINE") == 40003
    assert elapsed < 4.0, "40k-line function took %.1f s in the front end" % elapsed


def test_20k_line_function_compiles_and_lists_in_seconds(tmp_path):
    f, total = _long_function(tmp_path, 20000)
    t = time.process_time()
    jf = njit(f)
    assert jf(1) == 1 + total
    out = io.StringIO()
    jf.inspect_types(file=out)
    elapsed = time.process_time() - t  # the host compiler runs in a child process: not counted
    assert "# --- LINE 20003 ---" in out.getvalue()
    assert elapsed < 4.0, "20k-line function took %.1f s to compile (front end)" % elapsed
