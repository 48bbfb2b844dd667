"""`pip install` of make wheel's manylinux wheel end to end (built from this checkout offline,
--no-build-isolation --no-index, with the build requirements of the Python running the tests),
installed offline into a fresh venv and used from outside the source tree: make demo's program
runs, the simulator runs a kernel, a @jit function compiles, the `cujit` command answers, with the wheel's cujit/include folder deleted first, which proves the prelude headers
are embedded in the extension.

It compiles the extension a second time (scikit-build-core's build folder, build/<wheel tag>, is
kept, so a rerun only rebuilds what changed): about 3 CPU-minutes from scratch, so it is not part of
`make test`; `make test-install` runs it.
"""
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("CUJIT_TEST_PIP_INSTALL") != "1",
                                reason="slow (builds the wheel): run by make test-install")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROGRAM = textwrap.dedent("""
    import os, sys
    import numpy as np
    import cujit
    from cujit import cuda, jit

    assert cujit.__file__.startswith(sys.prefix), cujit.__file__
    assert not os.path.exists(os.path.join(os.path.dirname(cujit.__file__), "include"))

    @cuda.jit
    def scale(a, k):
        i = cuda.grid(1)
        if i < a.size:
            a[i] *= k

    a = np.arange(5, dtype=np.float32)
    scale[1, 32](a, 3)

    @jit
    def total(n):
        s = 0
        for i in range(n):
            s += i
        return s

    print(cuda.simulator_enabled(), a.tolist(), total(10))
""")


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert p.returncode == 0, "%s\n%s\n%s" % (" ".join(map(str, cmd)), p.stdout[-3000:], p.stderr[-3000:])
    return p


def test_wheel_installs_and_runs_outside_the_tree(tmp_path):
    # make wheel's wheel (tools/make_wheel.sh, which make test-install runs first), or one built
    # here the same way when the test is run alone.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    wheels = sorted((Path(ROOT) / "dist").glob("cujit-*.whl"))
    if not wheels:
        run([os.path.join(ROOT, "tools", "make_wheel.sh"), sys.executable], env=env)
        wheels = sorted((Path(ROOT) / "dist").glob("cujit-*.whl"))
    (wheel,) = wheels
    assert "-manylinux" in wheel.name, wheel.name

    # A fresh venv whose only borrowed package is NumPy (through a .pth to the folder it lives in;
    # nothing is downloaded). cujit itself comes from the wheel alone.
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    vpy = venv / "bin" / "python"
    site = run([str(vpy), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    import numpy
    with open(os.path.join(site, "borrowed_numpy.pth"), "w") as f:
        f.write(os.path.dirname(os.path.dirname(numpy.__file__)) + "\n")
    assert not os.path.exists(os.path.join(os.path.dirname(os.path.dirname(numpy.__file__)), "cujit"))
    run([sys.executable, "-m", "pip", "--python", str(vpy), "install", "--no-deps", "--no-index", str(wheel)],
        env=env)
    # The console script, as pip made it.
    assert os.path.exists(venv / "bin" / "cujit")
    installed = os.path.join(site, "cujit")
    assert os.path.exists(os.path.join(installed, "__main__.py"))
    shutil.rmtree(os.path.join(installed, "include"), ignore_errors=True)

    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    env.update(CUJIT_ENABLE_CUDASIM="1", CUJIT_CACHE_DIR=str(tmp_path / "cache"))  # compile for real
    out = run([str(vpy), str(script)], cwd=str(tmp_path), env=env).stdout
    assert out.split("\n")[0] == "True [0.0, 3.0, 6.0, 9.0, 12.0] 45"
    info = run([str(vpy), "-m", "cujit", "--info"], cwd=str(tmp_path), env=env).stdout
    assert "0.1.0 (%s)" % installed in info
    # make demo's program, copied out of the tree and run by the installed cujit.
    demo = tmp_path / "demo.py"
    shutil.copy(os.path.join(ROOT, "examples", "demo.py"), demo)
    out = run([str(vpy), str(demo)], cwd=str(tmp_path), env=env).stdout
    assert out.count("correct: True") >= 2 and "False" not in out, out
    assert run([str(venv / "bin" / "cujit")], cwd=str(tmp_path), env=env).stdout.startswith("usage: cujit")
