// The checks around a kernel launch that are not the launch itself, kept out of kernel.cpp's
// launch path: limits the launch must respect (dynamic shared memory, arrays of a lost context)
// and, after a launch of a debug=True kernel on the GPU, the out-of-bounds index its threads
// recorded (prelude/cuda.h index_fault), raised as KernelIndexError.
#pragma once
#include <cstddef>
#include <vector>

#include "bindings/marshal.h"
#include "pipeline.h"
#include "runtime/launch.h"

namespace cujit {

/// Before a launch on `backend`: `shared_bytes` of dynamic shared memory must fit the device's
/// opt-in limit per block (the simulator enforces an H100's, rt::kSimMaxSharedOptin), and no device
/// array may belong to a context a kernel fault destroyed. Throws ValueError / ContextLostError.
void check_launch(const KernelBuild& b, rt::Backend backend, size_t shared_bytes, const std::vector<KArg>& args);

/// After a launch of a debug=True build on the GPU: waits for `stream`, and if a thread recorded a
/// bad index, clears the record and throws rt::KernelIndexError with the simulator's wording
/// ("index 7 is out of bounds for axis 0 of 'a' with size 4, in thread (7, 0, 0) of block (0, 0,
/// 0), at file.py:LINE (kernel k, debug=True)"). Releases the GIL while it waits.
void check_index_fault(const KernelBuild& b, rt::LoadedModule& m, void* stream);

/// numba-cuda's NumbaPerformanceWarning at `kernel[grid, block]` for a grid of under 128 blocks
/// ("Grid size N will likely result in GPU under-utilization due to low occupancy."), while
/// cujit.config.CUDA_LOW_OCCUPANCY_WARNINGS is on (numba-cuda's default; the test suites turn it
/// off) and DISABLE_PERFORMANCE_WARNINGS is not. On both targets: the simulator stands for the GPU.
/// Throws error_already_set when a warnings filter makes it an error.
void warn_low_occupancy(const rt::Dim3& grid);

/// numba-cuda's NumbaPerformanceWarning for a host NumPy array given to a kernel ("Host array used
/// in CUDA kernel will incur copy overhead to/from device."), while
/// config.CUDA_WARN_ON_IMPLICIT_COPY is on and DISABLE_PERFORMANCE_WARNINGS is not.
void warn_implicit_copy();

/// Called by cujit.config's module type after each change of a setting (config.py): the checks
/// above keep the settings they read until then.
void config_changed();

}  // namespace cujit
