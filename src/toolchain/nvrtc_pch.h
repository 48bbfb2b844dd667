// NVRTC precompiled headers (CUDA 12.8+) for the prelude: the bookkeeping behind nvrtc_compile.
//
// Every GPU program starts with the same prelude (src/prelude/cuda.h + common.h). nvrtc_compile
// passes it to NVRTC as a header, so that the first compile of a process for given options can
// write the state after it to a PCH file (--create-pch) and later compiles with the same options
// load that instead of parsing NVRTC's built-in header and the prelude again (--use-pch).
//
// A PCH file only works in the process that made it: NVRTC maps it at the address of its PCH heap,
// which differs between processes (it rejects another process's file with warning 20282). So the
// files are process scratch, not disk-cache entries: they live in a private folder
// ($TMPDIR or /tmp)/cujit-pch-<pid>-XXXXXX (mode 0700), removed at exit; a new process first
// removes the folders of processes that no longer run. NVRTC maps the file and crashes on a
// truncated or altered one, so each use first checks that the file is still the one NVRTC wrote
// (device, inode, size, modification time); one that is not is dropped and the compile goes on
// without it. CUJIT_NVRTC_PCH=0 turns all this off. A forked child does not use its parent's.
//
// Thread-safe: one mutex guards the table; compiles themselves run outside it.
#pragma once
#include <string>
#include <vector>

namespace cujit::toolchain {

/// What one compile does with the PCH of its (header, options).
struct PchTicket {
  enum class Role { None, Create, Use };
  Role role = Role::None;
  std::string key;   // cache_key of the header text and every option
  std::string path;  // the PCH file (Create: to write, Use: to read)
};

/// False when CUJIT_NVRTC_PCH is "0", "false", "off" or "no" (read on every call), or in a forked
/// child of the process that first used PCH.
bool pch_enabled();

/// The role of a compile whose header is `header` and whose options are exactly `options`
/// (NVRTC refuses a PCH made with other options): Use when a checked file exists; Create when
/// there is none and no other thread is making it (the caller makes it, or hands the ticket to
/// the background maker, nvrtc.cpp); None when disabled, when making it failed before, when
/// another thread is still making it after waiting for it (2 s, or CUJIT_NVRTC_PCH_WAIT ms), or
/// when the folder cannot be created.
PchTicket pch_begin(const std::string& header, const std::vector<std::string>& options);

/// A Create ticket when no PCH of (header, options) exists or is being made, else None; never
/// waits and never counts a use (the background maker's warm-up job).
PchTicket pch_reserve(const std::string& header, const std::vector<std::string>& options);

/// After a Create compile: `ok` says whether NVRTC wrote the file (nvrtcGetPCHCreateStatus).
/// A failure is remembered: that key is compiled without PCH for the rest of the process.
void pch_created(const PchTicket& t, bool ok);

/// After a Use compile that NVRTC did not accept the file for (a warning in its log, or an
/// error the same program without PCH does not have): the file is removed and forgotten, and the
/// next compile makes a new one.
void pch_discard(const PchTicket& t);

/// Counters since the process started, and the folder and its .pch files (tests, benchmarks).
struct PchStats {
  int created = 0;    // files written
  int used = 0;       // compiles that loaded one
  int discarded = 0;  // files dropped: changed on disk, or refused by NVRTC
  int failed = 0;     // creations that produced no file
  std::string folder; // empty until the first file is made
  std::vector<std::string> files;
};
PchStats pch_stats();

}  // namespace cujit::toolchain
