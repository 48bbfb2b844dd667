"""Progress lines for compiles that make the user wait.

The C++ core calls ``start(what)`` just before it runs NVRTC or the host compiler (a
``CompileProgress`` in src/bindings/common.cpp) and ``done(ok)`` on the returned token after. The
compile itself runs without the GIL, so the timer thread started here can print meanwhile. A
compile that ends before ``config.COMPILE_PROGRESS_AFTER`` seconds (1 by default) prints nothing;
a longer one prints

    cujit: compiling kernel f(array(float32, 1d, C)) ...
    cujit: compiled kernel f(array(float32, 1d, C)) in 2.31 s

on sys.stderr, which Jupyter shows under the cell. A disk-cache hit is fast and prints nothing.
"""

import sys
import threading
import time

from . import config


class _Compile:
    def __init__(self, what):
        self.what = what
        self.t0 = time.perf_counter()
        self.lock = threading.Lock()
        self.shown = False
        self.finished = False
        self.timer = None

    def show(self):
        with self.lock:
            if self.finished or self.shown:
                return
            self.shown = True
            _write("cujit: compiling %s ..." % self.what)

    def done(self, ok=True):
        with self.lock:
            self.finished = True
            if self.timer is not None:
                self.timer.cancel()
            if not self.shown:
                return
            seconds = time.perf_counter() - self.t0
            if ok:
                _write("cujit: compiled %s in %.2f s" % (self.what, seconds))
            else:
                _write("cujit: compiling %s failed after %.2f s" % (self.what, seconds))


def _write(line):
    err = sys.stderr
    if err is None:  # pythonw and some embedders have no stderr
        return
    try:
        err.write(line + "\n")
        err.flush()
    except (OSError, ValueError):  # a closed or broken stream: the compile goes on regardless
        pass


def start(what):
    """Called by the core as a compile begins; returns the token whose ``done(ok)`` ends it."""
    c = _Compile(what)
    after = config.COMPILE_PROGRESS_AFTER
    if after is None:
        return c
    if after <= 0:
        c.show()
        return c
    c.timer = threading.Timer(after, c.show)
    c.timer.daemon = True
    c.timer.start()
    return c
