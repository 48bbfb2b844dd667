// A local variable's versions, as in Numba's SSA form. Each assignment to a name defines a version
// of it with its own type (`x = 1` then `x = 2.5` is an int64 and a float64, and code between
// them computes in int64); where versions of a name meet (after an if, at a loop's head, after a
// loop that a break leaves) a join version (Numba's phi) holds their unification, and the value
// is converted on each edge into the join. As in Numba, a join exists only where some read needs
// it: versions that meet where nothing reads them afterwards are never unified, so a name re-bound
// to an unrelated type after its last use is no error.
//
// Type inference (typeinfer.cpp) walks the function once per pass with an Env, the version each
// name holds at that point, and asks this class for versions and joins. Versions and their types
// outlive a pass (types only widen, so the passes reach a fixed point); what a pass saw (the
// joins' incoming versions, reads, stores) is the last pass's. `finish` then gives each version
// a C++ variable, one per name and type (v_x, v1_x, ...), and lists the copies each join needs.
#pragma once
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compiler/typeinfer.h"

namespace cujit {

/// The version each local name holds at one point of the walk.
struct Env {
  std::map<std::string, int> vars;  // name -> version; absent: not assigned on any path to here
  bool dead = false;                // no path reaches here (after a return, break or continue)
};

using EdgeKey = std::pair<const ast::Node*, Edge>;

class Versions;
/// The truth of a test known when `f` is compiled: a literal, a global constant (DEBUG = False),
/// a variable whose version there was assigned one (`a = 1`, not a join), `not` of one, or a
/// comparison of two such numbers: 1 true, 0 false, -1 not known. Numba prunes the branch such
/// a test never takes, so what that branch assigns or returns reaches nothing.
int static_truth(const ast::Node& e, const FunctionInstance& f, const Versions& vs);
/// The number `e` is when `f` is compiled, as static_truth reads it.
bool static_number(const ast::Node& e, const FunctionInstance& f, const Versions& vs, long double* out);

/// Adds to `out` the names `stmts` assign (targets of =, augmented assignments and for loops),
/// in nested statements too.
void assigned_names(const std::vector<ast::NodePtr>& stmts, std::set<std::string>& out);

class Versions {
 public:
  // `optionals`: a variable may hold Numba's OptionalType (@jit code, numba-cuda's device functions);
  // `strings`: a variable may hold a str (@jit code only).
  Versions(const SourceFile& src, bool optionals, bool strings) : src_(src), optionals_(optionals), strings_(strings) {}

  /// The version each name holds where the walk is.
  Env cur;

  /// Starts a pass over `def` called with `args`: forgets the last pass's incoming versions,
  /// reads and stores, and defines the parameters.
  void begin_walk(const ast::Node& def, const std::vector<Type>& args);
  /// Whether some version's type changed in this pass (another pass is needed).
  bool changed() const { return changed_; }

  /// The version that the assignment at `site` (a Name target, or a parameter) defines, typed
  /// `t` (unknown: not yet known; a later pass may give it a wider type).
  int define(const void* site, const std::string& name, const Type& t, int line);
  /// Assigns a value of type `t` to the Name `target` where the walk is: defines its version,
  /// which `cur` then holds, and returns it. Refuses a value no variable can hold.
  int assign(const ast::Node& target, const Type& t);
  /// The join of `name` at (`at`, `slot`): slot 0 for an if's end and a loop's head, 1 for
  /// the end of a loop.
  int join(const ast::Node* at, int slot, const std::string& name);
  /// Version `v` (-1: unassigned on that path) reaches join `j` over `edge`.
  void add_incoming(int j, int v, EdgeKey edge);
  /// The environment where the paths of `in` meet at (`at`, `slot`): a name with the same
  /// version on every live path keeps it, others get a join.
  Env merge(const ast::Node* at, int slot, const std::vector<std::pair<Env, EdgeKey>>& in);

  /// The end of if statement `s`: its body ended in `then_env`, its else branch in `cur`.
  void end_if(const ast::Node& s, Env then_env);
  /// The head of `loop` (a While or For): a join for each name its body (or a for's target)
  /// assigns, reached from before the loop (here) and from each back_edge.
  void enter_loop(const ast::Node& loop);
  /// Control goes from `cur` back to the head of the innermost loop (its body's end, a continue).
  void back_edge(EdgeKey edge);
  /// A break: `cur` leaves the innermost loop.
  void leave_loop(EdgeKey edge);
  /// The end of `loop`'s body: goes back to its head; the walk then goes on from `head` (the
  /// versions its test saw) into its else clause, which belongs to the loops around it.
  void end_body(const ast::Node& loop, Env head);
  /// After the loop's else clause: its normal end (`cur`) meets its breaks.
  void exit_loop(const ast::Node& loop);

  const Type& type(int v) const { return vers_[v].type; }
  /// The version `name` holds where the walk is (just assigned) has the constant value `c`.
  void set_constant(const std::string& name, long double c);
  /// Whether the version `name` holds where the walk is has a constant value, and which.
  bool constant(const std::string& name, long double* out) const;
  /// `load` (a Name) reads version `v`.
  void read(const ast::Node* load, int v) { reads_.emplace_back(load, v); }
  /// `target` (a Name) writes version `v`.
  void store(const ast::Node* target, int v) { stores_.emplace_back(target, v); }

  /// After the last pass: refuses a join that a read needs but whose versions do not unify (as
  /// Numba: "Cannot unify int64 and UniTuple(int64 x 2) for 'y'"), then fills `f`'s locals,
  /// versions, cpp_locals, param_vars, stores, join_copies and the loads' C++ variables.
  void finish(FunctionInstance& f);

 private:
  struct Version {
    std::string name;
    Type type;
    bool is_join = false;
    int line = 0;                                     // a definition's line
    std::vector<std::pair<int, EdgeKey>> incoming;    // a join's, this pass
    bool conflict = false;                            // some incoming type does not unify
    bool live = false;                                // a definition, or a join something reads
    std::string cpp;                                  // its C++ variable (none for None)
    bool has_const = false;                           // a definition by a constant (set_constant)
    long double value = 0;
  };
  const SourceFile& src_;
  bool optionals_;
  bool strings_;
  bool changed_ = false;
  std::vector<Version> vers_;
  std::map<const void*, int> defs_;
  std::map<std::pair<std::pair<const ast::Node*, int>, std::string>, int> joins_;
  std::vector<std::pair<const ast::Node*, int>> reads_, stores_;
  std::vector<int> params_;  // the parameters' versions
  struct Loop {
    bool dead = false;                           // no path reaches it: its joins are typed from dead code
    std::map<std::string, int> head;             // the joins at its head, by name
    std::vector<std::pair<Env, EdgeKey>> exits;  // the paths that leave it
  };
  std::vector<Loop> loops_;  // the loops around where the walk is
  std::vector<std::vector<std::pair<Env, EdgeKey>>> breaks_;  // of loops whose else clause is being walked

  void check_join(const ast::Node& load, int j);
  void defs_reaching(int v, std::vector<int>& out, std::vector<bool>& seen) const;
};

}  // namespace cujit
