// The floor for a kernel launch from the host: a loop of cuLaunchKernel calls through the CUDA
// driver API, no Python anywhere. benchmarks/launch.py builds this file with the system g++ and
// runs it as its "raw" tool, so the launch rows of RESULTS.md can say how far cujit is from it.
//
//     raw_launch N 1array            N launches of one_array[1, 32](a)
//     raw_launch N 3arrays2scalars   N launches of three_arrays[1, 32](a, b, c, x, y)
//     raw_launch N WHAT FILE.cu SYMBOL  the same launches of kernel SYMBOL compiled from FILE.cu
//                                       (e.g. cujit's generated code, from inspect_source, to
//                                       tell the kernel's own cost from the launch path's)
//
// The kernels are the ones launch.py launches through cujit and numba-cuda, written in CUDA C++
// and compiled here by NVRTC for the device's own architecture (a cubin, so the driver JITs
// nothing). An array is passed as cujit passes a 1-D array, a struct of the data pointer, the
// shape and the stride (24 bytes); x is a double and y a long long, what Python's float and int
// become in Numba's typing.
//
// Timing: one warm-up launch, then LOOPS loops of N launches each ended by cuCtxSynchronize,
// each timed with std::chrono::steady_clock; the figure is the best loop's time / N. Prints one
// JSON line, as the Python benchmark scripts do; "correct" checks that a[0], b[0] and c[0]
// counted every launch.
#include <cuda.h>
#include <nvrtc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const int LOOPS = 5;
const int ELEMS = 256;  // each array's length (float32), as in launch.py

const char* const KERNELS = R"(
struct Array1 { float* data; long long shape; long long stride; };

extern "C" __global__ void one_array(Array1 a) {
  if (blockIdx.x * blockDim.x + threadIdx.x == 0) a.data[0] += 1.0f;
}

extern "C" __global__ void three_arrays(Array1 a, Array1 b, Array1 c, double x, long long y) {
  if (blockIdx.x * blockDim.x + threadIdx.x == 0) {
    a.data[0] = (float)(a.data[0] + x);
    b.data[0] = (float)(b.data[0] + (double)y);
    c.data[0] += 1.0f;
  }
}
)";

struct Array1 {
  CUdeviceptr data;
  long long shape;
  long long stride;
};

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "raw_launch: %s failed: %s\n", what, detail.c_str());
  std::exit(1);
}

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  fail(what, name ? name : std::to_string((int)r));
}

void check(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) fail(what, nvrtcGetErrorString(r));
}

// NVRTC compiles KERNELS to a cubin for sm_<major><minor>.
std::vector<char> compile_kernels(int major, int minor, const std::string& source) {
  nvrtcProgram prog;
  check(nvrtcCreateProgram(&prog, source.c_str(), "raw_launch_kernels.cu", 0, nullptr, nullptr), "nvrtcCreateProgram");
  std::string arch = "--gpu-architecture=sm_" + std::to_string(major) + std::to_string(minor);
  const char* opts[] = {arch.c_str(), "--std=c++17"};
  nvrtcResult r = nvrtcCompileProgram(prog, 2, opts);
  if (r != NVRTC_SUCCESS) {
    size_t size = 0;
    nvrtcGetProgramLogSize(prog, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    fail("nvrtcCompileProgram", std::string(nvrtcGetErrorString(r)) + "\n" + log);
  }
  size_t size = 0;
  check(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
  std::vector<char> cubin(size);
  check(nvrtcGetCUBIN(prog, cubin.data()), "nvrtcGetCUBIN");
  nvrtcDestroyProgram(&prog);
  return cubin;
}

}  // namespace

int main(int argc, char** argv) {
  if ((argc != 3 && argc != 5) || (std::strcmp(argv[2], "1array") != 0 && std::strcmp(argv[2], "3arrays2scalars") != 0)) {
    std::fprintf(stderr, "usage: raw_launch N 1array|3arrays2scalars [FILE.cu SYMBOL]\n");
    return 2;
  }
  std::string source = KERNELS;
  if (argc == 5) {
    FILE* f = std::fopen(argv[3], "rb");
    if (!f) fail("fopen", argv[3]);
    source.clear();
    char buf[4096];
    for (size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) source.append(buf, got);
    std::fclose(f);
  }
  const long n = std::atol(argv[1]);
  const bool three = std::strcmp(argv[2], "3arrays2scalars") == 0;

  check(cuInit(0), "cuInit");
  CUdevice dev;
  check(cuDeviceGet(&dev, 0), "cuDeviceGet");
  CUcontext ctx;  // the primary context, the one Numba, CuPy and cujit use
  check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  int major = 0, minor = 0;
  check(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "cuDeviceGetAttribute");
  check(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "cuDeviceGetAttribute");

  std::vector<char> cubin = compile_kernels(major, minor, source);
  CUmodule mod;
  check(cuModuleLoadData(&mod, cubin.data()), "cuModuleLoadData");
  CUfunction fn;
  check(cuModuleGetFunction(&fn, mod, argc == 5 ? argv[4] : three ? "three_arrays" : "one_array"), "cuModuleGetFunction");

  Array1 arrays[3];
  for (Array1& a : arrays) {
    check(cuMemAlloc(&a.data, ELEMS * sizeof(float)), "cuMemAlloc");
    check(cuMemsetD32(a.data, 0, ELEMS), "cuMemsetD32");
    a.shape = ELEMS;
    a.stride = sizeof(float);
  }
  double x = 1.0;
  long long y = 2;
  void* params1[] = {&arrays[0]};
  void* params3[] = {&arrays[0], &arrays[1], &arrays[2], &x, &y};
  void** params = three ? params3 : params1;

  auto launch = [&] {
    check(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr), "cuLaunchKernel");
  };
  launch();  // warm-up
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  std::vector<double> loops;
  for (int l = 0; l < LOOPS; ++l) {
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; ++i) launch();
    check(cuCtxSynchronize(), "cuCtxSynchronize");
    loops.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }

  const double launches = 1.0 + (double)LOOPS * (double)n;
  float got[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) check(cuMemcpyDtoH(&got[k], arrays[k].data, sizeof(float)), "cuMemcpyDtoH");
  const bool correct = three ? (got[0] == launches * x && got[1] == launches * (double)y && got[2] == launches)
                             : (got[0] == launches && got[1] == 0 && got[2] == 0);

  double best = loops[0];
  for (double t : loops) best = t < best ? t : best;
  std::printf("{\"tool\": \"raw\", \"n\": %ld, \"args\": \"%s\", \"best_s\": %.9g, \"us\": %.6g, \"loops_us\": [",
              n, argv[2], best / (double)n, best / (double)n * 1e6);
  for (size_t l = 0; l < loops.size(); ++l) std::printf("%s%.6g", l ? ", " : "", loops[l] / (double)n * 1e6);
  std::printf("], \"correct\": %s}\n", correct ? "true" : "false");

  for (Array1& a : arrays) cuMemFree(a.data);
  cuModuleUnload(mod);
  cuDevicePrimaryCtxRelease(dev);
  return 0;
}
