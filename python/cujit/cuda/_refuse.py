"""Names of numba-cuda's bfloat16 and fp8 modules, which cujit does not implement yet: they can
be imported (numba-cuda's test files and user code import them at module level), and using one
raises NotImplementedError naming it. cuda.is_bfloat16_supported() and is_fp8_supported() answer
False, so code that asks first never reaches them."""


class Refused:
    def __init__(self, qualname, what):
        self.__name__ = qualname.rpartition(".")[2]
        self.__qualname__ = qualname
        self._what = what

    def _refuse(self, *args, **kwargs):
        raise NotImplementedError("%s: cujit does not support %s yet" % (self.__qualname__, self._what))

    __call__ = __getitem__ = _refuse

    def __getattr__(self, attr):
        if attr.startswith("__") or attr == "_what":
            raise AttributeError(attr)
        self._refuse()

    def __repr__(self):
        return "<%s: not supported by cujit (%s)>" % (self.__qualname__, self._what)


def module_getattr(module_name, what):
    """A module-level __getattr__ (PEP 562) that answers every public name with a Refused."""
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError("module %r has no attribute %r" % (module_name, name))
        return Refused(module_name + "." + name, what)
    return __getattr__
