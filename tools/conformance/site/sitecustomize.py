"""Run by every Python process the conformance runner starts for cujit, children of the tests
included (numba-cuda's tests run snippets with `python -c "from numba import cuda ..."`): such
processes see cujit as numba, as the test file itself does. Only on PYTHONPATH in the runner's
cujit processes (run.py), never in an installed environment."""
import os

if os.environ.get("CONFORMANCE_IMPL") == "cujit":
    import cujit

    cujit.install_numba_alias()
elif os.environ.get("CONFORMANCE_IMPL") == "numba":
    import numpy

    if not hasattr(numpy, "row_stack"):  # numba-cuda 0.30.4 on NumPy 2.5 (see child.py)
        numpy.row_stack = numpy.vstack
