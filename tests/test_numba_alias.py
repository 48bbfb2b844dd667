"""The numba alias: a course-style program that imports numba runs unmodified through
`python -m cujit.run`, on the simulator (NUMBA_ENABLE_CUDASIM is honoured)."""
import os
import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent('''
    import math
    import numpy as np
    from numba import cuda, vectorize, float32
    import numba
    from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

    @vectorize(['float32(float32, float32)'], target='cuda')
    def add_ufunc(x, y):
        return x + y

    @cuda.jit
    def doubled(arr):
        x, y = cuda.grid(2)
        arr[x, y] *= 2

    a = np.arange(4, dtype=np.float32)
    print(add_ufunc(a, a).tolist())
    m = np.ones((3, 3), dtype=np.float32)
    doubled[1, (3, 3)](m)
    print(m.sum(), numba.cuda is cuda, cuda.simulator_enabled())

    @cuda.jit
    def uniform(states, out):
        i = cuda.grid(1)
        out[i] = xoroshiro128p_uniform_float32(states, i)

    u = np.zeros(8, dtype=np.float32)
    uniform[1, 8](create_xoroshiro128p_states(8, seed=3), u)
    print(bool(((u >= 0) & (u <= 1)).all()), len(set(u.tolist())))
''')


def test_course_program_runs_unmodified_through_cujit_run(tmp_path):
    script = tmp_path / "course.py"
    script.write_text(PROGRAM)
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-m", "cujit.run", str(script)], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["[0.0, 2.0, 4.0, 6.0]", "18.0 True True", "True 8"]
