// Code generation of statements (Emitter, codegen_emitter.h): blocks, if/while/for and their
// else clauses, range and prange loops (OpenMP for parallel code), and the targets of
// assignments. Split from codegen.cpp.
#include <cstdlib>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <sstream>

#include "compiler/codegen_emitter.h"
#include "compiler/codegen_iter.h"
#include "compiler/fnval.h"
#include "compiler/libdevice.h"
#include "compiler/layout.h"

namespace cujit {
namespace detail {

void Emitter::block(const std::vector<ast::NodePtr>& stmts) {
  for (const auto& s : stmts) {
    stmt(*s);
    if (ends_block(*fn_, *s)) return;  // the rest was pruned when typing (fnval.h)
  }
}

// Every node kind has a case here and there is no `default:`: a new kind fails to compile until
// it is handled (ast_cases.inc names the other category's kinds).
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
void Emitter::stmt(const ast::Node& s) {
  using K = ast::Kind;
  body_ << line(s);
  line_ = s.loc.line;
  if (co_stop(s)) return;  // a barrier or warp operation of a coroutine (codegen_simco.cpp)
  switch (s.kind) {
    case K::Expr: {
      if (s.value()->is(K::Constant)) return;  // docstrings and bare literals do nothing
      // A bare module, function or type (`cuda.atomic`, `math.sqrt`) names something and does
      // nothing, in Python and here.
      const Type::Tag t = s.value()->type.tag;
      if (t == Type::Tag::Module || t == Type::Tag::Function || t == Type::Tag::DType) return;
      out("(void)(" + expr(*s.value()) + ");");
      return;
    }
    case K::Assign: {
      if (s.targets().size() == 1) { store(*s.targets()[0], expr(*s.rhs()), s.rhs()->type); return; }
      std::string t = "cj_t" + std::to_string(tmp_++);
      out("{ auto " + t + " = " + expr(*s.rhs()) + ";");
      ++indent_;
      for (const auto& tg : s.targets()) store(*tg, t, s.rhs()->type);
      --indent_;
      out("}");
      return;
    }
    case K::AugAssign: {
      if (s.rhs()->is(K::ArrayExpr) && s.rhs()->cval.b) {  // a += v on an array: one loop into a (lower.cpp)
        const std::string a = expr(*s.target());
        if (s.target()->is(K::Name)) store(*s.target(), array_expr(*s.rhs(), a), s.target()->type);
        else out(array_expr(*s.rhs(), a) + ";");  // a[i] += v writes through the view
        return;
      }
      if (s.target()->type.is_set()) {  // s |= t changes the set in place (its aliases see it)
        const std::string l = expr(*s.target());
        out(set_inplace_code(s.op, l, expr(*s.rhs())) + ";");
        return;
      }
      if (s.target()->type.is_list()) {  // l += x, l *= n change the list in place (its aliases see it)
        const std::string l = expr(*s.target());
        out(std::string(s.op == ast::Op::Add ? "cj::list_extend(" : "cj::list_irepeat(") + l + ", " + expr(*s.rhs()) + ");");
        store(*s.target(), l, s.target()->type);
        return;
      }
      if (s.target()->is(K::Subscript) && s.target()->value()->type.is_dict()) {  // d[k] += v: read, then stored
        store(*s.target(), binop(s.op, expr(*s.target()), s.target()->type, expr(*s.rhs()), s.rhs()->type, s.type), s.type);
        return;
      }
      if (s.target()->is(K::Subscript) && !s.target()->value()->type.is_record() && !s.target()->value()->type.is_list()) {
        // Evaluate the element's address once: arr[f(i)] += v.
        std::string ref = "cj_r" + std::to_string(tmp_++);
        out("{ auto& " + ref + " = " + index_expr(*s.target(), kReadWrite) + ";");
        std::string v = binop(s.op, ref, s.target()->type, expr(*s.rhs()), s.rhs()->type, s.type);
        out("  " + ref + " = " + convert(v, s.type, s.target()->type) + "; }");
        return;
      }
      std::string cur = expr(*s.target());
      std::string v = binop(s.op, cur, s.target()->type, expr(*s.rhs()), s.rhs()->type, s.type);
      store(*s.target(), v, s.type);
      return;
    }
    case K::Return:
      if (co()) {  // a kernel's coroutine: finished (codegen_simco.cpp)
        if (s.value() && s.value()->type.tag != Type::Tag::None) out("(void)(" + expr(*s.value()) + ");");
        out("return 0;");
      } else if (fn_->dead_returns.count(&s)) {  // never runs; its value may not convert to the result
        out(fn_->ret.tag == Type::Tag::Void || fn_->ret.tag == Type::Tag::None ? "return;" : "return " + type(fn_->ret) + "{};");
      } else if (fn_->ret.is_optional() && (!s.value() || s.value()->type.tag == Type::Tag::None)) {
        out("return " + type(fn_->ret) + "{};");  // None
      } else if (!s.value() || fn_->ret.tag == Type::Tag::Void) {
        if (s.value() && s.value()->type.tag != Type::Tag::None) out("(void)(" + expr(*s.value()) + ");");
        out("return;");
      } else {
        out("return " + convert(expr(*s.value()), s.value()->type, fn_->ret) + ";");
      }
      return;
    case K::If:
      if (int live = constant_branch(*fn_, *s.test()); live >= 0) return block(live ? s.body : s.orelse);
      out("if (" + co_test(*s.test()) + ") {");  // a coroutine's stop first where the test is one
      ++indent_; block(s.body); copies(s, Edge::BodyEnd); --indent_;
      if (!s.orelse.empty() || fn_->join_copies.count({&s, Edge::OrelseEnd})) {
        out("} else {");
        ++indent_; block(s.orelse); copies(s, Edge::OrelseEnd); --indent_;
      }
      out("}");
      return;
    case K::While: {
      std::string flag = loop_begin(s);
      if (co() && co_stop_test(*s.test())) {  // while <stop>: the stop each time round (codegen_simco.cpp)
        out("while (true) {");
        ++indent_;
        out("if (!" + co_test(*s.test()) + ") break;");
      } else {
        out("while (" + truth(*s.test()) + ") {");
        ++indent_;
      }
      poll(); block(s.body); copies(s, Edge::BodyEnd); --indent_;
      out("}");
      loop_end(s, flag);
      return;
    }
    case K::For: for_stmt(s); return;
    case K::Pass: out(";"); return;
    case K::Delete:  // codegen_dicts.cpp
      for (const auto& t : s.targets())
        out(dict_delete_code(*t, [this](const ast::Node& n) { return expr(n); },
                             [this](const std::string& c, const Type& f, const Type& to) { return convert(c, f, to); }));
      return;
    case K::Raise: out(raise_code(prog_, *fn_, s, [&](const ast::Node& a) { return expr(a); })); return;
    case K::Try:  // @jit only (typeinfer_exc.cpp); `except Exception` lets BaseException-only classes pass
      out("try {");
      ++indent_; block(s.body); copies(s, Edge::BodyEnd); --indent_;
      out("} catch (const cj::PyError& cj_exc) {");
      ++indent_;
      if (s.handler_class()) out("if (cj_exc.base_only) throw;");
      block(s.orelse); copies(s, Edge::OrelseEnd);
      --indent_;
      out("}");
      return;
    case K::Break:
      copies(s, Edge::Jump);
      if (!loop_flags_.empty() && !loop_flags_.back().empty()) out(loop_flags_.back() + " = true;");
      out("break;");
      return;
    case K::Continue: copies(s, Edge::Jump); out("continue;"); return;
    case K::FunctionDef:
#define CUJIT_AST_CASES_OF Expr
#include "compiler/ast_cases.inc"
      throw InternalError(std::string("codegen: statement ") + ast::kind_name(s.kind));
  }
}
#pragma GCC diagnostic pop

// A name has a C++ variable per type its versions take (FunctionInstance::cpp_locals): where
// an int64 version of x meets a float64 one, the edge (`at`, `e`) copies it into the join's.
void Emitter::copies(const ast::Node& at, Edge e) {
  auto it = fn_->join_copies.find({&at, e});
  if (it == fn_->join_copies.end()) return;
  for (const JoinCopy& c : it->second) out(c.to.cpp + " = " + convert(c.from.cpp, c.from.type, c.to.type) + ";");
}

// Before a loop: its entry copies, and the flag that tells its normal end from a break.
std::string Emitter::loop_begin(const ast::Node& s) {
  copies(s, Edge::LoopEntry);
  std::string flag;
  if (!s.orelse.empty() || fn_->join_copies.count({&s, Edge::OrelseEnd})) {
    flag = "cj_broke" + std::to_string(tmp_++);
    out(co_local("bool", "bool", flag) + flag + " = false;");
  }
  loop_flags_.push_back(flag);
  return flag;
}

void Emitter::loop_end(const ast::Node& s, const std::string& flag) {
  loop_flags_.pop_back();
  if (flag.empty()) return;
  out("if (!" + flag + ") {");
  ++indent_; block(s.orelse); copies(s, Edge::OrelseEnd); --indent_;
  out("}");
}

// range(...) / prange(...) arguments as start, stop, step of the range's type.
std::vector<std::string> Emitter::range_bounds(const ast::Node& call) {
  const Type t = Type::scalar_of(call.type.scalar);
  std::vector<std::string> a;
  for (auto& x : call.args()) a.push_back(convert(expr(*x), x->type, t));
  return {a.size() >= 2 ? a[0] : "0", a.size() >= 2 ? a[1] : a[0], a.size() == 3 ? a[2] : "1"};
}

// A prange loop of parallel code (compiler/parallel.h made the plan): the iterations are
// counted first, since OpenMP wants a loop of known length, and shared out in equal blocks;
// every thread allocates into the calling function's arena.
void Emitter::parallel_for(const ast::Node& s, const ParallelLoop& plan) {
  const Type& it = s.iter()->type;
  copies(s, Edge::LoopEntry);
  const std::string T = scalar_cpp(it.scalar), p = "cj_p" + std::to_string(tmp_++);
  std::vector<std::string> b = range_bounds(*s.iter());
  out("{ const " + T + " " + p + "_start = " + b[0] + ", " + p + "_stop = " + b[1] + ", " + p + "_step = " + b[2] + ";");
  out("  const int64_t " + p + "_n = cj::range_len(" + p + "_start, " + p + "_stop, " + p + "_step);");
  out("  void* const " + p + "_arena = cj::host_services.arena_get();");
  std::string clauses = " num_threads(cj::host_services.num_threads())";
  for (size_t k = 0; k < plan.privates.size(); ++k)
    clauses += (k ? ", " : " firstprivate(") + plan.privates[k] + (k + 1 == plan.privates.size() ? ")" : "");
  for (const auto& [var, op] : plan.reductions) clauses += " reduction(" + op + ": " + var + ")";
  // An exception must not leave an OpenMP region: each iteration's is caught, the first kept
  // and rethrown after the region.
  out("  cj::PyError " + p + "_err{nullptr, nullptr};");
  out("#pragma omp parallel" + clauses);
  out("{ const cj::ArenaUse " + p + "_use(" + p + "_arena);");
  out("#pragma omp for schedule(static)");
  out("for (int64_t " + p + "_k = 0; " + p + "_k < " + p + "_n; ++" + p + "_k) try {");
  ++indent_;
  store(*s.target(), "(" + T + ")(" + p + "_start + (" + T + ")" + p + "_k * " + p + "_step)", Type::scalar_of(it.scalar));
  block(s.body);
  copies(s, Edge::BodyEnd);
  --indent_;
  out("} catch (const cj::PyError& e) { cj::keep_first(" + p + "_err, e); }");
  out("}");
  out("  if (" + p + "_err.raised()) throw " + p + "_err; }");
}

void Emitter::for_stmt(const ast::Node& s) {
  auto par = fn_->parallel_loops.find(&s);
  if (par != fn_->parallel_loops.end() && target_ == Target::Host) return parallel_for(s, par->second);
  const Type& it = s.iter()->type;
  std::string flag = loop_begin(s);
  std::string i = "cj_i" + std::to_string(tmp_++);
  if (it.tag == Type::Tag::Range) {
    std::string T = scalar_cpp(it.scalar);
    std::vector<std::string> bounds = range_bounds(*s.iter());
    const std::string &start = bounds[0], &stop = bounds[1], &step = bounds[2];
    const size_t nargs = s.iter()->args().size();
    std::string stop_v = i + "_stop", step_v = i + "_step";
    const std::string checked = nargs < 3 ? step : (prog_.host_only ? "cj::py_range_step(" : "cj::range_step(") + step + ")";
    // In a coroutine the counter and bounds are frame members (codegen_simco.cpp co_local).
    out("{ " + co_local("const " + T, T, stop_v) + stop_v + " = " + stop + "; " + co_local("const " + T, T, step_v) + step_v + " = " + checked + ";");
    if (nargs == 3) {
      // A step the code computes (a grid stride): the items are counted first and the loop runs
      // on that count, as Numba's range does. Tested as `step > 0 ? i < stop : i > stop` each
      // time, NVVM cannot count the loop, so it does not unroll it and a grid-stride loop has one
      // load in flight per thread (benchmarks/NOTES-compile.md, "Tighter kernels"). The value
      // advances in unsigned arithmetic: the step past the last item may leave the type's range.
      const std::string n = i + "_n", k = i + "_k";
      out("  " + co_local(T, T, i) + i + " = " + start + "; " + co_local("const int64_t", "int64_t", n) + n + " = cj::range_count<" + T +
          ">(" + i + ", " + stop_v + ", " + step_v + ");");
      if (target_ == Target::CUDA && !prog_.host_only) {  // measurements: CUJIT_GRIDSTRIDE_UNROLL=k
        const char* u = std::getenv("CUJIT_GRIDSTRIDE_UNROLL");
        if (u && std::atoi(u) > 0) out("#pragma unroll " + std::to_string(std::atoi(u)));
      }
      out("for (" + co_local("int64_t", "int64_t", k) + k + " = 0; " + k + " < " + n + "; ++" + k + ", " + i + " = (" + T +
          ")((uint64_t)" + i + " + (uint64_t)" + step_v + ")) {");
    } else {
      out("for (" + co_local(T, T, i) + i + " = " + start + "; " + i + " < " + stop_v + "; " + i + " += " + step_v + ") {");
    }
  } else if (it.is_array()) {
    std::string arr = "cj_a" + std::to_string(tmp_++);
    out("{ auto " + arr + " = " + expr(*s.iter()) + ";");
    out("for (int64_t " + i + " = 0; " + i + " < " + arr + ".shape[0]; ++" + i + ") {");
    if (it.ndim == 1 && race_checked()) i = "cj::elem_race(" + arr + ", " + site(*s.iter(), s) + ", " + std::to_string(kRead) + ", " + i + ")";
    else i = it.ndim == 1 ? "cj::elem(" + arr + ", " + i + ")" : "cj::subarray(" + arr + ", " + i + ")";
    if (it.ndim == 1 && it.record) i = "(&" + i + ")";  // a record is held by reference
  } else if (it.tag == Type::Tag::Iterator) {  // enumerate, zip
    IterationPlan p = plan_iteration(*s.iter(), i, values(), prog_.host_only);
    out("{ " + p.setup);
    out("for (int64_t " + i + " = 0; " + i + " < " + p.count + "; ++" + i + ") {");
    i = p.item;
  } else if (it.tag == Type::Tag::String) {  // each character (prelude/host_str.h)
    std::string l = "cj_s" + std::to_string(tmp_++);
    out("{ auto " + l + " = " + expr(*s.iter()) + ";");
    out("for (int64_t " + i + " = 0; " + i + " < " + l + ".size(); ++" + i + ") {");
    i = "cj::str_char(" + l + ".at(" + i + "))";
  } else if (it.is_list() || it.is_dict() || it.is_set()) {  // Python's: while the index is below the length, which the body may change
    std::string l = "cj_l" + std::to_string(tmp_++);
    // A dict or set: its keys when the loop starts (host_dict.h).
    out("{ auto " + l + " = " + (it.is_list() ? expr(*s.iter()) : "cj::dict_keys(" + expr(*s.iter()) + ")") + ";");
    out("for (int64_t " + i + " = 0; " + i + " < " + l + ".size(); ++" + i + ") {");
    i = l + ".at(" + i + ")";
  } else if (it.is_tuple()) {
    std::string tup = "cj_tu" + std::to_string(tmp_++);
    out("{ auto " + tup + " = " + expr(*s.iter()) + ";");
    out("for (int64_t " + i + " = 0; " + i + " < " + std::to_string(it.elems.size()) + "; ++" + i + ") {");
    i = tup + ".at(" + i + ")";
  } else {
    throw InternalError("codegen: for over " + it.str());
  }
  ++indent_;
  if (it.tag == Type::Tag::Range || it.tag == Type::Tag::Iterator) poll();
  Type elem = it.tag == Type::Tag::Range || it.tag == Type::Tag::Iterator || it.tag == Type::Tag::String ? iteration_item(it)
            : it.is_array() ? (it.ndim == 1 ? element_type(it) : s.target()->type)
            : it.elems.empty() ? Type::unknown() : it.elems[0];
  store(*s.target(), i, elem);
  block(s.body);
  copies(s, Edge::BodyEnd);
  --indent_;
  out("} }");
  loop_end(s, flag);
}

/// Assigns `code` (of type `from`) to an assignment target.
void Emitter::store(const ast::Node& target, const std::string& code, const Type& from) {
  using K = ast::Kind;
  if (target.is(K::Name)) {
    const LocalVar& to = fn_->stores.at(&target);
    if (to.cpp.empty()) return;  // None: no value to keep
    out(to.cpp + " = " + convert(code, from, to.type) + ";");
    return;
  }
  if (const Type* rec = record_target(target)) {  // r.x = v, r['x'] = v
    const RecordField& f = target.is(K::Attribute) ? *rec->record->find(target.name) : record_field_of(target);
    const Type to = f.shape.empty() || !from.is_scalar() ? record_field_type(f) : f.type;
    out(record_field_store(*rec->record, f, expr(*target.value()), to.is_array() || to.is_charseq() ? code : convert(code, from, to), from,
                           prog_.host_only));
    return;
  }
  if (target.is(K::Subscript) && target.type.is_record()) {  // a[i] = r: the record's bytes
    out(index_expr(target, kWrite) + " = *(" + code + ");");
    return;
  }
  if (target.is(K::Subscript) && target.value()->type.is_dict()) {  // codegen_dicts.cpp
    out(dict_store_code(target, convert(code, from, target.value()->type.elems[1]), [this](const ast::Node& n) { return expr(n); },
                        [this](const std::string& c, const Type& f, const Type& t) { return convert(c, f, t); }));
    return;
  }
  if (target.is(K::Subscript) && target.value()->type.is_list()) {  // codegen_lists.cpp
    const std::string v = target.index()->is(K::Slice) ? code : convert(code, from, target.value()->type.elems[0]);
    out(list_store_code(target, v, [this](const ast::Node& n) { return expr(n); }));
    return;
  }
  if (target.is(K::Subscript) && target.value()->type.is_array() && target.index()->type.is_array()) {  // a[idx] = v, a[mask] = v
    const Type elem = Type::scalar_of(target.type.scalar);
    out("cj::fancy_set(" + expr(*target.value()) + ", " + expr(*target.index()) + ", " +
        (from.is_array() ? code : convert(code, from, elem)) + ");");
    return;
  }
  if (target.is(K::Subscript) && target.type.is_array()) {  // a slice: fill it or copy into it
    const Type elem = Type::scalar_of(target.type.scalar);
    if (from.is_array()) out("cj::copy_into<" + std::string(error_policy(prog_.host_only)) + ">(" + expr(target) + ", " + code + ");");
    else out("cj::fill(" + expr(target) + ", " + convert(code, from, elem) + ");");
    return;
  }
  if (target.is(K::Subscript)) {
    const Type& elem = target.type;
    out(index_expr(target, kWrite) + " = " + convert(code, from, elem) + ";");
    return;
  }
  if (target.is(K::Tuple)) {
    std::string t = "cj_u" + std::to_string(tmp_++);
    out("{ auto " + t + " = " + code + ";");
    ++indent_;
    for (size_t i = 0; i < target.elts().size(); ++i)
      store(*target.elts()[i], t + ".f" + std::to_string(i), from.elems[i]);
    --indent_;
    out("}");
    return;
  }
  throw InternalError("codegen: store to this target");
}

}  // namespace detail
}  // namespace cujit
