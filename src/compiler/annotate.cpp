#include "compiler/annotate.h"

#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace cujit {
namespace {

class Annotator {
 public:
  explicit Annotator(const FunctionInstance& f) : f_(f) {}

  std::string run() {
    const ast::Node& def = *f_.mod.func;
    for (size_t i = 0; i < def.params.size() && i < f_.arg_types.size(); ++i)
      note(def.params[i].loc.line, def.params[i].name + " = arg(" + std::to_string(i) + ", name=" +
                                       def.params[i].name + ")  :: " + f_.arg_types[i].str());
    stmts(def.body);
    std::ostringstream os;
    os << f_.src->name << " (";
    for (size_t i = 0; i < f_.arg_types.size(); ++i) os << (i ? ", " : "") << f_.arg_types[i].str();
    os << (f_.arg_types.size() == 1 ? ",)" : ")") << "\n" << std::string(80, '-') << "\n";
    const SourceFile& src = f_.mod.source;
    os << "# File: " << src.filename << "\n";
    int first = src.first_line, last = first;
    for (char c : src.text) last += c == '\n';
    const std::vector<std::string> lines = src.all_lines();  // one pass: see all_lines
    for (int line = first; line < last; ++line) {
      const std::string& text = line - first < (int)lines.size() ? lines[line - first] : kEmpty;
      std::string indent = text.substr(0, text.find_first_not_of(" \t") == std::string::npos ? 0 : text.find_first_not_of(" \t"));
      os << indent << "# --- LINE " << line << " --- \n";
      auto it = notes_.find(line);
      if (it != notes_.end())
        for (const auto& n : it->second) os << indent << "#   " << n << "\n";
      os << "\n" << text << "\n\n";
    }
    os << std::string(80, '=') << "\n";
    return os.str();
  }

 private:
  inline static const std::string kEmpty;
  const FunctionInstance& f_;
  std::map<int, std::vector<std::string>> notes_;
  std::set<std::pair<int, std::string>> seen_;

  void note(int line, const std::string& s) {
    if (seen_.insert({line, s}).second) notes_[line].push_back(s);
  }

  std::string callee_name(const ast::Node& c) {
    if (c.is(ast::Kind::Name)) return c.name;
    if (c.is(ast::Kind::Attribute)) return callee_name(*c.value()) + "." + c.name;
    return "<callee>";
  }

  void stmts(const std::vector<ast::NodePtr>& body) {
    for (const auto& s : body) stmt(*s);
  }

  void target(const ast::Node& t) {
    if (t.is(ast::Kind::Name)) {  // the version this assignment defines
      auto it = f_.stores.find(&t);
      if (it != f_.stores.end()) note(t.loc.line, t.name + "  :: " + it->second.type.str());
    } else if (t.is(ast::Kind::Tuple)) {
      for (const auto& e : t.elts()) target(*e);
    } else {
      expr(t);
    }
  }

  void stmt(const ast::Node& s) {
    using K = ast::Kind;
    switch (s.kind) {
      case K::Assign:
        expr(*s.rhs());
        for (const auto& t : s.targets()) target(*t);
        break;
      case K::AugAssign:
        expr(*s.rhs());
        target(*s.target());
        break;
      case K::For:
        expr(*s.iter());
        target(*s.target());
        stmts(s.body);
        stmts(s.orelse);
        break;
      case K::While: case K::If:
        expr(*s.test());
        stmts(s.body);
        stmts(s.orelse);
        break;
      case K::Return:
        if (s.value()) expr(*s.value());
        note(s.loc.line, "$return  :: " + (s.value() ? s.value()->type.str() : std::string("none")));
        break;
      case K::Expr:
        expr(*s.value());
        break;
      case K::Raise:
        if (s.exc() && s.exc()->is(K::Call))
          for (const auto& a : s.exc()->args()) expr(*a);
        break;
      case K::Try:
        stmts(s.body);
        stmts(s.orelse);
        break;
      default: break;
    }
  }

  void expr(const ast::Node& e) {
    using K = ast::Kind;
    ast::for_each_child(e, [&](const ast::Node& c) { expr(c); });
    if (e.is(K::Call)) {
      std::string s = callee_name(*e.func()) + "(";
      for (size_t i = 0; i < e.args().size(); ++i) s += (i ? ", " : "") + e.args()[i]->type.str();
      note(e.loc.line, s + ")  :: " + e.type.str());
    } else if (e.is(K::BinOp)) {
      note(e.loc.line, e.lhs()->type.str() + " " + ast::op_spelling(e.op) + " " + e.rhs()->type.str() + "  :: " + e.type.str());
    } else if (e.is(K::Name)) {  // a local: the version read here
      auto r = f_.resolved.find(&e);
      if (r != f_.resolved.end() && r->second.kind == Resolved::Kind::Local) note(e.loc.line, e.name + "  :: " + e.type.str());
    }
  }
};

}  // namespace

std::string annotate_types(const FunctionInstance& f) { return Annotator(f).run(); }

}  // namespace cujit
