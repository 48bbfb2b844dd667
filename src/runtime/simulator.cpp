// See simulator.h. A pool of worker threads, started on the first parallel launch and kept for
// the life of the process, takes the pieces of each launch; the calling thread takes pieces too.
// The pool is never destroyed (its threads would have to be joined while Python shuts down), and
// a child made by fork() starts a pool of its own, since it inherits no threads.
#include "runtime/simulator.h"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cujit::rt {
namespace {

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
    done_cv_.wait(g, [&] { return remaining_ == 0; });
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

void parallel_for(int64_t n, int64_t min_piece, const std::function<void(int64_t, int64_t)>& body) {
  if (n <= 0) return;
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

}  // namespace cujit::rt
