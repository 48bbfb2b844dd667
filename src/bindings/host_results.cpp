// New NumPy arrays for results that cujit fills (declared in numpy_arrays.h): from
// HostBlockConfig::min_bytes up their data comes from runtime/host_blocks.h through a NumPy
// memory handler (NEP 49, NumPy 1.22+). The array records the handler and frees its data with it,
// so it owns its memory as np.empty's does (OWNDATA, resize(), a base of None); when it dies the
// block goes to the cache for the next result.
//
// The handler is installed only around the one array's creation, with the GIL held. Anything else
// allocated meanwhile (a garbage collection may run __del__ methods) also gets the handler: it
// serves those as NumPy's default one would, from malloc, below min_bytes, and from blocks at or
// above it, so every pointer it hands out is freed by it correctly.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bindings/numpy_arrays.h"
#include "runtime/host_blocks.h"

namespace py = pybind11;

namespace cujit {
namespace {

// NumPy's PyDataMem_Handler (numpy/ndarraytypes.h, version 1), declared here since the build
// has no NumPy headers; its layout is part of NumPy's stable ABI.
struct HrAllocator {
  void* ctx;
  void* (*malloc)(void* ctx, size_t size);
  void* (*calloc)(void* ctx, size_t nelem, size_t elsize);
  void* (*realloc)(void* ctx, void* ptr, size_t new_size);
  void (*free)(void* ctx, void* ptr, size_t size);
};
struct HrHandler {
  char name[127];
  uint8_t version;
  HrAllocator allocator;
};

// Set around the creation of a pinned result: the allocation of that size is a pinned block.
struct HrPinned {
  size_t bytes = 0;
  rt::Backend backend = rt::Backend::GPU;
};
thread_local HrPinned t_hr_pinned;

void* hr_malloc(void*, size_t n) {
  if (n > 0 && n == t_hr_pinned.bytes) {
    t_hr_pinned.bytes = 0;  // that one array only
    if (void* p = rt::host_block_alloc(n, true, t_hr_pinned.backend)) return p;
  }
  if (n >= rt::host_block_config().min_bytes && n > 0)
    if (void* p = rt::host_block_alloc(n)) return p;
  return std::malloc(n ? n : 1);
}

// Zeroed memory is what a fresh mapping gives anyway; calloc keeps its own fast paths for it.
void* hr_calloc(void*, size_t nelem, size_t elsize) { return std::calloc(nelem ? nelem : 1, elsize ? elsize : 1); }

void* hr_realloc(void* ctx, void* p, size_t n) {
  const size_t old = rt::host_block_size(p);
  if (old == 0) return std::realloc(p, n ? n : 1);
  void* q = hr_malloc(ctx, n);
  if (q == nullptr) return nullptr;
  std::memcpy(q, p, std::min(old, n));
  rt::host_block_free(p);
  return q;
}

void hr_free(void*, void* p, size_t) {
  if (!rt::host_block_free(p)) std::free(p);
}

HrHandler g_hr_handler = {"cujit_host_blocks", 1, {nullptr, hr_malloc, hr_calloc, hr_realloc, hr_free}};

// NumPy's C API table entries 304 and 305 (PyDataMem_SetHandler, PyDataMem_GetHandler; NumPy
// 1.22 and later, indices fixed by its ABI).
using SetHandlerFn = PyObject* (*)(PyObject*);
struct HrApi {
  SetHandlerFn set = nullptr;
  PyObject* capsule = nullptr;  // our handler, as NumPy wants it; kept for the process
};

const HrApi& hr_api() {
  static const HrApi api = [] {
    HrApi a;
    try {
      py::module_ np = py::module_::import("numpy");
      const std::string v = py::str(np.attr("__version__"));
      const int major = std::atoi(v.c_str());
      const size_t dot = v.find('.');
      const int minor = dot == std::string::npos ? 0 : std::atoi(v.c_str() + dot + 1);
      if (major < 1 || (major == 1 && minor < 22)) return a;
      py::object mod;
      try {
        mod = py::module_::import("numpy._core.multiarray");
      } catch (py::error_already_set&) {
        mod = py::module_::import("numpy.core.multiarray");
      }
      py::object cap = mod.attr("_ARRAY_API");
      void** table = static_cast<void**>(PyCapsule_GetPointer(cap.ptr(), nullptr));
      if (table == nullptr) {
        PyErr_Clear();
        return a;
      }
      a.capsule = PyCapsule_New(&g_hr_handler, "mem_handler", nullptr);
      if (a.capsule == nullptr) {
        PyErr_Clear();
        return a;
      }
      a.set = reinterpret_cast<SetHandlerFn>(table[304]);
    } catch (py::error_already_set&) {
      // No usable NumPy C API: results come from NumPy's own allocator.
    }
    return a;
  }();
  return api;
}

py::array hr_plain(const py::dtype& dt, const std::vector<py::ssize_t>& shape, bool fortran) {
  if (!fortran) return py::array(dt, shape);
  using namespace py::literals;
  return py::array(py::module_::import("numpy").attr("empty")(py::tuple(py::cast(shape)), dt, "order"_a = "F"));
}

}  // namespace

py::array new_host_array(const py::dtype& dt, const std::vector<int64_t>& shape, bool fortran, bool pinned,
                         rt::Backend backend) {
  const std::vector<py::ssize_t> sh(shape.begin(), shape.end());
  size_t nbytes = size_t(dt.itemsize());
  for (int64_t d : shape) nbytes *= size_t(d);
  const rt::HostBlockConfig config = rt::host_block_config();
  pinned = pinned && config.pinned_min_bytes != 0 && nbytes >= config.pinned_min_bytes;
  if (!pinned && (config.min_bytes == 0 || nbytes < config.min_bytes)) return hr_plain(dt, sh, fortran);
  const HrApi& api = hr_api();
  if (!api.set) return hr_plain(dt, sh, fortran);
  PyObject* old = api.set(api.capsule);
  if (old == nullptr) {
    PyErr_Clear();
    return hr_plain(dt, sh, fortran);
  }
  struct Restore {
    const HrApi& api;
    PyObject* old;
    ~Restore() {
      t_hr_pinned.bytes = 0;
      Py_XDECREF(api.set(old));
      Py_DECREF(old);
    }
  } restore{api, old};
  if (pinned) t_hr_pinned = {nbytes, backend};
  return hr_plain(dt, sh, fortran);
}

void define_host_results(py::module_& m) {
  m.def(
      "_host_block_config",
      []() {
        rt::HostBlockConfig c = rt::host_block_config();
        py::dict d;
        d["min_bytes"] = c.min_bytes;
        d["cache_bytes"] = c.cache_bytes;
        d["pinned_min_bytes"] = c.pinned_min_bytes;
        d["pinned_cache_bytes"] = c.pinned_cache_bytes;
        d["populate"] = c.populate;
        return d;
      },
      "Settings of the host blocks that large result arrays come from (runtime/host_blocks.h), as a dict.");
  m.def(
      "_set_host_block_config",
      [](size_t min_bytes, size_t cache_bytes, size_t pinned_min_bytes, size_t pinned_cache_bytes, bool populate) {
        rt::set_host_block_config({min_bytes, cache_bytes, pinned_min_bytes, pinned_cache_bytes, populate});
      },
      py::arg("min_bytes"), py::arg("cache_bytes"), py::arg("pinned_min_bytes"), py::arg("pinned_cache_bytes"),
      py::arg("populate"),
      "Sets them (tests: small blocks; min_bytes=0 turns the blocks off).");
  m.def(
      "_host_block_stats",
      []() {
        rt::HostBlockStats s = rt::host_block_stats();
        py::dict d;
        d["fresh"] = s.fresh;
        d["reused"] = s.reused;
        d["unmapped"] = s.unmapped;
        d["live"] = s.live;
        d["live_pinned"] = s.live_pinned;
        d["cached"] = s.cached;
        d["cached_bytes"] = s.cached_bytes;
        return d;
      },
      "Counters of the host blocks: fresh, reused, unmapped, and the live and cached blocks now.");
  m.def("_trim_host_blocks", &rt::trim_host_blocks, "Gives the cached host blocks back to the system.");
}

}  // namespace cujit
