// datetime64 / timedelta64 typing (Numba's npdatetime rules): which operators exist for them and
// the type each gives. The unit rules are types.cpp's time_meet_unit; the arithmetic is the
// prelude's (datetime.h), which codegen_datetime.cpp calls with the unit chosen here.
#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {
// What a timedelta multiplies or divides by: integers and float32/float64 (Numba has no bool,
// float16 or complex case).
bool time_factor_ok(Scalar s) { return is_integer(s) || s == Scalar::Float32 || s == Scalar::Float64; }

std::string meet_failure(Scalar x, Scalar y) {
  return std::string("the units of ") + scalar_name(x) + " and " + scalar_name(y) +
         " do not meet (NumPy: no common unit for a year- or month-based and a day-based timedelta)";
}
}  // namespace

Type time_binop_type(ast::Op op, Scalar x, Scalar y, std::string* why) {
  using O = ast::Op;
  const bool dx = is_datetime(x), dy = is_datetime(y), tx = is_timedelta(x), ty = is_timedelta(y);
  auto meet = [&](bool datetime) {
    const int u = time_meet_unit(x, y);
    if (u < 0) {
      *why = meet_failure(x, y);
      return Type::unknown();
    }
    return Type::scalar_of(time_scalar(datetime, u));
  };
  switch (op) {
    case O::Add:
      if ((dx && ty) || (tx && dy)) return meet(true);
      if (tx && ty) return meet(false);
      break;
    case O::Sub:
      if (dx && dy) return meet(false);
      if (dx && ty) return meet(true);
      if (tx && ty) return meet(false);
      break;
    case O::Mult:
      if (tx && time_factor_ok(y)) return Type::scalar_of(x);
      if (ty && time_factor_ok(x)) return Type::scalar_of(y);
      break;
    case O::Div:
      if (tx && ty) {
        if (time_meet_unit(x, y) < 0) { *why = meet_failure(x, y); return Type::unknown(); }
        return Type::scalar_of(Scalar::Float64);
      }
      [[fallthrough]];
    case O::FloorDiv:  // timedelta // timedelta is not Numba's (its lowering fails): refused
      if (tx && time_factor_ok(y)) return Type::scalar_of(x);
      break;
    default: break;
  }
  return Type::unknown();
}

bool time_compare_ok(Scalar x, Scalar y, std::string* why) {
  if (is_datetime(x) != is_datetime(y) || !is_time(x) || !is_time(y)) return false;
  if (time_meet_unit(x, y) < 0) {
    *why = meet_failure(x, y);
    return false;
  }
  return true;
}

Type type_time_call(FunctionInstance& fn, const ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  bool any = false;
  for (const auto& a : args) any = any || (a.is_scalar() && is_time(a.scalar));
  if (!any && b.id != Builtin::NpIsnat) return Type::unknown();
  auto fail = [&]() -> Type { user_error(fn.mod.source, e.loc, ErrorKind::Typing, no_implementation(b, args)); };
  if (args.size() != 1 || !args[0].is_scalar()) return fail();
  const Scalar s = args[0].scalar;
  switch (b.id) {
    case Builtin::NpIsnat: return is_time(s) ? Type::scalar_of(Scalar::Bool) : fail();  // NumPy: only for them
    case Builtin::Abs: return is_timedelta(s) ? args[0] : fail();
    case Builtin::Int: return is_timedelta(s) ? Type::scalar_of(Scalar::Int64) : fail();  // its count
    default: return fail();  // math, min/max, float(), print, ...: Numba has none for them
  }
}

}  // namespace cujit
