"""python -m cujit --info: what cujit finds on this machine, for bug reports and for "why does it
not use my GPU?": the versions of cujit, Python and NumPy, the GPUs, NVRTC, the host C++ compiler,
the disk cache, and the environment variables that change what cujit does.
"""

import argparse
import os
import platform
import shutil
import sys


def _first_line(text):
    return str(text).strip().splitlines()[0] if str(text).strip() else ""


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
        rows.append(("NVRTC", "not found: " + _first_line(tc.get("nvrtc_error", ""))))

    if "host_compiler" in tc:
        words = list(tc["host_compiler"])
        words[0] = shutil.which(words[0]) or words[0]
        rows.append(("C++ compiler", "%s (%s)" % (" ".join(words), tc["host_compiler_version"])))
    else:
        rows.append(("C++ compiler", "not found: " + _first_line(tc.get("host_compiler_error", ""))))

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
        rows.append(("Disk cache", "none: " + _first_line(tc.get("cache_error", ""))))

    env = ["%s=%s" % (n, os.environ[n]) for n in config.ENVIRONMENT if n in os.environ]
    env += ["%s=%s (not used by cujit)" % (n, v) for n, v in sorted(os.environ.items())
            if n.startswith("NUMBA_") and n not in config.ENVIRONMENT]
    rows.append(("Environment", env[0] if env else "none of cujit's variables is set"))
    rows.extend(("", e) for e in env[1:])
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m cujit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--info", action="store_true",
                        help="print the versions, the GPU, NVRTC, the C++ compiler, the disk cache "
                             "and the environment variables cujit uses")
    args = parser.parse_args(argv)
    if not args.info:
        parser.print_help()
        return 2
    rows = info_lines()
    width = max(len(label) for label, _ in rows) + 2
    for label, value in rows:
        print(label.ljust(width) + value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
