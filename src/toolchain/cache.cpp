// The disk cache (see cache.h for the layout and the guarantees), its hash and the file helpers.
#include "toolchain/cache.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <pwd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include "abi/errors.h"

namespace cujit::toolchain {
namespace {

using rt::ToolchainError;

// ---------------------------------------------------------------------------------------------
// Hashing. Two 64-bit lanes, each a multiply/rotate mix over 8-byte words with its own constants,
// finished with a murmur-style avalanche; together they give 128 bits. Fast and well spread, but
// not cryptographic (see cache.h).

constexpr std::uint64_t kM1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t kM2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t kM3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t kM4 = 0x85EBCA77C2B2AE63ULL;

inline std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline std::uint64_t avalanche(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDULL;
  x ^= x >> 29;
  x *= 0xC4CEB9FE1A85EC53ULL;
  x ^= x >> 32;
  return x;
}

// Little-endian load of up to 8 bytes (zero padded): the byte order only has to be stable on one
// machine, since a cache folder is not meant to move between architectures.
inline std::uint64_t load_word(const unsigned char* p, std::size_t n) {
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < n; ++i) w |= std::uint64_t(p[i]) << (8 * i);
  return w;
}

struct Hasher128 {
  std::uint64_t a = 0x243F6A8885A308D3ULL;  // two unrelated seeds, so the lanes differ from word 1
  std::uint64_t b = 0x13198A2E03707344ULL;
  std::uint64_t total = 0;

  void word(std::uint64_t w) {
    a = rotl(a ^ (w * kM2), 31) * kM1;
    b = rotl(b ^ (w * kM4), 27) * kM3 + 0x52DCE729ULL;
  }
  // One part: its length first, so that part boundaries are part of the hash.
  void part(std::string_view s) {
    word(s.size());
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    std::size_t n = s.size(), i = 0;
    for (; i + 8 <= n; i += 8) word(load_word(p + i, 8));
    if (i < n) word(load_word(p + i, n - i));
    total += n + 8;
  }
  std::string hex() {
    std::uint64_t x = avalanche(a ^ total);
    std::uint64_t y = avalanche(b + x);
    x = avalanche(x + y);
    static const char digits[] = "0123456789abcdef";
    std::string out(32, '0');
    for (int i = 0; i < 16; ++i) {
      out[i] = digits[(x >> (60 - 4 * i)) & 15];
      out[16 + i] = digits[(y >> (60 - 4 * i)) & 15];
    }
    return out;
  }
};

// ---------------------------------------------------------------------------------------------
// Entry format: "CUJIT1" + 8-byte payload length + 8-byte checksum (little endian) + payload.

constexpr char kMagic[6] = {'C', 'U', 'J', 'I', 'T', '1'};
constexpr std::size_t kHeaderSize = sizeof(kMagic) + 8 + 8;

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(char((v >> (8 * i)) & 0xFF));
}
std::uint64_t get_u64(const std::string& in, std::size_t at) {
  return load_word(reinterpret_cast<const unsigned char*>(in.data()) + at, 8);
}

// Keys and extensions become file names: only allow what cache_key produces and plain extensions,
// so that no caller can make the cache write outside its folder.
void check_name(const std::string& key, const std::string& ext) {
  auto ok = [](char c, bool dot) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '_' || c == '-' || (dot && c == '.');
  };
  bool good = key.size() >= 2 && !ext.empty() && ext.front() != '.';
  for (char c : key) good = good && ok(c, false);
  for (char c : ext) good = good && ok(c, true);
  if (!good) throw ToolchainError("cujit cache: invalid key '" + key + "' or extension '" + ext + "'");
}

std::string entry_path(const std::string& key, const std::string& ext) {
  check_name(key, ext);
  return cache_dir() + "/" + key.substr(0, 2) + "/" + key + "." + ext;
}

std::string parent_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Wraps a failure to write the cache in a message that says how to get around it.
[[noreturn]] void rethrow_write_failure(const std::string& dir, const std::exception& e) {
  throw ToolchainError(std::string(e.what()) + "\n(the cujit cache folder is " + dir +
                       "; set CUJIT_CACHE_DIR to a writable folder, or CUJIT_DISABLE_CACHE=1)");
}

// Removes `path` only if it is still the file `fd` refers to: another process may have renamed a
// good entry into place since we opened the damaged one, and that one must stay.
void remove_if_same(const std::string& path, int fd) {
  struct stat opened {}, now {};
  if (fstat(fd, &opened) != 0 || stat(path.c_str(), &now) != 0) return;
  if (opened.st_dev == now.st_dev && opened.st_ino == now.st_ino) remove_file_quietly(path);
}

// Reads an open descriptor to the end, or until more than `limit` bytes are read; false on a
// read error.
bool read_all(int fd, std::string& out, std::size_t limit = std::size_t(-1)) {
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    out.append(buf, std::size_t(n));
    if (out.size() > limit) return true;
  }
}

// Opens `path` for reading; -1 with errno set on failure.
int open_read(const std::string& path) {
  int fd;
  do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); while (fd < 0 && errno == EINTR);
  return fd;
}

// No entry cujit writes comes near this (a module's .so is a few MiB).
constexpr off_t kMaxEntryBytes = off_t(1) << 30;

// Opens a cache entry for reading only if it is a regular file of a sane size; -1 otherwise. The
// folder may hold anything: a FIFO would block the read for ever, a symlink to /dev/zero would be
// read until memory runs out. O_NOFOLLOW refuses a symlink, O_NONBLOCK makes opening a FIFO
// return at once (it changes nothing for a regular file), and fstat says what was opened.
int open_entry(const std::string& path) {
  int fd;
  do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK); while (fd < 0 && errno == EINTR);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMaxEntryBytes) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Reads at most about kMaxEntryBytes (a file that grows while read is then damaged).
bool read_entry(int fd, std::string& out) { return read_all(fd, out, std::size_t(kMaxEntryBytes)); }

// A regular cache entry's bytes; nullopt when it is absent, not a regular file, or unreadable.
std::optional<std::string> read_entry_file(const std::string& path) {
  int fd = open_entry(path);
  if (fd < 0) return std::nullopt;
  std::string out;
  bool ok = read_entry(fd, out);
  ::close(fd);
  if (!ok) return std::nullopt;
  return out;
}

// Removes the temporary files that killed processes left behind (every write goes through one,
// and a compile writes the .so as one for up to minutes), once per process and cache folder, at
// the first write: 256 small folder listings. A temporary is named <entry>.tmp.<pid>.<thread>.<n>;
// it is stale when its writer is gone and it is over a minute old, or over an hour old whatever
// the pid says (a folder shared between machines or pid namespaces may show a live foreign pid).
void clean_stale_temps(const std::string& dir) {
  static std::mutex mu;
  static std::set<std::string> done;
  {
    std::lock_guard<std::mutex> g(mu);
    if (!done.insert(dir).second) return;
  }
  DIR* top = ::opendir(dir.c_str());
  if (!top) return;
  const time_t now = ::time(nullptr);
  while (dirent* sub = ::readdir(top)) {
    if (std::strlen(sub->d_name) != 2) continue;  // the <key[0:2]> folders
    const std::string folder = dir + "/" + sub->d_name;
    DIR* d = ::opendir(folder.c_str());
    if (!d) continue;
    while (dirent* e = ::readdir(d)) {
      const char* tmp = std::strstr(e->d_name, ".tmp.");
      if (!tmp) continue;
      const std::string path = folder + "/" + e->d_name;
      struct stat st {};
      if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::getuid()) continue;
      const long pid = std::strtol(tmp + 5, nullptr, 10);
      const bool writer_gone = pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
      const double age = std::difftime(now, st.st_mtime);
      if ((writer_gone && age > 60) || age > 3600) remove_file_quietly(path);
    }
    ::closedir(d);
  }
  ::closedir(top);
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::string cache_key(std::initializer_list<std::string_view> parts) {
  Hasher128 h;
  for (std::string_view p : parts) h.part(p);
  return h.hex();
}

std::string without_line_files(std::string_view source) {
  std::string out;
  out.reserve(source.size());
  size_t pos = 0;
  while (pos < source.size()) {
    size_t end = source.find('\n', pos);
    end = end == std::string_view::npos ? source.size() : end + 1;
    std::string_view line = source.substr(pos, end - pos);
    const size_t quote = line.find(" \"");
    if (line.rfind("#line ", 0) == 0 && quote != std::string_view::npos) {
      out.append(line.substr(0, quote));
      out.push_back('\n');
    } else {
      out.append(line);
    }
    pos = end;
  }
  return out;
}

std::string cache_key_list(const std::vector<std::string>& parts) {
  Hasher128 h;
  for (const std::string& p : parts) h.part(p);
  return h.hex();
}

std::uint64_t checksum64(std::string_view data) {
  Hasher128 h;
  h.part(data);
  return avalanche(h.a ^ avalanche(h.b ^ h.total));
}

namespace {
// CUJIT_DEBUG_CACHE or Numba's NUMBA_DEBUG_CACHE: one line on stderr per lookup and save, as
// Numba's "[cache] ..." lines, to see why something compiled again. Read at each use (cheap next
// to a file lookup), so tests and users can turn it on at run time.
void debug_cache(const char* what, const std::string& path) {
  for (const char* name : {"CUJIT_DEBUG_CACHE", "NUMBA_DEBUG_CACHE"}) {
    const char* v = std::getenv(name);
    if (v && v[0] && std::strcmp(v, "0") != 0) {
      std::fprintf(stderr, "[cache] %s: %s\n", what, path.c_str());
      return;
    }
  }
}
}  // namespace

bool cache_enabled() {
  const char* v = std::getenv("CUJIT_DISABLE_CACHE");
  return v == nullptr || v[0] == '\0' || std::strcmp(v, "0") == 0;
}

std::string cache_dir() {
  auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
  };
  std::string dir = env("CUJIT_CACHE_DIR");
  if (!dir.empty()) return dir;
  // Numba's variable, with Numba's meaning (where compiled code is cached), so a user who moved
  // Numba's cache off a read-only home moves cujit's too; a subfolder keeps the two apart.
  dir = env("NUMBA_CACHE_DIR");
  if (!dir.empty()) return dir + "/cujit";
  dir = env("XDG_CACHE_HOME");
  if (!dir.empty() && dir[0] == '/') return dir + "/cujit";  // XDG says relative values are ignored
  std::string home = env("HOME");
  if (home.empty()) {
    // No $HOME (daemons, some containers): ask the password database, reentrantly.
    struct passwd pw {}, *found = nullptr;
    std::vector<char> buf(16384);
    if (getpwuid_r(getuid(), &pw, buf.data(), buf.size(), &found) == 0 && found && pw.pw_dir)
      home = pw.pw_dir;
  }
  if (home.empty())
    throw ToolchainError("cujit cache: cannot find a cache folder ($HOME is not set); set "
                         "CUJIT_CACHE_DIR or CUJIT_DISABLE_CACHE=1");
  return home + "/.cache/cujit";
}

namespace {
// Whether `bytes` is a whole blob entry (header, length and checksum agree).
bool blob_valid(const std::string& bytes) {
  if (bytes.size() < kHeaderSize || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0 ||
      get_u64(bytes, sizeof kMagic) != bytes.size() - kHeaderSize)
    return false;
  std::string_view payload(bytes.data() + kHeaderSize, bytes.size() - kHeaderSize);
  return get_u64(bytes, sizeof kMagic + 8) == checksum64(payload);
}
}  // namespace

std::optional<std::string> cache_get(const std::string& key, const std::string& ext) {
  if (!cache_enabled()) return std::nullopt;
  std::string path = entry_path(key, ext);
  int fd = open_entry(path);
  if (fd < 0) {  // missing, unreadable or not a regular file: a miss either way
    debug_cache("miss", path);
    return std::nullopt;
  }
  std::string bytes;
  bool read_ok = read_entry(fd, bytes);
  bool valid = read_ok && blob_valid(bytes);
  if (read_ok && !valid) remove_if_same(path, fd);  // damaged (a crash, a full disk): drop it
  ::close(fd);
  if (!valid) {
    debug_cache(read_ok ? "damaged, removed" : "miss", path);
    return std::nullopt;
  }
  debug_cache("hit", path);
  return bytes.substr(kHeaderSize);
}

void cache_put(const std::string& key, const std::string& ext, const std::string& data) {
  if (!cache_enabled()) return;
  clean_stale_temps(cache_dir());
  std::string path = entry_path(key, ext);
  std::string bytes(kMagic, sizeof kMagic);
  put_u64(bytes, data.size());
  put_u64(bytes, checksum64(data));
  bytes.reserve(kHeaderSize + data.size());
  bytes += data;
  try {
    make_dirs(parent_of(path));
    write_file_atomic(path, bytes);
  } catch (const ToolchainError& e) {
    rethrow_write_failure(cache_dir(), e);
  }
  debug_cache("saved", path);
}

void cache_put_text(const std::string& key, const std::string& ext, const std::string& text) {
  if (!cache_enabled()) return;
  clean_stale_temps(cache_dir());
  std::string path = entry_path(key, ext);
  try {
    make_dirs(parent_of(path));
    write_file_atomic(path, text);
  } catch (const ToolchainError& e) {
    rethrow_write_failure(cache_dir(), e);
  }
  debug_cache("saved", path);
}

std::string cache_path(const std::string& key, const std::string& ext) {
  if (!cache_enabled())
    throw ToolchainError("cujit cache: cache_path() called while CUJIT_DISABLE_CACHE is set");
  clean_stale_temps(cache_dir());
  std::string path = entry_path(key, ext);
  try {
    make_dirs(parent_of(path));
  } catch (const ToolchainError& e) {
    rethrow_write_failure(cache_dir(), e);
  }
  return path;
}

void cache_put_file(const std::string& key, const std::string& ext, const std::string& data) {
  if (!cache_enabled()) return;
  std::string path = cache_path(key, ext);
  try {
    // The checksum first: a reader that finds the new file always finds a matching .sum, or (when
    // two writers race with different bytes) a mismatch, which only costs a recompile.
    write_file_atomic(path + ".sum", std::to_string(checksum64(data)) + "\n");
    write_file_atomic(path, data);
  } catch (const ToolchainError& e) {
    rethrow_write_failure(cache_dir(), e);
  }
  debug_cache("saved", path);
}

std::string cache_adopt_file(const std::string& key, const std::string& ext,
                             const std::string& tmp_path) {
  std::string path = cache_path(key, ext);
  try {
    auto data = read_file(tmp_path);
    if (!data) throw ToolchainError("cujit cache: " + tmp_path + " vanished before it was stored");
    write_file_atomic(path + ".sum", std::to_string(checksum64(*data)) + "\n");
    if (::rename(tmp_path.c_str(), path.c_str()) != 0)
      throw ToolchainError("cujit cache: rename " + tmp_path + " -> " + path + ": " +
                           std::string(std::strerror(errno)));
  } catch (const ToolchainError& e) {
    remove_file_quietly(tmp_path);
    rethrow_write_failure(cache_dir(), e);
  }
  debug_cache("saved", path);
  return path;
}

bool cache_file_valid(const std::string& key, const std::string& ext) {
  if (!cache_enabled()) return false;
  std::string path = entry_path(key, ext);
  int fd = open_entry(path);
  if (fd < 0) {
    debug_cache("miss", path);
    return false;
  }
  std::string bytes;
  bool read_ok = read_entry(fd, bytes);
  std::optional<std::string> sum = read_entry_file(path + ".sum");
  bool valid = read_ok && sum && *sum == std::to_string(checksum64(bytes)) + "\n";
  if (read_ok && !valid) {
    remove_if_same(path, fd);
    remove_file_quietly(path + ".sum");
  }
  ::close(fd);
  debug_cache(valid ? "hit" : "damaged, removed", path);
  return valid;
}

// ---------------------------------------------------------------------------------------------
// The seed (cache.h): entries made at build time, read only, never removed from here.

std::string seed_dir() {
  const char* env = std::getenv("CUJIT_HOST_PCH_SEED");
  if (env && *env) return std::strcmp(env, "0") == 0 ? std::string() : std::string(env);
  // Beside the extension this code is linked into (python/cujit/, or site-packages/cujit/).
  static const std::string beside = [] {
    Dl_info info{};
    if (::dladdr(reinterpret_cast<void*>(&seed_dir), &info) == 0 || info.dli_fname == nullptr) return std::string();
    std::string so = info.dli_fname;
    auto slash = so.rfind('/');
    return slash == std::string::npos ? std::string() : so.substr(0, slash) + "/_host_pch";
  }();
  return beside;
}

namespace {
std::string seed_entry_path(const std::string& key, const std::string& ext) {
  const std::string dir = seed_dir();
  if (dir.empty()) return std::string();
  check_name(key, ext);
  return dir + "/" + key.substr(0, 2) + "/" + key + "." + ext;
}
}  // namespace

std::optional<std::string> seed_get(const std::string& key, const std::string& ext) {
  const std::string path = seed_entry_path(key, ext);
  if (path.empty()) return std::nullopt;
  std::optional<std::string> bytes = read_entry_file(path);
  if (!bytes || !blob_valid(*bytes)) return std::nullopt;
  debug_cache("seed hit", path);
  return bytes->substr(kHeaderSize);
}

namespace {
// The checksum of a large file (a precompiled header, ~20 MB), as the text its .sum holds, or ""
// when it cannot be read. checksum64's two lanes run at about a byte a cycle, and reading the
// file into memory first cost as much again (40 ms of a 110 ms first call): here the file is
// mapped, not copied, and four independent lanes (xxHash64's round) hash it several times faster.
std::string wide_checksum_text(const std::string& path) {
  int fd = open_entry(path);
  if (fd < 0) return std::string();
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return std::string();
  }
  const std::size_t n = std::size_t(st.st_size);
  void* map = n ? ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0) : nullptr;
  ::close(fd);
  if (map == MAP_FAILED) return std::string();
  const auto* p = static_cast<const unsigned char*>(map);
  constexpr std::uint64_t P1 = 0x9E3779B185EBCA87ULL, P2 = 0xC2B2AE3D27D4EB4FULL;
  std::uint64_t lane[4] = {P1 + P2, P2, 0, std::uint64_t(0) - P1};
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int k = 0; k < 4; ++k) {
      std::uint64_t w;
      std::memcpy(&w, p + i + 8 * k, 8);
      lane[k] = rotl(lane[k] + w * P2, 31) * P1;
    }
  std::uint64_t h = n;
  for (int k = 0; k < 4; ++k) h = avalanche(h ^ lane[k]) * P1;
  for (; i < n; ++i) h = rotl(h ^ p[i], 11) * P1;
  if (map) ::munmap(map, n);
  return "wide " + std::to_string(avalanche(h)) + "\n";
}
}  // namespace

std::string seed_file_valid(const std::string& key, const std::string& ext) {
  const std::string path = seed_entry_path(key, ext);
  if (path.empty()) return std::string();
  std::optional<std::string> sum = read_entry_file(path + ".sum");
  if (!sum) return std::string();
  const std::string actual = wide_checksum_text(path);
  if (actual.empty() || *sum != actual) {
    debug_cache(actual.empty() ? "seed miss" : "seed damaged, not used", path);
    return std::string();
  }
  debug_cache("seed hit", path);
  return path;
}

void cache_put_sum(const std::string& path) {
  const std::string sum = wide_checksum_text(path);
  if (sum.empty()) throw ToolchainError("cujit cache: cannot read " + path + " to store its checksum");
  write_file_atomic(path + ".sum", sum);
}

// ---------------------------------------------------------------------------------------------

std::optional<std::string> read_file(const std::string& path) {
  int fd = open_read(path);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw ToolchainError("cannot open " + path + ": " + std::string(std::strerror(errno)));
  }
  std::string out;
  bool ok = read_all(fd, out);
  int err = errno;
  ::close(fd);
  if (!ok) throw ToolchainError("cannot read " + path + ": " + std::string(std::strerror(err)));
  return out;
}

std::string unique_temp_name(const std::string& path) {
  static std::atomic<unsigned long long> counter{0};
  unsigned long long n = counter.fetch_add(1, std::memory_order_relaxed);
  std::size_t tid = std::hash<std::thread::id>{}(std::this_thread::get_id());
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(tid) + "." +
         std::to_string(n);
}

void write_file_atomic(const std::string& path, const std::string& data) {
  std::string tmp = unique_temp_name(path);
  int fd;
  // O_EXCL: never write into a file someone else is writing (a stale temp of a dead process with
  // the same pid would make us fail loudly rather than corrupt it).
  do fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) throw ToolchainError("cannot create " + tmp + ": " + std::string(std::strerror(errno)));
  const char* p = data.data();
  std::size_t left = data.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      remove_file_quietly(tmp);
      throw ToolchainError("cannot write " + tmp + ": " + std::string(std::strerror(err)));
    }
    p += n;
    left -= std::size_t(n);
  }
  // No fsync: after a power loss an entry may be empty or torn, and the checksums catch that;
  // syncing every kernel would slow compiles down for a case that already costs only a recompile.
  if (::close(fd) != 0) {
    int err = errno;
    remove_file_quietly(tmp);
    throw ToolchainError("cannot write " + tmp + ": " + std::string(std::strerror(err)));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    remove_file_quietly(tmp);
    throw ToolchainError("cannot rename " + tmp + " to " + path + ": " + std::string(std::strerror(err)));
  }
}

void make_dirs(const std::string& path) {
  if (path.empty()) return;
  std::size_t pos = 0;
  for (;;) {
    pos = path.find('/', pos + 1);
    std::string prefix = path.substr(0, pos);
    if (!prefix.empty() && ::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
      int err = errno;
      // mkdir can fail with EACCES on a parent that exists and is fine (e.g. "/home"); only the
      // final answer matters, so check whether the prefix exists as a directory.
      struct stat st {};
      if (::stat(prefix.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw ToolchainError("cannot create folder " + prefix + ": " + std::string(std::strerror(err)));
    }
    if (pos == std::string::npos) break;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw ToolchainError("cannot create folder " + path + ": not a directory");
}

void remove_file_quietly(const std::string& path) {
  // Cleanup only: a failure here leaves a stray file, which is harmless, so it is not reported.
  (void)::unlink(path.c_str());
}

}  // namespace cujit::toolchain
