// Names of node kinds and operators (from the .def files), and the tree printer behind
// CUJIT_DEBUG=2. The printout shows one node per line, children indented by two, with each
// node's location (@line:col) and, once type inference has run, its type (": float32") and any
// implicit conversion ("-> float64").
#include "compiler/ast.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <sstream>
#include <type_traits>

namespace cujit::ast {

const char* op_spelling(Op op) {
  switch (op) {
    case Op::None: return "";
#define OP(name, spelling) case Op::name: return spelling;
#include "compiler/operators.def"
#undef OP
  }
  return "?";
}

const char* kind_name(Kind k) {
  switch (k) {
#define NODE(name, category, children, doc) case Kind::name: return #name;
#include "compiler/ast_nodes.def"
#undef NODE
  }
  return "?";
}

namespace {
const char* role_name(Role r) {
  switch (r) {
#define ROLE(role, slot, doc) case Role::role: return #role;
#include "compiler/ast_nodes.def"
#undef ROLE
    case Role::Count_: break;
  }
  return "?";
}

// Two roles of one kind must live in different slots (a row naming lhs and operand, both slot a,
// would make them one child). Checked at compile time from ast_nodes.def.
enum class Slot { a, b, c, list };
constexpr Slot role_slot(Role r) {
  switch (r) {
#define ROLE(role, slot, doc) case Role::role: return Slot::slot;
#include "compiler/ast_nodes.def"
#undef ROLE
    case Role::Count_: break;
  }
  return Slot::a;
}
constexpr bool slots_distinct(std::initializer_list<Role> roles) {
  unsigned seen = 0;
  for (Role r : roles) {
    unsigned bit = 1u << (int)role_slot(r);
    if (seen & bit) return false;
    seen |= bit;
  }
  return true;
}
#define C(role) Role::role,
#define BODY
#define ORELSE
#define KEYWORDS
#define NODE(name, category, children, doc) \
  static_assert(slots_distinct({children}), #name ": two roles in one slot (ast_nodes.def)");
#include "compiler/ast_nodes.def"
#undef NODE
#undef C
#undef BODY
#undef ORELSE
#undef KEYWORDS
}  // namespace

void role_error(Kind k, Role r) {
  throw InternalError(std::string("a ") + kind_name(k) + " node has no " + role_name(r) +
                      " (ast_nodes.def)");
}

void target_names(const Node& t, std::set<std::string>& out) {
  if (t.is(Kind::Name)) out.insert(t.name);
  if (t.is(Kind::Tuple))
    for (const auto& e : t.list) target_names(*e, out);
}

void named_expr_targets(const Node& n, std::set<std::string>& out) {
  if (n.is(Kind::FunctionDef)) return;
  if (n.is(Kind::NamedExpr)) out.insert(n.target()->name);
  for_each_child(n, [&](const Node& c) { named_expr_targets(c, out); });
}

NodePtr clone(const Node& n) {
  NodePtr c = make(n.kind, n.loc);
  c->name = n.name;
  c->op = n.op;
  c->ops = n.ops;
  c->cval = n.cval;
  if (n.a) c->a = clone(*n.a);
  if (n.b) c->b = clone(*n.b);
  if (n.c) c->c = clone(*n.c);
  for (const auto& x : n.list) c->list.push_back(clone(*x));
  for (const auto& k : n.keywords) c->keywords.push_back(Keyword{k.name, k.loc, k.value ? clone(*k.value) : nullptr});
  c->params = n.params;
  for (const auto& x : n.body) c->body.push_back(clone(*x));
  for (const auto& x : n.orelse) c->orelse.push_back(clone(*x));
  c->type = n.type;
  c->conv = n.conv;
  return c;
}

namespace {

// Python's repr of a float: the fewest digits that read back as the same double, in fixed
// notation for exponents from -4 to 15 and in scientific notation outside them.
std::string float_repr(double f) {
  if (f != f) return "nan";
  if (f == HUGE_VAL || f == -HUGE_VAL) return f > 0 ? "inf" : "-inf";
  char buf[400];
  int digits = 17;
  for (int d = 1; d <= 17; ++d) {
    std::snprintf(buf, sizeof buf, "%.*e", d - 1, f);
    if (std::strtod(buf, nullptr) == f) {
      digits = d;
      break;
    }
  }
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, f);
  int exp = std::atoi(std::strchr(buf, 'e') + 1);
  if (exp < -4 || exp >= 16) return buf;
  std::snprintf(buf, sizeof buf, "%.*f", std::max(0, digits - 1 - exp), f);
  std::string s = buf;
  if (s.find('.') == std::string::npos) s += ".0";
  return s;
}

std::string str_repr(const std::string& s) {
  std::string out = "'";
  for (unsigned char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\'': out += "\\'"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += (char)c;  // UTF-8 passes through
        }
    }
  }
  return out + "'";
}

std::string const_repr(const ConstValue& v) {
  switch (v.tag) {
    case ConstValue::Tag::None: return "None";
    case ConstValue::Tag::Bool: return v.b ? "True" : "False";
    case ConstValue::Tag::Int:
      if (v.big_int) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "<big int, low 64 bits 0x%016llx>",
                      (unsigned long long)(uint64_t)v.i);
        return buf;
      }
      return std::to_string(v.i);
    case ConstValue::Tag::Float: return float_repr(v.f);
    case ConstValue::Tag::Imag: return float_repr(v.f) + "j";
    case ConstValue::Tag::Str: return str_repr(v.s);
    case ConstValue::Tag::Bytes: return "b" + str_repr(v.s);
  }
  return "?";
}

class Dumper {
 public:
  std::ostringstream os;

  void node(const Node& n, int indent) {
    line(n, indent, header(n));
    int in = indent + 2;
    switch (n.kind) {
      case Kind::Slice:
        for (const NodePtr* p : {&n.lower(), &n.upper(), &n.step()}) child(*p, in);
        break;
      case Kind::Call:
        child(n.func(), in);
        for (const NodePtr& e : n.args()) child(e, in);
        for (const Keyword& k : n.keywords) {
          os << std::string(in, ' ') << "keyword " << k.name << " @" << k.loc.line << ":"
             << k.loc.col << "\n";
          child(k.value, in + 2);
        }
        break;
      case Kind::FunctionDef:
        for (const NodePtr& s : n.body) node(*s, in);
        break;
      default:  // every other kind: its children in row order (ast_nodes.def), present ones only
        children(n, in);
        break;
    }
  }

 private:
  static std::string header(const Node& n) {
    std::string h = kind_name(n.kind);
    switch (n.kind) {
      case Kind::Constant: return h + " " + const_repr(n.cval);
      case Kind::Name: return h + " " + n.name;
      case Kind::Attribute: return h + " ." + n.name;
      case Kind::BinOp: case Kind::UnaryOp: case Kind::BoolOp:
        return h + " " + op_spelling(n.op);
      case Kind::AugAssign: return h + " " + op_spelling(n.op) + "=";
      case Kind::ArrayExpr: return h + " #" + std::to_string(n.cval.i) + (n.cval.b ? " in place" : "");
      case Kind::Compare:
        for (Op op : n.ops) h += std::string(" ") + op_spelling(op);
        return h;
      case Kind::FunctionDef: {
        h += " " + n.name + "(";
        for (size_t i = 0; i < n.params.size(); ++i) h += (i ? ", " : "") + n.params[i].name;
        return h + ")";
      }
      default: return h;
    }
  }

  void line(const Node& n, int indent, const std::string& text) {
    os << std::string(indent, ' ') << text << " @" << n.loc.line << ":" << n.loc.col;
    if (n.type.known()) os << " : " << n.type.str();
    if (n.conv.known()) os << " -> " << n.conv.str();
    os << "\n";
  }

  void children(const Node& n, int in) {
    auto visit = [&](const auto& x) {
      if constexpr (std::is_same_v<std::decay_t<decltype(x)>, NodePtr>) {
        if (x) child(x, in);
      } else {
        for (const NodePtr& e : x) child(e, in);
      }
    };
    switch (n.kind) {
#define C(role) visit(n.role());
#define BODY block("body:", n.body, in);
#define ORELSE block("orelse:", n.orelse, in);
#define KEYWORDS
#define NODE(name, category, children, doc) case Kind::name: { children } return;
#include "compiler/ast_nodes.def"
#undef NODE
#undef C
#undef BODY
#undef ORELSE
#undef KEYWORDS
    }
  }

  void child(const NodePtr& p, int indent) {
    if (p) node(*p, indent);
    else os << std::string(indent, ' ') << "<none>\n";
  }

  void block(const char* label, const std::vector<NodePtr>& stmts, int indent) {
    if (stmts.empty()) return;
    os << std::string(indent, ' ') << label << "\n";
    for (const NodePtr& s : stmts) node(*s, indent + 2);
  }
};

}  // namespace

std::string dump(const Node& n, int indent) {
  Dumper d;
  d.node(n, indent);
  return d.os.str();
}

}  // namespace cujit::ast
