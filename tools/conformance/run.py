"""The conformance run: numba-cuda 0.30's own test files, against cujit.

    python tools/conformance/run.py [--target sim|gpu] [--jobs 2] [--subset ci] [--check-floor]
    python tools/conformance/run.py --impl numba --python /path/to/numba-cuda/python --write-baseline

Each selected file of numba-cuda's ``numba/cuda/tests`` (cudapy, cudadrv, doc_examples, less
excluded.txt) runs in its own process (child.py) with a timeout, so a crash or a hang costs one
file. The results land in build/conformance/<impl>-<target>/ (summary.json, summary.md, one log
per file). With --impl numba the same files run on real numba-cuda, through the same runner and
stand-ins: the baseline, kept in baseline-<target>.json (the tests numba-cuda passes), which a
cujit run is measured against. floor.json holds the cujit pass count CI must not fall below.

Where the tests come from (never by importing numba): --tests-dir; else the numba-cuda 0.30.4
wheel unpacked under build/conformance/ (downloaded with `pip download --no-deps` when missing
and the network answers, never installed: its .pth file would take over `import numba`); else
an installed numba-cuda found by path in the site-packages of --python or this Python (the GPU
machine, which has no network).
"""
import argparse
import concurrent.futures
import datetime
import fnmatch
import glob
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(REPO, "build", "conformance")
NUMBA_CUDA_VERSION = "0.30.4"
SUITES = ("cudapy", "cudadrv", "doc_examples")
OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed", "collected")


def _site_dirs(python):
    out = subprocess.run([python, "-c", "import site, sysconfig, json; print(json.dumps("
                          "[sysconfig.get_paths()['purelib'], sysconfig.get_paths()['platlib']]"
                          " + list(getattr(site, 'getsitepackages', lambda: [])())))"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _installed_tests(python):
    for d in _site_dirs(python):
        t = os.path.join(d, "numba_cuda", "numba", "cuda", "tests")
        if os.path.isfile(os.path.join(t, "__init__.py")):
            return t
    return None


def _wheel_tests(fetch):
    """numba-cuda's tests unpacked from its wheel under build/conformance/ (fetched if asked)."""
    root = os.path.join(BUILD, "numba-cuda-%s" % NUMBA_CUDA_VERSION)
    tests = os.path.join(root, "numba_cuda", "numba", "cuda", "tests")
    if os.path.isfile(os.path.join(tests, "__init__.py")):
        return tests
    if not fetch:
        return None
    wheels = os.path.join(BUILD, "wheels")
    os.makedirs(wheels, exist_ok=True)
    found = glob.glob(os.path.join(wheels, "numba_cuda-%s-*.whl" % NUMBA_CUDA_VERSION))
    if not found:
        r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", wheels,
                            "numba-cuda==%s" % NUMBA_CUDA_VERSION], capture_output=True, text=True)
        found = glob.glob(os.path.join(wheels, "numba_cuda-%s-*.whl" % NUMBA_CUDA_VERSION))
        if r.returncode != 0 or not found:
            print("conformance: could not download numba-cuda %s: %s" % (NUMBA_CUDA_VERSION, r.stderr.strip()[-500:]),
                  file=sys.stderr)
            return None
    # Only the tests folder: nothing of the wheel is installed anywhere.
    with zipfile.ZipFile(found[0]) as z:
        for name in z.namelist():
            if name.startswith("numba_cuda/numba/cuda/tests/") or name == "numba_cuda/VERSION":
                z.extract(name, root)
    return tests


def locate_tests(args):
    if args.tests_dir:
        return os.path.abspath(args.tests_dir)
    if args.impl == "numba":
        # The baseline runs the files of the numba-cuda it imports.
        t = _installed_tests(args.python)
        if t:
            return t
        sys.exit("conformance: numba-cuda is not installed in %s (the baseline needs it)" % args.python)
    for t in (_wheel_tests(fetch=False), _installed_tests(args.python), _installed_tests(sys.executable),
              _wheel_tests(fetch=True)):
        if t:
            return t
    sys.exit("conformance: numba-cuda's tests not found: pass --tests-dir, or let pip download "
             "numba-cuda==%s" % NUMBA_CUDA_VERSION)


def read_excluded():
    excluded = {}
    with open(os.path.join(HERE, "excluded.txt")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                path, _, reason = line.partition("#")
                excluded[path.strip()] = reason.strip()
    return excluded


def read_subset(name):
    with open(os.path.join(HERE, "subset-%s.txt" % name)) as f:
        return [l.split("#")[0].strip() for l in f if l.split("#")[0].strip()]


def select_files(tests_dir, args):
    files = []
    for suite in SUITES:
        files += sorted(os.path.relpath(p, tests_dir) for p in glob.glob(os.path.join(tests_dir, suite, "test_*.py")))
    excluded = read_excluded()
    files = [f for f in files if f not in excluded]
    if args.subset:
        wanted = set(read_subset(args.subset))
        files = [f for f in files if f in wanted]
    if args.files:
        files = [f for f in files if any(fnmatch.fnmatch(f, pat) or fnmatch.fnmatch(os.path.basename(f), pat)
                                         for pat in args.files)]
    return files


# What numba-cuda's test files import beside numba (numba-cuda's own dependencies and its test
# extras), by import name: (distribution pins, installed together). The versions are those of the
# reference venv the baseline ran with; cuda-core and cuda-bindings are within numba-cuda 0.30.4's
# metadata (cuda-core>=0.5.1,<2, cuda-bindings>=12.9.1,<14). cuda-core imports without a GPU and
# without numba. All but pytest (which brings its own small dependencies) are installed with
# --no-deps, so the Python's own NumPy is never replaced.
TEST_DEPS = (
    ("pytest", ("pytest",)),
    ("cffi", ("cffi==2.1.1", "pycparser==3.12")),
    ("ml_dtypes", ("ml_dtypes==0.6.0",)),
    ("cuda.core", ("cuda-core==1.2.2", "cuda-bindings==13.5.0", "cuda-pathfinder==1.9.1")),
)


def python_has(python, module):
    return subprocess.run([python, "-c", "import " + module], capture_output=True).returncode == 0


def test_deps_paths_for(python):
    """Folders with the test files' third-party imports that `python` lacks, installed there with
    pip --target, so the venv itself is left as it is: pytest (the reference venv lacks it) in
    pytest-pyXY/, cffi, ml_dtypes and cuda-core in deps-pyXY/ (apart, so that a Python with its
    own pytest never gets another one from the folder). Wheels in build/conformance/wheels/ are
    tried first, without the package index (the GPU machine has no network: carry them there); a
    package that cannot be installed leaves its test files failing to import, as before, with a
    warning."""
    missing = [(m, pins) for m, pins in TEST_DEPS if not python_has(python, m)]
    if not missing:
        return []
    tag = subprocess.run([python, "-c", "import sys; print('%d%d' % sys.version_info[:2])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    wheels = os.path.join(BUILD, "wheels")
    os.makedirs(wheels, exist_ok=True)
    paths = []
    for module, pins in missing:
        target = os.path.join(BUILD, ("pytest-py" if module == "pytest" else "deps-py") + tag)
        if target not in paths:
            paths.append(target)
        env = dict(os.environ, PYTHONPATH=target)
        if subprocess.run([python, "-c", "import " + module], capture_output=True, env=env).returncode == 0:
            continue
        cmd = [python, "-m", "pip", "install", "-q", "--only-binary=:all:", "--target", target, "--upgrade",
               "--find-links", wheels] + (["--no-deps"] if module != "pytest" else []) + list(pins)
        # The carried wheels alone first (no network wait), then the package index.
        if (subprocess.run(cmd + ["--no-index"], capture_output=True).returncode != 0
                and subprocess.run(cmd).returncode != 0):
            print("conformance: WARNING: could not install %s (%s); the files importing it will not "
                  "collect" % (module, " ".join(pins)), file=sys.stderr)
    return paths


def run_file(rel, args, tests_dir, outdir, extra_path):
    stem = rel.replace("/", "__")[:-3]
    results = os.path.join(outdir, "results", stem + ".jsonl")
    log = os.path.join(outdir, "logs", stem + ".log")
    scratch = os.path.join(outdir, "scratch", stem)
    for p in (results,):
        if os.path.exists(p):
            os.remove(p)
    os.makedirs(scratch, exist_ok=True)
    env = dict(os.environ)
    for v in ("NUMBA_ENABLE_CUDASIM", "CUJIT_ENABLE_CUDASIM", "PYTHONPATH"):
        env.pop(v, None)
    if args.target == "sim":
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    paths = []
    if args.impl == "cujit":
        # site/sitecustomize.py installs the alias in every Python process started from here,
        # so the tests' own subprocesses (`python -c "from numba import cuda ..."`) get cujit too.
        paths += [os.path.join(HERE, "site"), os.path.join(REPO, "python")]
        env["CONFORMANCE_IMPL"] = "cujit"
    else:
        # The same sitecustomize gives numba-cuda's subprocesses its NumPy shim (child.py).
        paths.append(os.path.join(HERE, "site"))
        env["CONFORMANCE_IMPL"] = "numba"
    paths += extra_path
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)
    env["CONFORMANCE_SCRATCH"] = scratch
    env["CUJIT_COMPILE_PROGRESS"] = "off"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # Only pytest itself: plugins installed beside it (xdist, cov, benchmark, ...) differ between
    # machines and must not change what either side runs.
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    cmd = [args.python, os.path.join(HERE, "child.py"), "--impl", args.impl, "--tests-dir", tests_dir,
           "--file", rel, "--out", results] + (["--collect-only"] if args.collect_only else [])
    t0 = time.time()
    status = "ok"
    with open(log, "w") as logf:
        proc = subprocess.Popen(cmd, cwd=scratch, env=env, stdout=logf, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            rc = proc.wait(timeout=args.timeout)
            if rc != 0:
                status = "crash (exit %d)" % rc if rc > 0 else "crash (signal %d)" % -rc
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the child's own process group: it and its children
            proc.wait()
            status = "timeout (%ds)" % args.timeout
    tests = {}
    if os.path.exists(results):
        with open(results) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a crash
                tests[r["id"]] = {"outcome": r["outcome"], "detail": r.get("detail", "")}
    counts = {k: 0 for k in OUTCOMES}
    for t in tests.values():
        o = t["outcome"]
        if o in ("teardown-error", "collection-error"):
            o = "error"
        counts[o] += 1
    if any(t["outcome"] == "collection-error" for t in tests.values()):
        status = "collection error"
    shutil.rmtree(scratch, ignore_errors=True)
    return rel, {"status": status, "seconds": round(time.time() - t0, 1), "counts": counts, "tests": tests}


def load_baseline(target):
    p = os.path.join(HERE, "baseline-%s.json" % target)
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return json.load(f)


def first_line_of_failure(detail):
    lines = [l for l in detail.strip().splitlines() if l.strip()]
    for l in reversed(lines):
        if l.startswith("E ") or "Error" in l or "error" in l:
            return l.lstrip("E ").strip()[:160]
    return lines[-1][:160] if lines else ""


def summarize(files, args, tests_dir, elapsed):
    totals = {k: 0 for k in OUTCOMES}
    for r in files.values():
        for k in OUTCOMES:
            totals[k] += r["counts"][k]
    summary = {
        "impl": args.impl, "target": args.target, "python": args.python, "tests_dir": tests_dir,
        "numba_cuda_version": NUMBA_CUDA_VERSION,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": "%s, %d CPUs" % (platform.node(), os.cpu_count() or 0),
        "jobs": args.jobs, "seconds": round(elapsed), "totals": totals,
        "files_with_problems": sorted(f for f, r in files.items() if r["status"] != "ok"),
        "files": files,
    }
    baseline = load_baseline(args.target) if args.impl == "cujit" else None
    if baseline:
        ref_pass = {f: set(ids) for f, ids in baseline["passed"].items() if f in files}
        n_ref = sum(len(v) for v in ref_pass.values())
        n_both = sum(1 for f, ids in ref_pass.items() for i in ids
                     if files[f]["tests"].get(i, {}).get("outcome") == "passed")
        summary["versus_numba_cuda"] = {"numba_cuda_passed": n_ref, "cujit_passed_of_those": n_both,
                                        "percent": round(100.0 * n_both / n_ref, 1) if n_ref else None,
                                        "baseline_date": baseline.get("date")}
    return summary


def write_markdown(summary, path):
    base = load_baseline(summary["target"]) if summary["impl"] == "cujit" else None
    lines = ["# Conformance: %s on %s, %s" % (summary["impl"], summary["target"], summary["date"]), "",
             "numba-cuda %s test files, %s, %d workers, %ds." % (summary["numba_cuda_version"], summary["machine"],
                                                                summary["jobs"], summary["seconds"]), ""]
    t = summary["totals"]
    lines.append("Totals: " + ", ".join("%s %d" % (k, t[k]) for k in OUTCOMES))
    v = summary.get("versus_numba_cuda")
    if v:
        lines.append("")
        lines.append("Of the %d tests numba-cuda passes on these files, cujit passes %d (%s%%)."
                     % (v["numba_cuda_passed"], v["cujit_passed_of_those"], v["percent"]))
    lines += ["", "| file | status | passed | failed | error | skipped |" + (" numba-cuda passed |" if base else ""),
              "|---|---|---|---|---|---|" + ("---|" if base else "")]
    for f, r in sorted(summary["files"].items()):
        c = r["counts"]
        row = "| %s | %s | %d | %d | %d | %d |" % (f, r["status"], c["passed"], c["failed"] + c["xpassed"],
                                                   c["error"], c["skipped"] + c["xfailed"])
        if base:
            row += " %d |" % len(base["passed"].get(f, []))
        lines.append(row)
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impl", choices=("cujit", "numba"), default="cujit")
    ap.add_argument("--python", default=sys.executable, help="the Python that runs the test files")
    ap.add_argument("--target", choices=("sim", "gpu"), default=None,
                    help="sim: the CUDA simulator (default where CUJIT_ENABLE_CUDASIM/NUMBA_ENABLE_CUDASIM "
                         "is set or no GPU is found); gpu: the GPU")
    ap.add_argument("--tests-dir", help="numba-cuda's numba/cuda/tests folder")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300, help="seconds per file")
    ap.add_argument("--subset", help="only the files in subset-NAME.txt (ci: the CI sample)")
    ap.add_argument("--out", help="results folder (default build/conformance/IMPL-TARGET)")
    ap.add_argument("--collect-only", action="store_true",
                    help="only import each file and count its tests (finds the files that fail to import)")
    ap.add_argument("--check-floor", action="store_true", help="fail if fewer tests pass than floor.json says")
    ap.add_argument("--write-baseline", action="store_true",
                    help="(--impl numba) keep the tests passed as tools/conformance/baseline-TARGET.json "
                         "(always written to the results folder)")
    ap.add_argument("files", nargs="*", help="only these files (names or globs)")
    args = ap.parse_args()
    if args.target is None:
        sim = any(os.environ.get(v, "") not in ("", "0") for v in ("CUJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM"))
        args.target = "sim" if sim or shutil.which("nvidia-smi") is None else "gpu"

    tests_dir = locate_tests(args)
    version_file = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(tests_dir))), "VERSION")
    if os.path.exists(version_file):
        found = open(version_file).read().strip()
    elif tests_dir.startswith(os.path.join(BUILD, "numba-cuda-%s" % NUMBA_CUDA_VERSION) + os.sep):
        found = NUMBA_CUDA_VERSION  # unpacked from that wheel before VERSION was unpacked too
    else:
        found = "unknown"
    if found != NUMBA_CUDA_VERSION:
        # Counts are comparable only on the same files: say so rather than mix versions quietly.
        print("conformance: WARNING: the tests are numba-cuda %s's, the baseline is %s's"
              % (found, NUMBA_CUDA_VERSION), file=sys.stderr)
    files = select_files(tests_dir, args)
    outdir = os.path.abspath(args.out or os.path.join(BUILD, "%s-%s%s" % (args.impl, args.target,
                                                                          "-collect" if args.collect_only else "")))
    for d in ("results", "logs", "scratch"):
        os.makedirs(os.path.join(outdir, d), exist_ok=True)
    extra_path = test_deps_paths_for(args.python)
    print("conformance: %d files of %s on %s (%s), %d workers" % (len(files), tests_dir, args.target, args.impl,
                                                                args.jobs), flush=True)
    t0 = time.time()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = [pool.submit(run_file, f, args, tests_dir, outdir, extra_path) for f in files]
        for fut in concurrent.futures.as_completed(futs):
            rel, r = fut.result()
            results[rel] = r
            c = r["counts"]
            print("  %-50s %-18s %3d passed %3d failed %3d error %3d skipped  %5.1fs"
                  % (rel, r["status"], c["passed"], c["failed"], c["error"], c["skipped"], r["seconds"]), flush=True)
    summary = summarize(results, args, tests_dir, time.time() - t0)
    with open(os.path.join(outdir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    write_markdown(summary, os.path.join(outdir, "summary.md"))
    t = summary["totals"]
    print("conformance: " + ", ".join("%d %s" % (t[k], k) for k in OUTCOMES) + " in %ds" % summary["seconds"])
    v = summary.get("versus_numba_cuda")
    if v:
        print("conformance: cujit passes %d of the %d tests numba-cuda passes (%s%%)"
              % (v["cujit_passed_of_those"], v["numba_cuda_passed"], v["percent"]))
    print("conformance: details in %s" % os.path.join(outdir, "summary.md"))

    if args.impl == "numba":
        base = {"date": summary["date"], "machine": summary["machine"], "target": args.target,
                "numba_cuda_version": NUMBA_CUDA_VERSION, "totals": t,
                "passed": {f: sorted(i for i, x in r["tests"].items() if x["outcome"] == "passed")
                           for f, r in sorted(results.items())}}
        paths = [os.path.join(outdir, "baseline-%s.json" % args.target)]
        if args.write_baseline:
            if args.subset or args.files:
                sys.exit("conformance: --write-baseline needs all the files")
            paths.append(os.path.join(HERE, "baseline-%s.json" % args.target))
        for p in paths:
            with open(p, "w") as f:
                json.dump(base, f, indent=0, sort_keys=True)
                f.write("\n")
    if args.check_floor:
        with open(os.path.join(HERE, "floor.json")) as f:
            floor = json.load(f)
        key = args.target + ("-" + args.subset if args.subset else "")
        want = floor.get(key, 0)
        if t["passed"] < want:
            print("conformance: FAIL: %d tests passed, below the floor of %d (tools/conformance/floor.json, %r)"
                  % (t["passed"], want, key), file=sys.stderr)
            sys.exit(1)
        print("conformance: %d passed, floor %d (%s): ok" % (t["passed"], want, key))


if __name__ == "__main__":
    main()
