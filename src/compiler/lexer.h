// The lexer: Python source text to tokens, with Python's rules for logical lines and indentation.
// Token kinds are listed once in tokens.def.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/diagnostics.h"

namespace cujit {

enum class TokenKind {
#define TOKEN(kind, desc) kind,
#define KEYWORD(kind, spelling) kind,
#define PUNCT(kind, spelling) kind,
#include "compiler/tokens.def"
#undef TOKEN
#undef KEYWORD
#undef PUNCT
};

/// How messages name a kind: the spelling for keywords and punctuation ("def", "**"), a
/// description for the others ("identifier", "end of line").
const char* token_kind_name(TokenKind k);

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;   // as written (a string keeps its prefix and quotes); "" for layout tokens
  SourceLoc loc;      // file line, 0-based column in src.text, len = columns on the first line

  // Number: the value. An int that does not fit int64 sets big_int and keeps its low 64 bits.
  bool is_float = false;
  bool is_imaginary = false;   // 2j: a complex128 literal (float_value is its imaginary part)
  bool big_int = false;
  bool fits_uint64 = true;     // big_int, but below 2**64: int_value holds it as uint64 bits
  int64_t int_value = 0;
  double float_value = 0.0;

  // String: the value with escapes decoded (UTF-8); a bytes literal keeps each escape as one byte.
  // An f-string is no token of its own: the lexer emits the tokens of ("text" + str(expr) + ...).
  std::string str_value;
  bool is_raw = false;
  bool is_bytes = false;

  bool is(TokenKind k) const { return kind == k; }
};

/// Splits `src.text` into tokens, ending with Newline (if the last line has any tokens), one Dedent
/// per open indentation level, and End. Throws CompileError (ErrorKind::Syntax) on text that is not
/// Python: characters that start no token, unterminated strings, bad numbers, unmatched brackets,
/// an unindent that matches no outer level.
std::vector<Token> tokenize(const SourceFile& src);

}  // namespace cujit
