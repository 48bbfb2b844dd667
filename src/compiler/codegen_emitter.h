// The code generator's class (internal to the code generator; not a public header): one Emitter
// writes one program's C++. Its members are defined in four files by what they emit, so that
// no file grows past ~1,000 lines: codegen.cpp (the program, types, conversions, functions),
// codegen_stmt.cpp (statements, loops, assignment targets), codegen_expr.cpp (expressions:
// names, constants, attributes, operators, subscripts) and codegen_calls.cpp (calls: user
// functions and intrinsics, array allocation, random, print). Each member is documented at its
// definition.
#pragma once

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/codegen.h"
#include "compiler/codegen_entry.h"
#include "compiler/codegen_values.h"
#include "compiler/parallel.h"
#include "compiler/shared_layout.h"

namespace cujit {
namespace detail {

class Emitter {
 public:
  Emitter(const Program& prog, Target target) : prog_(prog), target_(target) {}
  bool allocates_ = false;  // some emitted function makes an array on the heap (np.empty, ...)
  bool uses_barrier_ = false;  // some emitted function calls cuda.syncthreads() or a warp-synchronous intrinsic
  std::vector<CheckSite> sites_;  // debug_checks, CUDA target: each checked access, by number
  std::string run(const std::vector<EntryPoint>& entries);

 private:
  const Program& prog_;
  Target target_;
  std::ostringstream structs_;
  std::set<std::string> emitted_structs_;
  std::map<std::string, std::string> libdevice_;  // libdevice functions called -> C++ type of their result
  const FunctionInstance* fn_ = nullptr;
  std::ostringstream body_;
  std::ostringstream storage_;  // cuda.local/shared.array storage of the function being emitted
  std::unordered_map<const ast::Node*, SharedLayout> shared_layouts_;  // its shared arrays' GPU layouts
  int indent_ = 1;
  int tmp_ = 0;
  std::vector<std::string> loop_flags_;  // for/while ... else: the "broke out" flag of each loop
  int line_ = 0;  // the line of the statement being emitted (debug division sites)

  // ---- types ----------------------------------------------------------------------------------
  std::string type(const Type& t);
  /// A parameter's C++ type: a None parameter (an argument None, or a default None left out)
  /// holds no value, and is an empty cj::Unit (a None return stays void).
  std::string param_type(const Type& t) { return t.tag == Type::Tag::None ? std::string("cj::Unit") : type(t); }
  void tuple_struct(const Type& t);
  std::string convert(const std::string& code, const Type& from, const Type& to);

  // ---- functions ------------------------------------------------------------------------------
  std::string signature(const FunctionInstance& f);
  std::string line(const ast::Node& n);
  void out(const std::string& s) { body_ << std::string(indent_ * 2, ' ') << s << "\n"; }
  std::string function(const FunctionInstance& f);
  void block(const std::vector<ast::NodePtr>& stmts);
  void stmt(const ast::Node& s);
  void copies(const ast::Node& at, Edge e);
  std::string loop_begin(const ast::Node& s);
  void loop_end(const ast::Node& s, const std::string& flag);
  std::vector<std::string> range_bounds(const ast::Node& call);
  void parallel_for(const ast::Node& s, const ParallelLoop& plan);
  void for_stmt(const ast::Node& s);
  void store(const ast::Node& target, const std::string& code, const Type& from);

  // ---- expressions ----------------------------------------------------------------------------
  std::string truth(const ast::Node& e);
  const Resolved* resolved(const ast::Node& e);
  std::string expr(const ast::Node& e);
  std::string value(const ast::Node& e);
  std::string const_array(const std::string& sym, const Type& t);
  std::string constant(const ast::Node& e);
  std::string attribute(const ast::Node& e);
  std::string binop(ast::Op op, const std::string& a, const Type& ta, const std::string& b,
                    const Type& tb, const Type& result);
  ValueContext values();
  std::string unary(const ast::Node& e) { return emit_unary(e, values()); }
  std::string boolop(const ast::Node& e) { return emit_boolop(e, values()); }
  std::string compare(const ast::Node& e) { return emit_compare(e, values()); }

  // How an element access uses the element, for the race check (host.h's kRaceRead/kRaceWrite).
  enum Access { kRead = 1, kWrite = 2, kReadWrite = 3 };

  // The simulator checks indices in GPU code (host target); with CUJIT_SIM_RACECHECK it also
  // records accesses to shared memory.
  bool index_checked() const { return target_ == Target::Host && !fn_->host_only; }
  // Simulated loops stop on Ctrl-C (host.h CJ_SIM_POLL); a range loop too, as one may be endless.
  void poll() { if (index_checked()) out("CJ_SIM_POLL();"); }
  bool race_checked() const { return index_checked() && prog_.race_check; }
  std::string site(const ast::Node& array, const ast::Node& at);
  std::string index_expr(const ast::Node& e, Access access = kRead);
  std::string tuple_indexed(std::string call, const ast::Node& ix);
  int file_number(const std::string& filename);
  std::string constant(const Resolved& r, const Type& t);
  std::string subscript(const ast::Node& e);
  std::string call(const ast::Node& e);
  std::string arg(const ast::Node& e, size_t i, const Type& to);
  std::string builtin(const ast::Node& e, Builtin b);
  std::string shape_sizes(const ast::Node& sh, std::string* init);
  std::string vector_draws_call(const ast::Node& e, Builtin b, const std::string& sp);
  std::string array_new(const ast::Node& e, Builtin b, const std::string& sp);
  std::string random_call(const ast::Node& e, Builtin b, const std::string& sp);
  std::string choice_call(const ast::Node& e, const std::string& sp);
  std::string numpy_call(const ast::Node& e, Builtin b);  // codegen_numpy.cpp
  std::string numpy_reduce(const ast::Node& e, Builtin b);
  std::string print(const ast::Node& e);
  std::string array_expr(const ast::Node& e, const std::string& target);
  std::string elementwise_call(const ast::Node& e, Builtin b);

  // ---- the simulator's kernel as a stackless coroutine (codegen_simco.cpp) ---------------------
  const FunctionInstance* co_fn_ = nullptr;  // the kernel emitted as a coroutine, or null
  std::vector<std::pair<std::string, std::string>> co_vars_;  // frame members co_local added: type, name
  int co_stops_ = 0;
  bool co() const { return co_fn_ && fn_ == co_fn_; }
  static std::string co_frame(const FunctionInstance& f) { return "cj_frame_" + f.cpp_name; }
  void co_choose(const std::vector<EntryPoint>& entries);
  bool co_stop(const ast::Node& s);
  bool co_stop_test(const ast::Node& test) const;
  std::string co_test(const ast::Node& test);
  std::string co_local(const std::string& decl, const std::string& type, const std::string& name);
  std::string co_function(const FunctionInstance& f, const std::string& body);
};

}  // namespace detail
}  // namespace cujit
