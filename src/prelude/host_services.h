
// ---- What compiled CPU code asks of the cujit extension (host target only) -------------------
// Some state must be shared by every library compiled in the process, or must outlive the call
// that made it: the random generators (a function that seeds and one that draws may be compiled
// separately) and arrays a function allocates (returned to Python, or freed when the outermost
// call ends). The extension owns both and hands each library its services when it loads it
// (pipeline.cpp, compile_host); the layout here and there must agree (cujit::HostServices).
namespace cj {
struct HostServices {
  void* (*random_state)(int which);  // this thread's generator: 0 = random, 1 = np.random
  void* (*alloc)(int64_t bytes);      // memory owned by the current call (64-byte aligned)
  void* (*arena_get)();               // the current call's allocations, to hand to worker threads
  void (*arena_set)(void* arena);     // (prange), which allocate into the same call
};
inline HostServices host_services = {};
}  // namespace cj

extern "C" CJ_EXPORT void cj_host_bind(const cj::HostServices* s) { cj::host_services = *s; }
