// Strings in @jit code (Numba's unicode_type; CPU only, refused in GPU code at the line): the
// typing of str operations that typeinfer.cpp hands over. codegen_strings.cpp writes their code;
// prelude/host_str.h runs it. A str literal stays a Constant node, so the places that need its
// value at compile time (print, exception arguments, record field names) still see it.
#include <map>
#include <string>

#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_refusals.h"

namespace cujit {

namespace {
using ast::Kind;
using ast::Node;

using detail::refuse;  // typeinfer_refusals.h
using detail::typing;

using detail::is_int;

// A method's arguments after the str: each one of these kinds, the first `min` required.
//   S a str; I an integer; N a str or None; B a bool (or an integer); L a list of str
struct StrMethod {
  const char* args;
  size_t min;
  char result;  // S str, I int64, U uint32, B bool, L list of str, T a tuple of 3 str (Numba's types:
                // isalpha, isdigit, isdecimal and isalnum answer int64, isascii uint32)
};
const std::map<std::string, StrMethod>& str_methods() {
  static const std::map<std::string, StrMethod> m = {
      {"startswith", {"SII", 1, 'B'}}, {"endswith", {"SII", 1, 'B'}}, {"find", {"SII", 1, 'I'}},
      {"rfind", {"SII", 1, 'I'}},      {"index", {"SII", 1, 'I'}},    {"rindex", {"SII", 1, 'I'}},
      {"count", {"SII", 1, 'I'}},      {"split", {"NI", 0, 'L'}},     {"rsplit", {"NI", 0, 'L'}},
      {"join", {"L", 1, 'S'}},         {"strip", {"N", 0, 'S'}},      {"lstrip", {"N", 0, 'S'}},
      {"rstrip", {"N", 0, 'S'}},       {"upper", {"", 0, 'S'}},       {"lower", {"", 0, 'S'}},
      {"title", {"", 0, 'S'}},         {"capitalize", {"", 0, 'S'}},  {"swapcase", {"", 0, 'S'}},
      {"casefold", {"", 0, 'S'}},      {"isdigit", {"", 0, 'I'}},     {"isdecimal", {"", 0, 'I'}},
      {"isnumeric", {"", 0, 'B'}},     {"isalpha", {"", 0, 'I'}},     {"isalnum", {"", 0, 'I'}},
      {"isspace", {"", 0, 'B'}},       {"isupper", {"", 0, 'B'}},     {"islower", {"", 0, 'B'}},
      {"istitle", {"", 0, 'B'}},       {"isascii", {"", 0, 'U'}},     {"replace", {"SSI", 2, 'S'}},
      {"zfill", {"I", 1, 'S'}},        {"center", {"IS", 1, 'S'}},    {"ljust", {"IS", 1, 'S'}},
      {"rjust", {"IS", 1, 'S'}},       {"splitlines", {"B", 0, 'L'}}, {"partition", {"S", 1, 'T'}},
      {"rpartition", {"S", 1, 'T'}},   {"expandtabs", {"I", 0, 'S'}}, {"isidentifier", {"", 0, 'B'}},
      {"isprintable", {"", 0, 'B'}}};
  return m;
}
}  // namespace

void refuse_gpu_string(const FunctionInstance& fn, const ast::Node& at) {
  if (!fn.host_only)
    refuse(fn.mod.source, at, "strings are not supported in GPU code (here " + fn.compiled_as + "; as in numba-cuda, str values exist in @jit code only)");
}

const char* str_method_builtin(const std::string& method) {
  static std::map<std::string, std::string> names;
  if (names.empty())
    for (const auto& [m, _] : str_methods()) names[m] = "str." + m;
  auto it = names.find(method);
  return it == names.end() ? nullptr : it->second.c_str();
}

Type type_str_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args) {
  const SourceFile& src = fn.mod.source;
  const std::string name = b.name;
  refuse_gpu_string(fn, call);
  const Type str = Type::string();
  auto one_arg = [&] {
    if (args.size() != 1) typing(src, call, name + "() takes exactly one argument (" + std::to_string(args.size()) + " given)");
  };
  if (name == "str") {
    one_arg();
    const Type& t = args[0];
    if (t.tag == Type::Tag::String || t.is_unicode_charseq()) return str;  // a record's 'U' field (typeinfer_charseq.cpp)
    if (t.is_scalar() && t.name.empty() && (is_integer(t.scalar) || t.scalar == Scalar::Bool)) return str;
    // Numba's str() of a float gives no digits ('<object type:float64>'): refused, not mimicked.
    refuse(src, call, "str() of a " + t.str() + " is not supported (integers, booleans and strings are)");
  }
  if (name == "ord") {
    one_arg();
    if (args[0].tag != Type::Tag::String) typing(src, *call.args()[0], "ord() expected string of length 1, but " + args[0].str() + " found");
    return Type::scalar_of(Scalar::Int64);
  }
  if (name == "chr") {
    one_arg();
    if (!is_int(args[0])) typing(src, *call.args()[0], "an integer is required (got type " + args[0].str() + ")");
    return str;
  }
  if (name == "hash") {
    one_arg();
    if (args[0].tag != Type::Tag::String) refuse(src, call, "hash() of a " + args[0].str() + " is not supported");
    return Type::scalar_of(Scalar::Int64);
  }
  // Methods: args[0] is the str.
  const std::string m = name.substr(4);
  const StrMethod& sm = str_methods().at(m);
  const size_t given = args.size() - 1, most = std::string(sm.args).size();
  if (given < sm.min || given > most)
    typing(src, call, "str." + m + "() takes " +
                          (sm.min == most ? std::to_string(most) : std::to_string(sm.min) + " to " + std::to_string(most)) +
                          " argument(s), " + std::to_string(given) + " given");
  for (size_t i = 0; i < given; ++i) {
    const Type& t = args[i + 1];
    const Node& at = *call.args()[i + 1];
    const char k = sm.args[i];
    const bool ok = k == 'S'   ? t.tag == Type::Tag::String
                    : k == 'N' ? t.tag == Type::Tag::String || t.tag == Type::Tag::None
                    : k == 'I' ? is_int(t)
                    : k == 'B' ? is_int(t)
                               : t.is_list() && t.elems[0].tag == Type::Tag::String;
    if (!ok) {
      if (k == 'L' && (t.is_list() || t.is_tuple()))
        refuse(src, at, "str.join() of a " + t.str() + " is not supported (a list of str is)");
      const char* want = k == 'S' ? "a str" : k == 'N' ? "a str or None" : k == 'L' ? "a list of str" : "an integer";
      typing(src, at, "str." + m + "() argument " + std::to_string(i + 1) + " must be " + want + ", not " + t.str());
    }
  }
  switch (sm.result) {
    case 'S': return str;
    case 'I': return Type::scalar_of(Scalar::Int64);
    case 'U': return Type::scalar_of(Scalar::UInt32);
    case 'B': return Type::scalar_of(Scalar::Bool);
    case 'T': return Type::tuple({str, str, str});
    default: return Type::list(str);
  }
}

Type type_str_subscript(FunctionInstance& fn, ast::Node& e, const Type& index) {
  refuse_gpu_string(fn, e);
  if (e.index()->is(Kind::Slice)) return Type::string();
  if (!is_int(index)) typing(fn.mod.source, *e.index(), "string indices must be integers or slices, not " + index.str());
  return Type::string();
}

Type str_binop_type(FunctionInstance& fn, const ast::Node& at, ast::Op op, const Type& a, const Type& b) {
  refuse_gpu_string(fn, at);
  const bool sa = a.tag == Type::Tag::String, sb = b.tag == Type::Tag::String;
  if (op == ast::Op::Add && sa && sb) return Type::string();
  if (op == ast::Op::Mult && ((sa && is_int(b)) || (sb && is_int(a)))) return Type::string();
  if (op == ast::Op::Mod && sa)
    refuse(fn.mod.source, at, "'%' formatting of a str is not supported (nor is it in Numba)");
  typing(fn.mod.source, at, std::string("unsupported operand type(s) for ") + ast::op_spelling(op) + ": '" + a.str() + "' and '" + b.str() + "'");
}

bool str_comparison_ok(const Type& l, ast::Op op, const Type& r) {
  (void)op;
  return l.tag == Type::Tag::String && r.tag == Type::Tag::String;
}

}  // namespace cujit
