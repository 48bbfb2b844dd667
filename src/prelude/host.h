// Prelude for the CPU (the host compiler): @jit functions, CPU ufuncs and the CUDA simulator.
// The simulator runs a kernel's threads one after another on each CPU thread; the thread and
// block indices it would read from hardware registers live in a thread_local here.
// C++17's special functions in <cmath> (std::beta, std::riemann_zeta, ...: libstdc++'s
// <bits/specfun.h>) were 60% of the time GCC takes to read <cmath>, a quarter of a whole
// first compile, and nothing here uses them: libstdc++ is told to leave them out (its switch;
// other libraries have no such header and are unchanged).
#if defined(__has_include)
#if __has_include(<bits/c++config.h>)
#include <bits/c++config.h>
#undef _GLIBCXX_USE_STD_SPEC_FUNCS
#define _GLIBCXX_USE_STD_SPEC_FUNCS 0
#endif
#endif
#include <cmath>
#include <math.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <exception>  // not <stdexcept>: its <string> doubled the time of a precompiled prelude
#include <new>
#include <ucontext.h>
#include <time.h>

#define CJ_TARGET_HOST 1
#define CJ_FN static inline
#define CJ_METHOD inline
#define CJ_DEVICE
#define CJ_EXPORT __attribute__((visibility("default")))
#define CJ_INF __builtin_inf()
#define CJ_NAN __builtin_nan("")

namespace cj {
// Dim3, SimLaunch (one simulated launch) and SimGrid: src/abi/cujit_abi.h.
struct SimThread {
  Dim3 threadIdx, blockIdx, blockDim, gridDim;
};
inline thread_local SimThread sim_thread;
// Dynamic shared memory of the block this CPU thread is running (the launch's sharedmem bytes).
inline thread_local unsigned char* sim_dyn_smem = nullptr;
inline thread_local int64_t sim_dyn_smem_bytes = 0, sim_dyn_smem_capacity = 0;
// ---- The shared-memory race check, state and barrier hooks (CUJIT_SIM_RACECHECK=1) ----------------
// Codegen puts `#define CJ_SIM_RACECHECK 1` in front of this prelude when the switch is on; off,
// none of this is compiled and the simulator's code is what it always was. Shared memory is known
// by its address: each static cuda.shared.array's storage registers itself when its declaration
// runs (sim_race_shared), and the dynamic buffer at each launch (sim_set_dyn_smem). Each region
// has one shadow cell per element (per byte for dynamic memory, which arrays of different dtypes
// may view) holding the last write and up to two reads: thread, array name, line and time. Time
// is a counter of this CPU thread that moves at each block start, barrier release and warp
// operation; an earlier access is concurrent with the current one when no block start or barrier
// came since (its time >= `barrier`) and no warp operation joined both threads after it
// (warp_sync). The counter never goes back, so nothing is cleared between blocks or launches.
#ifndef CJ_SIM_RACECHECK
#define CJ_SIM_RACECHECK 0
#endif
#if CJ_SIM_RACECHECK
struct SimRaceCell {
  uint64_t time[3];  // [0] the last write, [1] and [2] reads by two different threads; 0: none
  int32_t thread[3];  // linear thread index in the block
  const char* name[3];   // the array as the access named it
  const char* where[3];  // "{fileN}:LINE"
};
struct SimRaceRegion {
  const char* base = nullptr;
  int64_t bytes = 0, granule = 1;
  SimRaceCell* cells = nullptr;
};
struct SimRace {
  // Static arrays' regions of this library on this CPU thread (static so that every compiled
  // library has its own, as it has its own storage).
  SimRaceRegion* regions = nullptr;
  int count = 0, capacity = 0;
  SimRaceRegion dyn;  // the dynamic shared memory buffer
  uint64_t now = 1, barrier = 1;
  uint64_t* warp_sync = nullptr;  // [thread * 32 + lane]: time of the last warp operation joining both
  int64_t warp_sync_threads = 0;
};
static thread_local SimRace sim_race;

CJ_FN void sim_race_region_init(SimRaceRegion& g, const void* base, int64_t bytes, int64_t granule) {
  std::free(g.cells);
  g.base = (const char*)base;
  g.bytes = bytes;
  g.granule = granule;
  g.cells = (SimRaceCell*)std::calloc((size_t)((bytes + granule - 1) / granule), sizeof(SimRaceCell));
  if (!g.cells) g.bytes = 0;  // out of memory: the region goes unchecked rather than crash
}
// A static shared array's storage (`n` elements), registered on first use on this CPU thread.
template <class T>
CJ_FN T* sim_race_shared(T* storage, int64_t n) {
  SimRace& r = sim_race;
  for (int i = 0; i < r.count; ++i)
    if (r.regions[i].base == (const char*)storage) return storage;
  if (r.count == r.capacity) {
    const int cap = r.capacity ? 2 * r.capacity : 8;
    auto* grown = (SimRaceRegion*)std::realloc((void*)r.regions, sizeof(SimRaceRegion) * (size_t)cap);
    if (!grown) return storage;
    r.regions = grown;
    r.capacity = cap;
  }
  SimRaceRegion& g = r.regions[r.count++];
  g = SimRaceRegion{};
  sim_race_region_init(g, storage, n * (int64_t)sizeof(T), (int64_t)sizeof(T));
  return storage;
}
CJ_FN void sim_race_dynamic(const void* base, int64_t bytes) {
  SimRace& r = sim_race;
  if (r.dyn.base != (const char*)base || r.dyn.bytes != bytes) sim_race_region_init(r.dyn, base, bytes, 1);
}
// A new block: every earlier access is now ordered before anything the block does.
CJ_FN void sim_race_block(int nthreads) {
  SimRace& r = sim_race;
  if (r.warp_sync_threads < nthreads) {
    std::free(r.warp_sync);
    r.warp_sync = (uint64_t*)std::calloc((size_t)nthreads * 32, sizeof(uint64_t));
    r.warp_sync_threads = r.warp_sync ? nthreads : 0;
  }
  r.barrier = ++r.now;
}
CJ_FN void sim_race_barrier() {
  SimRace& r = sim_race;
  r.barrier = ++r.now;
}
// The lanes in `group` of the warp starting at thread `base` passed a warp operation together.
CJ_FN void sim_race_warp(int base, uint32_t group) {
  SimRace& r = sim_race;
  const uint64_t t = ++r.now;
  if (!r.warp_sync) return;
  for (int l = 0; l < 32; ++l)
    if (group >> l & 1u)
      for (int m = 0; m < 32; ++m)
        if (group >> m & 1u) r.warp_sync[(int64_t)(base + l) * 32 + m] = t;
}
#define CJ_SIM_RACE_BLOCK(n) cj::sim_race_block(n)
#else
#define CJ_SIM_RACE_BLOCK(n) ((void)0)
#endif

CJ_FN void* dyn_shared_ptr() { return sim_dyn_smem; }
CJ_FN int64_t dyn_shared_bytes() { return sim_dyn_smem_bytes; }
CJ_FN void sim_set_dyn_smem(int64_t bytes) {
  if (bytes > sim_dyn_smem_capacity) {
    std::free(sim_dyn_smem);
    sim_dyn_smem = (unsigned char*)std::aligned_alloc(16, (size_t)((bytes + 15) / 16 * 16));
    sim_dyn_smem_capacity = bytes;
  }
  sim_dyn_smem_bytes = bytes;
#if CJ_SIM_RACECHECK
  if (sim_dyn_smem) sim_race_dynamic(sim_dyn_smem, bytes);
#endif
}

// ---- Fibers: each simulated thread of a block that synchronises runs as a fiber with its own
// stack. cuda.syncthreads() switches back to the block's scheduler, which resumes every other
// thread up to the same barrier before releasing them all, so shared memory written before a
// barrier is seen after it, as on the GPU. Warp-synchronous intrinsics (shuffles, votes,
// syncwarp) do the same per warp: each lane leaves its operand and yields, and once no thread
// can run, the scheduler computes every waiting lane's result from its warp's operands. A
// barrier that only part of the block reaches is released once the others have returned, as on
// the GPU (PTX's `exit` releases a barrier the exiting threads hold up).
//
// On x86-64 a switch saves the callee-saved registers and swaps stack pointers (a few ns);
// elsewhere it falls back to ucontext, whose swapcontext also makes a signal-mask system call.
}  // namespace cj
#if defined(__x86_64__)
extern "C" void cj_fiber_switch(void** save_sp, void* load_sp);
// Callee-saved state (rbp, rbx, r12-r15, MXCSR and the x87 control word) goes on the old stack;
// its stack pointer is stored in *save_sp; the new stack is popped in the same order and `ret`
// continues wherever that fiber last switched (or at its start function, for a new one).
asm(R"(
  .text
  .p2align 4
  .globl cj_fiber_switch
  .hidden cj_fiber_switch
  .type cj_fiber_switch,@function
cj_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size cj_fiber_switch, .-cj_fiber_switch
)");
#define CJ_SIM_NATIVE_FIBERS 1
#else
#define CJ_SIM_NATIVE_FIBERS 0
#endif

namespace cj {
// The operations a lane can wait at; the scheduler resolves them per warp.
enum SimWarpOp : int { kShflIdx, kShflUp, kShflDown, kShflXor, kAll, kAny, kEq, kBallot, kMatchAny, kActive, kSyncwarp };
struct SimFibers {
#if CJ_SIM_NATIVE_FIBERS
  void* scheduler_sp = nullptr;
  void** sp = nullptr;  // each fiber's saved stack pointer
#else
  ucontext_t scheduler;
  ucontext_t* threads = nullptr;
#endif
  char* stacks = nullptr;
  int* state = nullptr;  // 0 runnable, 1 at the barrier, 2 finished, 3 at a warp operation
  // A lane's pending warp operation: its kind, mask, operand bits and lane argument; its result.
  int* wop = nullptr;
  uint32_t* wmask = nullptr;
  uint64_t* wval = nullptr;
  int32_t* warg = nullptr;
  uint64_t* wres = nullptr;
  int count = 0, capacity = 0, current = -1;
  int stack_capacity = 0;  // fibers whose stacks `stacks` holds
  // The block runs as stackless coroutines (sim_run_block_co): barriers and warp operations only
  // leave their votes and operands, and the generated code suspends itself after them.
  bool co = false;
  // Coroutines count as they go, so that a round's end need not look at every thread: threads
  // waiting at the barrier, finished, and whether some may wait at a warp operation.
  int co_waiting = 0, co_finished = 0;
  bool co_warps = false;
  void (*entry)(void*) = nullptr;
  void* arg = nullptr;
  int generation = 0;   // barriers passed; syncthreads_count & co. use slot generation % 2
  int exited = 0;       // threads that returned before the last release (not at the barrier)
  int votes[2] = {0, 0};
  char fault[480] = {0};  // a thread's SimFault message (an out-of-bounds index)
  // A cooperative launch runs each block on a thread of its own (runtime/launch.cpp), which ends
  // with the launch: its fibers' stacks go with it.
  ~SimFibers() {
#if CJ_SIM_NATIVE_FIBERS
    std::free(sp);
#else
    std::free(threads);
#endif
    std::free(stacks); std::free(state); std::free(wop); std::free(wmask);
    std::free(wval); std::free(warg); std::free(wres);
  }
};
inline thread_local SimFibers sim_fibers;
// A thread's local arrays live on its stack: up to 512 KiB (kMaxLocalBytes in
// compiler/typeinfer.h, the GPU's limit, checked when typing), plus room for the frames.
constexpr size_t kFiberStack = 768 * 1024;
// The stacks' tops are staggered by a colour: at one stride apart they would all fall into the
// same cache sets, and every switch would miss (the hot frames of 256 fibers evicting each other).
// kFiberColor bytes per colour cover a thread's frames at a barrier; the stride adds the room.
constexpr size_t kFiberColor = 512, kFiberColors = 256;
constexpr size_t kFiberStride = kFiberStack + kFiberColor * kFiberColors;

// Fiber t becomes the running thread: its threadIdx (x fastest, as warps are formed).
CJ_FN void sim_fiber_enter(SimFibers& f, int t) {
  f.current = t;
  SimThread& s = sim_thread;
  if (s.blockDim.y == 1 && s.blockDim.z == 1) {  // 1-d blocks: no division
    s.threadIdx = {t, 0, 0};
    return;
  }
  s.threadIdx.x = t % s.blockDim.x;
  s.threadIdx.y = (t / s.blockDim.x) % s.blockDim.y;
  s.threadIdx.z = t / (s.blockDim.x * s.blockDim.y);
}

// The running fiber stops in `state` (1 barrier, 2 finished, 3 warp operation) and hands the CPU
// on. The scheduler's round runs the runnable fibers in ascending order, and nothing becomes
// runnable during a round (only the scheduler releases), so the fiber switches straight to the
// next runnable one, which is the one the scheduler would resume next: one switch instead of
// two, same order. The last of the round, or a faulted fiber, goes back to the scheduler.
CJ_FN void sim_fiber_leave(SimFibers& f, int state, void** save_sp) {
  const int t = f.current;
  f.state[t] = state;
#if CJ_SIM_NATIVE_FIBERS
  if (!f.fault[0])
    for (int u = t + 1; u < f.count; ++u)
      if (f.state[u] == 0) {
        sim_fiber_enter(f, u);
        cj_fiber_switch(save_sp, f.sp[u]);
        return;
      }
  cj_fiber_switch(save_sp, f.scheduler_sp);
#else
  (void)save_sp;
  if (state != 2) swapcontext(&f.threads[t], &f.scheduler);
  // a finished fiber returns from sim_fiber_main: uc_link resumes the scheduler
#endif
}

static void sim_fiber_main() {
  SimFibers& f = sim_fibers;
  try {
    f.entry(f.arg);
  } catch (const std::exception& e) {  // SimFault: stops the block (sim_run_block_fibers)
    std::snprintf(f.fault, sizeof f.fault, "%s", e.what());
  }
#if CJ_SIM_NATIVE_FIBERS
  void* dead_sp = nullptr;  // a finished fiber is never resumed
  sim_fiber_leave(f, 2, &dead_sp);
  __builtin_unreachable();
#else
  sim_fiber_leave(f, 2, nullptr);
#endif
}

// The running fiber waits in `state` until the scheduler releases it.
CJ_FN void sim_fiber_yield(int state) {
  SimFibers& f = sim_fibers;
#if CJ_SIM_NATIVE_FIBERS
  sim_fiber_leave(f, state, &f.sp[f.current]);
#else
  sim_fiber_leave(f, state, nullptr);
#endif
}

CJ_FN void syncthreads() {
  // Not under the fiber scheduler (a block of one thread), or a coroutine, which suspends itself
  if (sim_fibers.current < 0 || sim_fibers.co) return;
  sim_fiber_yield(1);
}

// Lane `l` of a warp whose lanes in `present` wait at this warp operation together (bit i: lane i;
// ops/masks/vals/args indexed by lane): the result of its operation. A shuffle from a lane that
// does not take part returns the caller's own value, as CUDA does for lanes outside the width.
CJ_FN uint64_t sim_warp_result(int l, uint32_t present, const int* ops, const uint32_t* masks,
                               const uint64_t* vals, const int32_t* args) {
  const uint32_t in = present & masks[l];
  auto from = [&](int src) { return src >= 0 && src < 32 && (present >> src & 1u) ? vals[src] : vals[l]; };
  uint32_t bits = 0;
  switch (ops[l]) {
    case kShflIdx: return from(args[l] & 31);
    case kShflUp: return from(l - args[l]);
    case kShflDown: return from(l + args[l]);
    case kShflXor: return from(l ^ args[l]);
    case kAll: case kAny: case kEq: case kBallot:
      for (int i = 0; i < 32; ++i)
        if ((in >> i & 1u) && vals[i]) bits |= 1u << i;
      if (ops[l] == kBallot) return bits;
      if (ops[l] == kAll) return bits == in;
      if (ops[l] == kAny) return bits != 0;
      return bits == 0 || bits == in;
    case kMatchAny:
      for (int i = 0; i < 32; ++i)
        if ((in >> i & 1u) && vals[i] == vals[l]) bits |= 1u << i;
      return bits;
    case kActive: return present;
    default: return 0;
  }
}

// Lanes that wait at the same operation with the same mask act together. As on the GPU, such a
// group waits until every lane its mask names has arrived (lanes that have returned, or that the
// block does not have, excepted), so a lane of one branch cannot run ahead of the others. Pass 0
// resolves only complete groups; if none is complete and nothing else can run, pass 1 resolves
// the groups as they are (on a GPU that program would hang or be undefined). Returns whether a
// group was resolved.
static bool sim_resolve_warps(SimFibers& f) {
  for (int pass = 0; pass < 2; ++pass) {
    bool any = false;
    for (int w = 0; w * 32 < f.count; ++w) {
      const int base = w * 32, n = f.count - base < 32 ? f.count - base : 32;
      uint32_t present = 0, live = 0;
      for (int l = 0; l < n; ++l) {
        if (f.state[base + l] == 3) present |= 1u << l;
        if (f.state[base + l] != 2) live |= 1u << l;
      }
      while (present) {
        const int first = __builtin_ctz(present);
        const int op = f.wop[base + first];
        const uint32_t mask = f.wmask[base + first];
        uint32_t group = 0;
        for (int l = first; l < n; ++l)
          if ((present >> l & 1u) && f.wop[base + l] == op && f.wmask[base + l] == mask) group |= 1u << l;
        present &= ~group;
        if (pass == 0 && (mask & live & ~group)) continue;  // lanes it names are still on their way
        any = true;
        for (int l = first; l < n; ++l)
          if (group >> l & 1u)
            f.wres[base + l] = sim_warp_result(l, group, f.wop + base, f.wmask + base, f.wval + base, f.warg + base);
        for (int l = first; l < n; ++l)
          if (group >> l & 1u) f.state[base + l] = 0;
#if CJ_SIM_RACECHECK
        if (op != kActive) sim_race_warp(base, group);  // activemask waits for nobody: no ordering
#endif
      }
    }
    if (any) return true;
  }
  return false;
}

// One lane's warp operation: wait for the rest of its warp (under fibers) or, for a block of
// one thread, answer alone.
CJ_FN uint64_t sim_warp_op(int op, uint32_t mask, uint64_t val, int32_t arg) {
  SimFibers& f = sim_fibers;
  if (f.current < 0) {
    int ops[32] = {};
    uint32_t masks[32] = {};
    uint64_t vals[32] = {};
    int32_t args[32] = {};
    ops[0] = op; masks[0] = mask; vals[0] = val; args[0] = arg;
    return sim_warp_result(0, 1u, ops, masks, vals, args);
  }
  const int t = f.current;
  f.wop[t] = op; f.wmask[t] = mask; f.wval[t] = val; f.warg[t] = arg;
  if (f.co) return 0;  // the coroutine suspends itself and reads its result with sim_co_wres
  sim_fiber_yield(3);
  return f.wres[t];
}
// What a coroutine reads once resumed (generated code, codegen_simco.cpp): its warp operation's
// result bits, and the barrier's count of votes, all of them (0), whether every thread voted (1),
// whether any did (2). The release made generation odd-even flip: the votes are in the other slot.
CJ_FN uint64_t sim_co_wres() { return sim_fibers.wres[sim_fibers.current]; }
CJ_FN int32_t sim_co_votes(int how) {
  const SimFibers& f = sim_fibers;
  const int32_t n = f.votes[(f.generation + 1) % 2];
  return how == 0 ? n : how == 1 ? (n == f.count - f.exited ? 1 : 0) : (n > 0 ? 1 : 0);
}
template <class T> CJ_FN uint64_t sim_bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T> CJ_FN T sim_from_bits(uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}
template <class T> CJ_FN T shfl_sync(uint32_t m, T v, int32_t lane) { return sim_from_bits<T>(sim_warp_op(kShflIdx, m, sim_bits(v), lane)); }
template <class T> CJ_FN T shfl_up_sync(uint32_t m, T v, int32_t d) { return sim_from_bits<T>(sim_warp_op(kShflUp, m, sim_bits(v), d)); }
template <class T> CJ_FN T shfl_down_sync(uint32_t m, T v, int32_t d) { return sim_from_bits<T>(sim_warp_op(kShflDown, m, sim_bits(v), d)); }
template <class T> CJ_FN T shfl_xor_sync(uint32_t m, T v, int32_t x) { return sim_from_bits<T>(sim_warp_op(kShflXor, m, sim_bits(v), x)); }
CJ_FN bool all_sync(uint32_t m, bool p) { return sim_warp_op(kAll, m, p, 0) != 0; }
CJ_FN bool any_sync(uint32_t m, bool p) { return sim_warp_op(kAny, m, p, 0) != 0; }
CJ_FN bool eq_sync(uint32_t m, bool p) { return sim_warp_op(kEq, m, p, 0) != 0; }
CJ_FN int32_t ballot_sync(uint32_t m, bool p) { return (int32_t)sim_warp_op(kBallot, m, p, 0); }
template <class T> CJ_FN int32_t match_any_sync(uint32_t m, T v) { return (int32_t)sim_warp_op(kMatchAny, m, sim_bits(v), 0); }
// No mask: activemask waits for nobody and reports the lanes that reached it together.
CJ_FN uint32_t activemask() { return (uint32_t)sim_warp_op(kActive, 0u, 0, 0); }
CJ_FN void syncwarp(uint32_t m) { sim_warp_op(kSyncwarp, m, 0, 0); }
// A lane is the thread's linear index in its block (x fastest) modulo 32, as warps are formed.
CJ_FN int32_t sim_laneid() {
  const SimThread& s = sim_thread;
  return (int32_t)((s.threadIdx.x + s.blockDim.x * (s.threadIdx.y + s.blockDim.y * s.threadIdx.z)) % 32);
}
CJ_FN uint32_t lanemask_lt() { return (1u << sim_laneid()) - 1u; }

// A fresh fiber for thread t: it starts in sim_fiber_main on its own stack.
static void sim_fiber_init(SimFibers& f, int t) {
  char* top = f.stacks + kFiberStride * (size_t)(t + 1) - kFiberColor * (size_t)(t % kFiberColors);
#if CJ_SIM_NATIVE_FIBERS
  // cj_fiber_switch pops MXCSR/x87 word, six registers, then returns into sim_fiber_main. The
  // return slot sits at a 16-byte boundary so sim_fiber_main starts with the ABI's alignment.
  void** ret_slot = (void**)(((uintptr_t)top - 64) & ~(uintptr_t)15);
  ret_slot[0] = (void*)&sim_fiber_main;
  ret_slot[1] = nullptr;
  void** sp = ret_slot - 7;
  for (int i = 1; i < 7; ++i) sp[i] = nullptr;
  uint32_t ctl[2] = {0x1F80u, 0x037Fu};  // default MXCSR and x87 control word
  std::memcpy(sp, ctl, 8);
  f.sp[t] = sp;
#else
  getcontext(&f.threads[t]);
  f.threads[t].uc_stack.ss_sp = top - kFiberStack;  // the colour comes out of the stride's room
  f.threads[t].uc_stack.ss_size = kFiberStack;
  f.threads[t].uc_link = &f.scheduler;
  makecontext(&f.threads[t], (void (*)())sim_fiber_main, 0);
#endif
}

static void sim_fiber_resume(SimFibers& f, int t) {
#if CJ_SIM_NATIVE_FIBERS
  cj_fiber_switch(&f.scheduler_sp, f.sp[t]);
#else
  swapcontext(&f.scheduler, &f.threads[t]);
#endif
}

// The per-thread slots of a block of nthreads (and, for fibers, their stacks).
static void sim_block_reserve(SimFibers& f, int nthreads, bool stacks) {
  if (f.capacity < nthreads) {
#if CJ_SIM_NATIVE_FIBERS
    std::free(f.sp);
    f.sp = (void**)std::malloc(sizeof(void*) * nthreads);
#else
    std::free(f.threads);
    f.threads = (ucontext_t*)std::malloc(sizeof(ucontext_t) * nthreads);
#endif
    std::free(f.state); std::free(f.wop); std::free(f.wmask);
    std::free(f.wval); std::free(f.warg); std::free(f.wres);
    f.state = (int*)std::malloc(sizeof(int) * nthreads);
    f.wop = (int*)std::malloc(sizeof(int) * nthreads);
    f.wmask = (uint32_t*)std::malloc(sizeof(uint32_t) * nthreads);
    f.wval = (uint64_t*)std::malloc(sizeof(uint64_t) * nthreads);
    f.warg = (int32_t*)std::malloc(sizeof(int32_t) * nthreads);
    f.wres = (uint64_t*)std::malloc(sizeof(uint64_t) * nthreads);
    f.capacity = nthreads;
  }
  if (stacks && f.stack_capacity < nthreads) {
    std::free(f.stacks);
    f.stacks = (char*)std::malloc(kFiberStride * (size_t)nthreads);
    f.stack_capacity = nthreads;
  }
  f.count = nthreads;
  f.exited = 0;
  f.generation = 0;
  f.votes[0] = f.votes[1] = 0;
  for (int t = 0; t < nthreads; ++t) f.state[t] = 0;
}

// The block's scheduler, for fibers and coroutines alike: rounds in which every runnable thread
// runs, in ascending order, up to its next barrier, warp operation or end (`round()`, which
// stops at a thread's fault), then the warp operations are answered, then the barrier released.
// Returns false (and fills err) on a fault or a deadlock.
template <class Round>
static bool sim_schedule(SimFibers& f, int nthreads, Round&& round, char* err, size_t errlen) {
  for (;;) {
    round();
    if (f.fault[0]) {  // a thread faulted: the launch stops with its message
      std::snprintf(err, errlen, "%s", f.fault);
      f.fault[0] = 0;
      f.current = -1;
      return false;
    }
    f.current = -1;
    if (!f.co || f.co_warps) {
      if (sim_resolve_warps(f)) continue;
      f.co_warps = false;  // no lane waits at a warp operation any more
    }
    int waiting = f.co_waiting, finished = f.co_finished;
    if (!f.co) {
      waiting = finished = 0;
      for (int t = 0; t < nthreads; ++t) {
        waiting += f.state[t] == 1;
        finished += f.state[t] == 2;
      }
    }
    if (finished == nthreads) return true;
    // Everyone is at the barrier or has returned: release. A thread that returned no longer
    // holds a barrier up, as PTX defines `exit` ("if the exiting threads are holding up the
    // barrier, the barrier is released") and as the GPU and numba-cuda's simulator run
    // `if i >= n: return` before a cuda.syncthreads(); the threads that returned stay done.
    for (int t = 0; t < nthreads; ++t)
      if (f.state[t] == 1) f.state[t] = 0;
    f.exited = finished;
    f.co_waiting = 0;
    ++f.generation;
#if CJ_SIM_RACECHECK
    sim_race_barrier();
#endif
    f.votes[f.generation % 2] = 0;
  }
}

/// Runs one block's threads as fibers; returns false (and fills err) on a fault or a deadlock.
static bool sim_run_block_fibers(int nthreads, void (*entry)(void*), void* arg, char* err, size_t errlen) {
  SimFibers& f = sim_fibers;
  sim_block_reserve(f, nthreads, true);
  f.entry = entry;
  f.arg = arg;
  for (int t = 0; t < nthreads; ++t) sim_fiber_init(f, t);
  return sim_schedule(f, nthreads, [&]() {
    for (int t = 0; t < nthreads; ++t) {
      if (f.state[t] != 0) continue;
      sim_fiber_enter(f, t);
      sim_fiber_resume(f, t);
      if (f.fault[0]) return;
      t = f.current;  // the fibers ran on from t to this one (sim_fiber_leave)
    }
  }, err, errlen);
}

/// Runs one block's threads as stackless coroutines: `co(frame)` runs a thread from where its
/// frame says up to its next barrier or warp operation (returning 1 or 3, the state it waits in)
/// or its end (0). The frames (the kernel's locals, codegen_simco.cpp) live per CPU thread.
// The frames of this CPU thread's blocks; freed when the thread ends (a Python thread that
// launched ran pieces of its launches itself).
struct SimCoFrames {
  void* p = nullptr;
  size_t bytes = 0;
  ~SimCoFrames() { std::free(p); }
};
template <class Frame, class Co>
static bool sim_run_block_co(int nthreads, Co& co, char* err, size_t errlen) {
  static thread_local SimCoFrames buffer;
  const size_t align = alignof(Frame) < 64 ? 64 : alignof(Frame);
  const size_t bytes = (sizeof(Frame) * (size_t)nthreads + align - 1) / align * align;
  if (buffer.bytes < bytes) {
    std::free(buffer.p);
    buffer.p = std::aligned_alloc(align, bytes);
    buffer.bytes = buffer.p ? bytes : 0;
    if (!buffer.p) {
      std::snprintf(err, errlen, "out of host memory for the frames of a block of %d threads (%zu bytes)", nthreads, bytes);
      return false;
    }
  }
  Frame* const frames = (Frame*)buffer.p;
  SimFibers& f = sim_fibers;
  sim_block_reserve(f, nthreads, false);
  for (int t = 0; t < nthreads; ++t) new (&frames[t]) Frame;  // default-initialised, as locals are
  f.co = true;
  f.co_waiting = f.co_finished = 0;
  f.co_warps = false;
  // The round reaches thread_locals only through these pointers: in a shared library each
  // thread_local access is a call (__tls_get_addr), which costs more than a thread's step, and
  // the compiler would repeat it for every thread (the empty asm hides where they point).
  SimFibers* fp = &f;
  SimThread* st = &sim_thread;
  Frame* fr = frames;
  asm("" : "+r"(fp), "+r"(st), "+r"(fr));
  int* const state = fp->state;
  const bool flat = st->blockDim.y == 1 && st->blockDim.z == 1;
  const bool ok = sim_schedule(f, nthreads, [&]() {
    int t = 0, waiting = 0, finished = 0, warps = 0;  // counted in registers, then stored
    try {
      for (; t < nthreads; ++t) {
        if (state[t] != 0) continue;
        fp->current = t;
        if (flat) st->threadIdx = {t, 0, 0};
        else sim_fiber_enter(*fp, t);
        const int r = co(fr[t]);
        state[t] = r ? r : 2;
        waiting += r == 1;
        finished += r == 0;
        warps |= r == 3;
      }
    } catch (const std::exception& e) {  // SimFault: stops the block, as a fiber's does
      std::snprintf(f.fault, sizeof f.fault, "%s", e.what());
      state[t] = 2;
    }
    fp->co_waiting += waiting;
    fp->co_finished += finished;
    fp->co_warps = fp->co_warps || warps;
  }, err, errlen);
  f.co = false;
  for (int t = 0; t < nthreads; ++t) frames[t].~Frame();
  return ok;
}

// A barrier that also counts: each thread adds its vote to this generation's slot, and after the
// release reads the total; the other slot is cleared for the next barrier.
CJ_FN int32_t syncthreads_count(bool p) {
  SimFibers& f = sim_fibers;
  if (f.current < 0) return p ? 1 : 0;
  int slot = f.generation % 2;
  f.votes[slot] += p ? 1 : 0;
  syncthreads();
  return f.votes[slot];
}
CJ_FN int32_t syncthreads_and(bool p) {
  SimFibers& f = sim_fibers;
  const int32_t votes = syncthreads_count(p);  // after the release: f.exited is this barrier's
  return votes == (f.current < 0 ? 1 : f.count - f.exited) ? 1 : 0;
}
CJ_FN int32_t syncthreads_or(bool p) { return syncthreads_count(p) > 0 ? 1 : 0; }
// Blocks of a launch run on several CPU threads at once; a block's threads on one.
CJ_FN void threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
CJ_FN void threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
CJ_FN void threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
// The GPU suspends the thread for about `ns` (at most 1 ms): a hint with no visible effect.
CJ_FN void nanosleep(uint32_t) {}

template <class Body>
static void sim_fiber_trampoline(void* p) { (*(Body*)p)(); }

// ---- Index checks of simulated GPU code --------------------------------------------------------
// Every a[i, j] in a kernel, device function or CUDA ufunc run by the simulator is checked (a GPU
// would read or corrupt other memory). A bad index throws SimFault on the thread's own stack (a
// fiber's too); the simulator catches it where it runs that thread (CJ_SIM_EACH_THREAD,
// sim_fiber_main) and stops the launch with the message, which the runtime raises as IndexError.
struct SimFault : std::exception {
  char msg[512];  // every message is built in a buffer of at most 480 bytes
  explicit SimFault(const char* m) { std::snprintf(msg, sizeof msg, "%s", m); }
  const char* what() const noexcept override { return msg; }
};

[[noreturn]] __attribute__((noinline, cold)) static void sim_index_error(const char* array, const char* where, int axis,
                                                                        int64_t index, int64_t size) {
  char buf[480];
  std::snprintf(buf, sizeof buf,
                "IndexError: index %lld is out of bounds for axis %d of '%s' with size %lld, in thread (%d, %d, %d) "
                "of block (%d, %d, %d), at %s",
                (long long)index, axis, array, (long long)size, sim_thread.threadIdx.x, sim_thread.threadIdx.y,
                sim_thread.threadIdx.z, sim_thread.blockIdx.x, sim_thread.blockIdx.y, sim_thread.blockIdx.z, where);
  throw SimFault(buf);
}
// Another error Python raises (a zero range step): the launch stops with "Type: message".
[[noreturn]] __attribute__((noinline, cold)) static void sim_value_error(const char* what) {
  char buf[480];
  std::snprintf(buf, sizeof buf, "%s, in thread (%d, %d, %d) of block (%d, %d, %d)", what, sim_thread.threadIdx.x,
                sim_thread.threadIdx.y, sim_thread.threadIdx.z, sim_thread.blockIdx.x, sim_thread.blockIdx.y,
                sim_thread.blockIdx.z);
  throw SimFault(buf);
}
// A raise in GPU code (codegen_exc.cpp): the launch stops, and the runtime raises the site's
// exception naming this thread (as numba-cuda's simulator, whatever debug says).
[[noreturn]] __attribute__((noinline, cold)) static void gpu_raise(int32_t site) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "Raise: %d %d %d %d %d %d %d", site, sim_thread.threadIdx.x, sim_thread.threadIdx.y,
                sim_thread.threadIdx.z, sim_thread.blockIdx.x, sim_thread.blockIdx.y, sim_thread.blockIdx.z);
  throw SimFault(buf);
}
// check_indices, elem_checked and subarray_checked follow Array in common.h.

#if CJ_SIM_RACECHECK
// ---- The race check's accesses (the state is above, with the barrier hooks) -------------------
// Every checked element access of GPU code calls sim_race_access (common.h's elem_race) after its
// index check; accesses outside shared memory find no region and return. A conflict throws
// SimFault like an index error, with the prefix the runtime maps to SimulatorRaceError.
enum : int { kRaceRead = 1, kRaceWrite = 2 };

CJ_FN int32_t sim_linear_tid() {
  const SimThread& s = sim_thread;
  return s.threadIdx.x + s.blockDim.x * (s.threadIdx.y + s.blockDim.y * s.threadIdx.z);
}
// Whether the access recorded at `time` by thread `other` may run at the same time as one by `me`
// now: same interval (no block start or barrier since), other thread, and no warp operation that
// joined the two threads since.
CJ_FN bool sim_race_concurrent(const SimRace& r, uint64_t time, int32_t other, int32_t me) {
  if (time < r.barrier || other == me) return false;
  if (other / 32 == me / 32 && r.warp_sync && r.warp_sync[(int64_t)me * 32 + other % 32] > time) return false;
  return true;
}

[[noreturn]] __attribute__((noinline, cold)) static void sim_race_error(const SimRaceCell& c, int slot, int kind, const char* array,
                                                                       const char* where, const int64_t* idx, int nidx) {
  const SimThread& s = sim_thread;
  const int32_t o = c.thread[slot], bx = s.blockDim.x, by = s.blockDim.y;
  char index[160] = {0};
  int at = 0;
  for (int k = 0; k < nidx && at < (int)sizeof index - 24; ++k)
    at += std::snprintf(index + at, sizeof index - at, "%s%lld", k ? ", " : "", (long long)idx[k]);
  char other_name[80] = {0};
  if (std::strcmp(c.name[slot], array) != 0) std::snprintf(other_name, sizeof other_name, " (as '%s')", c.name[slot]);
  char buf[480];
  std::snprintf(buf, sizeof buf,
                "RaceError: race on shared memory %s[%s] in block (%d, %d, %d): thread (%d, %d, %d) %s it%s at %s and "
                "thread (%d, %d, %d) %s it at %s with no cuda.syncthreads() between them",
                array, index, s.blockIdx.x, s.blockIdx.y, s.blockIdx.z, o % bx, (o / bx) % by, o / (bx * by),
                slot == 0 ? "wrote" : "read", other_name, c.where[slot], s.threadIdx.x, s.threadIdx.y, s.threadIdx.z,
                kind & kRaceWrite ? "wrote" : "read", where);
  throw SimFault(buf);
}

// One access of `size` bytes at `p` by the running thread: `kind` is kRaceRead, kRaceWrite or both
// (a += reads and writes; it is recorded as the write).
CJ_FN void sim_race_access(const void* p, int64_t size, int kind, const char* array, const char* where,
                           const int64_t* idx, int nidx) {
  SimRace& r = sim_race;
  const char* a = (const char*)p;
  const SimRaceRegion* g = nullptr;
  if (a >= r.dyn.base && a < r.dyn.base + r.dyn.bytes) g = &r.dyn;
  for (int i = 0; !g && i < r.count; ++i)
    if (a >= r.regions[i].base && a < r.regions[i].base + r.regions[i].bytes) g = &r.regions[i];
  if (!g) return;
  const int32_t me = sim_linear_tid();
  const int64_t first = (a - g->base) / g->granule;
  int64_t last = (a + size - 1 - g->base) / g->granule;
  if (last >= (g->bytes + g->granule - 1) / g->granule) last = (g->bytes + g->granule - 1) / g->granule - 1;
  for (int64_t k = first; k <= last; ++k) {
    SimRaceCell& c = g->cells[k];
    // Any access after another thread's write; a write after another thread's read too.
    if (sim_race_concurrent(r, c.time[0], c.thread[0], me)) sim_race_error(c, 0, kind, array, where, idx, nidx);
    if (kind & kRaceWrite)
      for (int s = 1; s < 3; ++s)
        if (sim_race_concurrent(r, c.time[s], c.thread[s], me)) sim_race_error(c, s, kind, array, where, idx, nidx);
    int slot = 0;  // where this access is recorded
    if (!(kind & kRaceWrite)) {
      // Two readers are enough: a later write by any one thread conflicts with at least one of two
      // different readers.
      slot = c.time[1] < r.barrier || c.thread[1] == me ? 1 : c.time[2] < r.barrier || c.thread[2] == me ? 2 : -1;
      if (slot < 0) continue;
    }
    c.time[slot] = r.now;
    c.thread[slot] = me;
    c.name[slot] = array;
    c.where[slot] = where;
  }
}
#endif

CJ_FN int64_t grid_x() { return (int64_t)sim_thread.blockIdx.x * sim_thread.blockDim.x + sim_thread.threadIdx.x; }
CJ_FN int64_t grid_y() { return (int64_t)sim_thread.blockIdx.y * sim_thread.blockDim.y + sim_thread.threadIdx.y; }
CJ_FN int64_t grid_z() { return (int64_t)sim_thread.blockIdx.z * sim_thread.blockDim.z + sim_thread.threadIdx.z; }
CJ_FN int64_t gridsize_x() { return (int64_t)sim_thread.gridDim.x * sim_thread.blockDim.x; }
CJ_FN int64_t gridsize_y() { return (int64_t)sim_thread.gridDim.y * sim_thread.blockDim.y; }
CJ_FN int64_t gridsize_z() { return (int64_t)sim_thread.gridDim.z * sim_thread.blockDim.z; }
// Cache-hinted loads and stores (cuda.ldca..., cuda.stcg...): the simulator has no caches to steer.
#define CJ_CACHE_LOAD(name) template <class T> CJ_FN T name(const T* p) { return *p; }
#define CJ_CACHE_STORE(name) template <class T, class V> CJ_FN void name(T* p, V v) { *p = (T)v; }
CJ_CACHE_LOAD(ldca) CJ_CACHE_LOAD(ldcg) CJ_CACHE_LOAD(ldcs) CJ_CACHE_LOAD(ldlu) CJ_CACHE_LOAD(ldcv)
CJ_CACHE_STORE(stcg) CJ_CACHE_STORE(stcs) CJ_CACHE_STORE(stwb) CJ_CACHE_STORE(stwt)
#undef CJ_CACHE_LOAD
#undef CJ_CACHE_STORE
// Atomics: blocks of a simulated launch run on several CPU threads at once. Integers use the
// compiler's atomic builtins; floats a compare-and-swap loop on their bits.
template <class T> CJ_FN T atomic_add(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
template <class T> CJ_FN T atomic_sub(T* p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }
template <class T> CJ_FN T atomic_exch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
template <class T, class Op> CJ_FN T atomic_update(T* p, T v, Op op) {
  T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (!__atomic_compare_exchange_n(p, &old, op(old, v), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
  return old;
}
template <class F, class B, class Op> CJ_FN F atomic_float(F* p, F v, Op op) {
  B* bp = (B*)p;
  B old = __atomic_load_n(bp, __ATOMIC_SEQ_CST), next;
  for (;;) {
    F cur, res;
    std::memcpy(&cur, &old, sizeof(F));
    res = op(cur, v);
    std::memcpy(&next, &res, sizeof(F));
    if (__atomic_compare_exchange_n(bp, &old, next, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return cur;
  }
}
struct CjAddOp { template <class F> F operator()(F a, F b) const { return a + b; } };
struct CjSubOp { template <class F> F operator()(F a, F b) const { return a - b; } };
struct CjMaxOp { template <class F> F operator()(F a, F b) const { return b > a ? b : a; } };
struct CjMinOp { template <class F> F operator()(F a, F b) const { return b < a ? b : a; } };
struct CjExchOp { template <class F> F operator()(F, F b) const { return b; } };
template <class T> CJ_FN T atomic_max(T* p, T v) { return atomic_update(p, v, CjMaxOp{}); }
template <class T> CJ_FN T atomic_min(T* p, T v) { return atomic_update(p, v, CjMinOp{}); }
#define CJ_HOST_FLOAT_ATOMICS(F, B)                                                                  \
  CJ_FN F atomic_add(F* p, F v) { return atomic_float<F, B>(p, v, CjAddOp{}); }                    \
  CJ_FN F atomic_sub(F* p, F v) { return atomic_float<F, B>(p, v, CjSubOp{}); }                    \
  CJ_FN F atomic_max(F* p, F v) { return atomic_float<F, B>(p, v, CjMaxOp{}); }                    \
  CJ_FN F atomic_min(F* p, F v) { return atomic_float<F, B>(p, v, CjMinOp{}); }                    \
  CJ_FN F atomic_exch(F* p, F v) { return atomic_float<F, B>(p, v, CjExchOp{}); }
CJ_HOST_FLOAT_ATOMICS(float, uint32_t)
CJ_HOST_FLOAT_ATOMICS(double, uint64_t)
template <class T> CJ_FN T atomic_and(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
template <class T> CJ_FN T atomic_or(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
template <class T> CJ_FN T atomic_xor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
template <class T> CJ_FN T atomic_cas(T* p, T o, T v) {
  __atomic_compare_exchange_n(p, &o, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return o;  // on failure o now holds the value found, on success it was the value found
}
struct CjIncOp { template <class T> T operator()(T a, T b) const { return a >= b ? 0 : a + 1; } };
struct CjDecOp { template <class T> T operator()(T a, T b) const { return (a == 0 || a > b) ? b : a - 1; } };
template <class T> CJ_FN T atomic_inc(T* p, T v) { return atomic_update(p, v, CjIncOp{}); }
template <class T> CJ_FN T atomic_dec(T* p, T v) { return atomic_update(p, v, CjDecOp{}); }
struct CjNanMaxOp { template <class F> F operator()(F a, F b) const { return a != a ? b : (b != b ? a : (b > a ? b : a)); } };
struct CjNanMinOp { template <class F> F operator()(F a, F b) const { return a != a ? b : (b != b ? a : (b < a ? b : a)); } };
template <class T> CJ_FN T atomic_nanmax(T* p, T v) { return atomic_update(p, v, CjMaxOp{}); }
template <class T> CJ_FN T atomic_nanmin(T* p, T v) { return atomic_update(p, v, CjMinOp{}); }
CJ_FN float atomic_nanmax(float* p, float v) { return atomic_float<float, uint32_t>(p, v, CjNanMaxOp{}); }
CJ_FN double atomic_nanmax(double* p, double v) { return atomic_float<double, uint64_t>(p, v, CjNanMaxOp{}); }
CJ_FN float atomic_nanmin(float* p, float v) { return atomic_float<float, uint32_t>(p, v, CjNanMinOp{}); }
CJ_FN double atomic_nanmin(double* p, double v) { return atomic_float<double, uint64_t>(p, v, CjNanMinOp{}); }
}  // namespace cj

#define CJ_threadIdx_x (cj::sim_thread.threadIdx.x)
#define CJ_threadIdx_y (cj::sim_thread.threadIdx.y)
#define CJ_threadIdx_z (cj::sim_thread.threadIdx.z)
#define CJ_blockIdx_x (cj::sim_thread.blockIdx.x)
#define CJ_blockIdx_y (cj::sim_thread.blockIdx.y)
#define CJ_blockIdx_z (cj::sim_thread.blockIdx.z)
#define CJ_blockDim_x (cj::sim_thread.blockDim.x)
#define CJ_blockDim_y (cj::sim_thread.blockDim.y)
#define CJ_blockDim_z (cj::sim_thread.blockDim.z)
#define CJ_gridDim_x (cj::sim_thread.gridDim.x)
#define CJ_gridDim_y (cj::sim_thread.gridDim.y)
#define CJ_gridDim_z (cj::sim_thread.gridDim.z)
#define CJ_warpsize ((int32_t)32)
#define CJ_laneid (cj::sim_laneid())

#define CJ_LIBM_F(name) ::name##f
#define CJ_LIBM_D(name) ::name

// Ctrl-C on the simulator: simulated code reads the runtime's word at every block start and loop
// back-edge (one load and a branch) and asks the runtime when it is nonzero; 1 means stop. The
// stop travels as a SimFault, so a block in fibers or in the plain loop ends as on a fault; the
// runtime then raises KeyboardInterrupt, not the message.
#define CJ_SIM_STOPPING()                                                                           \
  (__builtin_expect(__atomic_load_n(cj::host_services.sim_flags, __ATOMIC_RELAXED) != 0, 0) &&     \
   cj::host_services.sim_poll() != 0)
#define CJ_SIM_POLL()                                  \
  do {                                                 \
    if (CJ_SIM_STOPPING()) throw cj::SimFault("interrupted"); \
  } while (0)

// Blocks [block_begin, block_end) of the launch, each set up in sim_thread, then the statements
// given (which may `return` with the launch's error set, or `continue`).
#define CJ_SIM_EACH_BLOCK(L, ...)                                                           \
  cj::SimThread& cj_t = cj::sim_thread;                                                     \
  cj_t.blockDim = (L)->block;                                                               \
  cj_t.gridDim = (L)->grid;                                                                 \
  cj::sim_set_dyn_smem((L)->shared_bytes);                                                  \
  cj::sim_grid = (cj::SimGrid*)(L)->coop;                                                   \
  const int cj_nt = (L)->block.x * (L)->block.y * (L)->block.z;                             \
  for (int64_t cj_b = (L)->block_begin; cj_b < (L)->block_end; ++cj_b) {                    \
    cj_t.blockIdx.x = (int32_t)(cj_b % (L)->grid.x);                                        \
    cj_t.blockIdx.y = (int32_t)((cj_b / (L)->grid.x) % (L)->grid.y);                        \
    cj_t.blockIdx.z = (int32_t)(cj_b / ((int64_t)(L)->grid.x * (L)->grid.y));               \
    if (CJ_SIM_STOPPING()) {                                                                \
      std::snprintf((L)->error, sizeof((L)->error), "interrupted");                         \
      return;                                                                               \
    }                                                                                       \
    CJ_SIM_RACE_BLOCK(cj_nt);                                                               \
    __VA_ARGS__                                                                             \
  }

// Every thread of the blocks, in the order x fastest (as warps are formed); as fibers when the
// kernel synchronises (BARRIER), else as a plain loop.
#define CJ_SIM_EACH_THREAD(L, BARRIER, CALL)                                                \
  auto cj_body = [&]() { CALL };                                                            \
  CJ_SIM_EACH_BLOCK(L, {                                                                    \
    if (BARRIER && cj_nt > 1) {                                                             \
      if (!cj::sim_run_block_fibers(cj_nt, &cj::sim_fiber_trampoline<decltype(cj_body)>,    \
                                    &cj_body, (L)->error, sizeof((L)->error)))              \
        return;                                                                             \
      continue;                                                                             \
    }                                                                                       \
    try {                                                                                   \
      for (int32_t cj_z = 0; cj_z < (L)->block.z; ++cj_z)                                   \
        for (int32_t cj_y = 0; cj_y < (L)->block.y; ++cj_y)                                 \
          for (int32_t cj_x = 0; cj_x < (L)->block.x; ++cj_x) {                             \
            cj_t.threadIdx.x = cj_x;                                                        \
            cj_t.threadIdx.y = cj_y;                                                        \
            cj_t.threadIdx.z = cj_z;                                                        \
            cj_body();                                                                      \
          }                                                                                 \
    } catch (const cj::SimFault& cj_e) {                                                    \
      std::snprintf((L)->error, sizeof((L)->error), "%s", cj_e.what());                     \
      return;                                                                               \
    }                                                                                       \
  })

// A kernel that synchronises, generated as a stackless coroutine (codegen_simco.cpp): CALL runs
// the thread whose locals are `cj_fr` (a FRAME) to its next stop and returns where it stopped.
#define CJ_SIM_EACH_THREAD_CO(L, FRAME, CALL)                                               \
  auto cj_co = [&](FRAME& cj_fr) { return CALL; };                                          \
  CJ_SIM_EACH_BLOCK(L, {                                                                    \
    if (!cj::sim_run_block_co<FRAME>(cj_nt, cj_co, (L)->error, sizeof((L)->error)))         \
      return;                                                                               \
  })

// A ufunc on the CPU: elements [begin, end); the runtime splits the range over CPU threads. A
// SimFault (an index check, Ctrl-C) is caught here and its message returned in `err`: an
// exception must not cross into the extension, whose C++ runtime is another copy.
#define CJ_UFUNC_ENTRY(name, N)                                                          \
  extern "C" CJ_EXPORT int name(const void* params, int64_t begin, int64_t end, char* err, \
                                size_t errlen) {                                         \
    const cj::UfuncArgs<N>& p = *(const cj::UfuncArgs<N>*)params;                        \
    try {                                                                                \
      for (int64_t i = begin; i < end; ++i) {                                            \
        char* a[N];                                                                      \
        cj::ufunc_pointers(p, i, a);                                                     \
        name##_elem(a);                                                                  \
      }                                                                                  \
    } catch (const std::exception& e) {                                                  \
      std::snprintf(err, errlen, "%s", e.what());                                        \
      return 1;                                                                          \
    }                                                                                    \
    return 0;                                                                            \
  }
