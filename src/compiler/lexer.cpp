// The lexer. It walks the text once, keeping what Python's tokenizer keeps: the stack of
// indentation columns (to turn leading whitespace into Indent/Dedent), the stack of open brackets
// (inside which line ends and indentation mean nothing), and whether the current logical line has
// produced a token yet (blank and comment-only lines produce no Newline).
//
// Positions: lines are numbered as in the user's file (the text's first line is src.first_line)
// and columns are byte offsets into the line of src.text, so a caret lands under the token.
#include "compiler/lexer.h"

#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstdlib>

namespace cujit {

namespace {

struct Spelling {
  const char* text;
  size_t len;
  TokenKind kind;
};

const Spelling kKeywords[] = {
#define TOKEN(kind, desc)
#define KEYWORD(kind, spelling) {spelling, sizeof(spelling) - 1, TokenKind::kind},
#define PUNCT(kind, spelling)
#include "compiler/tokens.def"
#undef TOKEN
#undef KEYWORD
#undef PUNCT
};

const Spelling kPuncts[] = {
#define TOKEN(kind, desc)
#define KEYWORD(kind, spelling)
#define PUNCT(kind, spelling) {spelling, sizeof(spelling) - 1, TokenKind::kind},
#include "compiler/tokens.def"
#undef TOKEN
#undef KEYWORD
#undef PUNCT
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
// Bytes of UTF-8 sequences count as name characters so that a non-ASCII name is read whole and
// reported once, instead of as a stray byte.
bool is_name_char(char c) { return is_alpha(c) || is_digit(c) || (unsigned char)c >= 0x80; }

int digit_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += (char)cp;
  } else if (cp < 0x800) {
    out += (char)(0xC0 | (cp >> 6));
    out += (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += (char)(0xE0 | (cp >> 12));
    out += (char)(0x80 | ((cp >> 6) & 0x3F));
    out += (char)(0x80 | (cp & 0x3F));
  } else {
    out += (char)(0xF0 | (cp >> 18));
    out += (char)(0x80 | ((cp >> 12) & 0x3F));
    out += (char)(0x80 | ((cp >> 6) & 0x3F));
    out += (char)(0x80 | (cp & 0x3F));
  }
}

// strtod follows LC_NUMERIC, which the host program may have changed; Python literals always use
// '.', so swap it for the locale's decimal point before converting.
double parse_float(std::string digits) {
  const char* point = std::localeconv()->decimal_point;
  if (point && point[0] && point[0] != '.' && !point[1])
    for (char& c : digits)
      if (c == '.') c = point[0];
  errno = 0;
  return std::strtod(digits.c_str(), nullptr);  // overflow gives inf, as Python's float('1e400')
}

class Lexer {
 public:
  explicit Lexer(const SourceFile& src) : src_(src), s_(src.text), line_(src.first_line) {
    eof_loc_ = {src.first_line, 0, 1};
  }

  std::vector<Token> run() {
    bool at_line_start = true;
    while (true) {
      if (at_line_start) {
        at_line_start = false;
        indentation();
      }
      if (pos_ >= s_.size()) break;
      char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else if (c == '\n') {
        if (brackets_.empty() && line_has_tokens_) emit(TokenKind::Newline, here(1), "");
        next_line(pos_);
        if (brackets_.empty()) at_line_start = true;
      } else if (c == '\\') {
        continuation();
      } else if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) {
        number();
      } else if (is_name_char(c)) {
        name_or_string();
      } else if (c == '"' || c == '\'') {
        string(pos_, pos_);
      } else {
        punct();
      }
    }
    if (!brackets_.empty()) {
      const Open& o = brackets_.back();
      error(o.loc, std::string("'") + o.c + "' was never closed");
    }
    SourceLoc end = pos_ > line_start_ ? here(1) : eof_loc_;
    if (line_has_tokens_) emit(TokenKind::Newline, end, "");
    for (size_t i = 1; i < indents_.size(); ++i) emit(TokenKind::Dedent, end, "");
    emit(TokenKind::End, end, "");
    join_fstring_runs();
    return std::move(out_);
  }

 private:
  struct Open {
    char c;
    SourceLoc loc;
  };

  const SourceFile& src_;
  const std::string& s_;
  size_t pos_ = 0;
  size_t line_start_ = 0;  // offset of the current physical line in s_
  int line_;               // its number in the user's file
  SourceLoc eof_loc_;      // the end of the last line that had text, for tokens at end of input
  std::vector<int> indents_{0};
  std::vector<Open> brackets_;
  // Each string literal's tokens [begin, end) in out_, and whether they are an f-string's group
  // `("text" + str(x) ...)`: join_fstring_runs joins adjacent literals where one is such a group.
  struct Piece {
    size_t begin, end;
    bool group;
  };
  std::vector<Piece> pieces_;

  // Adjacent literals are one literal ("a" f"{x}" "b"); where one of them is an f-string's group
  // the parser cannot join them, so the run becomes `("a" + (...) + "b")`: parenthesised, as
  // implicit concatenation binds tighter than any operator (`"a" f"{x}".upper()` upper-cases all).
  void join_fstring_runs() {
    std::vector<std::pair<size_t, size_t>> runs;  // [first piece, last piece]
    for (size_t i = 0; i < pieces_.size();) {
      size_t j = i;
      bool group = pieces_[i].group;
      while (j + 1 < pieces_.size() && pieces_[j + 1].begin == pieces_[j].end) group |= pieces_[++j].group;
      if (j > i && group) runs.push_back({i, j});
      i = j + 1;
    }
    for (auto r = runs.rbegin(); r != runs.rend(); ++r) {  // from the end: earlier indices stay valid
      const SourceLoc loc = out_[pieces_[r->first].begin].loc;
      auto tok = [&](TokenKind k, const char* text) {
        Token t;
        t.kind = k;
        t.loc = loc;
        t.text = text;
        return t;
      };
      out_.insert(out_.begin() + (std::ptrdiff_t)pieces_[r->second].end, tok(TokenKind::RParen, ")"));
      for (size_t k = r->second; k > r->first; --k)
        out_.insert(out_.begin() + (std::ptrdiff_t)pieces_[k].begin, tok(TokenKind::Plus, "+"));
      out_.insert(out_.begin() + (std::ptrdiff_t)pieces_[r->first].begin, tok(TokenKind::LParen, "("));
    }
  }
  std::vector<Token> out_;
  bool line_has_tokens_ = false;

  // '\0' past the end, so look-ahead needs no bounds checks (a NUL inside the text is rejected
  // by punct(), never matched as anything).
  char at(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }
  SourceLoc loc_at(size_t p, size_t len) const {
    return {line_, (int)(p - line_start_), (int)(len ? len : 1)};
  }
  SourceLoc here(size_t len) const { return loc_at(pos_, len); }

  [[noreturn]] void error(SourceLoc loc, const std::string& msg) {
    user_error(src_, loc, ErrorKind::Syntax, msg);
  }

  // Consumes the '\n' at `nl` and starts the next physical line.
  void next_line(size_t nl) {
    eof_loc_ = loc_at(nl, 1);
    pos_ = nl + 1;
    line_start_ = pos_;
    ++line_;
  }

  Token& emit(TokenKind k, SourceLoc loc, std::string text) {
    Token t;
    t.kind = k;
    t.loc = loc;
    t.text = std::move(text);
    out_.push_back(std::move(t));
    line_has_tokens_ = k != TokenKind::Newline && k != TokenKind::Indent &&
                       k != TokenKind::Dedent && k != TokenKind::End;
    return out_.back();
  }

  // At the start of a physical line outside brackets: compares the line's indentation (tabs to the
  // next multiple of 8, as Python does) with the open levels and emits Indent or Dedents. Blank
  // and comment-only lines are left to the main loop, which emits nothing for them.
  void indentation() {
    int col = 0;
    size_t p = pos_;
    for (; p < s_.size(); ++p) {
      char c = s_[p];
      if (c == ' ') ++col;
      else if (c == '\t') col = (col / 8 + 1) * 8;
      else if (c == '\f') col = 0;  // Python resets the count at a form feed
      else break;
    }
    size_t q = p;
    while (q < s_.size() && s_[q] == '\r') ++q;
    if (q >= s_.size() || s_[q] == '\n' || s_[q] == '#') {
      pos_ = p;
      return;
    }
    pos_ = p;
    if (col > indents_.back()) {
      indents_.push_back(col);
      emit(TokenKind::Indent, here(1), "");
      return;
    }
    while (col < indents_.back()) {
      indents_.pop_back();
      emit(TokenKind::Dedent, here(1), "");
    }
    if (col != indents_.back())
      error(here(1), "unindent does not match any outer indentation level");
  }

  void continuation() {
    size_t p = pos_ + 1;
    if (at(p) == '\r') ++p;
    if (p < s_.size() && s_[p] == '\n') {
      next_line(p);  // the next line continues this one: its indentation means nothing
      return;
    }
    if (p >= s_.size()) error(here(1), "unexpected end of input after the line continuation '\\'");
    error(here(1), "unexpected character after line continuation character");
  }

  void name_or_string() {
    size_t start = pos_;
    size_t p = pos_;
    while (p < s_.size() && is_name_char(s_[p])) ++p;
    std::string word = s_.substr(start, p - start);
    if ((at(p) == '"' || at(p) == '\'') && word.size() <= 2) {
      std::string lower;
      for (char c : word) lower += (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      static const char* const kPrefixes[] = {"r", "u", "b", "f", "br", "rb", "fr", "rf"};
      for (const char* pre : kPrefixes)
        if (lower == pre) return string(start, p);
    }
    for (char c : word)
      if ((unsigned char)c >= 0x80)
        user_error(src_, here(p - start), ErrorKind::Unsupported,
                   "non-ASCII names are not supported");
    pos_ = p;
    TokenKind kind = TokenKind::Name;
    for (const Spelling& k : kKeywords)
      if (word == k.text) kind = k.kind;
    emit(kind, loc_at(start, p - start), word);
  }

  // Consumes digits of `base` with single underscores between them; returns how many digits.
  int digits(size_t& p, int base, std::string* clean, uint64_t* value, bool* overflow) {
    int n = 0;
    while (true) {
      char c = at(p);
      int d = digit_value(c);
      if (c == '_') {
        int next = digit_value(at(p + 1));
        if (n == 0) break;  // an underscore must follow a digit
        if (next < 0 || next >= base) return -1;  // doubled or trailing underscore
        ++p;
        continue;
      }
      if (d < 0 || d >= base) break;
      if (clean) *clean += c;
      if (value) {
        uint64_t v = *value * (uint64_t)base + (uint64_t)d;  // wraps: the low 64 bits stay exact
        if (*value > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) *overflow = true;
        *value = v;
      }
      ++p;
      ++n;
    }
    return n;
  }

  // A word glued to a number is an error, except keywords Python tolerates there (1if x else y).
  bool glued_name(size_t p) const {
    if (!is_name_char(at(p))) return false;
    size_t q = p;
    while (is_name_char(at(q))) ++q;
    std::string w = s_.substr(p, q - p);
    static const char* const kOk[] = {"and", "else", "for", "if", "in", "is", "not", "or"};
    for (const char* k : kOk)
      if (w == k) return false;
    return true;
  }

  void number() {
    size_t start = pos_;
    size_t p = pos_;
    uint64_t value = 0;
    bool overflow = false;
    auto fail = [&](const std::string& msg) { error(loc_at(start, p - start), msg); };
    char x = at(p + 1);
    if (s_[p] == '0' && (x == 'x' || x == 'X' || x == 'o' || x == 'O' || x == 'b' || x == 'B')) {
      int base = (x == 'x' || x == 'X') ? 16 : (x == 'o' || x == 'O') ? 8 : 2;
      const char* what = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
      p += 2;
      if (at(p) == '_') ++p;  // Python allows one underscore right after the prefix
      int n = digits(p, base, nullptr, &value, &overflow);
      if (is_digit(at(p)))
        fail(std::string("invalid digit '") + at(p) + "' in " + what + " literal");
      if (n <= 0 || glued_name(p)) fail(std::string("invalid ") + what + " literal");
    } else {
      std::string clean;  // the literal without underscores, for strtod
      bool is_float = false, imag = false;
      int n = digits(p, 10, &clean, &value, &overflow);
      if (n < 0) fail("invalid decimal literal");
      if (at(p) == '.') {
        is_float = true;
        clean += '.';
        ++p;
        if (digits(p, 10, &clean, nullptr, nullptr) < 0) fail("invalid decimal literal");
      }
      char e = at(p);
      if (e == 'e' || e == 'E') {
        size_t q = p + 1;
        if (at(q) == '+' || at(q) == '-') ++q;
        if (is_digit(at(q))) {
          is_float = true;
          clean += 'e';
          clean.append(s_, p + 1, q - p - 1);
          p = q;
          if (digits(p, 10, &clean, nullptr, nullptr) < 0) fail("invalid decimal literal");
        }
      }
      if (at(p) == 'j' || at(p) == 'J') {
        imag = true;
        ++p;
      }
      if (glued_name(p)) fail("invalid decimal literal");
      if (!is_float && !imag && s_[start] == '0')
        for (size_t i = start; i < p; ++i)
          if (s_[i] >= '1' && s_[i] <= '9')
            fail("leading zeros in decimal integer literals are not permitted; use an 0o prefix "
                 "for octal integers");
      if (is_float || imag) {
        Token& t = emit(TokenKind::Number, loc_at(start, p - start), s_.substr(start, p - start));
        t.is_float = true;
        t.is_imaginary = imag;
        t.float_value = parse_float(clean);
        pos_ = p;
        return;
      }
    }
    Token& t = emit(TokenKind::Number, loc_at(start, p - start), s_.substr(start, p - start));
    t.big_int = overflow || value > (uint64_t)INT64_MAX;
    t.fits_uint64 = !overflow;
    t.int_value = (int64_t)value;
    pos_ = p;
  }

  // Reads `count` hex digits at p for an escape; returns false if there are fewer.
  bool hex_digits(size_t p, int count, uint32_t* out) const {
    uint32_t v = 0;
    for (int i = 0; i < count; ++i) {
      int d = digit_value(at(p + i));
      if (d < 0) return false;
      v = v * 16 + (uint32_t)d;
    }
    *out = v;
    return true;
  }

  // Decodes the escape whose backslash is at p into `out`; returns the offset after it.
  size_t escape(size_t p, bool bytes, std::string& out) {
    char e = at(p + 1);
    SourceLoc loc = loc_at(p, 2);
    switch (e) {
      case '\\': out += '\\'; return p + 2;
      case '\'': out += '\''; return p + 2;
      case '"': out += '"'; return p + 2;
      case 'a': out += '\a'; return p + 2;
      case 'b': out += '\b'; return p + 2;
      case 'f': out += '\f'; return p + 2;
      case 'n': out += '\n'; return p + 2;
      case 'r': out += '\r'; return p + 2;
      case 't': out += '\t'; return p + 2;
      case 'v': out += '\v'; return p + 2;
      default: break;
    }
    uint32_t cp = 0;
    if (e >= '0' && e <= '7') {
      size_t q = p + 1;
      for (int i = 0; i < 3 && at(q) >= '0' && at(q) <= '7'; ++i, ++q) cp = cp * 8 + (at(q) - '0');
      if (bytes) out += (char)(cp & 0xFF);
      else append_utf8(out, cp);
      return q;
    }
    if (e == 'x') {
      if (!hex_digits(p + 2, 2, &cp)) error(loc, "truncated \\xXX escape");
      if (bytes) out += (char)cp;
      else append_utf8(out, cp);
      return p + 4;
    }
    if (!bytes && (e == 'u' || e == 'U')) {
      int n = e == 'u' ? 4 : 8;
      if (!hex_digits(p + 2, n, &cp))
        error(loc, e == 'u' ? "truncated \\uXXXX escape" : "truncated \\UXXXXXXXX escape");
      if (cp > 0x10FFFF) error(loc_at(p, 2 + n), "illegal Unicode character in \\U escape");
      append_utf8(out, cp);
      return p + 2 + n;
    }
    if (!bytes && e == 'N')
      user_error(src_, loc, ErrorKind::Unsupported, "\\N{...} escapes are not supported");
    out += '\\';  // an unknown escape keeps its backslash, as in Python
    return p + 1;
  }

  // An f-string, as Numba compiles it: each `{expr}` is str(expr) (its FORMAT_VALUE without a
  // spec), so the tokens emitted are those of `("text" + str(expr) + "text")`. A conversion
  // (!r), a format spec (:5) or `=` is refused with Numba's message. A triple-quoted one may
  // span lines (its expressions may not).
  void fstring(size_t start, size_t quote, bool raw, bool triple) {
    const char q = s_[quote];
    const SourceLoc where = loc_at(start, quote + 1 - start);
    const size_t first_token = out_.size(), first_piece = pieces_.size();
    auto refuse_spec = [&](size_t p) {
      user_error(src_, loc_at(p, 1), ErrorKind::Unsupported, "format spec in f-strings not supported yet");
    };
    struct Part {
      bool expr;
      std::string text;  // literal text
      size_t from, to;   // an expression's range in s_
      int line;          // and the line it is on, and that line's start
      size_t line_start;
    };
    std::vector<Part> pieces;
    std::string text;
    size_t p = quote + (triple ? 3 : 1);
    auto flush = [&] {
      if (!text.empty()) pieces.push_back({false, std::move(text), 0, 0, 0, 0});
      text.clear();
    };
    while (true) {
      if (p >= s_.size() || (s_[p] == '\n' && !triple))
        error(where, triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
      const char c = s_[p];
      if (c == q && (!triple || (at(p + 1) == q && at(p + 2) == q))) {
        p += triple ? 3 : 1;
        break;
      }
      if (c == '\r' && at(p + 1) == '\n') { ++p; continue; }  // CRLF reads as "\n", as in Python
      if (c == '\n') {
        text += '\n';
        next_line(p);
        p = pos_;
        continue;
      }
      if (c == '{' && at(p + 1) == '{') { text += '{'; p += 2; continue; }
      if (c == '}' && at(p + 1) == '}') { text += '}'; p += 2; continue; }
      if (c == '}') error(loc_at(p, 1), "f-string: single '}' is not allowed");
      if (c == '\\' && !raw) { p = escape(p, false, text); continue; }
      if (c != '{') { text += c; ++p; continue; }
      // {expr}: up to the '}' at depth 0; strings inside it use the other quote.
      const size_t a = p + 1;
      int depth = 0;
      size_t e = a;
      for (;; ++e) {
        const char d = at(e);
        if (d == '\0' || d == '\n' || d == q) error(loc_at(p, 1), "f-string: expecting '}'");
        if (d == '\'' || d == '"') {  // a string inside the expression
          size_t f = e + 1;
          while (at(f) && at(f) != d && at(f) != '\n') ++f;
          e = f;
          continue;
        }
        if (d == '(' || d == '[' || d == '{') ++depth;
        else if ((d == ')' || d == ']' || d == '}') && depth > 0) --depth;
        else if (d == '}') break;
        else if (depth == 0 && d == '!' && at(e + 1) != '=') refuse_spec(e);
        else if (depth == 0 && d == ':') refuse_spec(e);
        else if (depth == 0 && d == '=' && at(e + 1) != '=' && e > a &&
                 std::string("=!<>").find(s_[e - 1]) == std::string::npos)
          refuse_spec(e);  // {x=}
        else if (d == '=' && at(e + 1) == '=') ++e;
      }
      size_t k = a;
      while (k < e && (s_[k] == ' ' || s_[k] == '\t')) ++k;
      if (k == e) error(loc_at(p, 1), "f-string: empty expression not allowed");
      flush();
      pieces.push_back({true, "", a, e, line_, line_start_});
      p = e + 1;
    }
    flush();
    const size_t end = p;
    const int end_line = line_;
    const size_t end_line_start = line_start_;
    if (pieces.empty()) pieces.push_back({false, "", 0, 0});
    auto str_token = [&](std::string v) {
      Token& t = emit(TokenKind::String, where, "''");
      t.str_value = std::move(v);
    };
    if (pieces.size() == 1 && !pieces[0].expr) {
      str_token(std::move(pieces[0].text));
      pieces_.push_back({first_token, out_.size(), false});
      pos_ = end;
      return;
    }
    emit(TokenKind::LParen, where, "(");
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (i) emit(TokenKind::Plus, where, "+");
      if (!pieces[i].expr) {
        str_token(std::move(pieces[i].text));
        continue;
      }
      emit(TokenKind::Name, loc_at(pieces[i].from, pieces[i].to - pieces[i].from), "str");
      emit(TokenKind::LParen, where, "(");
      // The expression's own tokens, lexed where it stands (so its errors point into it).
      pos_ = pieces[i].from;
      line_ = pieces[i].line;
      line_start_ = pieces[i].line_start;
      const size_t depth = brackets_.size();
      while (pos_ < pieces[i].to) {
        const char c = s_[pos_];
        if (c == ' ' || c == '\t') ++pos_;
        else if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) number();
        else if (is_name_char(c)) name_or_string();
        else if (c == '"' || c == '\'') string(pos_, pos_);
        else punct();
      }
      if (brackets_.size() != depth) error(loc_at(pieces[i].from, 1), "f-string: unmatched bracket");
      emit(TokenKind::RParen, where, ")");
    }
    emit(TokenKind::RParen, where, ")");
    line_ = end_line;
    line_start_ = end_line_start;
    pieces_.resize(first_piece);  // literals inside its expressions join there, not here
    pieces_.push_back({first_token, out_.size(), true});
    pos_ = end;
  }

  // A string literal whose prefix starts at `start` and opening quote is at `quote`.
  void string(size_t start, size_t quote) {
    bool raw = false, bytes = false, fstr = false;
    for (size_t i = start; i < quote; ++i) {
      char c = s_[i];
      raw |= c == 'r' || c == 'R';
      bytes |= c == 'b' || c == 'B';
      fstr |= c == 'f' || c == 'F';
    }
    const char q = s_[quote];
    const bool triple = at(quote + 1) == q && at(quote + 2) == q;
    const SourceLoc first = loc_at(start, 1);
    if (fstr) return fstring(start, quote, raw, triple);
    auto unterminated = [&] {
      error(first, triple ? "unterminated triple-quoted string literal"
                          : "unterminated string literal");
    };
    std::string value;
    size_t p = quote + (triple ? 3 : 1);
    size_t first_line_end = std::string::npos;  // where the literal left its first line
    while (true) {
      if (p >= s_.size()) unterminated();
      char c = s_[p];
      if (c == q && (!triple || (at(p + 1) == q && at(p + 2) == q))) {
        p += triple ? 3 : 1;
        break;
      }
      if (c == '\r' && at(p + 1) == '\n') {  // Python reads CRLF in literals as "\n"
        ++p;
        continue;
      }
      if (c == '\n') {
        if (!triple) unterminated();
        value += '\n';
        if (first_line_end == std::string::npos) first_line_end = p;
        next_line(p);
        p = pos_;
        continue;
      }
      if (c == '\\') {
        if (p + 1 >= s_.size()) unterminated();
        size_t nl = at(p + 1) == '\r' && at(p + 2) == '\n' ? p + 2 : p + 1;
        if (s_[nl] == '\n') {  // backslash-newline: joins lines (kept as written in raw strings)
          if (raw) value += "\\\n";
          if (first_line_end == std::string::npos) first_line_end = p;
          next_line(nl);
          p = pos_;
          continue;
        }
        if (raw) {
          value += '\\';
          value += s_[p + 1];
          p += 2;
          continue;
        }
        p = escape(p, bytes, value);
        continue;
      }
      value += c;
      ++p;
    }
    SourceLoc loc = first;
    size_t end = first_line_end == std::string::npos ? p : first_line_end;
    loc.len = (int)(end - start);
    const size_t first_token = out_.size();
    Token& t = emit(TokenKind::String, loc, s_.substr(start, p - start));
    t.str_value = std::move(value);
    t.is_raw = raw;
    t.is_bytes = bytes;
    pieces_.push_back({first_token, out_.size(), false});
    pos_ = p;
  }

  void punct() {
    const Spelling* best = nullptr;
    size_t best_len = 0;
    for (const Spelling& sp : kPuncts) {
      size_t n = sp.len;
      if (n > best_len && sp.text[0] == s_[pos_] && s_.compare(pos_, n, sp.text) == 0) {
        best = &sp;
        best_len = n;
      }
    }
    char c = s_[pos_];
    if (!best) {
      if (c >= 0x21 && c <= 0x7E) error(here(1), std::string("invalid character '") + c + "'");
      char buf[64];
      std::snprintf(buf, sizeof buf, "invalid character (byte 0x%02X)", (unsigned)(unsigned char)c);
      error(here(1), buf);
    }
    SourceLoc loc = here(best_len);
    if (c == '(' || c == '[' || c == '{') {
      brackets_.push_back({c, loc});
    } else if (c == ')' || c == ']' || c == '}') {
      if (brackets_.empty()) error(loc, std::string("unmatched '") + c + "'");
      Open o = brackets_.back();
      char want = o.c == '(' ? ')' : o.c == '[' ? ']' : '}';
      if (c != want) {
        std::string msg = std::string("closing parenthesis '") + c +
                          "' does not match opening parenthesis '" + o.c + "'";
        if (o.loc.line != loc.line) msg += " on line " + std::to_string(o.loc.line);
        error(loc, msg);
      }
      brackets_.pop_back();
    }
    emit(best->kind, loc, s_.substr(pos_, best_len));
    pos_ += best_len;
  }
};

}  // namespace

const char* token_kind_name(TokenKind k) {
  switch (k) {
#define TOKEN(kind, desc) case TokenKind::kind: return desc;
#define KEYWORD(kind, spelling) case TokenKind::kind: return spelling;
#define PUNCT(kind, spelling) case TokenKind::kind: return spelling;
#include "compiler/tokens.def"
#undef TOKEN
#undef KEYWORD
#undef PUNCT
  }
  return "token";
}

std::vector<Token> tokenize(const SourceFile& src) { return Lexer(src).run(); }

}  // namespace cujit
