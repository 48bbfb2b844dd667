"""The `cujit` command (also `python -m cujit`).

cujit --info (or -s, as `numba -s`): what cujit finds on this machine, for bug reports and for
"why does it not use my GPU?": the versions of cujit, Python and NumPy, the GPUs, NVRTC, the host
C++ compiler, the disk cache, and the environment variables that change what cujit does.

cujit PROGRAM.py [ARGS...]: runs a program written for Numba with cujit in Numba's place (`import
numba` imports cujit: the numba alias), as `python PROGRAM.py ARGS...` would run it.
"""

import argparse
import os
import platform
import shutil
import sys


def _first_line(text):
    return str(text).strip().splitlines()[0] if str(text).strip() else ""


def _problem(rows, label, prefix, text):
    """A toolchain problem, every line of it (the places tried and the fix come after the first)."""
    lines = [ln.rstrip() for ln in str(text).strip().splitlines() if ln.strip()] or ["(no detail)"]
    rows.append((label, prefix + lines[0]))
    rows.extend(("", "  " + ln.strip()) for ln in lines[1:])


def _size(nbytes):
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if nbytes < 1024 or unit == "GiB":
            return ("%d %s" % (nbytes, unit)) if unit == "bytes" else ("%.1f %s" % (nbytes, unit))
        nbytes /= 1024.0


def _cache_usage(folder):
    """(files, bytes) under `folder`, or None when it does not exist."""
    if not os.path.isdir(folder):
        return None
    files = total = 0
    for root, _, names in os.walk(folder):
        for n in names:
            try:
                total += os.lstat(os.path.join(root, n)).st_size
                files += 1
            except OSError:  # removed meanwhile by another process
                pass
    return files, total


def info_lines():
    """The --info report, as (label, value) rows; a label of "" continues the row above."""
    import numpy
    import cujit
    from cujit import _core, config

    rows = [
        ("cujit", "%s (%s)" % (cujit.__version__, os.path.dirname(cujit.__file__))),
        ("Python", "%s (%s)" % (platform.python_version(), sys.executable)),
        ("NumPy", numpy.__version__),
    ]
    tc = _core.toolchain_info()

    gpus = []
    if _core.gpu_available():
        driver = tc.get("driver_version", 0)
        for i in range(_core.device_count()):
            p = _core.gpu_properties(i)
            gpus.append("%d: %s, compute capability %d.%d, driver %d.%d" % (
                i, p["name"], p["compute_capability"][0], p["compute_capability"][1],
                driver // 1000, driver % 1000 // 10))
    if gpus:
        rows.append(("GPU", gpus[0]))
        rows.extend(("", g) for g in gpus[1:])
    else:
        why = _first_line(tc.get("driver_error", "")).split(". Set CUJIT_ENABLE_CUDASIM")[0]
        rows.append(("GPU", "none (simulator only)" + (": " + why if why else "")))
    rows.append(("Simulator", "on: kernels and ufuncs run on the CPU" if config.ENABLE_CUDASIM
                 else "off (CUJIT_ENABLE_CUDASIM=1 turns it on)"))

    if "nvrtc_path" in tc:
        rows.append(("NVRTC", "%s (%s)" % (tc["nvrtc_version"], tc["nvrtc_path"])))
    else:
        _problem(rows, "NVRTC", "not found: ", tc.get("nvrtc_error", ""))

    if "host_compiler" in tc:
        words = list(tc["host_compiler"])
        words[0] = shutil.which(words[0]) or words[0]
        rows.append(("C++ compiler", "%s (%s)" % (" ".join(words), tc["host_compiler_version"])))
    else:
        _problem(rows, "C++ compiler", "not found: ", tc.get("host_compiler_error", ""))

    if "cache_dir" in tc:
        folder = tc["cache_dir"]
        usage = _cache_usage(folder)
        if usage is None:
            state = "empty (not created yet)"
        else:
            state = "%d file%s, %s" % (usage[0], "" if usage[0] == 1 else "s", _size(usage[1]))
        if not tc["cache_enabled"]:
            state += "; disabled by CUJIT_DISABLE_CACHE"
        rows.append(("Disk cache", "%s: %s" % (folder, state)))
    else:
        _problem(rows, "Disk cache", "none: ", tc.get("cache_error", ""))

    env = ["%s=%s (%s)" % (n, os.environ[n], what) for n, what in config.ENVIRONMENT.items()
           if n in os.environ]
    env += ["%s=%s (not used by cujit)" % (n, v) for n, v in sorted(os.environ.items())
            if n.startswith("NUMBA_") and n not in config.ENVIRONMENT]
    rows.append(("Environment", env[0] if env else "none of cujit's variables is set"))
    rows.extend(("", e) for e in env[1:])
    honoured = sorted(n for n in config.ENVIRONMENT if n.startswith("NUMBA_"))
    rows.append(("Numba's variables", "honoured with Numba's meaning: " + ", ".join(honoured[:3])))
    rows.extend(("", ", ".join(honoured[i:i + 3])) for i in range(3, len(honoured), 3))
    rows.append(("", "any other NUMBA_* variable is not used by cujit"))
    return rows


def run_program(path, args):
    """Runs the program at `path` as `python path args...` would, with `import numba` giving cujit."""
    import runpy
    import cujit
    cujit.install_numba_alias()
    sys.argv = [path] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    runpy.run_path(path, run_name="__main__")
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(
        prog="cujit", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="cujit: Numba's programming model (CUDA kernels and ufuncs, @jit) compiled by a "
                    "C++ core.",
        epilog="examples:\n  cujit --info          what cujit finds here (GPU, NVRTC, compiler, cache)\n"
               "  cujit prog.py 1 2     run a Numba program with cujit as numba\n"
               "  %load_ext cujit       in a notebook: the numba alias for the cells that follow")
    parser.add_argument("-s", "--info", action="store_true",
                        help="print the versions, the GPU, NVRTC, the C++ compiler, the disk cache "
                             "and the environment variables cujit uses (as `numba -s`)")
    parser.add_argument("program", nargs="?", help="a Python program to run with cujit as numba")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the program's arguments")
    # The program's own options are its own: only options before the program are cujit's.
    split = next((i for i, a in enumerate(argv) if not a.startswith("-")), len(argv))
    args = parser.parse_args(argv[:split + 1])
    if args.program is not None:
        if args.info:
            parser.error("--info takes no program")
        return run_program(args.program, argv[split + 1:])
    if not args.info:
        parser.print_help()
        return 0
    rows = info_lines()
    width = max(len(label) for label, _ in rows) + 2
    for label, value in rows:
        print(label.ljust(width) + value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
