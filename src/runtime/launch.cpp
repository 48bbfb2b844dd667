// See launch.h.
#include "runtime/launch.h"

#include <cuda.h>

#include <algorithm>

#include "runtime/driver.h"
#include "runtime/simulator.h"

namespace cujit::rt {

namespace {
// The simulator's entry points (src/prelude/host.h).
using HostUfuncFn = void (*)(const void* params, int64_t begin, int64_t end);
struct SimLaunch {  // cj::SimLaunch
  int32_t grid[3];
  int32_t block[3];
  int64_t block_begin, block_end;
  int64_t shared_bytes;
  char error[512];
};
using HostKernelFn = void (*)(void** params, const SimLaunch* launch);
}  // namespace

std::shared_ptr<LoadedModule> LoadedModule::load_gpu(const std::string& image) {
  std::shared_ptr<LoadedModule> m(new LoadedModule());
  m->backend_ = Backend::GPU;
  m->module_ = (void*)load_module(image);
  return m;
}

std::shared_ptr<LoadedModule> LoadedModule::load_host(std::shared_ptr<toolchain::HostLibrary> lib) {
  std::shared_ptr<LoadedModule> m(new LoadedModule());
  m->backend_ = Backend::Sim;
  m->lib_ = std::move(lib);
  return m;
}

LoadedModule::~LoadedModule() {
  if (backend_ == Backend::GPU && module_) unload_module((CUmodule)module_);
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
    try {
      parallel_for(n, 1 << 15, [&](int64_t b, int64_t e) { fn(p, b, e); });
    } catch (const SimulatorError&) {
      throw;
    } catch (const std::runtime_error& e) {  // the prelude's SimFault (an index check)
      throw_simulator_error("simulated ufunc " + symbol, e.what());
    }
    return;
  }
  // A grid-stride loop: enough blocks to fill the device a few times over, no more.
  const unsigned threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  blocks = std::min<int64_t>(blocks, (int64_t)multiprocessor_count() * 32);
  void* params[] = {args.data()};
  unsigned grid[3] = {(unsigned)blocks, 1, 1}, block[3] = {threads, 1, 1};
  launch((CUfunction)f, grid, block, 0, (CUstream)stream, params);
}

void LoadedModule::launch_kernel(const std::string& symbol, Dim3 grid, Dim3 block, size_t shared_bytes,
                                 void* stream, void** params) {
  launch_kernel(function(symbol), symbol, grid, block, shared_bytes, stream, params);
}

void LoadedModule::launch_kernel(void* f, const std::string& symbol, Dim3 grid, Dim3 block, size_t shared_bytes,
                                 void* stream, void** params) {
  if (backend_ == Backend::GPU) {
    unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    launch((CUfunction)f, g, b, (unsigned)shared_bytes, (CUstream)stream, params);
    return;
  }
  auto fn = (HostKernelFn)f;
  int64_t nblocks = (int64_t)grid.x * grid.y * grid.z;
  int64_t per_block = (int64_t)block.x * block.y * block.z;
  parallel_for(nblocks, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, per_block)), [&](int64_t b, int64_t e) {
    SimLaunch l{{(int32_t)grid.x, (int32_t)grid.y, (int32_t)grid.z},
                {(int32_t)block.x, (int32_t)block.y, (int32_t)block.z}, b, e, (int64_t)shared_bytes, {0}};
    fn(params, &l);
    if (l.error[0]) {
      const std::string kPrefix = "cj_kernel_";  // codegen's entry symbol for kernel <name>
      throw_simulator_error("simulated kernel " + (symbol.rfind(kPrefix, 0) == 0 ? symbol.substr(kPrefix.size()) : symbol),
                            l.error);
    }
  });
}

void throw_simulator_error(const std::string& what, const std::string& message) {
  static const std::string kIndex = "IndexError: ", kRace = "RaceError: ";
  if (message.rfind(kIndex, 0) == 0) throw SimulatorIndexError(message.substr(kIndex.size()) + " (" + what + ")");
  if (message.rfind(kRace, 0) == 0) throw SimulatorRaceError(message.substr(kRace.size()) + " (" + what + ")");
  throw SimulatorError(what + ": " + message);
}

}  // namespace cujit::rt
