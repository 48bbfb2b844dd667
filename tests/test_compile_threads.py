"""First calls from several threads at once: each thread that finds the function not compiled yet
waits for the one compiling it. The compile runs without the GIL, so the waiters must wait
without it too; they used to wait on the dispatcher's mutex holding the GIL, while the compiling
thread needed the GIL back to finish: two threads launching a new kernel hung forever. Each case
runs in a fresh process with a time limit, so a hang fails the test instead of the suite."""
import os
import subprocess
import sys
import textwrap

import pytest

PROGRAM = textwrap.dedent("""
    import threading
    import numpy as np
    from cujit import cuda, jit, vectorize

    @cuda.jit
    def kernel(a):
        a[0] = 1 + SALT

    @vectorize(["float64(float64)"], target="cuda")
    def cuda_ufunc(x):
        return x + 1 + SALT

    @jit
    def cpu(x):
        return x + 1 + SALT

    arrays = [np.zeros(1) for _ in range(4)]
    calls = {
        "kernel": lambda a: kernel[1, 1](a),
        "cuda_ufunc": lambda a: a.__setitem__(0, cuda_ufunc(a)[0]),
        "cpu": lambda a: a.__setitem__(0, cpu(0.0)),
    }
    call = calls[WHICH]
    threads = [threading.Thread(target=call, args=(a,)) for a in arrays]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print([float(a[0]) for a in arrays])
""")


@pytest.mark.parametrize("which", ["kernel", "cuda_ufunc", "cpu"])
def test_first_calls_from_several_threads_finish(tmp_path, which):
    salt = os.getpid() % 100000  # new source, so the compile is not a disk-cache hit
    script = tmp_path / "threads.py"
    script.write_text("SALT = %d\nWHICH = %r\n" % (salt, which) + PROGRAM)
    env = dict(os.environ, CUJIT_ENABLE_CUDASIM="1", CUJIT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    try:
        p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=90)
    except subprocess.TimeoutExpired:
        pytest.fail("first calls of a %s from 4 threads did not finish in 90 s (deadlock)" % which)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == str([float(1 + salt)] * 4)
