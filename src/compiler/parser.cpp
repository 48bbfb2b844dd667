// The parser: a hand-written recursive-descent parser over the lexer's tokens.
//
// Each grammar rule is one function, with the rule written above it in a simplified EBNF. Python's
// precedence is the call chain: test -> or_test -> and_test -> not_test -> comparison -> binary
// levels (| ^ & shifts + - and * / // % @) -> factor (unary) -> power -> primary -> atom, each
// level calling the next-tighter one for its operands and looping over its own operators, so that
// `a - b - c` is built left-associative without recursion and `**` (which recurses into factor on
// its right) is right-associative. Statements are parsed the same way; indentation arrives from
// the lexer as Indent and Dedent tokens, so a block is "Indent statement+ Dedent".
//
// The parser decides with one token of look-ahead (two where Python needs it: `not in`, `is not`,
// a keyword argument `name=`) and never backtracks; only `match`, a soft keyword, is told apart
// from a name by looking ahead to the end of its line.
//
// Python that is valid but outside the compiled subset is still recognised, so that the user gets
// "'with' statements are not supported" at the `with` rather than a syntax error somewhere after
// it: every Python keyword is a token of its own (tokens.def), and the places where a construct
// could start check for it.
//
// The parser must survive any input (it is fuzzed): every loop consumes a token or stops, the
// token stream always ends in End and the cursor never moves past it, and nesting is bounded
// three ways. `depth_` counts the parser's own recursion in expressions (brackets, unary
// operators, `**`, `not`, conditional expressions) and `blocks_` its recursion in indented
// blocks; `heights_` records how tall each expression tree is, because a chain like `a+a+...+a`
// builds a deep tree in a loop, and later passes walk the tree recursively.
#include "compiler/parser.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "compiler/lexer.h"
#include "compiler/parser_desugar.h"

namespace cujit {

namespace {

using ast::Kind;
using ast::Node;
using ast::NodePtr;
using ast::Op;
using T = TokenKind;
using Tag = ast::ConstValue::Tag;

constexpr int kMaxDepth = 200;    // expression recursion: brackets, unary operators, `**`, ...
constexpr int kMaxBlocks = 100;   // indented blocks inside one another (Python allows 100 too)
constexpr int kMaxHeight = 1000;  // height of one expression tree, and length of an elif chain

// Which operator a token is, by where it appears: binary precedence levels 0 (`|`, loosest) to
// 5 (`*`), comparisons, and augmented assignments.
constexpr int kCompare = 6, kAugmented = 7;
const struct {
  T tok;
  Op op;
  int where;
} kOps[] = {
    {T::VBar, Op::BitOr, 0}, {T::Caret, Op::BitXor, 1}, {T::Amper, Op::BitAnd, 2},
    {T::LShift, Op::LShift, 3}, {T::RShift, Op::RShift, 3}, {T::Plus, Op::Add, 4},
    {T::Minus, Op::Sub, 4}, {T::Star, Op::Mult, 5}, {T::Slash, Op::Div, 5},
    {T::DoubleSlash, Op::FloorDiv, 5}, {T::Percent, Op::Mod, 5}, {T::At, Op::MatMult, 5},
    {T::Less, Op::Lt, kCompare}, {T::Greater, Op::Gt, kCompare}, {T::EqEqual, Op::Eq, kCompare},
    {T::GreaterEqual, Op::GtE, kCompare}, {T::LessEqual, Op::LtE, kCompare},
    {T::NotEqual, Op::NotEq, kCompare}, {T::In, Op::In, kCompare}, {T::Is, Op::Is, kCompare},
    {T::PlusEqual, Op::Add, kAugmented}, {T::MinusEqual, Op::Sub, kAugmented},
    {T::StarEqual, Op::Mult, kAugmented}, {T::SlashEqual, Op::Div, kAugmented},
    {T::DoubleSlashEqual, Op::FloorDiv, kAugmented}, {T::PercentEqual, Op::Mod, kAugmented},
    {T::DoubleStarEqual, Op::Pow, kAugmented}, {T::AtEqual, Op::MatMult, kAugmented},
    {T::AmperEqual, Op::BitAnd, kAugmented}, {T::VBarEqual, Op::BitOr, kAugmented},
    {T::CaretEqual, Op::BitXor, kAugmented}, {T::LShiftEqual, Op::LShift, kAugmented},
    {T::RShiftEqual, Op::RShift, kAugmented},
};

Op find_op(T tok, int where) {
  for (const auto& row : kOps)
    if (row.tok == tok && row.where == where) return row.op;
  return Op::None;
}

// A node with its operator (the caller sets its children by role).
NodePtr make(Kind k, SourceLoc loc, Op op) {
  NodePtr n = ast::make(k, loc);
  n->op = op;
  return n;
}

class Parser {
 public:
  Parser(const SourceFile& src, std::vector<Token> toks) : src_(src), toks_(std::move(toks)) {}

  // module    = decorator* funcdef END
  // decorator = "@" <any tokens> NEWLINE
  NodePtr module() {
    if (at(T::Indent)) syntax(tok(), "unexpected indent");
    while (at(T::At)) {
      next();  // the decorator was evaluated by Python already; only the `def` matters here
      if (at(T::Newline) || at(T::End)) syntax(tok(), "expected a decorator after '@'");
      while (!at(T::Newline) && !at(T::End)) next();
      accept(T::Newline);
      if (at(T::Indent)) syntax(tok(), "unexpected indent");
    }
    if (at(T::Async)) unsupported(tok(), "'async' functions are not supported");
    if (at(T::Class)) unsupported(tok(), "class definitions are not supported");
    if (!at(T::Def))
      syntax(tok(), "expected a function definition ('def'), found " + describe(tok()));
    NodePtr fn = funcdef();
    if (!at(T::End))
      syntax(tok(), "unexpected " + describe(tok()) +
                        " after the function definition (the source must hold one function)");
    return fn;
  }

 private:
  const SourceFile& src_;
  std::vector<Token> toks_;  // never empty: the lexer always ends it with End
  size_t pos_ = 0;
  int depth_ = 0;   // expression nesting, see Nest
  int blocks_ = 0;  // block nesting
  int loops_ = 0;  // loop bodies around the current statement, for break/continue
  std::unordered_map<const Node*, int> heights_;
  std::vector<NodePtr> discarded_;  // kept alive so their addresses stay out of heights_
  // Inline lambdas of the statement being parsed, as defs to go before it (lambda_expr).
  std::vector<NodePtr> lambdas_;

  // ---- Tokens ------------------------------------------------------------------------------

  const Token& tok() const { return toks_[pos_]; }
  const Token& peek(size_t k = 1) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  bool at(T k) const { return tok().kind == k; }
  const Token& next() {
    const Token& t = toks_[pos_];
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  bool accept(T k) {
    if (!at(k)) return false;
    next();
    return true;
  }
  const Token& expect(T k, const std::string& msg) {
    if (!at(k)) syntax(tok(), msg + ", found " + describe(tok()));
    return next();
  }

  [[noreturn]] void syntax(const Token& t, const std::string& msg) { syntax(t.loc, msg); }
  [[noreturn]] void syntax(SourceLoc loc, const std::string& msg) {
    user_error(src_, loc, ErrorKind::Syntax, msg);
  }
  [[noreturn]] void unsupported(const Token& t, const std::string& msg) {
    user_error(src_, t.loc, ErrorKind::Unsupported, msg);
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case T::Newline: return "end of line";
      case T::End: return "end of input";
      case T::Indent: return "an indent";
      case T::Dedent: return "the end of the block";
      default: break;
    }
    std::string text = t.text.substr(0, t.text.find('\n'));
    if (text.size() > 24 || text.size() < t.text.size()) text = text.substr(0, 24) + "...";
    return "'" + text + "'";
  }

  // The location from token i to token j, as one span if they share a line.
  SourceLoc span(size_t i, size_t j) const {
    SourceLoc a = toks_[i].loc, b = toks_[j].loc;
    if (a.line == b.line && b.col + b.len > a.col) a.len = b.col + b.len - a.col;
    return a;
  }

  // Counts one level of the parser's own recursion for as long as it lives.
  struct Nest {
    int& count;
    Nest(Parser& p, const Token& t) : count(p.depth_) {
      if (++count > kMaxDepth) p.syntax(t, "expression nested too deeply");
    }
    Nest(Parser& p, const Token& t, int& counter, int limit, const char* what) : count(counter) {
      if (++count > limit) p.syntax(t, what);
    }
    ~Nest() { --count; }
  };

  // Records the height of a finished expression node; every node with children passes here.
  NodePtr seal(NodePtr n) {
    int h = 0;
    auto see = [&](const Node& c) {
      auto it = heights_.find(&c);
      h = std::max(h, it == heights_.end() ? 1 : it->second);
    };
    ast::for_each_child(*n, see);
    if (++h > kMaxHeight) syntax(n->loc, "expression nested too deeply");
    heights_[n.get()] = h;
    return n;
  }

  // True if `t` can start an expression (used after a trailing comma).
  static bool starts_expression(const Token& t) {
    switch (t.kind) {
      case T::Name: case T::Number: case T::String: case T::True: case T::False: case T::None:
      case T::LParen: case T::LBracket: case T::LBrace: case T::Minus: case T::Plus:
      case T::Tilde: case T::Not: case T::Lambda: case T::Await: case T::Yield: case T::Star:
      case T::DoubleStar: case T::Ellipsis:
        return true;
      default:
        return false;
    }
  }

  // ---- Definitions and statements ----------------------------------------------------------

  // funcdef = "def" NAME "(" (param ("," param)* ","?)? ")" ("->" test)? ":" suite
  NodePtr funcdef() {
    const Token& def = next();
    const Token& name = expect(T::Name, "expected the function name after 'def'");
    NodePtr fn = ast::make(Kind::FunctionDef, name.loc);
    fn->name = name.text;
    expect(T::LParen, "expected '(' after the function name");
    std::unordered_set<std::string> names;
    while (!at(T::RParen)) {
      param(*fn, names);
      if (!accept(T::Comma)) break;
    }
    expect(T::RParen, "expected ',' or ')' in the parameter list");
    if (accept(T::Arrow)) discarded_.push_back(test());  // types come from the signature instead
    expect(T::Colon, "expected ':' after the function signature");
    suite(fn->body, "function definition", def);
    return fn;
  }

  // `name = lambda params: test` is `def name(params): return test` (a nested function, as
  // Numba compiles it). Elsewhere (`sorted(l, key=lambda t: t[1])`, `(lambda y: y)(x)`) the
  // lambda is such a def named __cj_lambda_<line>_<col>, placed before the statement that holds
  // it (making a function runs nothing), and the expression is its name (lambda_expr).
  NodePtr lambda_expr() {
    const Token& kw = tok();
    const std::string name = desugar::lambda_name(kw.loc);
    NodePtr fn = lambda_def(name, true);
    lambdas_.push_back(std::move(fn));
    NodePtr n = ast::make(Kind::Name, kw.loc);
    n->name = name;
    return n;
  }

  NodePtr lambda_def(const std::string& name, bool inline_lambda = false) {
    std::vector<NodePtr> outer = std::exchange(lambdas_, {});  // lambdas in its body stay in it
    const Token& kw = next();
    NodePtr fn = ast::make(Kind::FunctionDef, kw.loc);
    fn->name = name;
    std::unordered_set<std::string> names;
    while (!at(T::Colon)) {  // params as a def's, without annotations
      param(*fn, names, false);
      if (!accept(T::Comma)) break;
    }
    expect(T::Colon, "expected ':' after the lambda's parameters");
    const SourceLoc ret = tok().loc;
    NodePtr value = test();
    fn = desugar::lambda_def(std::move(fn), std::move(value), ret, std::exchange(lambdas_, std::move(outer)));
    if (!inline_lambda && at(T::Comma)) unsupported(tok(), "a tuple holding a lambda is not supported");
    return fn;
  }

  // param = NAME ("=" test)? | "*" NAME    (annotations, **kwargs, keyword-only parameters and
  // markers are refused here). A parameter without a default after one with a default, or after
  // *args, is Python's syntax error or a keyword-only parameter.
  void param(Node& fn, std::unordered_set<std::string>& names, bool annotations = true) {
    const Token& t = tok();
    bool star = false;
    const bool after_star = !fn.params.empty() && fn.params.back().star;
    if (at(T::Star)) {
      if (!peek().is(T::Name)) unsupported(t, "keyword-only parameters ('*') are not supported");
      if (after_star) syntax(t, "* argument may appear only once");
      next();
      star = true;
    }
    if (at(T::DoubleStar)) unsupported(t, "**kwargs parameters are not supported");
    if (at(T::Slash)) unsupported(t, "positional-only parameters ('/') are not supported");
    if (!at(T::Name)) syntax(tok(), "expected a parameter name, found " + describe(tok()));
    const Token& n = next();
    if (after_star) unsupported(n, "keyword-only parameters (after *" + fn.params.back().name + ") are not supported");
    if (!names.insert(n.text).second)
      syntax(n, "duplicate argument '" + n.text + "' in function definition");
    fn.params.push_back({n.text, n.loc});
    fn.params.back().star = star;
    if (annotations && at(T::Colon)) unsupported(tok(), "parameter annotations are not supported");
    if (at(T::Assign)) {
      if (star) syntax(tok(), "var-positional argument cannot have default value");
      next();
      fn.params.back().dflt = std::shared_ptr<const Node>(test());
    } else if (!star && fn.params.size() > 1 && fn.params[fn.params.size() - 2].dflt) {
      syntax(n, "non-default argument follows default argument");
    }
  }

  // suite = simple_stmts | NEWLINE INDENT stmt+ DEDENT
  void suite(std::vector<NodePtr>& body, const char* what, const Token& head) {
    if (!at(T::Newline)) {  // `def f(l): return sorted(l, key=lambda t: t[1])`: its lambdas go in the body
      std::vector<NodePtr> outer = std::exchange(lambdas_, {});
      const size_t first = body.size();
      simple_stmts(body);
      desugar::hoist_lambdas(body, first, std::exchange(lambdas_, std::move(outer)));
      return;
    }
    next();
    if (!at(T::Indent))
      syntax(tok(), std::string("expected an indented block after ") + what + " on line " +
                        std::to_string(head.loc.line));
    Nest nest(*this, tok(), blocks_, kMaxBlocks, "statements nested too deeply");
    next();
    while (!at(T::Dedent) && !at(T::End)) statement(body);
    accept(T::Dedent);
  }

  // stmt = if_stmt | while_stmt | for_stmt | simple_stmts
  void statement(std::vector<NodePtr>& out) {
    // The inline lambdas of this statement (its header's, for a compound one) go before it.
    std::vector<NodePtr> outer = std::exchange(lambdas_, {});
    const size_t at = out.size();
    statement_of(out);
    desugar::hoist_lambdas(out, at, std::exchange(lambdas_, std::move(outer)));
  }

  void statement_of(std::vector<NodePtr>& out) {
    switch (tok().kind) {
      case T::If: out.push_back(if_stmt()); return;
      case T::While: out.push_back(while_stmt()); return;
      case T::For: out.push_back(for_stmt()); return;
      case T::Try: try_stmt(out); return;
      case T::Def: {  // a nested function (typeinfer_nested.cpp lifts it out before typing)
        const int loops = std::exchange(loops_, 0);  // break/continue do not cross a def
        out.push_back(funcdef());
        loops_ = loops;
        return;
      }
      default: simple_stmts(out); return;
    }
  }

  // simple_stmts = simple_stmt (";" simple_stmt)* ";"? NEWLINE
  void simple_stmts(std::vector<NodePtr>& out) {
    while (true) {
      out.push_back(simple_stmt());
      if (!accept(T::Semicolon) || at(T::Newline)) break;
    }
    if (!accept(T::Newline) && !at(T::End))
      syntax(tok(), "unexpected " + describe(tok()) + " after the statement");
  }

  // Python statements outside the subset, recognised at their first token.
  void refuse_statement(const Token& t) {
    const char* msg = nullptr;
    switch (t.kind) {
      case T::Class: msg = "class definitions are not supported"; break;
      case T::With: msg = "'with' statements are not supported"; break;
      case T::Global: msg = "'global' statements are not supported"; break;
      case T::Nonlocal: msg = "'nonlocal' statements are not supported"; break;
      case T::Import: msg = "'import' statements are not supported"; break;
      case T::From: msg = "'from ... import' statements are not supported"; break;
      case T::Async: msg = "'async' statements are not supported"; break;
      case T::Name:
        if (t.text == "match" && is_match_statement()) msg = "'match' statements are not supported";
        break;
      default: break;
    }
    if (msg) unsupported(t, msg);
  }

  // `match` is a soft keyword: it starts a match statement only where the logical line reads
  // `match <subject>:`, which no expression statement or assignment can end with.
  bool is_match_statement() const {
    const Token& after = peek();
    if (after.is(T::Assign) || after.is(T::Colon) || after.is(T::Dot) || after.is(T::Newline))
      return false;
    size_t i = pos_ + 1;
    while (i + 1 < toks_.size() && !toks_[i + 1].is(T::Newline) && !toks_[i + 1].is(T::End)) ++i;
    return toks_[i].is(T::Colon);
  }

  // simple_stmt = "pass" | "break" | "continue" | "return" testlist? | expr_stmt
  NodePtr simple_stmt() {
    const Token& t = tok();
    refuse_statement(t);
    switch (t.kind) {
      case T::Pass: next(); return ast::make(Kind::Pass, t.loc);
      case T::Raise: {
        next();
        NodePtr n = ast::make(Kind::Raise, t.loc);
        if (!at(T::Newline) && !at(T::Semicolon) && !at(T::End)) n->exc() = test();
        if (accept(T::From)) n->cause() = test();
        return n;
      }
      case T::Assert: return assert_stmt();
      case T::Del: {  // del_stmt = "del" target ("," target)*: items of a dict (typed in typeinfer)
        next();
        NodePtr n = ast::make(Kind::Delete, t.loc);
        do {
          NodePtr target = primary();
          if (!target->is(Kind::Subscript)) unsupported(t, "'del' statements are not supported (but `del d[key]` of a dict is)");
          n->targets().push_back(std::move(target));
        } while (accept(T::Comma) && !at(T::Newline));
        return n;
      }
      case T::Break:
      case T::Continue:
        if (loops_ == 0) syntax(t, "'" + t.text + "' outside loop");
        next();
        return ast::make(t.is(T::Break) ? Kind::Break : Kind::Continue, t.loc);
      case T::Return: {
        next();
        NodePtr n = ast::make(Kind::Return, t.loc);
        if (!at(T::Newline) && !at(T::Semicolon) && !at(T::End)) n->value() = testlist();
        return n;
      }
      case T::If: case T::While: case T::For:
        syntax(t, "'" + t.text + "' statement must start its own line");
      case T::Elif: syntax(t, "'elif' without a matching 'if'");
      case T::Else: syntax(t, "'else' without a matching 'if', 'for' or 'while'");
      case T::Indent: syntax(t, "unexpected indent");
      default: return expr_stmt();
    }
  }

  // expr_stmt = testlist (augop testlist | ("=" testlist)*)
  // augop     = "+=" | "-=" | "*=" | "/=" | "//=" | "%=" | "**=" | "@=" | "&=" | "|=" | "^="
  //           | "<<=" | ">>="
  NodePtr expr_stmt() {
    NodePtr first = testlist();
    Op op = find_op(tok().kind, kAugmented);
    if (op != Op::None) {
      const Token& t = next();
      check_target(*first, true);
      NodePtr n = make(Kind::AugAssign, t.loc, op);
      n->target() = std::move(first);
      n->rhs() = testlist();
      return n;
    }
    if (at(T::Colon)) unsupported(tok(), "variable annotations are not supported");
    if (at(T::Assign)) {
      NodePtr n = ast::make(Kind::Assign, tok().loc);
      NodePtr value = std::move(first);
      while (accept(T::Assign)) {
        check_target(*value, false);
        n->targets().push_back(std::move(value));
        if (at(T::Lambda) && n->targets().size() == 1 && n->targets()[0]->is(Kind::Name)) return lambda_def(n->targets()[0]->name);
        value = testlist();
      }
      n->rhs() = std::move(value);
      return n;
    }
    SourceLoc loc = first->loc;
    NodePtr n = ast::make(Kind::Expr, loc);
    n->value() = std::move(first);
    return n;
  }

  // Refuses what cannot be assigned to (augmented: a single name, subscript or attribute).
  void check_target(const Node& n, bool aug) {
    switch (n.kind) {
      case Kind::Name: case Kind::Subscript: case Kind::Attribute: return;
      case Kind::Tuple:
      case Kind::List:
        if (aug)
          syntax(n.loc, std::string("'") + (n.is(Kind::Tuple) ? "tuple" : "list") +
                            "' is an illegal expression for augmented assignment");
        if (n.is(Kind::List))
          user_error(src_, n.loc, ErrorKind::Unsupported,
                     "assignment to a list of targets is not supported; use a tuple");
        for (const NodePtr& e : n.elts()) check_target(*e, false);
        return;
      case Kind::Call: syntax(n.loc, "cannot assign to a function call");
      case Kind::Constant:
        if (n.cval.tag == Tag::Bool)
          syntax(n.loc, n.cval.b ? "cannot assign to True" : "cannot assign to False");
        if (n.cval.tag == Tag::None) syntax(n.loc, "cannot assign to None");
        syntax(n.loc, "cannot assign to a literal");
      default: syntax(n.loc, "cannot assign to an expression");
    }
  }

  // if_stmt = "if" test ":" suite ("elif" test ":" suite)* ("else" ":" suite)?
  NodePtr if_stmt() {
    NodePtr top;
    Node* last = nullptr;  // elif chains are built in a loop: each is an If alone in orelse
    int clauses = 0;
    do {
      const Token& kw = next();
      if (++clauses > kMaxHeight) syntax(kw, "too many 'elif' clauses");
      bool is_if = kw.is(T::If);
      NodePtr n = ast::make(Kind::If, kw.loc);
      n->test() = test();
      expect(T::Colon, is_if ? "expected ':' after the if condition"
                             : "expected ':' after the elif condition");
      suite(n->body, is_if ? "'if' statement" : "'elif' statement", kw);
      Node* raw = n.get();
      if (last) last->orelse.push_back(std::move(n));
      else top = std::move(n);
      last = raw;
    } while (at(T::Elif));
    else_clause(*last);
    return top;
  }

  // else_clause = ("else" ":" suite)?
  void else_clause(Node& n) {
    if (!at(T::Else)) return;
    const Token& kw = next();
    expect(T::Colon, "expected ':' after 'else'");
    suite(n.orelse, "'else' statement", kw);
  }

  // assert_stmt = "assert" test ("," test)?: an `if` that raises (desugar::assert_stmt).
  NodePtr assert_stmt() {
    const Token& kw = next();
    NodePtr cond = test();
    NodePtr msg = accept(T::Comma) ? test() : nullptr;
    return desugar::assert_stmt(kw.loc, std::move(cond), std::move(msg));
  }

  // try_stmt = "try" ":" suite ("except" (test ("as" NAME)?)? ":" suite)+ ("else" ":" suite)?
  // As Numba's nopython mode: the handlers catch everything (bare, or `except Exception`;
  // typeinfer_exc.cpp checks the class), so the first one is the only one that runs; each
  // handler's class goes into the Try's list for those checks. An else clause becomes a flag
  // the try body sets at its end and an `if flag:` after the statement (desugar::try_else, parser_desugar.cpp).
  void try_stmt(std::vector<NodePtr>& out) {
    const Token& kw = next();
    NodePtr n = ast::make(Kind::Try, kw.loc);
    expect(T::Colon, "expected ':' after 'try'");
    suite(n->body, "'try' statement", kw);
    if (at(T::Finally)) unsupported(tok(), "'try' with 'finally' is not supported");
    if (!at(T::Except)) syntax(tok(), "expected 'except' or 'finally' block");
    bool first = true;
    while (at(T::Except)) {
      const Token& ex = next();
      NodePtr cls = nullptr;
      if (!at(T::Colon)) {
        cls = test();
        if (at(T::As)) {
          next();
          const Token& name = tok();
          unsupported(name, "Exception object cannot be stored into variable (" + name.text + ").");
        }
      }
      expect(T::Colon, "expected ':' after the except clause");
      std::vector<NodePtr> body;
      suite(body, "'except' statement", ex);
      desugar::add_handler(*n, std::move(cls), ex.loc, std::move(body), first);
      first = false;
    }
    std::vector<NodePtr> else_body;
    if (at(T::Else)) {
      const Token& e = next();
      expect(T::Colon, "expected ':' after 'else'");
      suite(else_body, "'else' statement", e);
    }
    if (at(T::Finally)) unsupported(tok(), "'try' with 'finally' is not supported");
    if (else_body.empty()) {
      out.push_back(std::move(n));
      return;
    }
    desugar::try_else(std::move(n), std::move(else_body), out);
  }

  // while_stmt = "while" test ":" suite ("else" ":" suite)?
  NodePtr while_stmt() {
    const Token& kw = next();
    NodePtr n = ast::make(Kind::While, kw.loc);
    n->test() = test();
    expect(T::Colon, "expected ':' after the while condition");
    ++loops_;
    suite(n->body, "'while' statement", kw);
    --loops_;
    else_clause(*n);
    return n;
  }

  // for_stmt    = "for" for_targets "in" testlist ":" suite ("else" ":" suite)?
  // for_targets = bitor ("," bitor)* ","?        (names, or tuples of names)
  NodePtr for_stmt() {
    const Token& kw = next();
    NodePtr n = ast::make(Kind::For, kw.loc);
    // Items below comparisons, so that `in` ends the target.
    NodePtr target = comma_list([&] { return binary(0); }, [&] { return !at(T::In); });
    check_for_target(*target);
    n->target() = std::move(target);
    expect(T::In, "expected 'in' after the for-loop target");
    n->iter() = testlist();
    expect(T::Colon, "expected ':' after the for-loop iterable");
    ++loops_;
    suite(n->body, "'for' statement", kw);
    --loops_;
    else_clause(*n);
    return n;
  }

  void check_for_target(const Node& n) {
    if (n.is(Kind::Name)) return;
    if (n.is(Kind::Tuple)) {
      for (const NodePtr& e : n.elts()) check_for_target(*e);
      return;
    }
    if (n.is(Kind::Subscript) || n.is(Kind::Attribute) || n.is(Kind::List))
      user_error(src_, n.loc, ErrorKind::Unsupported,
                 "for-loop targets must be names or tuples of names");
    check_target(n, false);
  }

  // ---- Expressions -------------------------------------------------------------------------

  // item_list = item ("," item)* ","?        (a Tuple when there is a comma; `more` says whether
  //                                            an item follows a comma)
  template <class Item, class More>
  NodePtr comma_list(Item item, More more) {
    size_t start = pos_;
    NodePtr first = item();
    if (!at(T::Comma)) return first;
    NodePtr tup = ast::make(Kind::Tuple, first->loc);
    tup->elts().push_back(std::move(first));
    while (accept(T::Comma) && more()) tup->elts().push_back(item());
    tup->loc = span(start, pos_ - 1);
    return seal(std::move(tup));
  }

  // testlist = test ("," test)* ","?
  NodePtr testlist() {
    return comma_list([&] { return test(); }, [&] { return starts_expression(tok()); });
  }

  // test = or_test ("if" or_test "else" test)?
  NodePtr test() {
    Nest nest(*this, tok());
    if (at(T::Lambda)) return lambda_expr();
    NodePtr body = or_test();
    if (at(T::ColonEqual)) {  // named_expression = NAME ":=" test (Python parsed the source: where it may stand is checked)
      const Token& op = next();
      if (!body->is(Kind::Name)) user_error(src_, body->loc, ErrorKind::Syntax, "cannot use assignment expressions with this target");
      NodePtr n = make(Kind::NamedExpr, op.loc, Op::None);
      n->target() = std::move(body);
      n->rhs() = test();
      return seal(std::move(n));
    }
    if (!at(T::If)) return body;
    const Token& kw = next();
    NodePtr n = make(Kind::IfExp, kw.loc, Op::None);
    n->test() = or_test();
    n->if_true() = std::move(body);
    expect(T::Else, "expected 'else' after the condition of the conditional expression");
    n->if_false() = test();
    return seal(std::move(n));
  }

  // or_test  = and_test ("or" and_test)*
  // and_test = not_test ("and" not_test)*
  NodePtr bool_op(bool is_or) {
    T kw = is_or ? T::Or : T::And;
    NodePtr first = is_or ? bool_op(false) : not_test();
    if (!at(kw)) return first;
    NodePtr n = ast::make(Kind::BoolOp, tok().loc);
    n->op = is_or ? Op::Or : Op::And;
    n->values().push_back(std::move(first));
    while (accept(kw)) n->values().push_back(is_or ? bool_op(false) : not_test());
    return seal(std::move(n));
  }
  NodePtr or_test() { return bool_op(true); }

  // not_test = "not" not_test | comparison
  NodePtr not_test() {
    if (!at(T::Not)) return comparison();
    const Token& t = next();
    Nest nest(*this, t);
    NodePtr n = make(Kind::UnaryOp, t.loc, Op::Not);
    n->operand() = not_test();
    return seal(std::move(n));
  }

  // comp_op = "<" | ">" | "==" | ">=" | "<=" | "!=" | "in" | "not" "in" | "is" | "is" "not"
  bool comp_op(Op* op, SourceLoc* loc) {
    bool two = (at(T::Not) && peek().is(T::In)) || (at(T::Is) && peek().is(T::Not));
    *op = two ? (at(T::Not) ? Op::NotIn : Op::IsNot) : find_op(tok().kind, kCompare);
    if (*op == Op::None) return false;
    *loc = span(pos_, pos_ + (two ? 1 : 0));
    next();
    if (two) next();
    return true;
  }

  // comparison = bitor (comp_op bitor)*        (one Compare node for a chain: a < b <= c)
  NodePtr comparison() {
    NodePtr left = binary(0);
    Op op;
    SourceLoc loc;
    if (!comp_op(&op, &loc)) return left;
    NodePtr n = ast::make(Kind::Compare, loc);
    n->lhs() = std::move(left);
    do {
      n->ops.push_back(op);
      n->comparators().push_back(binary(0));
    } while (comp_op(&op, &loc));
    return seal(std::move(n));
  }

  // bitor  = bitxor ("|" bitxor)*                       (level 0)
  // bitxor = bitand ("^" bitand)*                       (level 1)
  // bitand = shift ("&" shift)*                         (level 2)
  // shift  = arith (("<<" | ">>") arith)*               (level 3)
  // arith  = term (("+" | "-") term)*                   (level 4)
  // term   = factor (("*" | "/" | "//" | "%" | "@") factor)*   (level 5)
  NodePtr binary(int level) {
    auto operand = [&] { return level == 5 ? factor() : binary(level + 1); };
    NodePtr left = operand();
    Op op;
    while ((op = find_op(tok().kind, level)) != Op::None) {
      const Token& t = next();
      NodePtr n = make(Kind::BinOp, t.loc, op);
      n->lhs() = std::move(left);
      n->rhs() = operand();
      left = std::move(n);
      left = seal(std::move(left));
    }
    return left;
  }

  // factor = ("+" | "-" | "~") factor | power
  NodePtr factor() {
    Op op = at(T::Plus) ? Op::UAdd : at(T::Minus) ? Op::USub : at(T::Tilde) ? Op::Invert : Op::None;
    if (op == Op::None) return power();
    const Token& t = next();
    Nest nest(*this, t);
    NodePtr n = make(Kind::UnaryOp, t.loc, op);
    n->operand() = factor();
    return seal(std::move(n));
  }

  // power = primary ("**" factor)?        (right-associative; -x**2 is -(x**2), 2**-1 is allowed)
  NodePtr power() {
    NodePtr base = primary();
    if (!at(T::DoubleStar)) return base;
    const Token& t = next();
    Nest nest(*this, t);
    NodePtr n = make(Kind::BinOp, t.loc, Op::Pow);
    n->lhs() = std::move(base);
    n->rhs() = factor();
    return seal(std::move(n));
  }

  // primary = atom ("." NAME | call | "[" subscripts "]")*
  NodePtr primary() {
    size_t start = pos_;
    NodePtr e = atom();
    while (true) {
      if (accept(T::Dot)) {
        const Token& name = expect(T::Name, "expected an attribute name after '.'");
        NodePtr n = ast::make(Kind::Attribute, name.loc);
        n->value() = std::move(e);
        n->name = name.text;
        e = seal(std::move(n));
      } else if (at(T::LParen)) {
        e = call(std::move(e), start);
      } else if (at(T::LBracket)) {
        const Token& lb = next();
        NodePtr n = ast::make(Kind::Subscript, lb.loc);
        n->value() = std::move(e);
        n->index() = subscripts();
        expect(T::RBracket, "expected ']' after the subscript");
        e = seal(std::move(n));
      } else {
        return e;
      }
    }
  }

  // call = "(" (arg ("," arg)* ","?)? ")"
  // arg  = test | NAME "=" test        (no positional argument after a keyword argument)
  NodePtr call(NodePtr callee, size_t start) {
    size_t lparen = pos_;
    next();
    NodePtr n = ast::make(Kind::Call, toks_[start].loc);
    n->func() = std::move(callee);
    std::unordered_set<std::string> names;  // keyword arguments so far
    while (!at(T::RParen)) {
      if (at(T::Star)) {  // f(*t): the typer puts t's items in its place (typeinfer_calls.cpp)
        if (!n->keywords.empty()) unsupported(tok(), "argument unpacking (*args) after keyword arguments is not supported");
        const Token& star = next();
        NodePtr s = ast::make(Kind::Starred, star.loc);
        s->value() = test();
        n->args().push_back(seal(std::move(s)));
        if (!accept(T::Comma)) break;
        continue;
      }
      if (at(T::DoubleStar)) unsupported(tok(), "argument unpacking (**kwargs) is not supported");
      if (at(T::Name) && peek().is(T::Assign)) {
        const Token& name = next();
        next();
        if (!names.insert(name.text).second)
          syntax(name, "keyword argument repeated: " + name.text);
        n->keywords.push_back({name.text, name.loc, test()});
      } else {
        if (!n->keywords.empty()) syntax(tok(), "positional argument follows keyword argument");
        n->args().push_back(test());
        if (at(T::For)) unsupported(tok(), "generator expressions are not supported");
      }
      if (!accept(T::Comma)) break;
    }
    const Token& rp = expect(T::RParen, "expected ',' or ')' in the call arguments");
    // The whole call if it fits on its line, else the callee as far as it does.
    const Token& first = toks_[start];
    if (rp.loc.line == first.loc.line) n->loc = span(start, pos_ - 1);
    else if (lparen > start && toks_[lparen - 1].loc.line == first.loc.line)
      n->loc = span(start, lparen - 1);
    return seal(std::move(n));
  }

  // subscripts = subscript ("," subscript)* ","?
  NodePtr subscripts() {
    return comma_list([&] { return subscript(); }, [&] { return !at(T::RBracket); });
  }

  // subscript = test | test? ":" test? (":" test?)?
  NodePtr subscript() {
    // `...` in an index: a Name the typer expands into full slices once the array's ndim is known
    // (Typer::subscript); "..." is no identifier, so it names nothing else.
    if (at(T::Ellipsis) && (peek().is(T::Comma) || peek().is(T::RBracket))) {
      NodePtr n = ast::make(Kind::Name, next().loc);
      n->name = "...";
      return n;
    }
    NodePtr lower;
    if (!at(T::Colon)) {
      lower = test();
      if (!at(T::Colon)) return lower;
    }
    const Token& colon = next();
    NodePtr s = ast::make(Kind::Slice, colon.loc);
    s->lower() = std::move(lower);
    auto ends = [&] { return at(T::Colon) || at(T::Comma) || at(T::RBracket); };
    if (!ends()) s->upper() = test();
    if (accept(T::Colon) && !ends()) s->step() = test();
    return seal(std::move(s));
  }

  // atom = NAME | NUMBER | STRING+ | "True" | "False" | "None" | paren | list | dict
  NodePtr atom() {
    const Token& t = tok();
    switch (t.kind) {
      case T::Name: {
        NodePtr n = ast::make(Kind::Name, next().loc);
        n->name = t.text;
        return n;
      }
      case T::Number: return number();
      case T::String: return strings();
      case T::True: case T::False: {
        NodePtr n = constant(next(), Tag::Bool);
        n->cval.b = t.is(T::True);
        return n;
      }
      case T::None: return constant(next(), Tag::None);
      case T::LParen: return paren();
      case T::LBracket: return list_display();
      case T::LBrace: return dict_display();
      case T::Star: unsupported(t, "star expressions (*x) are not supported");
      case T::DoubleStar: unsupported(t, "'**' unpacking is not supported");
      case T::Ellipsis: unsupported(t, "'...' (Ellipsis) is not supported");
      case T::Lambda: return lambda_expr();
      case T::Yield: unsupported(t, "'yield' is not supported (generators cannot be compiled)");
      case T::Await: unsupported(t, "'await' expressions are not supported");
      case T::Indent: syntax(t, "unexpected indent");
      default: syntax(t, "expected an expression, found " + describe(t));
    }
  }

  static NodePtr constant(const Token& t, Tag tag) {
    NodePtr n = ast::make(Kind::Constant, t.loc);
    n->cval.tag = tag;
    return n;
  }

  NodePtr number() {
    const Token& t = next();
    NodePtr n = constant(t, t.is_imaginary ? Tag::Imag : t.is_float ? Tag::Float : Tag::Int);
    n->cval.f = t.is_float ? t.float_value : 0.0;
    n->cval.i = t.is_float ? 0 : t.int_value;
    n->cval.big_int = t.big_int;
    n->cval.fits_uint64 = t.fits_uint64;
    return n;
  }

  // strings = STRING+        (adjacent literals are one constant, as in Python)
  // A bytes literal is a Bytes constant, typed only where a record's bytes field takes it
  // (typeinfer_charseq.cpp); Python refuses mixing it with str literals before cujit sees it.
  NodePtr strings() {
    NodePtr n = constant(tok(), tok().is_bytes ? Tag::Bytes : Tag::Str);
    while (at(T::String)) {
      const Token& t = next();
      n->cval.s += t.str_value;
    }
    return n;
  }

  // paren = "(" ")" | "(" test ")" | "(" test "," (test ("," test)* ","?)? ")"
  NodePtr paren() {
    size_t start = pos_;
    const Token& lp = next();
    const std::string close =
        "expected ')' to close the '(' on line " + std::to_string(lp.loc.line);
    if (accept(T::RParen)) return ast::make(Kind::Tuple, span(start, pos_ - 1));
    NodePtr first = test();
    if (at(T::For)) unsupported(tok(), "generator expressions are not supported");
    if (accept(T::RParen)) return first;
    if (!at(T::Comma)) syntax(tok(), close + ", found " + describe(tok()));
    NodePtr tup = ast::make(Kind::Tuple, lp.loc);
    tup->elts().push_back(std::move(first));
    while (accept(T::Comma) && !at(T::RParen)) tup->elts().push_back(test());
    expect(T::RParen, close);
    tup->loc = span(start, pos_ - 1);
    return seal(std::move(tup));
  }

  // list = "[" (test ("," test)* ","?)? "]"
  NodePtr list_display() {
    size_t start = pos_;
    next();
    NodePtr n = ast::make(Kind::List, tok().loc);
    while (!at(T::RBracket)) {
      n->elts().push_back(test());
      if (n->elts().size() == 1 && at(T::For)) return list_comprehension(std::move(n->elts()[0]), start);
      if (!accept(T::Comma)) break;
    }
    expect(T::RBracket, "expected ',' or ']' in the list");
    n->loc = span(start, pos_ - 1);
    return seal(std::move(n));
  }

  // listcomp = "[" test comp_for+ "]"
  // comp_for = "for" target_list "in" or_test ("if" or_test)*
  NodePtr list_comprehension(NodePtr elt, size_t start) {
    NodePtr n = ast::make(Kind::ListComp, elt->loc);
    n->elt() = std::move(elt);
    while (at(T::For)) {
      const Token& kw = next();
      NodePtr c = ast::make(Kind::Comprehension, kw.loc);
      NodePtr target = comma_list([&] { return binary(0); }, [&] { return !at(T::In); });
      check_for_target(*target);
      c->target() = std::move(target);
      expect(T::In, "expected 'in' after the comprehension's target");
      c->iter() = or_test();
      while (accept(T::If)) c->ifs().push_back(or_test());
      n->generators().push_back(seal(std::move(c)));
    }
    expect(T::RBracket, "expected ']' to close the list comprehension");
    n->loc = span(start, pos_ - 1);
    return seal(std::move(n));
  }

  // dict = "{" (test ":" test ("," test ":" test)* ","?)? "}"
  // set  = "{" test ("," test)* ","? "}"
  NodePtr dict_display() {
    size_t start = pos_;
    const Token& lb = next();
    NodePtr n = ast::make(Kind::Dict, lb.loc);
    while (!at(T::RBrace)) {
      if (at(T::DoubleStar)) unsupported(tok(), "'**' unpacking is not supported");
      if (at(T::Star)) unsupported(tok(), "'*' unpacking is not supported");
      n->keys_values().push_back(test());
      if (n->keys_values().size() == 1 && at(T::For)) unsupported(tok(), "set comprehensions are not supported");
      if (n->keys_values().size() == 1 && (at(T::Comma) || at(T::RBrace))) {  // a set display
        n->kind = Kind::Set;
        while (accept(T::Comma) && !at(T::RBrace)) n->elts().push_back(test());
        break;
      }
      expect(T::Colon, "expected ':' after the dictionary key");
      n->keys_values().push_back(test());
      if (n->keys_values().size() == 2 && at(T::For))
        unsupported(tok(), "dict comprehensions are not supported");
      if (!accept(T::Comma)) break;
    }
    expect(T::RBrace, "expected ',' or '}' in the dictionary");
    n->loc = span(start, pos_ - 1);
    return seal(std::move(n));
  }
};

}  // namespace

ast::Module parse(const SourceFile& src) {
  Parser p(src, tokenize(src));
  ast::Module m;
  m.func = p.module();
  m.source = src;
  return m;
}

}  // namespace cujit
