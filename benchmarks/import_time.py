"""How long the tool's import takes in a fresh process (issue 6's goal: `import cujit` in at most
0.15 s; numba-cuda's `import numba` + `from numba import cuda` about 1.1 s).

    python benchmarks/import_time.py cujit|numba|cupy N      the best of N fresh processes

Each process is a new interpreter that times, with time.perf_counter around it,

    cujit:  import cujit
    numba:  import numba; from numba import cuda
    cupy:   import cupy

and nothing else is imported before (NumPy's import, which all three do, is counted in each;
for numba the timed region also sets np.row_stack where NumPy 2.5 removed it, which numba-cuda
0.30 still refers to). The interpreter's own start is not counted. One untimed process runs
first, with PYTHONDONTWRITEBYTECODE unset in all of them, so the modules' bytecode is cached as
in an installed package and no timed import compiles Python source.

Prints one JSON line: {"tool", "n", "best_s", "ms", "runs_ms", "correct"}; `correct`: every
process imported the tool and found its `cuda` module.
"""
import json
import os
import subprocess
import sys

IMPORTS = {
    "cujit": "import cujit; ok = hasattr(cujit.cuda, 'jit')",
    "numba": ("import numpy as np\n"
              "if not hasattr(np, 'row_stack'): np.row_stack = np.vstack\n"
              "import numba; from numba import cuda; ok = hasattr(cuda, 'jit')"),
    "cupy": "import cupy; ok = hasattr(cupy, 'cuda')",
}
CHILD = '''
import time
t0 = time.perf_counter()
{imports}
t = time.perf_counter() - t0
print("{{\\"s\\": %r, \\"ok\\": %s}}" % (t, "true" if ok else "false"))
'''


def main():
    tool, n = sys.argv[1], int(sys.argv[2])
    if tool not in IMPORTS:
        sys.exit("usage: python benchmarks/import_time.py cujit|numba|cupy N")
    code = CHILD.format(imports=IMPORTS[tool])
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    runs = []
    for _ in range(max(n, 1) + 1):
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            sys.exit((p.stderr or p.stdout).strip() or "the import failed")
        runs.append(json.loads(p.stdout.strip().splitlines()[-1]))
    runs = runs[1:]  # the first wrote the bytecode caches
    best = min(r["s"] for r in runs)
    print(json.dumps({"tool": tool, "n": len(runs), "best_s": best, "ms": best * 1e3,
                      "runs_ms": [r["s"] * 1e3 for r in runs],
                      "correct": all(r["ok"] for r in runs)}))


if __name__ == "__main__":
    main()
