"""numba.cuda.utils: ``PYVERSION``, which test and user code compare against."""
import sys

PYVERSION = sys.version_info[:2]
