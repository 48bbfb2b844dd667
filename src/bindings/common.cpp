// See common.h.
#include "bindings/common.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <cstdlib>
#include <thread>

#include <unistd.h>

#include "runtime/driver.h"
#include "runtime/stream.h"
#include "toolchain/nvrtc.h"
#include "toolchain/nvrtc_pch.h"

namespace py = pybind11;

namespace cujit {

namespace {
std::atomic<bool> g_check_ptx{false};
}

void set_check_ptx(bool on) { g_check_ptx = on; }

namespace {
// The first GPU compile of a process also pays for loading NVRTC's libraries (benchmarks/
// NOTES-compile.md), and a compile without the prelude's precompiled header parses the prelude.
// A program makes its GPU context before its first kernel compiles, so when the first context
// exists NVRTC's background thread (toolchain nvrtc_prepare_pch) loads NVRTC and writes the
// prelude's PCH for the device's arch and the default options, while the program goes on; a
// kernel that compiles meanwhile waits for that PCH (2 s at most, CUJIT_NVRTC_PCH_WAIT) rather
// than compile alongside it (benchmarks/NOTES-compile.md has the H100's figures). On by default;
// CUJIT_NVRTC_WARMUP=0 turns it off (then the first kernel's compile loads NVRTC and hands the
// PCH to the background thread itself), CUJIT_NVRTC_PCH=0 too.
//
// The exit path: no NVRTC compile may run when exit() runs libnvrtc's static destructors (they
// are registered after this file's where the warm-up thread is what loads libnvrtc: a short
// process that ended during the warm-up crashed with SIGSEGV; tests/test_nvrtc_pch.py reproduces
// it without a GPU). So _core._shutdown (an atexit handler, before any static destructor) cancels
// the background job, joins its thread, and waits for every other compile still running
// (toolchain wait_running_compiles, 60 s at most).
bool warmup_enabled() {
  const char* v = std::getenv("CUJIT_NVRTC_WARMUP");
  return !(v && (std::string(v) == "0" || std::string(v) == "off" || std::string(v) == "false"));
}

// CUJIT_NVRTC_PTX=1 (off by default; read at each compile, so a benchmark can switch it): GPU
// programs are compiled to PTX and the driver assembles them at cuModuleLoadData. NVRTC then skips
// ptxas (9-12 ms of a new kernel's compile, benchmarks/NOTES-compile.md), but the driver runs the
// same assembler at load, and caches its result on disk (~/.nv/ComputeCache, off with
// CUDA_CACHE_DISABLE=1): only the GPU can tell whether it pays (benchmarks/ptx_jit.py).
bool ptx_images() {
  const char* v = std::getenv("CUJIT_NVRTC_PTX");
  return v && std::string(v) == "1";
}

std::string gpu_arch(int major, int minor) {
  std::string arch = toolchain::best_arch_cached(major, minor, !ptx_images());
  // A CUBIN runs only on its own major version; past what NVRTC knows, hand the driver PTX.
  if (arch.rfind("sm_", 0) == 0 && std::stoi(arch.substr(3)) / 10 != major)
    arch = toolchain::best_arch_cached(major, minor, false);
  return arch;
}

void start_nvrtc_warmup(int major, int minor) {
  if (!warmup_enabled()) return;
  try {
    // The arch is found on the background thread: where the disk cache does not know it yet,
    // finding it loads NVRTC.
    nvrtc_prepare_prelude_pch([major, minor] { return gpu_arch(major, minor); });
  } catch (...) {  // a courtesy: the first kernel compiles as it would have without it
  }
}
}  // namespace

void nvrtc_warmup(const std::string& arch, bool wait) {
  nvrtc_prepare_prelude_pch([arch] { return arch; });
  if (wait) toolchain::nvrtc_background_idle(60);
}

void nvrtc_warmup_shutdown() {
  toolchain::nvrtc_background_shutdown();
  toolchain::wait_running_compiles(60);  // NVRTC stuck for a minute: exit as before
}

void register_nvrtc_warmup() { rt::on_first_context(&start_nvrtc_warmup); }

Signature parse_signature_or_raise(const std::string& text) {
  try {
    return parse_signature(text);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
}

CompileProgress::CompileProgress(const std::string& what) {
  try {
    token_ = py::module_::import("cujit._progress").attr("start")(what);
  } catch (const py::error_already_set&) {
    // Progress lines are a courtesy: a broken hook must not stop the compile.
  }
}

CompileProgress::~CompileProgress() {
  if (!token_) return;
  try {
    token_.attr("done")(std::uncaught_exceptions() == 0);
  } catch (const py::error_already_set&) {
  }
}

std::string describe_call(const std::string& name, const std::vector<Type>& types) {
  std::string s = name + "(";
  for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + types[i].str();
  return s + ")";
}

namespace {
// A kernel that links PTX, cubins, fatbins, objects or archives: its own code compiled relocatable
// (Build::nvrtc_options), then the driver's linker joins them into one CUBIN.
// NVRTC's warnings about a linked CUDA C++ source (its lines are named by the source's #line
// directive) reach the user as numba-cuda's UserWarning. The generated code's own are not the
// user's business. Only a compile that ran has a log (a disk-cache hit has none).
void warn_nvrtc_log(const Build& b, const std::string& log) {
  if (log.empty()) return;
  for (const auto& name : b.cuda_links)
    if (log.find(name) != std::string::npos) {
      if (PyErr_WarnEx(PyExc_UserWarning, ("NVRTC log messages: " + log).c_str(), 1) < 0) throw py::error_already_set();
      return;
    }
}

std::shared_ptr<rt::LoadedModule> load_linked(const Build& b) {
  std::vector<rt::LinkInput> inputs;
  for (const auto& l : b.device_links) {
    CUjitInputType t;
    if (l.kind == "ptx") t = CU_JIT_INPUT_PTX;
    else if (l.kind == "cubin") t = CU_JIT_INPUT_CUBIN;
    else if (l.kind == "fatbin") t = CU_JIT_INPUT_FATBINARY;
    else if (l.kind == "object") t = CU_JIT_INPUT_OBJECT;
    else if (l.kind == "archive") t = CU_JIT_INPUT_LIBRARY;
    else {
      PyErr_SetString(PyExc_NotImplementedError,
                      (b.name + "() links " + l.kind + " code (" + l.name +
                       "), which needs nvJitLink: cujit links CUDA C++, PTX, cubins, fatbins, objects and archives")
                          .c_str());
      throw py::error_already_set();
    }
    inputs.push_back({t, l.data, l.name});
  }
  auto cc = rt::compute_capability();
  const std::string arch = gpu_arch(cc.first, cc.second);
  std::string image, log;
  {
    py::gil_scoped_release nogil;
    toolchain::NvrtcOutput out = compile_cuda(b, arch);
    log = out.log;
    inputs.insert(inputs.begin(), {out.is_cubin ? CU_JIT_INPUT_CUBIN : CU_JIT_INPUT_PTX, out.image, b.name + ".cu"});
    image = rt::link_images(inputs);
  }
  warn_nvrtc_log(b, log);
  return rt::LoadedModule::load_gpu(image);
}
}  // namespace

std::shared_ptr<rt::LoadedModule> load_build(const Build& b, rt::Backend backend, const std::string& what) {
  CompileProgress progress(what.empty() ? b.name : what);
  if (!b.device_links.empty() && backend == rt::Backend::Sim) {
    // CUDA C++ sources run on the simulator (compiled as C++); other code is GPU machine code.
    {
      py::gil_scoped_release nogil;
      if (g_check_ptx) compile_cuda(b, "compute_90");  // the GPU's relocatable program still builds
    }
    const auto& l = b.device_links.front();
    PyErr_SetString(PyExc_NotImplementedError,
                    (b.name + "() links " + l.kind + " code (" + l.name +
                     "), which the CUDA simulator cannot run: it runs linked CUDA C++ sources (.cu files, "
                     "cuda.CUSource) that are plain C++ only")
                        .c_str());
    throw py::error_already_set();
  }
  if (!b.device_links.empty()) return load_linked(b);
  if (backend == rt::Backend::Sim) {
    std::shared_ptr<toolchain::HostLibrary> lib;
    {
      py::gil_scoped_release nogil;
      if (g_check_ptx) compile_cuda(b, "compute_90");
      lib = compile_host(b);
    }
    return rt::LoadedModule::load_host(lib);
  }
  auto cc = rt::compute_capability();
  const std::string arch = gpu_arch(cc.first, cc.second);
  toolchain::NvrtcOutput out;
  {
    py::gil_scoped_release nogil;
    out = compile_cuda(b, arch);
  }
  warn_nvrtc_log(b, out.log);
  return rt::LoadedModule::load_gpu(out.image);
}

std::shared_ptr<FunctionSource> source_for_compile(const std::shared_ptr<FunctionSource>& text,
                                                   const py::object& snapshot) {
  if (!snapshot || snapshot.is_none()) return text;
  return snapshot().cast<std::shared_ptr<FunctionSource>>();
}

bool is_exact_ndarray(const py::handle& h) {
  static PyTypeObject* ndarray = reinterpret_cast<PyTypeObject*>(
      py::object(py::module_::import("numpy").attr("ndarray")).release().ptr());  // kept for the process
  return Py_TYPE(h.ptr()) == ndarray;
}

void check_launch_stream_device(int device) {
  const int cur = rt::current_device();
  if (device < 0 || device == cur) return;
  throw rt::CudaAPIError("cuLaunchKernel", int(CUDA_ERROR_INVALID_HANDLE), "CUDA_ERROR_INVALID_HANDLE",
                         "invalid resource handle",
                         ": the launch's stream belongs to device " + std::to_string(device) +
                             " and the current device is " + std::to_string(cur) +
                             "; GPU code runs on the current device, on a stream of that device (launch it "
                             "inside `with cuda.gpus[" + std::to_string(device) + "]:`)");
}

int stream_device(const py::object& stream) {
  // The usual stream argument (0) answers before the type lookup: configure() asks at each new
  // launch configuration.
  if (stream.is_none() || PyLong_CheckExact(stream.ptr()) || !py::isinstance<rt::Stream>(stream)) return -1;
  const rt::Stream& s = stream.cast<const rt::Stream&>();
  return s.kind() == rt::Stream::Kind::Created ? s.device() : -1;
}

void* stream_handle(const py::object& stream) {
  if (stream.is_none()) return nullptr;
  if (py::isinstance<py::int_>(stream)) {
    // A raw CUstream handle (0: the default stream); not one a pointer can hold is no stream.
    unsigned long long v = PyLong_AsUnsignedLongLong(stream.ptr());
    if (PyErr_Occurred()) {
      PyErr_Clear();
      throw py::value_error("stream must be 0, None, a cujit stream or a CUstream handle, got " +
                            py::repr(stream).cast<std::string>());
    }
    return (void*)(uintptr_t)v;
  }
  // A cujit stream of a context lost to a kernel fault must not reach the driver.
  if (py::isinstance<rt::Stream>(stream)) {
    const rt::Stream& s = stream.cast<const rt::Stream&>();
    s.check_live();
    return s.handle();
  }
  // The CUDA stream protocol (numba-cuda's and cuda.core's streams): (version 0, handle).
  if (py::hasattr(stream, "__cuda_stream__")) {
    py::tuple t = stream.attr("__cuda_stream__")();
    if (t.size() == 2) return (void*)py::int_(t[1]).cast<uintptr_t>();
  }
  if (py::hasattr(stream, "handle")) return (void*)py::int_(stream.attr("handle")).cast<uintptr_t>();
  // A cuda.core GraphBuilder: work launched on it is captured on its stream (numba-cuda's rule).
  if (py::hasattr(stream, "begin_building") && py::hasattr(stream, "stream")) return stream_handle(stream.attr("stream"));
  throw py::type_error("stream must be 0, None, a cujit stream or an object with __cuda_stream__, got " +
                       py::repr(stream).cast<std::string>());
}

}  // namespace cujit
