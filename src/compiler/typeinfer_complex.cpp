// Typing of complex numbers' intrinsics (builtins.def's Rule::Complex, by id): complex(),
// cmath's functions and NumPy's real/imag/conj, with Numba's result types (pinned against Numba
// 0.68: cmath.sqrt of a float32 is complex64, of an int64 complex128; cmath.phase takes only
// complex; np.real of a real is that real).
#include <string>

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

std::string no_implementation(const BuiltinRow& b, const std::vector<Type>& args) {
  std::string n = b.name;
  auto dot = n.rfind('.');
  std::string s = "No implementation of function " + n + " found for signature: " + n.substr(dot == std::string::npos ? 0 : dot + 1) + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i].str();
  return s + ")";
}

Type type_complex_call(FunctionInstance& fn, const ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  auto fail = [&](const std::string& msg) -> Type { user_error(fn.mod.source, e.loc, ErrorKind::Typing, msg); };
  bool numbers = true;
  for (const auto& a : args) numbers = numbers && a.is_scalar();
  if (!numbers) return fail(no_implementation(b, args));
  auto arity = [&](size_t lo, size_t hi) {
    if (args.size() < lo || args.size() > hi) fail(no_implementation(b, args));
  };
  using B = Builtin;
  switch (b.id) {
    case B::ComplexFn:
      // Numba's complex(x): complex64 of a float32, complex128 of any other number (a complex64
      // too); of a bool no implementation ("only support for numbers"). complex(re, im) is
      // complex64 when both are float32, complex128 otherwise (checked on Numba 0.68).
      arity(1, 2);  // complex() itself Numba fails to type
      for (const auto& a : args)
        if (a.scalar == Scalar::Bool) return fail(no_implementation(b, args));
      if (args.size() == 2) {
        if (is_complex(args[0].scalar) || is_complex(args[1].scalar)) return fail(no_implementation(b, args));
        const bool single = args[0].scalar == Scalar::Float32 && args[1].scalar == Scalar::Float32;
        return Type::scalar_of(single ? Scalar::Complex64 : Scalar::Complex128);
      }
      if (args[0].scalar == Scalar::Float16) return Type::scalar_of(complex_of(args[0].scalar));
      return Type::scalar_of(args[0].scalar == Scalar::Float32 ? Scalar::Complex64 : Scalar::Complex128);
    case B::CmathPhase:
      arity(1, 1);
      if (!is_complex(args[0].scalar)) return fail(no_implementation(b, args));
      return Type::scalar_of(complex_part(args[0].scalar));
    case B::CmathPolar: {
      arity(1, 1);
      const Type f = Type::scalar_of(complex_part(complex_of(args[0].scalar)));
      return Type::tuple({f, f});
    }
    case B::CmathRect:
      arity(2, 2);
      if (is_complex(args[0].scalar) || is_complex(args[1].scalar)) return fail(no_implementation(b, args));
      return Type::scalar_of(complex_of(promote(args[0].scalar, args[1].scalar)));
    case B::CmathIsnan: case B::CmathIsinf: case B::CmathIsfinite:
      arity(1, 1);
      return Type::scalar_of(Scalar::Bool);
    case B::CmathLog:
      arity(1, 2);  // cmath.log(z, base): complex128 whatever z's width (Numba)
      if (args.size() == 2) return Type::scalar_of(Scalar::Complex128);
      return Type::scalar_of(complex_of(args[0].scalar));
    case B::NpReal: case B::NpImag:
      arity(1, 1);
      return Type::scalar_of(complex_part(args[0].scalar));
    case B::NpConj: case B::NpConjugate:
      arity(1, 1);
      return args[0];
    default:  // cmath's functions of one number: complex of its width
      arity(1, 1);
      return Type::scalar_of(complex_of(args[0].scalar));
  }
}


// a.real / a.imag of an array (Numba: views, array(float64, nd, A) for complex128; a writable view,
// so a.imag[i] = x and cuda.atomic.add(a.real, i, x) write the complex array); a real array's .real
// is the array itself. A real array's .imag (Numba's @jit allocates zeros) is left unknown.
bool complex_array_attr(const Type& v, const std::string& name, Type* out) {
  if (!v.is_array() || v.record || (name != "real" && name != "imag")) return false;
  if (!is_complex(v.scalar)) {
    if (name != "real") return false;
    *out = v;
    return true;
  }
  Type t = v;
  t.scalar = complex_part(v.scalar);
  t.layout = 'A';
  *out = t;
  return true;
}

}  // namespace cujit
