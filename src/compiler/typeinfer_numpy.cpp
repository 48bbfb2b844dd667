// Typing of the NumPy functions and array methods of @jit code: the Rule::NpFunc rows of
// builtins.def (cumulative sums, order statistics, shape functions, creation, sorting and
// searching, np.dot/`@` and np.linalg, np.random.shuffle/permutation), each typed by its id; the
// reductions np.sum/argmin/argmax with an axis= (Rule::ArrayReduce with more than one argument);
// indexing with an array. Results, dtypes and refusals follow Numba 0.68 (numba/np/arraymath.py,
// numba/np/linalg.py). The code is codegen_numpy.cpp's; the run-time parts are
// prelude/host_numpy.h's (cj::npa_*), host_nplib.h's and host_linalg.h's. CPU code only: GPU code
// has no heap to make arrays in.
#include <algorithm>
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

// One call's typing: its arguments' checks, then the result by the builtin's id.
struct NpTyper : CallTyper {
  BuiltinTyper& t;
  void arity(size_t lo, size_t hi) const { t.arity(e, b, args, lo, hi); }
  void need_int(size_t i) const {
    if (given(i) && !int_scalar(args[i])) error(at(i), name + "() needs an integer, got " + args[i].str());
  }
  const Type& need_array(size_t i) const {
    if (i >= args.size() || !args[i].is_array()) error(at(i), name + "() needs an array");
    if (args[i].record) unsupported(at(i), name + "() of a structured array is not supported");
    return args[i];
  }
  const Type& real_array(size_t i) const {
    const Type& a = need_array(i);
    const char k = scalar_kind(a.scalar);
    if (k == 'c' || k == 'M' || k == 'm') unsupported(at(i), name + "() of " + a.str() + " is not supported");
    return a;
  }
  // A number array: bool, integer, float or complex (Numba's cumulative sums take complex too).
  const Type& number_array(size_t i) const {
    const Type& a = need_array(i);
    if (is_time(a.scalar)) unsupported(at(i), name + "() of " + a.str() + " is not supported");
    return a;
  }
  // Numba's "No implementation of function ... found for signature" for these arguments.
  [[noreturn]] void no_impl() const {
    std::string sig;
    for (size_t i = 0; i < args.size(); ++i) sig += (i ? ", " : "") + args[i].str();
    error(e, "No implementation of function " + name + " found for signature: " + name.substr(name.rfind('.') + 1) +
                 "(" + sig + ")");
  }
  // An array argument where Numba has no implementation for anything else (nor float16,
  // datetime or record arrays).
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
      error(n, name + "() needs a string literal here, got " + args[i].str());
    return n.cval.s;
  }
  // A tuple of arrays for concatenate/stack: their common dtype (NumPy's promotion) and ndim.
  Type arrays_of(const ast::Node& n, const Type& tup) const {
    if (!tup.is_tuple() || tup.elems.empty()) error(n, name + "() needs a tuple of arrays, got " + tup.str());
    Type r = Type::unknown();
    for (const auto& x : tup.elems) {
      if (!x.is_array()) error(n, name + "() needs a tuple of arrays, got " + tup.str());
      if (!r.known()) { r = Type::array(x.scalar, x.ndim, 'C'); continue; }
      if (x.ndim != r.ndim) error(n, name + "(): all the input arrays must have same number of dimensions");
      r.scalar = promote(r.scalar, x.scalar);
    }
    return r;
  }

  // Statistics, cumulative sums, shapes and views, creation (prelude/host_numpy.h).
  Type call() {
    using B = Builtin;
    switch (b.id) {
      case B::NpCumsum: case B::NpCumprod: case B::NpNancumsum: case B::NpNancumprod: {
        arity(1, 2);
        const Type& a = number_array(0);
        const bool nan = b.id == B::NpNancumsum || b.id == B::NpNancumprod;
        if (given(1)) {
          // Numba has axis= for cumsum only.
          if (b.id != B::NpCumsum) unsupported(*e.args()[1], name + "() with an axis is not supported (as in Numba)");
          need_int(1);
          return Type::array(widened(a.scalar), a.ndim, 'C');
        }
        return Type::array(nan && !is_float(a.scalar) ? widened(a.scalar) : widened(a.scalar), 1, 'C');
      }
      case B::NpMedian: case B::NpNanmedian:
        arity(1, 1); real_array(0);
        return Type::scalar_of(Scalar::Float64);
      case B::NpPercentile: case B::NpNanpercentile: case B::NpQuantile: case B::NpNanquantile: {
        arity(2, 2); real_array(0);
        const Type& q = args[1];
        if (q.is_scalar() && !is_complex(q.scalar)) return Type::scalar_of(Scalar::Float64);
        if (q.is_array() && !is_complex(q.scalar) && !q.record) return Type::array(Scalar::Float64, q.ndim, 'C');
        error(*e.args()[1], name + "() needs a number or an array of numbers as q, got " + q.str());
      }
      case B::NpNanvar: case B::NpNanstd:
        arity(1, 1); real_array(0);
        return Type::scalar_of(Scalar::Float64);
      case B::NpPtp: {  // Numba's result types: int64 for signed integers, float64 otherwise
        arity(1, 1);
        const Scalar d = real_array(0).scalar;
        if (d == Scalar::Bool) error(*e.args()[0], "numpy.ptp() of a boolean array is not supported (as in Numba)");
        return Type::scalar_of(scalar_kind(d) == 'i' ? Scalar::Int64 : Scalar::Float64);
      }
      case B::NpNanargmin: case B::NpNanargmax:
        arity(1, 1); real_array(0);
        return Type::scalar_of(Scalar::Int64);
      case B::NpAverage: {
        arity(1, 3); real_array(0);
        if (given(1)) unsupported(*e.args()[1], "numpy.average() with an axis is not supported (as in Numba)");
        if (given(2)) {
          const Type& w = real_array(2);
          if (w.ndim != args[0].ndim)
            error(*e.args()[2], "numpy.average(): the weights must have the array's shape, got " + w.str());
        }
        return Type::scalar_of(args[0].scalar == Scalar::Float32 && !given(2) ? Scalar::Float32 : Scalar::Float64);
      }
      case B::NpReshape: {
        if (args.size() < 2) error(e, name + "() needs an array and a shape");
        const Type& a = need_array(0);
        int ndim;
        if (args.size() == 2) {
          ndim = t.shape_ndim(*e.args()[1], b, args[1]);
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
        arity(1, 1);
        const Type& a = need_array(0);
        return Type::array(a.scalar, 1, a.layout == 'C' ? 'C' : 'A');
      }
      case B::ArrFlatten:
        arity(1, 1);
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
        arity(2, 2);
        const Type& a = need_array(0);
        const Scalar to = t.dtype_arg(*e.args()[1], b, args[1]);
        if (is_complex(a.scalar) && !is_complex(to))  // Numba: no conversion drops the imaginary part
          error(*e.args()[1], std::string("astype(") + scalar_name(to) + ") not supported on " + a.str() +
                                  ": cannot convert from " + scalar_name(a.scalar) + " to " + scalar_name(to));
        return Type::array(to, a.ndim, 'C');
      }
      case B::ArrFill: {
        arity(2, 2);
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
        arity(1, 2);
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
        const Scalar d = given(1) ? t.dtype_arg(*e.args()[1], b, args[1]) : item;
        if (b.id == B::NpAsarray && x.is_array() && d == x.scalar) return x;
        return Type::array(d, ndim, 'C');
      }
      case B::NpLinspace: {
        arity(2, 3);
        bool complex_ends = false;
        for (size_t i = 0; i < 2; ++i) {
          if (!args[i].is_scalar() || !(is_number(args[i].scalar) || is_bool(args[i].scalar)))
            unsupported(*e.args()[i], name + "() needs numbers, got " + args[i].str());
          complex_ends = complex_ends || is_complex(args[i].scalar);
        }
        need_int(2);
        return Type::array(complex_ends ? Scalar::Complex128 : Scalar::Float64, 1, 'C');  // Numba's
      }
      case B::NpEye: case B::NpTri: {
        arity(1, 4);
        need_int(0); need_int(1); need_int(2);
        if (!given(0)) error(e, name + "() needs a number of rows");
        return Type::array(given(3) ? t.dtype_arg(*e.args()[3], b, args[3]) : Scalar::Float64, 2, 'C');
      }
      case B::NpIdentity:
        arity(1, 2); need_int(0);
        return Type::array(given(1) ? t.dtype_arg(*e.args()[1], b, args[1]) : Scalar::Float64, 2, 'C');
      case B::NpTril: case B::NpTriu: {
        arity(1, 2); need_int(1);
        const Type& a = need_array(0);
        // Numba's: a 1-d array is repeated into a square matrix; more dimensions mask each matrix.
        if (a.ndim == 0) unsupported(*e.args()[0], name + "() of a 0-d array is not supported");
        return Type::array(a.scalar, a.ndim < 2 ? 2 : a.ndim, 'C');
      }
      case B::NpDiag: {
        arity(1, 2); need_int(1);
        const Type& a = need_array(0);
        if (a.ndim != 1 && a.ndim != 2) error(*e.args()[0], "Input must be 1- or 2-d.");
        return Type::array(a.scalar, a.ndim == 1 ? 2 : 1, 'C');
      }
      case B::NpConcatenate: case B::NpStack: {
        arity(1, 2); need_int(1);
        if (given(1) == false && e.args().size() > 1) unsupported(*e.args()[1], name + "() with axis=None is not supported (as in Numba)");
        Type r = arrays_of(*e.args()[0], args[0]);
        if (b.id == B::NpStack) r.ndim += 1;
        return r;
      }
      case B::NpHstack: case B::NpVstack: case B::NpColumnStack: case B::NpDstack: {
        arity(1, 1);
        Type r = arrays_of(*e.args()[0], args[0]);
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
      default: return searching();
    }
    throw InternalError(std::string("no typing rule for ") + b.name);
  }

  // Where elements are nonzero (also np.where(cond), typed by type_nonzero below): a tuple of one
  // int64 array per dimension.
  Type nonzero() {
    arity(1, 1);
    const Type& a = array(0);
    if (a.ndim == 0) no_impl();  // Numba: arrays of 1 or more dimensions
    return Type::tuple(std::vector<Type>(a.ndim, Type::array(Scalar::Int64, 1, 'C')));
  }
  // A real number or a real array (bool, integer or float), as Numba's np.interp/np.isclose take.
  bool real(size_t i) const {
    if (!given(i)) return false;
    const Type& x = args[i];
    if (x.is_array() && (x.is_record_array() || x.scalar == Scalar::Float16)) return false;
    return (x.is_scalar() || x.is_array()) && (is_integral(x.scalar) || is_float(x.scalar));
  }

  // Shifting, comparing and binning (prelude/host_nplib.h), Numba's rules (numba/np/arraymath.py).
  Type searching() {
    using B = Builtin;
    switch (b.id) {
      case B::NpNonzero: return nonzero();
      case B::NpArgwhere: {
        arity(1, 1);
        if (array(0).ndim == 0) no_impl();
        return Type::array(Scalar::Int64, 2, 'C');
      }
      case B::NpRoll: {  // np.roll(a, shift): Numba has no axis=
        arity(2, 2);
        const Type& a = array(0);
        if (!int_scalar(args[1])) no_impl();
        return Type::array(a.scalar, a.ndim, 'C');
      }
      case B::NpCross: {
        arity(2, 2);
        const Type &x = array(0), &y = array(1);
        if (x.ndim == 0 || y.ndim == 0) no_impl();
        if (is_bool(x.scalar) || is_bool(y.scalar) || is_time(x.scalar) || is_time(y.scalar))
          unsupported(e, name + "() of boolean arrays is not supported");
        return Type::array(promote(x.scalar, y.scalar), std::max(x.ndim, y.ndim), 'C');
      }
      case B::NpInterp: {
        arity(3, 3);
        const Type &xp = array(1), &fp = array(2);
        if (xp.ndim != 1 || fp.ndim != 1 || !real(0) || !real(1) || (!is_number(fp.scalar) && !is_bool(fp.scalar))) no_impl();
        const Scalar r = is_complex(fp.scalar) ? Scalar::Complex128 : Scalar::Float64;
        if (args[0].is_scalar()) return Type::scalar_of(r);
        if (args[0].ndim == 0) unsupported(at(0), name + "() of a 0-d array is not supported");
        return Type::array(r, args[0].ndim, 'C');
      }
      case B::NpIsclose: case B::NpAllclose: {  // (a, b, rtol=1e-05, atol=1e-08, equal_nan=False)
        arity(2, 5);
        if (!real(0) || !real(1)) no_impl();
        for (size_t i = 2; i < 4; ++i)
          if (given(i) && !(args[i].is_scalar() && (is_integral(args[i].scalar) || is_float(args[i].scalar)))) no_impl();
        if (given(4) && !int_scalar(args[4])) no_impl();
        const int nd = std::max(args[0].is_array() ? args[0].ndim : 0, args[1].is_array() ? args[1].ndim : 0);
        if (b.id == B::NpAllclose || (args[0].is_scalar() && args[1].is_scalar())) return Type::scalar_of(Scalar::Bool);
        if (nd == 0) unsupported(e, name + "() of 0-d arrays is not supported");
        return Type::array(Scalar::Bool, nd, 'C');
      }
      case B::NpHistogram: {  // (a, bins=10, range=None) -> (counts, edges)
        arity(1, 3);
        const Type& a = array(0);
        if (is_complex(a.scalar)) no_impl();
        Type edges = Type::array(Scalar::Float64, 1, 'C');
        if (given(1) && args[1].is_array()) {
          edges = args[1];
          if (edges.ndim != 1 || edges.is_record_array() || is_complex(edges.scalar) || is_time(edges.scalar)) no_impl();
        } else if (given(1) && !int_scalar(args[1])) {
          no_impl();
        }
        if (given(2)) {
          const Type& r = args[2];
          if (!r.is_tuple() || r.elems.size() != 2) no_impl();
          for (const auto& x : r.elems)
            if (!x.is_scalar() || is_complex(x.scalar) || is_time(x.scalar)) no_impl();
        }
        return Type::tuple({Type::array(Scalar::Int64, 1, 'C'), edges});
      }
      default: return sorting();
    }
  }

  // Sorting, searching and counting (prelude/host_nplib.h).
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
        need_int(1);
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
        need_int(2);
        return Type::array(given(1) ? Scalar::Float64 : Scalar::Int64, 1, 'C');
      }
      case B::NpRound: case B::NpAround: {  // Numba's impl_np_round: a number's result is float64/int64/complex128
        arity(1, 3);
        need_int(1);
        const Type& x = args[0];
        if (given(2) && !args[2].is_array()) error(at(2), "The argument \"out\" must be an array if it is provided");
        if (!x.is_array() && !x.is_scalar()) error(at(0), "The argument \"a\" must be array-like");
        if (is_bool(x.scalar) || is_time(x.scalar) || x.scalar == Scalar::Float16 || x.record) no_impl();
        if (x.is_scalar()) {
          if (given(2)) unsupported(at(2), name + "() of a number with out= is not supported; round into the array's element");
          return Type::scalar_of(is_complex(x.scalar) ? Scalar::Complex128 : is_integral(x.scalar) ? Scalar::Int64 : Scalar::Float64);
        }
        if (!given(2)) return Type::array(x.scalar, x.ndim, 'C');
        const Type& o = array(2);
        if (o.readonly) error(at(2), readonly_store_message(o));
        if (is_complex(x.scalar) && !is_complex(o.scalar)) no_impl();  // Numba stores no complex into a real array
        return o;
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
      case B::NpTrace: {  // Numba: summed from the int 0, so float64 (complex128); offset= too
        arity(1, 2);
        const Scalar s = matrix(0, "trace", false).scalar;
        if (given(1) && !(args[1].is_scalar() && is_integer(args[1].scalar)))
          error(at(1), "integer argument expected, got " + args[1].str());
        return Type::scalar_of(is_complex(s) ? Scalar::Complex128 : Scalar::Float64);
      }
      case B::NpOuter: {
        arity(2, 2);
        const Type& x = array(0);
        const Type& y = array(1);
        // NumPy's multiply loops: a bool operand takes the other's type (bool with bool: logical and).
        if (is_bool(x.scalar) || is_bool(y.scalar)) return Type::array(promote(x.scalar, y.scalar), 2, 'C');
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
    return type_npshape_call(fn, e, b, args);  // expand_dims, repeat, ..., then np.linalg (typeinfer_npshape.cpp)
  }
};

}  // namespace

Type BuiltinTyper::numpy_call(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  host_only(e, b, kArraysOnGpu);
  return NpTyper{{fn_, e, b, args}, *this}.call();
}

// np.sum(a, axis[, dtype]), np.argmin/argmax(a, axis), np.count_nonzero(a, axis): Numba's only
// reductions with an axis.
// An int axis of an n-d array gives an (n-1)-d array; of a 1-d array, the number.
Type BuiltinTyper::reduce_axis(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  using B = Builtin;
  const std::string name = b.name;
  const bool sum = b.id == B::NpSum, count = b.id == B::NpCountNonzero;
  if (!(sum || count || b.id == B::NpArgmin || b.id == B::NpArgmax))
    unsupported(*e.args()[1], name + "() takes one array (axis=, dtype= and out= are not supported, as in Numba)");
  arity(e, b, args, 1, sum ? 3 : 2);
  if (!args[0].is_array()) error(*e.args()[0], name + "() needs an array, got " + args[0].str());
  const Type& a = args[0];
  const char k = scalar_kind(a.scalar);
  // Numba sums complex arrays along an axis and counts their nonzeros without one (argmin/argmax
  // have no complex order; count_nonzero along an axis casts to bool, which Numba refuses).
  if ((k == 'c' && !sum && !(count && !given(args, 1))) || k == 'M' || k == 'm' || a.record)
    unsupported(*e.args()[0], name + "() of " + a.str() + " is not supported");
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
  detail::BuiltinTyper t(fn);
  return detail::NpTyper{{fn, at, row, args}, t}.linalg();
}

/// np.where(cond) with one argument: np.nonzero's typing (a tuple of index arrays).
Type type_nonzero(FunctionInstance& fn, const ast::Node& call, const std::vector<Type>& args) {
  detail::BuiltinTyper t(fn);
  t.host_only(call, builtin_row(Builtin::NpWhere), detail::BuiltinTyper::kArraysOnGpu);
  return detail::NpTyper{{fn, call, builtin_row(Builtin::NpWhere), args}, t}.nonzero();
}

}  // namespace cujit
