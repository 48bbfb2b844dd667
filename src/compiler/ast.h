// The syntax tree of one Python function. Node kinds are listed once in ast_nodes.def and
// operators in operators.def; a Node is one small struct whose fields each kind uses as its row
// in ast_nodes.def says. Type inference fills `type` (and `conv`, an implicit conversion) in place.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/diagnostics.h"
#include "compiler/types.h"

namespace cujit::ast {

enum class Kind {
#define NODE(name, fields) name,
#include "compiler/ast_nodes.def"
#undef NODE
};

enum class Op {
  None,
#define OP(name, spelling) name,
#include "compiler/operators.def"
#undef OP
};

/// The Python spelling of an operator ("+", "not in", ...).
const char* op_spelling(Op op);
/// The node kind's name as in Python.asdl ("BinOp", ...).
const char* kind_name(Kind k);

/// A literal's value.
struct ConstValue {
  enum class Tag { None, Bool, Int, Float, Imag, Str } tag = Tag::None;  // Imag: 2j, its value in f
  bool b = false;
  int64_t i = 0;   // also holds the low 64 bits of an int that overflows int64 (see big_int)
  double f = 0.0;
  std::string s;
  bool big_int = false;  // an integer literal that does not fit in int64
  bool fits_uint64 = true;  // big_int but below 2**64: a uint64 literal, as Numba types it
};

struct Node;
using NodePtr = std::unique_ptr<Node>;

struct Keyword {
  std::string name;
  SourceLoc loc;
  NodePtr value;
};

struct Param {
  std::string name;
  SourceLoc loc;
  // `name=default`: the default's expression, as written (a nested def's defaults are read from
  // it; a function Python hands over has its evaluated defaults in its snapshot, " default <name>").
  std::shared_ptr<const Node> dflt;
  bool star = false;  // `*name`: the extra positional arguments, as a tuple (Numba's StarArgTuple)
};

struct Node {
  Kind kind;
  SourceLoc loc;            // the token that best names the node (the operator for BinOp)

  std::string name;         // Name, Attribute, FunctionDef
  Op op = Op::None;         // BinOp, UnaryOp, BoolOp, AugAssign
  std::vector<Op> ops;      // Compare
  ConstValue cval;          // Constant
  NodePtr a, b, c;          // operands, as ast_nodes.def says per kind
  std::vector<NodePtr> list;
  std::vector<Keyword> keywords;   // Call
  std::vector<Param> params;       // FunctionDef
  std::vector<NodePtr> body, orelse;

  // Filled by type inference (typeinfer.cpp):
  Type type;                // the expression's type
  Type conv;                // if set, the value is converted to this type where it is used

  explicit Node(Kind k, SourceLoc l) : kind(k), loc(l) {}
  bool is(Kind k) const { return kind == k; }
};

/// Makes a node of kind `k` at `loc`.
inline NodePtr make(Kind k, SourceLoc loc) { return std::make_unique<Node>(k, loc); }

/// A deep copy of `n` and its children, types included (a tree rewrite that repeats a body:
/// literal_unroll, typeinfer_unroll.cpp).
NodePtr clone(const Node& n);

/// A whole function: its definition and the source it came from.
struct Module {
  SourceFile source;
  NodePtr func;  // a FunctionDef
};

/// Prints the tree, one node per line, for CUJIT_DEBUG=2.
std::string dump(const Node& n, int indent = 0);

}  // namespace cujit::ast
