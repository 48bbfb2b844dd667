"""The notebooks in notebooks/ run top to bottom: on the simulator at their small size
(CUJIT_NOTEBOOK_SMALL=1), and on the GPU, where there is one, at the course's full size. Every
exercise and assessment in them ends in a cell that asserts its result, so a notebook that runs
through has passed its own checks.

Two runners. With nbclient and ipykernel importable, a real Jupyter kernel executes the notebook,
as a person would. Without them (the GPU machine has no Jupyter packages) the cells run in this
process, in one namespace, each cell's source registered in `linecache` under a pseudo filename
as IPython does: cujit reads function sources through inspect and linecache, so both runners
check that functions defined in cells compile. CUJIT_NOTEBOOK_RUNNER=inprocess (or jupyter)
picks one explicitly.

The notebooks are generated from notebooks/src/*.md by tools/make_notebooks.py; the first test
checks that they are up to date.
"""
import ast
import importlib.util
import json
import linecache
import os
import pathlib
import re
import sys
import timeit
import traceback
import warnings

import pytest

import cujit

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PACKAGE_PARENT = str(pathlib.Path(cujit.__file__).resolve().parent.parent)


def _have_jupyter():
    return all(importlib.util.find_spec(m) is not None for m in ("nbclient", "nbformat", "ipykernel"))


def _runner():
    choice = os.environ.get("CUJIT_NOTEBOOK_RUNNER", "")
    if choice in ("inprocess", "jupyter"):
        return choice
    return "jupyter" if _have_jupyter() else "inprocess"


def test_notebooks_match_their_sources():
    spec = importlib.util.spec_from_file_location("make_notebooks", ROOT / "tools" / "make_notebooks.py")
    make_notebooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_notebooks)
    expected = make_notebooks.expected_notebooks()
    assert sorted(expected) == NOTEBOOKS
    for path, text in expected.items():
        assert path.read_text(encoding="utf-8") == text, \
            "%s is out of date: run python3 tools/make_notebooks.py" % path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, target, monkeypatch):
    if path.stem == "04_beyond_one_gpu":  # Dask is optional (tools/setup.sh installs it)
        pytest.importorskip("dask.array")
        pytest.importorskip("distributed")
    # On the simulator the notebooks shrink their problems; on the GPU they run at full size.
    monkeypatch.setenv("CUJIT_NOTEBOOK_SMALL", "1" if target == "sim" else "0")
    if _runner() == "jupyter":
        run_with_jupyter(path, target, monkeypatch)
    else:
        monkeypatch.setenv("MPLBACKEND", "Agg")  # no display in this process
        run_in_process(path)


# ---- A real kernel ----------------------------------------------------------------------------

def run_with_jupyter(path, target, monkeypatch):
    """Executes the notebook in a fresh ipykernel; a failing cell raises CellExecutionError with
    the cell's source and traceback."""
    # The kernel inherits this environment: the backend, and where to import cujit from.
    monkeypatch.setenv("CUJIT_ENABLE_CUDASIM", "1" if target == "sim" else "0")
    monkeypatch.delenv("NUMBA_ENABLE_CUDASIM", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [PACKAGE_PARENT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    with warnings.catch_warnings():
        # Jupyter's own deprecation notices are not this project's concern.
        warnings.simplefilter("ignore", DeprecationWarning)
        import nbclient
        import nbformat
        nb = nbformat.read(str(path), as_version=4)
        client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                         resources={"metadata": {"path": str(path.parent)}})
        client.execute()


# ---- In this process --------------------------------------------------------------------------

_TIMEIT = re.compile(r"^(\s*)%timeit\s+(.*)$")


def python_of_cell(source):
    """The cell as plain Python: each `%timeit ...` line becomes one call of _nb_timeit (so line
    numbers are kept); other magics are refused."""
    lines = []
    for line in source.split("\n"):
        m = _TIMEIT.match(line)
        if m:
            line = "%s_nb_timeit(%r, globals())" % (m.group(1), m.group(2))
        elif line.lstrip().startswith(("%", "!")):
            raise NotImplementedError("the in-process runner supports only %%timeit: %r" % line)
        lines.append(line)
    return "\n".join(lines) + "\n"


def _nb_timeit(args, namespace):
    """A small %timeit: -n loops and -r rounds as in IPython (loops found by autorange)."""
    words = args.split()
    options = {"-n": None, "-r": 7}
    while len(words) >= 2 and words[0] in options:
        options[words[0]] = int(words[1])
        words = words[2:]
    timer = timeit.Timer(" ".join(words), globals=namespace)
    number = options["-n"] or timer.autorange()[0]
    best = min(timer.repeat(repeat=options["-r"], number=number)) / number
    print("%.3g us per loop (best of %d rounds of %d loops)" % (best * 1e6, options["-r"], number))


def run_cell(python, filename, namespace):
    """Runs one cell as IPython does: the value of a final expression is printed."""
    tree = ast.parse(python, filename)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, filename, "exec"), namespace)
    if last is not None:
        value = eval(compile(last, filename, "eval"), namespace)
        if value is not None:
            print(repr(value))


def run_in_process(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    namespace = {"__name__": "__main__", "_nb_timeit": _nb_timeit}
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        python = python_of_cell(source)
        filename = "<notebook %s cell %d>" % (path.stem, index)
        # mtime None: linecache.checkcache keeps the entry (IPython registers cells the same way).
        linecache.cache[filename] = (len(python), None, python.splitlines(True), filename)
        failure = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("default")  # as in Jupyter: shown, not raised
                run_cell(python, filename, namespace)
        except Exception:
            failure = traceback.format_exc()
        finally:
            pyplot = sys.modules.get("matplotlib.pyplot")
            if pyplot is not None:
                pyplot.close("all")
        if failure is not None:
            pytest.fail("%s, cell %d failed:\n%s\n\n%s" % (path.name, index, source, failure), pytrace=False)
