// Tests of the lexer and parser (src/compiler/{lexer,parser,ast}.cpp): every supported construct
// against its tree dump, every refused construct against its message and line:col, and random
// inputs that must end in a CompileError or a tree, never a crash. Run by tests_cpp/run.sh.
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "compiler/ast.h"
#include "compiler/lexer.h"
#include "compiler/parser.h"

using namespace cujit;

namespace {

int g_failures = 0;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::cerr << "  FAILED " << __FILE__ << ":" << __LINE__ << ": " #cond "\n";   \
      ++g_failures;                                                                 \
    }                                                                               \
  } while (0)

SourceFile source(const std::string& text, int first_line = 1) {
  SourceFile s;
  s.filename = "test.py";
  s.text = text;
  s.first_line = first_line;
  return s;
}

// Removes the " @line:col" that dump() prints after each node, for shape-only comparisons.
std::string strip_locs(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ' ' && i + 2 < s.size() && s[i + 1] == '@' && isdigit((unsigned char)s[i + 2])) {
      i += 2;
      while (i < s.size() && s[i] != '\n' && s[i] != ' ') ++i;
      --i;
      continue;
    }
    out += s[i];
  }
  return out;
}

// Wraps statement lines in `def f():` and returns the dump of the body, without locations.
std::string body_dump(const std::string& stmts) {
  std::string text = "def f():\n";
  size_t p = 0;
  while (p <= stmts.size()) {
    size_t e = stmts.find('\n', p);
    if (e == std::string::npos) e = stmts.size();
    text += "    " + stmts.substr(p, e - p) + "\n";
    p = e + 1;
  }
  ast::Module m = parse(source(text));
  std::string out;
  for (const auto& s : m.func->body) out += ast::dump(*s, 0);
  return strip_locs(out);
}

void expect_body(const std::string& stmts, const std::string& want) {
  std::string got;
  try {
    got = body_dump(stmts);
  } catch (const CompileError& e) {
    got = std::string("error: ") + e.what();
  }
  if (got != want) {
    std::cerr << "  FAILED: for\n" << stmts << "\n  got:\n" << got << "  want:\n" << want;
    ++g_failures;
  }
}

std::string shorten(const std::string& text) {
  return text.size() > 300 ? text.substr(0, 300) + "..." : text;
}

// The error that `text` (a whole file) raises; checks its kind, message and line:col.
void expect_error(const std::string& text, ErrorKind kind, const std::string& message, int line,
                  int col, int first_line = 1) {
  try {
    ast::Module m = parse(source(text, first_line));
    std::cerr << "  FAILED: no error for:\n" << shorten(text) << "\n  want: " << message << "\n";
    ++g_failures;
  } catch (const CompileError& e) {
    bool ok = e.kind == kind && e.message == message && e.loc.line == line && e.loc.col == col;
    if (!ok) {
      std::cerr << "  FAILED: for:\n" << shorten(text) << "\n  got (" << (int)e.kind << ") "
                << e.message << " at " << e.loc.line << ":" << e.loc.col << "\n  want ("
                << (int)kind << ") " << message << " at " << line << ":" << col << "\n";
      ++g_failures;
    }
  }
}

// Statement lines wrapped in `def f():`; the error's line counts from that header (line 1).
void expect_body_error(const std::string& stmt, ErrorKind kind, const std::string& message,
                       int col) {
  expect_error("def f():\n    " + stmt + "\n", kind, message, 2, col + 4);
}

const ast::Node& first_stmt(const ast::Module& m) { return *m.func->body.at(0); }

// ---- Lexer -----------------------------------------------------------------------------------

std::string kinds(const std::string& text) {
  std::string out;
  for (const Token& t : tokenize(source(text))) {
    if (!out.empty()) out += ' ';
    switch (t.kind) {
      case TokenKind::Newline: out += "NL"; break;
      case TokenKind::Indent: out += "IN"; break;
      case TokenKind::Dedent: out += "DE"; break;
      case TokenKind::End: out += "END"; break;
      default: out += t.text;
    }
  }
  return out;
}

void test_layout() {
  CHECK(kinds("a\n") == "a NL END");
  CHECK(kinds("a") == "a NL END");
  CHECK(kinds("") == "END");
  CHECK(kinds("if x:\n    y\nz\n") == "if x : NL IN y NL DE z NL END");
  CHECK(kinds("if x:\n    if y:\n        z\n") == "if x : NL IN if y : NL IN z NL DE DE END");
  // Blank lines, comment-only lines (at any indentation) and comments produce nothing.
  CHECK(kinds("a  # c\n\n   \n      # deep comment\n\nb\n") == "a NL b NL END");
  // No line ends or indentation inside brackets; backslash joins lines.
  CHECK(kinds("f(a,\n      b\n)\nc\n") == "f ( a , b ) NL c NL END");
  CHECK(kinds("x = 1 + \\\n        2\n") == "x = 1 + 2 NL END");
  CHECK(kinds("x = [\n  1,  # one\n\n  2]\n") == "x = [ 1 , 2 ] NL END");
  // A tab goes to the next multiple of 8: 8 spaces and one tab are the same level.
  CHECK(kinds("if x:\n\ty\n        z\n") == "if x : NL IN y NL z NL DE END");
  CHECK(kinds("if x:\n  \ty\n\tz\n") == "if x : NL IN y NL z NL DE END");
  CHECK(kinds("a\r\nb\r\n") == "a NL b NL END");
  CHECK(kinds("x **= 2 // 3 ... -> := != <<= >>=") ==
        "x **= 2 // 3 ... -> := != <<= >>= NL END");

  auto toks = tokenize(source("def f():\n  x = 1\n", 10));
  CHECK(toks[0].is(TokenKind::Def) && toks[0].loc.line == 10 && toks[0].loc.col == 0 &&
        toks[0].loc.len == 3);
  CHECK(toks[1].is(TokenKind::Name) && toks[1].loc.col == 4);
  CHECK(toks[5].is(TokenKind::Newline) && toks[5].loc.line == 10 && toks[5].loc.col == 8);
  CHECK(toks[6].is(TokenKind::Indent) && toks[6].loc.line == 11 && toks[6].loc.col == 2);
  CHECK(toks[7].text == "x" && toks[7].loc.line == 11 && toks[7].loc.col == 2);
  CHECK(toks.back().is(TokenKind::End));
  CHECK(std::string(token_kind_name(TokenKind::DoubleStar)) == "**");
  CHECK(std::string(token_kind_name(TokenKind::Def)) == "def");
  CHECK(std::string(token_kind_name(TokenKind::Name)) == "identifier");
}

void test_numbers() {
  auto num = [](const std::string& text) {
    auto toks = tokenize(source(text));
    CHECK(toks.size() == 3 && toks[0].is(TokenKind::Number));
    return toks[0];
  };
  CHECK(num("0").int_value == 0);
  CHECK(num("42").int_value == 42);
  CHECK(num("1_000_000").int_value == 1000000);
  CHECK(num("0x_Ff").int_value == 255);
  CHECK(num("0o17").int_value == 15);
  CHECK(num("0b1010_1010").int_value == 170);
  CHECK(num("000").int_value == 0);
  CHECK(num("9223372036854775807").int_value == INT64_MAX && !num("9223372036854775807").big_int);
  Token big = num("9223372036854775808");
  CHECK(big.big_int && (uint64_t)big.int_value == 9223372036854775808ull);
  Token huge = num("0x1_0000_0000_0000_0001");  // 2**64 + 1: low 64 bits are 1
  CHECK(huge.big_int && huge.int_value == 1);
  Token t = num("1.5");
  CHECK(t.is_float && t.float_value == 1.5);
  CHECK(num("1.").is_float && num("1.").float_value == 1.0);
  CHECK(num(".5").float_value == 0.5);
  CHECK(num("1e3").is_float && num("1e3").float_value == 1000.0);
  CHECK(num("2.5E-2").float_value == 0.025);
  CHECK(num("1_0.2_5e+0_1").float_value == 102.5);
  CHECK(num("1e400").float_value > 1e308);
  CHECK(num("3j").is_imaginary);

  expect_error("x = 1__0\n", ErrorKind::Syntax, "invalid decimal literal", 1, 4);
  expect_error("x = 10_\n", ErrorKind::Syntax, "invalid decimal literal", 1, 4);
  expect_error("x = 12abc\n", ErrorKind::Syntax, "invalid decimal literal", 1, 4);
  expect_error("x = 1e\n", ErrorKind::Syntax, "invalid decimal literal", 1, 4);
  expect_error("x = 0x\n", ErrorKind::Syntax, "invalid hexadecimal literal", 1, 4);
  expect_error("x = 0b102\n", ErrorKind::Syntax, "invalid digit '2' in binary literal", 1, 4);
  expect_error("x = 0o8\n", ErrorKind::Syntax, "invalid digit '8' in octal literal", 1, 4);
  expect_error("x = 012\n", ErrorKind::Syntax,
               "leading zeros in decimal integer literals are not permitted; use an 0o prefix "
               "for octal integers", 1, 4);
}

void test_strings() {
  auto str = [](const std::string& text) {
    auto toks = tokenize(source(text));
    CHECK(toks.size() >= 3 && toks[0].is(TokenKind::String));
    return toks[0];
  };
  CHECK(str("'abc'").str_value == "abc");
  CHECK(str("\"it's\"").str_value == "it's");
  CHECK(str("'a\\nb\\t\\\\\\'\\x41\\101\\u00e9'").str_value == "a\nb\t\\'AA\xC3\xA9");
  CHECK(str("r'a\\nb'").str_value == "a\\nb" && str("r'a\\nb'").is_raw);
  CHECK(str("R'\\''").str_value == "\\'");
  CHECK(str("b'\\xff'").is_bytes && str("b'\\xff'").str_value == "\xff");
  CHECK(str("'''a\n'b'\nc'''").str_value == "a\n'b'\nc");
  CHECK(str("\"\"\"x\"\"\"").str_value == "x");
  CHECK(str("'a\\\nb'").str_value == "ab");
  CHECK(str("'\\q'").str_value == "\\q");
  // A multi-line literal: the next token is counted on its own line.
  auto toks = tokenize(source("x = '''a\nb''' + y\n"));
  CHECK(toks[2].loc.line == 1 && toks[2].loc.col == 4 && toks[2].loc.len == 4);
  CHECK(toks[4].text == "y" && toks[4].loc.line == 2 && toks[4].loc.col == 7);

  expect_body("s = 'a' \"b\" '''c'''", "Assign\n  Name s\n  Constant 'abc'\n");
  expect_body("print('x', r'\\d')", "Expr\n  Call\n    Name print\n    Constant 'x'\n"
                                     "    Constant '\\\\d'\n");
  expect_error("x = 'abc\n", ErrorKind::Syntax, "unterminated string literal", 1, 4);
  expect_error("x = '''abc\n\n", ErrorKind::Syntax, "unterminated triple-quoted string literal", 1,
               4);
  expect_error("x = '\\x4'\n", ErrorKind::Syntax, "truncated \\xXX escape", 1, 5);
  // An f-string is the tokens of ("text" + str(expr) + ...); a conversion or a spec is refused.
  expect_body("x = f'a{y + 1}{{b}}'",
              "Assign\n  Name x\n  BinOp +\n    BinOp +\n      Constant 'a'\n      Call\n        Name str\n"
              "        BinOp +\n          Name y\n          Constant 1\n    Constant '{b}'\n");
  expect_error("x = f'{y!r}'\n", ErrorKind::Unsupported, "format spec in f-strings not supported yet", 1, 8);
  expect_error("x = f'{y:5}'\n", ErrorKind::Unsupported, "format spec in f-strings not supported yet", 1, 8);
  expect_error("x = f'{y=}'\n", ErrorKind::Unsupported, "format spec in f-strings not supported yet", 1, 8);
  // A bytes literal is a Bytes constant (typed only where a record's bytes field meets it).
  expect_body("x = b'ab' b'\\x01'", "Assign\n  Name x\n  Constant b'ab\\x01'\n");
}

void test_lexer_errors() {
  expect_error("def f():\n    x = a $ b\n", ErrorKind::Syntax, "invalid character '$'", 2, 10);
  expect_error("def f():\n    x = a ? b\n", ErrorKind::Syntax, "invalid character '?'", 2, 10);
  expect_error("def f():\n    x = a ! b\n", ErrorKind::Syntax, "invalid character '!'", 2, 10);
  expect_error("def f():\n    x = (a))\n", ErrorKind::Syntax, "unmatched ')'", 2, 11);
  expect_error("def f():\n    x = (a]\n", ErrorKind::Syntax,
               "closing parenthesis ']' does not match opening parenthesis '('", 2, 10);
  expect_error("def f():\n    x = (a,\n", ErrorKind::Syntax, "'(' was never closed", 2, 8);
  expect_error("def f():\n    x = 1 \\ 2\n", ErrorKind::Syntax,
               "unexpected character after line continuation character", 2, 10);
  expect_error("def f():\n        x = 1\n    y = 2\n", ErrorKind::Syntax,
               "unindent does not match any outer indentation level", 3, 4);
  expect_error("def f():\n    x = \xc3\xa9\n", ErrorKind::Unsupported,
               "non-ASCII names are not supported", 2, 8);
  // Non-ASCII text in strings and comments is fine.
  expect_body("s = '\xc3\xa9'  # caf\xc3\xa9", "Assign\n  Name s\n  Constant '\xc3\xa9'\n");
}

// ---- Parser: statements ----------------------------------------------------------------------

void test_function() {
  ast::Module m = parse(source("def add(a, b,):\n    return a + b\n"));
  CHECK(m.source.text == "def add(a, b,):\n    return a + b\n");
  CHECK(m.func->is(ast::Kind::FunctionDef) && m.func->name == "add");
  CHECK(m.func->params.size() == 2 && m.func->params[1].name == "b" &&
        m.func->params[1].loc.col == 11);
  CHECK(strip_locs(ast::dump(*m.func)) ==
        "FunctionDef add(a, b)\n  Return\n    BinOp +\n      Name a\n      Name b\n");
  CHECK(ast::dump(*m.func, 2).rfind("  FunctionDef add(a, b) @1:4\n", 0) == 0);
  CHECK(strip_locs(ast::dump(*parse(source("def f() -> float:\n  pass\n")).func)) ==
        "FunctionDef f()\n  Pass\n");
  CHECK(strip_locs(ast::dump(*parse(source("def f(x): return x; pass\n")).func)) ==
        "FunctionDef f(x)\n  Return\n    Name x\n  Pass\n");

  // An inline lambda is a def before its statement, named by its place; the expression its name.
  // A lambda inside it stays in its body.
  expect_body("if x:\n    y = g(lambda a, b=1: a + b, lambda: (lambda c: c)(2))",
              "If\n  Name x\n  body:\n    FunctionDef __cj_lambda_3_14(a, b)\n      Return\n        BinOp +\n          Name a\n"
              "          Name b\n    FunctionDef __cj_lambda_3_36()\n      FunctionDef __cj_lambda_3_45(c)\n"
              "        Return\n          Name c\n      Return\n        Call\n          Name __cj_lambda_3_45\n"
              "          Constant 2\n    Assign\n      Name y\n      Call\n        Name g\n"
              "        Name __cj_lambda_3_14\n        Name __cj_lambda_3_36\n");

  // Decorators, over several lines, with strings, lists and keyword arguments.
  const char* decorated =
      "@cujit.vectorize(['float32(float32)',\n"
      "                  'float64(float64)'],  # two signatures\n"
      "                 target='cuda')\n"
      "@other\n"
      "def g(x):\n"
      "    '''Doc.'''\n"
      "    return x * 2\n";
  ast::Module d = parse(source(decorated));
  CHECK(d.func->name == "g" && d.func->loc.line == 5 && d.func->loc.col == 4);
  CHECK(strip_locs(ast::dump(*d.func)) ==
        "FunctionDef g(x)\n  Expr\n    Constant 'Doc.'\n  Return\n    BinOp *\n      Name x\n"
        "      Constant 2\n");
}

void test_assignments() {
  expect_body("x = 1", "Assign\n  Name x\n  Constant 1\n");
  expect_body("a = b = 2.5", "Assign\n  Name a\n  Name b\n  Constant 2.5\n");
  expect_body("a[i, j] = x",
              "Assign\n  Subscript\n    Name a\n    Tuple\n      Name i\n      Name j\n  Name x\n");
  expect_body("a.b = c", "Assign\n  Attribute .b\n    Name a\n  Name c\n");
  expect_body("a, b = b, a",
              "Assign\n  Tuple\n    Name a\n    Name b\n  Tuple\n    Name b\n    Name a\n");
  expect_body("(a, b) = 1, 2",
              "Assign\n  Tuple\n    Name a\n    Name b\n  Tuple\n    Constant 1\n    Constant 2\n");
  expect_body("a[i, :] = 0", "Assign\n  Subscript\n    Name a\n    Tuple\n      Name i\n"
                             "      Slice\n        <none>\n        <none>\n        <none>\n"
                             "  Constant 0\n");
  expect_body("x, = t", "Assign\n  Tuple\n    Name x\n  Name t\n");
  expect_body("a.b[0].c = 1", "Assign\n  Attribute .c\n    Subscript\n      Attribute .b\n"
                              "        Name a\n      Constant 0\n  Constant 1\n");
  const char* ops[] = {"+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "@"};
  for (const char* op : ops)
    expect_body(std::string("x ") + op + "= y",
                std::string("AugAssign ") + op + "=\n  Name x\n  Name y\n");
  expect_body("a[i] += 1", "AugAssign +=\n  Subscript\n    Name a\n    Name i\n  Constant 1\n");

  expect_body_error("f() = 1", ErrorKind::Syntax, "cannot assign to a function call", 0);
  expect_body_error("1 = x", ErrorKind::Syntax, "cannot assign to a literal", 0);
  expect_body_error("None = x", ErrorKind::Syntax, "cannot assign to None", 0);
  expect_body_error("a + b = x", ErrorKind::Syntax, "cannot assign to an expression", 2);
  expect_body_error("a, b += 1", ErrorKind::Syntax,
                    "'tuple' is an illegal expression for augmented assignment", 0);
  expect_body_error("x: int = 1", ErrorKind::Unsupported,
                    "variable annotations are not supported", 1);
  expect_body_error("[a, b] = t", ErrorKind::Unsupported,
                    "assignment to a list of targets is not supported; use a tuple", 0);
}

void test_control_flow() {
  expect_body("return", "Return\n");
  expect_body("return x", "Return\n  Name x\n");
  expect_body("return a, b", "Return\n  Tuple\n    Name a\n    Name b\n");
  expect_body("if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    pass\nelse:\n    x = 3",
              "If\n  Name a\n  body:\n    Assign\n      Name x\n      Constant 1\n  orelse:\n"
              "    If\n      Name b\n      body:\n        Assign\n          Name x\n"
              "          Constant 2\n      orelse:\n        If\n          Name c\n"
              "          body:\n            Pass\n          orelse:\n            Assign\n"
              "              Name x\n              Constant 3\n");
  expect_body("while i < n:\n    i += 1\n    if i == 3: break\nelse:\n    pass",
              "While\n  Compare <\n    Name i\n    Name n\n  body:\n    AugAssign +=\n"
              "      Name i\n      Constant 1\n    If\n      Compare ==\n        Name i\n"
              "        Constant 3\n      body:\n        Break\n  orelse:\n    Pass\n");
  expect_body("for i in range(n):\n    continue\nelse:\n    x = 0",
              "For\n  Name i\n  Call\n    Name range\n    Name n\n  body:\n    Continue\n"
              "  orelse:\n    Assign\n      Name x\n      Constant 0\n");
  expect_body("for i, (a, b) in z: pass",
              "For\n  Tuple\n    Name i\n    Tuple\n      Name a\n      Name b\n  Name z\n"
              "  body:\n    Pass\n");
  expect_body("for x in a, b: pass",
              "For\n  Name x\n  Tuple\n    Name a\n    Name b\n  body:\n    Pass\n");
  expect_body("x = 1; y = 2;", "Assign\n  Name x\n  Constant 1\nAssign\n  Name y\n  Constant 2\n");
  expect_body("if x: y = 1; z = 2",
              "If\n  Name x\n  body:\n    Assign\n      Name y\n      Constant 1\n"
              "    Assign\n      Name z\n      Constant 2\n");
  expect_body("'''doc'''\nf(x)", "Expr\n  Constant 'doc'\nExpr\n  Call\n    Name f\n    Name x\n");
  expect_body("a, b", "Expr\n  Tuple\n    Name a\n    Name b\n");
  expect_body("match = 1\nmatch(x)",
              "Assign\n  Name match\n  Constant 1\nExpr\n  Call\n    Name match\n    Name x\n");

  expect_body_error("break", ErrorKind::Syntax, "'break' outside loop", 0);
  expect_body_error("else:", ErrorKind::Syntax,
                    "'else' without a matching 'if', 'for' or 'while'", 0);
  expect_body_error("for x.y in z: pass", ErrorKind::Unsupported,
                    "for-loop targets must be names or tuples of names", 6);
  expect_body_error("for a[0] in z: pass", ErrorKind::Unsupported,
                    "for-loop targets must be names or tuples of names", 5);
}

void test_unsupported_statements() {
  struct Case {
    const char* stmt;
    const char* message;
    int col;
  };
  const Case cases[] = {
      {"class A: pass", "class definitions are not supported", 0},
      {"with open(p) as f: pass", "'with' statements are not supported", 0},
      {"global g", "'global' statements are not supported", 0},
      {"nonlocal g", "'nonlocal' statements are not supported", 0},
      {"del x", "'del' statements are not supported (but `del d[key]` of a dict is)", 0},
      {"import math", "'import' statements are not supported", 0},
      {"from math import sqrt", "'from ... import' statements are not supported", 0},
      {"yield x", "'yield' is not supported (generators cannot be compiled)", 0},
      {"x = yield", "'yield' is not supported (generators cannot be compiled)", 4},
      {"async for x in y: pass", "'async' statements are not supported", 0},
      {"x = await y", "'await' expressions are not supported", 4},
      {"match x:", "'match' statements are not supported", 0},
      {"f(**kw)", "argument unpacking (**kwargs) is not supported", 2},
      {"a, *b = x", "star expressions (*x) are not supported", 3},
      {"x = sum(i for i in y)", "generator expressions are not supported", 10},
      {"x = (i for i in y)", "generator expressions are not supported", 7},
      {"x = {k: v for k in y}", "dict comprehensions are not supported", 10},
      {"x = {k for k in y}", "set comprehensions are not supported", 7},
      {"x = ...", "'...' (Ellipsis) is not supported", 4},
  };
  for (const Case& c : cases) expect_body_error(c.stmt, ErrorKind::Unsupported, c.message, c.col);
  // try/except parses; what Numba's nopython mode refuses of it is refused at its token.
  expect_error("def f():\n    try: pass\n    finally: pass\n", ErrorKind::Unsupported,
               "'try' with 'finally' is not supported", 3, 4);
  expect_error("def f():\n    try: pass\n    except Exception as e: pass\n", ErrorKind::Unsupported,
               "Exception object cannot be stored into variable (e).", 3, 24);
  // The text itself must be one function.
  expect_error("async def f(): pass\n", ErrorKind::Unsupported,
               "'async' functions are not supported", 1, 0);
  expect_error("class A:\n  pass\n", ErrorKind::Unsupported,
               "class definitions are not supported", 1, 0);
}

void test_parameters() {
  expect_error("def f(**kw): pass\n", ErrorKind::Unsupported,
               "**kwargs parameters are not supported", 1, 6);
  expect_error("def f(a, *, b): pass\n", ErrorKind::Unsupported,
               "keyword-only parameters ('*') are not supported", 1, 9);
  expect_error("def f(a, /): pass\n", ErrorKind::Unsupported,
               "positional-only parameters ('/') are not supported", 1, 9);
  expect_error("def f(a: int): pass\n", ErrorKind::Unsupported,
               "parameter annotations are not supported", 1, 7);
  expect_error("def f(a, a): pass\n", ErrorKind::Syntax,
               "duplicate argument 'a' in function definition", 1, 9);
  expect_error("def f(1): pass\n", ErrorKind::Syntax,
               "expected a parameter name, found '1'", 1, 6);
}

// ---- Parser: expressions ---------------------------------------------------------------------

void test_expressions() {
  expect_body("-x**2", "Expr\n  UnaryOp -\n    BinOp **\n      Name x\n      Constant 2\n");
  expect_body("2**-1", "Expr\n  BinOp **\n    Constant 2\n    UnaryOp -\n      Constant 1\n");
  expect_body("a**b**c",
              "Expr\n  BinOp **\n    Name a\n    BinOp **\n      Name b\n      Name c\n");
  // An imaginary literal is a constant of its own (complex128 with a zero real part).
  expect_body("2j + 1.5j", "Expr\n  BinOp +\n    Constant 2.0j\n    Constant 1.5j\n");
  expect_body("a < b < c", "Expr\n  Compare < <\n    Name a\n    Name b\n    Name c\n");
  expect_body("a is not b not in c",
              "Expr\n  Compare is not not in\n    Name a\n    Name b\n    Name c\n");
  expect_body("not a == b", "Expr\n  UnaryOp not\n    Compare ==\n      Name a\n      Name b\n");
  expect_body("a if b else c if d else e",
              "Expr\n  IfExp\n    Name b\n    Name a\n    IfExp\n      Name d\n      Name c\n"
              "      Name e\n");
  expect_body("a or b and not c or d",
              "Expr\n  BoolOp or\n    Name a\n    BoolOp and\n      Name b\n      UnaryOp not\n"
              "        Name c\n    Name d\n");
  expect_body("a - b - c",
              "Expr\n  BinOp -\n    BinOp -\n      Name a\n      Name b\n    Name c\n");
  expect_body("a | b ^ c & d << e + f * g",
              "Expr\n  BinOp |\n    Name a\n    BinOp ^\n      Name b\n      BinOp &\n"
              "        Name c\n        BinOp <<\n          Name d\n          BinOp +\n"
              "            Name e\n            BinOp *\n              Name f\n"
              "              Name g\n");
  expect_body("a // b % c @ d / e",
              "Expr\n  BinOp /\n    BinOp @\n      BinOp %\n        BinOp //\n"
              "          Name a\n          Name b\n        Name c\n      Name d\n    Name e\n");
  expect_body("~-+x", "Expr\n  UnaryOp ~\n    UnaryOp -\n      UnaryOp +\n        Name x\n");
  expect_body("(a + b) * c",
              "Expr\n  BinOp *\n    BinOp +\n      Name a\n      Name b\n    Name c\n");
  expect_body("f(a, b=1, c=x)(y).z",
              "Expr\n  Attribute .z\n    Call\n      Call\n        Name f\n        Name a\n"
              "        keyword b\n          Constant 1\n        keyword c\n          Name x\n"
              "      Name y\n");
  expect_body("a[1:2, ::3, :, i:]",
              "Expr\n  Subscript\n    Name a\n    Tuple\n      Slice\n        Constant 1\n"
              "        Constant 2\n        <none>\n      Slice\n        <none>\n        <none>\n"
              "        Constant 3\n      Slice\n        <none>\n        <none>\n        <none>\n"
              "      Slice\n        Name i\n        <none>\n        <none>\n");
  expect_body("a[i][j]",
              "Expr\n  Subscript\n    Subscript\n      Name a\n      Name i\n    Name j\n");
  expect_body("x = (), (1,), [1, 2], {}, {'a': 1}",
              "Assign\n  Name x\n  Tuple\n    Tuple\n    Tuple\n      Constant 1\n    List\n"
              "      Constant 1\n      Constant 2\n    Dict\n    Dict\n      Constant 'a'\n"
              "      Constant 1\n");
  expect_body("x = True, False, None, 1.5, 1e3, 0x10, 18446744073709551617",
              "Assign\n  Name x\n  Tuple\n    Constant True\n    Constant False\n"
              "    Constant None\n    Constant 1.5\n    Constant 1000.0\n    Constant 16\n"
              "    Constant <big int, low 64 bits 0x0000000000000001>\n");
  expect_body("x = (a\n     + b)", "Assign\n  Name x\n  BinOp +\n    Name a\n    Name b\n");
  expect_body("x = 1if y else 2", "Assign\n  Name x\n  IfExp\n    Name y\n    Constant 1\n"
                                  "    Constant 2\n");

  ast::Module m = parse(source("def f():\n    x = 2**63\n"));
  const ast::Node& c = *first_stmt(m).rhs()->lhs();
  CHECK(c.cval.tag == ast::ConstValue::Tag::Int && c.cval.i == 2 && !c.cval.big_int);
  ast::Module big = parse(source("def f():\n    x = 9223372036854775808\n"));
  CHECK(first_stmt(big).rhs()->cval.big_int && (uint64_t)first_stmt(big).rhs()->cval.i == (1ull << 63));

  expect_body_error("f(a=1, b)", ErrorKind::Syntax,
                    "positional argument follows keyword argument", 7);
  expect_body_error("f(a=1, a=2)", ErrorKind::Syntax, "keyword argument repeated: a", 7);
  expect_body_error("x = a if b", ErrorKind::Syntax,
                    "expected 'else' after the condition of the conditional expression, "
                    "found end of line", 10);
}

void test_locations() {
  ast::Module m = parse(source(
      "def f(a, b):\n"
      "    x = a + b * 2\n"
      "    y = math.sqrt(x) < a[1]\n"
      "    z = np.zeros(\n"
      "        3)\n"
      "    -x\n"
      "    x += not y\n"
      "    return x\n",
      20));
  const auto& body = m.func->body;
  CHECK(m.func->loc.line == 20 && m.func->loc.col == 4);
  const ast::Node& assign = *body[0];
  CHECK(assign.is(ast::Kind::Assign) && assign.loc.line == 21 && assign.loc.col == 6);
  CHECK(assign.list[0]->loc.col == 4);
  const ast::Node& add = *assign.rhs();
  CHECK(add.op == ast::Op::Add && add.loc.col == 10);
  CHECK(add.lhs()->loc.col == 8 && add.rhs()->loc.col == 14 && add.rhs()->rhs()->loc.col == 16);
  const ast::Node& cmp = *body[1]->rhs();
  CHECK(cmp.is(ast::Kind::Compare) && cmp.loc.line == 22 && cmp.loc.col == 21);
  const ast::Node& call = *cmp.lhs();
  CHECK(call.is(ast::Kind::Call) && call.loc.col == 8 && call.loc.len == 12);
  CHECK(call.func()->is(ast::Kind::Attribute) && call.func()->loc.col == 13 && call.func()->loc.len == 4);
  CHECK(cmp.list[0]->is(ast::Kind::Subscript) && cmp.list[0]->loc.col == 24);
  const ast::Node& zeros = *body[2]->rhs();  // a call over two lines: the callee as far as it goes
  CHECK(zeros.is(ast::Kind::Call) && zeros.loc.line == 23 && zeros.loc.col == 8 &&
        zeros.loc.len == 8);
  const ast::Node& expr = *body[3];
  CHECK(expr.is(ast::Kind::Expr) && expr.loc.line == 25 && expr.loc.col == 4);
  CHECK(expr.value()->is(ast::Kind::UnaryOp) && expr.value()->loc.col == 4);
  const ast::Node& aug = *body[4];
  CHECK(aug.is(ast::Kind::AugAssign) && aug.loc.col == 6 && aug.loc.len == 2);
  CHECK(aug.rhs()->is(ast::Kind::UnaryOp) && aug.rhs()->loc.col == 9 && aug.rhs()->loc.len == 3);
  CHECK(body[5]->is(ast::Kind::Return) && body[5]->loc.line == 27 && body[5]->loc.col == 4);
  std::string d = ast::dump(*m.func);
  CHECK(d.find("BinOp + @21:10") != std::string::npos);

  ast::Module t = parse(source("def f():\n    a, b = c, d\n    x = (a, b)\n"));
  CHECK(t.func->body[0]->list[0]->loc.col == 4 && t.func->body[0]->list[0]->loc.len == 4);
  CHECK(t.func->body[1]->rhs()->loc.col == 8 && t.func->body[1]->rhs()->loc.len == 6);
}

void test_dedented_source() {
  // Text as Python's inspect.getsource gives it for a nested function, dedented by 4 columns, from
  // line 10 of the file; positions are in the text given, lines in the file.
  SourceFile s = source("@cuda.jit\ndef k(a):\n\tif a:\n\t\treturn 1 +\n", 10);
  s.col_offset = 4;
  try {
    parse(s);
    CHECK(false);
  } catch (const CompileError& e) {
    CHECK(e.kind == ErrorKind::Syntax);
    CHECK(e.message == "expected an expression, found end of line");
    CHECK(e.loc.line == 13 && e.loc.col == 12);
    CHECK(std::string(e.what()).find("test.py:13:") != std::string::npos);
  }
  ast::Module m = parse(source("def k(a):\n\n    # comment\n    x = \\\n        a  # c\n", 10));
  CHECK(m.func->body[0]->loc.line == 13 && m.func->body[0]->rhs()->loc.line == 14 &&
        m.func->body[0]->rhs()->loc.col == 8);
}

void test_syntax_errors() {
  expect_body_error("if x\n        pass", ErrorKind::Syntax,
                    "expected ':' after the if condition, found end of line", 4);
  expect_body_error("while x pass", ErrorKind::Syntax,
                    "expected ':' after the while condition, found 'pass'", 8);
  expect_body_error("for x y: pass", ErrorKind::Syntax,
                    "expected 'in' after the for-loop target, found 'y'", 6);
  expect_body_error("x = )", ErrorKind::Syntax, "unmatched ')'", 4);
  expect_body_error("x = ]", ErrorKind::Syntax, "unmatched ']'", 4);
  expect_body_error("x = * 2", ErrorKind::Unsupported, "star expressions (*x) are not supported",
                    4);
  expect_body_error("x = 1 +", ErrorKind::Syntax, "expected an expression, found end of line",
                    7);
  expect_body_error("x = a + if", ErrorKind::Syntax, "expected an expression, found 'if'", 8);
  expect_body_error("x = f(a b)", ErrorKind::Syntax,
                    "expected ',' or ')' in the call arguments, found 'b'", 8);
  expect_body_error("x = (a b)", ErrorKind::Syntax,
                    "expected ')' to close the '(' on line 2, found 'b'", 7);
  expect_body_error("x = 1 2", ErrorKind::Syntax, "unexpected '2' after the statement", 6);
  expect_body_error("x = a[]", ErrorKind::Syntax, "expected an expression, found ']'", 6);
  expect_body_error("x = a.1", ErrorKind::Syntax, "unexpected '.1' after the statement", 5);
  expect_body_error("x = a.if", ErrorKind::Syntax,
                    "expected an attribute name after '.', found 'if'", 6);
  expect_body_error("x = 1; if x: pass", ErrorKind::Syntax,
                    "'if' statement must start its own line", 7);
  expect_error("def f():\n    x = 1\n        y = 2\n", ErrorKind::Syntax, "unexpected indent", 3,
               8);
  expect_error("def f():\nx = 1\n", ErrorKind::Syntax,
               "expected an indented block after function definition on line 1", 2, 0);
  expect_error("def f():\n    if x:\n    y = 1\n", ErrorKind::Syntax,
               "expected an indented block after 'if' statement on line 2", 3, 4);
  expect_error("def f():\n    pass\nx = 1\n", ErrorKind::Syntax,
               "unexpected 'x' after the function definition (the source must hold one "
               "function)", 3, 0);
  expect_error("x = 1\n", ErrorKind::Syntax,
               "expected a function definition ('def'), found 'x'", 1, 0);
  expect_error("", ErrorKind::Syntax, "expected a function definition ('def'), found end of input",
               1, 0);
  expect_error("  def f(): pass\n", ErrorKind::Syntax, "unexpected indent", 1, 2);
  expect_error("def f(:)\n  pass\n", ErrorKind::Syntax, "expected a parameter name, found ':'", 1,
               6);
  expect_error("def f()\n  pass\n", ErrorKind::Syntax,
               "expected ':' after the function signature, found end of line", 1, 7);
  expect_error("@\ndef f(): pass\n", ErrorKind::Syntax, "expected a decorator after '@'", 1, 1);
}

void test_limits() {
  auto nested = [](int n) {
    return "def f():\n    x = " + std::string(n, '(') + "1" + std::string(n, ')') + "\n";
  };
  CHECK(parse(source(nested(150))).func != nullptr);
  expect_error(nested(1000), ErrorKind::Syntax, "expression nested too deeply", 2, 208);
  std::string minus = "def f():\n    x = " + std::string(5000, '-') + "1\n";
  expect_error(minus, ErrorKind::Syntax, "expression nested too deeply", 2, 207);
  std::string nots = "def f():\n    x = ";
  for (int i = 0; i < 1000; ++i) nots += "not ";
  nots += "y\n";
  expect_error(nots, ErrorKind::Syntax, "expression nested too deeply", 2, 8 + 4 * 199);
  std::string pow = "def f():\n    x = 2";
  for (int i = 0; i < 1000; ++i) pow += "**2";
  expect_error(pow, ErrorKind::Syntax, "expression nested too deeply", 2, 9 + 3 * 199);
  // A long left-associative chain is built in a loop but is as deep as it is long.
  std::string chain = "def f():\n    x = a";
  for (int i = 0; i < 200; ++i) chain += "+a";
  CHECK(parse(source(chain + "\n")).func != nullptr);
  for (int i = 0; i < 5000; ++i) chain += "+a";
  try {
    parse(source(chain + "\n"));
    CHECK(false);
  } catch (const CompileError& e) {
    CHECK(e.message == "expression nested too deeply");
  }
  std::string blocks = "def f():\n";
  for (int i = 1; i <= 300; ++i) blocks += std::string(i, ' ') + "if x:\n";
  blocks += std::string(301, ' ') + "pass\n";
  try {
    parse(source(blocks));
    CHECK(false);
  } catch (const CompileError& e) {
    CHECK(e.message == "statements nested too deeply");
  }
  // Long elif chains and long statement lists are fine.
  std::string elifs = "def f(x):\n    if x == 0:\n        pass\n";
  for (int i = 1; i < 500; ++i) elifs += "    elif x == " + std::to_string(i) + ":\n        pass\n";
  CHECK(parse(source(elifs)).func->body.size() == 1);
}

// Random text, and valid programs with random damage: each must give a tree or a CompileError.
void test_fuzz() {
  const char* seeds[] = {
      "@cuda.jit('void(float32[:])')\ndef k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n"
      "        a[i] = a[i] ** 2 if a[i] > 0 else -a[i]\n",
      "def f(x, y):\n    '''doc'''\n    for i in range(10):\n        x += (y[i, :] // 2) << 1\n"
      "    while x and not y: break\n    return x, y\n",
      "def g(a):\n    s = 0\n    for i, j in zip(a, a):\n\ts += f(i, k=j)[0:2:1]\n    return s\n",
  };
  const char alphabet[] = "abcdefx019_ .,:;()[]{}+-*/%<>=!&|^~@#'\"\\\n\t eijflor";
  std::mt19937 rng(12345);
  int trees = 0, errors = 0;
  auto attempt = [&](const std::string& text) {
    try {
      ast::Module m = parse(source(text, 1 + (int)(rng() % 5)));
      ast::dump(*m.func);
      ++trees;
    } catch (const CompileError& e) {
      std::string what = e.what();  // rendering must work for any location too
      ++errors;
    } catch (const std::exception& e) {
      std::cerr << "  FAILED: " << e.what() << " for:\n" << text << "\n";
      ++g_failures;
    }
  };
  for (int iter = 0; iter < 20000; ++iter) {
    std::string text = seeds[rng() % 3];
    int edits = 1 + (int)(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t p = rng() % (text.size() + 1);
      switch (rng() % 3) {
        case 0: if (p < text.size()) text.erase(p, 1); break;
        case 1: text.insert(p, 1, alphabet[rng() % (sizeof alphabet - 1)]); break;
        default: if (p < text.size()) text[p] = (char)(rng() % 256); break;
      }
    }
    attempt(text);
  }
  for (int iter = 0; iter < 3000; ++iter) {
    std::string text = rng() % 2 ? "def f():\n    " : "";
    int n = (int)(rng() % 60);
    for (int i = 0; i < n; ++i) text += alphabet[rng() % (sizeof alphabet - 1)];
    attempt(text);
  }
  CHECK(trees > 100 && errors > 100);
}

}  // namespace

int main() {
  const std::pair<const char*, void (*)()> tests[] = {
      {"layout", test_layout},
      {"numbers", test_numbers},
      {"strings", test_strings},
      {"lexer_errors", test_lexer_errors},
      {"function", test_function},
      {"assignments", test_assignments},
      {"control_flow", test_control_flow},
      {"unsupported_statements", test_unsupported_statements},
      {"parameters", test_parameters},
      {"expressions", test_expressions},
      {"locations", test_locations},
      {"dedented_source", test_dedented_source},
      {"syntax_errors", test_syntax_errors},
      {"limits", test_limits},
      {"fuzz", test_fuzz},
  };
  for (const auto& [name, fn] : tests) {
    std::cout << "[ RUN  ] " << name << std::endl;
    int before = g_failures;
    try {
      fn();
    } catch (const std::exception& e) {
      std::cerr << "  FAILED: unexpected exception: " << e.what() << "\n";
      ++g_failures;
    }
    std::cout << (g_failures == before ? "[  OK  ] " : "[ FAIL ] ") << name << std::endl;
  }
  std::cout << (g_failures ? "FAILED" : "PASSED") << " (" << g_failures << " failed checks)\n";
  return g_failures ? 1 : 0;
}
