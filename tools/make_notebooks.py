#!/usr/bin/env python3
"""Writes notebooks/*.ipynb from their readable sources in notebooks/src/*.md.

A source is Markdown with the notebook's code cells fenced as ```python ... ```. The text between
two code cells becomes one Markdown cell; a line holding only `+++` splits it into several. Any
other fence (```text, ```py, a bare ```) stays inside the Markdown, for code that is shown but not
run. The .ipynb files are written without outputs and with stable cell ids, so that regenerating
an unchanged source rewrites the same bytes.

    python3 tools/make_notebooks.py           # rewrite notebooks/*.ipynb
    python3 tools/make_notebooks.py --check   # exit 1 if any .ipynb differs from its source

Uses only the standard library (the GPU machine has no nbformat).
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "notebooks" / "src"
NOTEBOOKS = ROOT / "notebooks"

CODE_FENCE = "```python"


def split_cells(text):
    """[(kind, source)] for one .md source, kind 'markdown' or 'code', blank edges trimmed."""
    cells = []
    markdown, code = [], None
    for line in text.splitlines():
        if code is not None:
            if line.rstrip() == "```":
                cells.append(("code", code))
                code = None
            else:
                code.append(line)
        elif line.rstrip() == CODE_FENCE:
            cells.append(("markdown", markdown))
            markdown, code = [], []
        elif line.rstrip() == "+++":
            cells.append(("markdown", markdown))
            markdown = []
        else:
            markdown.append(line)
    if code is not None:
        raise ValueError("a ```python fence is never closed")
    cells.append(("markdown", markdown))
    out = []
    for kind, lines in cells:
        while lines and not lines[0].strip():
            lines = lines[1:]
        while lines and not lines[-1].strip():
            lines = lines[:-1]
        if lines:
            out.append((kind, "\n".join(lines)))
    return out


def notebook_json(text, stem):
    """The .ipynb text (nbformat 4.5) for one source."""
    cells = []
    for i, (kind, source) in enumerate(split_cells(text)):
        lines = source.split("\n")
        cell = {"cell_type": kind, "id": "%s-%02d" % (stem[:2], i), "metadata": {},
                "source": [ln + "\n" for ln in lines[:-1]] + [lines[-1]]}
        if kind == "code":
            cell["execution_count"] = None
            cell["outputs"] = []
        cells.append(cell)
    nb = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def expected_notebooks():
    """{path of the .ipynb: its text} for every source."""
    out = {}
    for src in sorted(SOURCES.glob("*.md")):
        out[NOTEBOOKS / (src.stem + ".ipynb")] = notebook_json(src.read_text(encoding="utf-8"), src.stem)
    return out


def main(argv):
    check = "--check" in argv
    stale = []
    for path, text in expected_notebooks().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not check:
            path.write_text(text, encoding="utf-8")
            print("wrote", path.relative_to(ROOT))
    if check and stale:
        for path in stale:
            print("out of date:", path.relative_to(ROOT), file=sys.stderr)
        print("run: python3 tools/make_notebooks.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
