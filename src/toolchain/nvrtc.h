// NVRTC: compiles generated CUDA C++ to PTX or CUBIN in-process.
//
// libnvrtc is not linked: it is opened with dlopen on first use, looking in the folders given by
// set_library_search_paths (Python passes the pip nvidia-cuda-nvrtc wheel's lib folders), then
// $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64, then the plain loader path, trying
// libnvrtc.so.13, libnvrtc.so.12, libnvrtc.so in each. So cujit imports and runs the simulator on
// machines without CUDA, and a GPU user can get NVRTC from pip alone. Results are not cached here:
// the pipeline caches them (toolchain/cache.h) under a key it knows the inputs of.
//
// All functions are thread-safe (NVRTC itself is, per program; the library is loaded once).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "abi/errors.h"

namespace cujit::rt {

/// NVRTC rejected the generated source (or an option). `log` is NVRTC's log, verbatim: the pipeline
/// maps its "file.py(LINE): error: ..." lines (from the #line directives in the generated code)
/// back to the user's Python lines.
class NvrtcCompileError : public ToolchainError {
 public:
  NvrtcCompileError(const std::string& message, std::string log, std::string program_name,
                    std::string arch, int code)
      : ToolchainError(message), log(std::move(log)), program_name(std::move(program_name)),
        arch(std::move(arch)), code(code) {}
  std::string log;           // NVRTC's full program log
  std::string program_name;  // as passed to nvrtc_compile
  std::string arch;          // e.g. "sm_90"
  int code;                  // the nvrtcResult, e.g. 6 (NVRTC_ERROR_COMPILATION)
};

}  // namespace cujit::rt

namespace cujit::toolchain {

/// What NVRTC produced: a CUBIN for a real arch ("sm_90"), PTX for a virtual one ("compute_90").
struct NvrtcOutput {
  std::string image;  // the CUBIN bytes, or the PTX text (without the trailing NUL)
  bool is_cubin;
  std::string log;    // warnings (usually empty)
  std::string pch;    // "created" or "used" when the header's precompiled header was, else ""
};

/// Folders to search for libnvrtc before the standard places. Only has an effect before the first
/// NVRTC call (the library is loaded once per process).
void set_library_search_paths(const std::vector<std::string>& dirs);

/// Loads NVRTC if needed and returns the path it was loaded from (diagnostics, `cujit --info`).
/// Throws rt::ToolchainError listing every place tried when it cannot be found or loaded; the
/// failure is remembered, later calls throw the same error.
std::string nvrtc_library_path();

/// Compiles `header` + `source`. `program_name` (e.g. the user's file name) names the program in
/// NVRTC's messages for lines without a #line directive. `arch`: "sm_XY" gives a CUBIN
/// (nvrtcGetCUBIN), "compute_XY" gives PTX (nvrtcGetPTX). `extra_options` are appended verbatim
/// (e.g. "-lineinfo"). `header` (the prelude; may be empty) is given to NVRTC as a header that the
/// program includes first, so that with NVRTC 12.8+ and `allow_pch` the process's precompiled
/// header for it is made or used (toolchain/nvrtc_pch.h); the result is the same either way.
/// `allow_minimal`: with 12.8+, -minimal (a smaller built-in header). Both flags are for
/// benchmarks and tests; compiles leave them on.
/// Throws rt::NvrtcCompileError when compilation fails, rt::ToolchainError when NVRTC cannot be
/// loaded or misbehaves, or when `arch` has neither prefix. Where the bindings installed an
/// interrupt poll (set_interrupt_poll), NVRTC runs on a thread of its own and Ctrl-C throws
/// rt::Interrupted at once; that compile finishes in the background and its result is dropped.
NvrtcOutput nvrtc_compile(const std::string& source, const std::string& program_name,
                          const std::string& arch, const std::vector<std::string>& extra_options,
                          const std::string& header = std::string(), bool allow_pch = true,
                          bool allow_minimal = true);

/// Starts writing the precompiled header of `header` for compiles with the arch `arch` returns,
/// `extra_options` and `allow_minimal` (as nvrtc_compile takes them) on the background thread,
/// which calls `arch` and loads NVRTC there: the warm-up a process's first GPU context starts. Nothing happens when PCH is off, when
/// that PCH exists or is being made, or at exit; errors are dropped (a compile reports its own).
void nvrtc_prepare_pch(const std::string& header, std::function<std::string()> arch,
                       const std::vector<std::string>& extra_options = {}, bool allow_minimal = true);

/// Interpreter exit: no new background job; the queued ones are dropped, the running one is
/// cancelled (NVRTC 12.8+'s flow callback; an older NVRTC finishes it) and its thread joined.
void nvrtc_background_shutdown();

/// Tests and benchmarks: waits until the background thread has nothing queued or running; false
/// after `max_seconds`.
bool nvrtc_background_idle(double max_seconds);

/// Interpreter exit: waits (at most `max_seconds`) until no compile runs in any thread (those
/// Ctrl-C left running included), so that none is inside NVRTC when exit() unloads it. False when
/// one still runs after that.
bool wait_running_compiles(int max_seconds);

/// "13.0": the loaded NVRTC's version.
std::string nvrtc_version();

/// The NVRTC that would be loaded, without loading it (its real path, size and time; the version
/// when only the system loader finds it): part of cache keys, so that a new NVRTC recompiles
/// everything while a cache hit never waits for loading a 100 MB library (the warm-up at the first
/// GPU context loads it on NVRTC's background thread, nvrtc_prepare_pch).
std::string nvrtc_identity();

/// The architectures the loaded NVRTC can target, as numbers (75, 80, ..., 120), ascending.
std::vector<int> nvrtc_supported_archs();

/// The arch to compile for a device of compute capability cc_major.cc_minor: its own if NVRTC
/// supports it, else the highest supported one below it. "sm_XY" when `cubin`, else "compute_XY".
/// A CUBIN only runs on the same major version, so a caller whose device is newer than anything
/// NVRTC knows (the result's number differs in major) should ask for PTX, which the driver JITs.
/// Throws rt::ToolchainError when the device is older than every supported arch.
std::string best_arch(int cc_major, int cc_minor, bool cubin);

/// best_arch through the disk cache (keyed by nvrtc_identity), so a process whose kernels are all
/// cached does not load NVRTC for it.
std::string best_arch_cached(int cc_major, int cc_minor, bool cubin);

}  // namespace cujit::toolchain
