// The GPU's cache-hinted loads and stores and its atomics (after cuda.h, GPU programs only). A
// part of its own because NVRTC's precompiled prelude costs a compile time in proportion to its
// size, and these overloads (CUDA's intrinsics instantiated for every element type) are a large
// share of it: a program gets this header only where its code names cj::atomic_*, cj::ld*/st*
// (pipeline.cpp cuda_optional_parts). The simulator's are in host.h.
namespace cj {
// Cache-hinted loads and stores (cuda.ldca..., cuda.stcg...): CUDA's __ldca/__stcg intrinsics, one
// overload per element type through the intrinsics' own types (int64_t is `long` here).
#define CJ_CACHE_LOAD(name, intr)                                                                  \
  CJ_FN int8_t name(const int8_t* p) { return (int8_t)intr((const signed char*)p); }              \
  CJ_FN uint8_t name(const uint8_t* p) { return (uint8_t)intr((const unsigned char*)p); }         \
  CJ_FN int16_t name(const int16_t* p) { return intr((const short*)p); }                          \
  CJ_FN uint16_t name(const uint16_t* p) { return intr((const unsigned short*)p); }               \
  CJ_FN int32_t name(const int32_t* p) { return intr((const int*)p); }                            \
  CJ_FN uint32_t name(const uint32_t* p) { return intr((const unsigned int*)p); }                 \
  CJ_FN int64_t name(const int64_t* p) { return (int64_t)intr((const long long*)p); }             \
  CJ_FN uint64_t name(const uint64_t* p) { return (uint64_t)intr((const unsigned long long*)p); } \
  CJ_FN float name(const float* p) { return intr(p); }                                            \
  CJ_FN double name(const double* p) { return intr(p); }
#define CJ_CACHE_STORE(name, intr)                                                                   \
  CJ_FN void name##_(int8_t* p, int8_t v) { intr((signed char*)p, (signed char)v); }                \
  CJ_FN void name##_(uint8_t* p, uint8_t v) { intr((unsigned char*)p, (unsigned char)v); }          \
  CJ_FN void name##_(int16_t* p, int16_t v) { intr((short*)p, (short)v); }                          \
  CJ_FN void name##_(uint16_t* p, uint16_t v) { intr((unsigned short*)p, (unsigned short)v); }      \
  CJ_FN void name##_(int32_t* p, int32_t v) { intr((int*)p, (int)v); }                              \
  CJ_FN void name##_(uint32_t* p, uint32_t v) { intr((unsigned int*)p, (unsigned int)v); }          \
  CJ_FN void name##_(int64_t* p, int64_t v) { intr((long long*)p, (long long)v); }                  \
  CJ_FN void name##_(uint64_t* p, uint64_t v) { intr((unsigned long long*)p, (unsigned long long)v); } \
  CJ_FN void name##_(float* p, float v) { intr(p, v); }                                             \
  CJ_FN void name##_(double* p, double v) { intr(p, v); }                                           \
  template <class T, class V> CJ_FN void name(T* p, V v) { name##_(p, (T)v); }
CJ_CACHE_LOAD(ldca, __ldca)
CJ_CACHE_LOAD(ldcg, __ldcg)
CJ_CACHE_LOAD(ldcs, __ldcs)
CJ_CACHE_LOAD(ldlu, __ldlu)
CJ_CACHE_LOAD(ldcv, __ldcv)
CJ_CACHE_STORE(stcg, __stcg)
CJ_CACHE_STORE(stcs, __stcs)
CJ_CACHE_STORE(stwb, __stwb)
CJ_CACHE_STORE(stwt, __stwt)
#undef CJ_CACHE_LOAD
#undef CJ_CACHE_STORE
// Atomics return the old value. CUDA has no 64-bit signed add, and no float max/min: those go
// through the unsigned add (same bits) or a compare-and-swap loop.
CJ_FN int32_t atomic_add(int32_t* p, int32_t v) { return atomicAdd(p, v); }
CJ_FN uint32_t atomic_add(uint32_t* p, uint32_t v) { return atomicAdd(p, v); }
CJ_FN uint64_t atomic_add(uint64_t* p, uint64_t v) { return atomicAdd((unsigned long long*)p, (unsigned long long)v); }
CJ_FN int64_t atomic_add(int64_t* p, int64_t v) { return (int64_t)atomicAdd((unsigned long long*)p, (unsigned long long)v); }
CJ_FN float atomic_add(float* p, float v) { return atomicAdd(p, v); }
CJ_FN double atomic_add(double* p, double v) { return atomicAdd(p, v); }
template <class T> CJ_FN T atomic_sub(T* p, T v) { return atomic_add(p, (T)(0 - v)); }
CJ_FN float atomic_sub(float* p, float v) { return atomicAdd(p, -v); }
CJ_FN double atomic_sub(double* p, double v) { return atomicAdd(p, -v); }
CJ_FN int32_t atomic_max(int32_t* p, int32_t v) { return atomicMax(p, v); }
CJ_FN uint32_t atomic_max(uint32_t* p, uint32_t v) { return atomicMax(p, v); }
CJ_FN int64_t atomic_max(int64_t* p, int64_t v) { return atomicMax((long long*)p, (long long)v); }
CJ_FN uint64_t atomic_max(uint64_t* p, uint64_t v) { return atomicMax((unsigned long long*)p, (unsigned long long)v); }
CJ_FN int32_t atomic_min(int32_t* p, int32_t v) { return atomicMin(p, v); }
CJ_FN uint32_t atomic_min(uint32_t* p, uint32_t v) { return atomicMin(p, v); }
CJ_FN int64_t atomic_min(int64_t* p, int64_t v) { return atomicMin((long long*)p, (long long)v); }
CJ_FN uint64_t atomic_min(uint64_t* p, uint64_t v) { return atomicMin((unsigned long long*)p, (unsigned long long)v); }
template <class F, class B, class Op>
CJ_FN F atomic_float_cas(F* p, F v, Op op) {
  B* bp = (B*)p;
  B old = *bp, assumed;
  do {
    assumed = old;
    F cur = *(F*)&assumed;
    F next = op(cur, v);
    old = atomicCAS(bp, assumed, *(B*)&next);
  } while (old != assumed);
  return *(F*)&old;
}
// Numba's atomic max/min on floats ignore NaN in the value only where nanmax/nanmin say so;
// max(cur, v) here keeps cur unless v is greater, as Python's max does.
struct CjMaxOp { template <class F> CJ_FN F operator()(F a, F b) const { return b > a ? b : a; } };
struct CjMinOp { template <class F> CJ_FN F operator()(F a, F b) const { return b < a ? b : a; } };
CJ_FN float atomic_max(float* p, float v) { return atomic_float_cas<float, unsigned int>(p, v, CjMaxOp{}); }
CJ_FN double atomic_max(double* p, double v) { return atomic_float_cas<double, unsigned long long>(p, v, CjMaxOp{}); }
CJ_FN float atomic_min(float* p, float v) { return atomic_float_cas<float, unsigned int>(p, v, CjMinOp{}); }
CJ_FN double atomic_min(double* p, double v) { return atomic_float_cas<double, unsigned long long>(p, v, CjMinOp{}); }
CJ_FN int32_t atomic_exch(int32_t* p, int32_t v) { return atomicExch(p, v); }
CJ_FN uint32_t atomic_exch(uint32_t* p, uint32_t v) { return atomicExch(p, v); }
CJ_FN int64_t atomic_exch(int64_t* p, int64_t v) { return (int64_t)atomicExch((unsigned long long*)p, (unsigned long long)v); }
CJ_FN uint64_t atomic_exch(uint64_t* p, uint64_t v) { return atomicExch((unsigned long long*)p, (unsigned long long)v); }
CJ_FN float atomic_exch(float* p, float v) { return atomicExch(p, v); }
CJ_FN double atomic_exch(double* p, double v) {
  return __longlong_as_double((long long)atomicExch((unsigned long long*)p, (unsigned long long)__double_as_longlong(v)));
}
// Integer bit atomics; 64-bit signed ones through the unsigned instruction (same bits).
#define CJ_CUDA_BIT_ATOMIC(name, fn)                                                             \
  CJ_FN int32_t name(int32_t* p, int32_t v) { return fn(p, v); }                                  \
  CJ_FN uint32_t name(uint32_t* p, uint32_t v) { return fn(p, v); }                               \
  CJ_FN uint64_t name(uint64_t* p, uint64_t v) { return fn((unsigned long long*)p, (unsigned long long)v); } \
  CJ_FN int64_t name(int64_t* p, int64_t v) { return (int64_t)fn((unsigned long long*)p, (unsigned long long)v); }
CJ_CUDA_BIT_ATOMIC(atomic_and, atomicAnd)
CJ_CUDA_BIT_ATOMIC(atomic_or, atomicOr)
CJ_CUDA_BIT_ATOMIC(atomic_xor, atomicXor)
CJ_FN int32_t atomic_cas(int32_t* p, int32_t o, int32_t v) { return atomicCAS(p, o, v); }
CJ_FN uint32_t atomic_cas(uint32_t* p, uint32_t o, uint32_t v) { return atomicCAS(p, o, v); }
CJ_FN uint64_t atomic_cas(uint64_t* p, uint64_t o, uint64_t v) { return atomicCAS((unsigned long long*)p, o, v); }
CJ_FN int64_t atomic_cas(int64_t* p, int64_t o, int64_t v) {
  return (int64_t)atomicCAS((unsigned long long*)p, (unsigned long long)o, (unsigned long long)v);
}
// inc/dec wrap at `v` as CUDA's atomicInc/atomicDec do; 64-bit ones by compare-and-swap.
CJ_FN uint32_t atomic_inc(uint32_t* p, uint32_t v) { return atomicInc(p, v); }
CJ_FN uint32_t atomic_dec(uint32_t* p, uint32_t v) { return atomicDec(p, v); }
CJ_FN uint64_t atomic_inc(uint64_t* p, uint64_t v) {
  unsigned long long* q = (unsigned long long*)p;
  unsigned long long old = *q, assumed;
  do { assumed = old; old = atomicCAS(q, assumed, assumed >= v ? 0ULL : assumed + 1); } while (old != assumed);
  return old;
}
CJ_FN uint64_t atomic_dec(uint64_t* p, uint64_t v) {
  unsigned long long* q = (unsigned long long*)p;
  unsigned long long old = *q, assumed;
  do { assumed = old; old = atomicCAS(q, assumed, (assumed == 0 || assumed > v) ? v : assumed - 1); } while (old != assumed);
  return old;
}
// nanmax/nanmin: a NaN on either side yields the other value.
struct CjNanMaxOp { template <class F> CJ_FN F operator()(F a, F b) const { return a != a ? b : (b != b ? a : (b > a ? b : a)); } };
struct CjNanMinOp { template <class F> CJ_FN F operator()(F a, F b) const { return a != a ? b : (b != b ? a : (b < a ? b : a)); } };
CJ_FN float atomic_nanmax(float* p, float v) { return atomic_float_cas<float, unsigned int>(p, v, CjNanMaxOp{}); }
CJ_FN double atomic_nanmax(double* p, double v) { return atomic_float_cas<double, unsigned long long>(p, v, CjNanMaxOp{}); }
CJ_FN float atomic_nanmin(float* p, float v) { return atomic_float_cas<float, unsigned int>(p, v, CjNanMinOp{}); }
CJ_FN double atomic_nanmin(double* p, double v) { return atomic_float_cas<double, unsigned long long>(p, v, CjNanMinOp{}); }
template <class T> CJ_FN T atomic_nanmax(T* p, T v) { return atomic_max(p, v); }
template <class T> CJ_FN T atomic_nanmin(T* p, T v) { return atomic_min(p, v); }
}  // namespace cj
