"""The compile recipe names its stages in order (src/pipeline.cpp): CUJIT_DEBUG=1 reports parse,
then type, then lower, then codegen, each once per build (docs/inspecting.md)."""
import os
import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent("""
    import cujit

    @cujit.jit
    def helper(x):
        return x * 2

    @cujit.jit
    def add_one(x):
        return helper(x) + 1

    print(add_one(3))
""")


def test_stages_in_order(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    env = dict(os.environ, CUJIT_DEBUG="1", CUJIT_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "7"
    stages = [line.split()[1] for line in r.stderr.splitlines()
              if line.startswith("cujit: ") and line.split()[2] == "add_one:"]
    assert stages[:4] == ["parse", "type", "lower", "codegen"], r.stderr
