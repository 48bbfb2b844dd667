// Fields of arrays of records as arrays (Numba's `a.x` / `a['x']` of a record array: a view of
// the field across the elements), typed in typeinfer_records.cpp and written in
// codegen_records.cpp.
#pragma once
#include <string>

#include "compiler/typeinfer.h"

namespace cujit {

/// When `arr` is an array of records with a field `name`, sets *out to the field's view type
/// (same dimensions and strides, then a nested array field's own, C-ordered; layout A) and
/// returns true; GPU code refuses a view whose items the record's packing misaligns.
bool record_array_field(const FunctionInstance& fn, const ast::Node& at, const Type& arr, const std::string& name,
                        Type* out);

/// The C++ view of field `f` of the record array `a` (type `arr`), of type `view`.
std::string record_array_field_view(const Type& arr, const RecordField& f, const std::string& a, const Type& view);

}  // namespace cujit
