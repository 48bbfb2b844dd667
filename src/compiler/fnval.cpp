// The operator module's functions as the expressions they stand for (see fnval.h).
#include "compiler/fnval.h"

#include <map>

#include "compiler/fnargs.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {
struct OperatorForm {
  ast::Kind kind;  // BinOp, Compare, UnaryOp or Subscript
  ast::Op op;
  int arity;
};

const OperatorForm* operator_form(const std::string& qualified) {
  using K = ast::Kind;
  using O = ast::Op;
  // The in-place forms (iadd, ...) compute what the plain ones do on numbers, which is all Numba
  // types them for besides arrays (refused by the caller: an array's would update it in place).
  static const std::map<std::string, OperatorForm> forms = {
      {"add", {K::BinOp, O::Add, 2}}, {"sub", {K::BinOp, O::Sub, 2}}, {"mul", {K::BinOp, O::Mult, 2}},
      {"truediv", {K::BinOp, O::Div, 2}}, {"floordiv", {K::BinOp, O::FloorDiv, 2}},
      {"mod", {K::BinOp, O::Mod, 2}}, {"pow", {K::BinOp, O::Pow, 2}}, {"lshift", {K::BinOp, O::LShift, 2}},
      {"rshift", {K::BinOp, O::RShift, 2}}, {"and_", {K::BinOp, O::BitAnd, 2}}, {"or_", {K::BinOp, O::BitOr, 2}},
      {"xor", {K::BinOp, O::BitXor, 2}},
      {"iadd", {K::BinOp, O::Add, 2}}, {"isub", {K::BinOp, O::Sub, 2}}, {"imul", {K::BinOp, O::Mult, 2}},
      {"itruediv", {K::BinOp, O::Div, 2}}, {"ifloordiv", {K::BinOp, O::FloorDiv, 2}},
      {"imod", {K::BinOp, O::Mod, 2}}, {"ipow", {K::BinOp, O::Pow, 2}}, {"ilshift", {K::BinOp, O::LShift, 2}},
      {"irshift", {K::BinOp, O::RShift, 2}}, {"iand", {K::BinOp, O::BitAnd, 2}}, {"ior", {K::BinOp, O::BitOr, 2}},
      {"ixor", {K::BinOp, O::BitXor, 2}},
      {"eq", {K::Compare, O::Eq, 2}}, {"ne", {K::Compare, O::NotEq, 2}}, {"lt", {K::Compare, O::Lt, 2}},
      {"le", {K::Compare, O::LtE, 2}}, {"gt", {K::Compare, O::Gt, 2}}, {"ge", {K::Compare, O::GtE, 2}},
      {"neg", {K::UnaryOp, O::USub, 1}}, {"pos", {K::UnaryOp, O::UAdd, 1}}, {"invert", {K::UnaryOp, O::Invert, 1}},
      {"not_", {K::UnaryOp, O::Not, 1}}, {"getitem", {K::Subscript, O::None, 2}},
      {"setitem", {K::Assign, O::None, 3}},
  };
  if (qualified == "pow") return &forms.at("pow");  // the builtin pow(a, b) is a ** b, as operator.pow
  if (qualified.rfind("operator.", 0) != 0) return nullptr;
  auto it = forms.find(qualified.substr(9));
  return it == forms.end() ? nullptr : &it->second;
}

std::string arity_message(const std::string& qualified, const OperatorForm& f, size_t given) {
  return qualified + "() takes " + std::to_string(f.arity) + " positional argument" + (f.arity == 1 ? "" : "s") +
         " but " + std::to_string(given) + (given == 1 ? " was" : " were") + " given";
}
}  // namespace

std::string rewrite_operator_call(ast::Node& call, const std::string& qualified, bool statement) {
  const OperatorForm* f = operator_form(qualified);
  if (!f) return "unknown function " + qualified;
  if (!call.keywords.empty()) return qualified + "() takes no keyword arguments";
  if (call.args().size() != (size_t)f->arity) return arity_message(qualified, *f, call.args().size());
  if (f->kind == ast::Kind::Assign)
    return statement ? "" : qualified + "() returns None: it is supported as a statement of its own only";
  // The Call's children are taken by role before the node changes kind; the new kind's are set
  // by its own roles.
  std::vector<ast::NodePtr> args = std::move(call.args());
  call.args().clear();
  call.func().reset();
  call.kind = f->kind;
  // A call is evaluated at run time: Python folds `2 ** -1` (0.5) but not pow(2, -1) (int ** int,
  // 0 in Numba), nor operator.add(2**62, 2**62) (wraps): fold_value leaves a marked node alone.
  call.name = kOperatorCall;
  switch (f->kind) {
    case ast::Kind::BinOp:
      call.op = f->op;
      call.name = qualified;  // typing reads it (an in-place form on an array; no constant folding)
      call.lhs() = std::move(args[0]);
      call.rhs() = std::move(args[1]);
      break;
    case ast::Kind::UnaryOp: call.op = f->op; call.operand() = std::move(args[0]); break;
    case ast::Kind::Compare:
      call.ops = {f->op};
      call.lhs() = std::move(args[0]);
      call.comparators().push_back(std::move(args[1]));
      break;
    default:  // Subscript: a[i], and a[i, j] for a tuple i
      call.value() = std::move(args[0]);
      call.index() = std::move(args[1]);
      break;
  }
  return "";
}

namespace {
void names_in(const ast::Node& n, std::set<std::string>& out) {
  if (n.is(ast::Kind::Name)) out.insert(n.name);
  ast::for_each_child(n, [&](const ast::Node& c) { names_in(c, out); });
}

// The names an assignment target binds: a[i] = v binds none (it reads a and i).
void bound_in(const ast::Node& t, std::set<std::string>& out) {
  if (t.is(ast::Kind::Name)) out.insert(t.name);
  if (t.is(ast::Kind::Tuple) || t.is(ast::Kind::List)) for (const auto& x : t.elts()) bound_in(*x, out);
}

void scan(const ast::Node& n, std::set<std::string>& sizing, std::set<std::string>& assigned,
          std::set<std::string>* tests = nullptr) {
  using K = ast::Kind;
  if (tests && n.is(K::If) && n.test()->is(K::Name)) tests->insert(n.test()->name);
  if (n.is(K::Call) && n.func() && n.func()->is(K::Attribute) && n.func()->name == "array") {
    if (!n.args().empty()) names_in(*n.args()[0], sizing);
    for (const auto& k : n.keywords) if (k.name == "shape" && k.value) names_in(*k.value, sizing);
  }
  if (n.is(K::Assign)) for (const auto& t : n.targets()) bound_in(*t, assigned);
  if ((n.is(K::AugAssign) || n.is(K::For)) && n.target()) bound_in(*n.target(), assigned);
  ast::for_each_child(n, [&](const ast::Node& c) { scan(c, sizing, assigned, tests); });
}
}  // namespace

std::set<std::string> shape_params(const ast::Node& func) {
  std::set<std::string> sizing, assigned, out;
  for (const auto& s : func.body) scan(*s, sizing, assigned);
  for (const auto& p : func.params)
    if (sizing.count(p.name) && !assigned.count(p.name)) out.insert(p.name);
  return out;
}

std::set<std::string> branch_params(const ast::Node& func) {
  std::set<std::string> sizing, assigned, tests, out;
  for (const auto& s : func.body) scan(*s, sizing, assigned, &tests);
  for (const auto& p : func.params)
    if (tests.count(p.name) && !assigned.count(p.name)) out.insert(p.name);
  return out;
}

void forget_nodes(FunctionInstance& f, const ast::Node& n) {
  f.resolved.erase(&n);
  f.unwrap.erase(&n);
  ast::for_each_child(n, [&](const ast::Node& c) { forget_nodes(f, c); });
}

int constant_branch(const FunctionInstance& f, const ast::Node& test) {
  // `x is None` / `x is not None` of a variable whose type is known (typed just before): None's
  // type is only None, and no other type but an optional ever is, so Numba prunes the branch not
  // taken (a parameter whose default None was left out, or that was passed a number).
  if (test.is(ast::Kind::Compare) && test.ops.size() == 1 && (test.ops[0] == ast::Op::Is || test.ops[0] == ast::Op::IsNot)) {
    auto is_none = [](const ast::Node& n) { return n.is(ast::Kind::Constant) && n.cval.tag == ast::ConstValue::Tag::None; };
    const ast::Node* other = is_none(*test.comparators()[0]) ? test.lhs().get() : is_none(*test.lhs()) ? test.comparators()[0].get() : nullptr;
    if (!other || !other->is(ast::Kind::Name) || !other->type.known() || other->type.is_optional()) return -1;
    const bool none = other->type.tag == Type::Tag::None;
    return test.ops[0] == ast::Op::Is ? none : !none;
  }
  if (!test.is(ast::Kind::Name)) return -1;
  auto c = f.const_params.find(test.name);
  if (c == f.const_params.end()) return -1;
  const GlobalValue& g = c->second;
  if (g.kind == GlobalValue::Kind::Bool || g.kind == GlobalValue::Kind::Int) return g.i != 0;
  return -1;
}

bool ends_block(const FunctionInstance& f, const ast::Node& s) {
  if (!s.is(ast::Kind::If)) return false;
  const int live = constant_branch(f, *s.test());
  return live >= 0 && !can_fall_through(live ? s.body : s.orelse);
}

bool rewrite_setitem_statement(ast::Node& stmt, const std::string& qualified) {
  if (qualified != "operator.setitem" || !stmt.is(ast::Kind::Expr) || !stmt.value()->is(ast::Kind::Call)) return false;
  ast::Node& call = *stmt.value();
  if (call.args().size() != 3 || !call.keywords.empty()) return false;
  ast::NodePtr target = ast::make(ast::Kind::Subscript, call.loc);
  target->value() = std::move(call.args()[0]);
  target->index() = std::move(call.args()[1]);
  ast::NodePtr value = std::move(call.args()[2]);
  ast::NodePtr old_call = std::move(stmt.value());  // taken by role before the kind changes; freed at return
  stmt.kind = ast::Kind::Assign;
  stmt.targets().clear();
  stmt.targets().push_back(std::move(target));
  stmt.rhs() = std::move(value);
  return true;
}

std::vector<Type> resolve_function_args(Program& prog, const FunctionSource& src, std::vector<Type> args) {
  for (Type& t : args) {
    if (!is_function_arg(t) || t.user_fn >= 0) continue;
    auto g = src.globals.find(function_arg_global(t));
    if (g == src.globals.end() || g->second.kind != GlobalValue::Kind::Function || !g->second.fn)
      throw InternalError("no function was captured for the argument " + t.str());
    t.user_fn = prog.source_index(g->second.fn, g->second.sigs);
  }
  return args;
}

}  // namespace cujit
