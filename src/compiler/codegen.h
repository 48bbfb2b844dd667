// Code generation: typed FunctionInstances -> the C++ dialect of DESIGN.md decision 4, with
// #line directives back to the user's file. The same text builds for the GPU (NVRTC, with the
// prelude's cuda.h) and for the CPU (the host compiler, with host.h); only the entry points differ.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "compiler/typeinfer.h"

namespace cujit {

enum class Target { CUDA, Host };

/// An entry point: a ufunc loop or a kernel around one typed instance.
struct EntryPoint {
  // Cpu: an @jit function. NumpyLoop / NumpyGufunc: a NumPy inner loop (args, dimensions, steps,
  // data) for a CPU @vectorize / @guvectorize (prelude/numpy_loop.h). All three: host target only.
  // DeviceAbi: a device function on its own with an extern "C" name (cuda.compile(device=True)):
  // `c_abi` RET symbol(args...), else Numba's int symbol(RET* ret, args...). GPU target only.
  // FusedUfunc: a chain of CUDA ufunc calls as one loop (codegen_fuse.cpp, bindings/ufunc_fuse.cpp):
  // `steps` in order, `leaves` the array operands' types; `instance` is the last step's.
  enum class Kind { Ufunc, Kernel, Cpu, NumpyLoop, NumpyGufunc, DeviceAbi, FusedUfunc } kind;
  int instance;          // index into Program::fns
  std::string symbol;    // extern "C" name in the generated code
  bool parallel = false;  // NumpyLoop / NumpyGufunc: split the loop over OpenMP threads
  bool c_abi = false;     // DeviceAbi: the C ABI (cuda.compile's abi="c")
  // NumpyGufunc: per operand, the index into NumPy's dimensions array (1 + the core dimension's
  // number in order of first appearance in the layout) of each of its core dimensions.
  std::vector<std::vector<int>> core_dims;
  // FusedUfunc: each step calls one instance (a ufunc signature, typed as its own ufunc types it)
  // on arguments that are leaf operands (k >= 0) or earlier steps' results (~j < 0).
  struct Step {
    int instance;
    std::vector<int> args;
  };
  std::vector<Step> steps;
  std::vector<Scalar> leaves;
};


/// One checked array access of GPU code built with Program::debug_checks: the device records
/// only its number (its index in the list), the host puts the words back into the message.
struct CheckSite {
  std::string array;  // the indexed name ("a"), or "array" for an expression
  std::string where;  // "{fileN}:LINE", as in the simulator's messages
};

/// The generated translation unit, without the prelude (pipeline.cpp puts that in front). For
/// the CUDA target of a debug_checks program, `sites` receives the checked accesses by number.
std::string emit_program(const Program& prog, const std::vector<EntryPoint>& entries, Target target,
                         std::vector<CheckSite>* sites = nullptr);

/// The user files of a program, numbered by first appearance: the generated code names a file
/// by its number where a path in the text would change the cache key (simulator messages).
std::vector<std::string> program_files(const Program& prog);

/// Whether some function of the program calls cuda.cg.this_grid(): its kernel must be launched
/// cooperatively (all blocks resident at once), as Numba marks such a kernel.
bool uses_grid_group(const Program& prog);

/// Whether a kernel with these argument types has a restrict variant (codegen_entry.cpp): every
/// argument is an array or a scalar, so the launch sees every array the kernel can reach (the
/// words of each) and can prove that no two overlap (bindings/kernel_alias.h). Arrays inside
/// tuples or records would escape that check. NOTE: were a kernel ever to reach a global device
/// array (cujit refuses them today), that array must make the kernel not a candidate.
bool kernel_restrict_candidate(const std::vector<Type>& arg_types);

/// Whether some function of the program declares a cuda.shared.array (static or dynamic).
bool uses_shared_memory(const Program& prog);

/// A NumPy ufunc call `e` of builtin `b` whose arguments are the C++ expressions `args`
/// (codegen_ufunc.cpp); sets *allocates where it makes a new array.
std::string ufunc_code(const FunctionInstance& fn, const ast::Node& e, Builtin b, const std::vector<std::string>& args,
                       bool host_only, bool* allocates);
/// np.sum(a) and the other whole-array reductions of `array`, a C++ expression (codegen_ufunc.cpp).
std::string reduce_code(const ast::Node& e, Builtin b, const std::string& array, bool host_only);
/// The C++ spelling of a value type ("float", "cj::Array<float, 2>", "cj_T_float32_int64").
std::string cpp_type(const Type& t);

/// Whether call `e` was given its argument `i`: an optional argument left out (or passed as None)
/// is typed None.
inline bool arg_given(const ast::Node& e, size_t i) { return i < e.args().size() && e.args()[i]->type.tag != Type::Tag::None; }

// Records in generated code (codegen_records.cpp): a record is `cj::Rec<size, align>` bytes
// (prelude common.h), a record value a pointer to them, a field read and written at its offset.
/// The statement for raise `s` of `fn` (codegen_exc.cpp); `value` writes an argument's value.
std::string raise_code(const Program& prog, const FunctionInstance& fn, const ast::Node& s,
                       const std::function<std::string(const ast::Node&)>& value);

/// The raise site (Program::raise_sites) of a check codegen adds at `line` of `fn`, one per `key`:
/// builtin class `cls` with message `msg` (codegen_exc.cpp).
int named_raise_site(const Program& prog, const FunctionInstance& fn, const std::string& key, const std::string& cls,
                     const std::string& msg, int line);

/// `a op b` (/, // or %, of scalar type `t`, operands converted to it) in GPU code built with
/// debug=True (codegen_exc.cpp): a zero divisor raises as numba-cuda's debug mode does,
/// ZeroDivisionError on the GPU and NumPy's FloatingPointError on the simulator (`sim`).
std::string zero_division_code(const Program& prog, const FunctionInstance& fn, ast::Op op, const Type& t, int line,
                               bool sim, const std::string& a, const std::string& b);

/// divmod(a, b) (codegen_exc.cpp), `a` and `b` converted to the element type of `t`, the
/// result's UniTuple (C++ type `tuple_type`): Python's floor quotient and remainder, each operand
/// evaluated once. A zero divisor raises ZeroDivisionError in @jit code (`python_errors`, Numba's
/// messages), as zero_division_code in GPU code built with debug=True, and else gives what NumPy's
/// error model gives (numba-cuda's): (0, 0) for integers, (a / 0, nan) for floats.
std::string divmod_code(const Program& prog, const FunctionInstance& fn, const Type& t, int line, bool python_errors,
                        bool sim, const std::string& a, const std::string& b, const std::string& tuple_type);

/// `tuple[index]` of a UniTuple in GPU code built with debug=True (codegen_exc.cpp): an index
/// past its end raises IndexError("tuple index out of range") as numba-cuda's debug mode does
/// (without debug the thread ends, as numba-cuda's unchecked code does not raise).
std::string checked_tuple_item(const Program& prog, const FunctionInstance& fn, int line, const std::string& tuple,
                               const std::string& index);

/// "cj::Rec<16, 8>".
std::string record_cpp(const Record& r);
/// A global array of records (`sym`, its bytes in `g`): its definition written to `defs` (null
/// when already written), as constant memory on the GPU; returns the C-ordered view of it.
std::string record_const_array(const std::string& sym, const GlobalValue& g, Target target, std::ostream* defs);
/// The record whose field an assignment target names (`r.x`, `r['x']`, `a[i].x`), or null.
const Type* record_target(const ast::Node& target);
/// The field `r[ix]` names (typing checked it: a string or integer constant).
const RecordField& record_field_of(const ast::Node& e);
/// The value of field `f` of the record at pointer `rec` (a scalar, a pointer to a nested record,
/// or a C-ordered cj::Array view of a nested array).
std::string record_field_read(const Record& r, const RecordField& f, const std::string& rec);
/// A statement storing `value` (already converted to the field's scalar type, or a record pointer,
/// or an array / scalar for a nested array) into field `f` of the record at `rec`.
std::string record_field_store(const Record& r, const RecordField& f, const std::string& rec, const std::string& value,
                               const Type& value_type, bool host_only);

// Char sequences (codegen_charseq.cpp): a record's 'S'/'U' field as a cj::CharSeq value.
/// "cj::CharSeq<uint32_t, 12>".
std::string charseq_cpp(const Type& t);
/// A str or bytes literal typed as a char sequence (typeinfer_charseq.cpp retyped it).
std::string charseq_literal_code(const ast::Node& c);
/// == != < <= > >= between char sequences of one kind.
std::string charseq_compare_code(const std::string& l, ast::Op op, const std::string& r);
/// The field's value read from, and a statement storing `value` into, its bytes at `at` (a char*).
std::string charseq_field_read(const RecordField& f, const std::string& at);
std::string charseq_field_store(const RecordField& f, const std::string& at, const std::string& value);

/// How prelude code reports a run-time error (a shape that does not fit): raised in the caller
/// in @jit code, stopping the launch in kernels (prelude/ufuncs.h, host_arrays.h).
inline const char* error_policy(bool host_only) { return host_only ? "cj::UfErrPy" : "cj::UfErrLaunch"; }

// Lists (codegen_lists.cpp; CPU code only). `expr` gives an expression's C++ (with its
// conversion, as the emitter's own).
using ExprCode = std::function<std::string(const ast::Node&)>;
/// The emitter's conversion of `code` from one type to another (tuples item by item).
using ConvertCode = std::function<std::string(const std::string&, const Type&, const Type&)>;
/// "cj::List<int64_t>".
std::string list_cpp(const Type& list);
/// A list literal (or the `[]` of a rewritten comprehension).
std::string list_literal_code(const FunctionInstance& fn, const ast::Node& e, const ExprCode& expr, const ConvertCode& conv);
/// np.linalg.eig/svd/qr/lstsq/norm/... (codegen_linalg.cpp; a tuple result's struct already emitted).
std::string linalg_call_code(const ast::Node& e, Builtin b, const ExprCode& expr);
/// A call of a Rule::ListOp builtin: list(), sorted(), l.append(x) (rewritten as list.append(l, x)), ...
std::string list_call_code(const FunctionInstance& fn, const ast::Node& e, Builtin b, const ExprCode& expr,
                           const ConvertCode& conv);
/// l[i], l[a:b:c].
std::string list_subscript_code(const ast::Node& e, const ExprCode& expr);
/// The statement l[i] = value, l[a:b:c] = value.
std::string list_store_code(const ast::Node& target, const std::string& value, const ExprCode& expr);
/// a + b, a * n, n * a of lists (`result` the typed result).
std::string list_binop_code(ast::Op op, const std::string& a, const Type& ta, const std::string& b, const Type& tb,
                            const Type& result);
/// x in l, x not in l, l == m, l < m, ...
std::string list_compare_code(const std::string& l, const Type& lt, ast::Op op, const std::string& r, const Type& rt);
/// Python's slice parts of a Slice node as cj::slice_range's arguments after the length.
std::string slice_args(const ast::Node& slice, const ExprCode& expr);

// Strings (codegen_strings.cpp; CPU code only): a cj::Str (prelude/host_str.h).
/// A str constant of this UTF-8 text: made once per program, on first use.
std::string str_literal_code(const std::string& utf8);
/// A call of a Rule::StrOp builtin: str(x), ord, chr, hash, s.upper() (rewritten as str.upper(s)), ...
std::string str_call_code(const ast::Node& e, Builtin b, const ExprCode& expr);
/// s[i], s[a:b:c].
std::string str_subscript_code(const ast::Node& e, const ExprCode& expr);
/// a + b, s * n, n * s.
std::string str_binop_code(ast::Op op, const std::string& a, const Type& ta, const std::string& b);
/// == != < <= > >= in, not in between strs.
std::string str_compare_code(const std::string& l, ast::Op op, const std::string& r);

// Dicts and sets (codegen_dicts.cpp; CPU code only).
/// "cj::Dict<int64_t, double>", "cj::Set<int64_t>".
std::string dict_cpp(const Type& t);
/// A dict or set literal.
std::string dict_literal_code(const FunctionInstance& fn, const ast::Node& e, const ExprCode& expr, const ConvertCode& conv);
/// A call of a Rule::DictOp builtin: dict(), set(), hash(), d.get(k) (rewritten as dict.get(d, k)), ...
std::string dict_call_code(const FunctionInstance& fn, const ast::Node& e, Builtin b, const ExprCode& expr,
                           const ConvertCode& conv);
/// d[k].
std::string dict_subscript_code(const ast::Node& e, const ExprCode& expr, const ConvertCode& conv);
/// The statement d[k] = value (value in the value type).
std::string dict_store_code(const ast::Node& target, const std::string& value, const ExprCode& expr, const ConvertCode& conv);
/// The statement del d[k] (or del l[i]).
std::string dict_delete_code(const ast::Node& target, const ExprCode& expr, const ConvertCode& conv);
/// a | b, a & b, a - b, a ^ b of sets.
std::string set_binop_code(ast::Op op, const std::string& a, const std::string& b);
/// a |= b, a &= b, a -= b, a ^= b of sets: in place on a.
std::string set_inplace_code(ast::Op op, const std::string& a, const std::string& b);
/// k in d, x in s, d == e, s <= t, ...
std::string dict_compare_code(const std::string& l, const Type& lt, ast::Op op, const std::string& r, const Type& rt);

}  // namespace cujit
