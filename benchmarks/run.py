"""make bench: every benchmark, for cujit and its anchors, each tool in its own process, on the
machine's GPU. Writes a table to benchmarks/RESULTS.md (device, date, absolute figures, ratios).
"""
import datetime
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(script, *args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, os.path.join(HERE, script), *args], capture_output=True, text=True, env=env, timeout=900)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        return {"error": (p.stderr or p.stdout).strip().splitlines()[-1:] or ["no output"]}
    return json.loads(lines[-1])


def device_name():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60).stdout.strip()
        return out or "unknown"
    except OSError:
        return "no GPU (nvidia-smi not found)"


def main():
    rows = []
    results = {tool: run("hidden_layer.py", tool) for tool in ("cujit", "numba")}
    for tool, r in results.items():
        print(tool, r, flush=True)
    c, nb = results["cujit"], results["numba"]
    def cell(r):
        if "error" in r:
            return "error: %s" % r["error"][0][:80]
        return "%.3f s%s" % (r["best_s"], "" if r["correct"] else " (WRONG)")
    ratio = ("%.2fx" % (c["best_s"] / nb["best_s"])) if "best_s" in c and "best_s" in nb else "-"
    rows.append("| hidden layer, n = 100,000,000, host in/out (best of 5) | %s | %s | %s | under 1 s (course) |"
                % (cell(c), cell(nb), ratio))
    text = ["# Benchmark results", "",
            "Written by `make bench` (benchmarks/run.py). Each tool runs in its own process; all",
            "figures in one table come from the same run on the same machine.", "",
            "- device: %s" % device_name(),
            "- date: %s" % datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "",
            "| workload | cujit | numba-cuda | cujit / numba-cuda | goal |",
            "| --- | --- | --- | --- | --- |"] + rows + [""]
    with open(os.path.join(HERE, "RESULTS.md"), "w") as f:
        f.write("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
