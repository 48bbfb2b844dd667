// The disk cache: compiled kernels (PTX/CUBIN from NVRTC) and host shared objects survive the
// process, so a second run of the same program compiles nothing.
//
// Folder: $CUJIT_CACHE_DIR, else $XDG_CACHE_HOME/cujit, else ~/.cache/cujit (created on demand).
// CUJIT_DISABLE_CACHE=1 turns every read and write off.
//
// Layout: <dir>/<key[0:2]>/<key>.<ext>. Two kinds of entries:
//   * blobs (cache_get/cache_put): a header ("CUJIT1", payload length, 64-bit checksum) then the
//     payload; a file that does not check out is a miss and is removed, never returned.
//   * files that must exist on disk as themselves (a .so for dlopen: cache_put_file/cache_file_valid):
//     the raw bytes, with the checksum beside them in <key>.<ext>.sum.
// Every write goes to a unique temp file in the same folder and is renamed into place, so several
// processes and threads may write the same key at once and a reader never sees half a file.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cujit::toolchain {

/// 32 hex characters: a 128-bit hash over all parts, each prefixed by its length (so {"ab","c"}
/// and {"a","bc"} differ). NOT cryptographic: it only has to make accidental collisions between
/// honest inputs practically impossible; nobody is expected to forge cache entries.
std::string cache_key(std::initializer_list<std::string_view> parts);
/// The same hash over a list built at run time (e.g. source + a variable number of flags).
/// Generated source as the cache key sees it: `#line N "file"` directives lose the file name.
/// Only messages and debug information name the file, and the same function defined in a new
/// Jupyter kernel (whose cells are /tmp/ipykernel_<pid>/...) must find its cached binary.
std::string without_line_files(std::string_view source);

/// cache_key({a, b}) == cache_key_list({a, b}).
std::string cache_key_list(const std::vector<std::string>& parts);

/// 64-bit checksum of `data` (integrity of cache entries, not security).
std::uint64_t checksum64(std::string_view data);

/// False when CUJIT_DISABLE_CACHE is set to anything but "" or "0". Read on every call.
bool cache_enabled();

/// The cache folder as configured now (not created). Throws rt::ToolchainError if no folder can be
/// named ($HOME unknown and none of the variables set).
std::string cache_dir();

/// The payload stored under (key, ext), or nullopt on a miss, a damaged entry (removed) or when the
/// cache is disabled. Never throws for an unreadable entry: the cache is only an optimisation.
std::optional<std::string> cache_get(const std::string& key, const std::string& ext);

/// Stores `data` under (key, ext) atomically (temp file + rename). No-op when disabled. Throws
/// rt::ToolchainError when the folder cannot be created or written (the message names the folder
/// and says how to move or disable the cache).
void cache_put(const std::string& key, const std::string& ext, const std::string& data);

/// Keeps a readable text (generated .cu / .cpp source) beside the binaries: raw file, no header.
/// No-op when disabled. Same errors as cache_put.
void cache_put_text(const std::string& key, const std::string& ext, const std::string& text);

/// Path of the raw file for (key, ext), its subfolder created. For files that must exist as
/// themselves. Requires cache_enabled() (throws rt::ToolchainError otherwise: a caller bug).
std::string cache_path(const std::string& key, const std::string& ext);

/// Stores `data` as the raw file cache_path(key, ext) plus its checksum in "<that>.sum", both
/// atomically. No-op when disabled.
void cache_put_file(const std::string& key, const std::string& ext, const std::string& data);

/// Moves an already written file `tmp_path` (same folder, e.g. a compiler's output) into place as
/// cache_path(key, ext), storing its checksum beside it. Returns the final path.
std::string cache_adopt_file(const std::string& key, const std::string& ext,
                             const std::string& tmp_path);

/// True when cache_path(key, ext) exists and matches its stored checksum. A file without a valid
/// .sum or with a wrong one is removed (with its .sum) and false is returned.
bool cache_file_valid(const std::string& key, const std::string& ext);

// ---- The seed: a read-only folder laid out as the cache, made when cujit was built (the host
// compiler's precompiled prelude and its flag probes' answers for the compiler found then;
// tools/build_host_seed.py), so that an empty cache's first @jit compile finds them ready.

/// $CUJIT_HOST_PCH_SEED when set ("0": no seed), else `_host_pch` beside the extension; "" for none.
std::string seed_dir();
/// A blob entry (cache_put's format) from the seed; nullopt when absent or damaged.
std::optional<std::string> seed_get(const std::string& key, const std::string& ext);
/// The path of the seed's raw file for (key, ext) when it matches the checksum in its .sum
/// (it is read whole: a precompiled header with a damaged body can compile without an error);
/// "" when absent, unchecked or damaged.
std::string seed_file_valid(const std::string& key, const std::string& ext);
/// Writes `<path>.sum` for the (large) file at `path`, the checksum seed_file_valid checks.
void cache_put_sum(const std::string& path);

// ---- small file helpers shared by the toolchain (all throw rt::ToolchainError on failure) ----

/// Whole file as bytes; nullopt if it does not exist.
std::optional<std::string> read_file(const std::string& path);
/// Writes `data` to `path` through a unique temp file in the same folder + rename(2).
void write_file_atomic(const std::string& path, const std::string& data);
/// A temp file name next to `path`, unique across processes and threads (pid, thread, counter).
std::string unique_temp_name(const std::string& path);
/// mkdir -p with mode 0755; an existing directory is fine.
void make_dirs(const std::string& path);
/// unlink that ignores "does not exist"; other failures are ignored too (best effort cleanup).
void remove_file_quietly(const std::string& path);

}  // namespace cujit::toolchain
