// Records in generated code: the C++ spelling of a record and the reads and stores of its fields.
// The layout is NumPy's (offsets from the dtype, compiler/types.h Record); the prelude's cj::Rec
// only gives the bytes their size and alignment, so records of one size and alignment share it.
#include <ostream>
#include <string>

#include "compiler/codegen.h"
#include "compiler/record_views.h"

namespace cujit {

namespace {
// A field's scalar may be read in place only where its offset and the record's alignment
// guarantee the address is aligned; a packed record's fields are read byte by byte (the GPU faults
// on a misaligned load).
bool aligned_field(const Record& r, const RecordField& f) {
  const int64_t a = f.type.is_scalar() ? scalar_align(f.type.scalar) : 1;
  return r.align % a == 0 && f.offset % a == 0;
}
std::string at(const std::string& rec, int64_t offset) {
  return "((char*)(" + rec + ") + " + std::to_string(offset) + ")";
}
}  // namespace

const Type* record_target(const ast::Node& target) {
  if ((target.is(ast::Kind::Attribute) || target.is(ast::Kind::Subscript)) && target.value()->type.is_record()) return &target.value()->type;
  return nullptr;
}

const RecordField& record_field_of(const ast::Node& e) {
  const Record& r = *e.value()->type.record;
  const ast::Node& ix = *e.index();
  if (ix.is(ast::Kind::Constant) && ix.cval.tag == ast::ConstValue::Tag::Str) return *r.find(ix.cval.s);
  int64_t k = 0;
  const_int_literal(ix, &k);
  return r.fields[k < 0 ? k + (int64_t)r.fields.size() : k];
}

std::string record_const_array(const std::string& sym, const GlobalValue& g, Target target, std::ostream* defs) {
  const std::string T = record_cpp(*g.record);
  const size_t n = g.bytes.size() / (size_t)g.record->size;
  if (defs) {  // each record as its bytes: NumPy's layout, padding included
    *defs << (target == Target::CUDA ? "__constant__ " : "static ") << "const " << T << " " << sym << "[" << (n ? n : 1) << "] = {";
    for (size_t i = 0; i < n; ++i) {
      *defs << (i ? ", " : "") << "{{";
      for (int64_t b = 0; b < g.record->size; ++b)
        *defs << (b ? "," : "") << (unsigned)(unsigned char)g.bytes[i * g.record->size + b];
      *defs << "}}";
    }
    *defs << "};\n";
  }
  std::string s = "cj::c_array<" + T + ", " + std::to_string(g.shape.size()) + ">((" + T + "*)" + sym;
  for (auto d : g.shape) s += ", (int64_t)" + std::to_string(d);
  return s + ")";
}

std::string record_cpp(const Record& r) {
  return "cj::Rec<" + std::to_string(r.size) + ", " + std::to_string(r.align) + ">";
}

std::string record_field_read(const Record& r, const RecordField& f, const std::string& rec) {
  if (f.type.is_charseq() && f.shape.empty()) return charseq_field_read(f, at(rec, f.offset));  // codegen_charseq.cpp
  const std::string elem = f.type.is_record() ? record_cpp(*f.type.record) : std::string(scalar_cpp(f.type.scalar));
  if (!f.shape.empty()) {
    std::string s = "cj::c_array<" + elem + ", " + std::to_string(f.shape.size()) + ">((" + elem + "*)" + at(rec, f.offset);
    for (int64_t d : f.shape) s += ", (int64_t)" + std::to_string(d);
    return s + ")";
  }
  if (f.type.is_record()) return "((" + elem + "*)" + at(rec, f.offset) + ")";
  return "cj::rec_get<" + elem + ", " + (aligned_field(r, f) ? "true" : "false") + ">(" + at(rec, f.offset) + ")";
}

std::string record_array_field_view(const Type& arr, const RecordField& f, const std::string& a, const Type& view) {
  const std::string elem = f.type.is_record() ? record_cpp(*f.type.record) : std::string(scalar_cpp(f.type.scalar));
  std::string s = "cj::field_view<" + elem + ", " + std::to_string(view.ndim) + ">(" + a + ", (int64_t)" +
                  std::to_string(f.offset);
  for (int64_t d : f.shape) s += ", (int64_t)" + std::to_string(d);
  (void)arr;
  return s + ")";
}

std::string record_field_store(const Record& r, const RecordField& f, const std::string& rec, const std::string& value,
                               const Type& value_type, bool host_only) {
  if (!f.shape.empty()) {
    const std::string view = record_field_read(r, f, rec);
    return (value_type.is_array() ? "cj::copy_into<" + std::string(error_policy(host_only)) + ">(" : std::string("cj::fill(")) + view + ", " + value + ");";
  }
  if (f.type.is_record()) return "*((" + record_cpp(*f.type.record) + "*)" + at(rec, f.offset) + ") = *(" + value + ");";
  if (f.type.is_charseq()) return charseq_field_store(f, at(rec, f.offset), value);  // codegen_charseq.cpp
  return "cj::rec_set<" + std::string(scalar_cpp(f.type.scalar)) + ", " + (aligned_field(r, f) ? "true" : "false") + ">(" +
         at(rec, f.offset) + ", " + value + ");";
}

}  // namespace cujit
