"""cuda.random: xoroshiro128+ generators, one per GPU thread, as in ``numba.cuda.random``.

    from cujit.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32
    rng_states = create_xoroshiro128p_states(threads, seed=1)
    ...  # in a kernel: x = xoroshiro128p_uniform_float32(rng_states, thread_id)

States are made on the host by the C++ core (splitmix64 seeding, then 2**64-step jumps between
neighbouring generators, so their streams never overlap) and copied to the device. The draws are
device functions written below in the kernel subset itself and compiled with the kernels that
call them. Equal seeds give Numba's streams, value for value.

One difference from Numba: the states array is a (n, 2) uint64 array (columns s0, s1) rather
than a 1-d array of (s0, s1) records; pass it to kernels and index it by thread, as in Numba.
"""
import math
import operator

import numpy as np

from .. import _core
from ..types import float32, float64, uint64
from .dispatcher import jit

TWO_PI_FLOAT32 = np.float32(2 * math.pi)
TWO_PI_FLOAT64 = np.float64(2 * math.pi)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A device array of `n` generator states seeded with `seed`; generator i starts
    (subsequence_start + i) * 2**64 steps into the stream of `seed`."""
    from . import to_device
    return to_device(_core.xoroshiro128p_states(_count(n, "n"), int(seed), _count(subsequence_start, "subsequence_start")),
                     stream=stream)


def _count(value, what):
    # operator.index, as numba-cuda takes them: int() would make n=10.5 ten states in silence.
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("%s must be an integer, got %r" % (what, value)) from None


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Re-seeds an existing states array in place (as create_xoroshiro128p_states would fill it)."""
    states.copy_to_device(_core.xoroshiro128p_states(len(states), int(seed), _count(subsequence_start, "subsequence_start")),
                          stream=stream)


@jit(device=True)
def xoroshiro128p_next(states, index):
    """The next raw 64-bit value of generator `index`; advances it one step."""
    s0 = states[index, 0]
    s1 = states[index, 1]
    result = s0 + s1
    s1 ^= s0
    states[index, 0] = ((s0 << uint64(55)) | (s0 >> uint64(9))) ^ s1 ^ (s1 << uint64(14))
    states[index, 1] = (s1 << uint64(36)) | (s1 >> uint64(28))
    return result


@jit(device=True)
def _unit_float64(x):
    # The top 53 bits as a float in [0, 1): exact, and never 1.0.
    return float64(x >> uint64(11)) * (1.0 / 9007199254740992.0)


@jit(device=True)
def xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform on [0, 1) from generator `index`."""
    return _unit_float64(xoroshiro128p_next(states, index))


@jit(device=True)
def xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform on [0, 1] (the float64 draw rounded) from generator `index`."""
    return float32(_unit_float64(xoroshiro128p_next(states, index)))


@jit(device=True)
def xoroshiro128p_normal_float32(states, index):
    """A float32 standard normal (Box-Muller on two uniforms; two steps of the generator)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(float32(-2.0) * math.log(u1)) * math.cos(TWO_PI_FLOAT32 * u2)


@jit(device=True)
def xoroshiro128p_normal_float64(states, index):
    """A float64 standard normal. As in Numba, it draws its two uniforms in float32."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(float64(-2.0) * math.log(u1)) * math.cos(TWO_PI_FLOAT64 * u2)
