// See nvrtc_pch.h: the table of this process's PCH files, their folder, and its cleanup.
#include "toolchain/nvrtc_pch.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <map>
#include <mutex>

#include "toolchain/cache.h"

namespace cujit::toolchain {
namespace {

const char kFolderPrefix[] = "cujit-pch-";

// What the file looked like when NVRTC had written it: a use needs the very same file.
struct FileId {
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  long long mtime_ns = 0;
  bool operator==(const FileId& o) const {
    return dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns;
  }
};

bool file_id(const std::string& path, FileId& id) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  id.dev = st.st_dev;
  id.ino = st.st_ino;
  id.size = st.st_size;
  id.mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
  return true;
}

enum class State { Creating, Ready, Failed };

struct Entry {
  State state;
  std::string path;
  FileId id;
};

// Removes a folder of .pch files (no subfolders are ever made), best effort.
void remove_folder(const std::string& dir) {
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      remove_file_quietly(dir + "/" + e->d_name);
    }
    closedir(d);
  }
  rmdir(dir.c_str());
}

std::string temp_root() {
  const char* t = std::getenv("TMPDIR");
  std::string root = (t && *t) ? t : "/tmp";
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

// Folders left by processes that ended without their exit handlers (killed, os._exit): ours
// (same owner) whose pid no longer runs.
void sweep_dead_folders(const std::string& root) {
  DIR* d = opendir(root.c_str());
  if (!d) return;
  const std::size_t n = sizeof(kFolderPrefix) - 1;
  while (dirent* e = readdir(d)) {
    if (std::strncmp(e->d_name, kFolderPrefix, n) != 0) continue;
    char* end = nullptr;
    long pid = std::strtol(e->d_name + n, &end, 10);
    if (pid <= 0 || end == nullptr || *end != '-' || pid == (long)getpid()) continue;
    std::string dir = root + "/" + e->d_name;
    struct stat st {};
    if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    remove_folder(dir);
  }
  closedir(d);
}

struct Table {
  std::mutex mutex;
  std::condition_variable made;  // a Creating entry became Ready or Failed
  std::map<std::string, Entry> entries;
  std::string folder;  // created on the first Create
  bool folder_failed = false;
  pid_t owner = 0;     // the process that made the folder: only it uses and removes it
  unsigned serial = 0; // numbers the files
  PchStats stats;

  ~Table() {
    if (!folder.empty() && owner == getpid()) remove_folder(folder);
  }

  // The folder, made on first use; empty if it cannot be made (PCH is then skipped).
  const std::string& ensure_folder() {
    if (folder.empty() && !folder_failed) {
      std::string root = temp_root();
      sweep_dead_folders(root);
      std::string tmpl = root + "/" + kFolderPrefix + std::to_string((long)getpid()) + "-XXXXXX";
      std::vector<char> buf(tmpl.begin(), tmpl.end());
      buf.push_back('\0');
      if (mkdtemp(buf.data()) != nullptr) {  // mode 0700: no other user can swap the files
        folder = buf.data();
        owner = getpid();
        stats.folder = folder;
      } else {
        folder_failed = true;
      }
    }
    return folder;
  }
};

Table& table() {
  static Table t;  // destroyed at exit, removing the folder
  return t;
}

bool env_off(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return false;
  std::string s = v;
  return s == "0" || s == "false" || s == "False" || s == "off" || s == "no";
}

}  // namespace

bool pch_enabled() {
  if (env_off("CUJIT_NVRTC_PCH")) return false;
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  // A forked child shares the parent's files but would race it for them and delete them at its
  // exit; it compiles without PCH instead.
  return t.owner == 0 || t.owner == getpid();
}

namespace {
// How long a compile that finds its PCH being written waits for it before it compiles without
// (CUJIT_NVRTC_PCH_WAIT, ms; 0: never). Waiting is the default: the PCH of a prelude and an empty
// kernel is written in about half the time a kernel compiles without one, a compile with it
// costs about two thirds of one without, and two NVRTC compiles running at once slow each other
// by a quarter or more (benchmarks/NOTES-compile.md, measured on the H200's host), so a compile
// that goes on without loses to one that waits however far the writing has got.
constexpr double kDefaultWaitMs = 2000;

double pch_wait_ms() {
  if (const char* v = std::getenv("CUJIT_NVRTC_PCH_WAIT"); v && *v) {
    char* end = nullptr;
    long ms = std::strtol(v, &end, 10);
    if (end && *end == '\0' && ms >= 0) return double(std::min<long>(ms, 600000));
  }
  return kDefaultWaitMs;
}

std::string ticket_key(const std::string& header, const std::vector<std::string>& options) {
  std::vector<std::string> parts{"nvrtc-pch-1", header};
  parts.insert(parts.end(), options.begin(), options.end());
  return cache_key_list(parts);
}

// A Create ticket for `key` with a new file name (the caller holds the table's mutex and knows the
// key has no entry); None when the folder cannot be made.
PchTicket reserve_locked(Table& t, const std::string& key) {
  PchTicket ticket;
  ticket.key = key;
  const std::string& folder = t.ensure_folder();
  if (folder.empty()) return ticket;
  ticket.role = PchTicket::Role::Create;
  // A new name per file, so a discarded file NVRTC may still have mapped is never overwritten.
  ticket.path = folder + "/" + key + "-" + std::to_string(++t.serial) + ".pch";
  t.entries[key] = Entry{State::Creating, ticket.path, {}};
  return ticket;
}
}  // namespace

PchTicket pch_begin(const std::string& header, const std::vector<std::string>& options) {
  PchTicket ticket;
  if (!pch_enabled()) return ticket;
  ticket.key = ticket_key(header, options);

  Table& t = table();
  std::unique_lock<std::mutex> lock(t.mutex);
  // Another thread making this PCH (the background maker, or a compile creating it in the
  // foreground): wait for it (pch_wait_ms).
  auto it = t.entries.find(ticket.key);
  if (it != t.entries.end() && it->second.state == State::Creating) {
    const double wait_ms = pch_wait_ms();
    if (wait_ms > 0)
      t.made.wait_for(lock, std::chrono::duration<double, std::milli>(wait_ms), [&] {
        auto i = t.entries.find(ticket.key);
        return i == t.entries.end() || i->second.state != State::Creating;
      });
    it = t.entries.find(ticket.key);
  }
  if (it != t.entries.end()) {
    Entry& e = it->second;
    if (e.state != State::Ready) return ticket;  // Failed, or another thread is still making it
    FileId now;
    if (file_id(e.path, now) && now == e.id) {
      ticket.role = PchTicket::Role::Use;
      ticket.path = e.path;
      ++t.stats.used;
      return ticket;
    }
    // Changed or gone since NVRTC wrote it: mapping it could crash NVRTC. Make a new one.
    remove_file_quietly(e.path);
    t.entries.erase(it);
    ++t.stats.discarded;
  }
  return reserve_locked(t, ticket.key);
}

PchTicket pch_reserve(const std::string& header, const std::vector<std::string>& options) {
  PchTicket ticket;
  if (!pch_enabled()) return ticket;
  ticket.key = ticket_key(header, options);
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.entries.find(ticket.key);
  if (it != t.entries.end()) {
    FileId now;
    if (it->second.state != State::Ready || (file_id(it->second.path, now) && now == it->second.id)) return ticket;
    remove_file_quietly(it->second.path);
    t.entries.erase(it);
    ++t.stats.discarded;
  }
  return reserve_locked(t, ticket.key);
}

void pch_created(const PchTicket& t_, bool ok) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.entries.find(t_.key);
  if (it == t.entries.end() || it->second.path != t_.path) return;
  Entry& e = it->second;
  if (ok && file_id(e.path, e.id)) {
    e.state = State::Ready;
    ++t.stats.created;
  } else {
    remove_file_quietly(e.path);
    e.state = State::Failed;
    ++t.stats.failed;
  }
  t.made.notify_all();
}

void pch_discard(const PchTicket& t_) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.entries.find(t_.key);
  if (it == t.entries.end() || it->second.path != t_.path) return;
  remove_file_quietly(it->second.path);
  t.entries.erase(it);
  ++t.stats.discarded;
}

PchStats pch_stats() {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  PchStats s = t.stats;
  if (!t.folder.empty()) {
    if (DIR* d = opendir(t.folder.c_str())) {
      while (dirent* e = readdir(d)) {
        std::string name = e->d_name;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".pch") == 0) s.files.push_back(t.folder + "/" + name);
      }
      closedir(d);
    }
  }
  return s;
}

}  // namespace cujit::toolchain
