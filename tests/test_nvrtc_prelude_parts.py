"""A GPU program's prelude holds only the optional parts its code names (pipeline.cpp
cuda_optional_parts: CUDA's atomics and cache-hinted loads, complex cmath, datetime, NumPy's ufunc
loops and reductions, print's float repr), because NVRTC's precompiled prelude costs a compile
time in proportion to its size. The kernels' own code must not change: compiled with the whole
prelude, every kernel's PTX is the same but for the prelude's unused global constants. No GPU
needed (NVRTC only)."""
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

import cujit  # noqa: F401
from cujit import _core

END = "// cujit: end of the prelude\n"
GLOBALS = {"cuda": ("module", "cuda"), "math": ("module", "math"), "np": ("module", "numpy")}
# Text only each part has, to tell which ones a program's prelude holds.
PART_MARKS = {
    "cuda_atomics.h": "CJ_CUDA_BIT_ATOMIC",
    "complex_math.h": "kSqrtLarge",
    "datetime.h": "struct td64",
    "ufuncs.h": "uf_broadcast",
    "repr.h": "shortest_digits",
}


def program(name, params, body, args):
    f = _core.FunctionSource(name, "def %s(%s):\n%s" % (name, params, textwrap.indent(body, "    ")),
                             "/tmp/%s.py" % name, 1)
    f.set_globals(GLOBALS)
    return _core.generate_kernel_source(f, args, True)


F32 = ["float32[::1]", "float32[::1]"]
KERNELS = {
    "plain": ("out, x", "i = cuda.grid(1)\nif i < out.size:\n    out[i] = math.sqrt(x[i])\n", F32, []),
    "atomic": ("out, x", "cuda.atomic.add(out, 0, x[0])\ncuda.atomic.max(out, 1, x[1])\n", F32, ["cuda_atomics.h"]),
    "ldca": ("out, x", "out[0] = cuda.ldca(x, 0)\ncuda.stcg(out, 1, x[1])\n", F32, ["cuda_atomics.h"]),
    "complex": ("out, x", "out[0] = x[0] * 2j + 1\n", ["complex128[::1]", "float64[::1]"], ["complex_math.h"]),
    "datetime": ("out, x", "out[0] = x[0] + x[1]\n", ["timedelta64[s][::1]"] * 2, ["datetime.h"]),
    "reduce": ("out, x", "out[0] = np.sum(x)\n", F32, ["ufuncs.h"]),
    "print": ("out, x", "print(x[0])\n", F32, ["repr.h"]),
}
# One program that names every part: its prelude is the whole one.
ALL = ("out, x, t",
       "cuda.atomic.add(out, 0, 1.0)\nz = x[0] * 2j\nout[1] = z.real\nprint(x[0])\nout[2] = np.sum(x)\n"
       "t[0] = t[0] + t[1]\n",
       ["float64[::1]", "float64[::1]", "timedelta64[s][::1]"])


def parts_of(source):
    prelude = source[:source.index(END)]
    return sorted(h for h, mark in PART_MARKS.items() if mark in prelude)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_a_kernel_gets_the_parts_its_code_names(name):
    params, body, args, parts = KERNELS[name]
    assert parts_of(program(name, params, body, args)) == sorted(parts)


def test_a_program_naming_every_part_gets_the_whole_prelude():
    assert parts_of(program("allparts", *ALL)) == sorted(PART_MARKS)


def body_ptx(ptx):
    # The prelude's namespace-scope constants become .global variables of every program that has
    # them (complex_math.h's kLarge, ...): left out here, the code itself must be the same.
    text = ptx.decode() if isinstance(ptx, bytes) else ptx
    return [line for line in text.splitlines() if line.strip() and not re.match(r"\s*(\.global|//)", line)]


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_the_code_is_the_same_as_with_the_whole_prelude(name):
    params, body, args, _ = KERNELS[name]
    src = program(name, params, body, args)
    everything = program("allparts", *ALL)
    whole = everything[:everything.index(END) + len(END)] + src[src.index(END) + len(END):]
    assert whole != src or name == "allparts"
    trimmed = _core.nvrtc_compile(src, "compute_90")["image"]
    full = _core.nvrtc_compile(whole, "compute_90")["image"]
    assert body_ptx(trimmed) == body_ptx(full)
    assert len(trimmed) <= len(full)


def test_each_prelude_has_its_own_precompiled_header(tmp_path):
    # A fresh process: the PCH table is per process.
    script = textwrap.dedent('''
        import json, sys
        sys.path[:0] = %r
        import test_nvrtc_prelude_parts as t
        from cujit import _core
        version = tuple(int(p) for p in _core.toolchain_info()["nvrtc_version"].split("."))
        if version < (12, 8):
            print(json.dumps({"skip": 1})); sys.exit(0)
        src = {k: t.program(k, *t.KERNELS[k][:3]) for k in ("plain", "atomic")}
        roles = [_core.nvrtc_compile(src[k], "compute_90")["pch"] for k in ("plain", "atomic", "plain", "atomic")]
        print(json.dumps({"roles": roles, "stats": _core.nvrtc_pch_stats()}))
    ''' % ([os.path.dirname(os.path.abspath(__file__))] + sys.path,))
    # CUJIT_NVRTC_PCH_BACKGROUND=0: each first compile writes its PCH itself (the default hands
    # it to a background thread, test_nvrtc_pch.py), so the roles are deterministic.
    env = dict(os.environ, TMPDIR=str(tmp_path), CUJIT_NVRTC_PCH_BACKGROUND="0")
    env.pop("CUJIT_NVRTC_PCH", None)
    env.pop("CUJIT_NVRTC_PCH_WAIT", None)
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    if "skip" in out:
        pytest.skip("NVRTC before 12.8 has no precompiled headers")
    assert out["roles"] == ["created", "created", "used", "used"]
    assert out["stats"]["created"] == 2
