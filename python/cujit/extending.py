"""numba.extending (also numba.core.extending and numba.cuda.extending under the alias): Numba's
extension API.

cujit compiles Python source with its own C++ compiler, which never calls back into Python while
it compiles (docs/ARCHITECTURE.md, decision 2), so Numba's typing and lowering hooks have nothing
to attach to. What can work does:

- ``register_jitable``: the function stays callable from Python, and jitted code (kernels,
  device functions, ``@jit`` functions) that calls it compiles it as a device function.

Everything else exists, so that modules using it import. Registering decorators (``overload``,
``type_callable``, ``lower_builtin``, ``register_model``, ...) record the registration and return
what they decorate; the registration takes no effect, and jitted code that calls a function
overloaded this way is refused at compile time with a message naming ``overload``. Names that do
something when called outside a decorator (``intrinsic`` functions called from Python, ``box``
helpers, ...) raise NotImplementedError naming themselves.
"""
import functools
import weakref

# Functions given an implementation through the extension API (overload and friends): the
# globals snapshot (decorators._classify) names the API in the compile error of a call to one.
_EXTENDED = weakref.WeakKeyDictionary()


def _refuse(name):
    raise NotImplementedError(
        "numba.extending.%s: cujit does not support Numba's extension API (its compiler types "
        "and generates code itself and never calls back into Python)" % name)


def extension_api_of(func):
    """The name of the extension-API decorator `func` was registered with, or None."""
    try:
        return _EXTENDED.get(func)
    except TypeError:  # not weakly referenceable
        return None


def _mark(target, api):
    try:
        _EXTENDED[target] = api
    except TypeError:
        pass


# ---- What works ----

class _Jitable:
    """A ``register_jitable`` function: called from Python it is the function itself; jitted
    code that calls it compiles it as a device function."""

    def __init__(self, func):
        self.py_func = func
        functools.update_wrapper(self, func)
        from .decorators import source
        source(func)  # the text now (as cuda.jit(device=True) reads it)

    def __call__(self, *args, **kwargs):
        return self.py_func(*args, **kwargs)

    def __repr__(self):
        return "<cujit register_jitable function %s>" % self.py_func.__name__


def register_jitable(*args, **kwargs):
    """``@register_jitable`` or ``@register_jitable(**options)``: a plain Python function that
    jitted code may call (compiled as a device function there)."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _Jitable(args[0])
    return _Jitable


def is_jitted(function):
    """True for a function compiled by cujit (a kernel, device function or @jit function)."""
    from .cuda.dispatcher import DeviceFunction, Dispatcher
    from .cpu import CPUDispatcher
    return isinstance(function, (DeviceFunction, Dispatcher, CPUDispatcher))


# ---- Registering decorators: accepted, without effect ----

def _registering(api, marks_target=False):
    def decorator_factory(*args, **kwargs):
        target = args[0] if args else None
        if marks_target and target is not None:
            _mark(target, api)

        def decorate(fn):
            return fn
        return decorate
    decorator_factory.__name__ = api
    decorator_factory.__doc__ = ("numba.extending.%s: accepted so that modules using it import; the "
                                 "registration has no effect in cujit (a call that needs it is "
                                 "refused at compile time)." % api)
    return decorator_factory


overload = _registering("overload", marks_target=True)
overload_method = _registering("overload_method")
overload_attribute = _registering("overload_attribute")
overload_classmethod = _registering("overload_classmethod")
type_callable = _registering("type_callable", marks_target=True)
lower_builtin = _registering("lower_builtin")
lower_getattr = _registering("lower_getattr")
lower_getattr_generic = _registering("lower_getattr_generic")
lower_setattr = _registering("lower_setattr")
lower_setattr_generic = _registering("lower_setattr_generic")
lower_cast = _registering("lower_cast")
lower_constant = _registering("lower_constant")
register_model = _registering("register_model")
box = _registering("box")
unbox = _registering("unbox")
reflect = _registering("reflect")
infer = _registering("infer")
infer_global = _registering("infer_global", marks_target=True)
infer_getattr = _registering("infer_getattr")


def make_attribute_wrapper(typeclass, struct_attr, python_attr):
    """Accepted without effect: cujit has no data models for user types."""


class _Registry:
    """``typeof_impl``, a registry with ``register(cls)`` (accepted, without effect), and, called,
    Numba's ``typeof_impl(value, context)``: NotImplementedError."""

    def __init__(self, name):
        self._name = name

    def register(self, *args, **kwargs):
        def decorate(fn):
            return fn
        return decorate

    def __call__(self, *args, **kwargs):
        _refuse(self._name)


typeof_impl = _Registry("typeof_impl")
as_numba_type = _Registry("as_numba_type")


class _Intrinsic:
    """An ``@intrinsic`` function: Numba generates its code from LLVM IR, which cujit does not
    have. Calling it (from Python or from jitted code) is refused."""

    def __init__(self, name, defn, **kwargs):
        self._name = name
        self._defn = defn
        functools.update_wrapper(self, defn)
        _mark(self, "intrinsic")

    def __call__(self, *args, **kwargs):
        _refuse("intrinsic (%s)" % self._name)


def intrinsic(*args, **kwargs):
    """``@intrinsic`` or ``@intrinsic(prefer_literal=...)``: the function exists; using it raises
    NotImplementedError (cujit has no LLVM IR to generate it from)."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _Intrinsic(args[0].__name__, args[0])
    return lambda fn: _Intrinsic(fn.__name__, fn, **kwargs)


class NativeValue:
    def __init__(self, value, is_error=None, cleanup=None):
        _refuse("NativeValue")


def sentry_literal_args(*args, **kwargs):
    _refuse("sentry_literal_args")


class SentryLiteralArgs:
    def __init__(self, *args, **kwargs):
        _refuse("SentryLiteralArgs")


class BoundLiteralArgs:
    def __init__(self, *args, **kwargs):
        _refuse("BoundLiteralArgs")


def get_cython_function_address(module_name, function_name):
    _refuse("get_cython_function_address")


def include_path():
    _refuse("include_path")


class _Models:
    """numba.core.datamodel.models: the model classes exist, to subclass; using one raises."""

    class _Model:
        def __init__(self, *args, **kwargs):
            _refuse("models.%s" % type(self).__name__)

    class DataModel(_Model):
        pass

    class PrimitiveModel(_Model):
        pass

    class ProxyModel(_Model):
        pass

    class StructModel(_Model):
        pass

    class OpaqueModel(_Model):
        pass

    class PointerModel(_Model):
        pass

    class ArrayModel(_Model):
        pass


models = core_models = _Models
StructModel = _Models.StructModel


class Registry:
    """numba.cuda.core.imputils.Registry and the typing registries (cudadecl.registry,
    cudaimpl.registry): every registration is accepted without effect, as the decorators above."""

    def __init__(self, name="registry", *args, **kwargs):
        self.name = name

    def register(self, item):  # @registry.register on a template class
        return item

    register_attr = register

    def register_global(self, val=None, typ=None, **kwargs):
        if typ is not None:
            return None
        return lambda item: item

    def __getattr__(self, attr):  # lower, lower_getattr, lower_cast, lower_constant, ...
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _registering(attr)


# numba.cuda.cudaimpl and numba.cuda.cudadecl: their registries and decorators.
registry = Registry()
lower = registry.lower
lower_attr = registry.lower_getattr
lower_constant = registry.lower_constant
register = registry.register
register_attr = registry.register_attr
register_global = registry.register_global


class _Template:
    """The typing templates (AttributeTemplate, ConcreteTemplate, AbstractTemplate, ...): classes
    to subclass; Numba's typing machinery would instantiate them, cujit's never does."""

    def __init__(self, *args, **kwargs):
        _refuse("typing templates (%s)" % type(self).__name__)


class AttributeTemplate(_Template):
    pass


class ConcreteTemplate(_Template):
    pass


class AbstractTemplate(_Template):
    pass


class CallableTemplate(_Template):
    pass


def signature(return_type, *args, **kwargs):
    from .types import Signature
    return Signature(return_type, args)
