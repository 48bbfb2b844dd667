// See parallel.h. One walk over the loop body, in statement order, tracks the names an iteration
// has certainly assigned so far; a read of a body-assigned name before that is a value carried
// from the previous iteration.
#include "compiler/parallel.h"

#include <algorithm>
#include <map>
#include <set>

namespace cujit {
namespace {

using K = ast::Kind;
using ast::Op;

// The OpenMP reduction operator of an update `x op= e` ("" when `op` does not reduce). `-` and
// `/` reduce as `+` and `*`: each thread starts from the identity, so its copy ends as minus the
// sum (one over the product) of what it saw, which `+` (`*`) then combines with the old value.
std::string update_op(Op op) {
  switch (op) {
    case Op::Add: case Op::Sub: return "+";
    case Op::Mult: case Op::Div: return "*";
    case Op::BitOr: return "|";
    case Op::BitAnd: return "&";
    case Op::BitXor: return "^";
    default: return "";
  }
}

class Planner {
 public:
  explicit Planner(const FunctionInstance& f) : f_(f) {}

  ParallelLoop plan(const ast::Node& loop) {
    if (!loop.orelse.empty())
      fail(loop, "a prange loop cannot have an else clause: its iterations run in no fixed order");
    std::set<std::string> defined;
    store_target(*loop.target(), defined);
    statements(loop.body, defined, 0);
    ParallelLoop p;
    for (const auto& [name, red] : reductions_) {
      if (plain_.count(name)) continue;  // also assigned outright: a per-iteration variable
      // The running value is one C++ variable: the version each update reads (the join at the
      // loop's head) and the one it writes have the same type, as they do unless an update
      // changes the type (typeinfer_ssa.h gives each type a variable of its own).
      std::set<std::string> vars;
      const LocalVar* written = nullptr;
      for (const ast::Node* u : red.updates) {
        written = &f_.stores.at(u->is(K::AugAssign) ? u->target().get() : u->targets()[0].get());
        vars.insert(written->cpp);
      }
      for (const ast::Node* n : reduction_operands_)
        if (n->name == name) vars.insert(f_.resolved.at(n).name);
      const Type& t = written->type;
      if (!t.is_scalar())
        fail(*red.at, "'" + name + "' is a " + t.str() + ": only numbers can be reduced in a prange loop");
      if (vars.size() != 1)
        fail(*red.at, "'" + name + "' changes type in this prange loop (it is " + t.str() +
                          " after this update): give it that type before the loop");
      p.reductions.emplace_back(*vars.begin(), red.op);
    }
    // Every C++ variable of a private name (one per type it takes) is the thread's own.
    for (const auto& name : order_) {
      if (reductions_.count(name) && !plain_.count(name)) continue;
      for (const LocalVar& v : f_.cpp_locals)
        if (v.name == name) p.privates.push_back(v.cpp);
    }
    // Checked once every name's role is known: a reduction's running value is only its own
    // thread's part, so reading it outside its updates would see partial results; a private name
    // read before the iteration assigns it would see another iteration's value.
    for (const auto& [n, was_defined] : loads_) {
      const bool reduced = reductions_.count(n->name) && !plain_.count(n->name);
      if (reduced && !reduction_operands_.count(n))
        fail(*n, "'" + n->name + "' is reduced in this prange loop (line " +
                     std::to_string(reductions_.at(n->name).at->loc.line) +
                     ") and read here: each thread sees only its own partial value; read it after the loop");
      if (!reduced && plain_.count(n->name) && !was_defined)
        fail(*n, "'" + n->name + "' is read before this iteration of the prange loop assigns it, so it would "
                     "carry a value from another iteration; assign it first in the loop body, or make it a "
                     "reduction (x += ..., x = min(x, ...))");
    }
    return p;
  }

 private:
  struct Reduction {
    std::string op;
    const ast::Node* at;  // the first update, for messages
    std::vector<const ast::Node*> updates;  // every update statement
  };
  const FunctionInstance& f_;
  std::vector<std::string> order_;                // names the body assigns, first assignment first
  std::set<std::string> plain_;                   // names the body assigns outright
  std::map<std::string, Reduction> reductions_;   // names the body updates as reductions
  std::set<const ast::Node*> reduction_operands_;  // `x` in `x = x + e` / min(x, e)
  // Every read of a local, and whether this iteration had certainly assigned it by then.
  std::vector<std::pair<const ast::Node*, bool>> loads_;

  [[noreturn]] void fail(const ast::Node& at, const std::string& msg) {
    user_error(f_.mod.source, at.loc, ErrorKind::Unsupported, msg);
  }

  void note_assigned(const std::string& name) {
    if (std::find(order_.begin(), order_.end(), name) == order_.end()) order_.push_back(name);
  }

  // Stores to `target` outright: every name in it becomes private and is defined from here on.
  void store_target(const ast::Node& target, std::set<std::string>& defined) {
    if (target.is(K::Name)) {
      note_assigned(target.name);
      plain_.insert(target.name);
      defined.insert(target.name);
    } else if (target.is(K::Tuple)) {
      for (const auto& e : target.elts()) store_target(*e, defined);
    } else {
      expr(target, defined);  // a[i] = v: the array and the index are reads
    }
  }

  void add_reduction(const std::string& name, const std::string& op, const ast::Node& at) {
    note_assigned(name);
    auto it = reductions_.find(name);
    if (it == reductions_.end()) {
      reductions_[name] = {op, &at, {&at}};
    } else if (it->second.op != op) {
      fail(at, "'" + name + "' is combined with both " + it->second.op + " (line " +
                   std::to_string(it->second.at->loc.line) + ") and " + op + " in this prange loop");
    } else {
      it->second.updates.push_back(&at);
    }
  }

  // `x = x + e`, `x = e * x`, `x = x - e`, `x = x / e`, `x = min(x, e)`: the reduction's operator
  // and the node of the `x` operand, or "" when `value` is not such an update of `name`.
  std::string reduction_form(const std::string& name, const ast::Node& value, const ast::Node** operand) {
    auto is_x = [&](const ast::NodePtr& n) { return n && n->is(K::Name) && n->name == name; };
    if (value.is(K::BinOp)) {
      std::string op = update_op(value.op);
      if (op.empty()) return "";
      if (is_x(value.lhs())) { *operand = value.lhs().get(); return op; }
      const bool commutes = value.op == Op::Add || value.op == Op::Mult || value.op == Op::BitOr ||
                            value.op == Op::BitAnd || value.op == Op::BitXor;
      if (commutes && is_x(value.rhs())) { *operand = value.rhs().get(); return op; }
      return "";
    }
    if (value.is(K::Call) && value.keywords.empty() && value.args().size() >= 2) {
      auto r = f_.resolved.find(value.func().get());
      if (r == f_.resolved.end() || r->second.kind != Resolved::Kind::Builtin) return "";
      if (r->second.builtin != Builtin::Min && r->second.builtin != Builtin::Max) return "";
      for (const auto& arg : value.args()) {
        if (is_x(arg)) { *operand = arg.get(); return r->second.builtin == Builtin::Min ? "min" : "max"; }
      }
    }
    return "";
  }

  // `depth`: loops nested inside the prange body around these statements (break leaves those).
  void statements(const std::vector<ast::NodePtr>& body, std::set<std::string>& defined, int depth) {
    for (const auto& s : body) statement(*s, defined, depth);
  }

  // The walk sees each node in the form typing gave it (typed_form): it runs before the lowering
  // stage puts those forms in the tree.
  void statement(const ast::Node& s_node, std::set<std::string>& defined, int depth) {
    const ast::Node& s = typed_form(f_, s_node);
    switch (s.kind) {
      case K::Expr: expr(*s.value(), defined); return;
      case K::Assign: {
        const ast::Node* operand = nullptr;
        std::string op;
        if (s.targets().size() == 1 && s.targets()[0]->is(K::Name) && !defined.count(s.targets()[0]->name))
          op = reduction_form(s.targets()[0]->name, typed_form(f_, *s.rhs()), &operand);
        if (!op.empty()) {
          reduction_operands_.insert(operand);
          expr(*s.rhs(), defined);
          add_reduction(s.targets()[0]->name, op, s);
          return;
        }
        expr(*s.rhs(), defined);
        for (const auto& t : s.targets()) store_target(*t, defined);
        return;
      }
      case K::AugAssign: {
        expr(*s.rhs(), defined);
        if (!s.target()->is(K::Name)) { expr(*s.target(), defined); return; }  // a[i] += v updates shared memory
        const std::string& name = s.target()->name;
        std::string op = update_op(s.op);
        if (defined.count(name) || op.empty()) {
          read(*s.target(), defined);  // x //= 2 reads x: fine only if this iteration assigned it
          store_target(*s.target(), defined);
        } else {
          read(*s.target(), defined);  // the running value: allowed if `name` stays a reduction
          reduction_operands_.insert(s.target().get());
          add_reduction(name, op, s);
        }
        return;
      }
      case K::Return: fail(s, "return inside a prange loop: its iterations run on several threads at once");
      case K::Break:
        if (depth == 0) fail(s, "break out of a prange loop: its iterations run on several threads at once");
        return;
      case K::Raise:  // its arguments are read (the class is no variable)
        if (s.exc() && s.exc()->is(K::Call))
          for (const auto& a : s.exc()->args()) expr(*a, defined);
        return;
      case K::If: case K::Try: {
        if (s.is(K::If)) expr(*s.test(), defined);
        std::set<std::string> then_defs = defined, else_defs = defined;
        statements(s.body, then_defs, depth);
        statements(s.orelse, else_defs, depth);
        for (const auto& n : then_defs)
          if (else_defs.count(n)) defined.insert(n);  // assigned on both branches
        return;
      }
      case K::While: case K::For: {
        if (s.is(K::While)) expr(*s.test(), defined); else expr(*s.iter(), defined);
        // The body may run zero times: what it assigns is not certain after it, but its own
        // later statements and iterations see its earlier ones.
        std::set<std::string> inner = defined;
        if (s.is(K::For)) store_target(*s.target(), inner);
        statements(s.body, inner, depth + 1);
        statements(s.orelse, inner, depth);
        if (s.is(K::For)) store_target(*s.target(), defined);  // Python keeps the last value
        return;
      }
      default: return;  // pass, continue
    }
  }

  void read(const ast::Node& n, const std::set<std::string>& defined) {
    loads_.emplace_back(&n, defined.count(n.name) > 0);
  }

  void expr(const ast::Node& e_node, const std::set<std::string>& defined) {
    const ast::Node& e = typed_form(f_, e_node);
    // The plan's private and reduction names come from assignment statements: a name bound
    // inside an expression would be shared by the threads.
    if (e.is(K::NamedExpr)) fail(e, "an assignment expression (:=) inside a prange loop is not supported; assign the name on a line of its own");
    if (e.is(K::Name)) {
      auto r = f_.resolved.find(&e);
      if (r != f_.resolved.end() && r->second.kind == Resolved::Kind::Local) read(e, defined);
      return;
    }
    ast::for_each_child(e, [&](const ast::Node& c) { expr(c, defined); });
  }
};

}  // namespace

ParallelLoop plan_parallel_loop(const ast::Node& loop, const FunctionInstance& f) {
  return Planner(f).plan(loop);
}

}  // namespace cujit
