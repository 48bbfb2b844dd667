# Build, the GPU suite in 10 parallel groups, then conformance on the GPU and the benchmarks.
make build >/dev/null 2>&1 || { make build 2>&1 | tail -30; exit 1; }
PY=$(cat .python-path)
export PYTHONPATH=$PWD/python
ls tests/test_*.py > /tmp/files; split -n r/10 /tmp/files /tmp/grp_
for g in /tmp/grp_*; do (timeout 420 $PY -m pytest -q -rfE --tb=short -k "not sim" -p no:cacheprovider $(cat $g) > $OUT/$(basename $g).log 2>&1; echo "rc=$?" >> $OUT/$(basename $g).log) & done; wait
for g in $OUT/grp_*.log; do tail -1 $g | grep -v 'rc=0' && echo "$g" ; done
grep -h -E '^(FAILED|ERROR)' $OUT/grp_*.log | head -40
grep -h -E ' passed| failed' $OUT/grp_*.log
if [ "${CONF:-1}" = 1 ]; then
  timeout 240 $PY tools/conformance/run.py --target gpu --jobs 14 > $OUT/conf.log 2>&1; tail -5 $OUT/conf.log
  cp build/conformance/cujit-gpu/summary.json $OUT/ 2>/dev/null
fi
if [ "${BENCH:-0}" = 1 ]; then timeout 200 $PY benchmarks/run.py > $OUT/bench.log 2>&1; tail -5 $OUT/bench.log; cp benchmarks/RESULTS.md $OUT/ 2>/dev/null; fi
