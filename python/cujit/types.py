"""Numba-style type objects: ``float32``, ``int64[:, ::1]``, ``float32(float32, float32)``.

They exist so signatures can be written as objects as well as strings; both end up as the same
string, which the C++ core parses (``cujit._core.parse_signature``).
"""

import numpy as np

# Numba type classes and instances that cujit does not have (tuples, optionals, pointers,
# records, literals, ...): each exists as a name, and using it raises NotImplementedError naming
# it, instead of an import error (or, worse, some other type in its place).
_UNSUPPORTED_NAMES = (
    "Optional",
    "Omitted", "CPointer", "voidptr", "NestedArray",
    "IntegerLiteral", "BooleanLiteral", "StringLiteral", "Literal", "literal", "List", "ListType",
    "Set", "DictType", "Dummy", "Opaque", "Function",
    "FunctionType", "Dispatcher", "Buffer", "Bytes", "UnicodeType", "unicode_type", "string",
    "slice2_type", "slice3_type", "range_state32_type", "range_state64_type", "undefined",
    "pyobject", "ffi_forced_object", "deferred_type", "optional", "Number", "Integer", "Float",
    "Complex", "Boolean", "EnumClass", "IntEnumClass", "Callable", "DeferredType",
)

__all__ = [
    "Type", "ScalarType", "ArrayType", "Record", "Signature", "void", "BaseTuple", "Tuple", "UniTuple",
    "BaseNamedTuple", "NamedTuple", "NamedUniTuple", "IntEnumMember", "EnumMember", "boolean", "bool_",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "intp", "uintp", "float_", "double", "byte", "int_",
    "from_dtype", "signature_string", "typeof", "NPDatetime", "NPTimedelta",
    # Numba's other spellings of the same scalar types (numba.cuda.types offers them all).
    "b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8", "char", "uchar", "short",
    "ushort", "intc", "uintc", "long_", "ulong", "longlong", "ulonglong", "uint", "size_t", "ssize_t",
    # Names with no meaning in cujit yet: they exist, and say so when used (see _Unsupported).
    "float16", "f2", "bfloat16", "complex64", "complex128", "c8", "c16",
    "Array", "Type", "signed_domain", "unsigned_domain", "integer_domain", "real_domain",
    "complex_domain", "number_domain",
] + list(_UNSUPPORTED_NAMES)


class Type:
    """Base of every cujit type object."""

    name = "?"

    def __init__(self, name=None):
        # Numba's Type takes its name (user code subclasses it: super().__init__(name=...)).
        if name is not None:
            self.name = name

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

    @property
    def bitwidth(self):
        """Numba's width in bits of a number type (int32: 32, complex64: 64); booleans have none."""
        if self.dtype.kind == "b":
            raise AttributeError("'%s' has no bitwidth" % self.name)
        return self.dtype.itemsize * 8

    @property
    def underlying_float(self):
        """Numba's float type of a complex type's parts (complex64: float32)."""
        if self.dtype.kind != "c":
            raise AttributeError("'%s' has no underlying_float" % self.name)
        return from_dtype(np.dtype("f%d" % (self.dtype.itemsize // 2)))

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


# Each record type's spelling -> its dtype: CPU ufuncs of records (cpu_ufunc.RecordUFunc) read the
# dtypes of a signature string's operands from it.
_RECORD_DTYPES = {}


class Record(ScalarType):
    """Numba's Record type: a structured dtype (its fields, offsets, itemsize and alignment), named
    as Numba names it. ``rec[:]`` is an array type of it, as for scalars."""

    def __init__(self, dtype):
        from . import _core
        self.dtype = np.dtype(dtype)
        self.name = _core.record_spelling(self.dtype)
        _RECORD_DTYPES[self.name] = self.dtype

    @property
    def bitwidth(self):
        raise AttributeError("'%s' has no bitwidth" % self.name)

    def __call__(self, *args):
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
        if isinstance(dtype, Record):  # Numba's spelling (a Record's name is not a signature word)
            # Numba's array of a packed record is an unaligned array.
            self.name = "%sarray(%s, %dd, %s)" % ("" if dtype.dtype.isalignedstruct else "unaligned ", dtype.name,
                                                  ndim, layout)


class BaseTuple(Type):
    """Numba's tuple types, as type objects (the results of libdevice functions with outputs are
    typed with them); len(), iteration and indexing give the member types."""

    def __len__(self):
        return len(self.types)

    def __iter__(self):
        return iter(self.types)

    def __getitem__(self, i):
        return self.types[i]


class Tuple(BaseTuple):
    """``Tuple([float64, int32])``; members of one type make a UniTuple, as in Numba."""

    def __new__(cls, types):
        types = tuple(types)
        if cls is Tuple and types and all(t == types[0] for t in types):
            return UniTuple(types[0], len(types))
        return super().__new__(cls)

    def __init__(self, types):
        self.types = tuple(types)
        self.name = "Tuple(%s)" % ", ".join(str(t) for t in self.types)

    def __getnewargs__(self):  # pickle calls __new__ with these (a kernel's global may be a type)
        return (self.types,)


class UniTuple(BaseTuple):
    """``UniTuple(float32, 2)``."""

    def __init__(self, dtype, count):
        self.dtype = dtype
        self.count = count
        self.types = (dtype,) * count
        self.name = "UniTuple(%s x %d)" % (dtype, count)


class BaseNamedTuple(BaseTuple):
    """A named tuple of class ``instance_class`` (collections.namedtuple or typing.NamedTuple)."""

    def _setup(self, types, pyclass):
        self.types = tuple(types)
        self.instance_class = pyclass
        self.fields = tuple(pyclass._fields)

    def __eq__(self, other):  # two classes of one name and fields are different types
        return isinstance(other, BaseNamedTuple) and other.instance_class is self.instance_class and other.types == self.types

    def __hash__(self):
        return hash((self.name, id(self.instance_class)))

    def _spelling(self):
        # What the core parses (compiler/types.cpp): the class by its key, which also registers
        # it for results (decorators.NAMEDTUPLE_CLASSES).
        from .decorators import namedtuple_key
        items = "Tuple((%s))" % "".join("%s, " % _spelling(t) for t in self.types)
        return "NamedTuple('%s', '%s', (%s), %s)" % (namedtuple_key(self.instance_class), self.instance_class.__name__,
                                                     "".join("'%s', " % f for f in self.fields), items)


class NamedTuple(BaseNamedTuple):
    """``NamedTuple([int64, float64], P)``, printed as Numba prints it, ``P(int64, float64)``;
    items of one type make a NamedUniTuple."""

    def __new__(cls, types, pyclass):
        types = tuple(types)
        if types and all(t == types[0] for t in types):
            return NamedUniTuple(types[0], len(types), pyclass)
        return super().__new__(cls)

    def __init__(self, types, pyclass):
        self._setup(types, pyclass)
        self.name = "%s(%s)" % (pyclass.__name__, ", ".join(str(t) for t in self.types))

    def __getnewargs__(self):  # as Tuple's
        return (self.types, self.instance_class)


class NamedUniTuple(BaseNamedTuple):
    """``NamedUniTuple(int64, 2, P)``, printed ``P(int64 x 2)``."""

    def __init__(self, dtype, count, pyclass):
        self._setup((dtype,) * count, pyclass)
        self.dtype = dtype
        self.count = count
        self.name = "%s(%s x %d)" % (pyclass.__name__, dtype, count)


class EnumMember(Type):
    """Numba's type of the members of an Enum class: ``types.EnumMember(Color, types.int64)``
    (the class, and the type of its members' values), printed ``Enum<int64>(Color)``."""

    _word = "Enum"

    def __init__(self, cls, dtype):
        self.instance_class = cls
        self.dtype = dtype
        self.name = "%s<%s>(%s)" % (self._word, dtype, cls.__name__)

    def __eq__(self, other):  # two classes of one name are different types
        return type(other) is type(self) and other.instance_class is self.instance_class and other.dtype == self.dtype

    def __hash__(self):
        return hash((self.name, id(self.instance_class)))

    def _spelling(self):
        # The class by its key (compiler/types.cpp), which registers it for results.
        from .decorators import enum_key
        return "%s<%s>(%s)" % (self._word, _spelling(self.dtype), enum_key(self.instance_class))


class IntEnumMember(EnumMember):
    """``types.IntEnumMember(Shape, types.int64)``, printed ``IntEnum<int64>(Shape)``."""

    _word = "IntEnum"


def _spelling(t):
    """A type object as the core's signature parser reads it (str(t) but for named tuples)."""
    if isinstance(t, (BaseNamedTuple, EnumMember)):
        return t._spelling()
    if isinstance(t, BaseTuple):
        return "Tuple((%s))" % "".join("%s, " % _spelling(x) for x in t.types)
    return str(t)


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
# Numba's void is its none, an instance of NoneType (cuda.compile's return type of a function
# returning nothing; numba-cuda's tests check isinstance(resty, types.NoneType)).
none = void
NoneType = VoidType


def _scalar_types():
    """One type object per row of the compiler's type table (src/compiler/types.def, read through
    _core), bound to its Numba name and to each alias that is an identifier and not a Python
    builtin (``f4``, ``intp``, ``c16``; ``float``/``int`` stay Python's)."""
    import builtins
    from . import _core
    made = []
    for name, dtype, aliases in _core.scalar_table():
        # Numba's type object is types.boolean; "bool" would shadow the builtin.
        t = ScalarType("boolean" if name == "bool" else name, np.dtype(dtype))
        made.append(t)
        for n in [t.name] + aliases.split():
            if n.isidentifier() and not hasattr(builtins, n):
                globals()[n] = t
    return made


_SCALARS = _scalar_types()

# Types cujit's compiler does not have yet: type objects with Numba's names, so signatures can be
# written; compiling one fails with "unknown type 'complex64'" (and so on) from the compiler.
_NAME_ONLY = []
for _names, _dt in ((("float16", "f2"), np.float16), (("complex64", "c8"), np.complex64),
                    (("complex128", "c16"), np.complex128)):
    if _names[0] not in globals():
        _NAME_ONLY.append(ScalarType(_names[0], _dt))
        globals().update(dict.fromkeys(_names, _NAME_ONLY[-1]))
del _names, _dt


class _Unsupported(Type):
    """A Numba type (or type class) cujit does not have: using it in any way raises
    NotImplementedError naming it."""

    def __init__(self, name):
        self.name = name

    def _refuse(self, *args, **kwargs):
        raise NotImplementedError("cujit does not support Numba's types.%s yet" % self.name)

    __call__ = __getitem__ = _refuse

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._refuse()

    def __instancecheck__(self, obj):
        return False

    def __repr__(self):
        return "<types.%s: not supported by cujit>" % self.name


bfloat16 = _Unsupported("bfloat16")
for _n in _UNSUPPORTED_NAMES:
    globals()[_n] = _Unsupported(_n)
del _n

# Numba's sets of scalar types by kind (`ty in types.signed_domain`).
_kind = lambda k: frozenset(t for t in _SCALARS + _NAME_ONLY if t.dtype.kind == k)
signed_domain = _kind("i")
unsigned_domain = _kind("u")
integer_domain = signed_domain | unsigned_domain
real_domain = frozenset(t for t in _kind("f") if t.dtype.itemsize >= 4)  # Numba's has no float16
complex_domain = _kind("c")
number_domain = integer_domain | real_domain | complex_domain

# numba's types.Array(dtype, ndim, layout) is this class's constructor.
Array = ArrayType



def NPDatetime(unit):
    """Numba's datetime64 type of a unit ('D', 'ns', ...; '' for the generic unit)."""
    return from_dtype(np.dtype("M8[%s]" % unit if unit else "M8"))


def NPTimedelta(unit):
    """Numba's timedelta64 type of a unit ('D', 'ns', ...; '' for the generic unit)."""
    return from_dtype(np.dtype("m8[%s]" % unit if unit else "m8"))


# The types the compiler has (the globals snapshot relies on this: decorators._classify).
_BY_DTYPE = {t.dtype: t for t in _SCALARS}
# from_dtype also knows the types that exist as names only, for signatures and typeof.
_ALL_BY_DTYPE = {**_BY_DTYPE, **{t.dtype: t for t in _NAME_ONLY}}


def from_dtype(dtype):
    """The scalar type object for a NumPy dtype."""
    try:
        return _ALL_BY_DTYPE[np.dtype(dtype)]
    except KeyError:
        if np.dtype(dtype).fields is not None:
            return Record(dtype)
        raise TypeError("cujit has no type for dtype %s" % np.dtype(dtype)) from None


def typeof(value):
    """The type object of a value, as Numba's ``typeof``: scalars and NumPy arrays (host or
    device, with their layout). Other values raise NotImplementedError naming their type."""
    if isinstance(value, (bool, np.bool_)):
        return boolean
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return float64
    if isinstance(value, complex):
        return complex128
    if isinstance(value, np.generic):
        return from_dtype(value.dtype)
    if isinstance(value, tuple):  # Numba's: UniTuple / Tuple, NamedUniTuple / NamedTuple
        items = [typeof(v) for v in value]
        fields = getattr(type(value), "_fields", None)
        if type(value) is not tuple and isinstance(fields, tuple):
            return NamedTuple(items, type(value))
        return Tuple(items)
    dtype = getattr(value, "dtype", None)
    shape = getattr(value, "shape", None)
    from . import _core  # simulator device arrays have no __cuda_array_interface__
    if dtype is not None and shape is not None and (isinstance(value, (np.ndarray, _core.DeviceNDArray))
                                                    or hasattr(value, "__cuda_array_interface__")):
        if isinstance(value, np.ndarray):
            c, f = value.flags.c_contiguous, value.flags.f_contiguous
        else:
            c, f = value.is_c_contiguous(), value.is_f_contiguous()
        layout = "C" if c else ("F" if f else "A")
        return ArrayType(from_dtype(dtype), len(shape), layout)
    raise NotImplementedError("cujit's typeof does not know values of type %s"
                              % type(value).__name__)


def signature_string(sig):
    """A signature (string, Signature, or a tuple of argument types) as the string the core parses."""
    if isinstance(sig, str):
        return sig
    if isinstance(sig, Signature):
        return "%s(%s)" % (_spelling(sig.return_type), ", ".join(_spelling(a) for a in sig.args))
    if isinstance(sig, tuple):
        return "(%s)" % ", ".join(_spelling(a) for a in sig)
    if isinstance(sig, Type):
        return _spelling(sig)
    raise TypeError("a signature is a string like 'float32(float32)' or a type expression like "
                    "float32(float32); got %r" % (sig,))
