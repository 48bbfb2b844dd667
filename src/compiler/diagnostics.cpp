// Rendering of user errors with the offending line and a caret under the token.
#include "compiler/diagnostics.h"

#include <sstream>

namespace cujit {

std::string SourceFile::line_text(int line) const {
  int want = line - first_line;
  if (want < 0) return "";
  size_t pos = 0;
  for (int i = 0; i < want; ++i) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return "";
    ++pos;
  }
  size_t end = text.find('\n', pos);
  std::string s = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return std::string(col_offset, ' ') + s;
}

std::vector<std::string> SourceFile::all_lines() const {
  std::vector<std::string> out;
  const std::string pad(col_offset, ' ');
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string s = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (!s.empty() && s.back() == '\r') s.pop_back();
    out.push_back(pad + s);
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return out;
}

CompileError::CompileError(ErrorKind kind, std::string message, std::string filename,
                           SourceLoc loc, std::string rendered)
    : std::runtime_error(std::move(rendered)),
      kind(kind),
      message(std::move(message)),
      filename(std::move(filename)),
      loc(loc) {}

std::string render_diagnostic(const SourceFile& src, SourceLoc loc, const std::string& message) {
  std::ostringstream os;
  os << message << "\n\n" << src.filename << ":" << loc.line << ":\n";
  std::string line = src.line_text(loc.line);
  if (line.empty()) return os.str();
  // Show the line as written, with tabs kept so the caret lines up under them.
  os << "    " << line << "\n    ";
  int col = loc.col + src.col_offset;
  if (loc.col < 0) {  // unknown column: point at the first non-blank character
    col = 0;
    while (col < (int)line.size() && (line[col] == ' ' || line[col] == '\t')) ++col;
  }
  for (int i = 0; i < col && i < (int)line.size(); ++i) os << (line[i] == '\t' ? '\t' : ' ');
  os << '^';
  int len = loc.len;
  if (col + len > (int)line.size()) len = (int)line.size() - col;
  for (int i = 1; i < len; ++i) os << '~';
  os << "\n";
  return os.str();
}

void user_error(const SourceFile& src, SourceLoc loc, ErrorKind kind, const std::string& message) {
  throw CompileError(kind, message, src.filename, loc, render_diagnostic(src, loc, message));
}

}  // namespace cujit
