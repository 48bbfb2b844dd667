// Tests of the toolchain layer (src/toolchain): NVRTC through dlopen, the host compiler, and the
// disk cache. Needs libnvrtc (no GPU) and a C++ compiler. Run by tests_cpp/toolchain_run.sh, which
// gives it an empty scratch folder as argv[1]; every test uses its own cache folder inside it.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "toolchain/cache.h"
#include "toolchain/host_compiler.h"
#include "toolchain/nvrtc.h"

using namespace cujit;
using namespace cujit::toolchain;

namespace {

int g_failures = 0;
std::string g_scratch;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::cerr << "  FAILED " << __FILE__ << ":" << __LINE__ << ": " #cond "\n";   \
      ++g_failures;                                                                 \
    }                                                                               \
  } while (0)

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A fresh, empty cache folder for one test, and the environment reset to defaults.
std::string fresh_cache(const std::string& name) {
  std::string dir = g_scratch + "/" + name;
  setenv("CUJIT_CACHE_DIR", dir.c_str(), 1);
  unsetenv("CUJIT_DISABLE_CACHE");
  unsetenv("CXX");
  return dir;
}

// All regular files under `dir` (recursively).
void list_files(const std::string& dir, std::vector<std::string>& out) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + name;
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) list_files(path, out);
    else out.push_back(path);
  }
  closedir(d);
}

void flip_byte(const std::string& path, long offset_from_end) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(-offset_from_end, std::ios::end);
  char c = 0;
  f.get(c);
  f.seekp(-offset_from_end, std::ios::end);
  f.put(char(c ^ 0x5A));
}

const char kKernel[] =
    "extern \"C\" __global__ void k(float* a){ a[threadIdx.x] *= 2.0f; }\n";

void test_nvrtc_ptx_and_cubin() {
  // Search folders come first; a broken candidate there is skipped, not fatal.
  std::string fake = g_scratch + "/fake_nvrtc";
  mkdir(fake.c_str(), 0755);
  std::ofstream(fake + "/libnvrtc.so.13") << "not a library";
  set_library_search_paths({fake, g_scratch + "/does_not_exist"});
  std::cout << "NVRTC loaded from " << nvrtc_library_path() << ", version " << nvrtc_version()
            << "\n";
  CHECK(nvrtc_version().rfind("1", 0) == 0);
  std::vector<int> archs = nvrtc_supported_archs();
  CHECK(!archs.empty());

  NvrtcOutput ptx = nvrtc_compile(kKernel, "kernel.py", "compute_90", {});
  CHECK(!ptx.is_cubin);
  CHECK(contains(ptx.image, ".entry k"));
  CHECK(contains(ptx.image, ".target sm_90"));
  CHECK(ptx.image.back() != '\0');

  NvrtcOutput cubin = nvrtc_compile(kKernel, "kernel.py", "sm_90", {});
  CHECK(cubin.is_cubin);
  CHECK(cubin.image.size() > 4 && cubin.image.compare(0, 4, "\x7f" "ELF") == 0);

  // best_arch: the device's own arch if supported, else the highest supported below it.
  CHECK(best_arch(9, 0, true) == "sm_90");
  CHECK(best_arch(9, 0, false) == "compute_90");
  CHECK(best_arch(8, 9, true) == "sm_89");
  CHECK(best_arch(9, 9, true) == "sm_90");
  bool threw = false;
  try {
    best_arch(1, 0, true);
  } catch (const rt::ToolchainError& e) {
    threw = contains(e.what(), "older");
  }
  CHECK(threw);
  threw = false;
  try {
    nvrtc_compile(kKernel, "kernel.py", "ampere", {});
  } catch (const rt::ToolchainError&) {
    threw = true;
  }
  CHECK(threw);
}

void test_nvrtc_errors() {
  bool caught = false;
  try {
    nvrtc_compile("extern \"C\" __global__ void k(float* a){ a[0] = ; }\n", "bad.py", "compute_90",
                  {});
  } catch (const rt::NvrtcCompileError& e) {
    caught = true;
    CHECK(contains(e.log, "error"));
    CHECK(contains(e.log, "expected an expression"));
    CHECK(contains(e.what(), "expected an expression"));
    CHECK(e.arch == "compute_90");
  }
  CHECK(caught);

  // #line directives make NVRTC's log point into the user's Python file.
  caught = false;
  try {
    nvrtc_compile("#line 12 \"user.py\"\nextern \"C\" __global__ void k(float* a){ undefined_x; }\n",
                  "user.py", "sm_90", {});
  } catch (const rt::NvrtcCompileError& e) {
    caught = true;
    CHECK(contains(e.log, "user.py(12)"));
  }
  CHECK(caught);

  // NvrtcCompileError is a ToolchainError, so generic handlers catch it too.
  caught = false;
  try {
    nvrtc_compile("garbage garbage", "g.py", "compute_90", {});
  } catch (const rt::ToolchainError&) {
    caught = true;
  }
  CHECK(caught);
}

const char kAddOne[] = "extern \"C\" int f(int x){return x+1;}\n";

void test_host_compile_and_cache() {
  std::string dir = fresh_cache("host");
  std::cout << "host compiler: " << host_compiler_version() << "\n";
  std::uint64_t runs = host_compiler_runs();
  {
    auto lib = host_compile(kAddOne, {});
    auto f = reinterpret_cast<int (*)(int)>(lib->symbol("f"));
    CHECK(f(41) == 42);
    CHECK(host_compiler_runs() == runs + 1);
    bool threw = false;
    try {
      lib->symbol("no_such_symbol");
    } catch (const rt::ToolchainError& e) {
      threw = contains(e.what(), "no_such_symbol");
    }
    CHECK(threw);
  }
  // Same source again: from the cache, no compiler run.
  auto lib2 = host_compile(kAddOne, {});
  CHECK(reinterpret_cast<int (*)(int)>(lib2->symbol("f"))(1) == 2);
  CHECK(host_compiler_runs() == runs + 1);
  // Other flags: another key, compiled again.
  auto lib3 = host_compile(kAddOne, {"-DX=1"});
  CHECK(host_compiler_runs() == runs + 2);

  // The readable source sits beside the binary.
  std::vector<std::string> files;
  list_files(dir, files);
  int so = 0, sum = 0, cpp = 0, tmp = 0;
  for (const auto& f : files) {
    so += f.size() > 3 && f.compare(f.size() - 3, 3, ".so") == 0;
    sum += contains(f, ".so.sum");
    cpp += f.size() > 4 && f.compare(f.size() - 4, 4, ".cpp") == 0;
    tmp += contains(f, ".tmp.");
  }
  CHECK(so == 2);
  CHECK(sum == 2);
  CHECK(cpp == 2);
  CHECK(tmp == 0);

  // A damaged cached .so is not loaded: it is rebuilt.
  std::string victim;
  for (const auto& f : files)
    if (f.size() > 3 && f.compare(f.size() - 3, 3, ".so") == 0 && lib2->path() == f) victim = f;
  CHECK(!victim.empty());
  lib2.reset();
  flip_byte(victim, 100);
  auto lib4 = host_compile(kAddOne, {});
  CHECK(host_compiler_runs() == runs + 3);
  CHECK(reinterpret_cast<int (*)(int)>(lib4->symbol("f"))(5) == 6);
}

void test_host_errors() {
  fresh_cache("host_errors");
  bool caught = false;
  try {
    host_compile("#line 7 \"user.py\"\nextern \"C\" int f(int x){ return x + ; }\n", {});
  } catch (const rt::HostCompileError& e) {
    caught = true;
    CHECK(contains(e.output, "user.py:7"));
    CHECK(contains(e.output, "error"));
    CHECK(contains(e.what(), "user.py:7"));
    CHECK(contains(e.command, "-std=c++20"));
    CHECK(contains(e.command, "-fno-math-errno"));
  }
  CHECK(caught);

  // $CXX with arguments ("ccache g++" style): split into words, no shell.
  setenv("CXX", "g++ -Wall", 1);
  auto lib = host_compile("extern \"C\" int g(){ return 7; }\n", {});
  CHECK(reinterpret_cast<int (*)()>(lib->symbol("g"))() == 7);
  CHECK(host_compiler_command().size() == 2);

  setenv("CXX", "/nonexistent", 1);
  caught = false;
  try {
    host_compile(kAddOne, {});
  } catch (const rt::ToolchainError& e) {
    caught = contains(e.what(), "no C++ compiler found: ") && contains(e.what(), "install g++ (apt-get install g++") &&
             contains(e.what(), "pip install ziglang") && contains(e.what(), "($CXX is '/nonexistent'");
  }
  CHECK(caught);
  caught = false;
  try {
    host_compiler_version();
  } catch (const rt::ToolchainError& e) {
    caught = contains(e.what(), "no C++ compiler found");
  }
  CHECK(caught);
  unsetenv("CXX");
}

void test_cache_round_trip_and_corruption() {
  std::string dir = fresh_cache("blobs");
  std::string key = cache_key({"source", "sm_90", "13.0"});
  CHECK(key.size() == 32);
  CHECK(key.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(key == cache_key({"source", "sm_90", "13.0"}));
  CHECK(key == cache_key_list({"source", "sm_90", "13.0"}));
  CHECK(key != cache_key({"source", "sm_90", "13.1"}));
  CHECK(cache_key({"ab", "c"}) != cache_key({"a", "bc"}));  // length prefixes
  CHECK(cache_key({""}) != cache_key({}));
  CHECK(checksum64("x") != checksum64("y"));

  CHECK(!cache_get(key, "ptx"));
  std::string payload("binary\0data\xff", 12);
  cache_put(key, "ptx", payload);
  auto got = cache_get(key, "ptx");
  CHECK(got && *got == payload);
  std::string path = dir + "/" + key.substr(0, 2) + "/" + key + ".ptx";
  CHECK(access(path.c_str(), F_OK) == 0);

  // One flipped payload byte: a miss, and the entry is gone.
  flip_byte(path, 3);
  CHECK(!cache_get(key, "ptx"));
  CHECK(access(path.c_str(), F_OK) != 0);

  // A truncated file (torn write): a miss too.
  cache_put(key, "ptx", payload);
  CHECK(truncate(path.c_str(), 10) == 0);
  CHECK(!cache_get(key, "ptx"));

  // Raw files with a checksum beside them.
  cache_put_file(key, "bin", "raw bytes");
  CHECK(cache_file_valid(key, "bin"));
  flip_byte(cache_path(key, "bin"), 1);
  CHECK(!cache_file_valid(key, "bin"));
  CHECK(access(cache_path(key, "bin").c_str(), F_OK) != 0);

  cache_put_text(key, "cu", "// readable\n");
  auto text = read_file(cache_path(key, "cu"));
  CHECK(text && *text == "// readable\n");

  bool threw = false;
  try {
    cache_put("../escape", "ptx", "x");
  } catch (const rt::ToolchainError&) {
    threw = true;
  }
  CHECK(threw);
}

void test_key_ignores_line_file_names() {
  // The same code from two Jupyter kernels: only the cell file names differ.
  const std::string a = "#line 3 \"/tmp/ipykernel_11/abc.py\"\nint f() { return 1; }\n#line 4 \"x.py\"\n";
  const std::string b = "#line 3 \"/tmp/ipykernel_22/abc.py\"\nint f() { return 1; }\n#line 4 \"y.py\"\n";
  CHECK(without_line_files(a) == without_line_files(b));
  CHECK(without_line_files(a) == "#line 3\nint f() { return 1; }\n#line 4\n");
  CHECK(without_line_files("#line 5 \"f.py\"") == "#line 5\n");
  CHECK(without_line_files("int s = \"#line 1 \\\"q\\\"\";") == "int s = \"#line 1 \\\"q\\\"\";");
  CHECK(without_line_files(a) != without_line_files("#line 9 \"/tmp/ipykernel_11/abc.py\"\nint f() { return 1; }\n"));
}

void test_disable_cache() {
  std::string dir = fresh_cache("disabled");
  std::string tmp = g_scratch + "/tmp_disabled";
  mkdir(tmp.c_str(), 0755);
  setenv("TMPDIR", tmp.c_str(), 1);
  setenv("CUJIT_DISABLE_CACHE", "1", 1);
  CHECK(!cache_enabled());
  std::string key = cache_key({"disabled"});
  cache_put(key, "ptx", "data");
  cache_put_text(key, "cu", "text");
  CHECK(!cache_get(key, "ptx"));
  std::uint64_t runs = host_compiler_runs();
  {
    auto lib = host_compile(kAddOne, {});
    CHECK(reinterpret_cast<int (*)(int)>(lib->symbol("f"))(1) == 2);
  }
  auto lib = host_compile(kAddOne, {});  // nothing cached: compiled again
  CHECK(host_compiler_runs() == runs + 2);
  std::vector<std::string> files;
  list_files(dir, files);
  CHECK(access(dir.c_str(), F_OK) != 0);
  CHECK(files.empty());
  // The private build folders are removed after loading.
  std::vector<std::string> tmp_files;
  list_files(tmp, tmp_files);
  CHECK(tmp_files.empty());
  DIR* d = opendir(tmp.c_str());
  int entries = 0;
  while (dirent* e = d ? readdir(d) : nullptr) entries += e->d_name[0] != '.';
  if (d) closedir(d);
  CHECK(entries == 0);
  unsetenv("TMPDIR");
  unsetenv("CUJIT_DISABLE_CACHE");
}

void test_concurrent_puts() {
  std::string dir = fresh_cache("concurrent");
  std::string key = cache_key({"concurrent"});
  std::vector<std::thread> threads;
  std::vector<std::string> payloads;
  for (int t = 0; t < 4; ++t) payloads.push_back(std::string(100000 + t, char('a' + t)));
  int errors = 0;
  std::mutex m;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        try {
          cache_put(key, "cubin", payloads[t]);
          auto got = cache_get(key, "cubin");  // a reader never sees a torn entry
          std::lock_guard<std::mutex> lock(m);
          if (got && got->size() < 100000) ++errors;
        } catch (const std::exception& e) {
          std::lock_guard<std::mutex> lock(m);
          std::cerr << "  " << e.what() << "\n";
          ++errors;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(errors == 0);
  auto got = cache_get(key, "cubin");
  CHECK(got.has_value());
  bool one_of = false;
  for (const auto& p : payloads) one_of = one_of || (got && *got == p);
  CHECK(one_of);
  std::vector<std::string> files;
  list_files(dir, files);
  CHECK(files.size() == 1);  // no temp files left behind
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: toolchain_test SCRATCH_DIR\n";
    return 2;
  }
  g_scratch = argv[1];
  const std::pair<const char*, void (*)()> tests[] = {
      {"nvrtc_ptx_and_cubin", test_nvrtc_ptx_and_cubin},
      {"nvrtc_errors", test_nvrtc_errors},
      {"host_compile_and_cache", test_host_compile_and_cache},
      {"host_errors", test_host_errors},
      {"cache_round_trip_and_corruption", test_cache_round_trip_and_corruption},
      {"disable_cache", test_disable_cache},
      {"key_ignores_line_file_names", test_key_ignores_line_file_names},
      {"concurrent_puts", test_concurrent_puts},
  };
  for (const auto& [name, fn] : tests) {
    std::cout << "[ RUN  ] " << name << std::endl;
    int before = g_failures;
    try {
      fn();
    } catch (const std::exception& e) {
      std::cerr << "  FAILED: unexpected exception: " << e.what() << "\n";
      ++g_failures;
    }
    std::cout << (g_failures == before ? "[  OK  ] " : "[ FAIL ] ") << name << std::endl;
  }
  std::cout << (g_failures ? "FAILED" : "PASSED") << " (" << g_failures << " failed checks)\n";
  return g_failures ? 1 : 0;
}
