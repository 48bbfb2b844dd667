// See random.h. xoroshiro128+ (Blackman and Vigna, 2016): the step, its 2**64-step jump
// polynomial and the splitmix64 seeding are the published definitions.
#include "runtime/random.h"

namespace cujit::rt {
namespace {

inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

inline void step(uint64_t& s0, uint64_t& s1) {
  uint64_t t = s1 ^ s0;
  s0 = rotl(s0, 55) ^ t ^ (t << 14);
  s1 = rotl(t, 36);
}

// Advances (s0, s1) by 2**64 steps: the jump polynomial's set bits select which of the next 128
// states are xor-ed together.
void jump(uint64_t& s0, uint64_t& s1) {
  static const uint64_t kJump[2] = {0xBEAC0467EBA5FACBull, 0xD86B048B86AA9922ull};
  uint64_t j0 = 0, j1 = 0;
  for (uint64_t word : kJump)
    for (int b = 0; b < 64; ++b) {
      if (word >> b & 1u) {
        j0 ^= s0;
        j1 ^= s1;
      }
      step(s0, s1);
    }
  s0 = j0;
  s1 = j1;
}

}  // namespace

void xoroshiro128p_init(uint64_t* states, int64_t n, uint64_t seed, uint64_t subsequence) {
  if (n <= 0) return;
  uint64_t z = seed + 0x9E3779B97F4A7C15ull;  // splitmix64: small seeds still give full states
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  uint64_t s0 = z, s1 = z;
  for (uint64_t k = 0; k < subsequence; ++k) jump(s0, s1);
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0) jump(s0, s1);
    states[2 * i] = s0;
    states[2 * i + 1] = s1;
  }
}

}  // namespace cujit::rt
