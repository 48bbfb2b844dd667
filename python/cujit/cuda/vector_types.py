"""numba.cuda.vector_types (and numba.cuda.simulator.vector_types): the table of CUDA's vector
types (float32x4, alias float4, ...). cujit's compiler has no vector types yet: the table exists
with numba-cuda's fields, and constructing one raises NotImplementedError naming it (in jitted
code, the compile error names its type)."""

from .. import types as _types


class VectorType:
    """One CUDA vector type: ``name`` (float32x4), ``base_type`` (float32), ``num_elements``,
    ``aliases`` (float4). ``user_facing_object`` is itself."""

    def __init__(self, name, base_type, num_elements, aliases):
        self.name = self.__name__ = name
        self.base_type = base_type
        self.num_elements = num_elements
        self.aliases = aliases

    @property
    def user_facing_object(self):
        return self

    def __call__(self, *args):
        raise NotImplementedError("cujit does not support CUDA vector types (%s) yet" % self.name)

    def __repr__(self):
        return "<CUDA vector type %s (not supported by cujit yet)>" % self.name


_ALIAS_STEM = {"int8": "char", "int16": "short", "int32": "int", "int64": "long", "uint8": "uchar",
               "uint16": "ushort", "uint32": "uint", "uint64": "ulong", "float32": "float",
               "float64": "double"}


def _make():
    table = {}
    for base in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
                 "float64"):
        for n in (1, 2, 3, 4):
            name = "%sx%d" % (base, n)
            aliases = ["%s%d" % (_ALIAS_STEM[base], n)]
            if base == "int64":
                aliases.append("longlong%d" % n)
            elif base == "uint64":
                aliases.append("ulonglong%d" % n)
            table[name] = VectorType(name, getattr(_types, base), n, aliases)
    return table


vector_types = _make()
