// See ufunc_pipeline.h. The GPU engine queues the copies and the loop on streams with events
// between them; the simulator engine does each step at once. The loop that drives them (which
// chunk goes to which buffer, what is memcpy'd where, the offsets the loop is given) is shared.
#include "runtime/ufunc_pipeline.h"


#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "runtime/driver.h"
#include "runtime/host_blocks.h"
#include "runtime/launch.h"
#include "runtime/simulator.h"
#include "runtime/ufunc.h"

namespace cujit::rt {
namespace {

// Every staged piece starts on this boundary, in the staging buffer and in the slot alike:
// cuMemAlloc's own alignment, so a piece's loads coalesce as a separately allocated array's do.
constexpr size_t kAlign = 256;

size_t align_up(size_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// The host copies into and out of the staging buffers, over the thread pool in pieces small
// enough that a chunk's few MiB keep every thread busy (memory.cpp's 1 MiB pieces suit its 16 MiB
// chunks); the result's pages are usually fresh, and faulting them in is part of the work.
void chunk_memcpy(void* dst, const void* src, size_t n) {
  constexpr int64_t kPiece = int64_t(128) << 10;
  if (int64_t(n) < 2 * kPiece) {
    std::memcpy(dst, src, n);
    return;
  }
  parallel_for(int64_t(n), kPiece, [&](int64_t b, int64_t e) {
    std::memcpy(static_cast<char*>(dst) + b, static_cast<const char*>(src) + b, size_t(e - b));
  });
}

std::vector<int64_t> c_strides(const std::vector<int64_t>& shape, int64_t itemsize) {
  std::vector<int64_t> s(shape.size());
  int64_t step = itemsize;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = step;
    step *= shape[i];
  }
  return s;
}

// NumPy's rule: dimensions of length 1 may have any stride.
bool c_contiguous(const HostOperand& o) {
  int64_t step = o.itemsize;
  for (size_t i = o.shape.size(); i-- > 0;) {
    if (o.shape[i] != 1 && o.strides[i] != step) return false;
    step *= o.shape[i];
  }
  return true;
}

// The defaults, from benchmarks/ufunc_host.py on the H100 (host path against the general path
// in one process; figures in docs/ARCHITECTURE.md "Data flow of a CUDA ufunc call"):
//  - small_max 64 KiB: one chunk saves the general path's per-operand round trips (the 4 x 4
//    int64 add: 40 -> 27.5 us) but does its memcpys in and out without overlap; at 512 KiB and
//    1 MiB staged the general path (the driver's own pipelined pageable copies) was faster
//    (107 vs 145 us, 164 vs 189 us), and the crossover estimated from those is ~170 KiB.
//  - split_min 2 MiB, split_max 48 MiB, first_chunk 4 MiB: there the chunks beat the general
//    path by 5-30% (gaussian_pdf over 1e6 float32: 0.54 vs 0.81 ms; add over 4M float32: 2.11
//    vs 2.46 ms), a call under 4 MiB being one chunk. First chunks of 1 MiB did worse than 4 MiB
//    (per-chunk costs: about eight driver calls and waking the memcpy threads twice).
//  - Past 64 MiB staged the chunks lost (1e8 float32 add: 81 vs 54 ms): the host's memcpys, into
//    result pages that are freshly faulted in, are then the bottleneck, and the general path's
//    staged copies already overlap them with the DMA.
//  - max_chunk: the staging buffer; at ~50 GB/s 16 MiB is ~0.3 ms on the bus.
std::mutex g_config_mu;
HostPathConfig g_config = {size_t(64) << 10, size_t(2) << 20, size_t(48) << 20, size_t(4) << 20, StagingLease::kBytes,
                           true, false};

std::atomic<int64_t> g_calls{0}, g_split_calls{0}, g_chunks{0}, g_direct_out_calls{0};

// Tests: the drain of this chunk throws (-1: none), to check that a failure part-way returns the
// staging set and leaves the next call working.
std::atomic<int> g_fail_drain_chunk{-1};

// ---- Engines: what a step means on each backend ------------------------------------------------

class Engine {
 public:
  virtual ~Engine() = default;
  virtual char* staging(int b) = 0;
  /// Before the first chunk.
  virtual void begin() = 0;
  /// Copies buffer b's inputs [0, n) into slot b.
  virtual void copy_in(int b, char* slot, const char* staging, size_t n) = 0;
  /// Runs the loop over the chunk in buffer b.
  virtual void launch(int b, std::vector<int64_t>& packed, int64_t n) = 0;
  /// Copies the chunk's result piece from slot b back to buffer b.
  virtual void copy_out(int b, char* staging, const char* slot, size_t n) = 0;
  /// Host: waits until buffer b may be read (its result piece) and written (the next chunk).
  virtual void wait(int b) = 0;
  /// After a failure: waits for whatever was queued, ignoring errors.
  virtual void abort() noexcept = 0;
};

class SimEngine final : public Engine {
 public:
  SimEngine(LoadedModule& mod, const std::string& symbol, int nbuf, size_t bytes)
      : mod_(mod), symbol_(symbol), bytes_(bytes), mem_(allocate(Backend::Sim, size_t(nbuf) * bytes)) {}
  char* staging(int b) override { return mem_->data() + size_t(b) * bytes_; }
  void begin() override {}
  void copy_in(int, char* slot, const char* staging, size_t n) override { parallel_memcpy(slot, staging, n); }
  void launch(int, std::vector<int64_t>& packed, int64_t n) override { mod_.launch_ufunc(symbol_, packed, n, nullptr); }
  void copy_out(int, char* staging, const char* slot, size_t n) override { parallel_memcpy(staging, slot, n); }
  void wait(int) override {}
  void abort() noexcept override {}

 private:
  LoadedModule& mod_;
  const std::string& symbol_;
  size_t bytes_;
  std::shared_ptr<Buffer> mem_;
};

// The split pipeline's own streams and events, made once and used only by the holder of the
// staging lease (so by one call at a time). The streams do not synchronise with the legacy
// default stream: the caller's stream may be it, and events order them against it explicitly.
struct PipelineStreams {
  CUstream in = nullptr, out = nullptr;
  CUevent start = nullptr;
  CUevent in_done[StagingLease::kBuffers] = {};      // the slot's inputs are on the device
  CUevent kernel_done[StagingLease::kBuffers] = {};  // the loop over the slot has finished
  bool made = false;

  void make() {
    if (made) return;
    CUJIT_CU(cuStreamCreate, &in, CU_STREAM_NON_BLOCKING);
    CUJIT_CU(cuStreamCreate, &out, CU_STREAM_NON_BLOCKING);
    CUJIT_CU(cuEventCreate, &start, CU_EVENT_DISABLE_TIMING);
    for (int i = 0; i < StagingLease::kBuffers; ++i) {
      CUJIT_CU(cuEventCreate, &in_done[i], CU_EVENT_DISABLE_TIMING);
      CUJIT_CU(cuEventCreate, &kernel_done[i], CU_EVENT_DISABLE_TIMING);
    }
    made = true;
  }
};

PipelineStreams& pipeline_streams() {
  static auto* p = new PipelineStreams();  // kept for the process, like the staging set it serves
  return *p;
}

// One chunk: everything on the caller's stream, in order. Split: copies in on `in`, loops on the
// caller's stream, copies out on `out`; slot b's copy in waits for the loop that last read slot
// b, the loop waits for its copy in, the copy out waits for the loop. The buffer's event (the
// lease's) follows the last DMA touching the buffer: the copy out, or the copy in when the
// result is not staged.
class GpuEngine final : public Engine {
 public:
  GpuEngine(LoadedModule& mod, const std::string& symbol, StagingLease& lease, void* stream, bool split, bool host_out)
      : mod_(mod), symbol_(symbol), lease_(lease), user_(static_cast<CUstream>(stream)), split_(split), host_out_(host_out) {}
  char* staging(int b) override { return lease_.buffer(b); }
  void begin() override {
    if (!split_) return;
    ps_ = &pipeline_streams();
    ps_->make();
    // The slots were allocated on the caller's stream (stream-ordered): the copy-in stream
    // may use them only after that.
    CUJIT_CU(cuEventRecord, ps_->start, user_);
    CUJIT_CU(cuStreamWaitEvent, ps_->in, ps_->start, 0);
  }
  void copy_in(int b, char* slot, const char* staging, size_t n) override {
    CUstream s = split_ ? ps_->in : user_;
    if (split_ && slot_used_[b]) CUJIT_CU(cuStreamWaitEvent, s, ps_->kernel_done[b], 0);
    CUJIT_CU(cuMemcpyHtoDAsync, CUdeviceptr(uintptr_t(slot)), staging, n, s);
    if (split_) {
      CUJIT_CU(cuEventRecord, ps_->in_done[b], s);
      CUJIT_CU(cuStreamWaitEvent, user_, ps_->in_done[b], 0);
    }
    if (!host_out_) record_done(b, s);
  }
  void launch(int b, std::vector<int64_t>& packed, int64_t n) override {
    mod_.launch_ufunc(symbol_, packed, n, user_);
    slot_used_[b] = true;
    if (split_) CUJIT_CU(cuEventRecord, ps_->kernel_done[b], user_);
  }
  void copy_out(int b, char* staging, const char* slot, size_t n) override {
    CUstream s = split_ ? ps_->out : user_;
    if (split_) CUJIT_CU(cuStreamWaitEvent, s, ps_->kernel_done[b], 0);
    CUJIT_CU(cuMemcpyDtoHAsync, staging, CUdeviceptr(uintptr_t(slot)), n, s);
    record_done(b, s);
  }
  void wait(int b) override {
    if (recorded_[b]) CUJIT_CU(cuEventSynchronize, static_cast<CUevent>(lease_.done(b)));
    recorded_[b] = false;
  }
  void abort() noexcept override {
    try {
      const Driver& d = Driver::get();
      if (!d.api.cuStreamSynchronize) return;
      d.api.cuStreamSynchronize(user_);
      if (ps_) {
        d.api.cuStreamSynchronize(ps_->in);
        d.api.cuStreamSynchronize(ps_->out);
      }
    } catch (...) {
    }
  }

 private:
  void record_done(int b, CUstream s) {
    CUJIT_CU(cuEventRecord, static_cast<CUevent>(lease_.done(b)), s);
    recorded_[b] = true;
  }
  LoadedModule& mod_;
  const std::string& symbol_;
  StagingLease& lease_;
  CUstream user_;
  bool split_, host_out_;
  PipelineStreams* ps_ = nullptr;
  bool slot_used_[StagingLease::kBuffers] = {};
  bool recorded_[StagingLease::kBuffers] = {};
};

// The loop's view of chunk `ch` with slot `slot`: staged operands at their offsets in the slot,
// device operands in place (at the chunk's offset when split).
std::vector<int64_t> pack_chunk(const std::vector<HostOperand>& ops, const std::vector<int64_t>& shape,
                                const HostPathPlan& plan, const HostPathPlan::Chunk& ch, char* slot, int64_t* n) {
  const int64_t len = ch.end - ch.begin;
  std::vector<Operand> lops(ops.size());
  for (size_t k = 0; k < ops.size(); ++k) {
    const HostOperand& o = ops[k];
    Operand& p = lops[k];
    const bool one = element_count(o.shape) == 1;
    char* base = o.host ? slot + ch.offset[k] : o.data;
    if (plan.split) {
      p.data = base + (!o.host && !one ? ch.begin * o.itemsize : 0);
      p.shape = {one ? 1 : len};
      p.strides = {o.itemsize};
    } else {
      p.data = base;
      p.shape = o.shape;
      p.strides = o.host ? c_strides(o.shape, o.itemsize) : o.strides;
    }
  }
  return pack_ufunc_args(plan.split ? std::vector<int64_t>{len} : shape, lops, n);
}

}  // namespace

HostPathConfig host_path_config() {
  std::lock_guard<std::mutex> g(g_config_mu);
  return g_config;
}

void set_host_path_config(const HostPathConfig& c) {
  if (c.first_chunk == 0 || c.max_chunk == 0) throw std::invalid_argument("ufunc host path: chunk sizes must be positive");
  if (c.first_chunk > c.max_chunk) throw std::invalid_argument("ufunc host path: first_chunk exceeds max_chunk");
  if (c.max_chunk > StagingLease::kBytes || c.small_max > StagingLease::kBytes)
    throw std::invalid_argument("ufunc host path: max_chunk and small_max can be at most the staging buffer size, " +
                                std::to_string(StagingLease::kBytes) + " bytes");
  std::lock_guard<std::mutex> g(g_config_mu);
  g_config = c;
}

void set_host_path_drain_failure(int chunk) { g_fail_drain_chunk.store(chunk); }

HostPathStats host_path_stats() {
  HostPathStats s;
  s.calls = g_calls.load();
  s.split_calls = g_split_calls.load();
  s.chunks = g_chunks.load();
  s.direct_out_calls = g_direct_out_calls.load();
  return s;
}

bool plan_host_path(const std::vector<HostOperand>& ops, const std::vector<int64_t>& shape,
                    const HostPathConfig& config, HostPathPlan* plan) {
  const size_t nops = ops.size();
  const int64_t n = element_count(shape);
  const size_t cap = std::min(config.max_chunk, StagingLease::kBytes);
  if (n <= 0 || nops < 2) return false;

  // Element-wise: every operand is the result's elements in C order, or one element.
  bool can_split = true;
  size_t per_element = 0, fixed = 0;  // a chunk's staged bytes: per_element * len + fixed at most
  for (const HostOperand& o : ops) {
    const int64_t count = element_count(o.shape);
    if (count != n && count != 1) can_split = false;
    if (count == n && count > 1 && !o.host && !c_contiguous(o)) can_split = false;
    if (!o.host) continue;
    if (count == 1) fixed += size_t(o.itemsize);
    else per_element += size_t(o.itemsize);
    fixed += kAlign;  // the padding after each piece, at worst
  }

  auto layout = [&](int64_t begin, int64_t end, bool split) {
    HostPathPlan::Chunk c;
    c.begin = begin;
    c.end = end;
    c.offset.assign(nops, 0);
    c.bytes.assign(nops, 0);
    size_t at = 0;
    for (size_t k = 0; k < nops; ++k) {
      const HostOperand& o = ops[k];
      if (!o.host) continue;
      const int64_t count = element_count(o.shape);
      c.offset[k] = at;
      c.bytes[k] = size_t(split && count != 1 ? end - begin : count) * size_t(o.itemsize);
      if (k + 1 < nops) c.in_bytes = at + c.bytes[k];
      at = align_up(at + c.bytes[k]);
    }
    return std::make_pair(c, at);
  };

  plan->chunks.clear();
  auto [whole, whole_span] = layout(0, n, false);
  if (whole_span <= std::min(cap, config.small_max)) {
    plan->split = false;
    plan->chunks.push_back(whole);
    plan->slot_bytes = std::max<size_t>(kAlign, whole_span);
    return true;
  }
  if (whole_span < config.split_min || whole_span > config.split_max) return false;
  if (!can_split || per_element == 0 || cap <= fixed) return false;
  const int64_t max_len = int64_t((cap - fixed) / per_element);
  if (max_len < 1) return false;
  int64_t len = std::clamp<int64_t>(int64_t(config.first_chunk / per_element), 1, max_len);
  plan->split = true;
  plan->slot_bytes = kAlign;
  for (int64_t begin = 0; begin < n; len = std::min(max_len, len * 2)) {
    const int64_t end = std::min(n, begin + len);
    auto [c, span] = layout(begin, end, true);
    plan->chunks.push_back(std::move(c));
    plan->slot_bytes = std::max(plan->slot_bytes, span);
    begin = end;
  }
  return true;
}

bool run_host_path(LoadedModule& mod, const std::string& symbol, const std::vector<HostOperand>& ops,
                   const std::vector<int64_t>& shape, const HostPathPlan& plan, void* stream) {
  const Backend backend = mod.backend();
  StagingLease lease;
  if (backend == Backend::GPU) {
    lease = lease_staging();
    if (!lease.ok()) return false;
  }
  const int nchunks = int(plan.chunks.size());
  const int nbuf = std::min(StagingLease::kBuffers, nchunks);
  const HostOperand& result = ops.back();
  std::shared_ptr<Buffer> slots = allocate(backend, size_t(nbuf) * plan.slot_bytes, stream);
  std::unique_ptr<Engine> engine;
  if (backend == Backend::GPU)
    engine = std::make_unique<GpuEngine>(mod, symbol, lease, stream, plan.split, result.host);
  else
    engine = std::make_unique<SimEngine>(mod, symbol, nbuf, plan.slot_bytes);

  // A host result in a pinned block (bindings/host_results.cpp made it for this call) is DMA'd
  // into directly: no staging and no memcpy out, which was about half of a mid-sized call's host
  // work (gaussian_pdf over 1e6 float32 on the H200 machine: 230 of 507 us).
  const bool direct_out =
      result.host &&
      host_block_pinned(result.data, size_t(element_count(result.shape)) * size_t(result.itemsize), backend);
  auto result_piece = [&](const HostPathPlan::Chunk& ch) {
    return result.data + (plan.split ? ch.begin * result.itemsize : 0);
  };
  // on_buffer[b]: the chunk whose result piece buffer b holds (or will hold), -1 when none.
  std::vector<int> on_buffer(nbuf, -1);
  auto drain = [&](int b) {
    engine->wait(b);
    const int c = on_buffer[b];
    on_buffer[b] = -1;
    if (c >= 0 && c == g_fail_drain_chunk.load(std::memory_order_relaxed))
      throw std::runtime_error("ufunc host path: injected failure draining chunk " + std::to_string(c));
    if (c < 0 || !result.host || direct_out) return;
    const HostPathPlan::Chunk& ch = plan.chunks[c];
    chunk_memcpy(result_piece(ch), engine->staging(b) + ch.offset.back(), ch.bytes.back());
  };
  try {
    engine->begin();
    for (int c = 0; c < nchunks; ++c) {
      const HostPathPlan::Chunk& ch = plan.chunks[c];
      const int b = c % nbuf;
      if (on_buffer[b] >= 0) drain(b);
      char* staging = engine->staging(b);
      char* slot = slots->data() + size_t(b) * plan.slot_bytes;
      for (size_t k = 0; k + 1 < ops.size(); ++k) {
        const HostOperand& o = ops[k];
        if (!o.host) continue;
        const bool whole = !plan.split || element_count(o.shape) == 1;
        chunk_memcpy(staging + ch.offset[k], o.data + (whole ? 0 : ch.begin * o.itemsize), ch.bytes[k]);
      }
      if (ch.in_bytes > 0) engine->copy_in(b, slot, staging, ch.in_bytes);
      int64_t n = 0;
      std::vector<int64_t> packed = pack_chunk(ops, shape, plan, ch, slot, &n);
      engine->launch(b, packed, n);
      if (result.host)
        engine->copy_out(b, direct_out ? result_piece(ch) : staging + ch.offset.back(), slot + ch.offset.back(),
                         ch.bytes.back());
      on_buffer[b] = c;
    }
    // The last buffers, oldest chunk first (its copy out was queued first).
    for (int c = std::max(0, nchunks - nbuf); c < nchunks; ++c) drain(c % nbuf);
  } catch (...) {
    engine->abort();
    throw;
  }
  g_calls.fetch_add(1, std::memory_order_relaxed);
  if (plan.split) g_split_calls.fetch_add(1, std::memory_order_relaxed);
  g_chunks.fetch_add(nchunks, std::memory_order_relaxed);
  if (direct_out) g_direct_out_calls.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace cujit::rt
