#!/usr/bin/env python3
"""Checks that no pass reads an AST node's storage slots (`n.a`, `n->b`, `n.c`) instead of the
accessors named by role (`n.lhs()`, `n->test()`, ...: src/compiler/ast_nodes.def). Only ast.h and
ast.cpp, which own the storage (clone, the generated accessors), may name the slots. Run from
anywhere: `python3 tools/check_ast_fields.py [SRC]`; prints each raw use as file:line: text and
exits 1, or exits 0. tests/test_ast_fields.py runs it.

The vector slot `list` (args, elts, targets, ...) is read by role too (`n.args()`, `n.elts()`):
a raw `.list` is reported as the slots are.

A member named a, b or c of something that is no node is told apart by the expression before it
(NOT_NODES): ConstValue's `b` (`cval.b`, a ConstValue named cv), the lexer's open-bracket `o.c`, a
character row's `ch.c`, a hash's `h.a`/`h.b`.
"""
import os
import re
import sys

RAW = re.compile(r"(?:\.|->)([abc])\b(?!\s*\()")
NOT_NODES = re.compile(r"(?:\bcval\.b|\bcv\.b|\bo\.c|\bch\.c|\bh\.[ab])$")
RAW_LIST = re.compile(r"(?:\.|->)list\b(?!\s*\()")
OWNERS = {"compiler/ast.h", "compiler/ast.cpp"}
SOURCES = (".h", ".cpp")


def check(src):
    """Every raw slot use under `src`, as 'file:line: text' strings."""
    out = []
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith(SOURCES):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            if rel in OWNERS or rel.startswith("prelude/"):
                continue
            with open(path, encoding="utf-8") as f:
                for no, line in enumerate(f, 1):
                    code = line.split("//", 1)[0]
                    code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', code)  # string literals
                    code = re.sub(r"'(?:[^'\\]|\\.)*'", "''", code)
                    raw = [m for m in RAW.finditer(code) if not NOT_NODES.search(code[: m.end()])]
                    if raw or RAW_LIST.search(code):
                        out.append(f"{rel}:{no}: {line.strip()}")
    return out


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    bad = check(src)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
