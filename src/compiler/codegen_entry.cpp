// The extern "C" entry points around typed functions: CUDA ufunc element functions, kernels (a
// __global__ function on the GPU, the simulator's per-thread loop on the CPU), @jit functions and
// NumPy inner loops. codegen.cpp writes the typed functions they call.
#include "compiler/codegen_entry.h"

#include <cstdlib>
#include <algorithm>
#include <sstream>

namespace cujit {

namespace {
// A CPU @vectorize loop: NumPy's loop signature around the typed scalar function; the prelude
// (npy_ufunc_loop) chooses the dense, scalar-broadcast or strided path per call.
// A record operand of a NumPy loop travels by value, as its bytes (cj::Rec): the typed function
// takes a pointer (a record is a reference in compiled code), here to the loop's copy, so a store
// into an input record's field never reaches the input array.
std::string loop_value_type(const Type& t, const EntryContext& cx) {
  return t.is_record() ? record_cpp(*t.record) : cx.type(t);
}

std::string numpy_loop(const EntryPoint& ep, const FunctionInstance& f, const EntryContext& cx) {
  if (cx.target != Target::Host) return "";
  std::ostringstream os, types, params, call;
  for (size_t i = 0; i < f.arg_types.size(); ++i) {
    const std::string t = loop_value_type(f.arg_types[i], cx);
    types << ", " << t;
    params << (i ? ", " : "") << t << " x" << i;
    call << (i ? ", " : "") << (f.arg_types[i].is_record() ? "&x" : "x") << i;
  }
  const std::string ret = loop_value_type(f.ret, cx);
  os << "extern \"C\" CJ_EXPORT void " << ep.symbol
     << "(char** args, const int64_t* dims, const int64_t* steps, void*) {\n"
     << (cx.allocates ? "  const cj::CallScope cj_scope;\n" : "")
     << "  cj::npy_ufunc_loop<" << (ep.parallel ? "true" : "false") << ", " << ret << types.str()
     << ">([](" << params.str() << ") -> " << ret << " { ";
  // Arrays an element makes are freed before the next (the result is a scalar). What raises in
  // ufunc code (array constructors, a zero range step, 0.0 ** -n, boundscheck) cannot be
  // reported by a NumPy loop, which has no error channel: the element is 0, as NumPy's own loops
  // leave an invalid one. An exception must not leave the loop (it would end the process).
  const std::string reset = cx.allocates ? "cj::host_services.arena_reset(); " : "";
  // A record result is a pointer to an operand's copy (or an array's element): its bytes are copied.
  os << "try { const auto r = " << (f.ret.is_record() ? "*" : "") << f.cpp_name << "(" << call.str() << "); "
     << reset << "return r; } "
     << "catch (const cj::PyError&) { " << reset << "return " << ret << "{}; }";
  os << " }, args, dims, steps);\n}\n";
  return os.str();
}

// A CPU @guvectorize loop: for each outer index, an array view per array operand (core
// dimensions from NumPy's dims and steps, as ep.core_dims maps them) or the value of a scalar
// operand, then one call of the typed function.
std::string numpy_gufunc(const EntryPoint& ep, const FunctionInstance& f, const EntryContext& cx) {
  const auto& type = cx.type;
  if (cx.target != Target::Host) return "";
  const size_t nargs = f.arg_types.size();
  int ncore = 0;
  for (auto& c : ep.core_dims) for (int d : c) ncore = std::max(ncore, d);
  std::ostringstream os, call;
  os << "extern \"C\" CJ_EXPORT void " << ep.symbol
     << "(char** args, const int64_t* dims, const int64_t* steps, void*) {\n"
     << (cx.allocates ? "  const cj::CallScope cj_scope;\n" : "");
  size_t core_step = nargs;  // where operand k's core strides start in steps
  for (size_t k = 0; k < nargs; ++k) {
    const auto& c = ep.core_dims[k];
    if (!c.empty()) {
      os << "  static const int cj_dims" << k << "[] = {";
      for (size_t j = 0; j < c.size(); ++j) os << (j ? ", " : "") << c[j];
      os << "};\n";
    }
  }
  os << "  cj::npy_gufunc_outer<" << (ep.parallel ? "true" : "false") << ">(dims, " << ncore
     << ", [&](int64_t begin, int64_t end) {\n    for (int64_t i = begin; i < end; ++i) {\n";
  for (size_t k = 0; k < nargs; ++k) {
    const Type& t = f.arg_types[k];
    const auto& c = ep.core_dims[k];
    std::string at = "args[" + std::to_string(k) + "] + i * steps[" + std::to_string(k) + "]";
    if (t.is_array()) {
      const std::string elem = t.record ? record_cpp(*t.record) : std::string(scalar_cpp(t.scalar));
      os << "      " << type(t) << " p" << k << " = cj::npy_core_view<" << elem << ", " << t.ndim
         << ", " << c.size() << ">(" << at << ", dims, steps + " << core_step << ", "
         << (c.empty() ? std::string("nullptr") : "cj_dims" + std::to_string(k)) << ");\n";
    } else if (t.is_record()) {  // a record scalar: a copy, as in an element-wise loop
      os << "      " << record_cpp(*t.record) << " v" << k << " = *(const " << record_cpp(*t.record) << "*)(" << at
         << ");\n      " << type(t) << " p" << k << " = &v" << k << ";\n";
    } else {
      os << "      " << type(t) << " p" << k << " = *(const " << type(t) << "*)(" << at << ");\n";
    }
    core_step += c.size();
    call << (k ? ", " : "") << "p" << k;
  }
  // As for a ufunc's element: an exception leaves the outputs as they are.
  os << "      try { " << f.cpp_name << "(" << call.str() << "); } catch (const cj::PyError&) {}\n";
  if (cx.allocates) os << "      cj::host_services.arena_reset();\n";
  os << "    }\n  });\n}\n";
  return os.str();
}

}  // namespace

bool kernel_restrict_candidate(const std::vector<Type>& arg_types) {
  bool any_array = false;
  for (const Type& t : arg_types) {
    if (t.is_array()) any_array = true;
    else if (!t.is_scalar()) return false;
  }
  return any_array;
}

std::string emit_entry(const EntryPoint& ep, const FunctionInstance& f, const EntryContext& cx) {
  const auto& type = cx.type;
  std::ostringstream os;
  if (ep.kind == EntryPoint::Kind::Ufunc) {
    int n = (int)f.arg_types.size() + 1;
    os << "CJ_DEVICE static void " << ep.symbol << "_elem(char** a) {\n  *(" << type(f.ret) << "*)a["
       << n - 1 << "] = " << f.cpp_name << "(";
    for (size_t i = 0; i < f.arg_types.size(); ++i)
      os << (i ? ", " : "") << "*(const " << type(f.arg_types[i]) << "*)a[" << i << "]";
    os << ");\n}\n";
    // Each operand's itemsize, for the GPU loop's vector path (prelude/cuda.h).
    os << "using " << ep.symbol << "_sizes = cj::Sizes<";
    for (size_t i = 0; i < f.arg_types.size(); ++i) os << scalar_size(f.arg_types[i].scalar) << ", ";
    os << scalar_size(f.ret.scalar) << ">;\n";
    os << "CJ_UFUNC_ENTRY(" << ep.symbol << ", " << n << ")\n";
    return os.str();
  }
  if (ep.kind == EntryPoint::Kind::Cpu) {
    // An @jit function, called from the CPU dispatcher with one pointer per argument's bytes
    // (the marshalled words, as for simulator kernels) and a pointer to the result's.
    if (cx.target != Target::Host) return "";
    const auto& ps = f.mod.func->params;
    // Returns null, or the record of the Python exception the function raised.
    os << "extern \"C\" CJ_EXPORT const cj::PyError* " << ep.symbol << "(void** cj_params, void* cj_ret) try {\n";
    std::string call = f.cpp_name + "(";
    for (size_t i = 0; i < ps.size(); ++i) {
      os << "  " << type(f.arg_types[i]) << " cj_p" << i << " = *(" << type(f.arg_types[i]) << "*)cj_params[" << i << "];\n";
      call += (i ? ", " : "") + std::string("cj_p") + std::to_string(i);
    }
    call += ")";
    if (f.ret.tag == Type::Tag::Void || f.ret.tag == Type::Tag::None) os << "  (void)cj_ret;\n  " << call << ";\n";
    else os << "  *(" << type(f.ret) << "*)cj_ret = " << call << ";\n";
    os << "  return nullptr;\n} catch (const cj::PyError& e) {\n  return cj::error_record(e);\n}\n";
    return os.str();
  }
  if (ep.kind == EntryPoint::Kind::DeviceAbi) {
    if (cx.target != Target::CUDA) return "";
    const bool is_void = f.ret.tag == Type::Tag::Void || f.ret.tag == Type::Tag::None;
    const std::string ret = is_void ? "void" : type(f.ret);
    std::string params, call = f.cpp_name + "(";
    if (!ep.c_abi) params = (is_void ? std::string("void") : ret) + "* cj_ret";
    for (size_t i = 0; i < f.arg_types.size(); ++i) {
      params += (params.empty() ? "" : ", ") + type(f.arg_types[i]) + " cj_p" + std::to_string(i);
      call += (i ? ", " : "") + std::string("cj_p") + std::to_string(i);
    }
    call += ")";
    // cuda.compile(forceinline=True) arrives as NVRTC's -DCJ_DEVICE_ENTRY=__forceinline__ (an
    // option, as launch bounds for kernels).
    os << "#ifndef CJ_DEVICE_ENTRY\n#define CJ_DEVICE_ENTRY\n#endif\n";
    os << "extern \"C\" __device__ CJ_DEVICE_ENTRY " << (ep.c_abi ? ret : std::string("int")) << " " << ep.symbol << "(" << params << ") {\n";
    if (ep.c_abi) os << "  " << (is_void ? "" : "return ") << call << ";\n";
    else os << "  " << (is_void ? "(void)cj_ret; " + call : "*cj_ret = " + call) << ";\n  return 0;\n";
    os << "}\n";
    return os.str();
  }
  if (ep.kind == EntryPoint::Kind::NumpyLoop) return numpy_loop(ep, f, cx);
  if (ep.kind == EntryPoint::Kind::NumpyGufunc) return numpy_gufunc(ep, f, cx);
  // Kernel. On the GPU its parameters are the typed values cuLaunchKernel passes; in the
  // simulator they arrive as an array of pointers to each argument's bytes (the same array the
  // runtime builds for cuLaunchKernel), and the prelude's loop runs every thread of the blocks.
  const auto& params = f.mod.func->params;
  if (cx.target == Target::CUDA) {
    // launch_bounds= arrives as NVRTC's -DCJ_LAUNCH_BOUNDS=__launch_bounds__(...): an option,
    // like fastmath, so the generated text (and its caches) stays the same for every bound.
    os << "#ifndef CJ_LAUNCH_BOUNDS\n#define CJ_LAUNCH_BOUNDS\n#endif\n";
    os << "extern \"C\" __global__ void CJ_LAUNCH_BOUNDS " << ep.symbol << "(";
    for (size_t i = 0; i < params.size(); ++i) os << (i ? ", " : "") << type(f.arg_types[i]) << " cj_p" << i;
    os << ") {\n";
    // The restrict variant (pipeline.h restrict_cuda_source defines CJ_RESTRICT), launched when
    // no two array arguments overlap: each data pointer passes through a __restrict__ pointer,
    // so NVVM may keep values in registers across stores and read the arrays the kernel never
    // writes through the read-only cache (ld.global.nc). It infers which those are itself.
    // Measurements (CUJIT_C_STRIDE=1): a C-contiguous array's last stride is its item size
    // (NumPy's rule where that dimension has two or more items; with one, index 0 is the only
    // valid one and the stride multiplies 0), so NVVM folds the multiply of every access. Not
    // where the program reads strides, which must stay the array's own.
    const char* cs = std::getenv("CUJIT_C_STRIDE");
    if (cs && std::string(cs) == "1" && !cx.reads_strides)
      for (size_t i = 0; i < params.size(); ++i)
        if (f.arg_types[i].is_array() && f.arg_types[i].layout == 'C' && f.arg_types[i].ndim > 0)
          os << "  cj_p" << i << ".strides[" << f.arg_types[i].ndim - 1 << "] = (int64_t)sizeof(*cj_p" << i << ".data);\n";
    if (kernel_restrict_candidate(f.arg_types)) {
      os << "#ifdef CJ_RESTRICT\n";
      for (size_t i = 0; i < params.size(); ++i)
        if (f.arg_types[i].is_array())
          os << "  decltype(cj_p" << i << ".data) __restrict__ cj_r" << i << " = cj_p" << i << ".data; cj_p" << i
             << ".data = cj_r" << i << ";\n";
      os << "#endif\n";
    }
  } else {
    os << "extern \"C\" CJ_EXPORT void " << ep.symbol << "(void** cj_params, cj::SimLaunch* cj_launch) {\n";
    for (size_t i = 0; i < params.size(); ++i)
      os << "  " << type(f.arg_types[i]) << " cj_p" << i << " = *(" << type(f.arg_types[i]) << "*)cj_params[" << i << "];\n";
  }
  std::string call = f.cpp_name + "(";
  for (size_t i = 0; i < params.size(); ++i) call += (i ? ", " : "") + std::string("cj_p") + std::to_string(i);
  call += ");";
  if (cx.target == Target::CUDA) {
    os << "  " << call << "\n}\n";
  } else if (!cx.co_frame.empty()) {  // a coroutine (codegen_simco.cpp): the thread's frame first
    std::string co = f.cpp_name + "(cj_fr";
    for (size_t i = 0; i < params.size(); ++i) co += ", cj_p" + std::to_string(i);
    os << "  CJ_SIM_EACH_THREAD_CO(cj_launch, " << cx.co_frame << ", " << co << "))\n}\n";
  } else {
    os << "  CJ_SIM_EACH_THREAD(cj_launch, " << (cx.uses_barrier ? "true" : "false") << ", " << call << ")\n}\n";
  }
  return os.str();
}

}  // namespace cujit
