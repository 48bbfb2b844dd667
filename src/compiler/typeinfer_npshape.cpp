// Typing of np.expand_dims, np.atleast_1d/2d/3d, np.swapaxes, np.moveaxis (views), np.repeat and
// np.take (also as methods), np.kron, np.flatnonzero, np.array_equal, np.digitize, np.convolve and
// np.correlate in CPU code (Rule::NpFunc rows of builtins.def; typeinfer_numpy.cpp hands them
// here, codegen_npshape.cpp writes the calls, prelude/host_npshape.h runs them). Result types
// and refusals are Numba 0.68's (numba/np/arrayobj.py, arraymath.py).
#include <algorithm>
#include <string>

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {

struct ShapeTyper : CallTyper {
  // Numba's "No implementation of function ... found for signature" for these arguments.
  [[noreturn]] void no_impl() const {
    std::string sig;
    for (size_t i = 0; i < args.size(); ++i) sig += (i ? ", " : "") + args[i].str();
    error(e, "No implementation of function " + name + " found for signature: " + name.substr(name.rfind('.') + 1) +
                 "(" + sig + ")");
  }
  bool int_scalar(size_t i) const { return given(i) && args[i].is_scalar() && is_integral(args[i].scalar); }
  bool number(size_t i) const { return given(i) && args[i].is_scalar() && (is_number(args[i].scalar) || is_bool(args[i].scalar)); }
  bool plain_array(size_t i) const {
    return given(i) && args[i].is_array() && !args[i].is_record_array() && args[i].scalar != Scalar::Float16 &&
           !is_time(args[i].scalar);
  }
  const Type& array(size_t i) const {
    if (!plain_array(i)) no_impl();
    return args[i];
  }
  void need_int(size_t i) const {
    if (!int_scalar(i)) error(at(i), name + "() needs an integer, got " + (given(i) ? args[i].str() : "None"));
  }
  // A view's type: `a`'s dtype and read-only flag, ndim dimensions, layout A (or a's where it
  // stays 1-d or less).
  static Type view(const Type& a, int ndim) {
    Type r = Type::array(a.scalar, ndim, ndim <= 1 && a.ndim <= 1 ? a.layout : 'A');
    r.readonly = a.readonly;
    return r;
  }
  static Type atleast(const Type& a, int m) { return a.ndim >= m ? a : view(a, m); }
  // A mode= string literal of convolve/correlate.
  void mode_literal(size_t i) const {
    if (!given(i)) return;
    const ast::Node& n = at(i);
    if (!n.is(ast::Kind::Constant) || n.cval.tag != ast::ConstValue::Tag::Str)
      unsupported(n, name + "() needs its mode as a string literal ('full', 'same' or 'valid'), got " + args[i].str());
  }

  Type call() {
    using B = Builtin;
    switch (b.id) {
      case B::NpExpandDims: {
        arity(2, 2);
        const Type& a = array(0);
        if (args[1].is_tuple()) no_impl();  // Numba: one axis
        need_int(1);
        if (a.ndim + 1 > 8) unsupported(e, "the result would have more than 8 dimensions");
        return view(a, a.ndim + 1);
      }
      case B::NpAtleast1d: case B::NpAtleast2d: case B::NpAtleast3d: {
        if (args.empty()) error(e, name + "() needs at least one array");
        const int m = b.id == B::NpAtleast1d ? 1 : b.id == B::NpAtleast2d ? 2 : 3;
        std::vector<Type> r;
        for (size_t i = 0; i < args.size(); ++i) r.push_back(atleast(array(i), m));
        return r.size() == 1 ? r[0] : Type::tuple(r);
      }
      case B::NpSwapaxes: {
        arity(3, 3);
        const Type& a = array(0);
        need_int(1); need_int(2);
        return view(a, a.ndim);
      }
      case B::NpMoveaxis: {  // source and destination: an int or a tuple of ints each
        arity(3, 3);
        const Type& a = array(0);
        for (size_t i = 1; i < 3; ++i) {
          if (given(i) && args[i].is_tuple() && args[i].elems.empty())  // Numba: () is no sequence of ints
            error(at(i), std::string(i == 1 ? "The second argument \"source\"" : "The third argument \"destination\"") +
                             " must be an integer or sequence of integers");
          if (!given(i) || !args[i].is_tuple()) {
            if (!int_scalar(i))
              error(at(i), std::string(i == 1 ? "The second argument \"source\"" : "The third argument \"destination\"") +
                               " must be an integer or sequence of integers");
            continue;
          }
          for (const Type& t : args[i].elems)
            if (!t.is_scalar() || !is_integral(t.scalar))
              error(at(i), std::string(i == 1 ? "The second argument \"source\"" : "The third argument \"destination\"") +
                               " must be an integer or sequence of integers");
        }
        return view(a, a.ndim);
      }
      case B::NpRepeat: {
        arity(2, 2);
        if (!plain_array(0) && !number(0)) no_impl();
        const bool counts = plain_array(1) && is_integral(args[1].scalar);
        if (!int_scalar(1) && !counts) no_impl();
        return Type::array(args[0].scalar, 1, 'C');
      }
      case B::NpTake: {
        arity(2, 3);
        const Type& a = array(0);
        if (given(2)) {  // Numba: along one axis, a new C array (an int index drops the axis)
          need_int(2);
          if (int_scalar(1) && !is_bool(args[1].scalar))
            return a.ndim == 1 ? Type::scalar_of(a.scalar) : Type::array(a.scalar, a.ndim - 1, 'C');
          const bool idx_array = plain_array(1) && is_integer(args[1].scalar) && args[1].ndim == 1;
          bool idx_tuple = args[1].is_tuple() && !args[1].elems.empty();
          if (idx_tuple)
            for (const Type& t : args[1].elems) idx_tuple = idx_tuple && t.is_scalar() && is_integer(t.scalar);
          if (plain_array(1) && is_integer(args[1].scalar) && args[1].ndim != 1)
            unsupported(at(1), name + "() along an axis takes a 1-d array of indices, got " + args[1].str());
          if (!idx_array && !idx_tuple) no_impl();
          return Type::array(a.scalar, a.ndim, 'C');
        }
        if (int_scalar(1) && !is_bool(args[1].scalar)) return Type::scalar_of(a.scalar);
        if (plain_array(1) && is_integer(args[1].scalar)) {
          if (args[1].ndim == 0) unsupported(at(1), name + "() of a 0-d array of indices is not supported (index with an int)");
          return Type::array(a.scalar, args[1].ndim, 'C');
        }
        if (args[1].is_list() || args[1].is_tuple())
          unsupported(at(1), name + "() of a list or tuple of indices is not supported (pass an array of them)");
        no_impl();
      }
      case B::NpKron: {  // Numba's: 1-d/2-d arrays of layout C or F, or numbers; a's dtype
        arity(2, 2);
        int nd = 1;
        for (size_t i = 0; i < 2; ++i) {
          if (number(i)) continue;
          if (!plain_array(i)) no_impl();
          if (args[i].ndim > 2) error(at(i), "np.kron() only supported on 1 and 2-D arrays ");
          if (args[i].layout != 'C' && args[i].layout != 'F')
            error(at(i), std::string("np.linalg.kron only supports 'C' or 'F' layout input arrays. Received an input of layout '") +
                             args[i].layout + "'.");
          nd = std::max(nd, args[i].ndim);
        }
        // Each block is a[i, j] * b's row in the two dtypes' promotion, stored into a's dtype, so
        // a complex b with a real a has nowhere to go (Numba refuses the store).
        if (is_complex(args[1].scalar) && !is_complex(args[0].scalar)) no_impl();
        return Type::array(args[0].scalar, nd, 'C');
      }
      case B::NpFlatnonzero:
        arity(1, 1);
        if (!plain_array(0)) unsupported(at(0), name + "() needs an array, got " + args[0].str());
        return Type::array(Scalar::Int64, 1, 'C');
      case B::NpArrayEqual: {
        arity(2, 2);
        for (size_t i = 0; i < 2; ++i)
          if (!plain_array(i) && !number(i)) error(e, "Both arguments to \"array_equals\" must be array-like");
        return Type::scalar_of(Scalar::Bool);
      }
      case B::NpDigitize: {
        arity(2, 3);
        if (plain_array(0) && is_complex(args[0].scalar)) error(at(0), "x may not be complex");
        if (!(plain_array(0) || number(0)) || is_complex(args[0].scalar)) no_impl();
        if (!plain_array(1) || args[1].ndim != 1 || is_complex(args[1].scalar)) no_impl();
        if (given(2) && !(args[2].is_scalar() && is_integral(args[2].scalar))) no_impl();
        if (args[0].is_scalar()) return Type::scalar_of(Scalar::Int64);
        if (args[0].ndim == 0) unsupported(at(0), name + "() of a 0-d array is not supported");
        return Type::array(Scalar::Int64, args[0].ndim, 'C');
      }
      case B::NpConvolve: case B::NpCorrelate: {
        arity(2, 3);
        const std::string f = b.id == B::NpConvolve ? "np.convolve" : "np.correlate";
        for (size_t i = 0; i < 2; ++i) {
          if (plain_array(i) && args[i].ndim > 1) error(at(i), f + "() only supported on 1D arrays ");
          if (!plain_array(i) || args[i].ndim != 1) no_impl();
        }
        mode_literal(2);
        return Type::array(promote(args[0].scalar, args[1].scalar), 1, 'C');
      }
      default: break;
    }
    return type_linalg_call(fn, e, b, args);  // eig, svd, norm, ... (typeinfer_linalg.cpp)
  }
};

}  // namespace

Type type_npshape_call(FunctionInstance& fn, const ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args) {
  return ShapeTyper{{fn, call, b, args}}.call();
}

}  // namespace cujit
