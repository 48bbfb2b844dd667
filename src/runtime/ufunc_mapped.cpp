// See ufunc_mapped.h.
#include "runtime/ufunc_mapped.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "runtime/driver.h"
#include "runtime/launch.h"
#include "runtime/memory.h"
#include "runtime/ufunc.h"

namespace cujit::rt {
namespace {

// The default bound: the whole one-chunk range of the staged path (its small_max, 64 KiB). The
// mapped path won at every size measured (benchmarks/ufunc_paths.py, both paths in one process):
// on the H100 15.1 vs 25.9 us a call at 384 staged bytes (the 4 x 4 int64 add), 16.6 vs 28.5 at
// 12 KiB, 20.2 vs 33.9 at 48 KiB (float32 add of 4,096 elements); on an H200 machine 21.0 vs
// 30.4, 21.4 vs 30.6, 25.1 vs 32.4 us.
std::mutex g_mapped_mu;
MappedConfig g_mapped = {size_t(64) << 10, false};
std::atomic<int64_t> g_mapped_calls{0};

std::vector<int64_t> mapped_c_strides(const std::vector<int64_t>& shape, int64_t itemsize) {
  std::vector<int64_t> s(shape.size());
  int64_t step = itemsize;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = step;
    step *= shape[i];
  }
  return s;
}

// The device address of pinned buffer `host` (the same address where the device has unified
// addressing), asked once per buffer and context.
char* mapped_device_pointer(char* host) {
  static std::mutex mu;
  static char* last_host = nullptr;
  static char* last_dev = nullptr;
  static uint64_t last_gen = 0;
  std::lock_guard<std::mutex> g(mu);
  const uint64_t gen = context_generation();
  if (host != last_host || gen != last_gen) {
    CUdeviceptr d = 0;
    const Driver& drv = Driver::get();
    if (!drv.api.cuMemHostGetDevicePointer || drv.api.cuMemHostGetDevicePointer(&d, host, 0) != CUDA_SUCCESS)
      return nullptr;
    last_host = host;
    last_dev = reinterpret_cast<char*>(uintptr_t(d));
    last_gen = gen;
  }
  return last_dev;
}

}  // namespace

MappedConfig mapped_config() {
  std::lock_guard<std::mutex> g(g_mapped_mu);
  return g_mapped;
}

void set_mapped_config(const MappedConfig& c) {
  if (c.max_bytes > StagingLease::kBytes)
    throw std::invalid_argument("ufunc mapped path: max_bytes can be at most the staging buffer size, " +
                                std::to_string(StagingLease::kBytes) + " bytes");
  std::lock_guard<std::mutex> g(g_mapped_mu);
  g_mapped = c;
}

int64_t mapped_calls() { return g_mapped_calls.load(); }

namespace {
// Whether the settings send a one-chunk call of `span` staged bytes (`slot_bytes` as
// plan_host_path measures it) with a host result on `backend` to the mapped path.
bool mapped_fits_span(size_t span, size_t slot_bytes, Backend backend) {
  const MappedConfig c = mapped_config();
  const HostPathConfig h = host_path_config();
  if (backend == Backend::Sim ? !(c.simulator && h.simulator) : !h.gpu) return false;
  return span <= c.max_bytes && slot_bytes <= std::min({h.small_max, h.max_chunk, StagingLease::kBytes});
}
}  // namespace

bool mapped_fits(const std::vector<HostOperand>& ops, const HostPathPlan& plan, Backend backend) {
  const MappedConfig c = mapped_config();
  if (backend == Backend::Sim && !c.simulator) return false;
  if (plan.split || plan.chunks.size() != 1 || ops.empty() || !ops.back().host) return false;
  const HostPathPlan::Chunk& ch = plan.chunks[0];
  return ch.offset.back() + ch.bytes.back() <= c.max_bytes;
}

namespace {
// The buffer a mapped call stages in, held for the call: staging buffer 0 under the lease on the
// GPU; on the simulator one host buffer of the staging buffer's size, kept (so a described call's
// words stay valid) and held by a mutex as the lease holds the set.
struct MappedBuffer {
  StagingLease lease;
  std::unique_lock<std::mutex> sim_lock;
  char* host = nullptr;  // where the host writes and reads
  char* dev = nullptr;   // the same bytes as the loop addresses them

  bool take(Backend backend) {
    if (backend == Backend::GPU) {
      lease = lease_staging();
      if (!lease.ok()) return false;
      host = lease.buffer(0);
      dev = mapped_device_pointer(host);
      return dev != nullptr;
    }
    static std::mutex mu;
    static std::shared_ptr<Buffer>* buf = new std::shared_ptr<Buffer>();  // kept for the process
    sim_lock = std::unique_lock<std::mutex>(mu, std::try_to_lock);
    if (!sim_lock.owns_lock()) return false;
    if (!*buf) *buf = allocate(Backend::Sim, StagingLease::kBytes);
    host = dev = (*buf)->data();
    return true;
  }
};

// Launches the described words and waits (see run_mapped), with the buffer taken.
void mapped_launch(LoadedModule& mod, const std::string& symbol, std::vector<int64_t>& packed, int64_t n, void* stream) {
  if (mod.backend() != Backend::GPU) {
    mod.launch_ufunc(symbol, packed, n, stream);
    return;
  }
  // The lease's invariant (no work on its buffers when it ends): the loop reads and writes
  // buffer 0, so the call waits for its stream (one driver call, where an event would take
  // two; the buffer's event, recorded by an earlier holder, has completed), even when the
  // launch or the wait fails.
  try {
    mod.launch_ufunc(symbol, packed, n, stream);
    stream_synchronize(static_cast<CUstream>(stream));
  } catch (...) {
    try {
      const Driver& d = Driver::get();
      if (d.api.cuStreamSynchronize) d.api.cuStreamSynchronize(static_cast<CUstream>(stream));
    } catch (...) {
    }
    throw;
  }
}

}  // namespace

bool run_mapped(LoadedModule& mod, const std::string& symbol, const std::vector<HostOperand>& ops,
                const std::vector<int64_t>& shape, const HostPathPlan& plan, void* stream, MappedRepeat* rep) {
  const HostPathPlan::Chunk& ch = plan.chunks[0];
  MappedBuffer mb;
  if (!mb.take(mod.backend())) return false;
  char* const host = mb.host;
  char* const dev = mb.dev;
  std::vector<Operand> lops(ops.size());
  for (size_t k = 0; k < ops.size(); ++k) {
    const HostOperand& o = ops[k];
    if (o.host && k + 1 < ops.size()) std::memcpy(host + ch.offset[k], o.data, ch.bytes[k]);
    lops[k].data = o.host ? dev + ch.offset[k] : o.data;
    lops[k].shape = o.shape;
    lops[k].strides = o.host ? mapped_c_strides(o.shape, o.itemsize) : o.strides;
  }
  int64_t n = 0;
  std::vector<int64_t> packed = pack_ufunc_args(shape, lops, &n);
  if (rep) {
    rep->valid = true;
    for (const HostOperand& o : ops) rep->valid = rep->valid && o.host;
    rep->host = host;
    rep->dev = dev;
    rep->packed = packed;
    rep->n = n;
    rep->offset = ch.offset;
    rep->bytes = ch.bytes;
    rep->span = ch.offset.back() + ch.bytes.back();
    rep->slot_bytes = plan.slot_bytes;
  }
  mapped_launch(mod, symbol, packed, n, stream);
  const HostOperand& r = ops.back();
  std::memcpy(r.data, host + ch.offset.back(), ch.bytes.back());
  g_mapped_calls.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool run_mapped_again(LoadedModule& mod, const std::string& symbol, MappedRepeat& r, const char* const* inputs,
                      char* result, void* stream) {
  if (!r.valid) return false;
  const Backend backend = mod.backend();
  if (!mapped_fits_span(r.span, r.slot_bytes, backend)) return false;
  MappedBuffer mb;
  if (!mb.take(backend) || mb.host != r.host || mb.dev != r.dev) return false;
  const size_t nin = r.offset.size() - 1;
  for (size_t k = 0; k < nin; ++k) std::memcpy(mb.host + r.offset[k], inputs[k], r.bytes[k]);
  mapped_launch(mod, symbol, r.packed, r.n, stream);
  std::memcpy(result, mb.host + r.offset.back(), r.bytes.back());
  g_mapped_calls.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace cujit::rt
