// The simulator's kernels that synchronise, as stackless coroutines (Emitter, codegen_emitter.h).
//
// A kernel whose threads wait at barriers or warp operations used to run every thread as a fiber
// with its own stack, and every wait was two stack switches. Here the kernel's C++ function is a
// coroutine instead: its locals live in a frame struct (one per thread, held by the prelude's
// sim_run_block_co), its body is one `switch` on the frame's resume point, and each barrier or
// warp operation is a stop:
//
//     (void)(cj::syncthreads_count(p));           // leaves the thread's vote (the prelude's co mode)
//     cj_fr.cj_state = 2; return 1;  case 2:;     // suspends; the scheduler resumes it here
//     v_n = cj::sim_co_votes(0);                  // the result, once every thread has voted
//
// The scheduler (host.h sim_schedule) is the fibers': the same order of threads, the same release
// of barriers and answers of warp operations, the same fault reports, so results are
// the fibers'. A `case` label may sit inside the `if`s and loops around a stop as long as no
// declaration is in scope there, so what codegen would declare in those scopes (a loop's
// broke-out flag, a range loop's counter and bounds) becomes a frame member too.
//
// What stays on fibers (co_choose decides, per program): a stop anywhere but as a whole statement
// (`cuda.syncthreads()`, `x = <op>(...)` with x a local or an array element, `x += <op>(...)` with
// x a local scalar) or as the whole test of an if or while (`while cuda.syncthreads_or(p):`, the
// stop each time the test is evaluated), or inside a
// statement other than if/while/for over a range; a barrier or warp operation in a device
// function; a cooperative kernel (grid.sync() waits inside the prelude).
#include <functional>

#include "compiler/builtins.h"
#include "compiler/codegen_emitter.h"

namespace cujit {
namespace detail {

namespace {

// The barrier or warp operation a call node makes, or Builtin::None.
Builtin sync_call(const ast::Node& e) {
  if (!e.is(ast::Kind::Call) || e.func()->type.tag != Type::Tag::Function) return Builtin::None;
  const BuiltinRow* b = find_builtin(e.func()->type.name);
  if (!b) return Builtin::None;
  switch (b->id) {
    case Builtin::CudaSync: case Builtin::CudaSyncCount: case Builtin::CudaSyncAnd: case Builtin::CudaSyncOr:
    case Builtin::CudaShfl: case Builtin::CudaShflUp: case Builtin::CudaShflDown: case Builtin::CudaShflXor:
    case Builtin::CudaAllSync: case Builtin::CudaAnySync: case Builtin::CudaEqSync: case Builtin::CudaBallotSync:
    case Builtin::CudaMatchAnySync: case Builtin::CudaActivemask: case Builtin::CudaSyncwarp:
    case Builtin::CgThisGrid: case Builtin::CgGridSync:
      return b->id;
    default: return Builtin::None;
  }
}

// The state a thread waits in after this stop (host.h SimFibers::state): 1 a barrier, 3 a warp
// operation.
int stop_state(Builtin b) {
  return b == Builtin::CudaSync || b == Builtin::CudaSyncCount || b == Builtin::CudaSyncAnd || b == Builtin::CudaSyncOr ? 1 : 3;
}

// The C++ of the stop's result once the thread is resumed, of the C++ type the prelude's
// function returns (so that the conversions around it are the fibers'); "" for none.
std::string stop_result(Builtin b, const std::string& value_type) {
  switch (b) {
    case Builtin::CudaSyncCount: return "cj::sim_co_votes(0)";
    case Builtin::CudaSyncAnd: return "cj::sim_co_votes(1)";
    case Builtin::CudaSyncOr: return "cj::sim_co_votes(2)";
    case Builtin::CudaShfl: case Builtin::CudaShflUp: case Builtin::CudaShflDown: case Builtin::CudaShflXor:
      return "cj::sim_from_bits<" + value_type + ">(cj::sim_co_wres())";
    case Builtin::CudaAllSync: case Builtin::CudaAnySync: case Builtin::CudaEqSync: return "(cj::sim_co_wres() != 0)";
    case Builtin::CudaBallotSync: case Builtin::CudaMatchAnySync: return "((int32_t)cj::sim_co_wres())";
    case Builtin::CudaActivemask: return "((uint32_t)cj::sim_co_wres())";
    default: return "";
  }
}

bool has_sync_call(const ast::Node& n) {
  if (sync_call(n) != Builtin::None) return true;
  bool found = false;
  ast::for_each_child(n, [&](const ast::Node& c) { found = found || has_sync_call(c); });
  return found;
}

// A target whose store is one C++ assignment of the value, evaluated after it as C++17 orders
// `lhs = rhs` (so its index is checked when the fibers' code checks it): a local, or an element.
bool plain_target(const ast::Node& t) {
  if (t.is(ast::Kind::Name)) return true;
  return t.is(ast::Kind::Subscript) && t.value()->type.is_array() && t.type.is_scalar() && !t.index()->type.is_array() &&
         !has_sync_call(t);
}

// A stop with a result and no stop in its arguments, or null.
const ast::Node* stop_with_result(const ast::Node& call) {
  const Builtin b = sync_call(call);
  if (b == Builtin::None || stop_result(b, "").empty()) return nullptr;
  for (const auto& a : call.args())
    if (has_sync_call(*a)) return nullptr;
  return &call;
}

// A statement that is one stop as a whole: the call it makes, or null.
const ast::Node* stop_call(const ast::Node& s) {
  using K = ast::Kind;
  const ast::Node* call = nullptr;
  if (s.is(K::Expr)) call = s.value().get();
  else if (s.is(K::Assign) && s.targets().size() == 1 && plain_target(*s.targets()[0])) call = s.rhs().get();
  else if (s.is(K::AugAssign) && s.target()->is(K::Name) && s.target()->type.is_scalar()) call = s.rhs().get();
  if (!call) return nullptr;
  const Builtin b = sync_call(*call);
  if (b == Builtin::None || b == Builtin::CgThisGrid || b == Builtin::CgGridSync) return nullptr;
  if (!s.is(K::Expr) && stop_result(b, "").empty()) return nullptr;  // x = cuda.syncthreads(): None
  for (const auto& a : call->args())
    if (has_sync_call(*a)) return nullptr;
  return call;
}

}  // namespace

// The kernel to emit as a coroutine, if the program has one that synchronises and every stop of
// it is one the coroutine can express (the header comment); else the simulator keeps fibers.
void Emitter::co_choose(const std::vector<EntryPoint>& entries) {
  co_fn_ = nullptr;
  if (target_ != Target::Host) return;
  const FunctionInstance* kernel = nullptr;
  for (const auto& e : entries)
    if (e.kind == EntryPoint::Kind::Kernel) {
      if (kernel) return;  // one kernel a program
      kernel = prog_.fns[e.instance].get();
    }
  if (!kernel || kernel->host_only) return;
  for (const auto& f : prog_.fns) {
    if (f.get() == kernel) continue;
    for (const auto& s : f->mod.func->body)
      if (has_sync_call(*s)) return;  // a device function waits: only a fiber can stop there
  }
  bool ok = true, stops = false;
  using K = ast::Kind;
  std::function<void(const std::vector<ast::NodePtr>&)> walk = [&](const std::vector<ast::NodePtr>& stmts) {
    for (const auto& sp : stmts) {
      const ast::Node& s = *sp;
      if (stop_call(s)) { stops = true; continue; }
      const bool range_for = s.is(K::For) && s.iter()->type.tag == Type::Tag::Range && !kernel->parallel_loops.count(&s);
      if (s.is(K::If) || s.is(K::While) || range_for) {
        const ast::Node& head = s.is(K::For) ? *s.iter() : *s.test();
        if (has_sync_call(head)) {
          if (!s.is(K::For) && stop_with_result(head)) stops = true;  // `if <stop>:`, `while <stop>:`
          else ok = false;
        }
        if (range_for && has_sync_call(*s.target())) ok = false;
        walk(s.body);
        walk(s.orelse);
        continue;
      }
      if (has_sync_call(s)) ok = false;
    }
  };
  walk(kernel->mod.func->body);
  if (ok && stops) co_fn_ = kernel;
}

// A statement that is a stop, in the coroutine: its call (which only leaves the thread's vote or
// operand in co mode), the suspension, the resume point, then the result's store. False for any
// other statement.
bool Emitter::co_stop(const ast::Node& s) {
  if (!co()) return false;
  const ast::Node* call = stop_call(s);
  if (!call) return false;
  const Builtin b = sync_call(*call);
  // A plain barrier leaves nothing (its call would only read a thread_local, a call itself in a
  // shared library); the others leave their vote or operand.
  if (b != Builtin::CudaSync) out("(void)(" + expr(*call) + ");");
  const int k = ++co_stops_;
  out("cj_fr.cj_state = " + std::to_string(k) + "; return " + std::to_string(stop_state(b)) + ";");
  out("case " + std::to_string(k) + ":;");
  // A shuffle returns its value's type (the prelude's template deduces it from the argument).
  const std::string r = stop_result(b, call->args().size() > 1 ? type(call->args()[1]->type) : "");
  if (s.is(ast::Kind::Assign)) {
    store(*s.targets()[0], r, call->type);
  } else if (s.is(ast::Kind::AugAssign)) {  // x += <op>(...): the generic AugAssign of codegen_stmt.cpp
    const std::string v = binop(s.op, expr(*s.target()), s.target()->type, r, call->type, s.type);
    store(*s.target(), v, s.type);
  }
  return true;
}

// An if's or while's test that is a stop as a whole (`if cuda.syncthreads_or(p):`).
bool Emitter::co_stop_test(const ast::Node& test) const { return co() && stop_with_result(test); }

// The C++ truth of an if's or while's test: in a coroutine, where the test is a stop, the stop
// first (emitted here, ahead of the statement), then the truth of its result.
std::string Emitter::co_test(const ast::Node& test) {
  if (!co_stop_test(test)) return truth(test);
  const Builtin b = sync_call(test);
  if (b != Builtin::CudaSync) out("(void)(" + expr(test) + ");");
  const int k = ++co_stops_;
  out("cj_fr.cj_state = " + std::to_string(k) + "; return " + std::to_string(stop_state(b)) + ";");
  out("case " + std::to_string(k) + ":;");
  const std::string r = stop_result(b, test.args().size() > 1 ? type(test.args()[1]->type) : "");
  if (test.type.is_scalar(Scalar::Bool)) return r;
  return "((" + r + ") != 0)";
}

// A variable codegen declares inside the function (a loop's flag or counter): in the coroutine a
// frame member, so that no resume point jumps over its declaration and its value outlives a stop.
// Returns what goes before its name where it is set: its declaration `decl`, or nothing.
std::string Emitter::co_local(const std::string& decl, const std::string& type, const std::string& name) {
  if (!co()) return decl + " ";
  co_vars_.push_back({type, name});
  return "";
}

// The coroutine's frame struct (into structs_) and function: the locals, local arrays and
// co_local variables are frame members the body names through references; shared arrays stay
// static storage of the CPU thread.
std::string Emitter::co_function(const FunctionInstance& f, const std::string& body) {
  std::string frame = co_frame(f), statics, refs;
  structs_ << "struct " << frame << " {\n";
  for (const auto& v : f.cpp_locals) {
    structs_ << "  " << type(v.type) << " " << v.cpp << "{};\n";
    refs += "  auto& " + v.cpp + " = cj_fr." + v.cpp + ";\n";
  }
  std::istringstream st(storage_.str());
  for (std::string l; std::getline(st, l);) {
    if (l.find("static ") != std::string::npos) { statics += l + "\n"; continue; }
    const size_t open = l.find('['), sp = l.rfind(' ', open);
    const std::string name = l.substr(sp + 1, open - sp - 1);
    structs_ << l << "\n";
    refs += "  auto& " + name + " = cj_fr." + name + ";\n";
  }
  for (const auto& [t, name] : co_vars_) {
    structs_ << "  " << t << " " << name << "{};\n";
    refs += "  auto& " + name + " = cj_fr." + name + ";\n";
  }
  structs_ << "  int cj_state = 0;  // the resume point: 0 the start, k after stop k\n};\n";
  return statics + refs + "  switch (cj_fr.cj_state) {\n  case 0:;\n" + body + "  }\n  return 0;\n";
}

}  // namespace detail
}  // namespace cujit
