"""python -m cujit.run script.py [args...]: run a program written for Numba on cujit, unchanged
(the numba alias is installed first)."""
import runpy
import sys

from .alias import install_numba_alias


def main():
    if len(sys.argv) < 2:
        print("usage: python -m cujit.run script.py [args...]", file=sys.stderr)
        return 2
    install_numba_alias()
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
