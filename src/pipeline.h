// The recipe run on a dispatch miss: parse -> type -> emit -> compile (src/pipeline.cpp names
// each stage once, in order). Each stage reads the previous stage's output; with CUJIT_DEBUG=1..3
// each prints what it did (1: stages and times, 2: the typed trees, 3: the generated code). The
// runtime loads what this hands it.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen.h"
#include "compiler/globals.h"
#include "compiler/types.h"
#include "toolchain/host_compiler.h"
#include "toolchain/nvrtc.h"

namespace cujit {

/// Generated code for one decorated function, for both toolchains.
struct Build {
  std::string name;                         // the user's function name, for messages
  std::string cuda_source;                  // prelude + generated code, for NVRTC
  std::string host_source;                  // prelude + generated code, for the host compiler
  std::size_t host_prelude_len = 0;         // host_source's prelude: its first bytes (precompiled)
  std::map<std::string, SourceFile> files;  // every user file the code came from (error mapping)
  std::vector<std::string> host_flags;      // extra host-compiler flags (-fopenmp for target='parallel')
  std::vector<std::string> file_order;      // program_files: {fileN} in simulator messages
  bool debug = false;                       // @cuda.jit(debug=True): the GPU code checks indices
  std::vector<CheckSite> check_sites;       // debug: the GPU code's checked accesses, by number
  std::vector<ExcClass> exc_classes;        // the classes raise statements name (typeinfer_exc.cpp)
  std::vector<std::string> type_safety_warnings;  // NumbaTypeSafetyWarning messages (warn_unsafe_store), each once
  std::vector<RaiseSite> raise_sites;       // GPU code's raise statements, by number (codegen_exc.cpp)
  bool cooperative = false;                 // a kernel using cuda.cg.this_grid(): launched cooperatively
  // Linked code other than CUDA C++ sources (those are in the program's text): PTX, cubins, ...
  // for the GPU's linker; the simulator cannot run them.
  std::vector<GlobalValue::LinkItem> device_links;
  std::vector<std::string> cuda_links;  // the names of the linked CUDA C++ sources (in the program's text)
  std::vector<std::string> nvrtc_options;  // "-rdc=true" when device_links are linked to the kernel
  std::vector<std::string> nvrtc_flags;     // @cuda.jit's lineinfo, max_registers, opt, fastmath (kernels)
};

/// The parse stage: `src` and every user function its globals name (recursively) parsed into
/// prog.trees, which typing reads, and the parser installed (prog.parser) for a function typing
/// meets that no global names. Every Program is handed to this before Program::instantiate.
void parse_stage(Program& prog, const std::shared_ptr<FunctionSource>& src);

/// CUJIT_SIM_RACECHECK is on: kernels compiled now get the simulator's shared-memory race check.
bool sim_racecheck_enabled();

/// A simulator message with its {fileN} placeholders replaced by the files' paths.
std::string name_files(std::string message, const std::vector<std::string>& file_order);

/// One signature of a vectorize: its loop symbol in the generated code.
struct UfuncVariant {
  std::vector<Scalar> inputs;
  Scalar output;
  std::string symbol;
};

struct UfuncBuild : Build {
  std::vector<UfuncVariant> variants;
};

struct KernelBuild : Build {
  std::string symbol;
  std::vector<Type> arg_types;
  std::string annotated;  // inspect_types() text (compiler/annotate.h)
};

/// Types and generates a CUDA ufunc: one loop per signature, all in one program.
UfuncBuild build_ufunc(const std::shared_ptr<FunctionSource>& src, const std::vector<Signature>& sigs);

/// A chain of CUDA ufunc calls fused into one loop (bindings/ufunc_fuse.cpp): `ops` are the ufunc
/// signatures involved, each typed exactly as build_ufunc types it; step j calls ops[steps[j].op]
/// on leaf operands (k >= 0, of types `leaves`) or earlier steps (~j); the last step is stored.
struct FusedOp {
  std::shared_ptr<FunctionSource> src;
  Signature sig;
};
struct FusedStep {
  int op;
  std::vector<int> args;
};
/// One variant, its symbol `symbol`, its inputs the leaves.
UfuncBuild build_fused_ufunc(const std::vector<FusedOp>& ops, const std::vector<FusedStep>& steps,
                             const std::vector<Scalar>& leaves, const std::string& symbol, const std::string& name);

/// An @jit (CPU) function typed for one set of argument types; only host_source is used.
struct CpuBuild : Build {
  std::string symbol;
  std::vector<Type> arg_types;
  Type ret;
  std::string annotated;  // inspect_types() text (compiler/annotate.h)
};

/// @jit's options that change the generated code or its flags.
struct CpuOptions {
  bool parallel = false;  // prange loops on OpenMP threads (-fopenmp)
  bool fastmath = false;  // -ffast-math, as Numba's fastmath=True relaxes LLVM's float rules
  bool python_errors = true;  // error_model='python': division by zero raises ZeroDivisionError
  bool boundscheck = false;   // boundscheck=True (or the environment's): IndexError out of bounds
};

/// Types and generates an @jit function for the argument types of a call; `ret`, a declared
/// signature's return type, converts the result to it (Unknown: inferred).
CpuBuild build_cpu_function(const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args,
                            const CpuOptions& options = {}, const Type& ret = Type::unknown());

/// A CPU @vectorize / @guvectorize: NumPy inner loops, one per signature, in one host library.
/// For a vectorize, `output` is the declared or (with no return type given) inferred result.
struct NumpyLoopVariant {
  std::vector<Type> args;  // vectorize: scalars; guvectorize: every operand, outputs included
  Type output;             // vectorize only
  std::string symbol;
  // guvectorize: per operand, whether the body stores into it (typing it read-only fails).
  // NumPy must then open that input writeable, so a read-only input is refused (cpu_ufunc.cpp).
  std::vector<bool> written;
};

struct NumpyUfuncBuild : Build {
  std::vector<NumpyLoopVariant> variants;
};

/// Types and generates NumPy loops for a CPU @vectorize; `first` numbers the symbols (a lazy
/// ufunc builds one library per new signature). A signature without a return type ("(float32,
/// int64)") takes the inferred one. `parallel` splits long loops over OpenMP threads.
NumpyUfuncBuild build_numpy_ufunc(const std::shared_ptr<FunctionSource>& src, const std::vector<Signature>& sigs,
                                  bool parallel, int first);

/// The same for a CPU @guvectorize: `core_dims` as EntryPoint::core_dims (one list per operand);
/// each signature lists every operand (inputs then outputs) and returns nothing.
NumpyUfuncBuild build_numpy_gufunc(const std::shared_ptr<FunctionSource>& src, const std::vector<Signature>& sigs,
                                   const std::vector<std::vector<int>>& core_dims, bool parallel, int first);

/// Throws the TypingError for argument `index` of `src` (rendered at that parameter in the def).
[[noreturn]] void argument_type_error(const std::shared_ptr<FunctionSource>& src, int index, const std::string& msg);

/// Types and generates a kernel for the argument types of a call (or a declared signature).
/// `debug` (@cuda.jit(debug=True)) makes the GPU code check every array index (Build::debug).
KernelBuild build_kernel(const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args,
                         bool debug = false);

/// A device function on its own, for cuda.compile(device=True): typed for `args` (and a declared
/// return type, or Unknown), with the extern "C" entry `symbol` (EntryPoint::Kind::DeviceAbi).
/// Returns the build (its cuda_source) and sets *ret to the return type.
Build build_device_function(const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args,
                            const Type& declared_ret, bool c_abi, const std::string& symbol, Type* ret);

/// The prelude of a CUDA program that uses none of its optional parts (prelude/cuda.h + common.h
/// and the rest; complex_math.h, datetime.h, ufuncs.h and repr.h only where the code names them:
/// pipeline.cpp cuda_optional_parts), ending with the line after which the program's own code starts.
const std::string& cuda_prelude();

/// NVRTC on a generated program (a cuda_source), without the disk cache: the prelude it starts
/// with goes to NVRTC as a header of its own, so that the process's precompiled header for it is
/// made or used (toolchain/nvrtc_pch.h). A source without the prelude is compiled as it is. The
/// flags are toolchain::nvrtc_compile's.
/// Throws what toolchain::nvrtc_compile throws.
toolchain::NvrtcOutput nvrtc_compile_source(const std::string& source, const std::string& name,
                                            const std::string& arch,
                                            const std::vector<std::string>& extra_options = {},
                                            bool allow_pch = true, bool allow_minimal = true);

/// The precompiled header of cuda_prelude() (what a program using no optional part includes)
/// for the arch `arch` returns (called on that thread) and the default options, written by NVRTC's
/// background thread (toolchain::nvrtc_prepare_pch): the warm-up at a process's first GPU context.
void nvrtc_prepare_prelude_pch(std::function<std::string()> arch);

/// NVRTC for `arch` ("sm_90": CUBIN; "compute_90": PTX), through the disk cache. Errors in the
/// generated code are reported at the user's line (cujit.errors.TypingError).
toolchain::NvrtcOutput compile_cuda(const Build& b, const std::string& arch);

/// A kernel's restrict variant (codegen_entry.cpp, kernel_restrict_candidate): its CUDA program
/// with CJ_RESTRICT defined after the prelude (a define in the text, not an NVRTC option, so
/// that the prelude's precompiled header serves both variants).
std::string restrict_cuda_source(const std::string& cuda_source);

/// A kernel variant's programs, made from a copy of the plain build: `restrict` as above;
/// `narrow`, launched when every array argument's elements lie within 2^31 bytes of its data
/// pointer, defines CJ_INDEX32 after the prelude of both programs (32-bit index arithmetic,
/// prelude/common.h IndexWidth).
void kernel_variant_sources(Build& b, bool restrict, bool narrow);

/// The host compiler, through the disk cache; errors mapped to the user's line likewise.
std::shared_ptr<toolchain::HostLibrary> compile_host(const Build& b);

/// CUJIT_DEBUG, read once.
int debug_level();

}  // namespace cujit
