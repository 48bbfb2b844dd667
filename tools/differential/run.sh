#!/usr/bin/env bash
# Differential checks against real Numba (not part of make test: they need a Python with numba).
#   tools/differential/run.sh NUMBA_PYTHON [SEED...]
# scalar_fuzz.py: random scalar expressions over 13 argument types in @njit functions, run by
# NUMBA_PYTHON (numba) and by this checkout's cujit; prints each function whose results differ
# (value or Python type; both raising counts as agreeing). Known, judged differences: Numba's
# results where C leaves them undefined (shift counts >= 64, out-of-range float -> int casts,
# math.ceil/floor/trunc of a uint64 above 2**53 through a float), and calls cujit takes where
# Numba's CPU target has no implementation (math.fmod, math.remainder, math.gcd of floats it
# truncates: cujit refuses those as Python does).
# semantics.py: ~45 hand-written programs (unification, loops, tuples, containers, strings).
set -u
NUMBA_PY=$1; shift
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
CUJIT_PY=${CUJIT_PYTHON:-$ROOT/.venv/bin/python}
W=$(mktemp -d)
run_pair() {  # program -> prints differing lines
  "$NUMBA_PY" "$1" numba > "$W/n.txt" 2>/dev/null
  PYTHONPATH=$ROOT/python "$CUJIT_PY" "$1" cujit > "$W/c.txt" 2>/dev/null
  python3 - "$W/n.txt" "$W/c.txt" <<'PY'
import sys
def load(p):
    return dict(l.split(" ", 1) for l in open(p).read().splitlines() if " " in l and not l.startswith("cujit:"))
n, c = load(sys.argv[1]), load(sys.argv[2])
bad = [k for k in n if not (n[k].startswith("EXC") and c.get(k, "").startswith("EXC")) and n[k] != c.get(k)]
for k in bad:
    print("%s\n   numba: %s\n   cujit: %s" % (k, n[k][:160], c.get(k, "MISSING")[:160]))
print("compared %d, differ %d" % (len(n), len(bad)))
PY
}
run_pair "$HERE/semantics.py"
for s in "${@:-1 2 3}"; do
  python3 "$HERE/scalar_fuzz.py" gen "$s" 10 10 > "$W/p$s.py"
  echo "seed $s:"; run_pair "$W/p$s.py"
done
rm -rf "$W"
