// Checks cujit's own declarations of the CUDA driver and NVRTC (src/runtime/cuda_types.h,
// src/toolchain/nvrtc_types.h, and the rows of cuda_api.def / nvrtc_api.def) against the CUDA
// Toolkit's cuda.h and nvrtc.h: the extension builds without the toolkit, so these declarations
// are all that stands between a typo and a driver call with a wrong constant. Everything is a
// static_assert: the program compiles only if every declaration agrees; running it prints a count.
// Built and run by tests_cpp/toolchain_run.sh where the toolkit's headers exist (CI has them).
#include <cuda.h>
#include <cudaProfiler.h>
#include <nvrtc.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <type_traits>

// cuda.h's #defines would rewrite our declarations of the same names: keep their values, then
// drop the macros before including ours (the stream handles are identical macros, kept).
constexpr unsigned int kToolkitHostAllocPortable = CU_MEMHOSTALLOC_PORTABLE;
constexpr unsigned int kToolkitHostAllocDeviceMap = CU_MEMHOSTALLOC_DEVICEMAP;
constexpr unsigned int kToolkitHostAllocWriteCombined = CU_MEMHOSTALLOC_WRITECOMBINED;
constexpr unsigned int kToolkitHostRegisterPortable = CU_MEMHOSTREGISTER_PORTABLE;
constexpr unsigned int kToolkitHostRegisterDeviceMap = CU_MEMHOSTREGISTER_DEVICEMAP;
#undef CU_MEMHOSTALLOC_PORTABLE
#undef CU_MEMHOSTALLOC_DEVICEMAP
#undef CU_MEMHOSTALLOC_WRITECOMBINED
#undef CU_MEMHOSTREGISTER_PORTABLE
#undef CU_MEMHOSTREGISTER_DEVICEMAP
#undef CUJIT_CUDA_TYPES_H
#undef CUJIT_NVRTC_TYPES_H

namespace ours {
#include "runtime/cuda_types.h"
#include "toolchain/nvrtc_types.h"
}  // namespace ours

namespace check {

// Maps a type written with our declarations to the same type written with the toolkit's, through
// pointers, const and function types, so a whole function pointer type can be compared.
template <typename T> struct Toolkit { using type = T; };  // int, size_t, void, char, ...
template <typename T> struct Toolkit<T*> { using type = typename Toolkit<T>::type*; };
template <typename T> struct Toolkit<const T> { using type = const typename Toolkit<T>::type; };
template <typename R, typename... A> struct Toolkit<R (*)(A...)> {
  using type = typename Toolkit<R>::type (*)(typename Toolkit<A>::type...);
};
#define CUJIT_SAME_TYPE(name)                                                             \
  template <> struct Toolkit<ours::name> { using type = ::name; };                         \
  static_assert(sizeof(ours::name) == sizeof(::name) && alignof(ours::name) == alignof(::name), \
                #name ": size or alignment differs from the toolkit's");
CUJIT_SAME_TYPE(CUresult)
CUJIT_SAME_TYPE(CUdevice_attribute)
CUJIT_SAME_TYPE(CUfunction_attribute)
CUJIT_SAME_TYPE(CUjit_option)
CUJIT_SAME_TYPE(CUjitInputType)
CUJIT_SAME_TYPE(CUmemPool_attribute)
CUJIT_SAME_TYPE(CUuuid)
CUJIT_SAME_TYPE(nvrtcResult)
#undef CUJIT_SAME_TYPE
// Opaque handles: `struct CUctx_st*` inside namespace ours names the toolkit's struct already
// declared (in the build, where cuda.h is absent, it declares the struct): same pointer types.
static_assert(std::is_same_v<ours::CUcontext, ::CUcontext>, "CUcontext");
static_assert(std::is_same_v<ours::CUmodule, ::CUmodule>, "CUmodule");
static_assert(std::is_same_v<ours::CUfunction, ::CUfunction>, "CUfunction");
static_assert(std::is_same_v<ours::CUevent, ::CUevent>, "CUevent");
static_assert(std::is_same_v<ours::CUstream, ::CUstream>, "CUstream");
static_assert(std::is_same_v<ours::CUmemoryPool, ::CUmemoryPool>, "CUmemoryPool");
static_assert(std::is_same_v<ours::CUlinkState, ::CUlinkState>, "CUlinkState");
static_assert(std::is_same_v<ours::nvrtcProgram, ::nvrtcProgram>, "nvrtcProgram");
static_assert(std::is_same_v<ours::CUdeviceptr, ::CUdeviceptr>, "CUdeviceptr");
static_assert(std::is_same_v<ours::CUdevice, ::CUdevice>, "CUdevice");
static_assert(std::is_same_v<ours::cuuint64_t, ::cuuint64_t>, "cuuint64_t");
static_assert(sizeof(ours::CUuuid::bytes) == sizeof(::CUuuid::bytes), "CUuuid");

constexpr bool same_text(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}
#define CUJIT_STR2(x) #x
#define CUJIT_STR(x) CUJIT_STR2(x)  // after expansion: cuMemAlloc -> "cuMemAlloc_v2"

int checked = 0;

}  // namespace check

// Each driver row: the symbol is the one cuda.h's macros give the name, and the parameters, in
// our types (found first inside namespace ours), are the toolkit's prototype of that symbol
// (`::name` expands through cuda.h's macros to the versioned function).
namespace ours {
#define CUDA_API(name, symbol, params)                                                              \
  static_assert(check::same_text(CUJIT_STR(name), #symbol), #name ": cuda.h gives another symbol"); \
  static_assert(std::is_same_v<check::Toolkit<CUresult(*) params>::type, decltype(&::name)>,         \
                #name ": parameters differ from cuda.h's prototype");                               \
  const int row_##symbol = ++check::checked;
#include "runtime/cuda_api.def"
#undef CUDA_API
#define NVRTC_API(name, result, params)                                                   \
  static_assert(std::is_same_v<check::Toolkit<result(*) params>::type, decltype(&::name)>, \
                #name ": result or parameters differ from nvrtc.h's prototype");         \
  const int row_##name = ++check::checked;
#include "toolchain/nvrtc_api.def"
#undef NVRTC_API
}  // namespace ours

namespace check {

// Every enumerator and flag we declare has the toolkit's value.
#define CUJIT_SAME_VALUE(name) static_assert((long long)ours::name == (long long)::name, #name);
CUJIT_SAME_VALUE(CUDA_SUCCESS)
CUJIT_SAME_VALUE(CUDA_ERROR_INVALID_VALUE)
CUJIT_SAME_VALUE(CUDA_ERROR_OUT_OF_MEMORY)
CUJIT_SAME_VALUE(CUDA_ERROR_NOT_INITIALIZED)
CUJIT_SAME_VALUE(CUDA_ERROR_INVALID_HANDLE)
CUJIT_SAME_VALUE(CUDA_ERROR_NOT_READY)
CUJIT_SAME_VALUE(CUDA_ERROR_ILLEGAL_ADDRESS)
CUJIT_SAME_VALUE(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
CUJIT_SAME_VALUE(CUDA_ERROR_LAUNCH_TIMEOUT)
CUJIT_SAME_VALUE(CUDA_ERROR_CONTEXT_IS_DESTROYED)
CUJIT_SAME_VALUE(CUDA_ERROR_ASSERT)
CUJIT_SAME_VALUE(CUDA_ERROR_HARDWARE_STACK_ERROR)
CUJIT_SAME_VALUE(CUDA_ERROR_ILLEGAL_INSTRUCTION)
CUJIT_SAME_VALUE(CUDA_ERROR_MISALIGNED_ADDRESS)
CUJIT_SAME_VALUE(CUDA_ERROR_INVALID_ADDRESS_SPACE)
CUJIT_SAME_VALUE(CUDA_ERROR_INVALID_PC)
CUJIT_SAME_VALUE(CUDA_ERROR_LAUNCH_FAILED)
CUJIT_SAME_VALUE(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_WARP_SIZE)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_PITCH)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_CLOCK_RATE)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_INTEGRATED)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_MODE)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_ECC_ENABLED)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_TCC_DRIVER)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR)
CUJIT_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED)
CUJIT_SAME_VALUE(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
CUJIT_SAME_VALUE(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
CUJIT_SAME_VALUE(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES)
CUJIT_SAME_VALUE(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
CUJIT_SAME_VALUE(CU_FUNC_ATTRIBUTE_NUM_REGS)
CUJIT_SAME_VALUE(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
CUJIT_SAME_VALUE(CU_JIT_ERROR_LOG_BUFFER)
CUJIT_SAME_VALUE(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
CUJIT_SAME_VALUE(CU_JIT_INPUT_CUBIN)
CUJIT_SAME_VALUE(CU_JIT_INPUT_PTX)
CUJIT_SAME_VALUE(CU_JIT_INPUT_FATBINARY)
CUJIT_SAME_VALUE(CU_JIT_INPUT_OBJECT)
CUJIT_SAME_VALUE(CU_JIT_INPUT_LIBRARY)
CUJIT_SAME_VALUE(CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
CUJIT_SAME_VALUE(CU_STREAM_DEFAULT)
CUJIT_SAME_VALUE(CU_STREAM_NON_BLOCKING)
CUJIT_SAME_VALUE(CU_EVENT_DEFAULT)
CUJIT_SAME_VALUE(CU_EVENT_DISABLE_TIMING)
CUJIT_SAME_VALUE(CU_MEM_ATTACH_GLOBAL)
CUJIT_SAME_VALUE(CU_MEM_ATTACH_HOST)
CUJIT_SAME_VALUE(NVRTC_SUCCESS)
CUJIT_SAME_VALUE(NVRTC_ERROR_OUT_OF_MEMORY)
CUJIT_SAME_VALUE(NVRTC_ERROR_PROGRAM_CREATION_FAILURE)
CUJIT_SAME_VALUE(NVRTC_ERROR_INVALID_INPUT)
CUJIT_SAME_VALUE(NVRTC_ERROR_INVALID_PROGRAM)
CUJIT_SAME_VALUE(NVRTC_ERROR_INVALID_OPTION)
CUJIT_SAME_VALUE(NVRTC_ERROR_COMPILATION)
#undef CUJIT_SAME_VALUE
static_assert(ours::CU_MEMHOSTALLOC_PORTABLE == kToolkitHostAllocPortable, "CU_MEMHOSTALLOC_PORTABLE");
static_assert(ours::CU_MEMHOSTALLOC_DEVICEMAP == kToolkitHostAllocDeviceMap, "CU_MEMHOSTALLOC_DEVICEMAP");
static_assert(ours::CU_MEMHOSTALLOC_WRITECOMBINED == kToolkitHostAllocWriteCombined, "CU_MEMHOSTALLOC_WRITECOMBINED");
static_assert(ours::CU_MEMHOSTREGISTER_PORTABLE == kToolkitHostRegisterPortable, "CU_MEMHOSTREGISTER_PORTABLE");
static_assert(ours::CU_MEMHOSTREGISTER_DEVICEMAP == kToolkitHostRegisterDeviceMap, "CU_MEMHOSTREGISTER_DEVICEMAP");

}  // namespace check

int main() {
  // The stream handles are macros in both: the same values.
  if (CU_STREAM_LEGACY != (::CUstream)0x1 || CU_STREAM_PER_THREAD != (::CUstream)0x2) {
    std::printf("FAILED: stream handles differ\n");
    return 1;
  }
  std::printf("cuda_decls_check: %d driver and NVRTC functions agree with the toolkit's headers\nPASSED\n", check::checked);
  return 0;
}
