"""One bad program per diagnostic (tests/errors/*.py). Each holds its expectation in a comment on
the offending line: `# error: <ExceptionClass>: <text the message contains>`. The runner checks
the class, the text, the `file.py:LINE:` header and the caret under that line. A first line
`# target: sim` limits a program to that target (a diagnostic only one target gives)."""
import pathlib
import re
import runpy

import pytest

import cujit.errors

ERRORS = sorted((pathlib.Path(__file__).parent / "errors").glob("*.py"))
EXPECT = re.compile(r"#\s*error:\s*(\w+):\s*(.*)$")


def expectation(path):
    for lineno, line in enumerate(path.read_text().splitlines(), 1):
        m = EXPECT.search(line)
        if m:
            return lineno, m.group(1), m.group(2).strip()
    raise AssertionError("%s has no '# error:' comment" % path)


@pytest.mark.parametrize("path", ERRORS, ids=[p.stem for p in ERRORS])
def test_diagnostic(path, target):
    first = path.read_text().splitlines()[0]
    if first.startswith("# target:") and first.split(":", 1)[1].strip() != target:
        pytest.skip("this diagnostic is for the %s target" % first.split(":", 1)[1].strip())
    lineno, cls_name, text = expectation(path)
    cls = getattr(cujit.errors, cls_name)
    with pytest.raises(cls) as info:
        runpy.run_path(str(path))
    msg = str(info.value)
    assert text in info.value.msg, info.value.msg  # the message itself, not the quoted line
    # The header stands on a line of its own (the message may name "file.py:LINE:COL" too).
    header = "\n%s:%d:\n" % (path, lineno)
    assert header in msg, msg
    after = msg.split(header, 1)[1].splitlines()
    assert after[0].strip() == path.read_text().splitlines()[lineno - 1].strip()
    assert after[1].strip().startswith("^")
    assert info.value.lineno == lineno
