// The dialect every generated function is written in, for both targets (cuda.h or host.h comes
// first and defines CJ_FN, the integer types and CJ_LIBM_F/D). Arithmetic here follows Python's
// and Numba's semantics where C's differ: floor division and modulo take the divisor's sign,
// integer powers stay integers, shifts past the width give 0, min/max keep the first of equals.
namespace cj {

// kMaxDims, Array<T, N> (an array argument) and UfuncArgs<N>: src/abi/cujit_abi.h.

template <class T, int N>
CJ_FN int64_t size(const Array<T, N>& a) {
  int64_t n = 1;
  for (int k = 0; k < N; ++k) n *= a.shape[k];
  return n;
}

// The index width of the program: IndexWidth<D>::narrow is true in a kernel's narrow variant,
// launched when every array argument's elements lie within 2^31 bytes of its data pointer
// (bindings/kernel.cpp). Declared here and defined by the generated text (compiler/codegen.cpp)
// after the prelude, where the variant's CJ_INDEX32 is known, so one precompiled prelude serves
// every variant; D is any int, so that the name depends on a template parameter.
template <int D>
struct IndexWidth;

// The byte offset of element ix of an array whose dimensions are shorter than 2^31 and whose
// elements all lie in (-2^31, 2^31) bytes from its data pointer (the narrow variant): an
// in-bounds index, its wrapped value, each term and every partial sum then fit int32 exactly.
// The wrap stays in int64, where NVVM knows more ranges (a loop's counter is not negative).
template <int N, class... I>
CJ_FN int64_t offset32(const int64_t* shape, const int64_t* strides, I... ix) {
  const int64_t idx[] = {(int64_t)ix...};
  int32_t off = 0;
  for (int k = 0; k < N; ++k) {
    int64_t i = idx[k];
    if (i < 0) i += shape[k];  // in int64, where NVVM knows more ranges (a loop's counter)
    off += (int32_t)i * (int32_t)strides[k];
  }
  return off;
}

// Negative indices count from the end, as in Python (Numba wraps them too).
template <class T, int N, class... I>
CJ_FN T& elem(const Array<T, N>& a, I... ix) {
  static_assert(sizeof...(I) == N, "one index per dimension");
  if constexpr (IndexWidth<N>::narrow) {
    return *(T*)((char*)a.data + offset32<N>(a.shape, a.strides, ix...));
  } else {
    const int64_t idx[] = {(int64_t)ix...};
    char* p = (char*)a.data;
    for (int k = 0; k < N; ++k) {
      int64_t i = idx[k];
      if (i < 0) i += a.shape[k];
      p += i * a.strides[k];
    }
    return *(T*)p;
  }
}

/// A record's bytes (an element of a structured dtype): S bytes aligned to A, laid out as NumPy
/// lays out the dtype. Generated code holds a record as a pointer to these bytes and reads and
/// writes each field at its byte offset (compiler/codegen_records.cpp), so the runtime passes
/// NumPy's own bytes. A field is read in place where its address is aligned, else byte by byte.
template <int S, int A>
struct alignas(A) Rec {
  unsigned char b[S];
};
template <class T, bool Aligned>
CJ_FN T rec_get(const char* p) {
  if (Aligned) return *(const T*)p;
  T v;
  for (int i = 0; i < (int)sizeof(T); ++i) ((unsigned char*)&v)[i] = (unsigned char)p[i];
  return v;
}
template <class T, bool Aligned>
CJ_FN void rec_set(char* p, T v) {
  if (Aligned) { *(T*)p = v; return; }
  for (int i = 0; i < (int)sizeof(T); ++i) p[i] = (char)((const unsigned char*)&v)[i];
}

/// A record's 'S' or 'U' field as a value (Numba's CharSeq / UnicodeCharSeq, codegen_charseq.cpp):
/// N code units (uint8_t bytes, or uint32_t code points as NumPy's UCS-4), NUL-padded. Its
/// length is Numba's and NumPy's: up to the last non-NUL unit. A literal is one of its length.
template <class T, int N>
struct CharSeq {
  T c[N > 0 ? N : 1];
};
template <class T, int N>
CJ_FN int64_t charseq_len(const CharSeq<T, N>& s) {
  int64_t n = N;
  while (n > 0 && s.c[n - 1] == 0) --n;
  return n;
}
/// <0, 0 or >0 as a orders before, with or after b (Numba's: code by code, then the shorter first).
template <class T, int N, int M>
CJ_FN int charseq_cmp(const CharSeq<T, N>& a, const CharSeq<T, M>& b) {
  const int64_t na = charseq_len(a), nb = charseq_len(b);
  for (int64_t i = 0; i < na && i < nb; ++i)
    if (a.c[i] != b.c[i]) return a.c[i] < b.c[i] ? -1 : 1;
  return na < nb ? -1 : na > nb ? 1 : 0;
}
/// A field's value, copied from the record's bytes (byte by byte: a packed record may misalign it).
template <class T, int N>
CJ_FN CharSeq<T, N> rec_chars(const char* p) {
  CharSeq<T, N> s;
  for (int i = 0; i < (int)(N * sizeof(T)); ++i) ((unsigned char*)s.c)[i] = (unsigned char)p[i];
  return s;
}
/// Stores v into a field of N units: cut to N, or NUL-padded (Numba's cast to the field's type).
template <class T, int N, int M>
CJ_FN void rec_set_chars(char* p, const CharSeq<T, M>& v) {
  CharSeq<T, N> s;
  for (int i = 0; i < N; ++i) s.c[i] = i < M ? v.c[i] : (T)0;
  for (int i = 0; i < (int)(N * sizeof(T)); ++i) p[i] = (char)((const unsigned char*)s.c)[i];
}

/// a.x of an array of records (compiler/codegen_records.cpp): field F at byte `offset` of each
/// element, with the array's shape and strides, then a nested array field's sizes `dims`
/// (C-ordered within the record): M = N + their count.
template <class F, int M, class T, int N, class... D>
CJ_FN Array<F, M> field_view(const Array<T, N>& a, int64_t offset, D... dims) {
  const int64_t d[] = {(int64_t)dims..., 0};  // the 0: no zero-length array without dims
  Array<F, M> r;
  r.data = (F*)((char*)a.data + offset);
  for (int k = 0; k < N; ++k) { r.shape[k] = a.shape[k]; r.strides[k] = a.strides[k]; }
  int64_t stride = (int64_t)sizeof(F);
  for (int k = M - 1; k >= N; --k) {
    r.shape[k] = d[k - N];
    r.strides[k] = stride;
    stride *= d[k - N];
  }
  return r;
}

/// A C-ordered array over `data` with sizes d[0..N) (also np.empty's, prelude/host_arrays.h).
template <class T, int N>
CJ_FN Array<T, N> c_array_of(T* data, const int64_t* d) {
  Array<T, N> r;
  r.data = data;
  int64_t stride = (int64_t)sizeof(T);
  for (int k = N - 1; k >= 0; --k) {
    r.shape[k] = d[k];
    r.strides[k] = stride;
    stride *= d[k];
  }
  return r;
}

/// A C-ordered array over `data` (cuda.local.array / cuda.shared.array storage).
template <class T, int N, class... D>
CJ_FN Array<T, N> c_array(T* data, D... dims) {
  const int64_t d[] = {(int64_t)dims...};
  return c_array_of<T, N>(data, d);
}

/// cuda.shared.array storage whose rows hold `row` elements, the last dimension's d[N-1] of them
/// the array's: padding against bank conflicts (compiler/shared_layout.h), GPU code only.
template <class T, int N, class... D>
CJ_FN Array<T, N> c_array_rows(T* data, int64_t row, D... dims) {
  const int64_t d[] = {(int64_t)dims...};
  Array<T, N> r;
  r.data = data;
  int64_t stride = (int64_t)sizeof(T);
  for (int k = N - 1; k >= 0; --k) {
    r.shape[k] = d[k];
    r.strides[k] = stride;
    stride *= k == N - 1 ? row : d[k];
  }
  return r;
}

/// a.copy() of an array into C-ordered storage `dst` of the same shape (GPU code); returns dst.
template <class T, class U, int N>
CJ_FN Array<T, N> copy_array(Array<T, N> dst, const Array<U, N>& src) {
  const int64_t n = size(src);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rem = i;
    const char* p = (const char*)src.data;
    for (int k = N - 1; k >= 0; --k) {
      p += (rem % src.shape[k]) * src.strides[k];
      rem /= src.shape[k];
    }
    dst.data[i] = (T) * (const U*)p;
  }
  return dst;
}

/// a.T: a view with the axes reversed (both targets, as Numba and numba-cuda).
template <class T, int N>
CJ_FN Array<T, N> npa_transpose(const Array<T, N>& a) {
  Array<T, N> r;
  r.data = a.data;
  for (int k = 0; k < N; ++k) { r.shape[k] = a.shape[N - 1 - k]; r.strides[k] = a.strides[N - 1 - k]; }
  return r;
}

/// a[i, j] with fewer indices than dimensions: a view of the remaining ones.
template <class T, int N, class... I>
CJ_FN Array<T, N - (int)sizeof...(I)> subarray(const Array<T, N>& a, I... ix) {
  constexpr int K = (int)sizeof...(I);
  Array<T, N - K> r;
  char* p = (char*)a.data;
  if constexpr (IndexWidth<N>::narrow) {
    p += offset32<K>(a.shape, a.strides, ix...);
  } else {
    const int64_t idx[] = {(int64_t)ix...};
    for (int k = 0; k < K; ++k) {
      int64_t i = idx[k];
      if (i < 0) i += a.shape[k];
      p += i * a.strides[k];
    }
  }
  r.data = (T*)p;
  for (int k = K; k < N; ++k) {
    r.shape[k - K] = a.shape[k];
    r.strides[k - K] = a.strides[k];
  }
  return r;
}

#if CJ_TARGET_HOST
// The simulator's checked indexing (host.h's sim_index_error says why and how it stops).
template <class T, int N, class... I>
CJ_FN void check_indices(const Array<T, N>& a, const char* array, const char* where, I... ix) {
  const int64_t idx[] = {(int64_t)ix...};
  for (int k = 0; k < (int)sizeof...(I); ++k) {
    const int64_t i = idx[k] < 0 ? idx[k] + a.shape[k] : idx[k];  // negatives count from the end
    if (__builtin_expect((uint64_t)i >= (uint64_t)a.shape[k], 0)) sim_index_error(array, where, k, idx[k], a.shape[k]);
  }
}
template <class T, int N, class... I>
CJ_FN T& elem_checked(const Array<T, N>& a, const char* array, const char* where, I... ix) {
  check_indices(a, array, where, ix...);
  return elem(a, ix...);
}
template <class T, int N, class... I>
CJ_FN Array<T, N - (int)sizeof...(I)> subarray_checked(const Array<T, N>& a, const char* array, const char* where, I... ix) {
  check_indices(a, array, where, ix...);
  return subarray(a, ix...);
}
#if CJ_SIM_RACECHECK
// elem_checked plus the race check (host.h): `kind` says whether the access reads, writes or both.
template <class T, int N, class... I>
CJ_FN T& elem_race(const Array<T, N>& a, const char* array, const char* where, int kind, I... ix) {
  check_indices(a, array, where, ix...);
  T& x = elem(a, ix...);
  const int64_t idx[] = {(int64_t)ix...};
  sim_race_access(&x, (int64_t)sizeof(T), kind, array, where, idx, (int)sizeof...(I));
  return x;
}
#endif
#elif CJ_DEBUG_CHECKS
// The GPU's checked indexing with debug=True (cuda.h's index_fault records and exits the thread).
template <class T, int N, class... I>
CJ_FN void check_indices(const Array<T, N>& a, int32_t site, I... ix) {
  const int64_t idx[] = {(int64_t)ix...};
  for (int k = 0; k < (int)sizeof...(I); ++k) {
    const int64_t i = idx[k] < 0 ? idx[k] + a.shape[k] : idx[k];
    if ((uint64_t)i >= (uint64_t)a.shape[k]) index_fault(site, k, idx[k], a.shape[k]);
  }
}
template <class T, int N, class... I>
CJ_FN T& elem_checked(const Array<T, N>& a, int32_t site, I... ix) {
  check_indices(a, site, ix...);
  return elem(a, ix...);
}
template <class T, int N, class... I>
CJ_FN Array<T, N - (int)sizeof...(I)> subarray_checked(const Array<T, N>& a, int32_t site, I... ix) {
  check_indices(a, site, ix...);
  return subarray(a, ix...);
}
#endif

/// The address of the flat (C-order) element k of an N-d view.
template <class T, int N>
CJ_FN T* flat_elem(const Array<T, N>& a, int64_t k) {
  char* p = (char*)a.data;
  for (int d = N - 1; d >= 0; --d) {
    p += (k % a.shape[d]) * a.strides[d];
    k /= a.shape[d];
  }
  return (T*)p;
}
/// a.flat[k]: the flat element k in C order, a negative k counting from the end (NumPy's).
template <class T, int N>
CJ_FN T& flat_at(const Array<T, N>& a, int64_t k) {
  if (k < 0) k += size(a);
  return *flat_elem(a, k);
}
/// The bytes [lo, hi) a non-empty view spans (cujit_abi.h's array_byte_extent).
template <class T, int N>
CJ_FN void byte_range(const Array<T, N>& a, const char** lo, const char** hi) {
  int64_t l, h;
  array_byte_extent(a.shape, a.strides, N, (int64_t)sizeof(T), &l, &h);
  *lo = (const char*)a.data + l;
  *hi = (const char*)a.data + h;
}
/// Whether two non-empty views may share memory (their byte ranges meet), as Numba's setslice
/// asks before deciding to copy the source.
template <class T, int N, class U, int M>
CJ_FN bool byte_ranges_overlap(const Array<T, N>& a, const Array<U, M>& b) {
  const char *la, *ha, *lb, *hb;
  byte_range(a, &la, &ha);
  byte_range(b, &lb, &hb);
  return la < hb && lb < ha;
}
/// a[...] = v: every element of the view (by this one thread, as in Numba's kernels).
template <class T, int N>
CJ_FN void fill(const Array<T, N>& a, T v) {
  const int64_t n = size(a);
  for (int64_t k = 0; k < n; ++k) *flat_elem(a, k) = v;
}
/// a[...] = b: b's elements converted to a's dtype, b's dimensions aligned to a's last ones and
/// broadcast where they are 1, as NumPy assigns. A b that does not broadcast to a's shape is
/// Numba's ValueError (Err: ufuncs.h's UfErrLaunch in kernels, the simulator stopping the launch
/// and a GPU thread ending; host_arrays.h's UfErrPy in @jit code, raised in the caller).
template <class Err, class T, int N, class U, int M>
CJ_FN void copy_into(const Array<T, N>& a, const Array<U, M>& b) {
  static_assert(M <= N, "the typer rejects a source with more dimensions");
  bool fits = true;
  for (int bd = 0; bd < M; ++bd) fits = fits && (b.shape[bd] == 1 || b.shape[bd] == a.shape[bd + N - M]);
  if (!fits) {
#if CJ_TARGET_HOST
    static thread_local char msg[256];  // PyError keeps the pointer: the text must outlive the throw
    int len = std::snprintf(msg, sizeof msg, "ValueError: cannot assign slice of shape (");
    for (int d = 0; d < N; ++d) len += std::snprintf(msg + len, sizeof msg - len, d ? ", %lld" : "%lld", (long long)a.shape[d]);
    len += std::snprintf(msg + len, sizeof msg - len, N == 1 ? ",) from input of shape (" : ") from input of shape (");
    for (int d = 0; d < M; ++d) len += std::snprintf(msg + len, sizeof msg - len, d ? ", %lld" : "%lld", (long long)b.shape[d]);
    std::snprintf(msg + len, sizeof msg - len, M == 1 ? ",)" : ")");
    Err::fail(msg);
    return;
#else
    Err::fail("");
    return;
#endif
  }
  // Numba reads the whole source before writing when the two share memory (its setslice copies
  // the source first): a[1:] = a[:-1] shifts, a[:] = a.T transposes. The copy is C-ordered.
  const int64_t n = size(a);
  char* scratch = nullptr;
  Array<U, M> src = b;
  if (n > 0 && size(b) > 0 && byte_ranges_overlap(a, b)) {
    const int64_t nb = size(b);
    scratch = (char*)malloc((size_t)(nb * (int64_t)sizeof(U)));
    if (!scratch) {
      Err::fail("MemoryError: no memory to copy an overlapping source of a slice assignment");
      return;
    }
    for (int64_t k = 0; k < nb; ++k) memcpy(scratch + k * (int64_t)sizeof(U), (const void*)flat_elem(b, k), sizeof(U));
    src.data = (U*)scratch;
    int64_t stride = (int64_t)sizeof(U);
    for (int d = M - 1; d >= 0; --d) {
      src.strides[d] = stride;
      stride *= b.shape[d];
    }
  }
  for (int64_t k = 0; k < n; ++k) {
    const char* q = (const char*)src.data;
    int64_t rest = k;
    for (int d = N - 1; d >= 0; --d) {
      const int64_t i = rest % a.shape[d];
      rest /= a.shape[d];
      const int bd = d - (N - M);
      if (bd >= 0 && b.shape[bd] != 1) q += i * src.strides[bd];
    }
    *flat_elem(a, k) = (T) * (const U*)q;
  }
  if (scratch) free(scratch);
}

/// One index of a view: an integer (kind 0), a slice (kind 1) whose missing start and stop
/// are flagged in `has` (bit 0: start given, bit 1: stop given), resolved as Python's
/// slice.indices does, or None / np.newaxis (kind 2): a new axis of length 1, taking none of a's.
struct Ix {
  int64_t start, stop, step;
  int kind, has;
};
CJ_FN Ix ix_int(int64_t i) { return Ix{i, 0, 1, 0, 0}; }
CJ_FN Ix ix_slice(int64_t start, int64_t stop, int64_t step, int has) { return Ix{start, stop, step, 1, has}; }
CJ_FN Ix ix_new() { return Ix{0, 0, 1, 2, 0}; }

/// a[i, lo:hi:step, ...]: a view (no copy) with M dimensions.
template <int M, class T, int N, class... S>
CJ_FN Array<T, M> view(const Array<T, N>& a, S... s) {
  const Ix ix[] = {s...};
  constexpr int K = (int)sizeof...(S);
  Array<T, M> r;
  char* p = (char*)a.data;
  int o = 0, j = 0;  // j: the index that a's axis k takes (new axes take none)
  for (int k = 0; k < N; ++k) {
    for (; j < K && ix[j].kind == 2; ++j) r.shape[o] = 1, r.strides[o++] = 0;
    const int64_t n = a.shape[k];
    if (j >= K) {
      r.shape[o] = n;
      r.strides[o++] = a.strides[k];
      continue;
    }
    const Ix x = ix[j++];
    if (x.kind == 0) {
      int64_t i = x.start;
      if (i < 0) i += n;
      p += i * a.strides[k];
      continue;
    }
    int64_t step = x.step == 0 ? 1 : x.step, start, stop;
    if (step > 0) {
      start = (x.has & 1) ? x.start : 0;
      stop = (x.has & 2) ? x.stop : n;
      if (start < 0) { start += n; if (start < 0) start = 0; } else if (start > n) start = n;
      if (stop < 0) { stop += n; if (stop < 0) stop = 0; } else if (stop > n) stop = n;
    } else {
      start = (x.has & 1) ? x.start : n - 1;
      stop = (x.has & 2) ? x.stop : -1 - n;
      if (start < 0) { start += n; if (start < 0) start = -1; } else if (start >= n) start = n - 1;
      if (stop < 0) { stop += n; if (stop < 0) stop = -1; } else if (stop >= n) stop = n - 1;
    }
    int64_t len = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                           : (start > stop ? (start - stop - step - 1) / (-step) : 0);
    p += (len > 0 ? start : 0) * a.strides[k];
    r.shape[o] = len;
    r.strides[o++] = a.strides[k] * step;
  }
  for (; j < K; ++j) r.shape[o] = 1, r.strides[o++] = 0;  // trailing new axes
  r.data = (T*)p;
  return r;
}

// The axis of the first integer index of a view outside it (negatives count from the end), or
// -1; that index in *bad.
template <class T, int N>
CJ_FN int bad_view_axis(const Array<T, N>& a, const Ix* ix, int K, int64_t* bad) {
  for (int j = 0, k = 0; j < K && k < N; ++j) {
    if (ix[j].kind == 2) continue;  // a new axis takes none of a's
    if (ix[j].kind == 0) {
      const int64_t i = ix[j].start < 0 ? ix[j].start + a.shape[k] : ix[j].start;
      if ((uint64_t)i >= (uint64_t)a.shape[k]) return *bad = ix[j].start, k;
    }
    ++k;
  }
  return -1;
}
#if CJ_TARGET_HOST
template <int M, class T, int N, class... S>
CJ_FN Array<T, M> view_checked(const Array<T, N>& a, const char* array, const char* where, S... s) {
  const Ix ix[] = {s...};
  int64_t bad = 0;
  const int k = bad_view_axis(a, ix, (int)sizeof...(S), &bad);
  if (k >= 0) sim_index_error(array, where, k, bad, a.shape[k]);
  return view<M>(a, s...);
}
#elif CJ_DEBUG_CHECKS
template <int M, class T, int N, class... S>
CJ_FN Array<T, M> view_checked(const Array<T, N>& a, int32_t site, S... s) {
  const Ix ix[] = {s...};
  int64_t bad = 0;
  const int k = bad_view_axis(a, ix, (int)sizeof...(S), &bad);
  if (k >= 0) index_fault(site, k, bad, a.shape[k]);
  return view<M>(a, s...);
}
#endif

// The itemsize of each operand of a ufunc loop (inputs, then the output), written by codegen;
// the GPU loop's vector path reads them (prelude/cuda.h).
template <int A, int... R>
struct MaxOf {
  static constexpr int v = A > MaxOf<R...>::v ? A : MaxOf<R...>::v;
};
template <int A>
struct MaxOf<A> {
  static constexpr int v = A;
};
template <int... S>
struct Sizes {
  static constexpr int n = sizeof...(S);
  static constexpr int v[n] = {S...};
  static constexpr int max = MaxOf<S...>::v;
};

template <int N>
CJ_FN void ufunc_pointers(const UfuncArgs<N>& p, int64_t i, char** out) {
  if (p.ndim == 1) {
    for (int k = 0; k < N; ++k) out[k] = p.ptr[k] + i * p.strides[k][0];
    return;
  }
  for (int k = 0; k < N; ++k) out[k] = p.ptr[k];
  for (int d = (int)p.ndim - 1; d >= 0; --d) {
    const int64_t c = i % p.shape[d];
    i /= p.shape[d];
    for (int k = 0; k < N; ++k) out[k] += c * p.strides[k][d];
  }
}

// An intermediate result of a fused chain of CUDA ufuncs (compiler/codegen_fuse.cpp). Unfused,
// each ufunc rounds its result to its type in memory; the empty asm makes the value opaque so the
// compiler cannot contract it into the next ufunc's arithmetic (an fma of one's multiply and the
// next one's add) and the fused result stays bit-identical. Integers have nothing to contract;
// only integer, boolean, float32 and float64 intermediates are fused.
template <class T>
CJ_FN T fuse_barrier(T x) {
  return x;
}
#if CJ_TARGET_HOST
#if defined(__x86_64__) || defined(__i386__)
CJ_FN float fuse_barrier(float x) { __asm__ volatile("" : "+x"(x)); return x; }
CJ_FN double fuse_barrier(double x) { __asm__ volatile("" : "+x"(x)); return x; }
#else
CJ_FN float fuse_barrier(float x) { __asm__ volatile("" : "+m"(x)); return x; }
CJ_FN double fuse_barrier(double x) { __asm__ volatile("" : "+m"(x)); return x; }
#endif
#else
// An empty asm stops NVVM, but ptxas still contracts the mul.f32 before it with the add.f32
// after it into an fma (seen on the GPU: fused and unfused results differed in the last bit).
// Adding -0.0 with an explicit rounding mode returns x exactly (NaN, infinities and signed zeros
// included), and ptxas never contracts a .rn instruction.
CJ_FN float fuse_barrier(float x) { asm volatile("add.rn.f32 %0, %0, 0f80000000;" : "+f"(x)); return x; }
CJ_FN double fuse_barrier(double x) { asm volatile("add.rn.f64 %0, %0, 0d8000000000000000;" : "+d"(x)); return x; }
#endif

// ---- Python arithmetic ------------------------------------------------------------------------
// Division by zero follows NumPy's error model (what Numba uses on the GPU): integers give 0,
// floats give inf or nan, nothing traps.
CJ_FN int64_t floordiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  // INT64_MIN // -1 overflows: Numba's // and divmod give 0 there (numbers.py, int_divmod_signed,
  // on the CPU and in numba-cuda alike); NumPy's floor_divide wraps (uf_floor_divide).
  if (b == -1) return a == (int64_t)(-9223372036854775807LL - 1) ? 0 : -a;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
CJ_FN uint64_t floordiv(uint64_t a, uint64_t b) { return b ? a / b : 0; }
CJ_FN int64_t pymod(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
CJ_FN uint64_t pymod(uint64_t a, uint64_t b) { return b ? a % b : 0; }

CJ_FN double pymod(double a, double b) {
  if (b == 0) return CJ_NAN;
  double m = CJ_LIBM_D(fmod)(a, b);
  if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else { m = CJ_LIBM_D(copysign)(0.0, b); }
  return m;
}
CJ_FN float pymod(float a, float b) {
  if (b == 0) return (float)CJ_NAN;
  float m = CJ_LIBM_F(fmod)(a, b);
  if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else { m = CJ_LIBM_F(copysign)(0.0f, b); }
  return m;
}
// Python's float floor division: computed from fmod so that a == b * (a // b) + a % b.
CJ_FN double floordiv(double a, double b) {
  if (b == 0) return a / b;
  double m = CJ_LIBM_D(fmod)(a, b);
  double d = (a - m) / b;
  if (m != 0 && ((b < 0) != (m < 0))) d -= 1.0;
  if (d == 0) return CJ_LIBM_D(copysign)(0.0, a / b);
  double f = CJ_LIBM_D(floor)(d);
  if (d - f > 0.5) f += 1.0;
  return f;
}
CJ_FN float floordiv(float a, float b) {
  if (b == 0) return a / b;
  float m = CJ_LIBM_F(fmod)(a, b);
  float d = (a - m) / b;
  if (m != 0 && ((b < 0) != (m < 0))) d -= 1.0f;
  if (d == 0) return CJ_LIBM_F(copysign)(0.0f, a / b);
  float f = CJ_LIBM_F(floor)(d);
  if (d - f > 0.5f) f += 1.0f;
  return f;
}

// Numba's int_power (cpython/numbers.py) for int ** int and float ** int: the exponent keeps its
// own type (a uint64 above 2**63 is not negative), and an exponent above 0x10000 is not squared
// but handed to math.pow(a, float(b)) in double, rounded to the result type (squaring a float32
// 70000 times drifts by 0.15%; an int64 result out of range is the target's conversion of the
// double, INT64_MIN on x86 as Numba's, saturated on the GPU as numba-cuda's).
template <class U>
CJ_FN bool pow_exp_negative(U b) {
  if constexpr ((U)-1 < (U)0) return b < 0;
  else return false;
}
template <class U>
CJ_FN bool pow_exp_large(U b) {
  return pow_exp_negative(b) ? (uint64_t)0 - (uint64_t)b > 0x10000u : (uint64_t)b > 0x10000u;
}
// Integer ** integer by squaring, wrapping like NumPy; a negative exponent gives 0 unless the
// base is 1 or -1, and 0 ** -n gives the type's smallest value, as Numba's NumPy error model (GPU
// code, error_model='numpy'; host_services.h's py_ipow raises instead).
template <class T, class U>
CJ_FN T ipow(T a, U b) {
  if (pow_exp_negative(b)) {
    if (a == 0) return (T)((uint64_t)1 << (8 * sizeof(T) - 1));
    if (a != 1 && a != (T)-1) return 0;
  }
  if (pow_exp_large(b)) return (T)CJ_LIBM_D(pow)((double)a, (double)b);
  if (pow_exp_negative(b)) return (a == 1 || (b % 2) == 0) ? (T)1 : (T)-1;
  uint64_t base = (uint64_t)a, r = 1;
  uint64_t e = (uint64_t)b;
  while (e) {
    if (e & 1) r *= base;
    base *= base;
    e >>= 1;
  }
  return (T)r;
}
// float ** integer: Numba multiplies by squaring rather than calling pow, so x**2 is exactly x*x.
template <class F, class U>
CJ_FN F powi(F x, U n) {
  if (pow_exp_large(n)) return (F)CJ_LIBM_D(pow)((double)x, (double)n);
  bool inv = pow_exp_negative(n);
  uint64_t e = inv ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
  F r = 1;
  while (e) {
    if (e & 1) r *= x;
    x *= x;
    e >>= 1;
  }
  return inv ? (F)1 / r : r;
}
// range(a, b, 0): Python and Numba raise ValueError. On the simulator that stops the launch with
// the message; on the GPU the thread ends, as numba-cuda's kernels end on an exception.
template <class T>
CJ_FN T range_step(T step) {
#if CJ_TARGET_HOST
  if (step == 0) sim_value_error("ValueError: range() arg 3 must not be zero");
#else
  if (step == 0) asm volatile("exit;");
#endif
  return step;
}
// The number of items of range(start, stop, step), its step already checked (range_step): the
// distance in unsigned arithmetic, which holds any int64 difference.
template <class T>
CJ_FN int64_t range_count(T start, T stop, T step) {
  if (step > 0) return start < stop ? (int64_t)(((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1) : 0;
  if (start <= stop) return 0;
  return (int64_t)(((uint64_t)start - (uint64_t)stop - 1) / (0 - (uint64_t)step) + 1);
}
// A function, intrinsic or type object held as a value (compiler/types.h, is_compile_time_value):
// what it is lives in the type, so the value has nothing in it.
struct Unit {};
// a.view(dtype) in GPU code: the same bytes as U. NumPy's rule for another itemsize: the last
// axis contiguous and its bytes a multiple of U's size, else ValueError (the simulator stops the
// launch with it; the GPU thread ends, as numba-cuda's does on an exception).
template <class U, class T, int N>
CJ_FN Array<U, N> array_view(const Array<T, N>& a) {
  Array<U, N> r;
  r.data = (U*)a.data;
  for (int k = 0; k < N; ++k) { r.shape[k] = a.shape[k]; r.strides[k] = a.strides[k]; }
  if (sizeof(U) != sizeof(T)) {
    const int64_t bytes = a.shape[N - 1] * (int64_t)sizeof(T);
    if ((a.shape[N - 1] > 1 && a.strides[N - 1] != (int64_t)sizeof(T)) || bytes % (int64_t)sizeof(U) != 0) {
#if CJ_TARGET_HOST
      sim_value_error("ValueError: new type not compatible with array.");
#else
      asm volatile("exit;");
#endif
    }
    r.shape[N - 1] = bytes / (int64_t)sizeof(U);
    r.strides[N - 1] = (int64_t)sizeof(U);
  }
  return r;
}
// t[i] past a tuple's end (run-time i): IndexError in Python and Numba. The simulator stops the
// launch with it (SimulatorIndexError); the GPU thread ends, as numba-cuda's does on an exception.
// @jit code raises instead (host_services.h's py_tuple_index_error).
CJ_FN void tuple_index_error() {
#if CJ_TARGET_HOST
  sim_value_error("IndexError: tuple index out of range");
#else
  asm volatile("exit;");
#endif
}
template <class T>
CJ_FN T lshift(T a, T b) {
  if (b < 0 || b >= (T)(8 * sizeof(T))) return 0;
  return (T)((uint64_t)a << b);
}
template <class T>
CJ_FN T rshift(T a, T b) {
  if (b < 0 || b >= (T)(8 * sizeof(T))) return a < 0 ? (T)-1 : (T)0;
  return (T)(a >> b);
}

template <class T> CJ_FN T abs(T x) { return x < 0 ? (T)-x : x; }
CJ_FN float abs(float x) { return CJ_LIBM_F(fabs)(x); }
CJ_FN double abs(double x) { return CJ_LIBM_D(fabs)(x); }
// Python's max(a, b) keeps a unless b is greater (so max(nan, 1) is nan and max(1, nan) is 1).
template <class T> CJ_FN T max(T a, T b) { return b > a ? b : a; }
template <class T> CJ_FN T min(T a, T b) { return b < a ? b : a; }
// GPU code's max/min of two floats: numba-cuda's GPU lowers them to libdevice's fmax/fmin
// (PTX max.f32/f64), which drop a NaN operand (max(nan, 1.0) is 1.0), unlike Python; the
// simulator runs GPU code, so it does the same. @jit code keeps Python's max/min above.
CJ_FN float max_float(float a, float b) { return CJ_LIBM_F(fmax)(a, b); }
CJ_FN double max_float(double a, double b) { return CJ_LIBM_D(fmax)(a, b); }
CJ_FN float min_float(float a, float b) { return CJ_LIBM_F(fmin)(a, b); }
CJ_FN double min_float(double a, double b) { return CJ_LIBM_D(fmin)(a, b); }

// ---- math ---------------------------------------------------------------------------------------
#define CJ_MATH1(name, f32, f64) \
  CJ_FN float name(float x) { return CJ_LIBM_F(f32)(x); } \
  CJ_FN double name(double x) { return CJ_LIBM_D(f64)(x); }
#define CJ_MATH2(name, f32, f64) \
  CJ_FN float name(float x, float y) { return CJ_LIBM_F(f32)(x, y); } \
  CJ_FN double name(double x, double y) { return CJ_LIBM_D(f64)(x, y); }
CJ_MATH1(sqrt, sqrt, sqrt)
CJ_MATH1(exp, exp, exp)
CJ_MATH1(expm1, expm1, expm1)
CJ_MATH1(log, log, log)
CJ_MATH1(log1p, log1p, log1p)
CJ_MATH1(log2, log2, log2)
CJ_MATH1(log10, log10, log10)
CJ_MATH1(sin, sin, sin)
CJ_MATH1(cos, cos, cos)
CJ_MATH1(tan, tan, tan)
CJ_MATH1(asin, asin, asin)
CJ_MATH1(acos, acos, acos)
CJ_MATH1(atan, atan, atan)
CJ_MATH1(sinh, sinh, sinh)
CJ_MATH1(cosh, cosh, cosh)
CJ_MATH1(tanh, tanh, tanh)
CJ_MATH1(asinh, asinh, asinh)
CJ_MATH1(acosh, acosh, acosh)
CJ_MATH1(atanh, atanh, atanh)
CJ_MATH1(erf, erf, erf)
CJ_MATH1(erfc, erfc, erfc)
CJ_MATH1(tgamma, tgamma, tgamma)
CJ_MATH1(lgamma, lgamma, lgamma)
CJ_MATH1(fabs, fabs, fabs)
CJ_MATH1(cbrt, cbrt, cbrt)
CJ_FN float fma(float a, float b, float c) { return CJ_LIBM_F(fma)(a, b, c); }
CJ_FN double fma(double a, double b, double c) { return CJ_LIBM_D(fma)(a, b, c); }
CJ_MATH2(pow, pow, pow)
CJ_MATH2(atan2, atan2, atan2)
#if CJ_TARGET_HOST
// float32 hypot as glibc's hypotf computes it (the squares, exact in double, summed and rooted in
// double, one rounding to float; an infinity wins over NaN, as Numba's wrapper of hypotf says),
// written inline so that array loops (np.hypot) vectorise: the same bits as the call (checked
// against glibc 2.36's hypotf on 2*10^8 random pairs), not -ffast-math's libmvec. The infinity
// is chosen with integer masks: GCC if-converts no float compare or select here (-ftrapping-math).
CJ_FN float hypot(float x, float y) {
  const float r = (float)CJ_LIBM_D(sqrt)((double)x * (double)x + (double)y * (double)y);
  uint32_t bx, by, br;
  __builtin_memcpy(&bx, &x, 4);
  __builtin_memcpy(&by, &y, 4);
  __builtin_memcpy(&br, &r, 4);
  const uint32_t inf = 0u - (uint32_t)(((bx & 0x7fffffffu) == 0x7f800000u) | ((by & 0x7fffffffu) == 0x7f800000u));
  br = (br & ~inf) | (0x7f800000u & inf);
  float out;
  __builtin_memcpy(&out, &br, 4);
  return out;
}
CJ_FN double hypot(double x, double y) { return CJ_LIBM_D(hypot)(x, y); }
#else
CJ_MATH2(hypot, hypot, hypot)
#endif
CJ_MATH2(copysign, copysign, copysign)
CJ_MATH2(fmod, fmod, fmod)
CJ_MATH1(exp2, exp2, exp2)
CJ_MATH2(nextafter, nextafter, nextafter)
CJ_MATH2(remainder, remainder, remainder)
// GPU code's math.floor/ceil/trunc (numba-cuda types them as floats).
CJ_MATH1(floor_f, floor, floor)
CJ_MATH1(ceil_f, ceil, ceil)
CJ_MATH1(trunc_f, trunc, trunc)
// math.frexp(x) -> (m, e) as the tuple struct Tup; Python's (inf, 0) and (nan, 0) (C leaves the
// exponent unspecified there).
CJ_FN float frexp_m(float x, int* e) { return CJ_LIBM_F(frexp)(x, e); }
CJ_FN double frexp_m(double x, int* e) { return CJ_LIBM_D(frexp)(x, e); }
template <class Tup, class F>
CJ_FN Tup frexp(F x) {
  int e = 0;
  F m = frexp_m(x, &e);
  if (x != x || x == (F)CJ_INF || x == -(F)CJ_INF) e = 0;
  return Tup{m, (int32_t)e};
}
// math.modf(x) -> (fraction, integer part), each with x's sign, as the tuple struct Tup (C's modf
// gives Python's (0.0, inf) for inf and (nan, nan) for nan).
CJ_FN float modf_m(float x, float* i) { return CJ_LIBM_F(modf)(x, i); }
CJ_FN double modf_m(double x, double* i) { return CJ_LIBM_D(modf)(x, i); }
template <class Tup, class F>
CJ_FN Tup modf(F x) {
  F i = 0;
  F f = modf_m(x, &i);
  return Tup{f, i};
}
// math.ldexp(x, i): an exponent past any float's range gives the same result as the clamped one
// (C's ldexp takes an int: a wrapped int64 would scale by the wrong power in silence).
CJ_FN double ldexp(double x, int64_t i) { return CJ_LIBM_D(ldexp)(x, (int)(i > 100000 ? 100000 : i < -100000 ? -100000 : i)); }
CJ_FN float ldexp(float x, int64_t i) { return CJ_LIBM_F(ldexp)(x, (int)(i > 100000 ? 100000 : i < -100000 ? -100000 : i)); }
// math.gcd: non-negative, as in Python (gcd(-12, 8) is 4); computed on magnitudes in uint64 so
// that INT64_MIN has one.
template <class T>
CJ_FN T gcd(T a, T b) {
  uint64_t x = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
  while (y) { uint64_t t = x % y; x = y; y = t; }
  return (T)x;
}
CJ_FN float degrees(float x) { return x * (180.0f / 3.14159265358979323846f); }
CJ_FN double degrees(double x) { return x * (180.0 / 3.141592653589793238462643383279502884); }
CJ_FN float radians(float x) { return x * (3.14159265358979323846f / 180.0f); }
CJ_FN double radians(double x) { return x * (3.141592653589793238462643383279502884 / 180.0); }
// math.floor/ceil/trunc return int in Python 3, and so in Numba.
CJ_FN int64_t floor(float x) { return (int64_t)CJ_LIBM_F(floor)(x); }
CJ_FN int64_t floor(double x) { return (int64_t)CJ_LIBM_D(floor)(x); }
CJ_FN int64_t ceil(float x) { return (int64_t)CJ_LIBM_F(ceil)(x); }
CJ_FN int64_t ceil(double x) { return (int64_t)CJ_LIBM_D(ceil)(x); }
CJ_FN int64_t trunc(float x) { return (int64_t)CJ_LIBM_F(trunc)(x); }
CJ_FN int64_t trunc(double x) { return (int64_t)CJ_LIBM_D(trunc)(x); }
// Written out so they hold whatever the compiler's math flags (no isnan builtin differences).
CJ_FN bool isnan(double x) { return x != x; }
CJ_FN bool isinf(double x) { return x == CJ_INF || x == -CJ_INF; }
CJ_FN bool isfinite(double x) { return !isnan(x) && !isinf(x); }
CJ_FN bool isnan(float x) { return x != x; }
CJ_FN bool isinf(float x) { return isinf((double)x); }
CJ_FN bool isfinite(float x) { return !isnan(x) && !isinf(x); }
// round(x) is round-half-even to an int; round(x, n) stays a float.
CJ_FN int64_t round_even(float x) { return (int64_t)CJ_LIBM_F(rint)(x); }
CJ_FN int64_t round_even(double x) { return (int64_t)CJ_LIBM_D(rint)(x); }
// Numba's round(x, n) (which is CPython's without its exact dtoa): scale by 10**n in float64 (10**n
// by squaring, as Numba computes float ** int, and so to the same last bit), round
// half to even in x's type, scale back. 10**n is split past 1e22 so that it overflows only where
// the product would; where the product is not finite x comes back unchanged. Where 10**-n is
// infinite the result is a zero of x's sign, as in Python (Numba computes 0 * inf = nan there).
CJ_FN float rint_as(float x) { return CJ_LIBM_F(rint)(x); }
CJ_FN double rint_as(double x) { return CJ_LIBM_D(rint)(x); }
template <class F>
CJ_FN F round_digits_as(F x, int64_t n) {
  if (!isfinite(x)) return x;
  if (n >= 0) {
    const double p1 = powi(10.0, n > 22 ? n - 22 : n), p2 = n > 22 ? 1e22 : 1.0;
    const double y = (double)x * p1 * p2;
    if (!isfinite(y)) return x;
    return (F)((double)rint_as((F)y) / p2 / p1);
  }
  const double p1 = powi(10.0, (int64_t)(0 - (uint64_t)n));
  if (isinf(p1)) return (F)CJ_LIBM_D(copysign)(0.0, (double)x);
  return (F)((double)rint_as((F)((double)x / p1)) * p1);
}
CJ_FN double round_digits(double x, int64_t n) { return round_digits_as(x, n); }
CJ_FN float round_digits(float x, int64_t n) { return round_digits_as(x, n); }
// GPU code (numba-cuda's round(x, n)): the same steps with the scaled value rounded in float64
// for float32 too; the result is then converted to x's type.
CJ_FN double round_digits_f64(double x, int64_t n) { return round_digits_as(x, n); }
CJ_FN float round_digits_f64(float x, int64_t n) {
  if (!isfinite(x)) return x;
  return (float)round_digits_as((double)x, n);
}

// cuda.selp(test, a, b): both values are computed before the choice, a select with no branch (PTX
// selp), as in numba-cuda.
template <class C, class T> CJ_FN T selp(C test, T a, T b) { return test ? a : b; }

// ---- bit intrinsics (cuda.popc/clz/ffs/brev), written portably; NVCC turns them into the
// single instructions. Widths follow the argument's type.
template <class T> CJ_FN uint32_t popc(T x) {
  uint64_t v = (uint64_t)x & (sizeof(T) == 8 ? ~0ULL : ((1ULL << (8 * sizeof(T))) - 1));
  uint32_t n = 0;
  while (v) { v &= v - 1; ++n; }
  return n;
}
template <class T> CJ_FN uint32_t clz(T x) {
  const int w = 8 * (int)sizeof(T);
  uint64_t v = (uint64_t)x;
  for (int i = w - 1; i >= 0; --i) if ((v >> i) & 1) return (uint32_t)(w - 1 - i);
  return (uint32_t)w;
}
template <class T> CJ_FN uint32_t ffs(T x) {
  const int w = 8 * (int)sizeof(T);
  uint64_t v = (uint64_t)x;
  for (int i = 0; i < w; ++i) if ((v >> i) & 1) return (uint32_t)(i + 1);
  return 0;
}
// int.bit_count() in CPU code: the ones of |x|, as in Python (Numba's @njit has no bit_count).
template <class T> CJ_FN T bit_count(T x) {
  uint64_t v = x < 0 ? 0 - (uint64_t)(int64_t)x : (uint64_t)x;
  return (T)popc(v);
}
// In GPU code numba-cuda counts the ones of x's own bits (popc: 63 for int64 -3, checked on an
// H100), so cujit's GPU code does too, on the GPU and on the simulator.
template <class T> CJ_FN T bit_count_bits(T x) {
  uint64_t v = (uint64_t)x;
  if (sizeof(T) < 8) v &= (1ULL << (8 * sizeof(T))) - 1;
  return (T)popc(v);
}
template <class T> CJ_FN T brev(T x) {
  const int w = 8 * (int)sizeof(T);
  uint64_t v = (uint64_t)x, r = 0;
  for (int i = 0; i < w; ++i) if ((v >> i) & 1) r |= 1ULL << (w - 1 - i);
  return (T)r;
}

// Calls of foreign device functions (cuda.declare_device). The function's own declaration (from
// the linked source, or one codegen writes from the Numba signature) decides the C types: `f`'s
// parameter types are deduced, so a source that spells its result `unsigned int*` or an argument
// `unsigned long long` still fits the Numba types int32 and uint64; arguments convert to its
// types, and the Numba ABI's result (stored through the first parameter) comes back bit for bit.
template <class R, class P0, class... Ps, class... As>
CJ_FN R foreign_numba(int (*f)(P0, Ps...), As... as) {
  static_assert(sizeof...(Ps) == sizeof...(As), "the foreign function's parameters differ from its declared signature");
  alignas(16) unsigned char buf[sizeof(R) < 16 ? 16 : sizeof(R)] = {};
  f((P0)(void*)buf, ((Ps)as)...);
  R r;
  for (unsigned i = 0; i < sizeof(R); ++i) ((unsigned char*)&r)[i] = buf[i];  // no memcpy in NVRTC's -minimal
  return r;
}
template <class P0, class... Ps, class... As>
CJ_FN void foreign_numba_void(int (*f)(P0, Ps...), As... as) {
  static_assert(sizeof...(Ps) == sizeof...(As), "the foreign function's parameters differ from its declared signature");
  alignas(16) unsigned char buf[16] = {};
  f((P0)(void*)buf, ((Ps)as)...);
}
template <class R, class Rf, class... Ps, class... As>
CJ_FN R foreign_c(Rf (*f)(Ps...), As... as) {
  static_assert(sizeof...(Ps) == sizeof...(As), "the foreign function's parameters differ from its declared signature");
  return (R)f(((Ps)as)...);
}
template <class Rf, class... Ps, class... As>
CJ_FN void foreign_c_void(Rf (*f)(Ps...), As... as) {
  static_assert(sizeof...(Ps) == sizeof...(As), "the foreign function's parameters differ from its declared signature");
  f(((Ps)as)...);
}
// Numba's OptionalType: what a function returns where some paths return None (@jit code, and
// numba-cuda's device functions). Unwrapped where it is used as a value: @jit code raises
// TypeError (host_services.h, unwrap); GPU code raises site `site` (unwrap_or_raise: numba-cuda's
// TypeError, reported after the launch with debug=True and on the simulator; without debug the
// thread ends, as numba-cuda's unreported exceptions end it).
template <class T>
struct Optional {
  bool valid;
  T value;
};
template <class T>
CJ_FN T unwrap_or_raise(const Optional<T>& o, int32_t site) {
  if (!o.valid) gpu_raise(site);
  return o.value;
}
// Division in GPU code built with debug=True (codegen_exc.cpp zero_division_code): a zero divisor
// raises raise site `site` (gpu_raise, cuda.h / host.h); `always` 0 (the simulator's floats):
// only when the numerator is finite and nonzero, as NumPy's divide='raise' does.
template <class T>
CJ_FN bool dbg_zero(T a, T b, int always) {
  if (b != 0) return false;
  if (always) return true;
  return a != 0 && isfinite((double)a);
}
template <class T>
CJ_FN T dbg_truediv(T a, T b, int32_t site, int always) {
  if (dbg_zero(a, b, always)) gpu_raise(site);
  return a / b;
}
template <class T>
CJ_FN T dbg_floordiv(T a, T b, int32_t site, int always) {
  if (dbg_zero(a, b, always)) gpu_raise(site);
  return floordiv(a, b);
}
template <class T>
CJ_FN T dbg_mod(T a, T b, int32_t site, int always) {
  if (dbg_zero(a, b, always)) gpu_raise(site);
  return pymod(a, b);
}
}  // namespace cj
