// Whether a launch's array arguments can alias: the test that picks a kernel's restrict variant
// (compiler/codegen.h kernel_restrict_candidate). It reads the words the launch already has
// (a cj::Array's data pointer, shape and byte strides), so the fast path pays O(ndim) per array
// and a sort of at most 16 ranges. Ranges are the bytes between an array's first and last
// element: two interleaved views of one buffer (a[::2], a[1::2]) count as overlapping, which only
// costs the faster variant, never a wrong answer.
#pragma once
#include <cstddef>
#include <cstdint>

#include "abi/cujit_abi.h"

namespace cujit {

struct ByteSpan {
  uintptr_t lo = 0, hi = 0;  // [lo, hi); lo == hi: no element
};

/// The bytes an array's elements occupy (words: data, shape[ndim], strides[ndim]).
inline ByteSpan array_span(const int64_t* words, int ndim, int64_t itemsize) {
  int64_t lo, hi;
  cj::array_byte_extent(words + 1, words + 1 + ndim, ndim, itemsize, &lo, &hi);
  if (lo == hi) return {};  // no element: the kernel reaches no byte of it
  const uintptr_t data = (uintptr_t)words[0];
  return {data + (uintptr_t)lo, data + (uintptr_t)hi};
}

/// Whether no two of the n spans share a byte (empty spans share none). Sorts `s` in place.
inline bool spans_disjoint(ByteSpan* s, size_t n) {
  for (size_t i = 1; i < n; ++i) {  // insertion sort by start: n is small
    ByteSpan x = s[i];
    size_t j = i;
    for (; j > 0 && s[j - 1].lo > x.lo; --j) s[j] = s[j - 1];
    s[j] = x;
  }
  uintptr_t end = 0;  // the furthest end so far of a non-empty span
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    if (s[i].lo == s[i].hi) continue;
    if (any && s[i].lo < end) return false;
    if (!any || s[i].hi > end) end = s[i].hi;
    any = true;
  }
  return true;
}

}  // namespace cujit
