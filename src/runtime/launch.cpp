// See launch.h.
#include <cstdio>
#include "runtime/launch.h"


#include <algorithm>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "abi/cujit_abi.h"
#include "runtime/driver.h"
#include "runtime/simulator.h"

namespace cujit::rt {

// The simulator's entry points and records, and the GPU's fault record: src/abi/cujit_abi.h.
using cj::HostKernelFn;
using cj::HostUfuncFn;
using cj::SimGrid;
using cj::SimLaunch;

std::shared_ptr<LoadedModule> LoadedModule::load_gpu(const std::string& image) {
  std::shared_ptr<LoadedModule> m(new LoadedModule());
  m->backend_ = Backend::GPU;
  m->module_ = (void*)load_module(image);
  m->generation_ = context_generation();
  return m;
}

std::shared_ptr<LoadedModule> LoadedModule::load_host(std::shared_ptr<toolchain::HostLibrary> lib) {
  std::shared_ptr<LoadedModule> m(new LoadedModule());
  m->backend_ = Backend::Sim;
  m->lib_ = std::move(lib);
  return m;
}

LoadedModule::~LoadedModule() {
  // A stale module died with its context; unloading its handle now could hit a new module.
  // unload_module checks that, and unloads in the module's own device's context.
  if (backend_ == Backend::GPU && module_) unload_module((CUmodule)module_, generation_);
}

bool LoadedModule::stale() const noexcept {
  return backend_ == Backend::GPU && generation_ != context_generation();
}

bool LoadedModule::take_index_fault(void* stream, IndexFault* out) {
  if (backend_ != Backend::GPU) return false;
  if (stale()) throw_stale("this kernel's module", generation_);
  // Numba's debug=True launches are synchronous too: the error belongs to this launch.
  stream_synchronize((CUstream)stream);
  CUdeviceptr p = 0;
  size_t bytes = 0;
  CUJIT_CU(cuModuleGetGlobal, &p, &bytes, (CUmodule)module_, CJ_ABI_STR(CJ_ABI_FAULT_RECORD));
  if (bytes != sizeof(cj::FaultRecord)) throw std::logic_error("the fault record has an unexpected size");
  cj::FaultRecord r{};
  CUJIT_CU(cuMemcpyDtoH, &r, p, sizeof r);
  if (r.flag == 0) return false;
  CUJIT_CU(cuMemsetD8, p, 0, sizeof r);  // ready for the next launch
  *out = IndexFault{r.site, r.axis, r.index, r.size, {r.thread[0], r.thread[1], r.thread[2]},
                    {r.block[0], r.block[1], r.block[2]}};
  return true;
}

void* LoadedModule::function(const std::string& symbol) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = functions_.find(symbol);
  if (it != functions_.end()) return it->second;
  void* f = backend_ == Backend::GPU ? (void*)get_function((CUmodule)module_, symbol) : lib_->symbol(symbol);
  functions_[symbol] = f;
  return f;
}

void LoadedModule::launch_ufunc(const std::string& symbol, std::vector<int64_t>& args, int64_t n, void* stream) {
  if (n <= 0) return;
  void* f = function(symbol);
  if (backend_ == Backend::Sim) {
    auto fn = (HostUfuncFn)f;
    const void* p = args.data();
    parallel_for(n, 1 << 15, [&](int64_t b, int64_t e) {
      char err[512] = {0};
      if (fn(p, b, e, err, sizeof err)) throw_simulator_error("simulated ufunc " + symbol, err);  // a SimFault
    });
    return;
  }
  // A grid-stride loop: enough blocks to fill the device a few times over, no more.
  const unsigned threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  blocks = std::min<int64_t>(blocks, (int64_t)multiprocessor_count() * 32);
  void* params[] = {args.data()};
  unsigned grid[3] = {(unsigned)blocks, 1, 1}, block[3] = {threads, 1, 1};
  if (stale()) throw_stale("ufunc loop " + symbol + "'s module", generation_);
  launch((CUfunction)f, grid, block, 0, (CUstream)stream, params);
}

void LoadedModule::launch_kernel(const std::string& symbol, Dim3 grid, Dim3 block, size_t shared_bytes,
                                 void* stream, void** params, bool cooperative) {
  launch_kernel(function(symbol), symbol, grid, block, shared_bytes, stream, params, cooperative);
}

namespace {
int sim_max_cooperative_blocks(int threads) {
  static const int cores = (int)std::max(1u, std::thread::hardware_concurrency());
  return std::max(1, std::min(kSimMaxCooperativeBlocks, cores * std::max(1, 2048 / std::max(1, threads))));
}

// The Python name of the kernel whose entry is `symbol`.
std::string kernel_name(const std::string& symbol) {
  const std::string kPrefix = cj::kKernelPrefix;
  return symbol.rfind(kPrefix, 0) == 0 ? symbol.substr(kPrefix.size()) : symbol;
}

// A cooperative launch on the simulator: every block on a CPU thread of its own, all at once, so
// that grid.sync() (prelude/host_services.h) can wait for all of them. Block 0 runs on the calling
// thread inside parallel_for, which makes it the thread that polls for Ctrl-C.
void run_cooperative(HostKernelFn fn, const std::string& symbol, Dim3 grid, Dim3 block, size_t shared_bytes,
                     void** params) {
  const int64_t nblocks = (int64_t)grid.x * grid.y * grid.z;
  SimGrid g{nblocks, 0, 0, 0, 0};
  std::vector<std::string> errors(nblocks);
  auto run_block = [&](int64_t b) {
    SimLaunch l{{(int32_t)grid.x, (int32_t)grid.y, (int32_t)grid.z},
                {(int32_t)block.x, (int32_t)block.y, (int32_t)block.z}, b, b + 1, (int64_t)shared_bytes, {0}, &g};
    fn(params, &l);
    if (l.error[0]) {
      errors[b] = l.error;
      __atomic_store_n(&g.stop, 1, __ATOMIC_RELEASE);
    }
    __atomic_add_fetch(&g.finished, 1, __ATOMIC_ACQ_REL);
  };
  parallel_for(1, 1, [&](int64_t, int64_t) {
    std::vector<std::thread> threads;
    threads.reserve(nblocks - 1);
    std::string start_error;
    for (int64_t b = 1; b < nblocks; ++b) {
      try {
        threads.emplace_back(run_block, b);
      } catch (const std::system_error& e) {
        // Those started stop at their first grid.sync() (or finish); the launch fails.
        start_error = std::string("could not start a CPU thread for each of the ") + std::to_string(nblocks) +
                      " blocks of the cooperative launch: " + e.what();
        __atomic_store_n(&g.stop, 1, __ATOMIC_RELEASE);
        __atomic_add_fetch(&g.finished, nblocks - b, __ATOMIC_ACQ_REL);
        break;
      }
    }
    if (start_error.empty()) run_block(0);
    for (auto& t : threads) t.join();
    if (!start_error.empty()) throw SimulatorError("simulated kernel " + kernel_name(symbol) + ": " + start_error);
  });
  // The first block's own error; "GridStopped" only says that another block failed first.
  const std::string stopped = "GridStopped: ";
  for (const auto& e : errors)
    if (!e.empty() && e.rfind(stopped, 0) != 0) throw_simulator_error("simulated kernel " + kernel_name(symbol), e);
}
}  // namespace

int LoadedModule::max_cooperative_blocks(const std::string& symbol, int threads, size_t shared_bytes) {
  if (backend_ == Backend::GPU) {
    if (stale()) throw_stale("kernel " + symbol + "'s module", generation_);
    return rt::max_cooperative_blocks((CUfunction)function(symbol), threads, shared_bytes);
  }
  return sim_max_cooperative_blocks(threads);
}

void LoadedModule::launch_kernel(void* f, const std::string& symbol, Dim3 grid, Dim3 block, size_t shared_bytes,
                                 void* stream, void** params, bool cooperative) {
  if (backend_ == Backend::GPU) {
    if (stale()) throw_stale("kernel " + symbol + "'s module", generation_);
    unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    try {
      launch((CUfunction)f, g, b, (unsigned)shared_bytes, (CUstream)stream, params, cooperative);
    } catch (const CudaAPIError& e) {
      // Too many registers for the block: say which kernel, how many, and what would fit.
      if (e.code != CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) throw;
      const std::string name = kernel_name(symbol);
      throw CudaAPIError(e.call, e.code, e.name, "too many resources requested for launch",
                         launch_resources_message(name, function_attribute((CUfunction)f, CU_FUNC_ATTRIBUTE_NUM_REGS),
                                                  (long long)block.x * block.y * block.z,
                                                  function_attribute((CUfunction)f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)));
    }
    return;
  }
  auto fn = (HostKernelFn)f;
  int64_t nblocks = (int64_t)grid.x * grid.y * grid.z;
  int64_t per_block = (int64_t)block.x * block.y * block.z;
  if (cooperative) {
    // What the driver answers a cooperative grid larger than can be resident.
    const int most = sim_max_cooperative_blocks((int)per_block);
    if (nblocks > most)
      throw CudaAPIError("cuLaunchCooperativeKernel", CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
                         "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "too many blocks in cooperative launch",
                         ": " + std::to_string(nblocks) + " blocks of " + std::to_string(per_block) +
                             " threads, and the simulator runs at most " + std::to_string(most) +
                             " such blocks at once (max_cooperative_grid_blocks)");
    return run_cooperative(fn, symbol, grid, block, shared_bytes, params);
  }
  parallel_for(nblocks, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, per_block)), [&](int64_t b, int64_t e) {
    SimLaunch l{{(int32_t)grid.x, (int32_t)grid.y, (int32_t)grid.z},
                {(int32_t)block.x, (int32_t)block.y, (int32_t)block.z}, b, e, (int64_t)shared_bytes, {0}, nullptr};
    fn(params, &l);
    if (l.error[0]) throw_simulator_error("simulated kernel " + kernel_name(symbol), l.error);
  });
}

void throw_simulator_error(const std::string& what, const std::string& message) {
  static const std::string kIndex = "IndexError: ", kRace = "RaceError: ";
  if (message.rfind(kIndex, 0) == 0) throw SimulatorIndexError(message.substr(kIndex.size()) + " (" + what + ")");
  if (message.rfind(kRace, 0) == 0) throw SimulatorRaceError(message.substr(kRace.size()) + " (" + what + ")");
  int site;
  uint32_t t[3], b[3];
  if (std::sscanf(message.c_str(), "Raise: %d %u %u %u %u %u %u", &site, &t[0], &t[1], &t[2], &b[0], &b[1], &b[2]) == 7)
    throw KernelRaise(site, t, b);  // prelude/host.h gpu_raise
  throw SimulatorError(what + ": " + message);
}

}  // namespace cujit::rt
