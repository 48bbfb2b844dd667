// datetime64 / timedelta64 operators for codegen: calls of the prelude's functions (datetime.h)
// with the unit typeinfer_datetime.cpp's rules chose, so NaT and unit conversion are computed
// there, identically on both targets.
#include "compiler/codegen_values.h"

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"

namespace cujit {

std::string emit_time_binop(ast::Op op, const std::string& a, const Type& ta, const std::string& b, const Type& tb,
                            const Type& result) {
  using O = ast::Op;
  const std::string args = "(" + a + ", " + b + ")";
  auto meet = [&] { return std::to_string(time_meet_unit(ta.scalar, tb.scalar)); };
  switch (op) {
    case O::Add: return "cj::time_add<" + meet() + ">" + args;
    case O::Sub: return "cj::time_sub<" + meet() + ">" + args;
    case O::Mult: return "cj::time_mul" + args;
    case O::Div:
      if (is_timedelta(tb.scalar)) return "cj::time_div_td<" + meet() + ">" + args;
      return "cj::time_div" + args;
    case O::FloorDiv: return "cj::time_div" + args;  // Numba's // of a timedelta by a number truncates as /
    default: break;
  }
  throw InternalError(std::string("codegen: ") + ast::op_spelling(op) + " on " + ta.str() + " and " + tb.str() +
                      " -> " + result.str());
}

std::string emit_time_compare(const std::string& l, const Type& lt, ast::Op op, const std::string& r, const Type& rt) {
  using O = ast::Op;
  const char* f = op == O::Eq ? "eq" : op == O::NotEq ? "ne" : op == O::Lt ? "lt" : op == O::LtE ? "le"
                : op == O::Gt ? "gt" : op == O::GtE ? "ge" : nullptr;
  if (!f) throw InternalError(std::string("codegen: ") + ast::op_spelling(op) + " on " + lt.str() + " and " + rt.str());
  return std::string("cj::time_") + f + "<" + std::to_string(time_meet_unit(lt.scalar, rt.scalar)) + ">(" + l + ", " + r + ")";
}

std::string emit_time_builtin(const ast::Node& e, Builtin b, const ValueContext& cx) {
  if (e.args().size() != 1 || !e.args()[0]->type.is_scalar() || !is_time(e.args()[0]->type.scalar)) return "";
  const std::string x = cx.expr(*e.args()[0]);
  switch (b) {
    case Builtin::Abs: return "cj::time_abs(" + x + ")";
    case Builtin::Int: return "((int64_t)(" + x + ").v)";  // the count (NaT: INT64_MIN), as Numba
    case Builtin::NpIsnat: return "cj::isnat(" + x + ")";
    default: throw InternalError(std::string("codegen: ") + builtin_row(b).name + " of " + e.args()[0]->type.str());
  }
}

}  // namespace cujit
