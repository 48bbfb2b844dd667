// Typing of NumPy's sorting, searching and counting functions, np.dot/np.vdot/`@` and np.linalg,
// and np.random.shuffle/permutation in CPU code (Rule::NpLib in builtins.def; codegen_nplib.cpp
// writes the calls, prelude/host_nplib.h and host_linalg.h run them). Each result type and each
// refusal is Numba 0.68's (numba/np/arraymath.py, numba/np/linalg.py).
#include <string>

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {

struct NpLibTyper {
  FunctionInstance& fn;
  const ast::Node& e;
  const BuiltinRow& b;
  const std::vector<Type>& args;

  [[noreturn]] void error(const ast::Node& at, const std::string& msg) const {
    user_error(fn.mod.source, at.loc, ErrorKind::Typing, msg);
  }
  // Argument i's node, for its caret (the call itself for `x @ y`, a BinOp).
  const ast::Node& at(size_t i) const { return e.is(ast::Kind::Call) && i < e.args().size() ? *e.args()[i] : e; }
  bool given(size_t i) const { return i < args.size() && args[i].tag != Type::Tag::None; }
  std::string name() const { return b.name; }
  void arity(size_t lo, size_t hi) const {
    if (args.size() < lo || args.size() > hi)
      error(e, name() + "() takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                   " arguments, got " + std::to_string(args.size()));
  }
  // Numba's "No implementation of function ... found for signature" for these arguments.
  [[noreturn]] void no_impl() const {
    std::string sig;
    for (size_t i = 0; i < args.size(); ++i) sig += (i ? ", " : "") + args[i].str();
    error(e, "No implementation of function " + name() + " found for signature: " + name().substr(name().rfind('.') + 1) +
                 "(" + sig + ")");
  }
  const Type& array(size_t i) const {
    if (!given(i) || !args[i].is_array() || args[i].is_record_array()) no_impl();
    if (args[i].scalar == Scalar::Float16 || is_time(args[i].scalar)) no_impl();
    return args[i];
  }
  // A string literal argument (kind=, side=): its text, or `dflt` where it is not given.
  std::string literal(size_t i, const char* dflt) const {
    if (!given(i)) return dflt;
    const ast::Node& n = at(i);
    if (!n.is(ast::Kind::Constant) || n.cval.tag != ast::ConstValue::Tag::Str)
      error(n, name() + "() needs a string literal here, got " + args[i].str());
    return n.cval.s;
  }
  void integer(size_t i) const {
    if (given(i) && !(args[i].is_scalar() && is_integral(args[i].scalar)))
      error(at(i), name() + "() needs an integer here, got " + args[i].str());
  }

  Type sorting() {
    using B = Builtin;
    switch (b.id) {
      case B::NpSort: {
        arity(1, 1);
        const Type& a = array(0);
        return Type::array(a.scalar, a.ndim, 'C');
      }
      case B::ArraySortM: {  // a.sort(): in place, along the last axis
        arity(1, 1);
        const Type& a = array(0);
        if (a.readonly) error(at(0), readonly_store_message(a));
        return Type::none();
      }
      case B::NpArgsort: {
        arity(1, 2);
        const Type& a = array(0);
        if (a.ndim != 1) no_impl();  // Numba: 1-d only
        std::string kind = literal(1, "quicksort");
        if (kind != "quicksort" && kind != "mergesort")
          error(at(1), "Unsupported argsort kind '" + kind + "': Numba supports 'quicksort' and 'mergesort'");
        return Type::array(Scalar::Int64, 1, 'C');
      }
      case B::NpUnique: {
        arity(1, 1);
        return Type::array(array(0).scalar, 1, 'C');
      }
      case B::NpSearchsorted: {
        arity(2, 3);
        const Type& a = array(0);
        if (a.ndim != 1) no_impl();
        std::string side = literal(2, "left");
        if (side != "left" && side != "right") error(at(2), "Invalid value given for 'side': " + side);
        if (args[1].is_scalar() && !is_time(args[1].scalar)) return Type::scalar_of(Scalar::Int64);
        const Type& v = array(1);
        return Type::array(Scalar::Int64, v.ndim, 'C');
      }
      case B::NpDiff: {
        arity(1, 2);
        const Type& a = array(0);
        if (a.ndim == 0) no_impl();
        integer(1);
        return Type::array(a.scalar, a.ndim, 'C');
      }
      case B::NpBincount: {
        arity(1, 3);
        const Type& a = array(0);
        if (a.ndim != 1 || !is_integer(a.scalar)) no_impl();
        if (given(1)) {
          const Type& w = array(1);
          if (w.ndim != 1 || is_complex(w.scalar)) no_impl();
        }
        integer(2);
        return Type::array(given(1) ? Scalar::Float64 : Scalar::Int64, 1, 'C');
      }
      case B::NpFlip: case B::NpFliplr: case B::NpFlipud: {
        arity(1, 1);
        const Type& a = array(0);
        if (b.id == B::NpFliplr && a.ndim < 2) error(at(0), "Input must be >= 2-d.");
        if (b.id == B::NpFlipud && a.ndim < 1) error(at(0), "Input must be >= 1-d.");
        Type r = Type::array(a.scalar, a.ndim, 'A');
        r.readonly = a.readonly;
        return r;
      }
      default: return linalg();
    }
  }

  // np.linalg's checks (numba/np/linalg.py _check_linalg_matrix): messages as Numba's.
  const Type& matrix(size_t i, const char* fname, bool la = true) const {
    const std::string p = std::string(la ? "np.linalg." : "np.") + fname;
    if (!given(i) || !args[i].is_array()) error(at(i), p + "() only supported for array types");
    if (args[i].ndim != 2) error(at(i), p + "() only supported on 2-D arrays.");
    if (!is_inexact(args[i].scalar) || args[i].scalar == Scalar::Float16)
      error(at(i), p + "() only supported on float and complex arrays.");
    return args[i];
  }

  Type linalg() {
    using B = Builtin;
    switch (b.id) {
      case B::NpDot: case B::NpVdot: {
        arity(2, 2);
        const std::string nm = b.id == B::NpDot ? "np.dot()" : "np.vdot()";
        for (size_t i = 0; i < 2; ++i)
          if (!args[i].is_array()) no_impl();
        const Type &x = args[0], &y = args[1];
        if (b.id == B::NpVdot && (x.ndim != 1 || y.ndim != 1)) error(e, "np.vdot() only supported on 1-D arrays");
        if (x.scalar != y.scalar) error(e, nm + " arguments must all have the same dtype");
        if (!is_inexact(x.scalar) || x.scalar == Scalar::Float16)
          error(e, nm + " only supported on float and complex arrays");  // Numba: its BLAS kinds
        if (x.ndim < 1 || x.ndim > 2 || y.ndim < 1 || y.ndim > 2) error(e, nm.substr(0, nm.size() - 2) + "(): inputs must have compatible dimensions");
        if (x.ndim == 1 && y.ndim == 1) return Type::scalar_of(x.scalar);
        return Type::array(x.scalar, x.ndim == 2 && y.ndim == 2 ? 2 : 1, 'C');
      }
      case B::NpTrace: {
        arity(1, 1);
        return Type::scalar_of(matrix(0, "trace", false).scalar);
      }
      case B::NpOuter: {
        arity(2, 2);
        const Type& x = array(0);
        const Type& y = array(1);
        if (is_bool(x.scalar) || is_bool(y.scalar)) no_impl();
        return Type::array(arith_result(x.scalar, y.scalar), 2, 'C');
      }
      case B::NpLinalgInv: arity(1, 1); return Type::array(matrix(0, "inv").scalar, 2, 'F');
      case B::NpLinalgCholesky: arity(1, 1); return Type::array(matrix(0, "cholesky").scalar, 2, 'C');
      case B::NpLinalgDet: {  // Numba: sign * exp(logdet) of slogdet's (float64, float64) / (complex128, float64)
        arity(1, 1);
        return Type::scalar_of(is_complex(matrix(0, "det").scalar) ? Scalar::Complex128 : Scalar::Float64);
      }
      case B::NpLinalgSolve: {
        arity(2, 2);
        const Type& a = matrix(0, "solve");
        const Type& y = args[1];
        if (!y.is_array()) error(at(1), "np.linalg.solve() only supported for array types");
        if (y.ndim != 1 && y.ndim != 2) error(at(1), "np.linalg.solve() only supported on 1 and 2-D arrays.");
        if (!is_inexact(y.scalar) || y.scalar == Scalar::Float16)
          error(at(1), "np.linalg.solve() only supported on float and complex arrays.");
        if (y.scalar != a.scalar) error(e, "np.linalg.solve() only supports inputs that have homogeneous dtypes.");
        return Type::array(a.scalar, y.ndim, y.ndim == 1 ? 'C' : 'F');
      }
      case B::NpShuffle: {
        arity(1, 1);
        const Type& a = array(0);
        if (a.readonly) error(at(0), readonly_store_message(a));
        return Type::none();
      }
      case B::NpPermutation: {
        arity(1, 1);
        if (args[0].is_scalar() && is_integer(args[0].scalar)) return Type::array(Scalar::Int64, 1, 'C');
        const Type& a = array(0);
        return Type::array(a.scalar, a.ndim, 'C');
      }
      default: break;
    }
    return type_linalg_call(fn, e, b, args);  // typeinfer_linalg.cpp
  }
};

}  // namespace

Type type_nplib_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args) {
  if (!fn.host_only)
    user_error(fn.mod.source, call.loc, ErrorKind::Unsupported,
               std::string(b.name) + "() is not supported in " + fn.compiled_as + ": it is only supported in CPU code (@jit)");
  return NpLibTyper{fn, call, b, args}.sorting();
}

/// a[i] with an integer array i (result: i's dimensions, then a's after the first) or a[m] with a
/// boolean mask m of a's shape (the selected elements, 1-d) or of its first axis (the selected
/// rows): a new array, as NumPy and Numba give. Unknown where no index is an array.
Type type_fancy_index(FunctionInstance& fn, const ast::Node& e, const Type& base, const std::vector<Type>& it) {
  bool any = false;
  for (const auto& t : it) any = any || t.is_array();
  if (!any) return Type::unknown();
  auto fail = [&](ErrorKind k, const std::string& msg) { user_error(fn.mod.source, e.loc, k, msg); };
  if (!fn.host_only)
    fail(ErrorKind::Unsupported, "indexing an array with an array is only supported in CPU code (@jit)");
  if (it.size() != 1)
    fail(ErrorKind::Unsupported, "an array index mixed with other indices is not supported (index with the array alone, "
                                 "or loop over it)");
  if (base.is_record_array()) fail(ErrorKind::Unsupported, "indexing a record array with an array is not supported");
  const Type& ix = it[0];
  if (ix.is_record_array() || !(is_integer(ix.scalar) || is_bool(ix.scalar)))
    fail(ErrorKind::Typing, "array indices must be integers or booleans, not " + ix.str());
  Type r = Type::array(base.scalar, base.ndim, 'C');
  r.record = base.record;
  if (is_bool(ix.scalar)) {
    if (ix.ndim == base.ndim) r.ndim = 1;
    else if (ix.ndim != 1)
      fail(ErrorKind::Typing, "a boolean index must have the array's dimensions or one, got " + ix.str() + " for " + base.str());
    return r;
  }
  if (ix.ndim + base.ndim - 1 > 8) fail(ErrorKind::Unsupported, "the result would have more than 8 dimensions");
  r.ndim = ix.ndim + base.ndim - 1;
  return r;
}

/// `x @ y` of two arrays: np.dot's typing (Numba's matmul shares it), under the operator's name.
Type type_matmul(FunctionInstance& fn, const ast::Node& at, const Type& x, const Type& y) {
  static const BuiltinRow& row = builtin_row(Builtin::NpDot);
  std::vector<Type> args{x, y};
  if (x.is_array() && y.is_array() && x.scalar != y.scalar)
    user_error(fn.mod.source, at.loc, ErrorKind::Typing, "'@' arguments must all have the same dtype");
  if (!fn.host_only)
    user_error(fn.mod.source, at.loc, ErrorKind::Unsupported, "the @ operator is only supported in CPU code (@jit)");
  return NpLibTyper{fn, at, row, args}.linalg();
}

}  // namespace cujit
