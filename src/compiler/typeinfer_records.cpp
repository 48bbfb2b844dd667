// Typing of records (structured dtypes' elements): field reads `r.x` / `r['x']` / `r[0]`, stores
// into fields and elements, and the refusals where a record would reach a rule made for numbers.
#include <string>

#include "compiler/diagnostics.h"
#include "compiler/record_views.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {
// `element`: the field of one record (r.x), which numba-cuda checks for alignment; an array's
// field view (a.x) it does not check (refused below where misaligned, for another reason).
const RecordField& checked_field(const FunctionInstance& fn, const ast::Node& at, const Type& rec,
                                 const std::string& name, bool element) {
  const RecordField* f = rec.record->find(name);
  if (!f) {
    std::string names;
    for (const auto& x : rec.record->fields) names += (names.empty() ? "'" : ", '") + x.name + "'";
    typing_error(fn, at, "Record has no field '" + name + "' (its fields: " + names + "); the record is " + rec.str());
  }
  if (!f->unsupported.empty())
    unsupported_error(fn, at, "field '" + name + "' of type " + f->unsupported +
                                  " is not supported in compiled code yet (the record passes, but this field cannot be read or written)");
  // numba-cuda's CUDA target reads and writes record fields with strict alignment and refuses,
  // when it compiles the access, a field whose offset its type's (a nested array's item type's)
  // alignment does not divide: a packed dtype's float64 at offset 4. cujit could read it byte by
  // byte, but a program numba-cuda refuses is refused here too, the simulator included (it
  // predicts the GPU; numba-cuda's own simulator checks nothing). Nested records align to 1.
  if (element && !fn.host_only && f->type.is_scalar()) {
    const int64_t a = scalar_align(f->type.scalar);
    if (f->offset % a != 0)
      typing_error(fn, at, rec.record->spelling + "." + name + " of type " + scalar_name(f->type.scalar) + " is not aligned");
  }
  // A nested array of multi-byte items in a packed record may start (or, in an array of such
  // records, repeat) at an address its items' alignment does not divide. Its view is read in
  // place, which faults on the GPU (CUDA_ERROR_MISALIGNED_ADDRESS loses the context); x86 CPU code
  // does not mind. Refused in GPU code (the simulator too, so it predicts the GPU) until the view
  // reads such items byte by byte, as scalar fields already are.
  if (!f->shape.empty() && f->type.is_scalar() && !fn.host_only) {
    const int64_t a = scalar_align(f->type.scalar);
    if (a > 1 && (f->offset % a != 0 || rec.record->size % a != 0))
      unsupported_error(fn, at, "field '" + name + "' is an array of " + scalar_name(f->type.scalar) + " at offset " +
                                    std::to_string(f->offset) + " of a packed record of " + std::to_string(rec.record->size) +
                                    " bytes, which GPU code cannot read in place (misaligned); use an aligned dtype (align=True)");
  }
  return *f;
}
}  // namespace

const RecordField& record_field(const FunctionInstance& fn, const ast::Node& at, const Type& rec, const std::string& name) {
  return checked_field(fn, at, rec, name, true);
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

bool record_array_field(const FunctionInstance& fn, const ast::Node& at, const Type& arr, const std::string& name,
                        Type* out) {
  if (!arr.is_record_array() || !arr.record->find(name)) return false;
  const RecordField& f = checked_field(fn, at, Type::record_of(arr.record), name, false);
  if (f.type.is_charseq())  // Numba's array of char sequences: no such array type here
    unsupported_error(fn, at, "field '" + name + "' of type " + f.type.str() +
                                  " cannot be viewed as an array; read it record by record (a[i]." + name + ")");
  // Items at offset + i * itemsize: aligned only where the record's size and the offset keep
  // them so. Such a view is read in place, which faults on the GPU (the nested array check in
  // record_field says why), so GPU code (and the simulator, which predicts it) refuses it.
  const bool aligned = !f.type.is_scalar() || (f.offset % scalar_align(f.type.scalar) == 0 &&
                                                arr.record->size % scalar_align(f.type.scalar) == 0);
  if (!aligned && !fn.host_only)
    user_error(fn.mod.source, at.loc, ErrorKind::Unsupported,
               "field '" + name + "' of type " + scalar_name(f.type.scalar) + " at offset " + std::to_string(f.offset) +
                   " of a packed record of " + std::to_string(arr.record->size) +
                   " bytes cannot be viewed as an array in GPU code (its items are misaligned); use an aligned "
                   "dtype (align=True)");
  const int ndim = arr.ndim + (int)f.shape.size();
  Type t = f.type.is_record() ? Type::record_array(f.type.record, ndim, 'A') : Type::array(f.type.scalar, ndim, 'A');
  t.readonly = arr.readonly;
  t.unaligned = arr.unaligned || !aligned;  // Numba's: the view of a packed record array is unaligned
  *out = t;
  return true;
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
  if (target.is_charseq()) return check_charseq_store(fn, at, target, value);  // typeinfer_charseq.cpp
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
      unsupported_error(fn, i < call.args().size() ? *call.args()[i] : call,
                        name + "() is not supported on records (got " + args[i].str() + "); use their fields");
}

}  // namespace cujit
