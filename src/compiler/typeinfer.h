// Type inference: one FunctionInstance per (function, argument types), with every expression's
// type filled in and every name resolved. Numba's rules (DESIGN.md decision 3) live here, and so
// does every typing error the user can see.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/ast.h"
#include "compiler/builtins.h"
#include "compiler/globals.h"
#include "compiler/types.h"

namespace cujit {

/// What a function is compiled as.
enum class Role {
  Device,  // called from other compiled functions; returns a value
  Kernel,  // a cuda.jit kernel: returns nothing, launched from the host
  Ufunc,   // the scalar body of a vectorize: returns its declared type
};

/// What name resolution decided for a Name or Attribute node.
struct Resolved {
  enum class Kind { Local, Constant, Builtin, UserFunction, Module, DType, CudaDim } kind;
  std::string literal;       // Constant: the C++ literal, already typed ("1.5f", "(int16_t)3")
  Builtin builtin = Builtin::None;
  int instance = -1;         // UserFunction: set on the Call node once the callee is typed
  std::string name;          // Module/CudaDim: "cuda.threadIdx", ...; Local: the C++ variable
  std::vector<std::string> items;  // Constant tuple: each item's literal (an array's: its symbol)
};

/// A prange loop of @jit(parallel=True) code: what each OpenMP thread keeps for itself
/// (compiler/parallel.h). Variables are C++ ones (FunctionInstance::stores).
struct ParallelLoop {
  std::vector<std::string> privates;  // C++ variables of names assigned in the body: one copy per thread (firstprivate)
  std::vector<std::pair<std::string, std::string>> reductions;  // C++ variable, OpenMP operator (+ * min ...)
};

/// Where control passes to a join of a variable's versions (Numba's phi; typeinfer_ssa.h): the
/// end of an if's body or else branch, a loop's entry, the end of a loop's body or of its normal
/// exit (else branch), or a break or continue statement (keyed by that statement).
enum class Edge { BodyEnd, OrelseEnd, LoopEntry, Jump };

/// A C++ local variable: one per user variable and type (typeinfer_ssa.h).
struct LocalVar {
  std::string cpp;  // "v_x", "v1_x", ...; empty for None, which has no value to keep
  Type type;
  std::string name;  // the user's
};

/// A copy on an edge into a join, where the joined version's C++ variable differs from the
/// incoming one's (an int64 version meeting a float64 one): `to = (to's type)(from)`.
struct JoinCopy {
  LocalVar to, from;
};

/// One typed specialisation of a Python function.
struct FunctionInstance {
  std::shared_ptr<FunctionSource> src;
  ast::Module mod;                       // this instance's own copy of the tree, typed in place
  std::vector<Type> arg_types;
  Type declared_ret;                     // from a signature; Unknown when inferred
  Type ret;                              // the type the C++ function returns
  Role role = Role::Device;
  // Every local name (parameters and assigned names), with the type of its first version. A
  // name has a version per assignment, each with its own type, as in Numba's SSA form
  // (typeinfer_ssa.h); the ones below are what codegen needs of them.
  std::map<std::string, Type> locals;
  std::vector<std::pair<std::string, Type>> versions;  // "x", "x.1", ... (live ones): debug output, tests
  std::vector<LocalVar> cpp_locals;      // declared at the top of the C++ function, in this order
  std::vector<LocalVar> param_vars;      // the variable each parameter's value starts in
  // The variable an assignment target (a Name of Assign, For, AugAssign) writes. A load's
  // variable is its Resolved's name (the target of `x += 1` is both: it reads one version and
  // writes another).
  std::unordered_map<const ast::Node*, LocalVar> stores;
  std::map<std::pair<const ast::Node*, Edge>, std::vector<JoinCopy>> join_copies;
  std::unordered_map<const ast::Node*, Resolved> resolved;
  std::unordered_map<const ast::Node*, std::vector<int64_t>> array_shapes;  // cuda.local/shared.array
  std::unordered_map<const ast::Node*, UfuncLoop> ufunc_loops;  // each NumPy ufunc call's loop
  std::unordered_map<const ast::Node*, int64_t> shared_bytes;  // static cuda.shared.array -> its bytes
  std::unordered_map<const ast::Node*, int64_t> local_bytes;   // cuda.local.array -> its bytes
  std::unordered_map<const ast::Node*, int64_t> array_alignment;  // cuda.local/shared.array(..., alignment=n)
  std::map<std::string, const GlobalValue*> const_arrays;  // symbol -> global array (constant memory)
  std::string cpp_name;
  bool typing = false;                   // inference in progress (recursion check)
  bool failed = false;                   // its typing raised: never reused (a retry may follow)
  bool host_only = false;                // compiled for the CPU only (Program::host_only)
  std::string compiled_as;               // for messages: "a CUDA kernel", "a @jit function", ...
  std::unordered_map<const ast::Node*, ParallelLoop> parallel_loops;  // For node -> its plan
  // Expressions of an optional type (a call of a function that may return None, a variable that
  // holds one) used as a value: typed as the value, and unwrapped at run time, raising
  // TypeError("expected int64, got None") where they are None, as Numba does.
  std::unordered_set<const ast::Node*> unwrap;
  // Return statements no path reaches (typeinfer_ssa.h): their values do not type the result.
  std::unordered_set<const ast::Node*> dead_returns;
  // Numba's NumbaTypeSafetyWarning messages typing met (warn_unsafe_store), each once, in order:
  // the dispatcher warns them after the compile (bindings/cpu.cpp).
  std::vector<std::string> type_safety_warnings;
  // Parameters that size a cuda.local/shared.array and were passed a constant (an int, or a tuple
  // of ints): Numba types such an argument as a literal where the plain type fails, so the
  // callee is specialised per value. They fold as constants do (fnval.h, shape_params). Also,
  // where typing with plain types failed, `if p:` tests of a constant p: only the branch taken
  // is typed and generated, as Numba prunes it (fnval.h, branch_params, constant_branch).
  std::map<std::string, GlobalValue> const_params;
  // Nested functions lifted out of this instance's tree (typeinfer_nested.cpp): the globals
  // ("__cj_def_<line>_<col>") their def statements now assign, each naming a FunctionSource.
  std::map<std::string, GlobalValue> nested;
  // Lists made by a literal assigned to a name (typeinfer_lists.cpp): the item type that name's
  // literals and everything appended or inserted into it unify to, as Numba's list type variable.
  std::map<std::string, Type> list_items;
  // Dicts and sets made by `{}`, a literal, dict() or set() assigned to a name
  // (typeinfer_dicts.cpp): the type that name's literals and its first insertions give.
  std::map<std::string, Type> dict_types;
  int unrolled = 0;  // literal_unroll loops rewritten so far (typeinfer_unroll.cpp): names their variables
  // Recursion (typeinfer_calls.cpp). While this instance is being typed, the type its returns
  // give so far (its declared type if it has one): a call of it from inside (directly or through
  // other functions) is typed with it, as Numba types a recursive call from the returns that do
  // not recurse. Each such call of the final passes is recorded, and must agree with the type it
  // ends with ("Return type of recursive function does not converge" otherwise).
  Type partial_ret;
  struct RecursiveUse {
    Type used;
    const ast::Node* call;
    int caller;
  };
  std::vector<RecursiveUse> recursive_uses;
  bool recursed = false;  // some call of it was typed while it was being typed
  // Calls of compiled functions whose arguments are in parameter order (bind_user_call): bound
  // once, as the rewrite is kept when typing starts again.
  std::unordered_set<const ast::Node*> bound_calls;
  // Typing's decisions to give a node another form (ARCHITECTURE.md, deviation 1): an operator
  // called through a local variable (`op(a, b)` is a + b; `op(a, i, v)` as a statement a[i] = v),
  // `f(*t)` (t's items), `a[idx] op= v` with an array index (a[idx] = a[idx] op v) and a method
  // named by its receiver's type (`l.append(x)` is list.append(l, x)). Typing never changes the
  // tree it walks: it builds the new form beside it, from copies of the node's children
  // (clone_for_rewrite), and types that in the node's place (the node's own type is the new
  // form's). The lowering stage's first pass, apply_typing_rewrites (lower.cpp), puts each new
  // form in its node's place; codegen never sees this table.
  std::unordered_map<const ast::Node*, ast::NodePtr> rewrites;
  // literal_unroll loops typing decided to unroll (typeinfer_unroll.cpp): the For node -> the
  // number of body copies (0: a tuple of one type, looped over as it is). The walk that decides
  // stops (RestartTyping); Program::instantiate rewrites the loops (apply_unroll_decisions) and
  // types the function again, since the copies are new code with new variables to type.
  std::unordered_map<const ast::Node*, size_t> unrolls;
};

/// A copy of `n` for a new form typing builds (FunctionInstance::rewrites): calls in it that
/// typing bound to their parameters already (bound_calls) stay bound.
ast::NodePtr clone_for_rewrite(FunctionInstance& fn, const ast::Node& n);
/// Records `form` as the new form of `n` (fn.rewrites), which typing types in n's place from now on.
void record_form(FunctionInstance& fn, const ast::Node& n, ast::NodePtr form);
/// The form typing gave `n`: `n` itself, or the new form recorded in fn.rewrites (followed to
/// the last one). Walks over the typed tree that run before the lowering stage go through it.
const ast::Node& typed_form(const FunctionInstance& fn, const ast::Node& n);
ast::Node& typed_form(FunctionInstance& fn, ast::Node& n);
/// Erases what typing recorded for `n` and the nodes under it from every table of `fn` keyed by
/// node (and their new forms, which go), before `n` is freed: a node made later at the same
/// address must not find it.
void forget_typing_of(FunctionInstance& fn, const ast::Node& n);
/// Drops every new form of fn.rewrites (before `fn` is typed again from the start).
void drop_rewrites(FunctionInstance& fn);
/// Rewrites the literal_unroll loops recorded in fn.unrolls (rewrite_literal_unroll), between
/// two typing runs of `fn`.
void apply_unroll_decisions(FunctionInstance& fn);

/// TypingError at `at` in `fn`'s source: Numba refuses the program too.
[[noreturn]] inline void typing_error(const FunctionInstance& fn, const ast::Node& at, const std::string& msg) {
  user_error(fn.mod.source, at.loc, ErrorKind::Typing, msg);
}
/// UnsupportedError at `at`: Numba has the construct, cujit does not (or not here).
[[noreturn]] inline void unsupported_error(const FunctionInstance& fn, const ast::Node& at, const std::string& msg) {
  user_error(fn.mod.source, at.loc, ErrorKind::Unsupported, msg);
}

/// Thrown by the typing of an instance that calls, through others, an instance still being typed
/// whose return type is not known yet (`waits_on`): the instance is dropped, and the one waited on
/// types it again on its next pass, once its own returns that do not recurse are typed.
struct PendingRecursion {
  int waits_on;
};

/// Thrown by the typer after it decided to unroll a literal_unroll loop (FunctionInstance::unrolls):
/// Program::instantiate rewrites the loop and types the instance again from the start.
struct RestartTyping {};

/// literal_unroll (typeinfer_unroll.cpp): replaces the `for` loop `stmts[at]`, whose iterable is
/// a call of literal_unroll on a tuple of `count` items, by the tuple held in a variable and a
/// loop over range(count) whose body is an if/elif chain with one copy of the body per item.
/// `id` names the new variables (FunctionInstance::unrolled).
void rewrite_literal_unroll(std::vector<ast::NodePtr>& stmts, size_t at, size_t count, int id);
/// The tree of a function for one instance to type: a copy of its lifted definition for a nested
/// one, else of the parse stage's tree (prog.trees; prog.parser for a function no global named),
/// with comprehensions desugared. Typing never parses (src/pipeline.cpp, parse_stage).
class Program;
ast::Module parse_function(Program& prog, const FunctionSource& src);
/// Forgets what typing wrote into `f` (before it is typed again after RestartTyping).
void reset_typing(FunctionInstance& f);
/// Whether a for loop's target is the index of a loop rewrite_literal_unroll made.
bool is_unroll_index(const ast::Node& for_target);

/// The GPU's limit on a block's static shared memory (cuda.shared.array with a constant shape):
/// 48 KiB on every architecture, beyond which ptxas refuses the kernel. Checked when typing, so
/// the simulator enforces it too.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

/// The local memory a GPU thread may have: 512 KiB on every architecture since compute
/// capability 2.0 (the CUDA C++ Programming Guide's table of technical specifications); past it
/// ptxas refuses the kernel. cuda.local.array is checked against it when typing, so the
/// simulator, whose fibers have stacks of kFiberStack (prelude/host.h), never gets a larger one.
constexpr int64_t kMaxLocalBytes = 512 * 1024;

/// Throws a TypingError when the static shared memory of instance `root` and everything it calls
/// exceeds kMaxStaticSharedBytes, at the array that crosses the limit, naming the kernel `kernel`;
/// the same for their local arrays (cuda.local.array) and kMaxLocalBytes.
class Program;
void check_static_shared_memory(const Program& prog, int root, const std::string& kernel);

/// The decorator that compiles the kind of function `f` is for the GPU (for messages that refuse
/// GPU code in CPU functions).
inline std::string gpu_decorator(const FunctionInstance& f) {
  if (f.role == Role::Ufunc) return "@vectorize(..., target='cuda')";
  if (f.compiled_as.find("gufunc") != std::string::npos) return "@guvectorize(..., target='cuda')";
  return "@cuda.jit";
}

/// An exception class a raise names (Program::exc_classes): the key the dispatcher finds it by
/// ("builtins.ValueError", or decorators.EXC_CLASSES' "MyError@<id>" for a user's class), its
/// name, and whether it derives from Exception (what `except Exception` catches).
struct ExcClass {
  std::string key, name;
  bool is_exception = true;
};
/// A constant argument of a raise in GPU code (RaiseSite).
struct ExcArg {
  enum class Tag { Int, UInt, Float, Bool, Complex, Str, None } tag = Tag::None;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0, im = 0;
  std::string s;
};
/// A raise in GPU code, which the device reports by number as numba-cuda does (its class and
/// constant arguments are known when compiling): the dispatcher raises the class with the
/// arguments, the first prefixed with the function, file, line and thread.
struct RaiseSite {
  int cls = 0;  // index into Program::exc_classes
  std::vector<ExcArg> args;
  std::string function, file;
  int line = 0;
};

/// All instances reachable from the entry points compiled together.
class Program {
 public:
  std::vector<std::unique_ptr<FunctionInstance>> fns;
  std::vector<std::shared_ptr<FunctionSource>> sources;  // user functions named by Type::user_fn
  std::vector<std::vector<Signature>> declared;          // each one's declared signatures (may be none)
  // Compiled for the CPU only (@jit, CPU ufuncs): CPU-only intrinsics (random numbers) are
  // allowed, and no CUDA code is generated.
  bool host_only = false;
  // A CPU guvectorize: its entry instances are gufunc bodies (for messages: compiled_as).
  bool gufunc = false;
  // @jit(parallel=True): prange loops run on OpenMP threads (host_only programs only).
  bool parallel = false;
  // @jit's error_model='python' (its default): division and modulo by zero raise
  // ZeroDivisionError. Elsewhere NumPy's model: integers give 0, floats inf or nan.
  bool python_errors = false;
  // @jit functions: a function may return a value or None (Numba's OptionalType), since None
  // reaches Python and an unwrapped None raises TypeError there; str values are allowed too. GPU
  // code has optionals as numba-cuda's device functions do (may_be_optional): an unwrapped None
  // raises through a raise site. Not in CPU ufunc loops, nor as a ufunc's result.
  bool optionals = false;
  bool may_be_optional() const { return optionals || !host_only; }
  // CUJIT_SIM_RACECHECK: the simulator's build of this kernel records every shared-memory access
  // and reports races (prelude/host.h). Kernels only; the GPU code is unchanged.
  bool race_check = false;
  // @cuda.jit(debug=True): the GPU code checks every array index too (the simulator always does),
  // recording the first bad one for the dispatcher (codegen's CheckSite, prelude/cuda.h).
  bool debug_checks = false;
  // @jit(boundscheck=True) / CUJIT_BOUNDSCHECK=1 (host_only programs): an index out of bounds
  // raises IndexError (host_services.h's elem_bc).
  bool boundscheck = false;
  // cuda.declare_device functions the program calls, by C name (typeinfer_foreign.cpp), with the
  // first call's place for errors about the program as a whole (no code defines one).
  struct ForeignUse {
    const GlobalValue* decl;
    SourceFile source;
    SourceLoc at;
  };
  std::map<std::string, ForeignUse> foreign;
  // The nested functions' sources, by enclosing source and def (typeinfer_nested.cpp): made once,
  // so every instance of the enclosing function names the same ones.
  std::map<std::pair<const FunctionSource*, std::string>, std::shared_ptr<FunctionSource>> nested;
  // The parse stage's product (src/pipeline.cpp, parse_stage): each user function's tree as
  // parsed, by source, which parse_function copies for each instance. `parser` is the stage
  // itself, for a function first met while typing (passed as an argument, not named by a global).
  std::map<const FunctionSource*, std::shared_ptr<const ast::Module>> trees;
  std::function<ast::Module(const SourceFile&)> parser;
  // The exception classes raise statements name (typeinfer_exc.cpp); a Raise node's cval.i is
  // its class's index. GPU code's raises are numbered when generated (codegen_exc.cpp), the same
  // in both targets' text: by node, so the CUDA and the host program agree.
  mutable std::vector<ExcClass> exc_classes;  // codegen adds the debug division checks' classes
  mutable std::vector<RaiseSite> raise_sites;
  mutable std::map<const ast::Node*, int> raise_site_of;
  mutable std::map<std::string, int> raise_site_named;  // debug divisions by zero (codegen_exc.cpp)

  /// Types `src` for `args` (reusing an existing instance) and returns its index.
  /// `call_site` is where a caller asked for it (for errors); null for entry points.
  int instantiate(const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args,
                  const Type& declared_ret, Role role,
                  const std::map<std::string, GlobalValue>& const_params = {});

  /// The index in `sources` for a user function with these declared signatures (adds it on
  /// first use; the same function declared otherwise is another entry).
  int source_index(const std::shared_ptr<FunctionSource>& src, const std::vector<std::string>& sigs = {});
};

/// How many instances of one function may be typing at once, each calling the next with other
/// argument types, before the recursion counts as runaway.
constexpr int kMaxRecursiveInstances = 16;
/// Checks, once instance `idx` is typed, that every recursive call of it was typed with the type
/// it returns (typeinfer_calls.cpp); Numba's "Return type of recursive function does not
/// converge" at the first that was not.
void check_recursive_uses(Program& prog, int idx);

/// Calls (typeinfer_calls.cpp). `f(*t)`: the call's new form (FunctionInstance::rewrites), with
/// each starred tuple (a tuple literal, or a name whose type `type_of` finds) replaced by its
/// items; null where no argument is starred, or while some starred value's type is not known yet
/// (`*known` false then).
ast::NodePtr starred_form(FunctionInstance& fn, const ast::Node& call, const std::function<Type(ast::Node&)>& type_of,
                          bool* known);
/// Puts the arguments of `call`, a call of `callee` (whose definition is `def`), in parameter
/// order as Python binds them: keywords to the parameters they name, defaults for parameters left
/// out, extra positional arguments into one tuple for a `*args` parameter; Python's TypeError
/// messages (as TypingErrors) for a call that does not fit. Once per call node.
void bind_user_call(FunctionInstance& fn, ast::Node& call, const FunctionSource& callee, const ast::Node& def);

/// A raise statement (typeinfer_exc.cpp): resolves its class (the builtin AssertionError for an
/// assert's), records it in prog.exc_classes (s.cval.i), types its arguments with `type_expr`
/// and refuses what Numba refuses. `is_local` says whether a name is a local variable.
void type_raise(Program& prog, FunctionInstance& fn, ast::Node& s, const std::function<Type(ast::Node&)>& type_expr,
                const std::function<bool(const std::string&)>& is_local);
/// A try statement (typeinfer_exc.cpp): refused in GPU code; its handlers' classes must be what
/// Numba's nopython mode catches (a bare except or Exception).
void check_try(const Program& prog, FunctionInstance& fn, const ast::Node& s);
/// The names a try body assigns whose versions (there and before the statement) do not all have
/// one type (typeinfer_exc.cpp): the handler cannot know which C++ variable holds the value, so
/// the `final` pass refuses them. `before` gives the type of a name's version before the try
/// (Unknown when unassigned).
std::set<std::string> try_unsettled_names(const FunctionInstance& fn, const ast::Node& s,
                                          const std::function<Type(const std::string&)>& before, bool final);

/// Lifts the nested defs of `f`'s tree out into functions of their own (typeinfer_nested.cpp):
/// each def statement becomes an assignment of a global in `f.nested`.
void lift_nested_functions(Program& prog, FunctionInstance& f);
/// The rewrites before typing that need names but no types (resolve.cpp), after
/// lift_nested_functions: an exception held in a variable; the branches Numba prunes.
void resolve_before_typing(FunctionInstance& f);
/// Numba's dead-branch pruning for this instance's argument types (prune.cpp): the branch a
/// test known before typing never takes, and code after a return, are dropped from the tree.
void prune_dead_branches(FunctionInstance& f);

/// The name of the Function type of a cuda.declare_device global: kForeignPrefix + its C name.
constexpr const char* kForeignPrefix = "foreign ";
/// A call of a cuda.declare_device function (typeinfer_foreign.cpp): checks the arguments against
/// its signature, records it in prog.foreign and returns its declared result (none for void).
Type type_foreign_call(Program& prog, FunctionInstance& fn, ast::Node& call, const GlobalValue& decl,
                       const std::vector<Type>& args);
/// Records that `fn` names the cuda.declare_device global `decl` at `at` (typeinfer_foreign.cpp):
/// one C name must have one declaration in a program.
void record_foreign(Program& prog, FunctionInstance& fn, const ast::Node& at, const GlobalValue& decl);

/// The type Numba gives a Python value in the snapshot (for errors and constants).
Type type_of_global(const GlobalValue& g);

struct BuiltinRow;
/// The result type of a call to an intrinsic with arguments of the given types, checking its
/// arity and argument types (typeinfer_builtins.cpp). Records array shapes in `fn`.
Type type_builtin_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
/// Complex numbers (typeinfer_complex.cpp): Rule::Complex's intrinsics; Numba's message for an
/// intrinsic that has no implementation for these argument types.
Type type_complex_call(FunctionInstance& fn, const ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args);
bool complex_array_attr(const Type& v, const std::string& name, Type* out);
std::string no_implementation(const BuiltinRow& b, const std::vector<Type>& args);
/// float16 (typeinfer_half.cpp): a cuda.fp16 call's type; what a math function given a float16
/// returns (float16 for numba-cuda's fp16 functions, else float32; `gpu`: floor/ceil/trunc stay
/// floats); refusing np.* functions on float16 (numba-cuda has none); the type of `x op y` where
/// numba-cuda widens a float16 result (// % **), else Unknown.
Type type_fp16_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
Scalar float16_math_result(const BuiltinRow& b, bool gpu);
void check_float16_numpy(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
Type float16_binop_type(ast::Op op, Scalar x, Scalar y);
/// datetime64/timedelta64 (typeinfer_datetime.cpp): the type of `x op y` where either is one, or
/// Unknown where Numba has no such operator (then *why may hold a reason beyond "unsupported
/// operand types"); whether `x < y` (any comparison) exists for them.
Type time_binop_type(ast::Op op, Scalar x, Scalar y, std::string* why);
bool time_compare_ok(Scalar x, Scalar y, std::string* why);
/// A call of an intrinsic given a datetime64/timedelta64 (or np.isnat): its type where Numba has
/// one (abs(td), int(td), np.isnat), else Numba's "No implementation" error; Unknown when no
/// argument is one (the intrinsic's own rule types the call).
Type type_time_call(FunctionInstance& fn, const ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args);
struct LibdeviceFn;
/// A call of numba.cuda.libdevice.<name> (typeinfer_builtins.cpp).
Type type_libdevice_call(FunctionInstance& fn, ast::Node& call, const LibdeviceFn& ld, const std::vector<Type>& args);
/// Puts the keyword arguments of a call to an intrinsic that takes them (np.random.normal(scale=2))
/// into parameter order, filling skipped parameters with their defaults. False for intrinsics
/// without keyword parameters (the call's keywords are then the caller's to reject).
bool bind_builtin_keywords(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b);
/// What the typers of one NumPy call share (typeinfer_numpy.cpp's NpTyper, typeinfer_linalg.cpp's
/// LinalgTyper, typeinfer_npshape.cpp's ShapeTyper): the call (a BinOp for `x @ y`), its row, its
/// arguments' types, and errors with the caret at an argument.
struct CallTyper {
  FunctionInstance& fn;
  const ast::Node& e;
  const BuiltinRow& b;
  const std::vector<Type>& args;
  const std::string name = b.name;

  [[noreturn]] void error(const ast::Node& n, const std::string& msg) const {
    user_error(fn.mod.source, n.loc, ErrorKind::Typing, msg);
  }
  [[noreturn]] void unsupported(const ast::Node& n, const std::string& msg) const {
    user_error(fn.mod.source, n.loc, ErrorKind::Unsupported, msg);
  }
  /// Argument i's node, for its caret (the call itself where there is none, and for `x @ y`).
  const ast::Node& at(size_t i) const { return e.is(ast::Kind::Call) && i < e.args().size() ? *e.args()[i] : e; }
  /// Whether argument i is there and not None.
  bool given(size_t i) const { return i < args.size() && args[i].tag != Type::Tag::None; }
  /// "<name>() takes lo to hi arguments, got n" where the count is outside [lo, hi].
  void arity(size_t lo, size_t hi) const {
    if (args.size() < lo || args.size() > hi)
      error(e, name + "() takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                   " arguments, got " + std::to_string(args.size()));
  }
};
/// A NumPy ufunc call (typeinfer_ufunc.cpp): out= moved after the inputs; the loop NumPy (and
/// Numba) picks for the argument types, recorded in fn.ufunc_loops; the result's type.
bool bind_ufunc_keywords(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b);
Type type_ufunc_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
/// `x @ y` of two arrays (typeinfer_numpy.cpp): np.dot's rule (Rule::NpFunc calls are typed by
/// BuiltinTyper::numpy_call there).
Type type_matmul(FunctionInstance& fn, const ast::Node& at, const Type& x, const Type& y);
/// np.linalg.eig/svd/qr/lstsq/norm/... (typeinfer_linalg.cpp; reached through numpy_call's linalg()).
Type type_linalg_call(FunctionInstance& fn, const ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
/// np.expand_dims/atleast_nd/swapaxes/moveaxis/repeat/take/flatnonzero/array_equal/digitize/
/// convolve/correlate (typeinfer_npshape.cpp); the rest goes on to type_linalg_call.
Type type_npshape_call(FunctionInstance& fn, const ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
/// np.where(cond) with one argument: the indices where cond holds, as np.nonzero gives.
Type type_nonzero(FunctionInstance& fn, const ast::Node& call, const std::vector<Type>& args);
/// a[i] / a[m] with an integer or boolean array index (typeinfer_numpy.cpp): the new array's
/// type, or Unknown where no index in `it` is an array.
Type type_fancy_index(FunctionInstance& fn, const ast::Node& e, const Type& base, const std::vector<Type>& it);
/// The first of a ufunc's `loops` that inputs of types `in` take (Numba's
/// ufunc_find_matching_loop) and whose results cast same_kind to `outs` (out= arrays' dtypes,
/// may be fewer than the loop's outputs); null where none does.
const UfuncLoop* match_ufunc_loop(const std::vector<UfuncLoop>& loops, const std::vector<Scalar>& in,
                                  const std::vector<Scalar>& outs);
/// An operator with an array operand (typeinfer_arrayexpr.cpp): typed as the ufunc NumPy applies
/// (a + b is np.add(a, b), a < b np.less, -a np.negative), its loop recorded for `at` in
/// fn.ufunc_loops. `inplace` (a += b): the result is written into the first operand, whose type
/// it keeps. The lowering stage (lower.cpp) fuses such operators into one loop.
Type type_array_operator(FunctionInstance& fn, const ast::Node& at, ast::Op op, bool unary, const std::vector<Type>& in,
                         bool inplace);
/// np.where(cond, x, y) and np.clip(a, lo, hi) (typeinfer_arrayexpr.cpp): element-wise, with
/// NumPy's broadcasting; fused by the lowering stage as the operators are.
Type type_elementwise_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
/// np.sum(a) and the other whole-array reductions (Rule::ArrayReduce): Numba's result type.
Type type_reduce_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
/// The constant an argument expression of `fn` is, for a callee's constant parameter: an int
/// expression that folds (literals, global ints, arithmetic), a tuple of such, or a global (or
/// constant-parameter) tuple of ints. False where it is not one.
bool fold_constant_argument(FunctionInstance& fn, const ast::Node& arg, GlobalValue* out);
/// Numba's TypingError for a store into a read-only array (a NumPy argument with
/// flags.writeable False, a read-only __cuda_array_interface__, a global constant array, or a
/// view of one): "Cannot modify readonly array of type: readonly array(uint8, 1d, C)".
constexpr const char* kReadonlyStore = "Cannot modify readonly array of type: ";
inline std::string readonly_store_message(const Type& array) { return kReadonlyStore + array.str(); }
/// Whether control can reach the end of `stmts`, by Python's rules and conservatively (when in
/// doubt, it can): a return ends a block, so does an if whose branches both end, a `while True:`
/// without a break of its own, and a loop whose else ends and that has no break.
bool can_fall_through(const std::vector<ast::NodePtr>& stmts);
/// Whether control never passes from the statement `s` to the next one of its block (a return,
/// raise, break or continue on every path; can_fall_through's rules).
bool statement_ends(const ast::Node& s);
/// Python folds arithmetic on number literals into one constant before Numba sees the code, so
/// `1 << 63` is the uint64 literal 2**63, `2**32 - 1` an int64 literal and `10 ** -3` the float
/// 0.001 (not the int 0 that int64 ** int64 gives at run time). Rewrites a BinOp of int and float
/// literals (nested, negated) into that Constant and returns 1 (a complex result, a negative
/// float to a fractional power, becomes `re + imj`, and 0 is returned); returns 0 where it is not
/// such an expression or Python would not fold it (a negative shift, a division by zero), and -1
/// where an int value fits neither int64 nor uint64 (Numba cannot type it either).
/// The resolve step (resolve.cpp) folds the parsed tree before typing.
int fold_int_constant(ast::Node& e);
/// Whether BinOp `e` of number literals, as parsed (not an operator-module call's), is one whose
/// int value fits neither int64 nor uint64: the one fold_int_constant left for typing to refuse.
bool int_constant_too_large(const ast::Node& e);
/// The number a literal expression folds to (a BinOp or UnaryOp of number literals, as CPython
/// folds them before Numba sees the bytecode: `1 >> 5` is 0), without changing the tree: the
/// dead-branch pruner's test of `x if 1 >> 5 else y`. False where it does not fold (complex too).
bool fold_literal_number(const ast::Node& e, long double* out);
/// An integer literal, or a negated one.
bool const_int_literal(const ast::Node& n, int64_t* out);

// Records (typeinfer_records.cpp): structured dtypes' elements and their fields.
/// The field `r.name` of a record type, or a typing error at `at` naming the record's fields (a
/// field of a type cujit lacks is refused here, where it is used).
const RecordField& record_field(const FunctionInstance& fn, const ast::Node& at, const Type& rec, const std::string& name);
/// The field `r[ix]` names: a string constant, or an integer constant (the field at that position,
/// as Numba's getitem on a record); a typing error otherwise.
const RecordField& record_field_at(const FunctionInstance& fn, const ast::Node& ix, const Type& rec);
/// The type a field reads as: its scalar or record, or a C-ordered array view of a nested array.
Type record_field_type(const RecordField& f, bool readonly = false);
/// Checks a store of a `value` into `target` (a field, or an element of a record array), as Numba
/// converts: a number into a scalar field, the same record into a record, an array or a number
/// into a nested array. `at` is the statement, `base` the record or array stored into (a
/// read-only one is refused).
void check_record_store(const FunctionInstance& fn, const ast::Node& at, const Type& base, const Type& target,
                        const Type& value);
/// Refuses a record or record array passed to an intrinsic other than those that only take the
/// array as it is (len, cuda.const.array_like): the intrinsics' rules read `.scalar`, which a
/// record does not have.
void check_record_operands(const FunctionInstance& fn, const ast::Node& call, const std::string& name,
                           const std::vector<Type>& args);

// Char sequences (typeinfer_charseq.cpp): a record's 'S'/'U' field as a value. A bytes literal's
// type (its bytes); the check of `l op r` where one side is a char sequence (a literal of its
// kind on the other side is retyped to one, l and r updated); the check of a store into such a
// field from a value (a literal, the statement's right side, is retyped).
Type bytes_literal_type(const FunctionInstance& fn, ast::Node& c);
void check_charseq_compare(const FunctionInstance& fn, const ast::Node& e, ast::Op op, ast::Node& ln, Type* l,
                           ast::Node& rn, Type* r);
void check_charseq_store(const FunctionInstance& fn, const ast::Node& stmt, const Type& target, const Type& value);

// Tuples (typeinfer_tuples.cpp): whether `l op r` compares tuples item by item (`l in r`: r is a
// tuple of items l compares with); the type of a slice of `base` by constants (else refused) and,
// for codegen, the items a constant slice picks from a tuple of n (false if it is not constant).
bool tuple_comparison_ok(const Type& l, ast::Op op, const Type& r);
Type tuple_slice_type(const SourceFile& src, const ast::Node& slice, const Type& base);
bool tuple_slice_picks(const ast::Node& slice, size_t n, std::vector<int64_t>* picks);

// Lists (typeinfer_lists.cpp; CPU code only, refused in GPU code at the line).
/// Rewrites list comprehensions into loops that append to a new variable, before the statement
/// that evaluates them (parse_function calls it); names `x = [...]` literals for their item type.
void desugar_comprehensions(ast::Module& m);
/// f(*expr): expr into a variable assigned before its statement, where effects keep their order
/// (typeinfer_starred.cpp).
void hoist_starred_arguments(ast::Module& m);
/// A list literal (or a rewritten comprehension's `[]`) whose items have these types.
Type type_list_literal(FunctionInstance& fn, ast::Node& e, const std::vector<Type>& items);
/// A typing error where an empty list's item type stayed unknown (codegen: it has no C++ type):
/// at node `e`, or at the first such list literal of `fn`'s tree.
void check_list_known(const FunctionInstance& fn, const ast::Node& e);
void check_lists_known(const FunctionInstance& fn);
/// The builtin ("list.append") a method of a list names, or null.
const char* list_method_builtin(const std::string& method);
/// list(), sorted() and the list methods (Rule::ListOp; a method's list is args[0]).
Type type_list_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
// numba.typed.List / Dict made in compiled code (typeinfer_typed.cpp).
/// typed.List(), List(iterable), List.empty_list(t): a ListType (Type::typed_list).
Type type_typed_list_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
/// typed.Dict.empty(k, v): dict(k, v); typed.Dict(): unknown (typed as dict(), by its first insertion).
Type type_typed_dict_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
/// What a typed.List can hold (Numba's ListType: typed lists, not reflected ones; dicts).
bool typed_list_item_ok(const Type& t);
/// Whether a value of type `from` goes into a typed container's slot of type `to` (the same type,
/// or a number Numba's cast widens: 1 into float64, True into int64; never 2.5 into int64).
bool typed_stores_into(const Type& from, const Type& to);
/// A store typed_stores_into allows that Numba's casting rules call unsafe (int64 into int32,
/// float64 into float32, int64 into float32, uint64 into int64, ...): Numba's
/// NumbaTypeSafetyWarning "unsafe cast from A to B. Precision may be lost.", recorded on fn.
void warn_unsafe_store(FunctionInstance& fn, const Type& from, const Type& to);
/// l[i] and l[a:b:c].
Type type_list_subscript(FunctionInstance& fn, ast::Node& e, const Type& l, const Type& index);
/// l[i] = v and l[a:b] = other (target typed already).
void check_list_store(FunctionInstance& fn, const ast::Node& stmt, ast::Node& target, const Type& value);
/// a + b and a * n with a list.
Type list_binop_type(FunctionInstance& fn, const ast::Node& at, ast::Op op, const Type& a, const Type& b);
/// `x in l`, and == < ... between lists of numbers.
bool list_comparison_ok(const Type& l, ast::Op op, const Type& r);

// Strings (typeinfer_strings.cpp; CPU code only, refused in GPU code at the line).
/// The refusal of a str value in GPU code ("strings are not supported in GPU code"); nothing in CPU code.
void refuse_gpu_string(const FunctionInstance& fn, const ast::Node& at);
/// The builtin ("str.upper") a method of a str names, or null.
const char* str_method_builtin(const std::string& method);
/// str(x), ord, chr, hash and the str methods (Rule::StrOp; a method's str is args[0]).
Type type_str_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
/// float("1.5"), float("nan"), float(" -inf "): Numba's float() of a string literal, a constant
/// float64 (the literal node becomes that number); of any other str refused as Numba does.
Type type_float_of_str(FunctionInstance& fn, ast::Node& call);
/// s[i] and s[a:b:c].
Type type_str_subscript(FunctionInstance& fn, ast::Node& e, const Type& index);
/// a + b, s * n and n * s with a str.
Type str_binop_type(FunctionInstance& fn, const ast::Node& at, ast::Op op, const Type& a, const Type& b);
/// == != < <= > >= `in` between two strs.
bool str_comparison_ok(const Type& l, ast::Op op, const Type& r);

// Dicts and sets (typeinfer_dicts.cpp; CPU code only, refused in GPU code at the line).
/// A dict literal (keys and values alternating in `items`) or a set literal.
Type type_dict_literal(FunctionInstance& fn, ast::Node& e, const std::vector<Type>& items);
/// A typing error where the key or value type of `{}`/`set()` (node `e`) stayed unknown.
void check_dicts_known(const FunctionInstance& fn, const ast::Node& e);
/// The builtin ("dict.get") a method of a dict or set of type `self` names, or null.
const char* dict_method_builtin(const Type& self, const std::string& method);
/// dict(), set(), hash() and the methods (Rule::DictOp; a method's container is args[0]).
Type type_dict_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args);
/// d[k].
Type type_dict_subscript(FunctionInstance& fn, ast::Node& e, const Type& d, const Type& key);
/// d[k] = v (target typed already): the first insertion into `{}` types it.
void check_dict_store(FunctionInstance& fn, const ast::Node& stmt, ast::Node& target, const Type& value);
/// del d[k] (target typed already).
void check_dict_delete(FunctionInstance& fn, const ast::Node& target);
/// a | b, a & b, a - b, a ^ b with a set.
Type set_binop_type(FunctionInstance& fn, const ast::Node& at, ast::Op op, const Type& a, const Type& b);
/// `k in d`, `x in s`, d == e, and the set comparisons.
bool dict_comparison_ok(const Type& l, ast::Op op, const Type& r);

// Named tuples (typeinfer_namedtuples.cpp): the type of field `name` of the named tuple `v`
// (Numba's "Unknown attribute" where it has none); a call of the named tuple class `cls` (its
// arguments typed: `args` positional, the keywords' values on their nodes) bound to the fields as
// Python binds it, with the class's defaults: the named tuple it makes. The call's Resolved
// items say where each field comes from (codegen_tuples.cpp, emit_named_tuple_call).
Type named_tuple_field(const FunctionInstance& fn, const ast::Node& at, const Type& v, const std::string& name);
Type type_named_tuple_call(FunctionInstance& fn, ast::Node& call, const GlobalValue& cls, const std::vector<Type>& args);
/// The C++ literal of a constant global (a number, an enum member's value, a tuple's aggregate).
std::string constant_literal(const GlobalValue& g);

}  // namespace cujit
