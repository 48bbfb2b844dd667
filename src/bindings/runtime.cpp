// The runtime as Python sees it, beyond device arrays (bindings/device_array.cpp), streams
// (bindings/streams.cpp) and host memory (bindings/host_memory.cpp): the backend switch
// (set_simulator), device selection and queries (python/cujit/cuda/devices.py builds Device and
// Context on them), memory info, random-state seeding and _shutdown.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <pybind11/stl.h>

#include <string>
#include <thread>
#include <vector>

#include "bindings/ufunc_fuse.h"
#include "bindings/common.h"
#include "bindings/numpy_arrays.h"
#include "runtime/driver.h"
#include "runtime/launch.h"
#include "runtime/memory.h"
#include "runtime/random.h"

#include <algorithm>
#include "toolchain/cache.h"
#include "toolchain/host_compiler.h"
#include "toolchain/nvrtc.h"

namespace py = pybind11;

namespace cujit {
namespace {

// Device attributes by Numba's names (cuda.get_current_device().MAX_THREADS_PER_BLOCK): the name
// after CU_DEVICE_ATTRIBUTE_, and the value the simulator reports, -1 where it has none (the
// attribute is then missing there). Simulator values are the limits its launches enforce, a Volta-
// class shape elsewhere, and its compute capability is Numba's simulator's (5.2).
struct AttributeRow {
  const char* name;
  CUdevice_attribute attr;
  int sim;
};
#define CUJIT_ATTR(name, sim) {#name, CU_DEVICE_ATTRIBUTE_##name, sim}
const AttributeRow kAttributes[] = {
    CUJIT_ATTR(MAX_THREADS_PER_BLOCK, 1024),
    CUJIT_ATTR(MAX_BLOCK_DIM_X, 1024),
    CUJIT_ATTR(MAX_BLOCK_DIM_Y, 1024),
    CUJIT_ATTR(MAX_BLOCK_DIM_Z, 64),
    CUJIT_ATTR(MAX_GRID_DIM_X, 2147483647),
    CUJIT_ATTR(MAX_GRID_DIM_Y, 65535),
    CUJIT_ATTR(MAX_GRID_DIM_Z, 65535),
    CUJIT_ATTR(MAX_SHARED_MEMORY_PER_BLOCK, 49152),
    CUJIT_ATTR(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, rt::kSimMaxSharedOptin),  // what its launches enforce
    CUJIT_ATTR(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, -1),
    CUJIT_ATTR(TOTAL_CONSTANT_MEMORY, 65536),
    CUJIT_ATTR(WARP_SIZE, 32),
    CUJIT_ATTR(MAX_REGISTERS_PER_BLOCK, -1),
    CUJIT_ATTR(MAX_REGISTERS_PER_MULTIPROCESSOR, -1),
    CUJIT_ATTR(MAX_THREADS_PER_MULTIPROCESSOR, -1),
    CUJIT_ATTR(MAX_BLOCKS_PER_MULTIPROCESSOR, -1),
    CUJIT_ATTR(MULTIPROCESSOR_COUNT, 0),  // 0: the simulator's CPU thread count, filled in at run time
    CUJIT_ATTR(CLOCK_RATE, -1),
    CUJIT_ATTR(MEMORY_CLOCK_RATE, -1),
    CUJIT_ATTR(GLOBAL_MEMORY_BUS_WIDTH, -1),
    CUJIT_ATTR(L2_CACHE_SIZE, -1),
    CUJIT_ATTR(COMPUTE_CAPABILITY_MAJOR, 5),
    CUJIT_ATTR(COMPUTE_CAPABILITY_MINOR, 2),
    CUJIT_ATTR(KERNEL_EXEC_TIMEOUT, 0),
    CUJIT_ATTR(INTEGRATED, 1),  // the simulator's device memory is host memory
    CUJIT_ATTR(CAN_MAP_HOST_MEMORY, 1),
    CUJIT_ATTR(UNIFIED_ADDRESSING, 1),
    CUJIT_ATTR(MANAGED_MEMORY, 0),
    CUJIT_ATTR(CONCURRENT_KERNELS, 0),
    CUJIT_ATTR(ASYNC_ENGINE_COUNT, 0),
    CUJIT_ATTR(COMPUTE_MODE, 0),
    CUJIT_ATTR(ECC_ENABLED, 0),
    CUJIT_ATTR(TCC_DRIVER, 0),
    CUJIT_ATTR(PCI_BUS_ID, 0),
    CUJIT_ATTR(PCI_DEVICE_ID, 0),
    CUJIT_ATTR(PCI_DOMAIN_ID, 0),
    CUJIT_ATTR(MULTI_GPU_BOARD, 0),
    CUJIT_ATTR(SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, 1),
    CUJIT_ATTR(COOPERATIVE_LAUNCH, 0),
    CUJIT_ATTR(MEMORY_POOLS_SUPPORTED, 0),
    CUJIT_ATTR(PAGEABLE_MEMORY_ACCESS, 1),
    CUJIT_ATTR(CONCURRENT_MANAGED_ACCESS, 0),
    CUJIT_ATTR(TEXTURE_ALIGNMENT, -1),
    CUJIT_ATTR(MAX_PITCH, -1),
};
#undef CUJIT_ATTR

// Attribute `name` of GPU `ordinal`, or of the simulated device when ordinal < 0.
int attribute(const std::string& name, int ordinal) {
  for (const auto& row : kAttributes) {
    if (name != row.name) continue;
    if (ordinal >= 0) {
      // Asked of the device directly, not through rt::device_attribute, which would make (and so
      // fix) the context of the current device just to list devices. Python's Device caches values.
      CUdevice dev = 0;
      CUJIT_CU(cuDeviceGet, &dev, ordinal);
      int v = 0;
      CUJIT_CU(cuDeviceGetAttribute, &v, row.attr, dev);
      return v;
    }
    if (row.sim == 0 && name == "MULTIPROCESSOR_COUNT") return int(std::max(1u, std::thread::hardware_concurrency()));
    if (row.sim < 0) break;
    return row.sim;
  }
  throw py::attribute_error(std::string(ordinal >= 0 ? "a CUDA device" : "the simulated device") +
                            " has no attribute " + name);
}

// The name, uuid, compute capability and memory of GPU `ordinal`, asked of the driver without
// making a context (so listing devices does not fix the one cujit uses).
py::dict gpu_properties(int ordinal) {
  const int n = rt::device_count();
  if (ordinal < 0 || ordinal >= n)
    throw py::index_error("CUDA device " + std::to_string(ordinal) + " does not exist (the driver reports " +
                          std::to_string(n) + " device(s))");
  CUdevice dev = 0;
  CUJIT_CU(cuDeviceGet, &dev, ordinal);
  char name[256] = {0};
  CUJIT_CU(cuDeviceGetName, name, int(sizeof(name) - 1), dev);
  std::string uuid = rt::device_uuid(ordinal);
  size_t total = 0;
  CUJIT_CU(cuDeviceTotalMem, &total, dev);
  py::dict d;
  d["id"] = ordinal;
  d["name"] = std::string(name);
  d["uuid"] = uuid;
  d["compute_capability"] = py::make_tuple(attribute("COMPUTE_CAPABILITY_MAJOR", ordinal),
                                           attribute("COMPUTE_CAPABILITY_MINOR", ordinal));
  d["total_memory"] = total;
  return d;
}

// What `python -m cujit --info` reports of the toolchain: each entry, or the reason it is missing
// ("<key>_error"). Loading NVRTC or the driver here is what a compile or launch would do anyway.
py::dict toolchain_info() {
  py::dict d;
  auto attempt = [&d](const char* key, const std::function<void()>& f) {
    try {
      f();
    } catch (const std::exception& e) {
      d[(std::string(key) + "_error").c_str()] = std::string(e.what());
    }
  };
  attempt("driver", [&] { d["driver_version"] = rt::driver_version(); });
  attempt("nvrtc", [&] {
    d["nvrtc_path"] = toolchain::nvrtc_library_path();
    d["nvrtc_version"] = toolchain::nvrtc_version();
  });
  attempt("host_compiler", [&] {
    d["host_compiler"] = toolchain::host_compiler_command();
    d["host_compiler_version"] = toolchain::host_compiler_version();
  });
  attempt("cache", [&] { d["cache_dir"] = toolchain::cache_dir(); });
  d["cache_enabled"] = toolchain::cache_enabled();
  return d;
}

py::dict device_info() {
  py::dict d;
  auto cc = rt::compute_capability();
  d["id"] = rt::current_device();
  d["name"] = rt::device_name();
  d["uuid"] = rt::device_uuid(rt::current_device());
  d["compute_capability"] = py::make_tuple(cc.first, cc.second);
  d["total_memory"] = rt::total_memory();
  d["multiprocessors"] = rt::multiprocessor_count();
  d["max_threads_per_block"] = rt::max_threads_per_block();
  d["driver_version"] = rt::driver_version();
  return d;
}

}  // namespace

void define_runtime(py::module_& m) {
  // Unit-test hooks for the fault paths that need a GPU to happen for real (tests/test_gpu_faults.py
  // checks the wording and the Python class without one): the real message builder and the real
  // exception a stale object raises.
  m.def("_launch_resources_message", &rt::launch_resources_message, py::arg("kernel"), py::arg("regs"),
        py::arg("threads"), py::arg("max_threads"));
  m.def("_raise_stale", [](const std::string& what) { rt::throw_stale(what, rt::context_generation()); });
  using namespace py::literals;
  m.def("set_simulator", [](bool on) { rt::set_current_backend(on ? rt::Backend::Sim : rt::Backend::GPU); }, "on"_a,
        "Whether new device arrays, launches and ufunc calls use the CPU simulator (else the GPU).");
  m.def("simulator_enabled", [] { return rt::current_backend() == rt::Backend::Sim; });
  m.def("gpu_available", [] { return rt::gpu_available(); },
        "True when libcuda loads, initialises and reports a device (loads the driver the first time).");
  m.def("synchronize", [] {
    fuse::flush_all();  // deferred CUDA ufunc calls run before any wait or ordering point
    py::gil_scoped_release nogil;
    rt::synchronize();
  }, "Waits for all work on the GPU (cuCtxSynchronize).");
  m.def("device_info", &device_info,
        "The GPU's id, name, uuid, compute_capability, total_memory, multiprocessors, max_threads_per_block, "
        "driver_version.");
  m.def("device_attribute", &attribute, "name"_a, "ordinal"_a,
        "A device attribute by its CU_DEVICE_ATTRIBUTE_ suffix, of GPU `ordinal` or (ordinal -1) the simulated "
        "device; AttributeError when unknown (or without a value on the simulator).");
  m.def("gpu_properties", &gpu_properties, "ordinal"_a,
        "id, name, uuid, compute_capability and total_memory of GPU `ordinal` (no context is made).");
  m.def("device_attribute_names", [] {
    std::vector<std::string> v;
    for (const auto& row : kAttributes) v.push_back(row.name);
    return v;
  }, "The names device_attribute accepts.");
  m.def("device_count", [] { return rt::device_count(); }, "How many GPUs the driver reports.");
  m.def("select_device", [](int ordinal) {
    py::gil_scoped_release nogil;
    rt::set_device(ordinal);
    rt::ensure_context();  // its primary context is made (and made current) now, as numba-cuda's
  }, "ordinal"_a, "Makes GPU `ordinal` the calling thread's current device (ValueError when it does not exist).");
  m.def("select_sim_device", [](int ordinal) {
    const int n = rt::sim_device_count();
    if (ordinal < 0 || ordinal >= n)
      throw py::value_error("simulated CUDA device " + std::to_string(ordinal) + " does not exist (the simulator has " +
                            std::to_string(n) + " device(s); CUJIT_SIM_DEVICES sets how many)");
    rt::set_thread_device(ordinal);
  }, "ordinal"_a, "Makes simulated device `ordinal` the calling thread's current device.");
  m.def("can_access_peer", [](int ordinal, int peer) {
    const int n = rt::device_count();
    if (ordinal < 0 || ordinal >= n || peer < 0 || peer >= n)
      throw py::value_error("CUDA device " + std::to_string(ordinal < 0 || ordinal >= n ? ordinal : peer) +
                            " does not exist (the driver reports " + std::to_string(n) + " device(s))");
    CUdevice a = 0, b = 0;
    CUJIT_CU(cuDeviceGet, &a, ordinal);
    CUJIT_CU(cuDeviceGet, &b, peer);
    int can = 0;
    CUJIT_CU(cuDeviceCanAccessPeer, &can, a, b);
    return can != 0;
  }, "ordinal"_a, "peer"_a, "Whether GPU `ordinal` could read GPU `peer`'s memory directly (cuDeviceCanAccessPeer).");
  m.def("sim_device_count", &rt::sim_device_count, "How many devices the simulator has ($CUJIT_SIM_DEVICES, default 1).");
  m.def("_set_thread_device", &rt::set_thread_device, "ordinal"_a,
        "Sets the calling thread's device number without asking the driver (restores a saved one).");
  m.def("current_device_id", [] { return rt::current_device(); },
        "The calling thread's current device (GPU or simulated), 0 until one is selected.");
  m.def("profile", [](bool start) {
    py::gil_scoped_release nogil;
    rt::ensure_context();  // the profiler acts on the current context: cujit's
    if (start) CUJIT_CU(cuProfilerStart);
    else CUJIT_CU(cuProfilerStop);
  }, "start"_a, "cuProfilerStart (start=True) or cuProfilerStop in cujit's context.");
  m.def("current_cucontext", [] {
    CUcontext cur = nullptr;
    CUJIT_CU(cuCtxGetCurrent, &cur);
    return uintptr_t(cur);
  }, "The calling thread's current CUcontext (cuCtxGetCurrent) as an int, 0 for none; makes none.");
  m.def("context_handle", [](int ordinal) {
    py::gil_scoped_release nogil;
    if (ordinal < 0) return uintptr_t(rt::context());
    return uintptr_t(rt::context_of(ordinal));
  }, "ordinal"_a = -1,
        "The primary CUcontext of GPU `ordinal` (-1: the current device's, made current), as an int; made if needed.");
  m.def("memory_info", [](bool simulator) {
    std::pair<size_t, size_t> fi;
    {
      py::gil_scoped_release nogil;
      fi = rt::memory_info(simulator ? rt::Backend::Sim : rt::Backend::GPU);
    }
    return py::make_tuple(fi.first, fi.second);
  }, "simulator"_a, "(free, total) bytes of the GPU (cuMemGetInfo) or, simulator=True, of the host.");
  m.def("release_cached_memory", [] {
    py::gil_scoped_release nogil;
    rt::release_cached_memory();
  }, "Waits for the GPU and returns the memory pool's cached memory to the device.");
  m.def("set_library_search_paths",
        [](const std::vector<std::string>& dirs) {
          // One list serves both libraries loaded with dlopen: NVRTC (the pip wheel folders) and libcuda.
          toolchain::set_library_search_paths(dirs);
          rt::set_library_search_paths(dirs);
        },
        "dirs"_a, "Folders searched for libnvrtc and libcuda, before the first use of either.");
  m.def("set_compiler_fallbacks", &toolchain::set_compiler_fallbacks, "commands"_a,
        "C++ compilers (argv words) used when $CXX is unset and no c++/g++/clang++ is on $PATH.");
  m.def("xoroshiro128p_states",
        [](int64_t n, py::int_ seed, py::int_ subsequence) {
          if (n < 0) throw py::value_error("the number of states must not be negative, got " + std::to_string(n));
          // Python ints of any size, taken modulo 2**64 as Numba's uint64(seed) does.
          auto u64 = [](const py::int_& v) {
            py::object m = py::reinterpret_steal<py::object>(PyNumber_And(v.ptr(), py::int_(~0ull).ptr()));
            if (!m) throw py::error_already_set();
            return m.cast<uint64_t>();
          };
          uint64_t s = u64(seed), sub = u64(subsequence);
          py::array_t<uint64_t> out({n, (int64_t)2});
          {
            py::gil_scoped_release nogil;
            rt::xoroshiro128p_init(out.mutable_data(), n, s, sub);
          }
          return out;
        },
        "n"_a, "seed"_a, "subsequence"_a = 0,
        "Initial xoroshiro128+ states as a host (n, 2) uint64 array (runtime/random.h).");
  m.def("toolchain_info", &toolchain_info,
        "The driver version, NVRTC (path, version), the host compiler (command, version) and the disk "
        "cache folder, each replaced by '<name>_error' (the reason) when missing; for python -m cujit --info.");
  m.def("_shutdown", [] {
          // NVRTC compiles still running (the warm-up's, those Ctrl-C left, other threads') end
          // first: they run inside libnvrtc, whose static destructors exit() runs.
          py::gil_scoped_release release;
          nvrtc_warmup_shutdown();
          rt::shutdown();
        }, "Interpreter exit: wait for compiles Ctrl-C abandoned, stop calling the CUDA driver (frees are skipped).");
}

}  // namespace cujit
