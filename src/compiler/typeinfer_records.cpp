// Typing of records (structured dtypes' elements): field reads `r.x` / `r['x']` / `r[0]`, stores
// into fields and elements, and the refusals where a record would reach a rule made for numbers.
#include <string>

#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {
[[noreturn]] void typing_error(const FunctionInstance& fn, const ast::Node& at, const std::string& msg) {
  user_error(fn.mod.source, at.loc, ErrorKind::Typing, msg);
}
[[noreturn]] void unsupported_error(const FunctionInstance& fn, const ast::Node& at, const std::string& msg) {
  user_error(fn.mod.source, at.loc, ErrorKind::Unsupported, msg);
}
}  // namespace

const RecordField& record_field(const FunctionInstance& fn, const ast::Node& at, const Type& rec, const std::string& name) {
  const RecordField* f = rec.record->find(name);
  if (!f) {
    std::string names;
    for (const auto& x : rec.record->fields) names += (names.empty() ? "'" : ", '") + x.name + "'";
    typing_error(fn, at, "Record has no field '" + name + "' (its fields: " + names + "); the record is " + rec.str());
  }
  if (!f->unsupported.empty())
    unsupported_error(fn, at, "field '" + name + "' of type " + f->unsupported +
                                  " is not supported in compiled code yet (the record passes, but this field cannot be read or written)");
  return *f;
}

const RecordField& record_field_at(const FunctionInstance& fn, const ast::Node& ix, const Type& rec) {
  if (ix.is(ast::Kind::Constant) && ix.cval.tag == ast::ConstValue::Tag::Str) return record_field(fn, ix, rec, ix.cval.s);
  int64_t k;
  if (const_int_literal(ix, &k)) {
    const int64_t n = (int64_t)rec.record->fields.size();
    if (k < -n || k >= n) typing_error(fn, ix, "record index " + std::to_string(k) + " out of range for a record of " + std::to_string(n) + " fields");
    return record_field(fn, ix, rec, rec.record->fields[k < 0 ? k + n : k].name);
  }
  typing_error(fn, ix, "a record is indexed by a constant field name or field number");
}

Type record_field_type(const RecordField& f, bool readonly) {
  Type t = f.type;
  if (!f.shape.empty())
    t = f.type.is_record() ? Type::record_array(f.type.record, (int)f.shape.size(), 'C') : Type::array(f.type.scalar, (int)f.shape.size(), 'C');
  if (t.is_record() || t.is_array()) t.readonly = readonly;  // a field of a read-only record
  return t;
}

void check_record_store(const FunctionInstance& fn, const ast::Node& at, const Type& base, const Type& target,
                        const Type& value) {
  if (base.readonly)  // Numba's TypingError for a read-only array; a record of one is read-only too
    typing_error(fn, at, base.is_record() ? "Cannot modify a record of a readonly array: " + base.str() : readonly_store_message(base));
  if (!value.known() || !target.known()) return;
  if (target.is_record()) {
    if (!(value.is_record() && value == target))
      typing_error(fn, at, "cannot store a " + value.str() + " into a " + target.str());
    return;
  }
  if (target.is_array()) {  // a nested array field: filled with a number, or copied from an array
    if (target.is_record_array()) unsupported_error(fn, at, "assigning to a nested array of records is not supported");
    if (value.is_scalar()) return;
    if (value.is_array() && !value.is_record_array() && value.ndim <= target.ndim) return;
    typing_error(fn, at, "cannot store a " + value.str() + " into a nested array field (" + target.str() + ")");
  }
  if (!value.is_scalar()) typing_error(fn, at, "cannot store a " + value.str() + " into a record field of type " + target.str());
}

void check_record_operands(const FunctionInstance& fn, const ast::Node& call, const std::string& name,
                           const std::vector<Type>& args) {
  if (name == "len" || name == "cuda.const.array_like") return;  // these read the array, not its elements
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].is_record() || args[i].is_record_array())
      unsupported_error(fn, i < call.list.size() ? *call.list[i] : call,
                        name + "() is not supported on records (got " + args[i].str() + "); use their fields");
}

}  // namespace cujit
