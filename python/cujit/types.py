"""Numba-style type objects: ``float32``, ``int64[:, ::1]``, ``float32(float32, float32)``.

They exist so signatures can be written as objects as well as strings; both end up as the same
string, which the C++ core parses (``cujit._core.parse_signature``).
"""

import numpy as np

__all__ = [
    "Type", "ScalarType", "ArrayType", "Signature", "void", "boolean", "bool_",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "intp", "uintp", "float_", "double", "byte", "int_",
    "from_dtype", "signature_string",
]


class Type:
    """Base of every cujit type object."""

    name = "?"

    def __str__(self):
        return self.name

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, Type) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __call__(self, *args):
        """``float32(float32, float32)`` makes a signature."""
        return Signature(self, args)


class ScalarType(Type):
    def __init__(self, name, dtype):
        self.name = name
        self.dtype = np.dtype(dtype)

    def __getitem__(self, dims):
        """``float32[:]``, ``float32[:, ::1]``, ``float32[::1, :]``."""
        if not isinstance(dims, tuple):
            dims = (dims,)
        layout = "A"
        for i, d in enumerate(dims):
            if not isinstance(d, slice) or d.start is not None or d.stop is not None:
                raise TypeError("array types are written with ':' per dimension, as float32[:, ::1]")
            if d.step == 1:
                if i == len(dims) - 1:
                    layout = "C"
                elif i == 0:
                    layout = "F"
                else:
                    raise TypeError("'::1' goes on the first or the last dimension")
            elif d.step is not None:
                raise TypeError("only '::1' is allowed as a step in an array type")
        return ArrayType(self, len(dims), layout)

    def __call__(self, *args):
        # float32(x) on a number converts it, as np.float32 would; float32(types...) is a signature.
        if len(args) == 1 and not isinstance(args[0], Type):
            return self.dtype.type(args[0])
        return Signature(self, args)


class ArrayType(Type):
    def __init__(self, dtype, ndim, layout):
        self.dtype = dtype
        self.ndim = ndim
        self.layout = layout
        dims = [":"] * ndim
        if layout == "C":
            dims[-1] = "::1"
        elif layout == "F":
            dims[0] = "::1"
        self.name = "%s[%s]" % (dtype.name, ", ".join(dims))


class VoidType(Type):
    name = "void"


class Signature:
    """A function type: return type and argument types."""

    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = tuple(args)
        for a in self.args:
            if not isinstance(a, Type):
                raise TypeError("signature arguments must be cujit types, got %r" % (a,))

    def __str__(self):
        return "%s(%s)" % (self.return_type, ", ".join(str(a) for a in self.args))

    __repr__ = __str__


void = VoidType()
boolean = bool_ = ScalarType("boolean", np.bool_)
int8 = ScalarType("int8", np.int8)
int16 = ScalarType("int16", np.int16)
int32 = ScalarType("int32", np.int32)
int64 = intp = int_ = ScalarType("int64", np.int64)
uint8 = byte = ScalarType("uint8", np.uint8)
uint16 = ScalarType("uint16", np.uint16)
uint32 = ScalarType("uint32", np.uint32)
uint64 = uintp = ScalarType("uint64", np.uint64)
float32 = float_ = ScalarType("float32", np.float32)
float64 = double = ScalarType("float64", np.float64)

_BY_DTYPE = {t.dtype: t for t in (boolean, int8, int16, int32, int64, uint8, uint16, uint32,
                                   uint64, float32, float64)}


def from_dtype(dtype):
    """The scalar type object for a NumPy dtype."""
    try:
        return _BY_DTYPE[np.dtype(dtype)]
    except KeyError:
        raise TypeError("cujit has no type for dtype %s" % np.dtype(dtype)) from None


def signature_string(sig):
    """A signature (string, Signature, or a tuple of argument types) as the string the core parses."""
    if isinstance(sig, str):
        return sig
    if isinstance(sig, Signature):
        return str(sig)
    if isinstance(sig, tuple):
        return "(%s)" % ", ".join(str(a) for a in sig)
    if isinstance(sig, Type):
        return str(sig)
    raise TypeError("a signature is a string like 'float32(float32)' or a type expression like "
                    "float32(float32); got %r" % (sig,))
