// The host toolchain (see host_compiler.h): finding the compiler, running it without a shell under
// a time limit, caching its output and loading the result.
#include "toolchain/host_compiler.h"

#include <algorithm>
#include <dlfcn.h>
#include <fenv.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <future>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "toolchain/cache.h"

extern char** environ;

namespace cujit::toolchain {
namespace {

using rt::HostCompileError;
using rt::ToolchainError;

constexpr int kCompileTimeoutS = 300;  // a generated module takes seconds; 300 s means it hangs
// ziglang's `zig c++` builds its own C++ library at its first use (about a minute on an idle
// 2-core machine, several under load), inside whichever compile or flag probe comes first.
constexpr int kZigFirstUseTimeoutS = 1800;
constexpr int kVersionTimeoutS = 60;
constexpr std::size_t kMaxOutput = 8u << 20;  // keep at most 8 MiB of diagnostics
const char kNoCompiler[] =
    "no C++ compiler found: @jit, CPU ufuncs and the simulator compile C++ on this machine.\n"
    "Fix one of: install g++ (apt-get install g++, dnf install gcc-c++); set CXX to a C++17 compiler;\n"
    "or `pip install ziglang` (or `pip install cujit[compiler]`): cujit then uses its `zig c++`\n"
    "(its first use builds zig's C++ library, about a minute; later compiles take well under a second).\n"
    "Searched $PATH for c++, g++ and clang++, and the Python's site-packages for ziglang.";
const char kCacheVersion[] = "cujit-host-1";  // bump when the flags or the build change meaning

std::atomic<std::uint64_t> g_compiler_runs{0};
std::atomic<bool (*)()> g_interrupt_poll{nullptr};  // set_interrupt_poll

bool interrupted() {
  bool (*poll)() = g_interrupt_poll.load();
  return poll && poll();
}

std::string errno_text(int err) { return std::strerror(err); }

// The fixed flags, each for a reason:
std::vector<std::string> base_flags() {
  return {
      // C++20: the simulator runs each GPU thread as a coroutine (co_await at __syncthreads).
      "-std=c++20",
      // Kernels on the CPU should be fast enough to be useful; -O2 compiles much faster than -O3.
      "-O2",
      // Position-independent code is required for a shared object.
      "-fPIC",
      // A shared object, loaded with dlopen.
      "-shared",
      // sqrt, fabs, ... may then inline to single instructions as they do on the GPU; errno is
      // never looked at, Python's error semantics are implemented by the generated code itself.
      "-fno-math-errno",
      // A generated function that could end without returning its value would return garbage:
      // codegen never emits one (typing makes such a result optional), and this keeps it so.
      "-Werror=return-type",
      // Integer arithmetic wraps in Numba (LLVM's plain add/mul); signed overflow must not be
      // undefined behaviour that the optimiser may assume away.
      "-fwrapv",
  };
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n') {
      if (!cur.empty()) words.push_back(cur), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) words.push_back(cur);
  return words;
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// `name` as found on $PATH (a name with a slash is taken as a path); "" when absent.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return is_executable_file(name) ? name : std::string();
  const char* p = std::getenv("PATH");
  std::string path = (p && *p) ? p : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  for (;;) {
    std::size_t end = path.find(':', start);
    std::string dir = path.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    if (is_executable_file(candidate)) return candidate;
    if (end == std::string::npos) return std::string();
    start = end + 1;
  }
}

// Compilers pip can install, tried after the system's (set_compiler_fallbacks).
std::mutex g_fallback_mutex;
std::vector<std::vector<std::string>> g_fallbacks;  // guarded by g_fallback_mutex

// The compiler as argv words, argv[0] resolved to a full path (posix_spawn does not search).
std::vector<std::string> resolve_compiler() {
  const char* cxx = std::getenv("CXX");
  std::vector<std::string> words = split_words(cxx ? cxx : "");
  if (!words.empty()) {
    std::string found = find_program(words[0]);
    if (found.empty())
      throw ToolchainError(std::string(kNoCompiler) + "\n($CXX is '" + cxx + "', and '" + words[0] +
                           "' is not an executable)");
    words[0] = found;
    return words;
  }
  for (const char* name : {"c++", "g++", "clang++"}) {
    std::string found = find_program(name);
    if (!found.empty()) return {found};
  }
  std::lock_guard<std::mutex> lock(g_fallback_mutex);
  for (const std::vector<std::string>& cmd : g_fallbacks)
    if (!cmd.empty() && is_executable_file(cmd[0])) return cmd;
  throw ToolchainError(kNoCompiler);
}

// The time limit of a compile (or flag probe) by `cmd`: longer for zig, whose first use builds
// its C++ library.
int compile_timeout_s(const std::vector<std::string>& cmd, int usual) {
  const std::string& exe = cmd.empty() ? std::string() : cmd[0];
  const bool zig = exe.size() >= 4 && exe.compare(exe.size() - 4, 4, "/zig") == 0;
  return zig ? kZigFirstUseTimeoutS : usual;
}

// A command line as a person would type it (for messages only; it is never given to a shell).
std::string show_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& w : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !w.empty() && w.find_first_of(" \t\n'\"\\$*?;&|<>()") == std::string::npos;
    if (plain) {
      out += w;
    } else {
      out += '\'';
      for (char c : w) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

struct ProcessResult {
  bool exited = false;  // normal exit (then `code`), else killed by `signal`
  int code = 0;
  int signal = 0;
  bool timed_out = false;
  std::string output;  // stdout and stderr interleaved, as a terminal would show them
};

// Closes a descriptor on every path out of run_process.
struct Fd {
  int fd = -1;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// Spawns argv (argv[0] a full path) with stdin from /dev/null and stdout+stderr into one pipe,
// collects the output and waits, killing the process group after `timeout_s`.
ProcessResult run_process(const std::vector<std::string>& argv, int timeout_s) {
  const std::string shown = show_command(argv);
  int fds[2];
  // O_CLOEXEC: a process spawned by another thread at the same time must not inherit the write
  // end, or we would wait for EOF until that unrelated process exits. dup2 in the child clears it.
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw ToolchainError("cannot create a pipe to run " + shown + ": " + errno_text(errno));
  Fd rd{fds[0]}, wr{fds[1]};

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  if (int rc = posix_spawn_file_actions_init(&actions))
    throw ToolchainError("posix_spawn_file_actions_init: " + errno_text(rc));
  if (int rc = posix_spawnattr_init(&attr)) {
    posix_spawn_file_actions_destroy(&actions);
    throw ToolchainError("posix_spawnattr_init: " + errno_text(rc));
  }
  sigset_t no_signals, default_signals;
  sigemptyset(&no_signals);
  sigemptyset(&default_signals);
  sigaddset(&default_signals, SIGPIPE);  // Python ignores SIGPIPE; the compiler should not
  int rc = 0;
  // stdin: the compiler reads nothing interactively, so give it nothing to wait on.
  if (!rc) rc = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (!rc) rc = posix_spawn_file_actions_adddup2(&actions, wr.fd, 1);
  if (!rc) rc = posix_spawn_file_actions_adddup2(&actions, wr.fd, 2);
  // Its own process group, so a timeout can kill the whole tree (ccache -> g++ -> cc1plus).
  if (!rc) rc = posix_spawnattr_setpgroup(&attr, 0);
  if (!rc) rc = posix_spawnattr_setsigmask(&attr, &no_signals);
  if (!rc) rc = posix_spawnattr_setsigdefault(&attr, &default_signals);
  if (!rc)
    rc = posix_spawnattr_setflags(
        &attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> cargv;
  for (const std::string& w : argv) cargv.push_back(const_cast<char*>(w.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = -1;
  if (!rc) rc = posix_spawn(&pid, cargv[0], &actions, &attr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    if (rc == ENOENT || rc == EACCES || rc == ENOEXEC)
      throw ToolchainError(std::string(kNoCompiler) + "\n(cannot run " + shown + ": " +
                           errno_text(rc) + ")");
    throw ToolchainError("cannot run " + shown + ": " + errno_text(rc));
  }
  wr.reset();  // only the child writes now; EOF comes when it (and its children) are done

  ProcessResult res;
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::seconds(timeout_s);
  auto ms_left = [&] {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    return left.count() > 0 ? int(std::min<long long>(left.count(), 1 << 30)) : 0;
  };
  bool truncated = false;
  char buf[1 << 16];
  auto stop = [&] {  // kills the compiler and waits for it, so nothing is left running
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {}
  };
  for (;;) {
    struct pollfd p { rd.fd, POLLIN, 0 };
    // Wake every 100 ms to let Ctrl-C stop a long compile (only Python's main thread polls).
    int n = ::poll(&p, 1, std::min(ms_left(), 100));
    if (interrupted()) {
      stop();
      throw rt::Interrupted();
    }
    if (n == 0 && ms_left() > 0) continue;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      stop();
      throw ToolchainError("poll failed while running " + shown + ": " + errno_text(err));
    }
    if (n == 0) {  // deadline passed
      res.timed_out = true;
      break;
    }
    ssize_t got = ::read(rd.fd, buf, sizeof buf);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) break;  // EOF (or a broken pipe): the process is done writing
    if (res.output.size() < kMaxOutput) {
      res.output.append(buf, std::size_t(got));
    } else {
      truncated = true;
    }
  }
  if (truncated) res.output += "\n[... further output cut by cujit ...]\n";

  // Reap it; if it closed its output but does not exit, the deadline still applies.
  int status = 0;
  for (;;) {
    if (res.timed_out || ms_left() == 0) {
      res.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);  // in case the group could not be set up
    }
    pid_t r = ::waitpid(pid, &status, res.timed_out ? 0 : WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno == EINTR) continue;
    if (r < 0)  // ECHILD: someone set SIGCHLD to SIG_IGN and the status is lost
      throw ToolchainError("cannot get the exit status of " + shown + ": " + errno_text(errno));
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  res.exited = WIFEXITED(status);
  res.code = res.exited ? WEXITSTATUS(status) : 0;
  res.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return res;
}

std::mutex g_version_mutex;
std::map<std::string, std::string> g_versions;  // compiler command -> version line

std::string version_of(const std::vector<std::string>& cmd) {
  const std::string id = show_command(cmd);
  {
    std::lock_guard<std::mutex> lock(g_version_mutex);
    auto it = g_versions.find(id);
    if (it != g_versions.end()) return it->second;
  }
  // Run outside the lock: two threads may both ask once, which is harmless.
  std::vector<std::string> argv = cmd;
  argv.push_back("--version");
  ProcessResult r = run_process(argv, kVersionTimeoutS);
  if (!r.exited || r.code != 0)
    throw ToolchainError("'" + show_command(argv) + "' failed" +
                         (r.timed_out ? std::string(" (timed out)") : std::string()) + ":\n" +
                         r.output);
  std::string line = r.output.substr(0, r.output.find('\n'));
  if (line.empty()) line = id;  // still a usable key part
  std::lock_guard<std::mutex> lock(g_version_mutex);
  g_versions.emplace(id, line);
  return line;
}

// Whether the compiler `cmd` accepts `flag`: each compiler differs (clang has no
// -mtls-dialect=gnu2; a clang without libomp cannot link -fopenmp), and every flag cujit adds
// beyond the base ones only makes code faster, so one it refuses is left out rather than making
// every build fail. A probe compiles and links a tiny shared object (with an OpenMP call for
// -fopenmp, so a missing runtime library is found too); its answer is kept per compiler identity
// (the command and its --version line) in memory and in the disk cache, so a process pays for
// it once per flag at most and a machine once per compiler.
std::mutex g_flag_mutex;
std::map<std::string, bool> g_flag_ok;  // identity + flag -> accepted

bool flag_needs_no_probe(const std::string& flag) {
  // Optimisation levels are understood by every compiler cujit can drive.
  return flag == "-O2" || flag == "-O3" || flag == "-lm";
}

bool compiler_accepts(const std::vector<std::string>& cmd, const std::string& flag);

std::vector<std::string> accepted_flags(const std::vector<std::string>& cmd,
                                        const std::vector<std::string>& flags) {
  // Flags this process has not asked about yet (an empty cache's first compile) are probed at
  // once, in parallel: the compile then waits for one probe, not for each in turn.
  std::vector<std::future<bool>> probes(flags.size());
  const std::string id = show_command(cmd) + "\n" + version_of(cmd) + "\n";
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (flag_needs_no_probe(flags[i])) continue;
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    if (g_flag_ok.count(id + flags[i])) continue;
    probes[i] = std::async(std::launch::async, [&cmd, f = flags[i]] { return compiler_accepts(cmd, f); });
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    const bool ok = flag_needs_no_probe(flags[i]) || (probes[i].valid() ? probes[i].get() : compiler_accepts(cmd, flags[i]));
    if (ok) out.push_back(flags[i]);
  }
  return out;
}

// Runs the compiler on `src_path`, writing `out_path`. Throws on any failure, `out_path` removed.
void run_compiler(const std::vector<std::string>& cmd, const std::vector<std::string>& flags,
                  const std::vector<std::string>& extra_flags, const std::string& src_path,
                  const std::string& out_path) {
  std::vector<std::string> argv = cmd;
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-o", out_path, "-x", "c++", src_path});
  // After the source: libraries (-lm) must follow what uses them; other flags work anywhere.
  argv.insert(argv.end(), extra_flags.begin(), extra_flags.end());
  g_compiler_runs.fetch_add(1, std::memory_order_relaxed);
  const int timeout_s = compile_timeout_s(cmd, kCompileTimeoutS);
  ProcessResult r = run_process(argv, timeout_s);
  const std::string shown = show_command(argv);
  if (r.exited && r.code == 0) {
    struct stat st {};
    if (::stat(out_path.c_str(), &st) == 0) return;
    throw ToolchainError("the C++ compiler reported success but wrote no " + out_path +
                         "\ncommand: " + shown + "\n" + r.output);
  }
  remove_file_quietly(out_path);
  if (r.timed_out)
    throw ToolchainError("the C++ compiler did not finish within " +
                         std::to_string(timeout_s) + " s and was stopped\ncommand: " + shown +
                         "\n" + r.output);
  if (!r.exited)  // a crash is the toolchain's problem, not the user's code
    throw ToolchainError("the C++ compiler was killed by signal " + std::to_string(r.signal) +
                         " (" + strsignal(r.signal) + ")\ncommand: " + shown + "\n" + r.output);
  throw HostCompileError("the C++ compiler rejected the generated code (exit status " +
                             std::to_string(r.code) + ")\ncommand: " + shown + "\n" + r.output,
                         r.output, shown);
}

namespace {
// Puts the floating-point environment back as it was when the scope ends. Why: a module compiled
// with -ffast-math (fastmath=True) carries GCC's crtfastmath.o, whose constructor turns on
// flush-to-zero and denormals-are-zero for the whole process when the module is loaded, so
// Python's and NumPy's own arithmetic on subnormal numbers changed after the first fastmath
// function (math.log(5e-324) raised "math domain error", float64 5e-324 * 1 gave 0). Numba's
// fastmath flags do not flush subnormals either: the code keeps its fast-math optimisations and
// runs in the process's environment.
struct KeepFloatEnvironment {
  fenv_t env;
#if defined(__x86_64__) || defined(__i386__)
  unsigned int mxcsr = _mm_getcsr();  // FTZ and DAZ live here, beside what fenv_t restores
#endif
  KeepFloatEnvironment() { fegetenv(&env); }
  ~KeepFloatEnvironment() {
    fesetenv(&env);
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(mxcsr);
#endif
  }
};
}  // namespace

std::shared_ptr<HostLibrary> load_library(const std::string& path, bool openmp) {
  KeepFloatEnvironment keep;
  // RTLD_NOW: unresolved symbols fail here, with a message, not at the first call.
  // RTLD_LOCAL: modules stay independent; two may define the same extern "C" names.
  // RTLD_NODELETE for OpenMP code (-fopenmp): libgomp's idle worker threads outlive the call, and
  // unloading the library under them crashed the process (a @jit function called, then a prange
  // function called and garbage-collected: SIGSEGV in libgomp).
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | (openmp ? RTLD_NODELETE : 0));
  if (handle == nullptr) {
    const char* err = ::dlerror();
    throw ToolchainError("cannot load the compiled module " + path + ": " +
                         (err ? err : "dlopen failed"));
  }
  return std::make_shared<HostLibrary>(handle, path);
}

// A private folder for one uncached build, removed with everything in it when done.
struct TempDir {
  std::string path;
  std::vector<std::string> files;
  TempDir() {
    const char* t = std::getenv("TMPDIR");
    std::string pattern = std::string((t && *t) ? t : "/tmp") + "/cujit-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr)
      throw ToolchainError("cannot create a temporary folder " + pattern + ": " + errno_text(errno));
    path = buf.data();
  }
  std::string file(const std::string& name) {
    files.push_back(path + "/" + name);
    return files.back();
  }
  ~TempDir() {
    for (const std::string& f : files) remove_file_quietly(f);
    (void)::rmdir(path.c_str());  // best effort: a leftover empty folder in /tmp is harmless
  }
};

bool compiler_accepts(const std::vector<std::string>& cmd, const std::string& flag) {
  const std::string version = version_of(cmd);
  const std::string id = show_command(cmd) + "\n" + version + "\n" + flag;
  {
    std::lock_guard<std::mutex> lock(g_flag_mutex);
    auto it = g_flag_ok.find(id);
    if (it != g_flag_ok.end()) return it->second;
  }
  const std::string key = cache_key({"cujit-flag-probe-1", id});
  std::optional<bool> ok;
  if (auto hit = cache_get(key, "flag"); hit && (*hit == "1" || *hit == "0")) ok = *hit == "1";
  // Asked when cujit was built, of the same compiler (its command and version are in the key).
  if (auto hit = seed_get(key, "flag"); !ok && hit && (*hit == "1" || *hit == "0")) ok = *hit == "1";
  if (!ok) {
    TempDir dir;
    std::string src = dir.file("probe.cpp"), out = dir.file("probe.so");
    write_file_atomic(src, flag == "-fopenmp" ? "#include <omp.h>\nint cj_probe() { return omp_get_max_threads(); }\n"
                                              : "int cj_probe() { return 0; }\n");
    std::vector<std::string> argv = cmd;
    argv.insert(argv.end(), {"-fPIC", "-shared", flag, "-o", out, "-x", "c++", src});
    ProcessResult r = run_process(argv, compile_timeout_s(cmd, kVersionTimeoutS));
    struct stat st {};
    ok = r.exited && r.code == 0 && ::stat(out.c_str(), &st) == 0;
    if (r.timed_out || !r.exited) return false;  // not the flag's fault: ask again next time
    try {
      cache_put(key, "flag", *ok ? "1" : "0");
    } catch (const ToolchainError&) {
      // An unwritable cache is reported by the build that stores its binary, not by a probe.
    }
  }
  std::lock_guard<std::mutex> lock(g_flag_mutex);
  g_flag_ok.emplace(id, *ok);
  return *ok;
}

// ---- The precompiled prelude (issue 23: the first call of a new @jit function).
// Parsing the prelude (its system headers and ~4,000 lines of cj::) was three quarters of the host
// compiler's time for a small function. GCC reads a precompiled header instead when the first
// line of the translation unit includes a header whose `.gch` lies beside it: the prelude is
// compiled once per machine into the disk cache (<key>.h and <key>.h.gch, keyed by the prelude
// text, every flag and the compiler; ~35 MB each), and each program is compiled as
// `#include "<key>.h"` + its generated code. The machine code is the same as from the whole
// text (tests/test_host_pch.py compares), so the library's cache key does not name the PCH.
// GCC only: clang's precompiled headers are another format. CUJIT_HOST_PCH=0 turns it off.
std::mutex g_pch_mutex;
std::map<std::string, bool> g_pch_refused;  // compiler identity -> its PCH failed in this process

bool host_pch_enabled(const std::string& version) {
  const char* env = std::getenv("CUJIT_HOST_PCH");
  if (env && std::string(env) == "0") return false;
  return version.find("clang") == std::string::npos;
}

// CUJIT_HOST_PCH=wait: a missing precompiled prelude is built before the module that needs it
// (as before the background build; tests that look at the header itself use it).
bool host_pch_wait() {
  const char* env = std::getenv("CUJIT_HOST_PCH");
  return env && std::string(env) == "wait";
}

// Starts `argv` (which writes the precompiled header `tmp`) in the background, detached from
// this process: a shell runs it and renames `tmp` to `gch` when it succeeds, so the header is
// complete even where this process exits first (a script that compiles one function and ends),
// and a failed or killed build leaves no file behind. `<gch>.building` claims the build, so that
// processes starting together do not all build it; a claim older than kStaleClaimS is a build
// that died. Its own process group: a Ctrl-C at the terminal stops this process, not the build.
// Any failure to start it only means the next module compiles from the whole text again.
constexpr int kStaleClaimS = 600;
void build_pch_detached(const std::vector<std::string>& argv, const std::string& tmp, const std::string& gch) {
  const std::string claim = gch + ".building";
  for (int attempt = 0; attempt < 2; ++attempt) {
    int fd = ::open(claim.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      ::close(fd);
      break;
    }
    struct stat st {};
    if (errno != EEXIST || ::stat(claim.c_str(), &st) != 0) return;
    if (::time(nullptr) - st.st_mtime < kStaleClaimS) return;  // being built
    remove_file_quietly(claim);
    if (attempt == 1) return;
  }
  // $1 the output, $2 the header's final name, $3 the claim; then the compiler's argv. ulimit -t
  // bounds a hung compiler's CPU time as run_process's timeout does for the others; nice keeps
  // it from slowing the compile the user waits for on a busy machine.
  std::vector<std::string> sh{"/bin/sh", "-c",
                              "t=$1 g=$2 m=$3; shift 3; ulimit -t " + std::to_string(kCompileTimeoutS) +
                                  " 2>/dev/null; command -v nice >/dev/null 2>&1 && set -- nice -n 19 \"$@\"; "
                                  "\"$@\" >/dev/null 2>&1 && mv -f \"$t\" \"$g\"; rm -f \"$t\" \"$m\"",
                              "sh", tmp, gch, claim};
  sh.insert(sh.end(), argv.begin(), argv.end());
  std::vector<char*> cargv;
  for (const std::string& w : sh) cargv.push_back(const_cast<char*>(w.c_str()));
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  if (posix_spawn_file_actions_init(&actions) != 0) return remove_file_quietly(claim);
  if (posix_spawnattr_init(&attr) != 0) {
    posix_spawn_file_actions_destroy(&actions);
    return remove_file_quietly(claim);
  }
  sigset_t no_signals, default_signals;
  sigemptyset(&no_signals);
  sigemptyset(&default_signals);
  sigaddset(&default_signals, SIGPIPE);
  int rc = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (!rc) rc = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  if (!rc) rc = posix_spawn_file_actions_adddup2(&actions, 1, 2);
  if (!rc) rc = posix_spawnattr_setpgroup(&attr, 0);
  if (!rc) rc = posix_spawnattr_setsigmask(&attr, &no_signals);
  if (!rc) rc = posix_spawnattr_setsigdefault(&attr, &default_signals);
  if (!rc) rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  if (!rc) rc = posix_spawn(&pid, cargv[0], &actions, &attr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return remove_file_quietly(claim);
  // Reaped by a thread of its own while this process lives (no zombie); once it exits, init.
  std::thread([pid] {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }).detach();
}

// The flags a header is compiled with: the module's, less what only the link uses.
std::vector<std::string> pch_flags(const std::vector<std::string>& flags, const std::vector<std::string>& extra) {
  std::vector<std::string> out;
  for (const std::vector<std::string>* list : {&flags, &extra})
    for (const std::string& f : *list)
      if (f != "-shared" && f.compare(0, 2, "-l") != 0) out.push_back(f);
  return out;
}

// The precompiled header a module includes: `header` (its .gch beside it) under `key`, from the
// seed (made when cujit was built) or the cache; `header` "" when none can be used now.
struct PreludePch {
  std::string header, key;
  bool seeded = false;
};

// The seed's header for `key`, unless a compile through it failed before on this machine (the
// seed is read only, so the failure is remembered in the cache): "" then, or when it has none.
// Its checksum is checked once per process and header (~20 MB, mapped: ~3 ms).
std::map<std::string, std::string> g_seed_checked;  // key -> header or "", guarded by g_pch_mutex

std::string seeded_pch(const std::string& key) {
  if (cache_get(key, "seedbad")) return "";
  {
    std::lock_guard<std::mutex> lock(g_pch_mutex);
    if (auto it = g_seed_checked.find(key); it != g_seed_checked.end()) return it->second;
  }
  std::string header;
  if (!seed_file_valid(key, "h.gch").empty()) {  // checksummed: a damaged body may compile
    header = seed_dir() + "/" + key.substr(0, 2) + "/" + key + ".h";
    struct stat st {};
    if (::stat(header.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) header.clear();
  }
  std::lock_guard<std::mutex> lock(g_pch_mutex);
  g_seed_checked[key] = header;
  return header;
}

// The header to use for `prelude`: where neither the seed nor the cache has it, it is built into
// the cache in the background (or now, CUJIT_HOST_PCH=wait), and "" is returned meanwhile.
PreludePch prelude_pch(const std::vector<std::string>& cmd, const std::vector<std::string>& flags,
                       const std::vector<std::string>& extra, std::string_view prelude) {
  const std::string version = version_of(cmd);
  const std::string identity = show_command(cmd) + "\n" + version;
  if (!host_pch_enabled(version)) return {};
  {
    std::lock_guard<std::mutex> lock(g_pch_mutex);
    if (g_pch_refused.count(identity)) return {};
  }
  const std::vector<std::string> hflags = pch_flags(flags, extra);
  std::vector<std::string> parts{"cujit-host-pch-1", std::string(prelude), identity};
  parts.insert(parts.end(), hflags.begin(), hflags.end());
  const std::string key = cache_key_list(parts);
  if (!cache_enabled()) {  // CUJIT_DISABLE_CACHE: the seed's header, read only, or none
    std::string seeded = seeded_pch(key);
    return {seeded, key, !seeded.empty()};
  }
  const std::string header = cache_path(key, "h"), gch = cache_path(key, "h.gch");
  struct stat st {};
  if (::stat(gch.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      ::stat(header.c_str(), &st) == 0)
    return {header, key, false};
  if (!host_pch_wait())
    if (std::string seeded = seeded_pch(key); !seeded.empty()) return {seeded, key, true};
  write_file_atomic(header, std::string(prelude));
  const std::string tmp = unique_temp_name(gch);
  std::vector<std::string> argv = cmd;
  argv.insert(argv.end(), hflags.begin(), hflags.end());
  argv.insert(argv.end(), {"-x", "c++-header", header, "-o", tmp});
  if (!host_pch_wait()) {
    // The first module of this prelude compiles from the whole text now while the header is
    // precompiled beside it for later modules (building it first cost ~2 whole compiles).
    build_pch_detached(argv, tmp, gch);
    return {};
  }
  ProcessResult r = run_process(argv, compile_timeout_s(cmd, kCompileTimeoutS));
  if (r.exited && r.code == 0 && ::stat(tmp.c_str(), &st) == 0 && ::rename(tmp.c_str(), gch.c_str()) == 0) {
    cache_put_sum(gch);  // what a seed needs (tools/build_host_seed.py copies it from here)
    return {header, key, false};
  }
  remove_file_quietly(tmp);
  if (interrupted()) throw rt::Interrupted();
  std::lock_guard<std::mutex> lock(g_pch_mutex);
  g_pch_refused[identity] = true;  // the whole text still compiles: only slower
  return {};
}

// Builds `source` into `out_path` through the precompiled prelude where one can be had; any
// failure there is retried with the whole text, whose result (or error) is the answer.
void run_compiler_pch(const std::vector<std::string>& cmd, const std::vector<std::string>& flags,
                      const std::vector<std::string>& extra, const std::string& source,
                      std::size_t prelude_len, const std::string& src_path, const std::string& out_path) {
  PreludePch pch;
  if (prelude_len > 0 && prelude_len <= source.size()) {
    try {
      pch = prelude_pch(cmd, flags, extra, std::string_view(source).substr(0, prelude_len));
    } catch (const ToolchainError&) {
      pch = {};  // an unwritable cache: the whole text below reports it, or works
    }
  }
  if (!pch.header.empty()) {
    const std::string unit = unique_temp_name(src_path);
    // A .gch that GCC finds unusable (another compiler binary with the same --version line, other
    // options) makes it parse the header's text instead, which is correct but slow: an error here
    // instead, so that the fallback below forgets the header.
    std::vector<std::string> with_check = extra;
    with_check.push_back("-Werror=invalid-pch");
    try {
      write_file_atomic(unit, "#include \"" + pch.header + "\"\n" + source.substr(prelude_len));
      run_compiler(cmd, flags, with_check, unit, out_path);
      remove_file_quietly(unit);
      return;
    } catch (const rt::Interrupted&) {
      remove_file_quietly(unit);
      throw;
    } catch (const ToolchainError&) {
      remove_file_quietly(unit);
      if (interrupted()) throw rt::Interrupted();
    }
    run_compiler(cmd, flags, extra, src_path, out_path);
    // The whole text compiled where the header did not: the header is at fault. The seed's is
    // read only: the cache remembers not to use it (and the next module builds the cache's own);
    // the cache's is removed, and no header is used again in this process.
    if (pch.seeded) {
      {
        std::lock_guard<std::mutex> lock(g_pch_mutex);
        g_seed_checked[pch.key] = "";
      }
      try {
        cache_put(pch.key, "seedbad", "1");  // a no-op where the cache is disabled
      } catch (const ToolchainError&) {
      }
      return;
    }
    remove_file_quietly(pch.header + ".gch");
    std::lock_guard<std::mutex> lock(g_pch_mutex);
    g_pch_refused[show_command(cmd) + "\n" + version_of(cmd)] = true;
    return;
  }
  run_compiler(cmd, flags, extra, src_path, out_path);
}

}  // namespace

HostLibrary::~HostLibrary() {
  if (handle_) (void)::dlclose(handle_);  // nothing to report from a destructor
}

void* HostLibrary::symbol(const std::string& name) const {
  ::dlerror();  // clear, so a stale message is not reported
  void* p = ::dlsym(handle_, name.c_str());
  if (p == nullptr) {
    const char* err = ::dlerror();
    throw ToolchainError("symbol '" + name + "' not found in " + path_ +
                         (err ? std::string(": ") + err : std::string()));
  }
  return p;
}

void set_interrupt_poll(bool (*poll)()) { g_interrupt_poll.store(poll); }
bool interrupt_poll_installed() { return g_interrupt_poll.load() != nullptr; }
bool interrupt_requested() { return interrupted(); }

std::vector<std::string> host_compiler_command() { return resolve_compiler(); }

void set_compiler_fallbacks(const std::vector<std::vector<std::string>>& commands) {
  std::lock_guard<std::mutex> lock(g_fallback_mutex);
  g_fallbacks = commands;
}

std::string host_compiler_version() { return version_of(resolve_compiler()); }

std::uint64_t host_compiler_runs() { return g_compiler_runs.load(std::memory_order_relaxed); }

std::shared_ptr<HostLibrary> host_compile(const std::string& source,
                                          const std::vector<std::string>& wanted_flags,
                                          std::size_t prelude_len) {
  const std::vector<std::string> cmd = resolve_compiler();
  const std::vector<std::string> flags = base_flags();
  std::vector<std::string> wanted = wanted_flags;
  // GNU gold links a module in a third of ld.bfd's time (~0.1 s of a first call); where the
  // compiler or the machine has none, the probe leaves the flag out and ld links as before.
  wanted.push_back("-fuse-ld=gold");
  const std::vector<std::string> extra_flags = accepted_flags(cmd, wanted);
  const bool openmp = std::find(extra_flags.begin(), extra_flags.end(), "-fopenmp") != extra_flags.end();

  if (!cache_enabled()) {
    TempDir dir;
    std::string src = dir.file("module.cpp"), out = dir.file("module.so");
    write_file_atomic(src, source);
    run_compiler_pch(cmd, flags, extra_flags, source, prelude_len, src, out);  // the seed's header only
    return load_library(out, openmp);  // the file may go once loaded: the mapping stays
  }

  // Everything that changes the binary is in the key: the source, every flag, the compiler.
  std::vector<std::string> parts{without_line_files(source)};
  parts.insert(parts.end(), flags.begin(), flags.end());
  parts.insert(parts.end(), extra_flags.begin(), extra_flags.end());
  parts.push_back(version_of(cmd));
  parts.push_back(kCacheVersion);
  const std::string key = cache_key_list(parts);

  if (cache_file_valid(key, "so")) {
    std::string path = cache_path(key, "so");
    try {
      return load_library(path, openmp);
    } catch (const ToolchainError&) {
      // Intact but unloadable (e.g. a cache folder shared with another machine): rebuild it.
      remove_file_quietly(path);
      remove_file_quietly(path + ".sum");
    }
  }
  // The source goes beside the binary, readable, for whoever debugs the generated code.
  cache_put_text(key, "cpp", source);
  const std::string src = cache_path(key, "cpp");
  const std::string tmp = unique_temp_name(cache_path(key, "so"));
  run_compiler_pch(cmd, flags, extra_flags, source, prelude_len, src, tmp);
  return load_library(cache_adopt_file(key, "so", tmp), openmp);
}

}  // namespace cujit::toolchain
