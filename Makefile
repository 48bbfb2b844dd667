# make test: set up, build, run the whole suite (simulator always; the GPU too where one exists).
# make demo: set up, build, run the course's hidden layer and a kernel example.
# make bench: the benchmarks (on a GPU machine), written to benchmarks/RESULTS.md.
# make gpu-check: what the GPU machine runs in one call: test + bench + the conformance run (on
#   numba-cuda too where it is installed, for the baseline).
# make test-install: pip install from this checkout into a fresh venv, used outside the tree; a
#   build with the CUDA Toolkit hidden.
# make test-asan: the whole suite against an ASan + UBSan build of the extension (build/asan).
# make conformance: numba-cuda 0.30's own test files against cujit (docs/conformance.md).
SHELL := /bin/bash
BUILD_DIR ?= build/local
JOBS ?= $(shell nproc)
PYTEST_ARGS ?=

.PHONY: all setup build build-asan test test-asan test-cpp wheel test-install demo bench bench-sim gpu-check conformance conformance-numba clean

all: build

setup:
	@tools/setup.sh > .python-path

build: setup
	@PY=$$(cat .python-path); \
	GEN=""; command -v ninja >/dev/null 2>&1 && GEN="-G Ninja"; \
	[ -f $(BUILD_DIR)/CMakeCache.txt ] || cmake -S . -B $(BUILD_DIR) $$GEN -DPython_EXECUTABLE=$$PY -DCMAKE_BUILD_TYPE=Release >/dev/null; \
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: build test-cpp
	@PY=$$(cat .python-path); PYTHONPATH=$(CURDIR)/python $$PY -m pytest -q $(PYTEST_ARGS) tests

# The C++ unit tests of the front end and the toolchain (standalone programs, no Python), then a
# short run of the front-end fuzz target (clang's libFuzzer with ASan and UBSan; FUZZ_SECONDS).
FUZZ_SECONDS ?= 20
test-cpp:
	@bash tests_cpp/run.sh > build/tests_cpp.log 2>&1 && bash tests_cpp/toolchain_run.sh >> build/tests_cpp.log 2>&1 \
	  && echo "C++ tests: $$(grep -c PASSED build/tests_cpp.log) programs passed" || { tail -40 build/tests_cpp.log; exit 1; }
	@bash tests_cpp/fuzz_run.sh $(FUZZ_SECONDS) > build/fuzz.log 2>&1 \
	  && echo "fuzz: $$(grep -o 'Done [0-9]* runs' build/fuzz.log) without a crash" || { tail -60 build/fuzz.log; exit 1; }

# The extension built with AddressSanitizer and UBSan (CMake option CUJIT_SANITIZE) in build/asan,
# beside build/local: it lands in build/asan/pkg/cujit/ with a copy of the Python package, and
# tools/asan_run.sh preloads the sanitizer runtimes into the uninstrumented Python and points
# PYTHONPATH at that copy. A report stops the process, so it fails the test it happened in.
build-asan: setup
	@PY=$$(cat .python-path) JOBS=$(JOBS) tools/asan_build.sh

# Reports are written to build/asan/reports/ (log_path), not stderr: a test that captures a
# child's output, or pytest's own capture, would hide them. Any error report fails the target;
# warnings (ASan's notes on the simulator's fiber stacks, docs/ARCHITECTURE.md) are listed.
ASAN_REPORTS = $(CURDIR)/build/asan/reports
ASAN_TESTS ?= tests
test-asan: build-asan
	@rm -rf $(ASAN_REPORTS); mkdir -p $(ASAN_REPORTS); PY=$$(cat .python-path); \
	ASAN_OPTIONS=log_path=$(ASAN_REPORTS)/asan UBSAN_OPTIONS=log_path=$(ASAN_REPORTS)/ubsan \
	  tools/asan_run.sh $$PY -m pytest -q $(PYTEST_ARGS) $(ASAN_TESTS); rc=$$?; \
	bad=$$(grep -l -E 'ERROR: |runtime error:|CHECK failed' $(ASAN_REPORTS)/* 2>/dev/null); \
	[ -z "$$(ls -A $(ASAN_REPORTS))" ] || { echo "sanitizer warnings:"; cat $(ASAN_REPORTS)/* | grep WARNING | sed 's/^==[0-9]*==//' | sort | uniq -c; }; \
	if [ -n "$$bad" ]; then cat $$bad; echo "sanitizer errors: $$bad"; exit 1; fi; exit $$rc

# A manylinux wheel of this checkout in dist/ (tools/make_wheel.sh: pip wheel offline, then
# auditwheel repair). It compiles the extension again, in build/<wheel tag> (about 3 CPU-minutes
# the first time; kept, so a rebuild only compiles what changed).
wheel: setup
	@CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) tools/make_wheel.sh

# make wheel's wheel installed offline into a fresh venv and run from outside the source tree:
# make demo's program, a kernel on the simulator, a @jit function (tests/test_pip_install.py);
# then the extension built with the CUDA Toolkit hidden in a mount namespace, running @jit, a CPU
# ufunc and a simulated kernel (tests/test_build_without_cuda.py). CI runs it after make test.
test-install: wheel
	@PY=$$(cat .python-path); CUJIT_TEST_PIP_INSTALL=1 \
	  PYTHONPATH=$(CURDIR)/python $$PY -m pytest -q $(PYTEST_ARGS) tests/test_pip_install.py tests/test_build_without_cuda.py

demo: build
	@PY=$$(cat .python-path); PYTHONPATH=$(CURDIR)/python $$PY examples/demo.py

bench: build
	@PY=$$(cat .python-path); PYTHONPATH=$(CURDIR)/python $$PY benchmarks/run.py

# The simulator rows of the benchmarks (a CPU machine; beside numba-cuda's simulator).
bench-sim: build
	@PY=$$(cat .python-path); PYTHONPATH=$(CURDIR)/python $$PY benchmarks/run.py --sim

# numba-cuda 0.30's test files (cudapy, cudadrv, doc_examples; tools/conformance/excluded.txt
# leaves out those about Numba's internals) against cujit through the numba alias, one process
# per file (CONFORMANCE_JOBS workers, a timeout each), on the simulator unless a GPU is found
# (CONFORMANCE_TARGET=sim|gpu). Fails when fewer tests pass than tools/conformance/floor.json says.
# Results: build/conformance/cujit-<target>/summary.md.
CONFORMANCE_JOBS ?= 2
CONFORMANCE_TARGET ?=
CONFORMANCE_ARGS ?=
conformance: build
	@PY=$$(cat .python-path); $$PY tools/conformance/run.py --jobs $(CONFORMANCE_JOBS) \
	  $(if $(CONFORMANCE_TARGET),--target $(CONFORMANCE_TARGET)) --check-floor $(CONFORMANCE_ARGS)

# The same files on numba-cuda itself (NUMBA_PYTHON: a Python with numba-cuda 0.30.4 installed;
# pytest is added beside it under build/conformance/ when it lacks one): the baseline the cujit
# run is measured against, written to tools/conformance/baseline-<target>.json.
NUMBA_PYTHON ?= python3
conformance-numba:
	@python3 tools/conformance/run.py --impl numba --python $(NUMBA_PYTHON) --jobs $(CONFORMANCE_JOBS) \
	  $(if $(CONFORMANCE_TARGET),--target $(CONFORMANCE_TARGET)) --write-baseline $(CONFORMANCE_ARGS)

gpu-check: build
	@PY=$$(cat .python-path); O=$${OUT:-.}; \
	PYTHONPATH=$(CURDIR)/python $$PY -m pytest -q -ra $(PYTEST_ARGS) tests > $$O/test.log 2>&1; rc=$$?; tail -25 $$O/test.log; \
	PYTHONPATH=$(CURDIR)/python $$PY benchmarks/run.py > $$O/bench.log 2>&1; tail -20 $$O/bench.log; \
	cp benchmarks/RESULTS.md $$O/ 2>/dev/null; \
	$$PY tools/conformance/run.py --impl numba --target gpu --jobs 4 --write-baseline > $$O/conformance.log 2>&1; \
	tail -3 $$O/conformance.log; \
	PYTHONPATH=$(CURDIR)/python $$PY tools/conformance/run.py --target gpu --jobs 4 --check-floor \
	  >> $$O/conformance.log 2>&1 || rc=1; tail -5 $$O/conformance.log; \
	cp build/conformance/numba-gpu/summary.json $$O/conformance-numba-gpu.json 2>/dev/null; \
	cp build/conformance/cujit-gpu/summary.json $$O/conformance-cujit-gpu.json 2>/dev/null; \
	cp tools/conformance/baseline-gpu.json $$O/ 2>/dev/null; exit $$rc

clean:
	rm -rf build python/cujit/_core*.so .python-path
