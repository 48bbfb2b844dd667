"""One test file of numba-cuda's suite, in this process, against cujit or numba-cuda.

    python child.py --impl cujit|numba --tests-dir DIR --file cudapy/test_x.py --out RESULTS.jsonl

Started by run.py, one process per file. DIR is numba-cuda's ``numba/cuda/tests`` folder. Under
--impl cujit, ``import numba`` is cujit (its numba alias) and the test files are served from DIR
as ``numba.cuda.tests.*``; under --impl numba the real numba-cuda runs (the baseline). On both
sides ``numba.cuda.testing`` and ``numba.cuda.tests.support`` are this folder's stand-ins
(standins/), so both sides run the same helpers. The file runs under pytest, imported by its
package name; each test's outcome is appended to RESULTS.jsonl as soon as it is known, so a
crash or a timeout keeps what finished before it.
"""
import argparse
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STANDINS = {
    "numba.cuda.testing": os.path.join(HERE, "standins", "testing.py"),
    "numba.cuda.tests.support": os.path.join(HERE, "standins", "support.py"),
}


class _TestsFinder(importlib.abc.MetaPathFinder):
    """Serves the stand-ins, and (for cujit) numba-cuda's test package from its folder."""

    def __init__(self, tests_dir, serve_tests):
        self.tests_dir = tests_dir
        self.serve_tests = serve_tests

    def find_spec(self, fullname, path=None, target=None):
        if fullname in STANDINS:
            return importlib.util.spec_from_file_location(fullname, STANDINS[fullname])
        if not self.serve_tests:
            return None
        if fullname == "numba.cuda.tests":
            return importlib.util.spec_from_file_location(
                fullname, os.path.join(self.tests_dir, "__init__.py"),
                submodule_search_locations=[self.tests_dir])
        if fullname.startswith("numba.cuda.tests."):
            parent = sys.modules[fullname.rpartition(".")[0]]
            return importlib.machinery.PathFinder.find_spec(fullname, parent.__path__)
        return None


def _numpy_shims():
    """numba-cuda 0.30.4 names numpy.row_stack, which NumPy 2.5 (the GPU machine's) removed: without
    it the baseline fails at import in most files, and cujit would be measured against nothing."""
    import numpy
    if not hasattr(numpy, "row_stack"):
        numpy.row_stack = numpy.vstack


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--impl", choices=("cujit", "numba"), required=True)
    ap.add_argument("--tests-dir", required=True)
    ap.add_argument("--file", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--collect-only", action="store_true", help="import the file and list its tests only")
    args = ap.parse_args()
    tests_dir = os.path.abspath(args.tests_dir)
    os.environ["CONFORMANCE_TESTS_DIR"] = tests_dir

    if args.impl == "cujit":
        import cujit
        cujit.install_numba_alias()
    else:
        _numpy_shims()
    sys.meta_path.insert(0, _TestsFinder(tests_dir, serve_tests=args.impl == "cujit"))

    import pytest

    modname = "numba.cuda.tests." + os.path.splitext(args.file)[0].replace("/", ".")
    out = open(args.out, "a", buffering=1)

    def record(nodeid, outcome, detail=""):
        out.write(json.dumps({"id": nodeid, "outcome": outcome, "detail": detail[-2000:]}) + "\n")

    class _ByName(pytest.Module):
        # pytest would import the file by a name made from its folders; numba-cuda's folders are
        # not a package of their own (numba/ has no __init__.py), so import it by its real name.
        def _getobj(self):
            return importlib.import_module(modname)

    class Plugin:
        # Folders as plain directories, not packages: pytest would import their __init__.py by
        # a made-up name too (the file's package is imported by its real name above).
        def pytest_collect_directory(self, path, parent):
            return pytest.Dir.from_parent(parent, path=path)

        def pytest_pycollect_makemodule(self, module_path, parent):
            return _ByName.from_parent(parent, path=module_path)

        def pytest_collectreport(self, report):
            if report.failed:
                record(args.file, "collection-error", str(report.longrepr))

        def pytest_collection_modifyitems(self, items):
            if args.collect_only:
                for item in items:
                    record(item.nodeid, "collected")

        def pytest_runtest_logreport(self, report):
            # A test's outcome: its setup's failure or skip, else its call's; a teardown
            # failure after a pass makes it an error.
            nodeid = report.nodeid
            if hasattr(report, "wasxfail"):
                if report.when == "call" or report.skipped:
                    record(nodeid, "xfailed" if report.skipped else "xpassed")
                return
            if report.when == "setup":
                if report.failed:
                    record(nodeid, "error", str(report.longrepr))
                elif report.skipped:
                    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
                    record(nodeid, "skipped", reason)
            elif report.when == "call":
                if report.passed:
                    record(nodeid, "passed")
                elif report.skipped:
                    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
                    record(nodeid, "skipped", reason)
                else:
                    record(nodeid, "failed", str(report.longrepr))
            elif report.when == "teardown" and report.failed:
                record(nodeid, "teardown-error", str(report.longrepr))

    ini = os.path.join(os.environ.get("CONFORMANCE_SCRATCH", HERE), "pytest.ini")
    with open(ini, "w") as f:
        f.write("[pytest]\n")
    path = os.path.join(tests_dir, args.file)
    rc = pytest.main([path, "-q", "-p", "no:cacheprovider", "-c", ini, "--rootdir", tests_dir,
                      "--no-header", "-rN", "--tb=short"] + (["--collect-only"] if args.collect_only else []),
                     plugins=[Plugin()])
    out.close()
    # pytest's own codes: 0 all passed, 1 some failed, 5 nothing collected; others are problems.
    sys.exit(0 if rc in (0, 1, 5) else int(rc))


if __name__ == "__main__":
    main()
