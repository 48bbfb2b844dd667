// The host side of cuda.random: the initial states of xoroshiro128+ generators. The generators
// themselves run in kernels as device functions written in Python (python/cujit/cuda/random.py).
#pragma once
#include <cstdint>

namespace cujit::rt {

/// Fills states[2*i], states[2*i+1] (s0, s1) for i in [0, n): generator 0 is seeded with
/// splitmix64(seed) in both words and jumped 2**64 steps `subsequence` times; each next generator
/// is the previous one jumped 2**64 steps further, so the n streams never overlap. This is the
/// scheme of Numba's create_xoroshiro128p_states, so equal seeds give equal streams.
void xoroshiro128p_init(uint64_t* states, int64_t n, uint64_t seed, uint64_t subsequence);

}  // namespace cujit::rt
