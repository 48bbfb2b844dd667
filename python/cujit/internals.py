"""Numba's internal modules (numba.cuda.core.ir, numba.cuda.cudadrv.nvvm, numba.cuda.codegen,
...), which cujit does not have: it parses, types and generates code itself (C++ through
NVRTC). Under the alias each such module imports, and each name taken from it exists: a class
(so that code subclassing it imports) which raises NotImplementedError naming it when
instantiated or called. numba.cuda.core.imputils, cudaimpl, cudadecl and typing.templates are
served by cujit.extending instead (their registries accept registrations without effect)."""
import types as _pytypes

# The modules served this way (with their submodules), and the alias names served by
# cujit.extending (alias.py reads both).
INTERNAL_PACKAGES = (
    "numba.core.target_extension", "numba.core.datamodel",
    "numba.cuda.core.ir", "numba.cuda.core.ir_utils", "numba.cuda.core.analysis",
    "numba.cuda.core.annotations", "numba.cuda.core.bytecode", "numba.cuda.core.caching",
    "numba.cuda.core.callconv", "numba.cuda.core.compiler", "numba.cuda.core.compiler_machinery",
    "numba.cuda.core.controlflow", "numba.cuda.core.inline_closurecall", "numba.cuda.core.options",
    "numba.cuda.core.pythonapi", "numba.cuda.core.rewrites", "numba.cuda.core.typed_passes",
    "numba.cuda.core.untyped_passes", "numba.cuda.core.tracing", "numba.cuda.core.base",
    "numba.cuda.codegen", "numba.cuda.cloudpickle", "numba.cuda.cuda_paths", "numba.cuda.datamodel",
    "numba.cuda.deviceufunc", "numba.cuda.flags",
    "numba.cuda.memory_management", "numba.cuda.serialize", "numba.cuda.typeconv", "numba.cuda.cgutils",
    "numba.cuda.cudadrv.nvvm", "numba.cuda.cudadrv.dummyarray",
    "numba.cuda.target", "numba.cuda.stubs", "numba.cuda.models", "numba.cuda.lowering",
)
EXTENDING_ALIASES = (
    "numba.extending", "numba.core.extending", "numba.cuda.extending", "numba.cuda.core.imputils",
    "numba.cuda.cudaimpl", "numba.cuda.cudadecl", "numba.cuda.typing.templates",
    "numba.core.imputils", "numba.core.typing.templates",
)


def is_internal(fullname):
    return any(fullname == p or fullname.startswith(p + ".") for p in INTERNAL_PACKAGES)


class _MissingMeta(type):
    def __getattr__(cls, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _missing(cls.__module__, cls.__qualname__ + "." + attr)

    def __repr__(cls):
        return "<%s.%s: Numba internals, not in cujit>" % (cls.__module__, cls.__qualname__)


class _Missing(metaclass=_MissingMeta):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "%s.%s is part of Numba's internals, which cujit does not have (it parses, types and "
            "generates code itself)" % (type(self).__module__, type(self).__qualname__))


_CACHE = {}


def _missing(module, qualname):
    key = (module, qualname)
    if key not in _CACHE:
        _CACHE[key] = _MissingMeta(qualname.rpartition(".")[2], (_Missing,),
                                   {"__module__": module, "__qualname__": qualname})
    return _CACHE[key]


class InternalModule(_pytypes.ModuleType):
    """One of Numba's internal modules: every public name is a placeholder."""

    def __init__(self, name):
        super().__init__(name, __doc__)
        self.__path__ = []  # a package: its submodules are served the same way

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        return _missing(self.__name__, attr)
