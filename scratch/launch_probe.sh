set -x
make build >/dev/null 2>&1 || { make build 2>&1 | tail -20; exit 1; }
PY=$(cat .python-path)
export PYTHONPATH=$PWD/python
for r in 1 2 3; do
  for w in 1array 3arrays2scalars; do
    $PY benchmarks/launch.py raw 10000 $w
    $PY benchmarks/launch.py cujit 10000 $w
    NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0 $PY benchmarks/launch.py cujit 10000 $w
  done
done
which perf && NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=1 perf record -g -o $OUT/perf.data $PY benchmarks/launch.py cujit 200000 1array && perf report -i $OUT/perf.data --no-children --sort dso,sym --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -60
