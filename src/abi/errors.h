// The error types every layer above throws: what a CUDA driver or NVRTC call, a missing GPU, the
// toolchain or the simulator's generated code reports. They live in this bottom folder so that
// the toolchain and the runtime both throw them without including each other; bindings/errors.cpp
// turns them into cujit.cuda.CudaAPIError / CudaSupportError / cujit.errors.NvrtcError.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace cujit::rt {

/// A driver call failed: "cuMemAllocAsync failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
class CudaAPIError : public std::runtime_error {
 public:
  CudaAPIError(std::string call, int code, std::string name, std::string text, const std::string& detail = "")
      : std::runtime_error(call + " failed: " + name + " (" + text + ")" + detail),
        call(std::move(call)), code(code), name(std::move(name)) {}
  std::string call;  // the driver function, e.g. "cuMemAllocAsync"
  int code;          // the CUresult
  std::string name;  // e.g. "CUDA_ERROR_OUT_OF_MEMORY"
};

/// A device allocation failed for want of memory (CUDA_ERROR_OUT_OF_MEMORY from the driver, or the
/// simulator's host allocation failing). The message names the request and the memory left:
/// "cuMemAllocAsync failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory): cannot allocate 1125899906842624
/// bytes (1.00 PiB) on the GPU; 79.10 GiB free of 79.19 GiB". Python: cujit.errors.CudaOutOfMemoryError,
/// a CudaAPIError and a MemoryError.
class CudaOutOfMemoryError : public CudaAPIError {
 public:
  CudaOutOfMemoryError(std::string call, int code, std::string name, std::string text, const std::string& detail,
                       size_t requested, size_t free_bytes, size_t total_bytes)
      : CudaAPIError(std::move(call), code, std::move(name), std::move(text), detail),
        requested(requested), free_bytes(free_bytes), total_bytes(total_bytes) {}
  size_t requested;    // bytes asked for
  size_t free_bytes;   // free memory when it failed (cuMemGetInfo; the host's available memory on the simulator)
  size_t total_bytes;  // total memory of the device (the host's on the simulator)
};

/// The CUDA context was lost. Either a kernel faulted (an illegal address, a trap: a "sticky" error
/// after which every call in the context fails) and cujit has reset the context, or an object made
/// in such a lost context (a device array, a stream, an event, page-locked memory) was used after
/// the reset. Python: cujit.errors.CudaContextLostError, a CudaAPIError.
class ContextLostError : public CudaAPIError {
 public:
  using CudaAPIError::CudaAPIError;
};

/// No usable GPU or driver: the message says why and names the simulator switch.
class CudaSupportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The driver cannot be used in this process for a reason of the process (it was loaded before
/// a fork). Python: cujit.errors.CudaDriverError (numba-cuda's class).
class CudaDriverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A toolchain failure that is not the user's fault (no NVRTC, no host compiler, a crash).
class ToolchainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The simulator stopped a kernel: a deadlock at a barrier; the subclasses below for its checks.
class SimulatorError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An out-of-bounds index the simulator caught (Python's IndexError too).
class SimulatorIndexError : public SimulatorError {
 public:
  using SimulatorError::SimulatorError;
};

/// Two threads of a block touched one shared-memory word between barriers, one of them writing
/// (the race check, CUJIT_SIM_RACECHECK=1).
class SimulatorRaceError : public SimulatorError {
 public:
  using SimulatorError::SimulatorError;
};

/// A pending signal's handler raised (Ctrl-C: KeyboardInterrupt) while the simulator or a compiler
/// ran; the work was stopped. The bindings raise the exception the handler raised.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

/// An out-of-bounds index caught on the GPU by a kernel compiled with debug=True (Python:
/// cujit.errors.KernelIndexError, an IndexError); the message has the simulator's wording.
class KernelIndexError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The exception for the message a simulated kernel or ufunc stopped with ("IndexError: ..."
/// from the prelude's index checks, "RaceError: ..." from its race check, else a deadlock):
/// `what` names the kernel.
[[noreturn]] void throw_simulator_error(const std::string& what, const std::string& message);

}  // namespace cujit::rt
