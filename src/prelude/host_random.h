
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
// An empty range raises Numba's ValueError (np.random.randint(5, 5) and random.randint(5, 4) too).
CJ_FN int64_t np_randint(int64_t lo, int64_t hi) {
  if (hi <= lo) raise("ValueError", "empty range for randrange()");
  return lo + (int64_t)mt_bounded(rng(1), (uint64_t)(hi - lo - 1));
}
CJ_FN int64_t py_randrange(int64_t lo, int64_t hi) {
  if (hi <= lo) raise("ValueError", "empty range for randrange()");
  return lo + (int64_t)mt_below(rng(0), (uint64_t)(hi - lo));
}
CJ_FN int64_t py_randint(int64_t lo, int64_t hi) { return py_randrange(lo, hi + 1); }

// More of np.random's distributions, each as Numba computes it (numba/np/random/legacy.py, its
// _random.c for poisson with lam >= 10: NumPy's PTRS), from the same np.random stream.
CJ_FN double rand_exponential(int which, double scale) { return -std::log(1.0 - mt_double(rng(which))) * scale; }
CJ_FN double rand_laplace(int which, double loc, double scale) {
  const double u = mt_double(rng(which));
  return u < 0.5 ? loc + scale * std::log(u + u) : loc - scale * std::log(2.0 - u - u);
}
CJ_FN double rand_logistic(int which, double loc, double scale) {
  const double u = mt_double(rng(which));
  return loc + scale * std::log(u / (1.0 - u));
}
CJ_FN double rand_gumbel(int which, double loc, double scale) {
  const double u = 1.0 - mt_double(rng(which));
  return loc - scale * std::log(-std::log(u));
}
CJ_FN double rand_lognormal(int which, double mean, double sigma) { return std::exp(mean + sigma * mt_gauss(rng(which))); }
CJ_FN double rand_triangular(int which, double left, double mode, double right) {
  if (right == left) return left;
  double u = mt_double(rng(which));
  double c = (mode - left) / (right - left);
  if (u > c) {
    u = 1.0 - u;
    c = 1.0 - c;
    const double t = left;
    left = right;
    right = t;
  }
  return left + (right - left) * std::sqrt(u * c);
}
CJ_FN int64_t rand_geometric(int which, double p) {
  if (p <= 0.0 || p > 1.0) raise("ValueError", "geometric(): p outside of (0, 1]");
  MtState& s = rng(which);
  const double q = 1.0 - p;
  if (p >= 0.333333333333333333333333) {
    int64_t x = 1;
    double sum = p, prod = p;
    const double u = mt_double(s);
    while (u > sum) {
      prod *= q;
      sum += prod;
      x += 1;
    }
    return x;
  }
  return (int64_t)std::ceil(std::log(1.0 - mt_double(s)) / std::log(q));
}
// log(gamma(x)) as NumPy's random_loggam computes it (the PTRS acceptance test uses it).
CJ_FN double rand_loggam(double x) {
  static const double a[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                               -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                               6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
                               -1.39243221690590e+00};
  if (x == 1.0 || x == 2.0) return 0.0;
  double x0 = x;
  int64_t n = 0;
  if (x <= 7.0) {
    n = (int64_t)(7 - x);
    x0 = x + (double)n;
  }
  const double x2 = 1.0 / (x0 * x0);
  double gl0 = a[9];
  for (int k = 8; k >= 0; --k) gl0 = gl0 * x2 + a[k];
  double gl = gl0 / x0 + 0.5 * std::log(2 * 3.141592653589793) + (x0 - 0.5) * std::log(x0) - x0;
  if (x <= 7.0)
    for (int64_t k = 1; k <= n; ++k) {
      gl -= std::log(x0 - 1.0);
      x0 -= 1.0;
    }
  return gl;
}
CJ_FN int64_t rand_poisson(int which, double lam) {
  MtState& s = rng(which);
  if (lam >= 10.0) {  // PTRS (Hormann)
    const double slam = std::sqrt(lam), loglam = std::log(lam);
    const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      const double u = mt_double(s) - 0.5, v = mt_double(s);
      const double us = 0.5 - std::fabs(u);
      const int64_t k = (int64_t)std::floor((2 * a / us + b) * u + lam + 0.43);
      if (us >= 0.07 && v <= vr) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (std::log(v) + std::log(invalpha) - std::log(a / (us * us) + b) <= -lam + (double)k * loglam - rand_loggam((double)k + 1))
        return k;
    }
  }
  if (lam < 0.0) raise("ValueError", "poisson(): lambda < 0");
  if (lam == 0.0) return 0;
  const double enlam = std::exp(-lam);
  int64_t x = 0;
  double prod = 1.0;
  for (;;) {
    prod *= mt_double(s);
    if (prod <= enlam) return x;
    x += 1;
  }
}
}  // namespace cj
