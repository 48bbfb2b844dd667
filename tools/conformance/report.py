"""The per-file table of docs/conformance.md, from the summaries of a numba-cuda run and a cujit
run on the same files and machine (run.py writes them to build/conformance/*/summary.json).

    python tools/conformance/report.py NUMBA_SUMMARY.json CUJIT_SUMMARY.json > table.md

The reference may also be a baseline file (tools/conformance/baseline-<target>.json: the tests
numba-cuda passed, per file), so the table can be redrawn after a cujit run alone.
"""
import json
import sys


def main():
    with open(sys.argv[1]) as f:
        ref = json.load(f)
    if "passed" in ref and "files" not in ref:   # a baseline: the passed tests per file
        ref = {"files": {name: {"tests": {t: {"outcome": "passed"} for t in tests}}
                         for name, tests in ref["passed"].items()}}
    with open(sys.argv[2]) as f:
        cj = json.load(f)
    files = sorted(set(cj["files"]) & set(ref["files"]))
    rows = ["| file | numba-cuda passed | cujit passed | of numba-cuda's | cujit failed + errors | cujit skipped |",
            "|---|---:|---:|---:|---:|---:|"]
    n_ref = n_cj = n_both = 0
    for name in files:
        r, c = ref["files"][name], cj["files"][name]
        ref_pass = {i for i, t in r["tests"].items() if t["outcome"] == "passed"}
        cj_pass = {i for i, t in c["tests"].items() if t["outcome"] == "passed"}
        both = len(ref_pass & cj_pass)
        n_ref += len(ref_pass)
        n_cj += len(cj_pass)
        n_both += both
        cc = c["counts"]
        status = "" if c["status"] == "ok" else " (%s)" % c["status"]
        rows.append("| %s%s | %d | %d | %d | %d | %d |" % (name, status, len(ref_pass), len(cj_pass), both,
                                                           cc["failed"] + cc["error"] + cc["xpassed"],
                                                           cc["skipped"] + cc["xfailed"]))
    rows.append("| **all %d files** | **%d** | **%d** | **%d (%.1f%%)** | | |"
                % (len(files), n_ref, n_cj, n_both, 100.0 * n_both / max(n_ref, 1)))
    print("\n".join(rows))


if __name__ == "__main__":
    main()
