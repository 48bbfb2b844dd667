
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

// ---- np.random's distributions Numba draws with CPython's random-module algorithms -------------
// (gammavariate: Cheng's for shape > 1, Kennedy & Gentle's GS below 1; betavariate; vonmisesvariate)
// and the ones it builds on them, each from the np.random stream in the order Numba draws.
// These differ from NumPy's legacy RandomState for the same seed, as Numba's do.
CJ_FN double rand_gamma(int which, double alpha, double beta) {
  if (alpha <= 0.0 || beta <= 0.0) raise("ValueError", "gammavariate: alpha and beta must be > 0.0");
  MtState& s = rng(which);
  if (alpha > 1.0) {
    const double ainv = std::sqrt(2.0 * alpha - 1.0), bbb = alpha - std::log(4.0), ccc = alpha + ainv;
    const double sg_magic = 1.0 + std::log(4.5);
    for (;;) {
      const double u1 = mt_double(s);
      if (!(1e-7 < u1 && u1 < .9999999)) continue;
      const double u2 = 1.0 - mt_double(s);
      const double v = std::log(u1 / (1.0 - u1)) / ainv, x = alpha * std::exp(v);
      const double z = u1 * u1 * u2, r = bbb + ccc * v - x;
      if (r + sg_magic - 4.5 * z >= 0.0 || r >= std::log(z)) return x * beta;
    }
  }
  if (alpha == 1.0) return -std::log(1.0 - mt_double(s)) * beta;
  double x;
  for (;;) {
    const double u = mt_double(s), b = (2.718281828459045 + alpha) / 2.718281828459045, p = b * u;
    x = p <= 1.0 ? std::pow(p, 1.0 / alpha) : -std::log((b - p) / alpha);
    const double u1 = mt_double(s);
    if (p > 1.0) {
      if (u1 <= std::pow(x, alpha - 1.0)) break;
    } else if (u1 <= std::exp(-x)) {
      break;
    }
  }
  return x * beta;
}
CJ_FN double rand_standard_gamma(int which, double shape) { return rand_gamma(which, shape, 1.0); }
CJ_FN double rand_beta(int which, double a, double b) {
  const double y = rand_gamma(which, a, 1.0);
  if (y == 0.0) return 0.0;
  return y / (y + rand_gamma(which, b, 1.0));
}
CJ_FN double rand_chisquare(int which, double df) { return 2.0 * rand_gamma(which, df / 2.0, 1.0); }
CJ_FN double rand_f(int which, double dfnum, double dfden) {
  const double num = rand_chisquare(which, dfnum) * dfden;  // the numerator's draws come first
  return num / (rand_chisquare(which, dfden) * dfnum);
}
CJ_FN double rand_standard_t(int which, double df) {
  const double n = mt_gauss(rng(which));
  const double g = rand_gamma(which, df / 2.0, 1.0);
  return std::sqrt(df / 2.0) * n / std::sqrt(g);
}
CJ_FN double rand_standard_cauchy(int which) {
  const double a = mt_gauss(rng(which));
  return a / mt_gauss(rng(which));
}
CJ_FN double rand_pareto(int which, double a) { return 1.0 / std::pow(1.0 - mt_double(rng(which)), 1.0 / a) - 1; }
CJ_FN double rand_weibull(int which, double a) { return std::pow(-std::log(1.0 - mt_double(rng(which))), 1.0 / a); }
CJ_FN double rand_power(int which, double a) {
  if (a <= 0.0) raise("ValueError", "power(): a <= 0");
  return std::pow(1 - std::exp(std::log(1.0 - mt_double(rng(which)))), 1. / a);
}
CJ_FN double rand_rayleigh(int which, double scale) {
  if (scale <= 0.0) raise("ValueError", "rayleigh(): scale <= 0");
  return scale * std::sqrt(-2.0 * std::log(1.0 - mt_double(rng(which))));
}
CJ_FN double rand_wald(int which, double mean, double scale) {
  if (mean <= 0.0) raise("ValueError", "wald(): mean <= 0");
  if (scale <= 0.0) raise("ValueError", "wald(): scale <= 0");
  MtState& s = rng(which);
  const double mu_2l = mean / (2.0 * scale);
  double y = mt_gauss(s);
  y = mean * y * y;
  const double x = mean + mu_2l * (y - std::sqrt(4 * scale * y + y * y));
  return mt_double(s) <= mean / (mean + x) ? x : mean * mean / x;
}
CJ_FN double rand_vonmises(int which, double mu, double kappa) {
  MtState& s = rng(which);
  const double pi = 3.141592653589793;
  if (kappa <= 1e-6) return 2.0 * pi * mt_double(s);
  const double sh = 0.5 / kappa, r = sh + std::sqrt(1.0 + sh * sh);
  double z;
  for (;;) {
    z = std::cos(pi * mt_double(s));
    const double d = z / (r + z), u2 = mt_double(s);
    if (u2 < 1.0 - d * d || u2 <= (1.0 - d) * std::exp(d)) break;
  }
  const double q = 1.0 / r, f = (q + z) / (1.0 + q * z);
  const double theta = mt_double(s) > 0.5 ? mu + std::acos(f) : mu - std::acos(f);
  double m = std::fmod(theta, 2.0 * pi);  // Python's %: the divisor's sign
  if (m < 0) m += 2.0 * pi;
  return m;
}
CJ_FN int64_t rand_negative_binomial(int which, double n, double p) {
  if (n <= 0) raise("ValueError", "negative_binomial(): n <= 0");
  if (p < 0.0 || p > 1.0) raise("ValueError", "negative_binomial(): p outside of [0, 1]");
  return rand_poisson(which, rand_gamma(which, n, (1.0 - p) / p));
}

// np.random.binomial as Numba draws it (the same values as NumPy's legacy RandomState): inversion
// for n * min(p, 1 - p) <= 30, else BTPE (Kachitvichyanukul & Schmeiser) with NumPy's constants.
CJ_FN int64_t rand_binomial_btpe(MtState& s, int64_t n, double r) {
  const double q = 1.0 - r, fm = n * r + r;
  const int64_t m = (int64_t)std::floor(fm);
  const double p1 = std::floor(2.195 * std::sqrt(n * r * q) - 4.6 * q) + 0.5;
  const double xm = m + 0.5, xl = xm - p1, xr = xm + p1, c = 0.134 + 20.5 / (15.3 + m);
  double a = (fm - xl) / (fm - xl * r);
  const double laml = a * (1.0 + a / 2.0);
  a = (xr - fm) / (xr * q);
  const double lamr = a * (1.0 + a / 2.0);
  const double p2 = p1 * (1.0 + 2.0 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
  const double nrq = n * r * q;
  for (;;) {
    const double u = mt_double(s) * p4;
    double v = mt_double(s);
    int64_t y;
    if (u <= p1) return (int64_t)std::floor(xm - p1 * v + u);
    if (u <= p2) {
      const double x = xl + (u - p1) / c;
      v = v * c + 1.0 - std::fabs(m - x + 0.5) / p1;
      if (v > 1.0) continue;
      y = (int64_t)std::floor(x);
    } else if (u <= p3) {
      y = (int64_t)std::floor(xl + std::log(v) / laml);
      if (y < 0 || v == 0.0) continue;
      v = v * (u - p2) * laml;
    } else {
      y = (int64_t)std::floor(xr - std::log(v) / lamr);
      if (y > n || v == 0.0) continue;
      v = v * (u - p3) * lamr;
    }
    const int64_t k = y > m ? y - m : m - y;
    if (k <= 20 || k >= nrq / 2.0 - 1) {  // evaluate f(y) / f(m) recursively
      const double sr = r / q, aa = sr * (n + 1);
      double F = 1.0;
      if (m < y)
        for (int64_t i = m + 1; i <= y; ++i) F = F * (aa / i - sr);
      else if (m > y)
        for (int64_t i = y + 1; i <= m; ++i) F = F / (aa / i - sr);
      if (v > F) continue;
      return y;
    }
    // The squeeze on log f(y), then Stirling's bound.
    const double rho = (k / nrq) * ((k * (k / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    const double t = -k * k / (2 * nrq), A = std::log(v);
    if (A < t - rho) return y;
    if (A > t + rho) continue;
    const double x1 = y + 1, f1 = m + 1, z = n + 1 - m, w = n - y + 1;
    const double x2 = x1 * x1, f2 = f1 * f1, z2 = z * z, w2 = w * w;
    const double bound = xm * std::log(f1 / x1) + (n - m + 0.5) * std::log(z / w) + (y - m) * std::log(w * r / (x1 * q)) +
                         (13680. - (462. - (132. - (99. - 140. / f2) / f2) / f2) / f2) / f1 / 166320. +
                         (13680. - (462. - (132. - (99. - 140. / z2) / z2) / z2) / z2) / z / 166320. +
                         (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x1 / 166320. +
                         (13680. - (462. - (132. - (99. - 140. / w2) / w2) / w2) / w2) / w / 166320.;
    if (A > bound) continue;
    return y;
  }
}
CJ_FN int64_t rand_binomial(int which, int64_t n, double p) {
  if (n < 0) raise("ValueError", "binomial(): n <= 0");
  if (!(0.0 <= p && p <= 1.0)) raise("ValueError", "binomial(): p outside of [0, 1]");
  if (p == 0.0) return 0;
  if (p == 1.0) return n;
  MtState& s = rng(which);
  const bool flipped = p > 0.5;
  if (flipped) p = 1.0 - p;
  const double q = 1.0 - p, np_prod = n * p;
  if (np_prod > 30.0) {
    const int64_t x = rand_binomial_btpe(s, n, p);
    return flipped ? n - x : x;
  }
  int64_t niters = 1;
  double qn = std::pow(q, (double)n);
  while (qn <= 1e-308) {  // underflow: several draws of a quarter of n
    niters <<= 2;
    n >>= 2;
    qn = std::pow(q, (double)n);
  }
  const double lim = np_prod + 10.0 * std::sqrt(np_prod * q + 1);
  const double bound = (double)n < lim ? (double)n : lim;
  int64_t total = 0;
  while (niters > 0) {
    int64_t x = 0;
    double u = mt_double(s), px = qn;
    while (x <= bound) {
      if (u <= px) {
        total += flipped ? n - x : x;
        niters -= 1;
        break;
      }
      u -= px;
      x += 1;
      px = ((n - x + 1) * p * px) / (x * q);
    }
  }
  return total;
}

// ---- hypergeometric, logseries, zipf, noncentral_chisquare, multinomial, dirichlet -------------
// As Numba draws them (numba/np/random/legacy.py), from the np.random stream: logseries and zipf
// are NumPy's legacy algorithms and give its values; hypergeometric is NumPy's HYP loop for every
// sample size (NumPy switches to HRUA above 10, so larger samples differ from NumPy's, as Numba's
// do); noncentral_chisquare and dirichlet draw through np.random.chisquare/gamma, which follow
// CPython's gammavariate (rand_gamma above). Where Numba returns a number for parameters NumPy
// refuses (a negative ngood, nbad or nsample, more samples than items), cujit raises NumPy's
// ValueError instead of answering wrongly.
CJ_FN int64_t rand_hypergeometric(int which, double ngood, double nbad, double nsample) {
  if (ngood < 0) raise("ValueError", "ngood < 0");
  if (nbad < 0) raise("ValueError", "nbad < 0");
  if (nsample < 0) raise("ValueError", "nsample < 0");
  const int64_t d1 = (int64_t)nbad + (int64_t)ngood - (int64_t)nsample;
  if (d1 < 0) raise("ValueError", "ngood + nbad < nsample");
  MtState& s = rng(which);
  const double d2 = nbad < ngood ? nbad : ngood;
  double y = d2;
  int64_t k = (int64_t)nsample;
  while (y > 0.0 && k > 0) {
    y -= std::floor(mt_double(s) + y / (double)(d1 + k));
    k -= 1;
  }
  const int64_t z = (int64_t)(d2 - y);
  return ngood > nbad ? (int64_t)nsample - z : z;
}
CJ_FN int64_t rand_logseries(int which, double p) {
  if (p <= 0.0 || p > 1.0 || p != p) raise("ValueError", "logseries(): p outside of (0, 1]");
  MtState& s = rng(which);
  const double r = std::log(1.0 - p);
  for (;;) {
    const double v = mt_double(s);
    if (v >= p) return 1;
    const double u = mt_double(s), q = 1.0 - std::exp(r * u);
    if (v <= q * q) {
      const double lq = std::log(q);
      if (lq == 0.0) raise("ZeroDivisionError", "division by zero");  // p == 1: Numba's error
      const double x = 1.0 + std::log(v) / lq;
      // x86's conversion of a value outside int64 (v == 0), which Numba's gives too.
      return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
    }
    return v >= q ? 1 : 2;
  }
}
CJ_FN int64_t rand_zipf(int which, double a) {
  if (!(a > 1.0)) raise("ValueError", "zipf(): a <= 1");
  MtState& s = rng(which);
  const double am1 = a - 1.0, b = std::pow(2.0, am1);
  for (;;) {
    const double u = 1.0 - mt_double(s), v = mt_double(s);
    const double xf = std::floor(std::pow(u, -1.0 / am1));
    // Numba: X = int(...) skipped when above LONG_MAX or below 1 (x86 turns inf into INT64_MIN).
    if (!(xf >= 1.0 && xf < 9223372036854775808.0)) continue;
    const double x = (double)(int64_t)xf;
    const double t = std::pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return (int64_t)xf;
  }
}
CJ_FN double rand_noncentral_chisquare(int which, double df, double nonc) {
  if (df <= 0) raise("ValueError", "df <= 0");
  if (nonc < 0) raise("ValueError", "nonc < 0");
  if (nonc != nonc) return nonc;
  if (1 < df) {
    const double chi2 = rand_chisquare(which, df - 1);
    const double n = mt_gauss(rng(which)) + std::sqrt(nonc);
    return chi2 + n * n;
  }
  const int64_t i = rand_poisson(which, nonc / 2.0);
  return rand_chisquare(which, df + 2 * (double)i);
}
// np.random.multinomial(n, pvals[, size]): `out` (C order, last axis len(pvals)) gets one
// experiment per row: a binomial draw per outcome of the experiments left, on P(X=j | X>=j).
template <class T, int N>
CJ_FN void rand_multinomial_fill(int64_t n, const Array<T, 1>& pvals, Array<int64_t, N> out) {
  const int64_t plen = pvals.shape[0], sz = size(out);
  for (int64_t k = 0; k < sz; ++k) out.data[k] = 0;
  if (plen == 0) return;
  for (int64_t i = 0; i < sz; i += plen) {
    double p_sum = 1.0;
    int64_t left = n;
    for (int64_t j = 0; j + 1 < plen; ++j) {
      const double p_j = (double)*(const T*)((const char*)pvals.data + j * pvals.strides[0]);
      const int64_t n_j = out.data[i + j] = rand_binomial(1, left, p_j / p_sum);
      left -= n_j;
      if (left <= 0) break;
      p_sum -= p_j;
    }
    if (left > 0) out.data[i + plen - 1] = left;
  }
}
// np.random.dirichlet(alpha[, size]): gamma(alpha_k, 1) draws normalised per row.
template <class T, int N>
CJ_FN void rand_dirichlet_fill(const Array<T, 1>& alpha, Array<double, N> out) {
  const int64_t alen = alpha.shape[0], sz = size(out);
  auto at = [&](int64_t k) { return (double)*(const T*)((const char*)alpha.data + k * alpha.strides[0]); };
  for (int64_t k = 0; k < alen; ++k)
    if (at(k) <= 0) raise("ValueError", "dirichlet: alpha must be > 0.0");
  if (alen == 0) return;
  for (int64_t i = 0; i < sz; i += alen) {
    double norm = 0;
    for (int64_t k = 0; k < alen; ++k) norm += (out.data[i + k] = rand_gamma(1, at(k), 1.0));
    for (int64_t k = 0; k < alen; ++k) out.data[i + k] /= norm;
  }
}

// np.random.choice(a[, size[, replace]]) as Numba draws it: with replacement, randint(0, n) per
// item; without, the first items of a permutation (a shuffle of the population); a population
// of an int n is arange(n).
CJ_FN int64_t choice_len(int64_t n) { return n; }
template <class T>
CJ_FN int64_t choice_len(const Array<T, 1>& a) { return a.shape[0]; }
CJ_FN int64_t choice_item(int64_t, int64_t i) { return i; }
template <class T>
CJ_FN std::remove_cv_t<T> choice_item(const Array<T, 1>& a, int64_t i) {
  return *(const T*)((const char*)a.data + i * a.strides[0]);
}
template <class P>
CJ_FN auto rand_choice(const P& a) { return choice_item(a, np_randint(0, choice_len(a))); }
template <class P, class V, int N>
CJ_FN void rand_choice_fill(const P& a, Array<V, N> out, bool replace) {
  const int64_t n = choice_len(a), m = size(out);
  if (replace) {
    for (int64_t k = 0; k < m; ++k) out.data[k] = (V)choice_item(a, np_randint(0, n));
    return;
  }
  if (m > n) raise("ValueError", "Cannot take a larger sample than population when 'replace=False'");
  int64_t* idx = (int64_t*)host_services.alloc((n > 0 ? n : 1) * (int64_t)sizeof(int64_t));
  for (int64_t k = 0; k < n; ++k) idx[k] = k;
  MtState& s = rng(1);
  for (int64_t i = n - 1; i > 0; --i) {  // np.random.shuffle's draws
    const int64_t j = (int64_t)mt_bounded(s, (uint64_t)i);
    const int64_t t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
  for (int64_t k = 0; k < m; ++k) out.data[k] = (V)choice_item(a, idx[k]);
}
}  // namespace cj
