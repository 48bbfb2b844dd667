// Loaded code and launches, for both backends: a GPU module (cuModuleLoadData of a CUBIN/PTX)
// or a host shared object (the simulator), with the same two launch calls. Ufunc loops take the
// packed UfuncArgs block (runtime/ufunc.h); kernels take an array of pointers to each argument's
// bytes, which is what cuLaunchKernel wants and what the simulator's entry reads.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/memory.h"
#include "toolchain/host_compiler.h"

namespace cujit::rt {

/// The simulator's limit on dynamic shared memory per block: an H100's opt-in maximum (227 KiB),
/// so a launch the GPU would refuse fails on the simulator too (static shared memory is held to
/// 48 KiB when the kernel is typed, on both targets).
constexpr int kSimMaxSharedOptin = 232448;
/// The simulator's bound on a cooperative launch's blocks (one CPU thread each).
constexpr int kSimMaxCooperativeBlocks = 256;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

class LoadedModule {
 public:
  /// Loads a CUBIN or PTX image into the current context.
  static std::shared_ptr<LoadedModule> load_gpu(const std::string& image);
  /// Wraps a host shared object built for the simulator.
  static std::shared_ptr<LoadedModule> load_host(std::shared_ptr<toolchain::HostLibrary> lib);
  ~LoadedModule();

  Backend backend() const { return backend_; }

  /// Runs the ufunc loop `symbol` over `n` elements with the packed arguments.
  void launch_ufunc(const std::string& symbol, std::vector<int64_t>& args, int64_t n, void* stream);

  /// Launches kernel `symbol`; `params[i]` points at argument i's bytes.
  /// `cooperative` (a kernel using cuda.cg.this_grid()): all blocks run at once, on the GPU
  /// through cuLaunchCooperativeKernel, on the simulator each on a CPU thread of its own.
  void launch_kernel(const std::string& symbol, Dim3 grid, Dim3 block, size_t shared_bytes,
                     void* stream, void** params, bool cooperative = false);
  /// The same with the function already looked up (a dispatcher keeps it per specialisation).
  void launch_kernel(void* function, const std::string& symbol, Dim3 grid, Dim3 block, size_t shared_bytes,
                     void* stream, void** params, bool cooperative = false);

  /// The most blocks of `threads` threads a cooperative launch of `symbol` may have (Numba's
  /// max_cooperative_grid_blocks). GPU: the driver's occupancy times the SMs. Simulator: each
  /// block is a CPU thread, so as many as a GPU with one SM per core and 2048 threads per SM
  /// would hold, at most kSimMaxCooperativeBlocks.
  int max_cooperative_blocks(const std::string& symbol, int threads, size_t shared_bytes);

  /// The CUfunction (GPU) or the host entry (simulator) of `symbol`, looked up once.
  void* function(const std::string& symbol);

  /// True when this GPU module was loaded into a context that a kernel fault has since destroyed
  /// (driver.h context_generation): its handles are dead, and whoever holds it must load the
  /// code again (destroying it is safe: a stale module is not unloaded). Never for the simulator.
  bool stale() const noexcept;

  /// After a launch of code built with debug=True: waits for `stream`, reads the module's
  /// cj_fault_record (prelude/cuda.h) and clears it. Returns true and fills `out` when a thread
  /// recorded an out-of-bounds index. GPU only.
  struct IndexFault {
    int site, axis;
    int64_t index, size;
    uint32_t thread[3], block[3];
  };
  bool take_index_fault(void* stream, IndexFault* out);

 private:
  LoadedModule() = default;

  Backend backend_ = Backend::Sim;
  void* module_ = nullptr;  // CUmodule
  uint64_t generation_ = 0;  // the context generation module_ was loaded in
  std::shared_ptr<toolchain::HostLibrary> lib_;
  std::mutex mu_;
  std::map<std::string, void*> functions_;
};

}  // namespace cujit::rt
