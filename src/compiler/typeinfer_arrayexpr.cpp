// Typing of whole-array expressions in @jit code: operators with an array operand (a + 1,
// a < b, -a, a += b) are NumPy's ufuncs (np.add, np.less, np.negative, np.add(a, b, out=a)), so
// they take the loop NumPy and Numba pick (typeinfer_ufunc.cpp, match_ufunc_loop): int32 + int64
// is int64, float32 + an int literal stays float32, int / int is float64. np.where and np.clip
// are element-wise too. The lowering stage (lower.cpp) fuses every such expression into one loop.
#include <string>

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {

// The ufunc NumPy applies for an operator (ndarray.__add__ is np.add, ...); false for an
// operator arrays do not have here.
bool operator_ufunc(ast::Op op, bool unary, Builtin* b) {
  using O = ast::Op;
  using B = Builtin;
  if (unary) {
    switch (op) {
      case O::USub: *b = B::NpNegative; return true;
      case O::UAdd: *b = B::NpPositive; return true;
      case O::Invert: *b = B::NpInvert; return true;
      default: return false;
    }
  }
  switch (op) {
    case O::Add: *b = B::NpAdd; return true;
    case O::Sub: *b = B::NpSubtract; return true;
    case O::Mult: *b = B::NpMultiply; return true;
    case O::Div: *b = B::NpTrueDivide; return true;
    case O::FloorDiv: *b = B::NpFloorDivide; return true;
    case O::Mod: *b = B::NpRemainder; return true;
    case O::Pow: *b = B::NpPower; return true;
    case O::BitAnd: *b = B::NpBitwiseAnd; return true;
    case O::BitOr: *b = B::NpBitwiseOr; return true;
    case O::BitXor: *b = B::NpBitwiseXor; return true;
    case O::LShift: *b = B::NpLeftShift; return true;
    case O::RShift: *b = B::NpRightShift; return true;
    case O::Lt: *b = B::NpLess; return true;
    case O::LtE: *b = B::NpLessEqual; return true;
    case O::Gt: *b = B::NpGreater; return true;
    case O::GtE: *b = B::NpGreaterEqual; return true;
    case O::Eq: *b = B::NpEqual; return true;
    case O::NotEq: *b = B::NpNotEqual; return true;
    default: return false;
  }
}

// Arrays are made only where the function may allocate: @jit code. Kernels and device functions
// index their arrays instead (numba-cuda has no array expressions in GPU code either).
void need_host(FunctionInstance& fn, const ast::Node& at, const std::string& what) {
  if (fn.host_only) return;
  user_error(fn.mod.source, at.loc, ErrorKind::Unsupported,
             what + " makes a new array, which " + fn.compiled_as +
                 " cannot allocate; index the array element by element (or use a ufunc's out= argument)");
}

}  // namespace

Type type_array_operator(FunctionInstance& fn, const ast::Node& at, ast::Op op, bool unary, const std::vector<Type>& in,
                         bool inplace) {
  std::string shown;
  for (const auto& t : in) shown += (shown.empty() ? "'" : "' and '") + t.str();
  shown += "'";
  const std::string spelled = std::string(ast::op_spelling(op)) + (inplace ? "=" : "");
  if (!fn.host_only)  // GPU code has no array expressions (numba-cuda has none either)
    user_error(fn.mod.source, at.loc, ErrorKind::Unsupported,
               std::string("whole-array arithmetic ('") + ast::op_spelling(op) + "' on " +
                   (in[0].is_array() ? in[0].str() : in.back().str()) + ") is not supported in " + fn.compiled_as +
                   "; index the array element by element");
  Builtin b;
  if (!operator_ufunc(op, unary, &b)) {
    if (op == ast::Op::MatMult)
      user_error(fn.mod.source, at.loc, ErrorKind::Unsupported, "the @ operator is not supported in compiled code");
    user_error(fn.mod.source, at.loc, ErrorKind::Typing,
               std::string("unsupported operand type(s) for ") + spelled + ": " + shown);
  }
  int ndim = 0;
  std::vector<Scalar> scalars;
  for (const auto& t : in) {
    if (!t.is_array() && !t.is_scalar())
      user_error(fn.mod.source, at.loc, ErrorKind::Typing,
                 std::string("unsupported operand type(s) for ") + spelled + ": " + shown);
    if (t.is_array()) ndim = std::max(ndim, t.ndim);
    scalars.push_back(t.scalar);
  }
  if (inplace) {
    if (!in[0].is_array())
      user_error(fn.mod.source, at.loc, ErrorKind::Unsupported,
                 "augmented assignment of an array to a number (" + spelled + " of a " + in[1].str() +
                     ") is not supported; write x = x " + ast::op_spelling(op) + " array");
    if (in[0].readonly) user_error(fn.mod.source, at.loc, ErrorKind::Typing, readonly_store_message(in[0]));
    // NumPy never broadcasts the output: an operand of more dimensions cannot fit it.
    if (ndim > in[0].ndim)
      user_error(fn.mod.source, at.loc, ErrorKind::Typing,
                 "non-broadcastable output operand: " + spelled + " of a " + in[1].str() + " into a " + in[0].str());
  }
  std::vector<Scalar> outs;
  if (inplace) outs.push_back(in[0].scalar);
  const UfuncLoop* loop = match_ufunc_loop(ufunc_loops(b), scalars, outs);
  if (!loop) {
    if (inplace && match_ufunc_loop(ufunc_loops(b), scalars, {}))  // NumPy's UFuncTypeError
      user_error(fn.mod.source, at.loc, ErrorKind::Typing,
                 std::string("Cannot cast ufunc '") + (builtin_row(b).name + 6) + "' output from " +
                     scalar_name(match_ufunc_loop(ufunc_loops(b), scalars, {})->out[0]) + " to " +
                     scalar_name(in[0].scalar) + " with casting rule 'same_kind' (" + spelled + " on " + in[0].str() + ")");
    user_error(fn.mod.source, at.loc, ErrorKind::Typing,
               std::string("unsupported operand type(s) for ") + spelled + ": " + shown);
  }
  fn.ufunc_loops[&at] = *loop;
  if (inplace) return in[0];
  if (ndim == 0) return Type::scalar_of(loop->out[0]);  // 0-d arrays only: a number, as Numba gives
  need_host(fn, at, std::string("the operator ") + spelled + " on " + (in[0].is_array() ? in[0].str() : in.back().str()));
  return Type::array(loop->out[0], ndim, 'C');
}

Type type_elementwise_call(FunctionInstance& fn, ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  auto fail = [&](const ast::Node& at, ErrorKind k, const std::string& msg) { user_error(fn.mod.source, at.loc, k, msg); };
  const std::string name = b.name;
  if (!e.keywords.empty())
    fail(e, ErrorKind::Unsupported, name + "() takes its arguments by position here (got the keyword '" + e.keywords[0].name + "')");
  if (b.id == Builtin::NpWhere && args.size() == 1) return type_nonzero(fn, e, args);  // typeinfer_numpy.cpp
  if (args.size() != 3)
    fail(e, ErrorKind::Typing, name + "() takes 3 arguments, got " + std::to_string(args.size()));
  int ndim = 0;
  bool any_array = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const Type& t = args[i];
    const bool none_ok = b.id == Builtin::NpClip && i > 0 && t.tag == Type::Tag::None;  // np.clip(a, None, hi)
    if (none_ok) continue;
    if (!t.is_array() && !t.is_scalar()) fail(*e.args()[i], ErrorKind::Typing, name + "() needs numbers or arrays, got " + t.str());
    if (is_time(t.scalar) || t.scalar == Scalar::Float16)
      fail(*e.args()[i], ErrorKind::Unsupported, name + "() of " + t.str() + " is not supported yet");
    if (t.is_array()) ndim = std::max(ndim, t.ndim), any_array = true;
  }
  Scalar r;
  if (b.id == Builtin::NpWhere) {
    if (!any_array)  // Numba: np.where of three numbers is a 0-d array; not supported here yet
      fail(e, ErrorKind::Unsupported, "np.where() of three numbers is not supported; use `x if cond else y`");
    // NumPy's result_type of the two choices (a Python number counting as its Numba type).
    r = promote(args[1].scalar, args[2].scalar);
  } else {
    if (args[1].tag == Type::Tag::None && args[2].tag == Type::Tag::None)
      fail(e, ErrorKind::Typing, "np.clip(): array_min and array_max cannot both be None");
    if (!args[0].is_array())
      fail(*e.args()[0], ErrorKind::Unsupported, "np.clip() of a number is not supported; use min() and max()");
    if (is_complex(args[0].scalar)) fail(*e.args()[0], ErrorKind::Unsupported, "np.clip() of a complex array is not supported");
    // Numba's np.clip keeps the array's dtype when the bounds are numbers, and takes NumPy's
    // promotion when a bound is an array.
    r = args[0].scalar;
    for (size_t i = 1; i < 3; ++i)
      if (args[i].is_array()) r = promote(r, args[i].scalar);
  }
  need_host(fn, e, name + "()");
  return Type::array(r, ndim, 'C');
}

}  // namespace cujit
