"""numba.cuda.libdevicefuncs: the table of libdevice functions, in numba-cuda's shape.

``functions['__nv_sinf']`` is ``(float32, [arg('a', float32, False)])``: the return type (``void``
for none) and the parameters, each with its ``name``, its type ``ty`` and ``is_ptr``, true for a
pointer parameter, which is an output: the Python-level function returns it after the value.
The table is the compiler's own (src/compiler/libdevice.def), made from libdevice's bitcode.
"""

from collections import namedtuple

from .. import _core
from .. import types as _types

arg = namedtuple("arg", ("name", "ty", "is_ptr"))

functions = {}
for _name, _ret, _params, _sim in _core.libdevice_functions():
    functions["__nv_" + _name] = (getattr(_types, _ret),
                                  [arg(n, getattr(_types, t), p) for n, t, p in _params])
del _name, _ret, _params, _sim


def create_signature(retty, args):
    """The Python-level signature of a libdevice function: the non-pointer parameters in, and
    the return value followed by each pointer output out (a Tuple, or a UniTuple where all
    members have one type; the value alone where there are no outputs)."""
    outputs = [a.ty for a in args if a.is_ptr]
    if not outputs:
        return_type = retty
    else:
        members = ([] if retty == _types.void else [retty]) + outputs
        return_type = _types.Tuple(members)  # a UniTuple where the members have one type
    return _types.Signature(return_type, [a.ty for a in args if not a.is_ptr])
