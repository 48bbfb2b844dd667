"""The numba alias: after install_numba_alias(), `import numba`, `from numba import cuda,
vectorize, float32` and `numba.cuda.*` resolve to cujit, so course code runs unmodified.

Names cujit does not have yet raise ImportError/AttributeError naming what is missing, rather
than falling back to a real Numba (the two must never mix in one program).
"""
import importlib.abc
import importlib.machinery
import sys

from . import internals as _internals

_ALIASES = {
    "numba": "cujit",
    "numba.cuda": "cujit.cuda",
    "numba.cuda.random": "cujit.cuda.random",
    "numba.types": "cujit.types",
    "numba.typed": "cujit.typed",
    "numba.core": "cujit.cuda.core",
    "numba.core.types": "cujit.types",
    "numba.core.errors": "cujit.errors",
    "numba.core.config": "cujit.config",
    "numba.errors": "cujit.errors",
    "numba.np": "cujit.cuda.np",
    "numba.np.numpy_support": "cujit.numpy_support",
    # numba-cuda's submodules that user code imports.
    "numba.cuda.types": "cujit.types",
    "numba.cuda.core": "cujit.cuda.core",
    "numba.cuda.core.errors": "cujit.errors",
    "numba.cuda.core.config": "cujit.config",
    "numba.cuda.config": "cujit.config",
    "numba.cuda.errors": "cujit.errors",
    "numba.cuda.np": "cujit.cuda.np",
    "numba.cuda.np.numpy_support": "cujit.numpy_support",
    "numba.cuda.cudadrv": "cujit.cuda.cudadrv",
    "numba.cuda.cudadrv.driver": "cujit.cuda.cudadrv.driver",
    "numba.cuda.cudadrv.devicearray": "cujit.cuda.cudadrv.devicearray",
    "numba.cuda.cudadrv.devices": "cujit.cuda.cudadrv.devices",
    "numba.cuda.cudadrv.error": "cujit.cuda.cudadrv.error",
    "numba.cuda.cudadrv.nvrtc": "cujit.cuda.cudadrv.nvrtc",
    "numba.cuda.kernels": "cujit.cuda.kernels",
    "numba.cuda.kernels.transpose": "cujit.cuda.kernels.transpose",
    "numba.cuda.libdevice": "cujit.cuda.libdevice",
    "numba.cuda.libdevicefuncs": "cujit.cuda.libdevicefuncs",
    "numba.cuda.fp16": "cujit.cuda.fp16",
    "numba.cuda.bf16": "cujit.cuda.bf16",
    "numba.cuda._internal": "cujit.cuda._internal",
    "numba.cuda._internal.cuda_bf16": "cujit.cuda._internal.cuda_bf16",
    "numba.cuda._internal.cuda_fp16": "cujit.cuda._internal.cuda_fp16",
    "numba.cuda._internal.cuda_fp8": "cujit.cuda._internal.cuda_fp8",
    "numba.cuda.compiler": "cujit.cuda.compiler",
    "numba.cuda.cudadrv.linkable_code": "cujit.cuda.cudadrv.linkable_code",
    "numba.cuda.typing": "cujit.cuda.typing",
    "numba.cuda.typing.typeof": "cujit.cuda.typing.typeof",
    "numba.cuda.misc": "cujit.cuda.misc",
    "numba.cuda.misc.special": "cujit.cuda.misc.special",
    "numba.cuda.utils": "cujit.cuda.utils",
    "numba.cuda.args": "cujit.cuda.args",
    "numba.core.typing": "cujit.cuda.typing",
    "numba.core.typing.typeof": "cujit.cuda.typing.typeof",
    "numba.cuda.vector_types": "cujit.cuda.vector_types",
    "numba.cuda.simulator": "cujit.cuda.simulator",
    "numba.cuda.simulator.vector_types": "cujit.cuda.simulator.vector_types",
    "numba.cuda.api": "cujit.cuda.api",
    "numba.cuda.launchconfig": "cujit.cuda.launchconfig",
    "numba.cuda._compat": "cujit.cuda._compat",
    "numba.cuda.descriptor": "cujit.cuda.descriptor",
}
# Numba's extension API (overload, register_jitable, the lowering registries): cujit.extending.
_ALIASES.update((name, "cujit.extending") for name in _internals.EXTENDING_ALIASES)


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        return importlib.import_module(self.target)

    def exec_module(self, module):
        pass


class _InternalLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return _internals.InternalModule(spec.name)

    def exec_module(self, module):
        pass


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname in _ALIASES:
            return importlib.machinery.ModuleSpec(fullname, _AliasLoader(_ALIASES[fullname]))
        if _internals.is_internal(fullname):
            # Numba's internals: the module imports, its names say so when used.
            return importlib.machinery.ModuleSpec(fullname, _InternalLoader(), is_package=True)
        if fullname.startswith("numba.") or fullname.startswith("numba_cuda"):
            raise ImportError("cujit's numba alias has no module %r yet" % fullname)
        return None


def install_numba_alias():
    """Make `import numba` (and numba.cuda, numba.types, numba.core.errors) resolve to cujit."""
    for name in list(sys.modules):
        if name == "numba" or name.startswith("numba."):
            mod = sys.modules[name]
            if not getattr(mod, "__name__", "").startswith("cujit") and not isinstance(
                    mod, _internals.InternalModule):
                raise RuntimeError("the real numba is already imported; install the alias before "
                                   "anything imports numba")
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
    for alias, target in _ALIASES.items():
        sys.modules[alias] = importlib.import_module(target)
    # Numba's internal modules whose parent is one of cujit's: `from numba.cuda.cudadrv import
    # nvrtc` looks the name up on cujit's module (and then imports cujit.cuda.cudadrv.nvrtc,
    # which the finder never sees), so they are made here.
    for name in _internals.INTERNAL_PACKAGES:
        parent, _, child = name.rpartition(".")
        if parent in _ALIASES and name not in sys.modules:
            sys.modules[name] = _internals.InternalModule(name)
            if not hasattr(sys.modules[parent], child):
                setattr(sys.modules[parent], child, sys.modules[name])
    # As an import would, make each submodule an attribute of its parent (`import numba.core.config`
    # then `numba.core.config.X`), where the parent has no such name of its own.
    for alias in _ALIASES:
        parent, _, child = alias.rpartition(".")
        if parent and not hasattr(sys.modules[parent], child):
            setattr(sys.modules[parent], child, sys.modules[alias])
