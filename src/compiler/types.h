// Types of the compiled subset: scalars (types.def), arrays (dtype, ndim, layout), tuples, and
// the compile-time-only kinds (modules, functions, ranges, dtype objects) that name resolution and
// type inference pass around. Promotion follows Numba's rules (DESIGN.md decision 3).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cujit {

enum class Scalar {
#define SCALAR(e, name, kind, size, align, dtype, host, cpp, aliases, np_names) e,
#include "compiler/types.def"
#undef SCALAR
};
constexpr int kNumScalars = 0
#define SCALAR(e, name, kind, size, align, dtype, host, cpp, aliases, np_names) +1
#include "compiler/types.def"
#undef SCALAR
    ;

// A scalar's facts, all read from types.def.
const char* scalar_name(Scalar s);      // "float32"
const char* scalar_cpp(Scalar s);       // "float": its spelling in generated code
char scalar_kind(Scalar s);             // 'b', 'i', 'u', 'f', 'c' (NumPy's dtype.kind)
int scalar_size(Scalar s);              // bytes
int scalar_align(Scalar s);             // bytes (NumPy's dtype.alignment)
const char* scalar_dtype_str(Scalar s); // "<f4"
const char* scalar_aliases(Scalar s);   // "f4 float_ single"
/// 8-byte words a marshalled scalar occupies in a kernel's parameter buffer (its bytes first).
inline int scalar_words(Scalar s) { return (scalar_size(s) + 7) / 8; }
bool scalar_from_name(const std::string& name, Scalar* out);  // Numba's name or one of its aliases
/// NumPy's meaning of np.<name> ("byte" is int8 there, uint8 in Numba; "float_" float64).
bool scalar_from_numpy_name(const std::string& name, Scalar* out);

// Predicates by kind. Code that means "an integer" says is_integer, never !is_float: a complex
// value must not take an integer path (bit operators, ipow, floor division) in silence.
bool is_bool(Scalar s);
bool is_integer(Scalar s);              // signed or unsigned, not bool
bool is_signed(Scalar s);               // a signed integer
bool is_unsigned(Scalar s);             // an unsigned integer
bool is_float(Scalar s);                // a real floating-point type
bool is_complex(Scalar s);
inline bool is_inexact(Scalar s) { return is_float(s) || is_complex(s); }
/// Bool or an integer: what bit operators, shifts and integer powers take.
inline bool is_integral(Scalar s) { return is_bool(s) || is_integer(s); }
bool is_datetime(Scalar s);             // datetime64[unit] (NumPy kind 'M')
bool is_timedelta(Scalar s);            // timedelta64[unit] (NumPy kind 'm')
inline bool is_time(Scalar s) { return is_datetime(s) || is_timedelta(s); }
/// Numba's Number (integers, reals, complex; bool, datetime64 and timedelta64 are not).
inline bool is_number(Scalar s) { return is_integer(s) || is_inexact(s); }

/// A datetime64/timedelta64 unit: its index in types.def's rows (Y M W D h m s ms us ns ps fs as,
/// then generic), which is also the template argument of cj::dt64/cj::td64 in generated code.
enum TimeUnit { kUnitY, kUnitM, kUnitW, kUnitD, kUnith, kUnitm, kUnits, kUnitms, kUnitus, kUnitns,
                kUnitps, kUnitfs, kUnitas, kUnitGeneric, kNumTimeUnits };
int time_unit(Scalar s);                         // of a datetime64 or timedelta64 type
Scalar time_scalar(bool datetime, int unit);     // the datetime64/timedelta64 type of that unit
/// A unit's name as NumPy spells it ("D", "ms"; "" for generic); -1 from time_unit_from_name when
/// `name` is none.
const char* time_unit_name(int unit);
int time_unit_from_name(const std::string& name);
/// The unit two datetime64/timedelta64 operands of + - / or a comparison meet in, by NumPy's rules
/// as Numba applies them: a generic unit takes the other; otherwise the finer one, where Y and M
/// timedeltas do not meet day-based units (their length varies) but Y and M datetimes do (through
/// the calendar), and a datetime meets a timedelta's Y or M only if it is Y or M itself. -1
/// where they do not meet.
int time_meet_unit(Scalar x, Scalar y);

struct Type;
using TypePtr = std::shared_ptr<const Type>;
struct Record;  // a structured NumPy dtype's layout (below)
using RecordPtr = std::shared_ptr<const Record>;

/// The class of a named tuple (collections.namedtuple or typing.NamedTuple), as Numba's
/// NamedTuple/NamedUniTuple types keep it: two classes with the same fields are different types.
/// `key` tells classes of one name apart ("P@<id>", decorators.namedtuple_key, which keeps the
/// class for results); `name` is Python's __name__ ("P"), the spelling Numba prints.
struct TupleClass {
  std::string key;
  std::string name;
  std::vector<std::string> fields;
  int field(const std::string& f) const {
    for (size_t i = 0; i < fields.size(); ++i) if (fields[i] == f) return (int)i;
    return -1;
  }
};
using TupleClassPtr = std::shared_ptr<const TupleClass>;

struct Type {
  enum class Tag {
    Unknown,   // not inferred yet
    Scalar,
    Array,     // dtype = scalar, ndim, layout 'C' 'F' or 'A'
    Tuple,     // elems; a named tuple's also `tclass` (same C++ struct and layout as the plain
               // tuple of its items)
    None,
    Void,      // a function that returns nothing
    Module,    // name = "math", "cmath", "numpy", "cuda", "random"
    Function,  // name = qualified builtin ("math.sqrt", "abs", "cuda.grid") or user function
    DType,     // a type object used as a value: np.float32, cujit.int64; scalar = that type. A
               // type object of another type (types.unicode_type, a global ListType(int64)): elems[0]
               // is that type (Type::type_object), the item type of typed.List.empty_list & co.
    Range,     // range(...) object, iterated by for
    String,    // a string literal (docstrings, print)
    GridGroup, // cuda.cg.this_grid()'s value: a handle whose sync() is a barrier of the grid
    Optional,  // a value or None (Numba's OptionalType): elems[0] is the value's type. What a
               // function returns when some paths return a value and others None (CPU code only)
    Iterator,  // enumerate(...) or zip(...) (name), iterated by for: elems are the iterables
               // (for enumerate, the one iterable), each a Range, Array, Tuple or Iterator
    Record,    // a record (a structured dtype's scalar, Numba's Record): `record`. Generated code
               // holds a pointer to its bytes, as Numba holds a reference: writes go through.
    EnumMember,  // a member of an enum.Enum class (Numba's EnumMember): name = the class's key
                 // ("Color@<id>"), elems[0] = its value's type (a number or a tuple), which is
                 // its run-time form (scalar = a number's type). An
                 // IntEnum member is a Scalar whose name is its class's key (Numba's
                 // IntEnumMember is an integer everywhere but its identity), as enum_member makes.
    List,      // a list (CPU code only; Numba's List): elems[0] = the item type (Unknown while only an
               // empty literal types it: appends then give it, typeinfer_lists.cpp); `reflected`: a
               // Python list passed in, whose changes the caller sees; `typed`: Numba's ListType (a
               // numba.typed.List, its own type: another type than a reflected list of the same items).
               // A cj::List<T> handle in C++ either way.
    Dict,      // a dict (CPU code only; Numba's DictType, a typed dict): elems = {key, value} (Unknown
               // while only `{}` types it: the first insertion gives them, typeinfer_dicts.cpp). A
               // cj::Dict<K, V> handle in C++.
    Set,       // a set (CPU code only; Numba's Set): elems[0] = the item type; `reflected`: a Python
               // set passed in. A cj::Set<T> handle in C++.
    CharSeq,   // a record's 'S'/'U' field read as a value, or a bytes literal (Numba's CharSeq and
               // UnicodeCharSeq): scalar = the code unit (UInt8 for bytes, UInt32 for str), ndim
               // = the count of code units. A cj::CharSeq<T, N> value in C++ (typeinfer_charseq.cpp).
  };
  Tag tag = Tag::Unknown;
  Scalar scalar = Scalar::Int64;
  int ndim = 0;
  char layout = 'A';
  bool readonly = false;     // Array; Record: an element of a read-only array
  std::vector<Type> elems;
  std::string name;
  int user_fn = -1;          // Function: index into the pipeline's function table, or -1
  RecordPtr record;          // Record; an Array whose dtype is a record (then `scalar` is unused)
  bool unaligned = false;    // Array: NumPy's flags.aligned is false (Numba: "unaligned array(...)")
  bool reflected = false;    // List: an argument's (spelling only: the same C++ type either way)
  bool typed = false;        // List: a numba.typed.List (ListType[item]): part of the type
  TupleClassPtr tclass;      // Tuple: a named tuple's class, or null for a plain tuple

  static Type unknown() { return Type{}; }
  static Type scalar_of(Scalar s) { Type t; t.tag = Tag::Scalar; t.scalar = s; return t; }
  static Type array(Scalar dtype, int ndim, char layout) {
    Type t; t.tag = Tag::Array; t.scalar = dtype; t.ndim = ndim; t.layout = layout; return t;
  }
  static Type tuple(std::vector<Type> elems) {
    Type t; t.tag = Tag::Tuple; t.elems = std::move(elems); return t;
  }
  static Type named_tuple(TupleClassPtr c, std::vector<Type> elems) {
    Type t = tuple(std::move(elems)); t.tclass = std::move(c); return t;
  }
  bool is_named_tuple() const { return tag == Tag::Tuple && tclass != nullptr; }
  static Type none() { Type t; t.tag = Tag::None; return t; }
  static Type void_() { Type t; t.tag = Tag::Void; return t; }
  static Type module(std::string n) { Type t; t.tag = Tag::Module; t.name = std::move(n); return t; }
  static Type function(std::string n) { Type t; t.tag = Tag::Function; t.name = std::move(n); return t; }
  static Type dtype(Scalar s) { Type t; t.tag = Tag::DType; t.scalar = s; return t; }
  static Type range() { Type t; t.tag = Tag::Range; t.scalar = Scalar::Int64; return t; }
  static Type string() { Type t; t.tag = Tag::String; return t; }
  static Type grid_group() { Type t; t.tag = Tag::GridGroup; return t; }
  static Type optional(Type v) {
    if (v.tag == Tag::Optional) return v;
    Type t; t.tag = Tag::Optional; t.elems = {std::move(v)}; return t;
  }
  bool is_optional() const { return tag == Tag::Optional; }
  static Type record_of(RecordPtr r) { Type t; t.tag = Tag::Record; t.record = std::move(r); return t; }
  static Type record_array(RecordPtr r, int ndim, char layout) {
    Type t = array(Scalar::UInt8, ndim, layout); t.record = std::move(r); return t;
  }
  bool is_record() const { return tag == Tag::Record; }
  bool is_record_array() const { return tag == Tag::Array && record != nullptr; }
  /// A member of the enum class `key`: an IntEnum's is an integer scalar that keeps the key.
  static Type enum_member(std::string key, const Type& value, bool int_enum) {
    Type t; t.tag = int_enum ? Tag::Scalar : Tag::EnumMember; t.scalar = value.scalar; t.name = std::move(key);
    if (!int_enum) t.elems = {value};
    return t;
  }
  bool is_enum() const { return (tag == Tag::EnumMember || tag == Tag::Scalar) && !name.empty(); }
  static Type iterator(std::string n, std::vector<Type> its) {
    Type t; t.tag = Tag::Iterator; t.name = std::move(n); t.elems = std::move(its); return t;
  }

  static Type list(Type item, bool reflected = false) {
    Type t; t.tag = Tag::List; t.elems = {std::move(item)}; t.reflected = reflected; return t;
  }
  /// numba.typed.List's type, ListType[item].
  static Type typed_list(Type item) { Type t = list(std::move(item)); t.typed = true; return t; }
  bool is_list() const { return tag == Tag::List; }
  bool is_typed_list() const { return tag == Tag::List && typed; }
  /// A type object of a type that is no scalar (types.unicode_type): a DType holding it.
  static Type type_object(Type of) { Type t; t.tag = Tag::DType; t.elems = {std::move(of)}; return t; }
  bool is_type_object() const { return tag == Tag::DType && !elems.empty(); }
  static Type dict(Type key, Type value) {
    Type t; t.tag = Tag::Dict; t.elems = {std::move(key), std::move(value)}; return t;
  }
  bool is_dict() const { return tag == Tag::Dict; }
  static Type set(Type item, bool reflected = false) {
    Type t; t.tag = Tag::Set; t.elems = {std::move(item)}; t.reflected = reflected; return t;
  }
  bool is_set() const { return tag == Tag::Set; }
  static Type charseq(bool unicode, int count) {
    Type t; t.tag = Tag::CharSeq; t.scalar = unicode ? Scalar::UInt32 : Scalar::UInt8; t.ndim = count; return t;
  }
  bool is_charseq() const { return tag == Tag::CharSeq; }
  bool is_unicode_charseq() const { return tag == Tag::CharSeq && scalar == Scalar::UInt32; }

  bool known() const { return tag != Tag::Unknown; }
  bool is_scalar() const { return tag == Tag::Scalar; }
  bool is_scalar(Scalar s) const { return tag == Tag::Scalar && scalar == s; }
  bool is_array() const { return tag == Tag::Array; }
  bool is_tuple() const { return tag == Tag::Tuple; }
  bool is_numeric() const { return tag == Tag::Scalar; }

  bool operator==(const Type& o) const;
  bool operator!=(const Type& o) const { return !(*this == o); }

  /// Numba's spelling: "float32", "array(float32, 1d, C)", "UniTuple(float64 x 2)", "none",
  /// "P(int64 x 2)" / "P(int64, float64)" for named tuples.
  std::string str() const;
  /// str(), with each named tuple's class key in place of its name: what tells two types apart
  /// where str() would not (the dispatchers' caches of specialisations).
  std::string key() const;
};

/// A structured dtype's layout, as Numba's Record type describes it: fields (name, byte offset,
/// type), itemsize, alignment and whether NumPy aligned it (align=True). A field's type is a
/// scalar of the type table, a nested record, or an array of either (`shape` non-empty: Numba's
/// NestedArray, read as a C-ordered view over the record's bytes). A field whose NumPy type cujit
/// has no type for keeps its Numba name in `unsupported`: the record still passes and copies as
/// bytes, and reading or writing that field is refused.
struct RecordField {
  std::string name;
  int64_t offset = 0;
  Type type;                    // a scalar, a Record or a CharSeq ('S'/'U' field)
  std::vector<int64_t> shape;   // a nested array's dimensions, or empty
  std::string unsupported;      // the Numba name of a type cujit lacks ("complex64"), or empty
  std::string type_str() const;  // "int32", "nestedarray(uint8, (5,))"
};
struct Record {
  std::vector<RecordField> fields;
  int64_t size = 0;
  int64_t align = 1;            // the C++ struct's alignment (NumPy's dtype.alignment)
  bool aligned = false;         // NumPy's isalignedstruct
  std::string spelling;         // Numba's: "Record(x[type=int32;offset=0],...;8;False)" (make_record)
  const RecordField* find(const std::string& name) const;
};
/// Fills `spelling` from the other members (call once they are set).
RecordPtr make_record(Record r);
/// The type of one element of an array: its scalar, or its record.
Type element_type(const Type& array);
/// a.flat of an array (an Iterator named "flat" whose one elem is the array's type).
inline bool is_flat_iter(const Type& t) { return t.tag == Type::Tag::Iterator && t.name == "flat"; }

/// The type both a and b convert to where a variable holds either (Numba's unify): NumPy's
/// promotion on numbers (int and float give float, int16 and int64 give int64, bool and int8 give
/// int8, int64 and uint64 give float64), tuples element by element.
/// Returns an Unknown type when there is none.
Type unify(const Type& a, const Type& b);

/// Whether a value of type `from` converts to `to` where Numba converts it (a return to a declared
/// type, an argument to a declared signature): numbers to numbers, tuples item by item (a named
/// tuple only to its own type), anything else only to itself.
bool value_converts(const Type& from, const Type& to);

/// The type `for x in it` gives x: a Range's integer, an array's first-axis item, a uniform
/// tuple's item, enumerate's (int64, item) and zip's tuple of items. Unknown for anything else
/// (a heterogeneous tuple included).
Type iteration_item(const Type& it);

/// Whether a value of this type exists at compile time only (a function, intrinsic or type object
/// passed around as a value: Numba's first-class functions and NumberClass). Generated code
/// carries it as an empty cj::Unit; each distinct value is its own type, so a function taking one
/// is specialised per value, as Numba does.
inline bool is_compile_time_value(const Type& t) { return t.tag == Type::Tag::Function || t.tag == Type::Tag::DType; }

/// NumPy's promotion of two scalar types (np.result_type on dtypes).
Scalar promote(Scalar a, Scalar b);
/// The float type of a complex type's parts (complex64: float32); other types unchanged.
Scalar complex_part(Scalar s);
/// The complex type a number becomes (Numba's choice for cmath and complex(x)): complex64 for
/// float32, bool and the 8- and 16-bit integers, complex128 for wider ones; complex unchanged.
inline Scalar complex_of(Scalar s) { return promote(s, Scalar::Complex64); }

/// The type of `a op b` for arithmetic + - * and bit operators on scalars, by Numba's rules:
/// integers are widened to 64 bits (int8 + int8 is int64), int with float promotes as NumPy does.
Scalar arith_result(Scalar a, Scalar b);

/// The type of `a << n` and `a >> n` on integers (Numba's rule): uint64 when `a` is unsigned,
/// int64 otherwise, whatever the type of `n`.
Scalar shift_result(Scalar a);

/// Parses a Numba type signature: "float32(float32, int64)", "void(float32[:], float32[:, ::1])",
/// "(float32[:], float32[:])" (no return type: void). Throws std::invalid_argument with the reason.
struct Signature {
  Type ret;                 // Unknown when the string named no return type
  std::vector<Type> args;
  std::string str() const;
};
Signature parse_signature(const std::string& text);
/// Parses one type: "float32", "int64[:, ::1]", "float32[::1]".
Type parse_type(const std::string& text);

}  // namespace cujit
