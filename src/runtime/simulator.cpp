// See simulator.h. Threads are started per call: a simulated launch already costs far more than
// starting a handful of threads, and nothing is left running between launches.
#include "runtime/simulator.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cujit::rt {

void parallel_for(int64_t n, int64_t min_piece, const std::function<void(int64_t, int64_t)>& body) {
  if (n <= 0) return;
  int64_t hw = std::max(1u, std::thread::hardware_concurrency());
  int64_t pieces = std::min<int64_t>(hw, std::max<int64_t>(1, n / std::max<int64_t>(1, min_piece)));
  if (pieces <= 1) {
    body(0, n);
    return;
  }
  std::exception_ptr first;
  std::mutex mu;
  std::vector<std::thread> threads;
  int64_t chunk = (n + pieces - 1) / pieces;
  for (int64_t p = 0; p < pieces; ++p) {
    int64_t b = p * chunk, e = std::min(n, b + chunk);
    if (b >= e) break;
    threads.emplace_back([&, b, e] {
      try {
        body(b, e);
      } catch (...) {
        std::lock_guard<std::mutex> g(mu);
        if (!first) first = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace cujit::rt
