// NVRTC's types, declared here with the values of its ABI (nvrtc.h of CUDA 13), so the extension
// builds without the CUDA Toolkit: libnvrtc is opened with dlopen at run time (toolchain/nvrtc.h).
// tests_cpp/cuda_decls_check.cpp compares them and nvrtc_api.def's rows with the toolkit's
// nvrtc.h where one is installed. Declarations only, no includes (the check includes this file
// inside a namespace).
#ifndef CUJIT_NVRTC_TYPES_H
#define CUJIT_NVRTC_TYPES_H

typedef enum : int {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_OUT_OF_MEMORY = 1,
  NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_INVALID_OPTION = 5,
  NVRTC_ERROR_COMPILATION = 6
} nvrtcResult;

typedef struct _nvrtcProgram* nvrtcProgram;

#endif  // CUJIT_NVRTC_TYPES_H
