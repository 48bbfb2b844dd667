
// ---- Random numbers in CPU code (host target only; appended after common.h) ------------------
// Numba gives compiled CPU code two generators, one for Python's `random` module and one for
// `np.random`, each an MT19937 per thread, seeded from the OS until the program seeds it. Both
// are seeded as NumPy's legacy RandomState is (init_genrand of the seed's low 32 bits), so
// np.random.seed(s) inside a jitted function gives NumPy's sequence for the same seed, and
// `random.seed(s)` gives that sequence too (not CPython's, whose seeding differs; Numba's doesn't).
//
// The states live in the cujit extension (host_services.h), shared by every compiled library.
#include <sys/random.h>

namespace cj {
struct MtState {
  uint32_t key[624];
  int32_t pos;
  int32_t has_gauss;  // NumPy's legacy normal draws two values at a time and keeps one here
  double gauss;
  int32_t seeded;     // 0: fresh thread state, seeded from the OS on first use
};
static_assert(sizeof(MtState) <= kRandomStateBytes, "the extension keeps kRandomStateBytes per state (runtime/host_calls.cpp)");
inline thread_local MtState* tl_rng[2] = {nullptr, nullptr};

CJ_FN void mt_seed(MtState& s, uint32_t seed) {
  for (int i = 0; i < 624; ++i) {
    s.key[i] = seed;
    seed = 1812433253u * (seed ^ (seed >> 30)) + (uint32_t)(i + 1);
  }
  s.pos = 624;
  s.has_gauss = 0;
  s.gauss = 0.0;
  s.seeded = 1;
}

CJ_FN MtState& rng(int which) {
  MtState* s = tl_rng[which];
  if (__builtin_expect(s == nullptr, 0)) {
    s = (MtState*)host_services.random_state(which);
    tl_rng[which] = s;
    if (!s->seeded) {
      uint32_t seed = 0;
      if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed) seed = (uint32_t)(uintptr_t)&seed;
      mt_seed(*s, seed);
    }
  }
  return *s;
}

// The next 624 words. Three loops instead of one with `% 624` indexing: this runs once per 624
// draws and the modulo made it a third of monte_carlo_pi's time.
inline void mt_twist(MtState& s) {
  auto mix = [](uint32_t a, uint32_t b, uint32_t far) {
    uint32_t y = (a & 0x80000000u) | (b & 0x7fffffffu);
    return far ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
  };
  uint32_t* k = s.key;
  int i = 0;
  for (; i < 624 - 397; ++i) k[i] = mix(k[i], k[i + 1], k[i + 397]);
  for (; i < 623; ++i) k[i] = mix(k[i], k[i + 1], k[i + 397 - 624]);
  k[623] = mix(k[623], k[0], k[396]);
  s.pos = 0;
}

CJ_FN uint32_t mt_next32(MtState& s) {
  if (__builtin_expect(s.pos >= 624, 0)) mt_twist(s);
  uint32_t y = s.key[s.pos++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}

CJ_FN uint64_t mt_next64(MtState& s) {
  uint64_t hi = mt_next32(s);
  return (hi << 32) | mt_next32(s);
}

// A double in [0, 1) with 53 random bits (genrand_res53).
CJ_FN double mt_double(MtState& s) {
  uint32_t a = mt_next32(s) >> 5, b = mt_next32(s) >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

// A standard normal: the polar method, two values per round, the second kept for the next call.
CJ_FN double mt_gauss(MtState& s) {
  if (s.has_gauss) {
    s.has_gauss = 0;
    return s.gauss;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * mt_double(s) - 1.0;
    x2 = 2.0 * mt_double(s) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = std::sqrt(-2.0 * std::log(r2) / r2);
  s.gauss = f * x1;
  s.has_gauss = 1;
  return f * x2;
}

// An integer in [0, rng] (rng = high - low - 1): NumPy's masked rejection sampling, 32-bit draws
// while the range fits in 32 bits.
CJ_FN uint64_t mt_bounded(MtState& s, uint64_t rng) {
  if (rng == 0) return 0;
  uint64_t mask = rng;
  mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4;
  mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
  if (rng <= 0xffffffffu) {
    if (rng == 0xffffffffu) return mt_next32(s);
    uint32_t v;
    while ((v = mt_next32(s) & (uint32_t)mask) > rng) {}
    return v;
  }
  if (rng == ~(uint64_t)0) return mt_next64(s);
  uint64_t v;
  while ((v = mt_next64(s) & mask) > rng) {}
  return v;
}

// Python's random.getrandbits(k) for k <= 64, and randrange's rejection loop over it.
CJ_FN uint64_t mt_bits(MtState& s, int k) {
  if (k <= 32) return mt_next32(s) >> (32 - k);
  uint64_t lo = mt_next32(s);
  uint64_t hi = mt_next32(s) >> (64 - k);
  return (hi << 32) | lo;
}
CJ_FN uint64_t mt_below(MtState& s, uint64_t n) {
  if (n <= 1) return 0;
  int k = 64 - __builtin_clzll(n);
  uint64_t r;
  while ((r = mt_bits(s, k)) >= n) {}
  return r;
}

// ---- the builtins (builtins.def spells them) --------------------------------------------------
CJ_FN void seed(int which, int64_t v) { mt_seed(rng(which), (uint32_t)v); }
CJ_FN double rand_double(int which) { return mt_double(rng(which)); }
CJ_FN double rand_uniform(int which, double lo, double hi) { return lo + (hi - lo) * mt_double(rng(which)); }
CJ_FN double rand_normal(int which, double mu, double sigma) { return mu + sigma * mt_gauss(rng(which)); }
CJ_FN int64_t np_randint(int64_t lo, int64_t hi) {
  if (hi <= lo) hi = lo + 1;  // the typer rejects constant empty ranges; NumPy raises ValueError
  return lo + (int64_t)mt_bounded(rng(1), (uint64_t)(hi - lo - 1));
}
CJ_FN int64_t py_randrange(int64_t lo, int64_t hi) {
  if (hi <= lo) hi = lo + 1;
  return lo + (int64_t)mt_below(rng(0), (uint64_t)(hi - lo));
}
CJ_FN int64_t py_randint(int64_t lo, int64_t hi) { return py_randrange(lo, hi + 1); }
}  // namespace cj
