// See typeinfer_ssa.h.
#include "compiler/typeinfer_ssa.h"

#include <algorithm>
#include <set>

namespace cujit {

// A literal, a global constant, a local's version assigned one, or minus one of these; long
// double holds every int64 and uint64 exactly.
bool static_number(const ast::Node& e, const FunctionInstance& f, const Versions& vs, long double* out) {
  using T = ast::ConstValue::Tag;
  using GK = GlobalValue::Kind;
  if (e.is(ast::Kind::Constant)) {
    switch (e.cval.tag) {
      case T::Bool: *out = e.cval.b; return true;
      case T::Int:
        *out = e.cval.big_int ? (long double)(uint64_t)e.cval.i : (long double)e.cval.i;
        return !e.cval.big_int || e.cval.fits_uint64;
      case T::Float: *out = e.cval.f; return true;
      default: return false;
    }
  }
  if (e.is(ast::Kind::Name) && f.locals.count(e.name)) return vs.constant(e.name, out);
  if (e.is(ast::Kind::Name)) {
    auto g = f.src->globals.find(e.name);
    if (g == f.src->globals.end()) return false;
    const GlobalValue& v = g->second;
    switch (v.kind) {
      case GK::Int: case GK::Bool: *out = v.i; return true;
      case GK::Float: *out = v.f; return true;
      case GK::Scalar:
        if (is_complex(v.scalar)) return false;
        *out = is_float(v.scalar) ? (long double)v.f : v.scalar == Scalar::UInt64 ? (long double)v.u : (long double)v.i;
        return true;
      default: return false;
    }
  }
  if (e.is(ast::Kind::UnaryOp) && e.op == ast::Op::USub && static_number(*e.operand(), f, vs, out)) {
    *out = -*out;
    return true;
  }
  return false;
}

using ast::target_names;

int static_truth(const ast::Node& e, const FunctionInstance& f, const Versions& vs) {
  long double x, y;
  if (e.is(ast::Kind::Constant) && e.cval.tag == ast::ConstValue::Tag::None) return 0;
  if (static_number(e, f, vs, &x)) return x != 0;
  if (e.is(ast::Kind::UnaryOp) && e.op == ast::Op::Not) {
    int t = static_truth(*e.operand(), f, vs);
    return t < 0 ? -1 : !t;
  }
  if (e.is(ast::Kind::Compare) && e.ops.size() == 1 && static_number(*e.lhs(), f, vs, &x) && static_number(*e.comparators()[0], f, vs, &y)) {
    switch (e.ops[0]) {
      case ast::Op::Eq: return x == y;
      case ast::Op::NotEq: return x != y;
      case ast::Op::Lt: return x < y;
      case ast::Op::LtE: return x <= y;
      case ast::Op::Gt: return x > y;
      case ast::Op::GtE: return x >= y;
      default: return -1;
    }
  }
  return -1;
}

void assigned_names(const std::vector<ast::NodePtr>& stmts, std::set<std::string>& out) {
  for (const auto& s : stmts) {
    if (s->is(ast::Kind::Assign))
      for (const auto& t : s->targets()) target_names(*t, out);
    if (s->is(ast::Kind::AugAssign) || s->is(ast::Kind::For)) target_names(*s->target(), out);
    ast::named_expr_targets(*s, out);  // `(x := v)` in any of its expressions
    assigned_names(s->body, out);
    assigned_names(s->orelse, out);
  }
}

void Versions::begin_walk(const ast::Node& def, const std::vector<Type>& args) {
  cur = Env{};
  loops_.clear();
  breaks_.clear();
  changed_ = false;
  for (auto& v : vers_) {
    v.incoming.clear();
    v.conflict = false;
  }
  reads_.clear();
  stores_.clear();
  params_.clear();
  for (size_t i = 0; i < def.params.size() && i < args.size(); ++i) {
    params_.push_back(define(&def.params[i], def.params[i].name, args[i], def.params[i].loc.line));
    cur.vars[def.params[i].name] = params_.back();
  }
}

void Versions::end_if(const ast::Node& s, Env then_env) {
  cur = merge(&s, 0, {{std::move(then_env), {&s, Edge::BodyEnd}}, {std::move(cur), {&s, Edge::OrelseEnd}}});
}

int Versions::define(const void* site, const std::string& name, const Type& t, int line) {
  auto it = defs_.find(site);
  if (it == defs_.end()) {
    Version v;
    v.name = name;
    v.type = t;
    v.line = line;
    vers_.push_back(std::move(v));
    defs_[site] = (int)vers_.size() - 1;
    changed_ = changed_ || t.known();
    return (int)vers_.size() - 1;
  }
  Version& v = vers_[it->second];
  v.has_const = false;
  if (t.known()) {
    // A later pass may see a wider value (a loop's join widened since): the version widens too.
    Type u = unify(v.type, t);
    if (!u.known()) u = t;
    if (u != v.type) {
      v.type = u;
      changed_ = true;
    }
  }
  return it->second;
}

int Versions::assign(const ast::Node& target, const Type& t) {
  const std::string& name = target.name;
  // A function or a type object may be held (`f = cuda.atomic.add`): it is known at compile time.
  // A str is a value in @jit code only (prelude/host_str.h).
  if (t.tag == Type::Tag::String && !strings_)
    user_error(src_, target.loc, ErrorKind::Unsupported,
               "strings are not supported in GPU code (as in numba-cuda, str values exist in @jit code only): '" + name + "'");
  if (t.known() && (t.tag == Type::Tag::Module || t.tag == Type::Tag::Range ||
                    t.tag == Type::Tag::Void || t.tag == Type::Tag::Iterator)) {
    if (t.tag == Type::Tag::Void)
      user_error(src_, target.loc, ErrorKind::Typing, "cannot assign the result of a function that returns nothing to '" + name + "'");
    user_error(src_, target.loc, ErrorKind::Unsupported, "a variable cannot hold a " + t.str() + " ('" + name + "')");
  }
  if (t.is_optional() && !optionals_)
    user_error(src_, target.loc, ErrorKind::Unsupported,
               "'" + name + "' may be None (" + t.str() + "), which is supported in @jit code only");
  int v = define(&target, name, t, target.loc.line);
  cur.vars[name] = v;
  store(&target, v);
  return v;
}

void Versions::set_constant(const std::string& name, long double c) {
  Version& v = vers_[cur.vars.at(name)];
  v.has_const = true;
  v.value = c;
}

bool Versions::constant(const std::string& name, long double* out) const {
  auto it = cur.vars.find(name);
  if (it == cur.vars.end() || !vers_[it->second].has_const) return false;
  *out = vers_[it->second].value;
  return true;
}

int Versions::join(const ast::Node* at, int slot, const std::string& name) {
  auto key = std::make_pair(std::make_pair(at, slot), name);
  auto it = joins_.find(key);
  if (it != joins_.end()) return it->second;
  Version v;
  v.name = name;
  v.is_join = true;
  vers_.push_back(std::move(v));
  joins_[key] = (int)vers_.size() - 1;
  return (int)vers_.size() - 1;
}

void Versions::add_incoming(int j, int v, EdgeKey edge) {
  vers_[j].incoming.emplace_back(v, edge);
  if (v < 0 || !vers_[v].type.known()) return;  // unassigned on that path (Numba's UNDEFINED)
  Version& J = vers_[j];
  Type u = unify(J.type, vers_[v].type);
  // Not an error yet: only a join that something reads must unify (finish).
  if (!u.known() || (u.is_optional() && !optionals_)) {
    J.conflict = true;
    return;
  }
  if (u != J.type) {
    J.type = u;
    changed_ = true;
  }
}

void Versions::enter_loop(const ast::Node& loop) {
  std::set<std::string> names;
  assigned_names(loop.body, names);
  if (loop.is(ast::Kind::For)) target_names(*loop.target(), names);
  if (loop.is(ast::Kind::While)) ast::named_expr_targets(*loop.test(), names);  // the test runs each iteration
  Loop l;
  l.dead = cur.dead;
  for (const auto& n : names) {
    int j = join(&loop, 0, n);
    auto it = cur.vars.find(n);
    add_incoming(j, it == cur.vars.end() ? -1 : it->second, {&loop, Edge::LoopEntry});
    cur.vars[n] = j;
    l.head[n] = j;
  }
  loops_.push_back(std::move(l));
}

void Versions::back_edge(EdgeKey edge) {
  // Dead code reaches a live loop's head never; a dead loop's joins still need types.
  if (loops_.empty() || (cur.dead && !loops_.back().dead)) return;
  for (const auto& [n, j] : loops_.back().head) add_incoming(j, cur.vars.at(n), edge);
}

void Versions::leave_loop(EdgeKey edge) {
  if (!loops_.empty()) loops_.back().exits.push_back({cur, edge});
  cur.dead = true;
}

void Versions::end_body(const ast::Node& loop, Env head) {
  back_edge({&loop, Edge::BodyEnd});
  breaks_.push_back(std::move(loops_.back().exits));
  loops_.pop_back();
  cur = std::move(head);
}

void Versions::exit_loop(const ast::Node& loop) {
  std::vector<std::pair<Env, EdgeKey>> exits = std::move(breaks_.back());
  breaks_.pop_back();
  exits.push_back({cur, {&loop, Edge::OrelseEnd}});
  cur = merge(&loop, 1, exits);
}

Env Versions::merge(const ast::Node* at, int slot, const std::vector<std::pair<Env, EdgeKey>>& in) {
  std::vector<const std::pair<Env, EdgeKey>*> live;
  for (const auto& e : in)
    if (!e.first.dead) live.push_back(&e);
  if (live.empty()) {  // nothing gets here: what follows is typed with some path's versions
    Env r = in.empty() ? Env{} : in[0].first;
    r.dead = true;
    return r;
  }
  if (live.size() == 1) return live[0]->first;
  std::set<std::string> names;
  for (auto* e : live)
    for (const auto& [n, v] : e->first.vars) names.insert(n);
  Env r;
  for (const auto& n : names) {
    std::vector<int> vs;
    for (auto* e : live) {
      auto it = e->first.vars.find(n);
      vs.push_back(it == e->first.vars.end() ? -1 : it->second);
    }
    if (std::all_of(vs.begin(), vs.end(), [&](int v) { return v == vs[0]; })) {
      r.vars[n] = vs[0];
      continue;
    }
    int j = join(at, slot, n);
    for (size_t i = 0; i < live.size(); ++i) add_incoming(j, vs[i], live[i]->second);
    r.vars[n] = j;
  }
  return r;
}

void Versions::defs_reaching(int v, std::vector<int>& out, std::vector<bool>& seen) const {
  if (v < 0 || seen[v]) return;
  seen[v] = true;
  if (!vers_[v].is_join) {
    out.push_back(v);
    return;
  }
  for (const auto& [w, e] : vers_[v].incoming) defs_reaching(w, out, seen);
}

// Marks the joins that `load`, a read of version `v`, needs as live, and refuses one whose
// incoming versions do not unify, naming the two assignments that clash.
void Versions::check_join(const ast::Node& load, int v) {
  std::vector<int> work{v};
  while (!work.empty()) {
    int x = work.back();
    work.pop_back();
    if (x < 0 || !vers_[x].is_join || vers_[x].live) continue;
    Version& J = vers_[x];
    J.live = true;
    for (const auto& [w, e] : J.incoming) work.push_back(w);
    if (!J.conflict) continue;
    std::vector<int> defs;
    std::vector<bool> seen(vers_.size(), false);
    defs_reaching(x, defs, seen);
    std::stable_sort(defs.begin(), defs.end(), [&](int a, int b) { return vers_[a].line < vers_[b].line; });
    for (size_t a = 0; a < defs.size(); ++a) {
      for (size_t b = a + 1; b < defs.size(); ++b) {
        const Version &A = vers_[defs[a]], &B = vers_[defs[b]];
        if (!A.type.known() || !B.type.known()) continue;
        Type u = unify(A.type, B.type);
        if (u.known() && !(u.is_optional() && !optionals_)) continue;
        std::string lines = A.line == B.line ? "line " + std::to_string(A.line)
                                             : "lines " + std::to_string(A.line) + " and " + std::to_string(B.line);
        user_error(src_, load.loc, ErrorKind::Typing,
                   "Cannot unify " + A.type.str() + " and " + B.type.str() + " for '" + J.name + "': the values it is given on " +
                       lines + " both reach this use" +
                       (u.known() ? " (a variable that may be None is supported in @jit code only)" : ""));
      }
    }
    user_error(src_, load.loc, ErrorKind::Typing, "Cannot unify the values of '" + J.name + "' that reach this use");
  }
}

void Versions::finish(FunctionInstance& f) {
  for (auto& v : vers_) v.live = false;
  for (const auto& [load, v] : reads_) check_join(*load, v);
  // One C++ variable per name and type: versions of one type never hold values at the same time
  // (a read sees only the version its name holds there), so they share it. None has no value
  // and no variable.
  std::map<std::pair<std::string, std::string>, std::string> var_of;
  std::map<std::string, int> count, label;
  for (auto& v : vers_) {
    if (v.is_join && !v.live) continue;
    v.live = true;
    if (!f.locals.count(v.name) || !f.locals[v.name].known()) f.locals[v.name] = v.type;
    int k = label[v.name]++;
    f.versions.emplace_back(k ? v.name + "." + std::to_string(k) : v.name, v.type);
    if (!v.type.known() || v.type.tag == Type::Tag::None) continue;
    auto key = std::make_pair(v.name, v.type.str());
    auto it = var_of.find(key);
    if (it == var_of.end()) {
      int n = count[v.name]++;
      std::string cpp = n ? "v" + std::to_string(n) + "_" + v.name : "v_" + v.name;
      it = var_of.emplace(key, cpp).first;
      f.cpp_locals.push_back({cpp, v.type, v.name});
    }
    v.cpp = it->second;
  }
  for (int p : params_) f.param_vars.push_back({vers_[p].cpp, vers_[p].type, vers_[p].name});
  for (const auto& [target, v] : stores_) {
    if (!vers_[v].type.known())
      user_error(src_, target->loc, ErrorKind::Typing, "could not infer the type of '" + vers_[v].name + "'");
    f.stores[target] = {vers_[v].cpp, vers_[v].type, vers_[v].name};
  }
  for (const auto& [load, v] : reads_) f.resolved[load].name = vers_[v].cpp;
  for (const auto& J : vers_) {
    if (!J.is_join || !J.live) continue;
    for (const auto& [v, edge] : J.incoming)
      if (v >= 0 && vers_[v].cpp != J.cpp) f.join_copies[edge].push_back({{J.cpp, J.type, J.name}, {vers_[v].cpp, vers_[v].type, J.name}});
  }
}

}  // namespace cujit
