"""Stand-in for numba-cuda's ``numba.cuda.tests.support``, served by the conformance runner only.

The helpers the test files import (TestCase.assertPreciseEqual, captured_stdout,
override_config, ...), written here from their documented behaviour so that one stand-in serves
cujit and numba-cuda alike.
"""
import cmath
import contextlib
import enum
import io
import math
import os
import subprocess
import sys
import tempfile
import unittest
import warnings
from functools import cached_property

import numpy as np

IS_NUMPY_2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"

try:
    import cffi  # noqa: F401
    _HAS_CFFI = True
except ImportError:
    _HAS_CFFI = False
skip_unless_cffi = unittest.skipUnless(_HAS_CFFI, "requires cffi")
linux_only = unittest.skipIf(not sys.platform.startswith("linux"), "linux only test")
windows_only = unittest.skipIf(not sys.platform.startswith("win"), "Windows only test")
skip_unless_typeguard = unittest.skip("typeguard is not used by the conformance runner")
skip_if_typeguard = unittest.skipIf(False, "")


def expected_failure_py314(fn):
    return unittest.expectedFailure(fn) if sys.version_info >= (3, 14) else fn


def temp_directory(prefix):
    """A fresh directory for this process (under the runner's scratch folder when it set one)."""
    base = os.environ.get("CONFORMANCE_SCRATCH") or None
    return tempfile.mkdtemp(prefix=prefix + "-", dir=base)


def import_dynamic(modname):
    import importlib
    importlib.invalidate_caches()
    __import__(modname)
    return sys.modules[modname]


def ignore_internal_warnings():
    warnings.filterwarnings("ignore", module="typeguard")


@contextlib.contextmanager
def override_config(name, value):
    """Temporarily sets ``numba.cuda.config.<name>`` (which must exist)."""
    from numba.cuda import config
    old = getattr(config, name)
    setattr(config, name, value)
    try:
        yield
    finally:
        setattr(config, name, old)


@contextlib.contextmanager
def override_env_config(name, value):
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            del os.environ[name]
        else:
            os.environ[name] = old


def run_in_subprocess(code, flags=(), env=None, timeout=30):
    """Runs ``code`` in a new interpreter; returns (stdout, stderr), AssertionError on failure."""
    try:
        proc = subprocess.run([sys.executable, *flags, "-c", code], env=env, check=True,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.CalledProcessError as e:
        raise AssertionError("process failed with code %d: stderr:\n%s\n" % (e.returncode, e.stderr)) from e
    return proc.stdout, proc.stderr


def captured_stdout():
    return contextlib.redirect_stdout(io.StringIO())


def captured_stderr():
    return contextlib.redirect_stderr(io.StringIO())


def _family(x):
    if isinstance(x, np.ndarray):
        return "ndarray"
    if isinstance(x, enum.Enum):
        return "enum"
    if isinstance(x, (tuple, list)):
        return "sequence"
    if isinstance(x, (bool, np.bool_, int, str, np.integer, bytes, np.bytes_)):
        return "exact"
    if isinstance(x, (complex, np.complexfloating)):
        return "complex"
    if isinstance(x, (float, np.inexact)):
        return "approximate"
    return "unknown"


class TestCase(unittest.TestCase):
    longMessage = True

    @cached_property
    def random(self):
        return np.random.RandomState(42)

    def reset_module_warnings(self, module):
        if isinstance(module, str):
            module = sys.modules[module]
        module.__dict__.pop("__warningregistry__", None)

    @contextlib.contextmanager
    def assertTypingError(self):
        from numba.core.errors import TypingError
        with self.assertRaises(TypingError) as cm:
            yield cm

    @staticmethod
    def _strides_for_compare(arr):
        # Strides of 0- and 1-long dimensions do not matter; in items, not bytes.
        if arr.size == 0:
            return [0] * arr.ndim
        return [s / arr.itemsize for s, n in zip(arr.strides, arr.shape) if n > 1]

    def assertStridesEqual(self, first, second):
        self.assertEqual(first.shape, second.shape, "shapes differ")
        self.assertEqual(first.itemsize, second.itemsize, "itemsizes differ")
        self.assertEqual(self._strides_for_compare(first), self._strides_for_compare(second),
                         "strides differ")

    def assertPreciseEqual(self, first, second, prec="exact", ulps=1, msg=None,
                           ignore_sign_on_zero=False, abs_tol=None):
        """Equal in kind (array/sequence/exact/approximate), dtype, shape, strides and
        writeability, then in value: exactly, or within ``ulps`` units of the last place of
        ``prec`` ('single': 24 bits, 'double': 53); NaN equals NaN; the sign of zero counts."""
        try:
            self._precise(first, second, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
        except AssertionError as exc:
            text = str(exc)
        else:
            return
        self.fail("when comparing %s and %s: %s" % (first, second, text))

    def _precise(self, a, b, prec, ulps, msg, ignore_sign_on_zero, abs_tol):
        fa, fb = _family(a), _family(b)
        self.assertEqual(fa, fb, "Type Family mismatch. (%s != %s)%s" % (fa, fb, ": %s" % msg if msg else ""))
        if fa == "ndarray":
            self.assertEqual(a.dtype, b.dtype)
            self.assertEqual(a.ndim, b.ndim, "different number of dimensions")
            self.assertEqual(a.shape, b.shape, "different shapes")
            self.assertEqual(a.flags.writeable, b.flags.writeable, "different mutability")
            self.assertEqual(self._strides_for_compare(a), self._strides_for_compare(b), "different strides")
            for x, y in zip(a.flat, b.flat):
                self._precise(x, y, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            return
        if fa == "sequence":
            self.assertEqual(len(a), len(b), msg=msg)
            for x, y in zip(a, b):
                self._precise(x, y, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            return
        if fa == "enum":
            self.assertIs(a.__class__, b.__class__)
            self._precise(a.value, b.value, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            return
        if fa == "unknown":
            self.assertIs(a.__class__, b.__class__)
        exact = fa in ("exact", "unknown") or prec == "exact"
        if hasattr(a, "dtype") and hasattr(b, "dtype"):
            self.assertEqual(a.dtype, b.dtype)
        if isinstance(a, (bool, np.bool_)) != isinstance(b, (bool, np.bool_)):
            self.fail("Mismatching return types (%s vs. %s)" % (a.__class__, b.__class__))
        try:
            if cmath.isnan(a) and cmath.isnan(b):
                return
        except TypeError:
            pass
        if abs_tol is not None:
            if abs_tol == "eps":
                tol = np.finfo(type(a)).eps
            elif isinstance(abs_tol, float):
                tol = abs_tol
            else:
                raise ValueError('abs_tol is not "eps" or a float, found %s' % abs_tol)
            if abs(a - b) < tol:
                return
        delta = None
        if not exact:
            bits = {"single": 24, "double": 53}.get(prec)
            if bits is None:
                raise ValueError("unsupported precision %r" % (prec,))
            delta = 2.0 ** (ulps - bits - 1) * (abs(a) + abs(b))
        if isinstance(a, (complex, np.complexfloating)):
            self._number(a.real, b.real, delta, msg, ignore_sign_on_zero)
            self._number(a.imag, b.imag, delta, msg, ignore_sign_on_zero)
        elif isinstance(a, (np.timedelta64, np.datetime64)) and np.isnat(a):
            self.assertEqual(np.isnat(a), np.isnat(b))
        else:
            self._number(a, b, delta, msg, ignore_sign_on_zero)

    def _number(self, a, b, delta, msg, ignore_sign_on_zero):
        if delta is None or a == b == 0.0 or math.isinf(a) or math.isinf(b):
            self.assertEqual(a, b, msg=msg)
            if not ignore_sign_on_zero:
                try:
                    if math.copysign(1, a) != math.copysign(1, b):
                        self.fail(self._formatMessage(msg, "%s != %s" % (a, b)))
                except TypeError:
                    pass
        else:
            self.assertAlmostEqual(a, b, delta=delta, msg=msg)

    @staticmethod
    def run_test_in_subprocess(maybefunc=None, timeout=60, envvars=None):
        """numba-cuda reruns the decorated test in a child process; the runner already gives
        each file its own process, so the test runs in place."""
        def wrapper(func):
            return func
        return wrapper(maybefunc) if callable(maybefunc) else wrapper

    def make_dummy_type(self):
        self.skipTest("make_dummy_type needs Numba's extension API (not in the conformance runner)")


class MemoryLeakMixin:
    """numba-cuda checks NRT allocation counts around each test; the runner does not."""

    def disable_leak_check(self):
        pass


class CheckWarningsMixin:
    @contextlib.contextmanager
    def check_warnings(self, messages, category=RuntimeWarning):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        found = [str(w.message) for w in caught if issubclass(w.category, category)]
        for m in messages:
            self.assertTrue(any(m in f for f in found), "%r not in warnings %r" % (m, found))


class EnableNRTStatsMixin:
    pass
