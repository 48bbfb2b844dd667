// The runtime as Python sees it, beyond device arrays (bindings/device_array.cpp): the backend
// switch (set_simulator), GPU queries, random-state seeding and _shutdown.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/common.h"
#include "runtime/device_array.h"
#include "runtime/driver.h"
#include "runtime/memory.h"
#include "runtime/random.h"
#include "toolchain/nvrtc.h"

namespace py = pybind11;

namespace cujit {
namespace {

py::dict device_info() {
  py::dict d;
  auto cc = rt::compute_capability();
  d["name"] = rt::device_name();
  d["compute_capability"] = py::make_tuple(cc.first, cc.second);
  d["total_memory"] = rt::total_memory();
  d["multiprocessors"] = rt::multiprocessor_count();
  d["max_threads_per_block"] = rt::max_threads_per_block();
  d["driver_version"] = rt::driver_version();
  return d;
}

}  // namespace

void define_runtime(py::module_& m) {
  using namespace py::literals;
  m.def("set_simulator", [](bool on) { rt::set_current_backend(on ? rt::Backend::Sim : rt::Backend::GPU); }, "on"_a,
        "Whether new device arrays, launches and ufunc calls use the CPU simulator (else the GPU).");
  m.def("simulator_enabled", [] { return rt::current_backend() == rt::Backend::Sim; });
  m.def("gpu_available", [] { return rt::gpu_available(); },
        "True when libcuda loads, initialises and reports a device (loads the driver the first time).");
  m.def("synchronize", [] {
    py::gil_scoped_release nogil;
    rt::synchronize();
  }, "Waits for all work on the GPU (cuCtxSynchronize).");
  m.def("device_info", &device_info,
        "The GPU's name, compute_capability, total_memory, multiprocessors, max_threads_per_block, driver_version.");
  m.def("set_library_search_paths",
        [](const std::vector<std::string>& dirs) {
          // One list serves both libraries loaded with dlopen: NVRTC (the pip wheel folders) and libcuda.
          toolchain::set_library_search_paths(dirs);
          rt::set_library_search_paths(dirs);
        },
        "dirs"_a, "Folders searched for libnvrtc and libcuda, before the first use of either.");
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
  m.def("_shutdown", &rt::shutdown, "Interpreter exit: stop calling the CUDA driver (frees are skipped).");
}

}  // namespace cujit
