// The syntax tree of one Python function. Node kinds are listed once in ast_nodes.def and
// operators in operators.def; a Node is one small struct whose fields each kind uses as its row
// in ast_nodes.def says. Passes read a node's children through the accessors named by role
// (`n.lhs()`, `n.test()`, `n.args()`: ast_nodes.def's ROLE rows), never the storage slots a/b/c/
// list, and walk a tree with for_each_child (the per-kind child list, generated from the same
// rows). Type inference fills `type` (and `conv`, an implicit conversion) in place.
#pragma once
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "compiler/diagnostics.h"
#include "compiler/types.h"

namespace cujit::ast {

enum class Kind {
#define NODE(name, category, children, doc) name,
#include "compiler/ast_nodes.def"
#undef NODE
};

/// The named child roles (ast_nodes.def's ROLE rows).
enum class Role {
#define ROLE(role, slot, doc) role,
#include "compiler/ast_nodes.def"
#undef ROLE
  Count_
};
static_assert((int)Role::Count_ <= 64, "a kind's roles are a 64-bit mask");

/// The roles kind `k` has (bit i: Role i), from its row in ast_nodes.def.
constexpr uint64_t role_mask(Kind k) {
  switch (k) {
#define C(role) | (uint64_t{1} << (int)Role::role)
#define BODY
#define ORELSE
#define KEYWORDS
#define NODE(name, category, children, doc) case Kind::name: return uint64_t{0} children;
#include "compiler/ast_nodes.def"
#undef NODE
#undef C
#undef BODY
#undef ORELSE
#undef KEYWORDS
  }
  return 0;
}

/// Whether kind `k` is a statement (its row's category in ast_nodes.def is Stmt).
constexpr bool is_statement(Kind k) {
  switch (k) {
#define NODE(name, category, children, doc) case Kind::name: return #category[0] == 'S';
#include "compiler/ast_nodes.def"
#undef NODE
  }
  return false;
}

/// Throws InternalError: node of kind `k` read through a role it does not have (a pass bug).
[[noreturn]] void role_error(Kind k, Role r);

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
  enum class Tag { None, Bool, Int, Float, Imag, Str, Bytes } tag = Tag::None;  // Imag: 2j, its value in f; Bytes: b'..', its bytes in s
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
  /// Whether this kind has child role `r` (its row in ast_nodes.def).
  bool has(Role r) const { return (role_mask(kind) >> (int)r) & 1; }

  // One accessor per role (ast_nodes.def), e.g. `NodePtr& lhs()`. Each checks the kind: a mask
  // test, kept in release builds, so a pass reading the wrong role fails loudly (InternalError)
  // instead of reading another role's child in silence.
#define ROLE(role, slot, doc)                                     \
  auto& role() { return checked(Role::role, slot); }              \
  const auto& role() const { return checked(Role::role, slot); }
#include "compiler/ast_nodes.def"
#undef ROLE

 private:
  template <class T>
  T& checked(Role r, T& slot) const {
    if (!has(r)) role_error(kind, r);
    return slot;
  }
};

/// Calls fn(slot) for each child slot of `n` (a NodePtr, const where `n` is; null where the row
/// allows it), in the order of its row in ast_nodes.def (role children, list elements, keyword
/// values, then body and orelse statements). for_each_child and for_each_child_slot walk with it.
template <class N, class F>
void for_each_slot(N& n, F&& fn) {
  auto visit = [&](auto& x) {
    if constexpr (std::is_same_v<std::decay_t<decltype(x)>, NodePtr>) fn(x);
    else for (auto& p : x) fn(p);
  };
  switch (n.kind) {
#define C(role) visit(n.role());
#define BODY visit(n.body);
#define ORELSE visit(n.orelse);
#define KEYWORDS for (auto& k : n.keywords) fn(k.value);
#define NODE(name, category, children, doc) case Kind::name: { children } return;
#include "compiler/ast_nodes.def"
#undef NODE
#undef C
#undef BODY
#undef ORELSE
#undef KEYWORDS
  }
}

/// Calls fn(Node&) for each child of `n` that is there, in for_each_slot's order. The default
/// traversal of every pass that cares about a few kinds only: a new kind is walked with no change.
template <class N, class F>
void for_each_child(N& n, F&& fn) {
  using Elem = std::conditional_t<std::is_const_v<N>, const Node, Node>;
  for_each_slot(n, [&](auto& p) { if (p) fn(static_cast<Elem&>(*p)); });
}

/// Calls fn(NodePtr&) for each child slot of `n` that holds a node: a pass that replaces
/// children (lower.cpp's apply_typing_rewrites) puts the new node there.
template <class F>
void for_each_child_slot(Node& n, F&& fn) {
  for_each_slot(n, [&](NodePtr& p) { if (p) fn(p); });
}

/// Makes a node of kind `k` at `loc`.
inline NodePtr make(Kind k, SourceLoc loc) { return std::make_unique<Node>(k, loc); }

/// A Name node reading `name` (tree rewrites that introduce a variable).
inline NodePtr make_name(const std::string& name, SourceLoc loc) {
  NodePtr n = make(Kind::Name, loc);
  n->name = name;
  return n;
}

/// The names an assignment target binds: a name, or the names inside a (nested) tuple target.
void target_names(const Node& t, std::set<std::string>& out);

/// The names the assignment expressions (`(x := v)`) in `n` bind, `n`'s blocks included but not
/// nested defs (a lambda's or def's walrus binds in its own scope).
void named_expr_targets(const Node& n, std::set<std::string>& out);

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
