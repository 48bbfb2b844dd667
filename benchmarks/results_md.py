"""Writes one marked section of benchmarks/RESULTS.md in place, leaving the rest of the file (the
other scripts' sections and the notes written by hand around them) as it is. Used by run.py,
numpy_jit.py and dask_gpu.py."""
import os

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")


def replace_section(begin, end, body, header=""):
    """Puts `begin`, `body`, `end` where the markers are, or at the end of the file (after
    `header` when the file is new)."""
    try:
        with open(RESULTS) as fh:
            doc = fh.read()
    except FileNotFoundError:
        doc = ""
    if not doc.strip():
        doc = header
    section = begin + "\n" + body.strip("\n") + "\n" + end
    if begin in doc and end in doc:
        doc = doc[:doc.index(begin)] + section + doc[doc.index(end) + len(end):]
    else:
        doc = doc.rstrip("\n") + "\n\n" + section + "\n"
    with open(RESULTS, "w") as fh:
        fh.write(doc)
