// See simulator.h. A pool of worker threads, started on the first parallel launch and kept for
// the life of the process, takes the pieces of each launch; the calling thread takes pieces too.
// The pool is never destroyed (its threads would have to be joined while Python shuts down), and
// a child made by fork() starts a pool of its own, since it inherits no threads.
#include "runtime/simulator.h"

#include "abi/errors.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cujit::rt {
namespace {

constexpr int kStop = 1, kPollRequest = 2;
int g_flags = 0;  // sim_flags(); read by generated code with __atomic loads
std::atomic<bool (*)()> g_can_poll{nullptr}, g_poll{nullptr};  // InterruptHooks
std::atomic<int> g_pollers{0};        // polling threads inside parallel_for now
thread_local bool t_poller = false;   // this thread polls for signals during its launch
thread_local bool t_interrupted = false;  // ... and a handler raised

int load_flags() { return __atomic_load_n(&g_flags, __ATOMIC_RELAXED); }

// Runs the hooks' poll on a polling thread; on a raise, tells every piece to stop.
bool poll_now() {
  bool (*poll)() = g_poll.load();
  if (!poll || !poll()) return false;
  t_interrupted = true;
  __atomic_fetch_or(&g_flags, kStop, __ATOMIC_RELAXED);
  return true;
}

// While a polling thread runs simulated code it cannot wait for signals, so a ticker asks it
// (through kPollRequest) to poll every 100 ms; simulated code sees the word nonzero and calls
// sim_poll. Started at the first polling launch, never stopped (like the pool); a child made by
// fork() inherits no threads and starts its own.
std::atomic<bool> g_ticker_started{false};
void ensure_ticker() {
  if (g_ticker_started.load(std::memory_order_acquire)) return;
  static std::mutex mu;
  std::lock_guard<std::mutex> g(mu);
  if (g_ticker_started.load()) return;
  static bool at_fork = (pthread_atfork(nullptr, nullptr, [] { g_ticker_started.store(false); }), true);
  (void)at_fork;
  std::thread([] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (g_pollers.load(std::memory_order_relaxed) > 0)
        __atomic_fetch_or(&g_flags, kPollRequest, __ATOMIC_RELAXED);
    }
  }).detach();
  g_ticker_started.store(true, std::memory_order_release);
}

class Pool {
 public:
  explicit Pool(int workers) : pid_(getpid()) {
    for (int i = 0; i < workers; ++i) std::thread([this] { work(); }).detach();
  }
  int workers_pid() const { return pid_; }

  // Runs body over `pieces` pieces of [0, n) of `chunk` elements; returns when all are done.
  void run(int64_t n, int64_t chunk, int64_t pieces, const std::function<void(int64_t, int64_t)>& body) {
    std::lock_guard<std::mutex> one_launch(launch_mu_);  // launches from several Python threads queue
    {
      std::lock_guard<std::mutex> g(mu_);
      body_ = &body;
      n_ = n;
      chunk_ = chunk;
      pieces_ = pieces;
      next_ = 0;
      remaining_ = pieces;
      first_error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    take_pieces();
    std::unique_lock<std::mutex> g(mu_);
    if (t_poller) {
      // Workers still run pieces: poll for signals while waiting for them.
      while (!done_cv_.wait_for(g, std::chrono::milliseconds(50), [&] { return remaining_ == 0; })) {
        g.unlock();
        if (!(load_flags() & kStop)) {
          __atomic_fetch_and(&g_flags, ~kPollRequest, __ATOMIC_RELAXED);
          poll_now();
        }
        g.lock();
      }
    } else {
      done_cv_.wait(g, [&] { return remaining_ == 0; });
    }
    body_ = nullptr;
    if (first_error_) std::rethrow_exception(first_error_);
  }

 private:
  void work() {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> g(mu_);
        cv_.wait(g, [&] { return generation_ != seen && body_ != nullptr; });
        seen = generation_;
      }
      take_pieces();
    }
  }

  // Claims and runs pieces of the current launch until none is left. A claim reads the launch's
  // fields under the lock, so a worker that wakes late can only take pieces of the launch that is
  // running then.
  void take_pieces() {
    for (;;) {
      const std::function<void(int64_t, int64_t)>* body;
      int64_t b, e;
      {
        std::lock_guard<std::mutex> g(mu_);
        if (!body_ || next_ >= pieces_) return;
        if (load_flags() & kStop) {  // interrupted: the pieces not started are dropped
          remaining_ -= pieces_ - next_;
          next_ = pieces_;
          if (remaining_ == 0) done_cv_.notify_all();
          return;
        }
        int64_t p = next_++;
        body = body_;
        b = p * chunk_;
        e = std::min(n_, b + chunk_);
      }
      try {
        (*body)(b, e);
      } catch (...) {
        std::lock_guard<std::mutex> g(mu_);
        if (!first_error_) first_error_ = std::current_exception();
      }
      std::lock_guard<std::mutex> g(mu_);
      if (--remaining_ == 0) done_cv_.notify_all();
    }
  }

  const int pid_;
  std::mutex launch_mu_, mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int64_t, int64_t)>* body_ = nullptr;
  int64_t n_ = 0, chunk_ = 0, pieces_ = 0, remaining_ = 0;
  int64_t next_ = 0;
  uint64_t generation_ = 0;
  std::exception_ptr first_error_;
};

Pool& pool(int workers) {
  static std::mutex mu;
  static Pool* p = nullptr;
  std::lock_guard<std::mutex> g(mu);
  if (!p || p->workers_pid() != getpid()) p = new Pool(workers);  // intentionally never freed
  return *p;
}

}  // namespace

void set_interrupt_hooks(InterruptHooks hooks) {
  g_poll.store(hooks.poll);
  g_can_poll.store(hooks.can_poll);
}


int* sim_flags() { return &g_flags; }

int sim_poll() {
  const int f = load_flags();
  if (f & kStop) return 1;
  if ((f & kPollRequest) && t_poller) {
    __atomic_fetch_and(&g_flags, ~kPollRequest, __ATOMIC_RELAXED);
    return poll_now() ? 1 : 0;
  }
  return 0;
}

namespace {
void parallel_for_impl(int64_t n, int64_t min_piece, const std::function<void(int64_t, int64_t)>& body);
}

void parallel_for(int64_t n, int64_t min_piece, const std::function<void(int64_t, int64_t)>& body) {
  if (n <= 0) return;
  bool (*can_poll)() = g_can_poll.load();
  if (!can_poll || !can_poll()) return parallel_for_impl(n, min_piece, body);
  // The polling thread (Python's main thread): Ctrl-C stops the launch and raises.
  struct Polling {
    Polling() {
      t_poller = true;
      t_interrupted = false;
      g_pollers.fetch_add(1);
      ensure_ticker();
    }
    ~Polling() {
      g_pollers.fetch_sub(1);
      t_poller = false;
      if (t_interrupted) __atomic_fetch_and(&g_flags, ~kStop, __ATOMIC_RELAXED);  // every piece has stopped
    }
  } polling;
  try {
    parallel_for_impl(n, min_piece, body);
  } catch (...) {
    if (t_interrupted) throw Interrupted();  // the pieces' own errors say only that they stopped
    throw;
  }
  if (t_interrupted) throw Interrupted();
}

namespace {
void parallel_for_impl(int64_t n, int64_t min_piece, const std::function<void(int64_t, int64_t)>& body) {
  // Read once: hardware_concurrency() opens and parses a sysfs file on every call.
  static const int64_t hw = std::max(1u, std::thread::hardware_concurrency());
  int64_t pieces = std::min<int64_t>(hw, std::max<int64_t>(1, n / std::max<int64_t>(1, min_piece)));
  if (pieces <= 1) {
    body(0, n);
    return;
  }
  // Four pieces per thread, so a thread that draws cheap blocks takes more of them.
  int64_t chunk = (n + pieces * 4 - 1) / (pieces * 4);
  pieces = (n + chunk - 1) / chunk;
  pool((int)hw - 1).run(n, chunk, pieces, body);
}

}  // namespace

}  // namespace cujit::rt
