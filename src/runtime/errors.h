// Runtime errors: what a CUDA driver or NVRTC call, or a missing GPU, becomes. bindings/errors.cpp
// turns them into cujit.cuda.CudaAPIError / CudaSupportError / cujit.errors.NvrtcError.
#pragma once
#include <stdexcept>
#include <string>

namespace cujit::rt {

/// A driver call failed: "cuMemAllocAsync failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
class CudaAPIError : public std::runtime_error {
 public:
  CudaAPIError(std::string call, int code, std::string name, std::string text)
      : std::runtime_error(call + " failed: " + name + " (" + text + ")"),
        call(std::move(call)), code(code), name(std::move(name)) {}
  std::string call;  // the driver function, e.g. "cuMemAllocAsync"
  int code;          // the CUresult
  std::string name;  // e.g. "CUDA_ERROR_OUT_OF_MEMORY"
};

/// No usable GPU or driver: the message says why and names the simulator switch.
class CudaSupportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A toolchain failure that is not the user's fault (no NVRTC, no host compiler, a crash).
class ToolchainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The simulator stopped a kernel: a deadlock at a barrier, and (later) its other checks.
class SimulatorError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cujit::rt
