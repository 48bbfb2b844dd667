// Typing of the NumPy functions and array methods of @jit code that builtins.def lists under
// Rule::NpFunc (cumulative sums, order statistics, shape functions, creation), and of the
// reductions np.sum/argmin/argmax with an axis= (Rule::ArrayReduce with more than one argument).
// Results, dtypes and refusals follow Numba 0.68; the code is codegen_numpy.cpp's, the run-time
// parts prelude/host_numpy.h's. CPU code only: GPU code has no heap to make arrays in.
#include <functional>
#include <string>

#include "compiler/typeinfer_builtin_typer.h"
#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {
namespace detail {

namespace {
bool given(const std::vector<Type>& args, size_t i) { return i < args.size() && args[i].tag != Type::Tag::None; }
bool int_scalar(const Type& t) { return t.is_scalar() && is_integral(t.scalar); }
// Numba's accumulator type of sum/cumsum/prod: integers and bool widen to int64 (uint64).
Scalar widened(Scalar d) {
  const char k = scalar_kind(d);
  if (k == 'f' || k == 'c') return d;
  return k == 'u' ? Scalar::UInt64 : Scalar::Int64;
}
}  // namespace

// A tuple of arrays for concatenate/stack: their common dtype (NumPy's promotion) and ndim.
static Type arrays_of(BuiltinTyper& t, const ast::Node& at, const BuiltinRow& b, const Type& tup,
                      const std::function<void(const ast::Node&, const std::string&)>& fail) {
  (void)t;
  if (!tup.is_tuple() || tup.elems.empty())
    fail(at, std::string(b.name) + "() needs a tuple of arrays, got " + tup.str());
  Type r = Type::unknown();
  for (const auto& x : tup.elems) {
    if (!x.is_array()) fail(at, std::string(b.name) + "() needs a tuple of arrays, got " + tup.str());
    if (!r.known()) { r = Type::array(x.scalar, x.ndim, 'C'); continue; }
    if (x.ndim != r.ndim) fail(at, std::string(b.name) + "(): all the input arrays must have same number of dimensions");
    r.scalar = promote(r.scalar, x.scalar);
  }
  return r;
}

Type BuiltinTyper::numpy_call(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  host_only(e, b, kArraysOnGpu);
  using B = Builtin;
  const std::string name = b.name;
  auto need_array = [&](size_t i) -> const Type& {
    if (i >= args.size() || !args[i].is_array()) error(i < e.args().size() ? *e.args()[i] : e, name + "() needs an array");
    if (args[i].record) unsupported(*e.args()[i], name + "() of a structured array is not supported");
    return args[i];
  };
  auto need_int = [&](size_t i) {
    if (given(args, i) && !int_scalar(args[i])) error(*e.args()[i], name + "() needs an integer, got " + args[i].str());
  };
  auto real_array = [&](size_t i) -> const Type& {
    const Type& a = need_array(i);
    const char k = scalar_kind(a.scalar);
    if (k == 'c' || k == 'M' || k == 'm') unsupported(*e.args()[i], name + "() of " + a.str() + " is not supported");
    return a;
  };
  auto fail = [&](const ast::Node& at, const std::string& m) { error(at, m); };
  switch (b.id) {
    case B::NpCumsum: case B::NpCumprod: case B::NpNancumsum: case B::NpNancumprod: {
      arity(e, b, args, 1, 2);
      const Type& a = real_array(0);
      const bool nan = b.id == B::NpNancumsum || b.id == B::NpNancumprod;
      if (given(args, 1)) {
        // Numba has axis= for cumsum only.
        if (b.id != B::NpCumsum) unsupported(*e.args()[1], name + "() with an axis is not supported (as in Numba)");
        need_int(1);
        return Type::array(widened(a.scalar), a.ndim, 'C');
      }
      return Type::array(nan && !is_float(a.scalar) ? widened(a.scalar) : widened(a.scalar), 1, 'C');
    }
    case B::NpMedian: case B::NpNanmedian:
      arity(e, b, args, 1, 1); real_array(0);
      return Type::scalar_of(Scalar::Float64);
    case B::NpPercentile: case B::NpNanpercentile: case B::NpQuantile: case B::NpNanquantile: {
      arity(e, b, args, 2, 2); real_array(0);
      const Type& q = args[1];
      if (q.is_scalar() && !is_complex(q.scalar)) return Type::scalar_of(Scalar::Float64);
      if (q.is_array() && !is_complex(q.scalar) && !q.record) return Type::array(Scalar::Float64, q.ndim, 'C');
      error(*e.args()[1], name + "() needs a number or an array of numbers as q, got " + q.str());
    }
    case B::NpNanvar: case B::NpNanstd:
      arity(e, b, args, 1, 1); real_array(0);
      return Type::scalar_of(Scalar::Float64);
    case B::NpPtp: {  // Numba's result types: int64 for signed integers, float64 otherwise
      arity(e, b, args, 1, 1);
      const Scalar d = real_array(0).scalar;
      if (d == Scalar::Bool) error(*e.args()[0], "numpy.ptp() of a boolean array is not supported (as in Numba)");
      return Type::scalar_of(scalar_kind(d) == 'i' ? Scalar::Int64 : Scalar::Float64);
    }
    case B::NpNanargmin: case B::NpNanargmax:
      arity(e, b, args, 1, 1); real_array(0);
      return Type::scalar_of(Scalar::Int64);
    case B::NpAverage: {
      arity(e, b, args, 1, 3); real_array(0);
      if (given(args, 1)) unsupported(*e.args()[1], "numpy.average() with an axis is not supported (as in Numba)");
      if (given(args, 2)) {
        const Type& w = real_array(2);
        if (w.ndim != args[0].ndim)
          error(*e.args()[2], "numpy.average(): the weights must have the array's shape, got " + w.str());
      }
      return Type::scalar_of(args[0].scalar == Scalar::Float32 && !given(args, 2) ? Scalar::Float32 : Scalar::Float64);
    }
    case B::NpReshape: {
      if (args.size() < 2) error(e, name + "() needs an array and a shape");
      const Type& a = need_array(0);
      int ndim;
      if (args.size() == 2) {
        ndim = shape_ndim(*e.args()[1], b, args[1]);
      } else {
        for (size_t i = 1; i < args.size(); ++i) {
          if (!int_scalar(args[i])) error(*e.args()[i], name + "() needs integer sizes, got " + args[i].str());
        }
        ndim = (int)args.size() - 1;
      }
      if (ndim == 0) unsupported(*e.args()[1], name + "() to a 0-d array is not supported");
      return Type::array(a.scalar, ndim, a.layout == 'C' ? 'C' : 'A');
    }
    case B::NpRavel: {
      arity(e, b, args, 1, 1);
      const Type& a = need_array(0);
      return Type::array(a.scalar, 1, a.layout == 'C' ? 'C' : 'A');
    }
    case B::ArrFlatten:
      arity(e, b, args, 1, 1);
      return Type::array(need_array(0).scalar, 1, 'C');
    case B::NpTranspose: {
      const Type& a = need_array(0);
      if (args.size() > 2 && (int)args.size() - 1 != a.ndim) error(e, name + "(): axes don't match array");
      if (args.size() == 2 && !args[1].is_tuple() && args[1].tag != Type::Tag::None && !(a.ndim == 1 && int_scalar(args[1])))
        error(*e.args()[1], name + "() needs a tuple of axes, got " + args[1].str());
      if (args.size() == 2 && args[1].is_tuple()) {
        if ((int)args[1].elems.size() != a.ndim) error(*e.args()[1], name + "(): axes don't match array");
        for (const auto& x : args[1].elems)
          if (!int_scalar(x)) error(*e.args()[1], name + "() needs integer axes, got " + args[1].str());
      }
      for (size_t i = 2; i < args.size(); ++i) need_int(i);
      const bool reversed = args.size() == 1 || args[1].tag == Type::Tag::None;
      char layout = 'A';
      if (a.ndim <= 1) layout = a.layout;
      else if (reversed) layout = a.layout == 'C' ? 'F' : a.layout == 'F' ? 'C' : 'A';
      return Type::array(a.scalar, a.ndim, layout);
    }
    case B::ArrAstype: {
      arity(e, b, args, 2, 2);
      const Type& a = need_array(0);
      return Type::array(dtype_arg(*e.args()[1], b, args[1]), a.ndim, 'C');
    }
    case B::ArrFill: {
      arity(e, b, args, 2, 2);
      need_array(0);
      if (args[0].readonly) error(*e.args()[0], "fill() of a read-only array");
      if (!args[1].is_scalar()) error(*e.args()[1], "fill() needs a number, got " + args[1].str());
      return Type::none();
    }
    case B::ArrItem:
      if (args.size() > 1) unsupported(*e.args()[1], "item() with arguments is not supported (as in Numba)");
      return Type::scalar_of(need_array(0).scalar);
    case B::NpArray: case B::NpAsarray: {
      // Of an array (np.array copies it; np.asarray returns it where the dtype is its own), of a
      // list of numbers or of lists of numbers, of a tuple of numbers.
      arity(e, b, args, 1, 2);
      const Type& x = args[0];
      auto number = [&](const Type& t) { return t.is_scalar() && scalar_kind(t.scalar) != 'M' && scalar_kind(t.scalar) != 'm'; };
      Scalar item = Scalar::Float64;
      int ndim = 1;
      if (x.is_array() && !x.record) {
        item = x.scalar;
        ndim = x.ndim;
      } else if (x.is_list() && number(x.elems[0])) {
        item = x.elems[0].scalar;
      } else if (x.is_list() && x.elems[0].is_list() && number(x.elems[0].elems[0])) {
        item = x.elems[0].elems[0].scalar;
        ndim = 2;
      } else if (x.is_tuple() && !x.elems.empty()) {
        item = x.elems[0].is_scalar() ? x.elems[0].scalar : item;
        for (const auto& t : x.elems) {
          if (!number(t)) unsupported(*e.args()[0], name + "() of " + x.str() + " is not supported (a tuple of numbers is)");
          item = promote(item, t.scalar);
        }
      } else {
        unsupported(*e.args()[0], name + "() of " + x.str() + " is not supported (an array, a list or a tuple of numbers is)");
      }
      const Scalar d = given(args, 1) ? dtype_arg(*e.args()[1], b, args[1]) : item;
      if (b.id == B::NpAsarray && x.is_array() && d == x.scalar) return x;
      return Type::array(d, ndim, 'C');
    }
    case B::NpLinspace: {
      arity(e, b, args, 2, 3);
      for (size_t i = 0; i < 2; ++i)
        if (!args[i].is_scalar() || is_complex(args[i].scalar))
          unsupported(*e.args()[i], name + "() needs real numbers, got " + args[i].str());
      need_int(2);
      return Type::array(Scalar::Float64, 1, 'C');
    }
    case B::NpEye: case B::NpTri: {
      arity(e, b, args, 1, 4);
      need_int(0); need_int(1); need_int(2);
      if (!given(args, 0)) error(e, name + "() needs a number of rows");
      return Type::array(given(args, 3) ? dtype_arg(*e.args()[3], b, args[3]) : Scalar::Float64, 2, 'C');
    }
    case B::NpIdentity:
      arity(e, b, args, 1, 2); need_int(0);
      return Type::array(given(args, 1) ? dtype_arg(*e.args()[1], b, args[1]) : Scalar::Float64, 2, 'C');
    case B::NpTril: case B::NpTriu: {
      arity(e, b, args, 1, 2); need_int(1);
      const Type& a = need_array(0);
      if (a.ndim != 2) unsupported(*e.args()[0], name + "() of a " + std::to_string(a.ndim) + "-d array is not supported (2-d only)");
      return Type::array(a.scalar, 2, 'C');
    }
    case B::NpDiag: {
      arity(e, b, args, 1, 2); need_int(1);
      const Type& a = need_array(0);
      if (a.ndim != 1 && a.ndim != 2) error(*e.args()[0], "Input must be 1- or 2-d.");
      return Type::array(a.scalar, a.ndim == 1 ? 2 : 1, 'C');
    }
    case B::NpConcatenate: case B::NpStack: {
      arity(e, b, args, 1, 2); need_int(1);
      if (given(args, 1) == false && e.args().size() > 1) unsupported(*e.args()[1], name + "() with axis=None is not supported (as in Numba)");
      Type r = arrays_of(*this, *e.args()[0], b, args[0], fail);
      if (b.id == B::NpStack) r.ndim += 1;
      return r;
    }
    case B::NpHstack: case B::NpVstack: case B::NpColumnStack: case B::NpDstack: {
      arity(e, b, args, 1, 1);
      Type r = arrays_of(*this, *e.args()[0], b, args[0], fail);
      if (r.ndim > 2 || (b.id == B::NpColumnStack && r.ndim != 1 && r.ndim != 2))
        unsupported(*e.args()[0], name + "() of " + std::to_string(r.ndim) + "-d arrays is not supported");
      if (b.id == B::NpVstack && r.ndim == 1) r.ndim = 2;
      if (b.id == B::NpColumnStack) r.ndim = 2;
      if (b.id == B::NpDstack) {
        if (r.ndim != 2) unsupported(*e.args()[0], name + "() of 1-d arrays is not supported");
        r.ndim = 3;
      }
      return r;
    }
    default: break;
  }
  throw InternalError(std::string("no typing rule for ") + b.name);
}

// np.sum(a, axis[, dtype]), np.argmin/argmax(a, axis): Numba's only reductions with an axis.
// An int axis of an n-d array gives an (n-1)-d array; of a 1-d array, the number.
Type BuiltinTyper::reduce_axis(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  using B = Builtin;
  const std::string name = b.name;
  const bool sum = b.id == B::NpSum;
  if (!(sum || b.id == B::NpArgmin || b.id == B::NpArgmax))
    unsupported(*e.args()[1], name + "() takes one array (axis=, dtype= and out= are not supported, as in Numba)");
  arity(e, b, args, 1, sum ? 3 : 2);
  if (!args[0].is_array()) error(*e.args()[0], name + "() needs an array, got " + args[0].str());
  const Type& a = args[0];
  const char k = scalar_kind(a.scalar);
  if (k == 'c' || k == 'M' || k == 'm' || a.record) unsupported(*e.args()[0], name + "() of " + a.str() + " is not supported");
  if (given(args, 1)) {
    host_only(e, b, "GPU code reduces along an axis with loops");
    if (!int_scalar(args[1])) error(*e.args()[1], name + "() needs an integer axis, got " + args[1].str());
  }
  Scalar r = sum ? widened(a.scalar) : Scalar::Int64;
  if (sum && given(args, 2)) {
    host_only(e, b, "GPU code sums in the array's type");
    r = dtype_arg(*e.args()[2], b, args[2]);
  }
  if (!given(args, 1) || a.ndim == 1) return Type::scalar_of(r);
  return Type::array(r, a.ndim - 1, 'C');
}

}  // namespace detail
}  // namespace cujit
