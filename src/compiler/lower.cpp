// The lowering stage (lower.h): named passes over the typed trees, between typing and code
// generation.
#include "compiler/lower.h"

#include <iostream>
#include <string>
#include <vector>

#include "compiler/builtins.h"

namespace cujit {

namespace {

using ast::Kind;
using ast::Node;
using ast::NodePtr;

// ---- apply_typing_rewrites -------------------------------------------------------------------

// Puts each new form typing recorded (FunctionInstance::rewrites: an operator called through a
// local variable, f(*t), `a[idx] op= v` with an array index, a method named by its receiver's
// type) in its node's place. The form was typed in the node's place, so its nodes carry their
// types and resolutions already; what the node's parent decided about its value (a conversion,
// an unwrapped optional) moves to the form, and the node, never generated, is forgotten.
void lower_apply_slot(FunctionInstance& fn, ast::NodePtr& slot) {
  for (auto r = fn.rewrites.find(slot.get()); r != fn.rewrites.end(); r = fn.rewrites.find(slot.get())) {
    NodePtr form = std::move(r->second);
    fn.rewrites.erase(r);
    form->type = slot->type;  // the form's type, as the parent may have changed it (unwrapped)
    form->conv = slot->conv;
    if (fn.unwrap.count(slot.get())) fn.unwrap.insert(form.get());
    forget_typing_of(fn, *slot);
    slot = std::move(form);
  }
  ast::for_each_child_slot(*slot, [&fn](NodePtr& c) { lower_apply_slot(fn, c); });
}

void apply_typing_rewrites(Program&, FunctionInstance& fn) {
  lower_apply_slot(fn, fn.mod.func);
  // What is left belonged to nodes no longer in the tree (inside a node given a form itself).
  drop_rewrites(fn);
}

// ---- fuse_array_expressions ------------------------------------------------------------------

// Fuses the whole-array expressions of one instance. An expression is element-wise where it
// makes an array from the elements of its operands alone: an operator typing gave a ufunc loop
// (typeinfer_arrayexpr.cpp), a ufunc call, np.where, np.clip. A maximal tree of them is one
// ArrayExpr; whatever else it reads (an array variable, a call that makes an array, a number)
// is one of its inputs, evaluated once before the loop, as Numba's array expressions do.
class Fuser {
 public:
  explicit Fuser(FunctionInstance& fn) : fn_(fn) {}

  // Walks a statement or expression: the default traversal (ast::for_each_child), fusing where
  // an element-wise expression starts.
  void visit(Node& n) {
    if (n.is(Kind::AugAssign) && n.target()->type.is_array() && fn_.ufunc_loops.count(&n)) return in_place(n);
    if (elementwise(n)) return fuse(n);
    ast::for_each_child(n, [this](Node& c) { visit(c); });
  }

 private:
  FunctionInstance& fn_;
  int next_ = 0;  // numbers this instance's ArrayExprs, which name their element variables

  const BuiltinRow* builtin_of(const Node& call) const {
    if (!call.is(Kind::Call) || call.func()->type.tag != Type::Tag::Function) return nullptr;
    return find_builtin(call.func()->type.name);
  }

  bool elementwise(const Node& n) const {
    if (!n.type.is_array()) return false;
    switch (n.kind) {
      case Kind::BinOp: case Kind::UnaryOp: case Kind::Compare: return fn_.ufunc_loops.count(&n) > 0;
      case Kind::Call: {
        const BuiltinRow* b = builtin_of(n);
        if (!b) return false;
        if (b->rule == Rule::Elementwise) return true;
        return b->rule == Rule::Ufunc && fn_.ufunc_loops.count(&n) > 0;
      }
      default: return false;
    }
  }

  bool has_out(const Node& n) const {
    const BuiltinRow* b = builtin_of(n);
    return b && b->rule == Rule::Ufunc && n.args().size() > fn_.ufunc_loops.at(&n).in.size();
  }

  // a += v (a[i] += v): the loop writes the target itself; its element is input cj_e<id>_t.
  void in_place(Node& s) {
    NodePtr x = ast::make(Kind::ArrayExpr, s.loc);
    x->cval.i = next_++;
    x->cval.b = true;
    // `a[1:] += 2 * a[:-1]`: Numba computes the right side into a new array before the in-place
    // loop, so that loop must read its inputs as they were (a copy where one overlaps the
    // target); a bare array on the right (`a[1:] += a[:-1]`) is read in order, as Numba's loop.
    if (elementwise(*s.rhs()) && !has_out(*s.rhs())) x->cval.s = "rhs_expr";
    x->type = s.target()->type;
    const std::string prefix = "cj_e" + std::to_string(x->cval.i) + "_";
    std::vector<NodePtr> args;
    args.push_back(name(prefix + "t", s.target()->type.scalar, s.loc));
    args.push_back(element(s.rhs(), *x, prefix));
    x->element() = ufunc_node(operator_builtin(s), fn_.ufunc_loops.at(&s), std::move(args), s.loc);
    for (auto& in : x->inputs()) visit(*in);
    s.rhs() = std::move(x);
    if (s.target()->is(Kind::Subscript)) visit(*s.target());  // its index may hold array expressions
  }

  // Turns element-wise expression `e` into an ArrayExpr in place (the node keeps its address,
  // which its parent and the typing tables may hold).
  void fuse(Node& e) {
    NodePtr orig = std::make_unique<Node>(std::move(e));
    // The typing tables are keyed by node: the ufunc loop moves with the expression's root.
    if (auto it = fn_.ufunc_loops.find(&e); it != fn_.ufunc_loops.end()) {
      fn_.ufunc_loops[orig.get()] = it->second;
      fn_.ufunc_loops.erase(it);
    }
    e = Node(Kind::ArrayExpr, orig->loc);
    e.cval.i = next_++;
    e.type = orig->type;
    e.conv = orig->conv;  // a conversion where the value is used stays with the value
    const std::string prefix = "cj_e" + std::to_string(e.cval.i) + "_";
    if (has_out(*orig)) {  // np.add(a, b, out): the loop writes out
      const size_t nin = fn_.ufunc_loops.at(orig.get()).in.size();
      e.out() = std::move(orig->args()[nin]);
      orig->args().resize(nin);
    }
    e.element() = element(orig, e, prefix);
    for (auto& in : e.inputs()) visit(*in);  // an input may hold array expressions of its own
    if (e.out()) visit(*e.out());
  }

  // The element expression of `e`, which it takes over: operators become the calls of their
  // ufuncs, typed as the element; an input becomes a variable of its element's type.
  NodePtr element(NodePtr& e, Node& x, const std::string& prefix) {
    if (e->is(Kind::Constant) && e->type.is_scalar()) return std::move(e);  // stays a literal in the loop
    if (e->is(Kind::Constant) && e->type.tag == Type::Tag::None) return std::move(e);  // np.clip(a, None, hi)
    if (!elementwise(*e) || has_out(*e)) {  // np.sin(a, out=c) inside: its own loop, c its value
      const std::string n = prefix + std::to_string(x.inputs().size());
      NodePtr v = name(n, e->type.scalar, e->loc);
      x.inputs().push_back(std::move(e));
      return v;
    }
    const Scalar s = e->type.scalar;
    std::vector<NodePtr> args;
    switch (e->kind) {
      case Kind::BinOp:
        args.push_back(element(e->lhs(), x, prefix));
        args.push_back(element(e->rhs(), x, prefix));
        return ufunc_node(operator_builtin(*e), fn_.ufunc_loops.at(e.get()), std::move(args), e->loc);
      case Kind::UnaryOp:
        args.push_back(element(e->operand(), x, prefix));
        return ufunc_node(operator_builtin(*e), fn_.ufunc_loops.at(e.get()), std::move(args), e->loc);
      case Kind::Compare:
        args.push_back(element(e->lhs(), x, prefix));
        args.push_back(element(e->comparators()[0], x, prefix));
        return ufunc_node(operator_builtin(*e), fn_.ufunc_loops.at(e.get()), std::move(args), e->loc);
      default: {  // a call: it stays, on elements
        for (auto& a : e->args()) a = element(a, x, prefix);
        e->type = Type::scalar_of(s);
        return std::move(e);
      }
    }
  }

  NodePtr name(const std::string& n, Scalar s, SourceLoc loc) {
    NodePtr v = ast::make(Kind::Name, loc);
    v->name = n;
    v->type = Type::scalar_of(s);
    Resolved r{Resolved::Kind::Local};
    r.name = n;
    fn_.resolved[v.get()] = r;
    return v;
  }

  // A call of ufunc `b` with loop `loop`, typed as the loop's result.
  NodePtr ufunc_node(Builtin b, const UfuncLoop& loop, std::vector<NodePtr> args, SourceLoc loc) {
    NodePtr callee = ast::make(Kind::Name, loc);
    callee->name = builtin_row(b).name;
    callee->type = Type::function(builtin_row(b).name);
    NodePtr c = ast::make(Kind::Call, loc);
    c->func() = std::move(callee);
    c->args() = std::move(args);
    c->type = Type::scalar_of(loop.out[0]);
    fn_.ufunc_loops[c.get()] = loop;
    return c;
  }

  // The ufunc of an operator node (the loop typing recorded names it only by its types).
  static Builtin operator_builtin(const Node& n) {
    using O = ast::Op;
    using B = Builtin;
    const O op = n.is(Kind::Compare) ? n.ops[0] : n.op;
    if (n.is(Kind::UnaryOp)) return op == O::USub ? B::NpNegative : op == O::UAdd ? B::NpPositive : B::NpInvert;
    switch (op) {
      case O::Add: return B::NpAdd;
      case O::Sub: return B::NpSubtract;
      case O::Mult: return B::NpMultiply;
      case O::Div: return B::NpTrueDivide;
      case O::FloorDiv: return B::NpFloorDivide;
      case O::Mod: return B::NpRemainder;
      case O::Pow: return B::NpPower;
      case O::BitAnd: return B::NpBitwiseAnd;
      case O::BitOr: return B::NpBitwiseOr;
      case O::BitXor: return B::NpBitwiseXor;
      case O::LShift: return B::NpLeftShift;
      case O::RShift: return B::NpRightShift;
      case O::Lt: return B::NpLess;
      case O::LtE: return B::NpLessEqual;
      case O::Gt: return B::NpGreater;
      case O::GtE: return B::NpGreaterEqual;
      case O::Eq: return B::NpEqual;
      case O::NotEq: return B::NpNotEqual;
      default: throw InternalError("lower: an array operator without a ufunc");
    }
  }
};

void fuse_array_expressions(Program&, FunctionInstance& fn) {
  if (!fn.host_only) return;  // GPU code has no array expressions; its ufunc calls with out= stay calls
  Fuser(fn).visit(*fn.mod.func);
}

struct Pass {
  const char* name;
  void (*run)(Program&, FunctionInstance&);
};

// The passes, in order.
const Pass kPasses[] = {
    {"apply_typing_rewrites", apply_typing_rewrites},
    {"fuse_array_expressions", fuse_array_expressions},
};

}  // namespace

void lower(Program& prog, const LowerOptions& options) {
  if (options.dump)  // the trees as typing left them: each pass's change shows against these
    for (const auto& f : prog.fns) std::cerr << "cujit: before lowering, " << f->cpp_name << ":\n" << ast::dump(*f->mod.func, 2);
  for (const Pass& p : kPasses) {
    for (auto& f : prog.fns) p.run(prog, *f);
    if (!options.dump) continue;
    for (const auto& f : prog.fns)
      std::cerr << "cujit: after lowering pass " << p.name << ", " << f->cpp_name << ":\n" << ast::dump(*f->mod.func, 2);
  }
}

}  // namespace cujit
