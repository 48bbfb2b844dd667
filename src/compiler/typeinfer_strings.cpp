// Strings in @jit code (Numba's unicode_type; CPU only, refused in GPU code at the line): the
// typing of str operations that typeinfer.cpp hands over. codegen_strings.cpp writes their code;
// prelude/host_str.h runs it. A str literal stays a Constant node, so the places that need its
// value at compile time (print, exception arguments, record field names) still see it.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "compiler/diagnostics.h"
#include "compiler/fnval.h"
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
    // startswith/endswith: a prefix may be a tuple of str (any of them), start and end None.
    const bool affix = m == "startswith" || m == "endswith";
    if (affix && i == 0 && t.is_tuple() && !t.elems.empty() &&
        std::all_of(t.elems.begin(), t.elems.end(), [](const Type& x) { return x.tag == Type::Tag::String; }))
      continue;
    if (affix && i > 0 && t.tag == Type::Tag::None) continue;
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

namespace {
// The str literal a local assigned exactly once (`s = "1.5"`, nothing else binding s) holds:
// Numba types such a name as the literal (Literal[str]); null where it is not one.
const Node* strings_single_literal(const Node& def, const std::string& name) {
  int n = 0;
  const Node* value = nullptr;
  std::function<void(const Node&)> walk = [&](const Node& x) {
    if (x.is(Kind::FunctionDef) && &x != &def) return;
    if (x.is(Kind::Assign))
      for (const auto& t : x.targets()) {
        std::set<std::string> names;
        ast::target_names(*t, names);
        if (names.count(name)) { ++n; value = t->is(Kind::Name) ? x.rhs().get() : nullptr; }
      }
    if ((x.is(Kind::AugAssign) || x.is(Kind::For)) && x.target()) {
      std::set<std::string> names;
      ast::target_names(*x.target(), names);
      n += (int)names.count(name);
    }
    if (x.is(Kind::NamedExpr) && x.target()->name == name) ++n;
    ast::for_each_child(x, walk);
  };
  walk(def);
  for (const auto& p : def.params) n += p.name == name;
  return n == 1 && value && value->is(Kind::Constant) && value->cval.tag == ast::ConstValue::Tag::Str ? value : nullptr;
}
}  // namespace

Type type_float_of_str(FunctionInstance& fn, ast::Node& call) {
  Node& arg = *call.args()[0];
  if (arg.is(Kind::Name) && fn.locals.count(arg.name))  // s = "1.5"; float(s): the literal, as Numba's
    if (const Node* lit = strings_single_literal(*fn.mod.func, arg.name)) {
      const SourceLoc loc = arg.loc;
      forget_nodes(fn, arg);  // no resolution may outlive the Name
      arg = Node(Kind::Constant, loc);
      arg.cval = lit->cval;
    }
  if (!arg.is(Kind::Constant) || arg.cval.tag != ast::ConstValue::Tag::Str)
    refuse(fn.mod.source, arg, "float() of a str is supported for a string literal only (Numba: argument must be a string literal)");
  // Python's float() syntax: surrounding whitespace, a sign, then digits with single underscores
  // between them, a point and an exponent, or inf/infinity/nan in any case (strtod alone would
  // also take hex and "nan(...)").
  std::string t = arg.cval.s;
  const char* ws = " \t\n\r\f\v";
  t.erase(0, std::min(t.size(), t.find_first_not_of(ws)));
  t.erase(t.find_last_not_of(ws) + 1);
  std::string body = t.substr(!t.empty() && (t[0] == '+' || t[0] == '-'));
  std::string lower;
  for (char c : body) lower += (char)std::tolower((unsigned char)c);
  bool ok = lower == "inf" || lower == "infinity" || lower == "nan";
  if (!ok) {
    std::string plain;  // the digits without their underscores, each between two digits
    bool digits = false, point = false, exp = false, exp_digits = false, prev_digit = false;
    ok = !body.empty();
    for (size_t i = 0; ok && i < body.size(); ++i) {
      const char c = body[i];
      if (std::isdigit((unsigned char)c)) { (exp ? exp_digits : digits) = true; prev_digit = true; plain += c; continue; }
      if (c == '_') { ok = prev_digit && i + 1 < body.size() && std::isdigit((unsigned char)body[i + 1]); prev_digit = false; continue; }
      prev_digit = false;
      if (c == '.' && !point && !exp) point = true;
      else if ((c == 'e' || c == 'E') && digits && !exp) exp = true;
      else if ((c == '+' || c == '-') && exp && (body[i - 1] == 'e' || body[i - 1] == 'E')) {}
      else ok = false;
      plain += c;
    }
    ok = ok && digits && (!exp || exp_digits);
    body = plain;
  }
  if (!ok) {
    std::string quoted;
    for (char c : arg.cval.s) quoted += c == '\'' ? std::string("\\'") : std::string(1, c);
    typing(fn.mod.source, arg, "could not convert string to float: '" + quoted + "'");
  }
  double v;
  if (lower == "nan") v = std::nan("");
  else if (lower == "inf" || lower == "infinity") v = HUGE_VAL;
  else v = std::strtod(body.c_str(), nullptr);  // the C locale's '.': the library never sets another
  if (!t.empty() && t[0] == '-') v = -v;
  arg.cval.tag = ast::ConstValue::Tag::Float;
  arg.cval.f = v;
  arg.cval.s.clear();
  arg.type = Type::scalar_of(Scalar::Float64);
  return arg.type;
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
