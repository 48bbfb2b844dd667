// Typing of np.linalg's decompositions and the functions built on them in CPU code: eig, eigvals,
// eigh, eigvalsh, svd, qr, lstsq, pinv, slogdet, norm, cond, matrix_rank, matrix_power (Rule::NpFunc
// rows; typeinfer_numpy.cpp hands them here, codegen_linalg.cpp writes the calls and
// prelude/host_linalg_decomp.h runs them). Result types, layouts and refusals are Numba 0.68's
// (numba/np/linalg.py): e.g. a real eig stays real, slogdet is (float64, float64), lstsq's rank is
// int32, qr's Q is 'A'.
#include <string>

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {

struct LinalgTyper : CallTyper {
  std::string fname() const { return std::string(b.name).substr(std::string("numpy.linalg.").size()); }
  bool float_or_complex(Scalar s) const { return is_inexact(s) && s != Scalar::Float16; }
  // _check_linalg_matrix: a 2-d float or complex array.
  const Type& matrix(size_t i) const {
    const std::string p = "np.linalg." + fname();
    if (!given(i) || !args[i].is_array() || args[i].is_record_array()) error(at(i), p + "() only supported for array types");
    if (args[i].ndim != 2) error(at(i), p + "() only supported on 2-D arrays.");
    if (!float_or_complex(args[i].scalar)) error(at(i), p + "() only supported on float and complex arrays.");
    return args[i];
  }
  // _check_linalg_1_or_2d_matrix (its messages end in a space, as Numba's do).
  const Type& vector_or_matrix(size_t i) const {
    const std::string p = "np.linalg." + fname();
    if (!given(i) || !args[i].is_array() || args[i].is_record_array()) error(at(i), p + "() only supported for array types ");
    if (args[i].ndim > 2 || args[i].ndim < 1) error(at(i), p + "() only supported on 1 and 2-D arrays ");
    if (!float_or_complex(args[i].scalar)) error(at(i), p + "() only supported on float and complex arrays.");
    return args[i];
  }
  void real_number(size_t i, const char* what) const {
    if (given(i) && !(args[i].is_scalar() && !is_complex(args[i].scalar)))
      error(at(i), std::string(b.name) + "() needs a real number as " + what + ", got " + args[i].str());
  }
  // ord= / p=: None, a number (int, bool or float), or a string (Numba compiles it, and the
  // matrix norm raises its ValueError at run time; a vector's norm has no use for it).
  void order(size_t i, bool string_ok) const {
    if (!given(i)) return;
    const Type& t = args[i];
    if (t.is_scalar() && !is_complex(t.scalar)) return;
    if (string_ok && t.tag == Type::Tag::String && at(i).is(ast::Kind::Constant)) return;
    error(at(i), std::string(b.name) + "() needs None or a number as its order, got " + t.str());
  }
  static Scalar real_of(Scalar s) {
    if (s == Scalar::Complex64) return Scalar::Float32;
    if (s == Scalar::Complex128) return Scalar::Float64;
    return s;
  }

  Type run() {
    using B = Builtin;
    switch (b.id) {
      case B::NpLinalgEig: {
        arity(1, 1);
        const Scalar s = matrix(0).scalar;
        return Type::tuple({Type::array(s, 1, 'C'), Type::array(s, 2, 'F')});
      }
      case B::NpLinalgEigvals: arity(1, 1); return Type::array(matrix(0).scalar, 1, 'C');
      case B::NpLinalgEigh: {
        arity(1, 1);
        const Scalar s = matrix(0).scalar;
        return Type::tuple({Type::array(real_of(s), 1, 'C'), Type::array(s, 2, 'F')});
      }
      case B::NpLinalgEigvalsh: arity(1, 1); return Type::array(real_of(matrix(0).scalar), 1, 'C');
      case B::NpLinalgSvd: {
        arity(1, 2);
        const Scalar s = matrix(0).scalar;
        if (given(1) && !(args[1].is_scalar() && (is_integral(args[1].scalar))))
          error(at(1), "np.linalg.svd() needs an integer or a bool as full_matrices, got " + args[1].str());
        return Type::tuple({Type::array(s, 2, 'F'), Type::array(real_of(s), 1, 'C'), Type::array(s, 2, 'F')});
      }
      case B::NpLinalgQr: {
        arity(1, 1);
        const Scalar s = matrix(0).scalar;
        return Type::tuple({Type::array(s, 2, 'A'), Type::array(s, 2, 'F')});
      }
      case B::NpLinalgLstsq: {
        arity(2, 3);
        const Scalar s = matrix(0).scalar;
        const Type& y = vector_or_matrix(1);
        if (y.scalar != s) error(e, "np.linalg.lstsq() only supports inputs that have homogeneous dtypes.");
        real_number(2, "rcond");
        const Scalar r = real_of(s);
        return Type::tuple({Type::array(s, y.ndim, 'C'), Type::array(r, 1, 'C'), Type::scalar_of(Scalar::Int32),
                            Type::array(r, 1, 'C')});
      }
      case B::NpLinalgPinv:
        arity(1, 2);
        real_number(1, "rcond");
        return Type::array(matrix(0).scalar, 2, 'F');
      case B::NpLinalgSlogdet: {
        arity(1, 1);
        const Scalar s = matrix(0).scalar;
        return Type::tuple({Type::scalar_of(is_complex(s) ? Scalar::Complex128 : Scalar::Float64),
                            Type::scalar_of(Scalar::Float64)});
      }
      case B::NpLinalgNorm: {
        arity(1, 2);
        const Type& x = vector_or_matrix(0);
        order(1, x.ndim == 2);
        // Numba: a vector's 2-norm without ord is nrm2's, in the dtype's real type; every other
        // form unifies with its float64 branches.
        return Type::scalar_of(x.ndim == 1 && !given(1) ? real_of(x.scalar) : Scalar::Float64);
      }
      case B::NpLinalgCond:
        arity(1, 2);
        matrix(0);
        order(1, true);
        return Type::scalar_of(Scalar::Float64);
      case B::NpLinalgMatrixRank:
        arity(1, 2);
        vector_or_matrix(0);
        real_number(1, "tol");
        return Type::scalar_of(Scalar::Int64);
      case B::NpLinalgMatrixPower: {
        arity(2, 2);
        const Scalar s = matrix(0).scalar;
        if (!(args[1].is_scalar() && is_integer(args[1].scalar))) error(at(1), "Exponent must be an integer.");
        return Type::array(s, 2, 'C');
      }
      default: break;
    }
    throw InternalError(std::string("no typing rule for ") + b.name);
  }
};

}  // namespace

Type type_linalg_call(FunctionInstance& fn, const ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args) {
  return LinalgTyper{{fn, call, b, args}}.run();
}

}  // namespace cujit
