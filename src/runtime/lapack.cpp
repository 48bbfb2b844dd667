// The BLAS and LAPACK routines compiled CPU code calls (np.dot, np.linalg; CJ_LAPACK_ROUTINES in
// src/abi/cujit_abi.h), looked up in the library Python names at import (cujit/_lapack.py finds
// the OpenBLAS NumPy bundles, by pattern, as its name carries a hash). Only the 64-bit integer
// (ILP64) interface is taken: the prelude passes int64 sizes, and a 32-bit LAPACK would read
// them wrong in silence. A routine the library lacks is null, and the prelude raises.
#include "runtime/host_calls.h"

#include <dlfcn.h>

#include <array>
#include <mutex>
#include <string>

namespace cujit::rt {
namespace {

constexpr const char* kNames[] = {
#define CJ_LAPACK_NAME(name) #name,
    CJ_LAPACK_ROUTINES(CJ_LAPACK_NAME)
#undef CJ_LAPACK_NAME
};
constexpr int kCount = (int)cj::LapackFn::count;
static_assert(sizeof(kNames) / sizeof(kNames[0]) == kCount, "one name per routine");

std::mutex g_mu;
std::string g_path;                 // set by Python (set_lapack_library)
void* g_handle = nullptr;
bool g_opened = false;              // tried g_path already
std::array<void*, kCount> g_fns{};  // resolved routines (null: not found)

void open_locked() {
  if (g_opened) return;
  g_opened = true;
  if (g_path.empty()) return;
  g_handle = dlopen(g_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!g_handle) return;
  for (int i = 0; i < kCount; ++i) {
    // NumPy's wheels: scipy_dgemm_64_; other ILP64 builds: dgemm_64_ or dgemm64_.
    for (const std::string& sym : {"scipy_" + std::string(kNames[i]) + "_64_", std::string(kNames[i]) + "_64_",
                                   std::string(kNames[i]) + "64_"}) {
      if (void* p = dlsym(g_handle, sym.c_str())) {
        g_fns[i] = p;
        break;
      }
    }
  }
}

}  // namespace

void set_lapack_library(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_opened && g_handle) return;  // the first library found stays
  g_path = path;
  g_opened = false;
}

void* lapack_routine(int routine) {
  if (routine < 0 || routine >= kCount) return nullptr;
  std::lock_guard<std::mutex> lock(g_mu);
  open_locked();
  return g_fns[routine];
}

}  // namespace cujit::rt
