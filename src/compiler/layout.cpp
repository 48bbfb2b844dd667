// See layout.h.
#include "compiler/layout.h"

#include <algorithm>

namespace cujit {

Layout value_layout(const Type& t) {
  Layout l;
  if (t.is_optional()) {  // cj::Optional<T>: bool valid, then the value
    return value_layout(Type::tuple({Type::scalar_of(Scalar::Bool), t.elems[0]}));
  } else if (t.tag == Type::Tag::EnumMember) {  // an enum member is its value
    return value_layout(t.elems[0]);
  } else if (t.is_scalar()) {
    l.size = (size_t)scalar_size(t.scalar);
    l.align = (size_t)scalar_align(t.scalar);
  } else if (t.is_tuple()) {
    size_t off = 0;
    for (const auto& e : t.elems) {
      Layout el = value_layout(e);
      off = (off + el.align - 1) / el.align * el.align;
      l.offsets.push_back(off);
      off += el.size;
      l.align = std::max(l.align, el.align);
    }
    l.size = std::max<size_t>((off + l.align - 1) / l.align * l.align, 1);  // C++: an empty struct has one byte
  } else if (t.is_record() || t.is_list() || t.is_dict() || t.is_set() || t.tag == Type::Tag::String) {  // a pointer to the record's bytes, a list's, dict's or str's header
    l.size = l.align = 8;
  } else if (t.is_charseq()) {  // cj::CharSeq<T, N>: N code units (one when N is 0)
    l.align = (size_t)scalar_size(t.scalar);
    l.size = l.align * (size_t)std::max(t.ndim, 1);
  } else if (t.is_array()) {
    l.size = 8 + 16 * (size_t)t.ndim;
    l.align = 8;
  } else if (is_compile_time_value(t) || t.tag == Type::Tag::None) {
    l.size = 1;  // cj::Unit, an empty struct; None as a tuple's item: a bool (codegen.cpp's tuple_struct)
  }
  return l;
}

}  // namespace cujit
