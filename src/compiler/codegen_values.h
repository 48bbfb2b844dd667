// Operators on values for codegen.cpp (codegen_values.cpp): unary operators, and/or, comparisons
// and conversions into optional values, where Numba's integer and None rules live.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "compiler/ast.h"
#include "compiler/builtins.h"
#include "compiler/types.h"

namespace cujit {

/// What these need from the emitter of the function they are part of.
struct ValueContext {
  std::function<std::string(const ast::Node&)> expr;   // an expression's C++
  std::function<std::string(const ast::Node&)> truth;  // an expression's C++ truth value
  std::function<std::string(const std::string&, const Type&, const Type&)> convert;  // code, from, to
  std::function<std::string(const Type&)> type;        // C++ spelling, defining structs on demand
  int* tmp;                                            // the counter of temporaries' names
  bool python_errors = false;                          // @jit code: Python's exceptions (ZeroDivisionError)
};

std::string emit_unary(const ast::Node& e, const ValueContext& cx);    // not - + ~
std::string emit_boolop(const ast::Node& e, const ValueContext& cx);   // and / or
std::string emit_compare(const ast::Node& e, const ValueContext& cx);  // a < b < c, x is None
/// complex(), cmath's functions, np.real/imag/conj and the complex cases of abs() and
/// z.conjugate() (codegen_complex.cpp); "" for any other intrinsic.
std::string emit_complex_builtin(const ast::Node& e, Builtin b, const ValueContext& cx);
std::string emit_complex_array_attr(const Type& v, const std::string& name, const std::string& a);
/// Tuples (codegen_tuples.cpp): `l op r` where either is a tuple (`l in r`: r is), Python's rules.
std::string emit_tuple_compare(const std::string& l, const Type& lt, ast::Op op, const std::string& r, const Type& rt,
                               const ValueContext& cx);
/// The tuple `to` of the items `picks` of `code` (a constant slice).
std::string emit_tuple_slice(const std::string& code, const Type& from, const Type& to, const std::vector<int64_t>& picks,
                             const ValueContext& cx);
/// A call of a named tuple class: the struct of its fields, each from where `from` says (see
/// type_named_tuple_call), the arguments evaluated once each, in the order Python evaluates them.
std::string emit_named_tuple_call(const ast::Node& e, const std::vector<std::string>& from, const ValueContext& cx);
/// datetime64/timedelta64 (codegen_datetime.cpp): `a op b` (+ - * / //) where either is one, and
/// the comparison `l op r` of two, as typeinfer_datetime.cpp typed them.
std::string emit_time_binop(ast::Op op, const std::string& a, const Type& ta, const std::string& b, const Type& tb,
                            const Type& result);
std::string emit_time_compare(const std::string& l, const Type& lt, ast::Op op, const std::string& r, const Type& rt);
/// abs(td), int(td) and np.isnat(x); "" for any other call.
std::string emit_time_builtin(const ast::Node& e, Builtin b, const ValueContext& cx);
/// Appends print()'s format and printf arguments for `code` of type t (a number, None or a tuple
/// of them; `code` is a name when t is a tuple, as its fields are read one by one).
void print_piece(const std::string& code, const Type& t, std::string* fmt, std::string* args);
/// print() of a value whose text needs building (codegen_print.cpp, @jit code): a list, a dict, a
/// set, a tuple holding a str or one of those; whether one holding `t` can be printed; the
/// std::string expression of str(code).
bool print_needs_text(const Type& t);
bool print_text_supported(const Type& t);
std::string print_text(const std::string& code, const Type& t, int* tmp);
/// `code` of type `from` (None, a value, or an optional) as the optional type `to`.
std::string optional_convert(const std::string& code, const Type& from, const Type& to, const ValueContext& cx);

}  // namespace cujit
