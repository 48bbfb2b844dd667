// Char sequences in generated code (typeinfer_charseq.cpp types them): a record's 'S'/'U' field
// is copied out of the record's bytes as a cj::CharSeq (prelude/common.h), a literal that meets
// one is spelled as a cj::CharSeq of its code units, and comparisons and len() read the units.
#include <string>

#include "compiler/codegen.h"

namespace cujit {

std::string charseq_cpp(const Type& t) {
  return "cj::CharSeq<" + std::string(scalar_cpp(t.scalar)) + ", " + std::to_string(t.ndim) + ">";
}

std::string charseq_literal_code(const ast::Node& c) {
  const std::string& s = c.cval.s;
  std::string units;
  auto add = [&](uint32_t u) { units += (units.empty() ? "" : ", ") + std::to_string(u) + "u"; };
  if (!c.type.is_unicode_charseq()) {
    for (char ch : s) add((unsigned char)ch);
  } else {  // the UTF-8 text (the lexer's) as code points, NumPy's UCS-4
    for (size_t i = 0; i < s.size();) {
      const unsigned char b = (unsigned char)s[i];
      const int n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
      uint32_t u = n == 1 ? b : n == 2 ? b & 0x1F : n == 3 ? b & 0x0F : b & 0x07;
      for (int k = 1; k < n && i + k < s.size(); ++k) u = (u << 6) | ((unsigned char)s[i + k] & 0x3F);
      add(u);
      i += n;
    }
  }
  return charseq_cpp(c.type) + "{{" + (units.empty() ? "0u" : units) + "}}";
}

std::string charseq_compare_code(const std::string& l, ast::Op op, const std::string& r) {
  return "(cj::charseq_cmp(" + l + ", " + r + ") " + ast::op_spelling(op) + " 0)";
}

std::string charseq_field_read(const RecordField& f, const std::string& at) {
  return "cj::rec_chars<" + std::string(scalar_cpp(f.type.scalar)) + ", " + std::to_string(f.type.ndim) + ">(" + at + ")";
}

std::string charseq_field_store(const RecordField& f, const std::string& at, const std::string& value) {
  return "cj::rec_set_chars<" + std::string(scalar_cpp(f.type.scalar)) + ", " + std::to_string(f.type.ndim) + ">(" + at +
         ", " + value + ");";
}

}  // namespace cujit
