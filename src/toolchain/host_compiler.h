// The host toolchain: builds generated C++ (CPU target and the CUDA simulator) into a shared object
// with the system C++ compiler, keeps it in the disk cache (toolchain/cache.h) and dlopens it.
//
// Compiler: $CXX if set (split on spaces, so "ccache g++" works; no shell quoting), else the first
// of c++, g++, clang++ on $PATH. It is run with posix_spawn (no shell), its output captured, with a
// 300 s limit. A library whose key (source, flags, compiler version) is already cached is loaded
// without compiling.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "abi/errors.h"

namespace cujit::rt {

/// The host compiler rejected the generated code. `output` is everything it printed (stdout and
/// stderr, verbatim: the pipeline maps "file.py:LINE:" lines back to the user's code); `command`
/// is the command line that was run.
class HostCompileError : public ToolchainError {
 public:
  HostCompileError(const std::string& message, std::string output, std::string command)
      : ToolchainError(message), output(std::move(output)), command(std::move(command)) {}
  std::string output;
  std::string command;
};

}  // namespace cujit::rt

namespace cujit::toolchain {

/// A loaded shared object; dlclosed when the last shared_ptr goes away, so keep it alive while any
/// function pointer taken from it may still be called.
class HostLibrary {
 public:
  HostLibrary(void* handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  HostLibrary(const HostLibrary&) = delete;
  HostLibrary& operator=(const HostLibrary&) = delete;
  ~HostLibrary();

  /// The address of `name` (an extern "C" symbol). Throws rt::ToolchainError if it is absent.
  void* symbol(const std::string& name) const;
  /// Where it was loaded from (in the cache; a removed temp file when the cache is disabled).
  const std::string& path() const { return path_; }

 private:
  void* handle_;
  std::string path_;
};

/// Compiles `source` with -std=c++20 -O2 -fPIC -shared -fno-math-errno plus `extra_flags` (after
/// the source, so "-lm" works), or loads the cached result. An extra flag the compiler refuses
/// (probed once per compiler, e.g. clang and -mtls-dialect=gnu2) is left out: each only speeds up. Throws rt::HostCompileError on a
/// compile error, rt::ToolchainError when no compiler is found ("no C++ compiler found: ..."), it
/// crashes or times out, or the library cannot be loaded. The first `prelude_len` bytes of
/// `source` are the prelude: with GCC and the disk cache it is precompiled once (a .gch in the
/// cache) and each program then compiles only its own code; the machine code is the same.
std::shared_ptr<HostLibrary> host_compile(const std::string& source,
                                          const std::vector<std::string>& extra_flags,
                                          std::size_t prelude_len = 0);

/// First line of `<compiler> --version`, e.g. "g++ (Debian 12.2.0-14) 12.2.0"; part of the cache
/// key. Cached per compiler command. Throws rt::ToolchainError when no compiler is found.
std::string host_compiler_version();

/// The compiler command that host_compile would run now, as argv words (e.g. {"ccache", "g++"}).
std::vector<std::string> host_compiler_command();

/// Compilers to use when $CXX is unset and neither c++, g++ nor clang++ is on $PATH, in order, as
/// argv words with a full path first (the Python layer passes ziglang's {".../zig", "c++"} when
/// that package is installed: a compiler pip can install, where Numba needs none).
void set_compiler_fallbacks(const std::vector<std::vector<std::string>>& commands);

/// Ctrl-C: while the compiler runs, `poll` is called every 100 ms (the bindings run Python's
/// signal handlers on the main thread); when it returns true the compiler is killed and
/// rt::Interrupted thrown.
void set_interrupt_poll(bool (*poll)());
/// Whether a poll is installed, and what it says now (false without one): for NVRTC's wait.
bool interrupt_poll_installed();
bool interrupt_requested();

/// How many times this process has run the compiler to build something (not --version). For tests
/// and `cujit --stats`: a cache hit leaves it unchanged.
std::uint64_t host_compiler_runs();

}  // namespace cujit::toolchain
