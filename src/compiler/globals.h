// What Python hands the compiler for one function: its source and a snapshot of the globals and
// closure variables it names (DESIGN.md decision 2). The compiler never calls back into Python;
// other cujit functions the snapshot names carry their own FunctionSource, so the whole call
// graph is here before compiling starts.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/diagnostics.h"
#include "compiler/types.h"

namespace cujit {

struct FunctionSource;
namespace ast { struct Node; }

/// One global or closure variable, as the snapshot classified it.
struct GlobalValue {
  enum class Kind {
    Int,         // a Python int: an int64 constant
    Float,       // a Python float: a float64 constant
    Bool,        // a Python bool
    Scalar,      // a NumPy scalar: its own type (SQRT_2PI = np.float32(...) stays float32)
    Module,      // math, cmath, numpy, random, cuda
    ModuleAttr,  // a function or constant taken from a module: `from math import exp`
    DType,       // a type object: np.float32, cujit.int16
    Function,    // another cujit function (cuda.jit(device=True))
    Array,       // a NumPy array: a read-only constant (cuda.const.array_like), its bytes copied
    Tuple,       // a tuple of numbers (Int, Float, Bool, Scalar) and arrays (Array): a constant
                 // (SHAPE = (16, 16)); a named tuple's also tclass (type_name = its key)
    NamedTupleClass,  // a named tuple class (called to make one): tclass, type_name = its key,
                      // elems = its field defaults (attr = the field's name), module = repr(cls)
    EnumMember,  // an enum member: type_name = its class's key ("Color@<id>"), i = 1 for an
                 // IntEnum, elems[0] = its value (a number)
    EnumClass,   // an enum class: type_name and i as EnumMember's, elems = its members (attr =
                 // the member's name), each an EnumMember
    Foreign,     // cuda.declare_device: attr = its C name, module = its ABI ("numba" or "c"),
                 // type_name = its signature, i = use_cooperative, links = the code defining it
    Link,        // a kernel's link= code (the snapshot's " link" entry): links only
    NoneValue,   // None (also a default value: the snapshot's " default <parameter>" entries)
    ExcClass,    // an exception class (a subclass of BaseException): type_name = its key
                 // ("MyError@<id>", decorators.EXC_CLASSES), attr = its __name__, i = 1 when it
                 // derives from Exception
    Opaque,      // anything else: an error if the function uses it; a str has attr = "str:" + its
                 // value, which a raise takes as an argument (typeinfer_exc.cpp)
  };
  Kind kind = Kind::Opaque;
  Scalar scalar = Scalar::Int64;  // Scalar, DType
  int64_t i = 0;                  // Int, Bool, integer Scalar
  uint64_t u = 0;                 // unsigned Scalar
  double f = 0.0;                 // Float, float Scalar; a complex Scalar's real part
  double f_im = 0.0;              // a complex Scalar's imaginary part
  std::string module;             // Module, ModuleAttr: canonical module name
  std::string attr;               // ModuleAttr: the attribute's name in that module
  std::string type_name;          // Opaque: Python's repr of its type, "<class 'dict'>"
  std::shared_ptr<FunctionSource> fn;  // Function
  std::vector<std::string> sigs;       // Function: cuda.jit(sigs, device=True)'s signatures (a call
                                       // picks one and converts to it); empty: typed at each call
  std::vector<int64_t> shape;          // Array: C-ordered shape
  std::string bytes;                   // Array: the elements, C order
  RecordPtr record;                    // Array: its dtype when a structured one (scalar unused)
  Type of;                             // DType: the type a type object of no scalar names (unicode_type)
  std::vector<GlobalValue> elems;      // Tuple: its items
  TupleClassPtr tclass;                // Tuple (a named tuple), NamedTupleClass
  /// Foreign, Link: code to link, as numba-cuda's link= names it. kind: "cu" (CUDA C++, put into
  /// the program itself), "ptx", "cubin", "fatbin", "object", "archive", "ltoir".
  struct LinkItem {
    std::string kind, name, data;
  };
  std::vector<LinkItem> links;
};

/// A Python function ready for the compiler.
struct FunctionSource {
  std::string name;
  SourceFile source;
  std::map<std::string, GlobalValue> globals;
  /// A nested function (a def inside another one, typeinfer_nested.cpp): its lifted definition,
  /// parsed from `source` (the enclosing function's text), which instances copy instead of
  /// parsing `source`. Null for functions Python hands over.
  std::shared_ptr<const ast::Node> tree;
  /// A stable text of everything that decides the generated code (for keys and equality).
  std::string fingerprint() const;
};

}  // namespace cujit
