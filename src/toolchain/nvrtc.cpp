// NVRTC through dlopen: finding and loading libnvrtc once, and the compile / query wrappers.
#include "toolchain/nvrtc.h"

#include <dlfcn.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <cstdlib>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "toolchain/nvrtc_types.h"
#include "toolchain/cache.h"
#include "toolchain/host_compiler.h"
#include "toolchain/nvrtc_pch.h"

namespace cujit::toolchain {
namespace {

using rt::ToolchainError;

// One pointer per function in nvrtc_api.def.
struct NvrtcApi {
#define NVRTC_API(name, result, params) result(*name) params = nullptr;
#include "toolchain/nvrtc_api.def"
#undef NVRTC_API
  void* handle = nullptr;
  std::string path;
};

// Newest first: a machine with both keeps using the toolkit this build was written against.
const char* const kLibNames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};

std::mutex g_paths_mutex;
std::vector<std::string> g_search_paths;  // guarded by g_paths_mutex

std::once_flag g_load_once;
NvrtcApi g_api;            // written once inside call_once, read-only afterwards
std::string g_load_error;  // set instead of g_api.handle when loading failed

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// Tries to resolve every function of the list in `handle`; names the first missing one on failure.
bool bind_all(void* handle, NvrtcApi& api, std::string& missing) {
#define NVRTC_API(name, result, params)                                     \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, #name));    \
  if (api.name == nullptr) {                                                \
    missing = #name;                                                        \
    return false;                                                           \
  }
#define NVRTC_API_OPTIONAL(name, result, params) \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, #name));
#include "toolchain/nvrtc_api.def"
#undef NVRTC_API_OPTIONAL
#undef NVRTC_API
  return true;
}

// Opens `what` (a full path, or a bare name for the loader's own search) and binds it. On failure
// appends one line to `tried` and returns false.
bool try_open(const std::string& what, const std::string& shown, std::string& tried) {
  // RTLD_LOCAL: NVRTC's symbols stay out of the global namespace, so they cannot clash with
  // another copy loaded by PyTorch, CuPy, ... in the same process. RTLD_NOW: fail here, not later.
  void* handle = dlopen(what.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    tried += "  " + shown + ": " + (err ? err : "dlopen failed") + "\n";
    return false;
  }
  NvrtcApi api;
  std::string missing;
  if (!bind_all(handle, api, missing)) {
    tried += "  " + shown + ": loaded, but it has no " + missing + " (too old?)\n";
    dlclose(handle);
    return false;
  }
  api.handle = handle;
  api.path = what;
  // Report the file actually loaded when the loader searched for a bare name.
  Dl_info info{};
  if (what.find('/') == std::string::npos && dladdr(reinterpret_cast<void*>(api.nvrtcVersion), &info) &&
      info.dli_fname)
    api.path = info.dli_fname;
  g_api = api;
  return true;
}

// Where load_nvrtc looks, in order, before the system loader.
std::vector<std::string> nvrtc_dirs() {
  std::vector<std::string> dirs;
  {
    std::lock_guard<std::mutex> lock(g_paths_mutex);
    dirs = g_search_paths;
  }
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    std::string root = env(var);
    if (!root.empty()) dirs.push_back(root + "/lib64");
  }
  dirs.push_back("/usr/local/cuda/lib64");
  return dirs;
}

void load_nvrtc() {
  std::vector<std::string> dirs = nvrtc_dirs();

  std::string tried;
  std::vector<std::string> seen;
  for (const std::string& dir : dirs) {
    if (dir.empty() || std::find(seen.begin(), seen.end(), dir) != seen.end()) continue;
    seen.push_back(dir);
    bool any = false;
    for (const char* name : kLibNames) {
      std::string path = dir + "/" + name;
      // Only dlopen files that exist, so the error lists real problems, not every absent name.
      if (access(path.c_str(), F_OK) != 0) continue;
      any = true;
      if (try_open(path, path, tried)) return;
    }
    if (!any) tried += "  " + dir + ": no libnvrtc.so.13 / .so.12 / .so there\n";
  }
  // Last, whatever the system loader finds (LD_LIBRARY_PATH, ld.so.cache).
  for (const char* name : kLibNames)
    if (try_open(name, std::string(name) + " (system loader path)", tried)) return;

  g_load_error =
      "cannot load NVRTC (libnvrtc), which cujit needs to compile for the GPU. Tried:\n" + tried +
      "Install it with `pip install nvidia-cuda-nvrtc`, or set CUDA_HOME to a CUDA Toolkit "
      "(12 or 13). The CUDA simulator does not need it.";
}

// The loaded API, loading it on first use. The attempt is made once per process (the lambda never
// throws, so call_once's exception path is not relied on); a failure is rethrown on every call.
const NvrtcApi& api() {
  std::call_once(g_load_once, [] {
    try {
      load_nvrtc();
    } catch (const std::exception& e) {  // e.g. bad_alloc while building the message
      g_load_error = std::string("cannot load NVRTC: ") + e.what();
    }
  });
  if (g_api.handle == nullptr) throw ToolchainError(g_load_error);
  return g_api;
}

std::string result_name(const NvrtcApi& a, nvrtcResult rc) {
  const char* s = a.nvrtcGetErrorString(rc);
  return s ? s : "NVRTC error " + std::to_string(int(rc));
}

// An NVRTC call that must not fail outside compilation (bad handle, out of memory, ...).
void check(const NvrtcApi& a, nvrtcResult rc, const char* call) {
  if (rc != NVRTC_SUCCESS)
    throw ToolchainError(std::string(call) + " failed: " + result_name(a, rc));
}

// Destroys the program on every path out of nvrtc_compile.
struct ProgramGuard {
  const NvrtcApi& a;
  nvrtcProgram prog = nullptr;
  ~ProgramGuard() {
    if (prog) a.nvrtcDestroyProgram(&prog);  // nothing useful to do if this fails
  }
};

std::string program_log(const NvrtcApi& a, nvrtcProgram prog) {
  std::size_t size = 0;
  check(a, a.nvrtcGetProgramLogSize(prog, &size), "nvrtcGetProgramLogSize");
  if (size <= 1) return std::string();
  std::string log(size, '\0');
  check(a, a.nvrtcGetProgramLog(prog, &log[0]), "nvrtcGetProgramLog");
  while (!log.empty() && log.back() == '\0') log.pop_back();  // the size counts the terminator
  return log;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

void set_library_search_paths(const std::vector<std::string>& dirs) {
  std::lock_guard<std::mutex> lock(g_paths_mutex);
  g_search_paths = dirs;
}

std::string nvrtc_library_path() { return api().path; }

namespace {

// The name the prelude is included by: nvrtc_compile's header is given to NVRTC under it.
const char kPreludeName[] = "cujit_prelude.h";

// Set when an NVRTC rejected -minimal or a PCH option as unknown (NVRTC_ERROR_INVALID_OPTION):
// from then on this process compiles with the plain options only.
std::atomic<bool> g_plain_only{false};

// One nvrtcCompileProgram: its result, its log, and the program (for the output and PCH status).
struct Attempt {
  explicit Attempt(const NvrtcApi& a) : guard{a} {}
  ProgramGuard guard;
  nvrtcResult rc = NVRTC_SUCCESS;
  std::string log;
};

// `cancel` (optional): NVRTC asks it at points of the compile whether to stop (nvrtcSetFlowCallback,
// 12.8+; older libraries run to the end); the background PCH maker's flag, set at exit.
int cancel_requested(void* flag, void*) { return static_cast<std::atomic<bool>*>(flag)->load() ? 1 : 0; }

void run_program(const NvrtcApi& a, Attempt& at, const std::string& source,
                 const std::string& program_name, const std::string& header,
                 const std::vector<std::string>& options, std::atomic<bool>* cancel = nullptr) {
  const char* header_text = header.c_str();
  const char* header_name = kPreludeName;
  const bool has_header = !header.empty();
  check(a, a.nvrtcCreateProgram(&at.guard.prog, source.c_str(),
                                program_name.empty() ? nullptr : program_name.c_str(),
                                has_header ? 1 : 0, has_header ? &header_text : nullptr,
                                has_header ? &header_name : nullptr),
        "nvrtcCreateProgram");
  if (cancel && a.nvrtcSetFlowCallback) a.nvrtcSetFlowCallback(at.guard.prog, &cancel_requested, cancel);
  std::vector<const char*> option_ptrs;
  option_ptrs.reserve(options.size());
  for (const std::string& o : options) option_ptrs.push_back(o.c_str());
  at.rc = a.nvrtcCompileProgram(at.guard.prog, int(option_ptrs.size()), option_ptrs.data());
  at.log = program_log(a, at.guard.prog);  // the log exists after success and failure
}

std::vector<std::string> with(std::vector<std::string> options, std::initializer_list<std::string> more) {
  options.insert(options.end(), more.begin(), more.end());
  return options;
}

// The options of a compile: `plain` (what every NVRTC takes) and `options` (plain, and where the
// library is 12.8+ the ones that make compiles cheaper without changing what the user's code
// becomes; benchmarks/NOTES-compile.md has the measurements).
struct CompileOptions {
  std::vector<std::string> plain, options;
  bool modern = false;  // 12.8+ (the PCH API is there) and no option refused before
};

CompileOptions compile_options(const NvrtcApi& a, const std::string& arch,
                               const std::vector<std::string>& extra_options, bool allow_minimal) {
  CompileOptions co;
  co.plain = {
      // The generated code and the prelude are written to C++17; pin it rather than depend on
      // the NVRTC version's default.
      "--std=c++17",
      // A real arch makes NVRTC finish the job (CUBIN, no driver JIT at load); a virtual one
      // stops at PTX, which the driver can JIT for GPUs newer than this NVRTC.
      "-arch=" + arch,
      // NVRTC would add the folder of the "source" (program_name: the user's .py) to the include
      // path. Generated code includes nothing from disk, so nothing there may be picked up.
      "-no-source-include",
  };
  // No -lineinfo or -default-device by default: the first costs compile time and is asked for by
  // the pipeline when profiling; generated code marks its functions __device__/__global__ itself.
  co.plain.insert(co.plain.end(), extra_options.begin(), extra_options.end());
  co.modern = a.nvrtcGetPCHCreateStatus != nullptr && !g_plain_only.load();
  co.options = co.plain;
  // -minimal leaves textures, surfaces, the device runtime (cudaMalloc, launches from device
  // code) and the runtime API's types out of NVRTC's built-in header, none of which generated
  // code uses: the front end parses 2-4 ms less per program.
  if (co.modern && allow_minimal) co.options.push_back("-minimal");
  return co;
}

}  // namespace

namespace {

NvrtcOutput nvrtc_compile_here(const std::string& source, const std::string& program_name,
                               const std::string& arch, const std::vector<std::string>& extra_options,
                               const std::string& header, bool allow_pch, bool allow_minimal);

// Compiles running in any thread (g_running: the warm-up's, a Python daemon thread's, ...), and
// those Ctrl-C left running (g_abandoned: NVRTC has no way to stop one, so its thread finishes
// alone and drops the result). wait_running_compiles (at interpreter exit) lets them end before the
// process tears down the library they run in: exit() runs libnvrtc's static destructors (and
// removes the PCH files) while such a thread would still be inside NVRTC, which crashed with
// SIGSEGV.
std::mutex g_abandoned_mutex;
std::condition_variable g_abandoned_cv;
int g_abandoned = 0;
int g_running = 0;

struct RunningCompile {
  RunningCompile() {
    std::lock_guard<std::mutex> g(g_abandoned_mutex);
    ++g_running;
  }
  ~RunningCompile() {
    std::lock_guard<std::mutex> g(g_abandoned_mutex);
    --g_running;
    g_abandoned_cv.notify_all();
  }
};

}  // namespace

bool wait_running_compiles(int max_seconds) {
  std::unique_lock<std::mutex> lock(g_abandoned_mutex);
  return g_abandoned_cv.wait_for(lock, std::chrono::seconds(max_seconds),
                                 [] { return g_abandoned == 0 && g_running == 0; });
}

NvrtcOutput nvrtc_compile(const std::string& source, const std::string& program_name,
                          const std::string& arch, const std::vector<std::string>& extra_options,
                          const std::string& header, bool allow_pch, bool allow_minimal) {
  if (!interrupt_poll_installed())
    return nvrtc_compile_here(source, program_name, arch, extra_options, header, allow_pch, allow_minimal);
  // The compile runs on a thread of its own while this one polls for Ctrl-C every 50 ms (a large
  // kernel takes NVRTC seconds); a thread costs tens of microseconds against NVRTC's tens of ms.
  struct Shared {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    NvrtcOutput out;
    std::exception_ptr error;
  };
  auto shared = std::make_shared<Shared>();
  std::thread worker([shared, source, program_name, arch, extra_options, header, allow_pch, allow_minimal] {
    NvrtcOutput out;
    std::exception_ptr error;
    try {
      out = nvrtc_compile_here(source, program_name, arch, extra_options, header, allow_pch, allow_minimal);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(shared->m);
    shared->out = std::move(out);
    shared->error = error;
    shared->done = true;
    shared->cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(shared->m);
  while (!shared->cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return shared->done; })) {
    lock.unlock();
    const bool stop = interrupt_requested();
    lock.lock();
    if (stop && !shared->done) {
      {
        std::lock_guard<std::mutex> g(g_abandoned_mutex);
        ++g_abandoned;
      }
      lock.unlock();
      std::thread([w = std::move(worker), shared]() mutable {
        w.join();
        std::lock_guard<std::mutex> g(g_abandoned_mutex);
        --g_abandoned;
        g_abandoned_cv.notify_all();
      }).detach();
      throw rt::Interrupted();
    }
  }
  lock.unlock();
  worker.join();
  if (shared->error) std::rethrow_exception(shared->error);
  return std::move(shared->out);
}

namespace {

// The background PCH maker: one thread that writes precompiled headers while compiles go on
// without them, so that no compile pays for writing one (the first compile of a prelude costs
// what a compile without PCH costs, and later ones use the file once it is there). Its jobs come
// from nvrtc_compile_here (a compile that found no PCH for its header hands its Create ticket
// over) and from nvrtc_prepare_pch (the warm-up a process's first GPU context starts, which also
// loads NVRTC here rather than in the first kernel's compile). Each job compiles the header and
// an empty kernel with --create-pch: the PCH holds the state after the header, which any program
// with that header and those options can load. At exit (nvrtc_background_shutdown) the queue is
// dropped and the running job cancelled through NVRTC's flow callback, so that exit does not
// wait for a PCH nobody will use.
struct PchJob {
  PchTicket ticket;                    // reserved by a compile (Role::Create), or None: reserve here
  std::string header;
  std::vector<std::string> options;    // with a reserved ticket: the compile's exact options
  std::function<std::string()> arch;   // without one: what compile_options needs (the arch is
                                       // found in the thread: it may load NVRTC)
  std::vector<std::string> extra;
  bool allow_minimal = true;
};

struct PchMaker {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<PchJob> jobs;   // guarded by mu
  bool busy = false;         // a job is running (guarded by mu)
  bool closed = false;       // exit began: no new job (guarded by mu)
  int unreserved = 0;        // warm-up jobs queued or running whose PCH is not reserved yet (mu)
  std::thread* thread = nullptr;
  pid_t owner = 0;           // the process that started the thread: only it joins it
  std::atomic<bool> cancel{false};
  ~PchMaker() { shutdown(); }  // fallback for a process that never ran nvrtc_background_shutdown
  void shutdown();
};

PchMaker& maker() {
  static PchMaker m;
  return m;
}

bool background_enabled() {
  const char* v = std::getenv("CUJIT_NVRTC_PCH_BACKGROUND");
  return !(v && (std::string(v) == "0" || std::string(v) == "off" || std::string(v) == "false"));
}

void give_up(PchJob& job) {
  if (job.ticket.role == PchTicket::Role::Create) pch_created(job.ticket, false);
}

// A warm-up job has reserved its PCH (or given up): compiles waiting in
// wait_warmups_reserved go on.
void warmup_reserved(PchMaker& m) {
  std::lock_guard<std::mutex> lock(m.mu);
  --m.unreserved;
  m.cv.notify_all();
}

void make_pch(PchMaker& m, PchJob& job) {
  RunningCompile running;
  const bool warmup = job.ticket.role != PchTicket::Role::Create;
  try {
    if (warmup) {
      struct Reserved {  // on every path out of the reservation
        PchMaker& m;
        ~Reserved() { warmup_reserved(m); }
      } reserved{m};
      const NvrtcApi& a = api();
      const CompileOptions co = compile_options(a, job.arch(), job.extra, job.allow_minimal);
      if (!co.modern) return;
      job.options = co.options;
      job.ticket = pch_reserve(job.header, job.options);
      if (job.ticket.role != PchTicket::Role::Create) return;  // made or being made already
    }
    const NvrtcApi& a = api();
    Attempt at(a);
    const std::string source = std::string("#include \"") + kPreludeName +
                               "\"\n#pragma nv_diag_suppress 20283\nextern \"C\" __global__ void cj_pch_seed() {}\n";
    run_program(a, at, source, "cujit_pch.cu", job.header,
                with(job.options, {"--create-pch=" + job.ticket.path, "-pch-messages=false"}), &m.cancel);
    pch_created(job.ticket, at.rc == NVRTC_SUCCESS && a.nvrtcGetPCHCreateStatus(at.guard.prog) == NVRTC_SUCCESS);
  } catch (...) {  // NVRTC missing or failing: the compiles that need it report that themselves
    give_up(job);
  }
}

void maker_loop(PchMaker* m) {
  // Not niced: a compile may be waiting for this thread's PCH (pch_begin), and a niced thread on
  // a busy machine would keep it waiting (an unprivileged process cannot raise it back).
  for (;;) {
    PchJob job;
    {
      std::unique_lock<std::mutex> lock(m->mu);
      m->busy = false;
      m->cv.notify_all();
      m->cv.wait(lock, [m] { return m->closed || !m->jobs.empty(); });
      if (m->closed) break;
      job = std::move(m->jobs.front());
      m->jobs.pop_front();
      m->busy = true;
    }
    make_pch(*m, job);
  }
  std::lock_guard<std::mutex> lock(m->mu);
  for (PchJob& job : m->jobs) {
    if (job.ticket.role != PchTicket::Role::Create) --m->unreserved;
    give_up(job);
  }
  m->jobs.clear();
  m->busy = false;
  m->cv.notify_all();
}

// Queues `job`; false (and the job untouched) when the maker is closed or its thread cannot start.
bool submit(PchJob&& job) {
  PchMaker& m = maker();
  std::lock_guard<std::mutex> lock(m.mu);
  if (m.closed) return false;
  if (m.thread == nullptr || m.owner != getpid()) {
    // In a forked child the parent's thread does not exist (pch_enabled is false there anyway).
    try {
      m.thread = new std::thread(maker_loop, &m);
      m.owner = getpid();
    } catch (...) {
      m.thread = nullptr;
      return false;
    }
  }
  if (job.ticket.role != PchTicket::Role::Create) ++m.unreserved;
  m.jobs.push_back(std::move(job));
  m.cv.notify_all();
  return true;
}

// A compile about to look for its PCH first lets a warm-up that is loading NVRTC or finding the
// arch reserve the PCH it is about to write: the compile then finds it being written and waits
// for it, instead of writing its own alongside (two compiles at once slow each other). The wait
// is short: this compile has loaded NVRTC already, which is most of what the warm-up does first.
void wait_warmups_reserved() {
  PchMaker& m = maker();
  std::unique_lock<std::mutex> lock(m.mu);
  if (m.unreserved > 0 && !m.closed)
    m.cv.wait_for(lock, std::chrono::seconds(1), [&m] { return m.unreserved <= 0 || m.closed; });
}

void PchMaker::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu);
    closed = true;
    cancel = true;
    cv.notify_all();
  }
  if (thread && owner == getpid() && thread->joinable()) {
    thread->join();
    delete thread;
  }
  thread = nullptr;
}

}  // namespace

void nvrtc_prepare_pch(const std::string& header, std::function<std::string()> arch,
                       const std::vector<std::string>& extra_options, bool allow_minimal) {
  if (header.empty() || !arch || !pch_enabled()) return;
  PchJob job;
  job.header = header;
  job.arch = std::move(arch);
  job.extra = extra_options;
  job.allow_minimal = allow_minimal;
  submit(std::move(job));
}

void nvrtc_background_shutdown() { maker().shutdown(); }

bool nvrtc_background_idle(double max_seconds) {
  PchMaker& m = maker();
  std::unique_lock<std::mutex> lock(m.mu);
  return m.cv.wait_for(lock, std::chrono::duration<double>(max_seconds),
                       [&m] { return m.jobs.empty() && !m.busy; });
}

namespace {

NvrtcOutput nvrtc_compile_here(const std::string& source, const std::string& program_name,
                               const std::string& arch, const std::vector<std::string>& extra_options,
                               const std::string& header, bool allow_pch, bool allow_minimal) {
  RunningCompile running;  // counted until NVRTC is done with it (wait_running_compiles)
  bool cubin;
  if (starts_with(arch, "sm_") && arch.size() > 3) {
    cubin = true;
  } else if (starts_with(arch, "compute_") && arch.size() > 8) {
    cubin = false;
  } else {
    throw ToolchainError("nvrtc_compile: arch must be \"sm_XY\" (CUBIN) or \"compute_XY\" (PTX), "
                         "not \"" + arch + "\"");
  }
  const NvrtcApi& a = api();
  const CompileOptions co = compile_options(a, arch, extra_options, allow_minimal);
  const std::vector<std::string>& plain = co.plain;
  const std::vector<std::string>& options = co.options;
  const bool modern = co.modern;

  // The prelude as a header, so that the state after it can be precompiled (nvrtc_pch.h). The
  // pragma silences warning 20283 ("PCH creation disabled because #line directive encountered"),
  // which NVRTC prints for every #line past the header stop point of a --create-pch compile; it
  // comes after the stop point, so the PCH does not depend on it.
  const std::string main_source =
      header.empty() ? source
                     : std::string("#include \"") + kPreludeName + "\"\n#pragma nv_diag_suppress 20283\n" + source;
  PchTicket ticket;
  if (modern && allow_pch && !header.empty()) {
    wait_warmups_reserved();
    ticket = pch_begin(header, options);
  }
  if (ticket.role == PchTicket::Role::Create && background_enabled()) {
    // No PCH for this header yet: the maker writes it while this program compiles without it
    // (writing it here would cost this compile more than the PCH saves it).
    PchJob job;
    job.ticket = ticket;
    job.header = header;
    job.options = options;
    if (submit(std::move(job))) ticket = PchTicket{};
  }

  Attempt first(a);
  std::unique_ptr<Attempt> retry;  // set when the first attempt's result is not used
  using Role = PchTicket::Role;
  if (ticket.role == Role::Create) {
    try {
      run_program(a, first, main_source, program_name, header,
                  with(options, {"--create-pch=" + ticket.path, "-pch-messages=false"}));
    } catch (...) {
      pch_created(ticket, false);  // threads waiting for this PCH (pch_begin) go on without it
      throw;
    }
    pch_created(ticket, first.rc == NVRTC_SUCCESS && a.nvrtcGetPCHCreateStatus(first.guard.prog) == NVRTC_SUCCESS);
  } else if (ticket.role == Role::Use) {
    run_program(a, first, main_source, program_name, header,
                with(options, {"--use-pch=" + ticket.path, "-pch-messages=false"}));
    // NVRTC warns and parses the header itself when it cannot use the file: the result is right,
    // but later compiles should not pay for reading it again.
    if (first.rc == NVRTC_SUCCESS && first.log.find("precompiled header") != std::string::npos) pch_discard(ticket);
  } else {
    run_program(a, first, main_source, program_name, header, options);
  }
  Attempt* done = &first;
  if (first.rc == NVRTC_ERROR_INVALID_OPTION && modern) {
    // An NVRTC that knows the PCH API but not one of these options: plain options from now on.
    g_plain_only = true;
    retry = std::make_unique<Attempt>(a);
    run_program(a, *retry, main_source, program_name, header, plain);
    done = retry.get();
  } else if (first.rc != NVRTC_SUCCESS && ticket.role == Role::Use) {
    // A PCH must never be why a program fails: compile it again without. If that works, the file
    // was the problem.
    retry = std::make_unique<Attempt>(a);
    run_program(a, *retry, main_source, program_name, header, options);
    if (retry->rc == NVRTC_SUCCESS) pch_discard(ticket);
    done = retry.get();
  }

  if (done->rc != NVRTC_SUCCESS) {
    std::string name = program_name.empty() ? "the generated code" : program_name;
    std::string message = "NVRTC could not compile " + name + " for " + arch + ": " +
                          result_name(a, done->rc);
    if (!done->log.empty()) message += "\n" + done->log;
    throw rt::NvrtcCompileError(message, done->log, program_name, arch, int(done->rc));
  }

  NvrtcOutput out;
  out.is_cubin = cubin;
  out.log = std::move(done->log);
  if (done == &first) out.pch = ticket.role == Role::Create ? "created" : ticket.role == Role::Use ? "used" : "";
  nvrtcProgram prog = done->guard.prog;
  std::size_t size = 0;
  // -dlto with a virtual arch: NVRTC's result is LTO-IR (cuda.compile(output='ltoir')), not PTX.
  const bool ltoir = !cubin && std::find(extra_options.begin(), extra_options.end(), "-dlto") != extra_options.end();
  if (ltoir) {
    if (a.nvrtcGetLTOIRSize == nullptr || a.nvrtcGetLTOIR == nullptr)
      throw ToolchainError("this NVRTC (" + nvrtc_version() + ") cannot produce LTO-IR (12.4 or newer can)");
    check(a, a.nvrtcGetLTOIRSize(prog, &size), "nvrtcGetLTOIRSize");
    if (size == 0) throw ToolchainError("NVRTC produced empty LTO-IR for " + arch);
    out.image.assign(size, '\0');
    check(a, a.nvrtcGetLTOIR(prog, &out.image[0]), "nvrtcGetLTOIR");
  } else if (cubin) {
    check(a, a.nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
    if (size == 0) throw ToolchainError("NVRTC produced an empty CUBIN for " + arch);
    out.image.assign(size, '\0');
    check(a, a.nvrtcGetCUBIN(prog, &out.image[0]), "nvrtcGetCUBIN");
  } else {
    check(a, a.nvrtcGetPTXSize(prog, &size), "nvrtcGetPTXSize");
    if (size == 0) throw ToolchainError("NVRTC produced empty PTX for " + arch);
    out.image.assign(size, '\0');
    check(a, a.nvrtcGetPTX(prog, &out.image[0]), "nvrtcGetPTX");
    // The size counts the terminating NUL; the driver wants a C string, which std::string's
    // c_str() still provides, and the cache and hashes want just the text.
    while (!out.image.empty() && out.image.back() == '\0') out.image.pop_back();
  }
  return out;
}

}  // namespace

std::string nvrtc_identity() {
  static std::once_flag once;
  static std::string id;
  std::call_once(once, [] {
    for (const std::string& dir : nvrtc_dirs()) {
      for (const char* name : kLibNames) {
        struct stat st {};
        std::string path = dir + "/" + name;
        if (dir.empty() || stat(path.c_str(), &st) != 0) continue;
        char real[PATH_MAX];
        id = std::string(realpath(path.c_str(), real) ? real : path.c_str()) + ":" + std::to_string(st.st_size) + ":" +
             std::to_string((long long)st.st_mtime);
        return;
      }
    }
    try {
      id = "loaded:" + nvrtc_version();  // found by the system loader only: ask it
    } catch (const ToolchainError&) {
      id = "none";
    }
  });
  return id;
}

std::string best_arch_cached(int cc_major, int cc_minor, bool cubin) {
  const std::string key = cache_key({"best-arch-1", nvrtc_identity(), std::to_string(cc_major * 10 + cc_minor),
                                     cubin ? "cubin" : "ptx"});
  if (auto hit = cache_get(key, "arch")) return *hit;
  std::string arch = best_arch(cc_major, cc_minor, cubin);
  cache_put(key, "arch", arch);
  return arch;
}

std::string nvrtc_version() {
  const NvrtcApi& a = api();
  int major = 0, minor = 0;
  check(a, a.nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<int> nvrtc_supported_archs() {
  const NvrtcApi& a = api();
  int count = 0;
  check(a, a.nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
  std::vector<int> archs(std::size_t(std::max(count, 0)));
  if (count > 0) check(a, a.nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs");
  std::sort(archs.begin(), archs.end());  // documented ascending; sort anyway, best_arch relies on it
  return archs;
}

std::string best_arch(int cc_major, int cc_minor, bool cubin) {
  if (cc_major <= 0 || cc_minor < 0 || cc_minor > 9)
    throw ToolchainError("best_arch: invalid compute capability " + std::to_string(cc_major) +
                         "." + std::to_string(cc_minor));
  const int cc = cc_major * 10 + cc_minor;
  std::vector<int> archs = nvrtc_supported_archs();
  int pick = 0;
  for (int arch : archs)
    if (arch <= cc) pick = arch;  // ascending: ends on the highest not above the device
  if (pick == 0) {
    std::string oldest = archs.empty() ? std::string("none")
                                       : std::to_string(archs.front() / 10) + "." +
                                             std::to_string(archs.front() % 10);
    throw ToolchainError("this GPU (compute capability " + std::to_string(cc_major) + "." +
                         std::to_string(cc_minor) + ") is older than anything NVRTC " +
                         nvrtc_version() + " can compile for (oldest: " + oldest + ")");
  }
  return (cubin ? "sm_" : "compute_") + std::to_string(pick);
}

}  // namespace cujit::toolchain
