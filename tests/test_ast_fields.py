"""Passes read AST children by role (`n.lhs()`, `n.test()`: src/compiler/ast_nodes.def), never the
storage slots a/b/c/list (tools/check_ast_fields.py; docs/ARCHITECTURE.md, "The syntax tree")."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tools", "check_ast_fields.py")


def run(src):
    return subprocess.run([sys.executable, SCRIPT, src], capture_output=True, text=True)


def test_no_pass_reads_the_slots():
    r = run(os.path.join(ROOT, "src"))
    assert r.returncode == 0, r.stdout


def test_a_raw_slot_is_found(tmp_path):
    d = tmp_path / "compiler"
    d.mkdir()
    (d / "pass.cpp").write_text(
        "void f(Node& n) {\n"
        "  g(n.lhs());  // n.a in a comment is fine\n"
        "  g(n.a->b);\n"
        "  h(e.cval.b, \"x.c\");\n"
        "  for (auto& x : n.list) g(x);\n"
        "  g(n.args());\n"
        "}\n"
    )
    (d / "ast.cpp").write_text("NodePtr clone(const Node& n) { c->a = clone(*n.a); }\n")  # the owner
    r = run(str(tmp_path))
    assert r.returncode == 1
    assert r.stdout.splitlines() == ["compiler/pass.cpp:3: g(n.a->b);", "compiler/pass.cpp:5: for (auto& x : n.list) g(x);"]
