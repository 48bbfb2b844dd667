"""The BLAS/LAPACK library compiled CPU code calls for np.dot and np.linalg.

NumPy's wheels bundle OpenBLAS (with LAPACK, 64-bit integers, symbols like scipy_dgemm_64_) in
numpy.libs/ beside the package (numpy/.dylibs on macOS); its file name carries a hash, so it is
found by pattern. CUJIT_LAPACK names another ILP64 library. Nothing is loaded here: the core
opens the library the first time compiled code needs a routine (runtime/lapack.cpp), and raises
a clear error when there is none.
"""
import glob
import os


def candidates():
    env = os.environ.get("CUJIT_LAPACK")
    if env:
        return [env]
    import numpy
    pkg = os.path.dirname(numpy.__file__)
    found = []
    for pattern in ("*openblas64*", "*openblas*", "*lapack*"):
        for folder in (os.path.join(os.path.dirname(pkg), "numpy.libs"), os.path.join(pkg, ".dylibs")):
            found += sorted(glob.glob(os.path.join(folder, "lib" + pattern + ".so*")))
            found += sorted(glob.glob(os.path.join(folder, "lib" + pattern + ".dylib")))
    return found


def register(core):
    for path in candidates():
        core.set_lapack_library(path)
        return
