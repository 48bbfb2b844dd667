// Diagnostics: where in the user's Python a problem is, and how it is shown.
//
// Every user-facing error carries a SourceLoc in the user's file and renders as
//     <message>
//
//     file.py:LINE:
//         the offending line
//             ^~~~
// (chibicc's verror_at is the model). User errors (CompileError) and compiler bugs (InternalError)
// are different classes so that a bug in cujit is never blamed on the user's code.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cujit {

/// A position in the user's file: 1-based line, 0-based column, length of the token in columns.
struct SourceLoc {
  int line = 0;
  int col = 0;
  int len = 1;
};

/// The text of one Python function as the user wrote it, and where it came from.
/// `text` may be dedented by Python (functions nested in a test or a class); `col_offset` is how
/// many columns were removed, so carets land under the original line.
struct SourceFile {
  std::string filename;
  std::string text;
  int first_line = 1;   // line of `text`'s first line in the user's file
  int col_offset = 0;   // columns removed by dedent
  /// The line `line` (file numbering) of `text`, without its newline; "" if out of range.
  /// Scans `text` up to that line: for one line (an error), not in a loop over lines.
  std::string line_text(int line) const;
  /// Every line of `text` as line_text gives it, in one pass (listings that show every line
  /// would otherwise rescan the text for each one: quadratic in the function's length).
  std::vector<std::string> all_lines() const;
};

/// The Python exception class a CompileError becomes (see bindings/errors.cpp).
enum class ErrorKind {
  Typing,       // cujit.errors.TypingError: types do not fit, names unknown, wrong arguments
  Unsupported,  // cujit.errors.UnsupportedError: valid Python outside the compiled subset
  Syntax,       // cujit.errors.CompileSyntaxError (a SyntaxError): text the lexer/parser rejects
};

/// An error in the user's program.
class CompileError : public std::runtime_error {
 public:
  CompileError(ErrorKind kind, std::string message, std::string filename, SourceLoc loc,
               std::string rendered);
  ErrorKind kind;
  std::string message;   // the plain message, without location
  std::string filename;
  SourceLoc loc;
};

/// A bug in cujit itself.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// Renders "message\n\nfile.py:LINE:\n    line\n    ^~~" for `loc` in `src`.
std::string render_diagnostic(const SourceFile& src, SourceLoc loc, const std::string& message);

/// Throws a CompileError at `loc` in `src`.
[[noreturn]] void user_error(const SourceFile& src, SourceLoc loc, ErrorKind kind,
                             const std::string& message);

#define CUJIT_INTERNAL_CHECK(cond, msg)                                                   \
  do {                                                                                    \
    if (!(cond)) throw ::cujit::InternalError(std::string("internal error: ") + (msg) +  \
                                              " (" __FILE__ ":" + std::to_string(__LINE__) + ")"); \
  } while (0)

}  // namespace cujit
