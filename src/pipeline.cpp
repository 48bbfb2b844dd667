// The compile recipe (Halide's Lower.cpp is the model): each stage in order, a debug dump after
// each, and the mapping of toolchain errors back to the user's Python line. The stages, named
// once, in order (every build_* function below runs them so):
//   parse    parse_stage: the source text of each user function to its tree (compiler/parser.h)
//   type     Program::instantiate (timed as "type"): names resolved and types inferred; typing
//            reads the parse stage's trees and never parses
//   lower    lower_stage: the named passes of compiler/lower.cpp over the typed trees
//   emit     emit_stage: typed instances to C++ for each target, with its prelude
//   compile  compile_cuda / compile_host: the toolchains, through the disk cache
#include "pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

#include "abi/cujit_abi.h"
#include "compiler/annotate.h"
#include "compiler/builtins.h"
#include "compiler/codegen_foreign.h"
#include "compiler/fnargs.h"
#include "compiler/parser.h"
#include "compiler/lower.h"
#include "compiler/typeinfer.h"
#include "abi/errors.h"
#include "runtime/host_calls.h"
#include "toolchain/cache.h"

namespace cujit::prelude {
const char* get(const std::string& name);  // generated from src/prelude (embed.cmake)
}

namespace cujit {

#ifndef CUJIT_VERSION
#define CUJIT_VERSION "dev"
#endif

int debug_level() {
  static int level = [] {
    const char* v = std::getenv("CUJIT_DEBUG");
    return v ? std::atoi(v) : 0;
  }();
  return level;
}

bool sim_racecheck_enabled() {
  // Read at every kernel compile, not once, so that a program (or a test) can switch it for the
  // kernels it compiles next. Off values as config.py's flags have them.
  const char* v = std::getenv("CUJIT_SIM_RACECHECK");
  if (!v) return false;
  const std::string s = v;
  return !(s.empty() || s == "0" || s == "false" || s == "False" || s == "no");
}

namespace {

using Clock = std::chrono::steady_clock;

struct StageTimer {
  const char* stage;
  std::string what;
  Clock::time_point t0 = Clock::now();
  ~StageTimer() {
    if (debug_level() >= 1) {
      double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      std::cerr << "cujit: " << stage << " " << what << ": " << ms << " ms\n";
    }
  }
};

// Whether generated code calls a Rule::NpFunc builtin (builtins.def) of host_nplib.h or
// host_linalg.h, or np.dot (`@`), or indexes with an array: those other than host_numpy.h's
// cj::npa_* functions (their own header, included on that prefix).
bool uses_nplib(const std::string& code) {
  static const std::vector<std::string> spellings = [] {
    struct Row {
      Rule rule;
      const char* spelling;
    };
    static const Row rows[] = {
#define BUILTIN(id, name, rule, spelling) {Rule::rule, spelling},
#define UFUNC(id, name, loops, spelling)
#define CONSTANT(name, literal)
#include "compiler/builtins.def"
#undef BUILTIN
#undef UFUNC
#undef CONSTANT
    };
    std::vector<std::string> v{"cj::np_dot(", "cj::np_bincount_w(", "cj::fancy_"};
    for (const Row& r : rows)  // called as f(...) or f<R>(...)
      if (r.rule == Rule::NpFunc && std::string(r.spelling).rfind("cj::npa_", 0) != 0) v.push_back(r.spelling);
    return v;
  }();
  for (const auto& sp : spellings)
    if (code.find(sp) != std::string::npos) return true;
  return false;
}

// The parts of the prelude a GPU program gets only where its code names them. NVRTC loads a
// program's prelude from its precompiled header, and loading costs in proportion to the header's
// size (benchmarks/NOTES-compile.md: ~6 ms per compile for the whole prelude, ~4.5 ms of it these
// parts), so a kernel that uses none of them compiles faster. Each part's functions take its own
// types (Complex, dt64/td64) or have names of their own, so one that is left out cannot change
// which overload a call picks: a program that needs a part it lacks fails to compile (every GPU
// program of the tests is compiled, CUJIT_CHECK_PTX). The host target keeps the whole prelude
// (its header is precompiled once per machine, tests/test_host_pch.py).
struct OptionalPart {
  const char* header;
  std::vector<const char*> names;  // any of these in the generated code includes the part
};
const std::vector<OptionalPart>& cuda_optional_parts() {
  static const std::vector<OptionalPart> parts = {
      // CUDA's atomics and cache-hinted loads and stores (builtins.def's Atomic, CacheLoad and
      // CacheStore rows): ~2 ms of the precompiled prelude's load on their own.
      {"cuda_atomics.h", {"cj::atomic_", "cj::ldc", "cj::ldlu", "cj::stc", "cj::stw"}},
      // cmath of complex numbers (its overloads take Complex): every complex value has its type
      // (cj::complex64/complex128, types.def) spelled in the code.
      {"complex_math.h", {"Complex", "cj::complex", "cj::rect", "cj::phase"}},
      {"datetime.h", {"dt64<", "td64<", "cj::time_", "cj::isnat", "cj::dt_to", "cj::td_to", "kNaT"}},
      // NumPy's ufunc loops and whole-array reductions (codegen_ufunc.cpp, codegen_numpy.cpp,
      // codegen_arrayexpr.cpp) and their error policies.
      {"ufuncs.h", {"cj::uf_", "cj::red_", "ufunc_apply", "UfErrLaunch", "UfErrPy"}},
      {"repr.h", {"float_repr", "complex_repr", "shortest_digits"}},  // print() of floats
  };
  return parts;
}

// The last line of every GPU program's prelude: nvrtc_compile_source gives NVRTC what comes
// before it (and the line) as the header it precompiles, restrict_cuda_source inserts after it.
const char kCudaPreludeEnd[] = "// cujit: end of the prelude\n";

// The prelude in front of generated code: the ABI shared with the runtime (src/abi/cujit_abi.h),
// the target's header, the shared one, and for the host the extension's services; CPU-only
// programs also get NumPy's loop helpers (numpy_loop.h).
std::string with_prelude(Target t, const std::string& code, bool host_only = false, bool debug_checks = false) {
  // The GPU's index checks (debug=True) are compiled in only when asked for: cuda.h and common.h
  // test CJ_DEBUG_CHECKS, so code without them is unchanged.
  std::string s = debug_checks ? "#define CJ_DEBUG_CHECKS 1\n" : "";
  s += prelude::get("cujit_abi.h");
  auto part = [&](const char* header) {
    if (t == Target::CUDA) {
      const auto& parts = cuda_optional_parts();
      auto p = std::find_if(parts.begin(), parts.end(), [&](const OptionalPart& o) { return std::string(o.header) == header; });
      if (p != parts.end() && std::none_of(p->names.begin(), p->names.end(), [&](const char* n) { return code.find(n) != std::string::npos; }))
        return;
    }
    s += prelude::get(header);
  };
  s += prelude::get(t == Target::CUDA ? "cuda.h" : "host.h");
  if (t == Target::CUDA) part("cuda_atomics.h");
  s += prelude::get("half.h");
  s += prelude::get("common.h");
  s += prelude::get("complex.h");
  part("complex_math.h");
  part("datetime.h");
  part("half_math.h");
  part("ufuncs.h");
  part("repr.h");
  if (t == Target::CUDA) s += kCudaPreludeEnd;
  if (t == Target::Host) {
    s += prelude::get("host_services.h");
    s += prelude::get("host_random.h");
    s += prelude::get("host_arrays.h");
    // Lists (@jit code only): their header only where the code names them, so programs
    // without lists compile as before.
    // Strings, dicts and sets likewise (host_str.h and host_dict.h need host_list.h: split() and
    // keys() make lists; host_dict.h after host_str.h: a str key's hash).
    const bool strs = code.find("cj::Str") != std::string::npos || code.find("cj::str_") != std::string::npos;
    const bool dicts = code.find("cj::Dict<") != std::string::npos || code.find("cj::dict_") != std::string::npos ||
                       code.find("cj::Set<") != std::string::npos || code.find("cj::set_") != std::string::npos ||
                       code.find("cj::py_hash") != std::string::npos;
    if (strs || dicts || code.find("cj::List<") != std::string::npos || code.find("cj::list_") != std::string::npos)
      s += prelude::get("host_list.h");
    if (strs) s += prelude::get("host_str.h");
    // Unicode's case tables (~140 KB) only where the code maps case.
    static const char* const kCaseFns[] = {"cj::str_upper(", "cj::str_lower(", "cj::str_swapcase(", "cj::str_title(", "cj::str_capitalize(", "cj::str_casefold("};
    if (strs && std::any_of(std::begin(kCaseFns), std::end(kCaseFns), [&](const char* f) { return code.find(f) != std::string::npos; })) {
      s += prelude::get("unicode_case.h");
      s += prelude::get("host_str_case.h");
    }
    // Unicode's character classes (~60 KB) only where the code calls a predicate that needs them.
    static const char* const kClassFns[] = {"cj::str_isalpha(", "cj::str_isalnum(", "cj::str_isdigit(", "cj::str_isdecimal(",
                                            "cj::str_isnumeric(", "cj::str_isspace(", "cj::str_isupper(", "cj::str_islower(",
                                            "cj::str_istitle(", "cj::str_isidentifier(", "cj::str_isprintable("};
    if (strs && std::any_of(std::begin(kClassFns), std::end(kClassFns), [&](const char* f) { return code.find(f) != std::string::npos; })) {
      s += prelude::get("unicode_class.h");
      s += prelude::get("host_str_class.h");
    }
    if (dicts) s += prelude::get("host_dict.h");
    if (host_only) s += prelude::get("numpy_loop.h");
    // NumPy's sorting and linear algebra (@jit code only; Rule::NpFunc calls, `@`): only where the
    // code calls them, so other programs compile as before.
    if (host_only && uses_nplib(code)) {
      s += prelude::get("host_nplib.h");
      s += prelude::get("host_npshape.h");
      s += prelude::get("host_linalg.h");
      s += prelude::get("host_linalg_decomp.h");
    }
    if (code.find("cj::npa_") != std::string::npos) s += prelude::get("host_numpy.h");
    if (code.find("cj::npa_median") != std::string::npos || code.find("cj::npa_percentile") != std::string::npos)
      s += prelude::get("host_numpy_sort.h");
  }
  s += code;
  return s;
}

void dump_program(const Program& prog) {
  if (debug_level() < 2) return;
  for (const auto& f : prog.fns) {
    std::cerr << "cujit: typed " << f->cpp_name << " -> " << f->ret.str() << "\n";
    for (const auto& [n, t] : f->versions) std::cerr << "    " << n << ": " << t.str() << "\n";
    std::cerr << ast::dump(*f->mod.func, 2);
  }
}

// emit: a host-only program (@jit, CPU @vectorize/@guvectorize) generates nothing for NVRTC.
void emit_stage(Build& b, const Program& prog, const std::vector<EntryPoint>& entries) {
  dump_program(prog);
  std::string cuda_code, host_code;
  {
    StageTimer t{"codegen", b.name};
    if (!prog.host_only) cuda_code = emit_program(prog, entries, Target::CUDA, &b.check_sites);
    host_code = emit_program(prog, entries, Target::Host);
  }
  if (debug_level() >= 3) {  // both texts where both exist: the simulator compiles the host one
    if (!prog.host_only) std::cerr << "cujit: generated CUDA C++ for " << b.name << ":\n" << cuda_code << "\n";
    std::cerr << "cujit: generated host C++ for " << b.name << ":\n" << host_code << "\n";
  }
  b.debug = prog.debug_checks;
  if (!prog.host_only) b.cuda_source = with_prelude(Target::CUDA, cuda_code, false, prog.debug_checks);
  b.host_source = with_prelude(Target::Host, host_code, prog.host_only);
  // The race check's prelude parts (host.h) compile only under this macro; being in the text, it
  // is in the disk cache key, so checked and unchecked builds never stand in for each other.
  if (prog.race_check) b.host_source = "#define CJ_SIM_RACECHECK 1\n" + b.host_source;
  b.host_prelude_len = b.host_source.size() - host_code.size();
  for (const auto& f : prog.fns) b.files[f->mod.source.filename] = f->mod.source;
  b.file_order = program_files(prog);
  b.exc_classes = prog.exc_classes;
  b.raise_sites = prog.raise_sites;
  for (const auto& f : prog.fns)
    for (const auto& w : f->type_safety_warnings)
      if (std::find(b.type_safety_warnings.begin(), b.type_safety_warnings.end(), w) == b.type_safety_warnings.end())
        b.type_safety_warnings.push_back(w);
}


// Finds the first "FILE(LINE): error: MSG" (NVRTC) or "FILE:LINE:COL: error: MSG" (gcc/clang)
// whose FILE is one of the user's, and reports it there.
[[noreturn]] void map_toolchain_error(const Build& b, const std::string& log, const char* tool,
                                      const std::string& fallback) {
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    size_t err = line.find(": error");
    if (err == std::string::npos) err = line.find(": fatal error");
    if (err == std::string::npos) continue;
    for (const auto& [file, src] : b.files) {
      if (line.compare(0, file.size(), file) != 0) continue;
      std::string rest = line.substr(file.size(), err - file.size());
      int ln = 0;
      if (std::sscanf(rest.c_str(), "(%d)", &ln) != 1 && std::sscanf(rest.c_str(), ":%d", &ln) != 1) continue;
      std::string msg = line.substr(err + 2);
      SourceLoc loc{ln, -1, 1};
      user_error(src, loc, ErrorKind::Typing,
                 std::string("the ") + tool + " rejected the code generated for this line: " + msg +
                     "\n(this is a cujit bug or an unsupported construct; CUJIT_DEBUG=3 shows the code)");
    }
  }
  throw rt::ToolchainError(fallback);
}

// `src` (the entry when `entry`) and the user functions its globals name, recursively. A named
// function whose text the parser refuses is left out: typing may never call it, and where it
// does, prog.parser reports the error there, as it always has.
void parse_reachable(Program& prog, const FunctionSource& src, std::set<const FunctionSource*>& seen, bool entry) {
  if (!seen.insert(&src).second) return;
  if (!src.tree && !prog.trees.count(&src)) {  // a nested def's tree is its lifted one (typeinfer_nested.cpp)
    try {
      prog.trees.emplace(&src, std::make_shared<const ast::Module>(parse(src.source)));
    } catch (const CompileError&) {
      if (entry) throw;
    }
  }
  for (const auto& [name, g] : src.globals)
    if (g.fn) parse_reachable(prog, *g.fn, seen, false);
}

}  // namespace

// The lower stage (compiler/lower.h): its passes' trees printed with CUJIT_DEBUG=2.
void lower_stage(Program& prog, const std::string& name) {
  StageTimer t{"lower", name};
  lower(prog, LowerOptions{debug_level() >= 2});
}

void parse_stage(Program& prog, const std::shared_ptr<FunctionSource>& src) {
  StageTimer t{"parse", src->name};
  // A function typing meets that no global names (one passed as an argument) is parsed when met.
  prog.parser = [](const SourceFile& text) { return parse(text); };
  std::set<const FunctionSource*> seen;
  parse_reachable(prog, *src, seen, true);
}

UfuncBuild build_ufunc(const std::shared_ptr<FunctionSource>& src, const std::vector<Signature>& sigs) {
  UfuncBuild b;
  b.name = src->name;
  Program prog;
  std::vector<EntryPoint> entries;
  parse_stage(prog, src);
  {
    StageTimer t{"type", src->name};
    for (size_t i = 0; i < sigs.size(); ++i) {
      const Signature& s = sigs[i];
      UfuncVariant v;
      for (const auto& a : s.args) {
        // numba-cuda makes a NumPy dtype of each argument type's name, which a record's is not:
        // its ValueError, word for word (NumPy's), then why.
        if (a.is_record())
          throw std::invalid_argument("format number 1 of \"" + a.str() + "\" is not recognized (a CUDA vectorize "
                                      "signature takes scalar types, not records, as in numba-cuda)");
        if (!a.is_scalar()) throw std::invalid_argument("vectorize signatures take scalar types only, got " + a.str() + " in " + s.str());
        v.inputs.push_back(a.scalar);
      }
      // Without a return type ("(datetime64[D], datetime64[D])") the body's result type is the
      // output's, as numba-cuda infers it.
      if (s.ret.known() && !s.ret.is_scalar())
        throw std::invalid_argument("vectorize signatures need a scalar return type, as in 'float32(float32, float32)'; got '" + s.str() + "'");
      int idx = prog.instantiate(src, s.args, s.ret, Role::Ufunc);
      const Type out = prog.fns[idx]->ret;
      if (!out.is_scalar())
        throw std::invalid_argument(src->name + "() returns " + out.str() + " for (" + s.str() +
                                    "); a vectorize function must return a scalar");
      v.output = out.scalar;
      v.symbol = cj::kUfuncPrefix + src->name + "_" + std::to_string(i);
      entries.push_back({EntryPoint::Kind::Ufunc, idx, v.symbol});
      b.variants.push_back(v);
    }
  }
  lower_stage(prog, b.name);
  emit_stage(b, prog, entries);
  return b;
}

UfuncBuild build_fused_ufunc(const std::vector<FusedOp>& ops, const std::vector<FusedStep>& steps,
                             const std::vector<Scalar>& leaves, const std::string& symbol, const std::string& name) {
  UfuncBuild b;
  b.name = name;
  Program prog;
  std::vector<int> inst;
  for (const auto& op : ops) parse_stage(prog, op.src);
  {
    StageTimer t{"type", name};
    for (const auto& op : ops) inst.push_back(prog.instantiate(op.src, op.sig.args, op.sig.ret, Role::Ufunc));
  }
  EntryPoint ep{EntryPoint::Kind::FusedUfunc, inst[steps.back().op], symbol};
  for (const auto& s : steps) ep.steps.push_back({inst[s.op], s.args});
  ep.leaves = leaves;
  UfuncVariant v;
  v.inputs = leaves;
  v.output = prog.fns[ep.instance]->ret.scalar;
  v.symbol = symbol;
  b.variants.push_back(v);
  lower(prog, LowerOptions{debug_level() >= 2});
  emit_stage(b, prog, {ep});
  return b;
}

namespace {
// Which array operands of a gufunc body are stored into: typing the body with that one operand
// read-only fails with the read-only store error (typeinfer.h). NumPy hands a gufunc its inputs
// as they are, read-only memory included, so such an input must be opened writeable. Typing
// only, a few milliseconds per operand; the C++ is generated once.
std::vector<bool> stored_operands(const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args,
                                  const Type& declared) {
  std::vector<bool> written(args.size(), false);
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].is_array()) continue;
    std::vector<Type> probe_args = args;
    probe_args[k].readonly = true;
    Program probe;
    probe.host_only = true;
    try {
      parse_stage(probe, src);
      probe.instantiate(src, probe_args, declared, Role::Device);
    } catch (const CompileError& e) {
      written[k] = e.message.find(kReadonlyStore) != std::string::npos;
    } catch (const std::exception&) {
      // The real typing of this signature succeeded; a probe never fails a build.
    }
  }
  return written;
}

// The shared part of the two CPU NumPy-loop builds: one instance and one entry per signature.
NumpyUfuncBuild build_numpy_loops(const std::shared_ptr<FunctionSource>& src, const std::vector<Signature>& sigs,
                                  EntryPoint::Kind kind, const std::vector<std::vector<int>>& core_dims,
                                  bool parallel, int first) {
  const bool gufunc = kind == EntryPoint::Kind::NumpyGufunc;
  NumpyUfuncBuild b;
  b.name = src->name;
  // -O3: GCC vectorises at -O2 only loops that need no remainder, and NumPy's counts are any.
  b.host_flags = {"-O3"};
  if (parallel) b.host_flags.push_back("-fopenmp");
  Program prog;
  prog.host_only = true;
  prog.gufunc = gufunc;
  std::vector<EntryPoint> entries;
  parse_stage(prog, src);
  {
    StageTimer t{"type", src->name};
    for (size_t i = 0; i < sigs.size(); ++i) {
      const Signature& s = sigs[i];
      for (const auto& a : s.args) {
        // Records pass (NumPy's void type); NumPy does not tell one structured dtype from another,
        // so cpu_ufunc.py's RecordUFunc checks each operand's dtype before NumPy sees it.
        if (!gufunc && !a.is_scalar() && !a.is_record())
          throw std::invalid_argument("vectorize signatures take scalar types only, got " + a.str() + " in " + s.str());
        if (gufunc && !a.is_scalar() && !a.is_array() && !a.is_record())
          throw std::invalid_argument("guvectorize signatures take arrays and scalars, got " + a.str() + " in " + s.str());
      }
      if (!gufunc && s.ret.known() && !s.ret.is_scalar() && !s.ret.is_record())
        throw std::invalid_argument("vectorize signatures need a scalar return type, as in 'float32(float32, float32)'; got '" + s.str() + "'");
      // A gufunc writes its outputs through array arguments; typing ignores a 'void' return.
      Type declared = gufunc ? Type::unknown() : s.ret;
      NumpyLoopVariant v;
      v.args = s.args;
      int idx = prog.instantiate(src, s.args, declared, gufunc ? Role::Device : Role::Ufunc);
      v.output = prog.fns[idx]->ret;
      if (!gufunc && !v.output.is_scalar() && !v.output.is_record())
        throw std::invalid_argument(src->name + "() returns " + v.output.str() + " for (" + s.str() +
                                    "); a vectorize function must return a scalar");
      if (gufunc) v.written = stored_operands(src, s.args, declared);
      v.symbol = std::string(gufunc ? cj::kGufuncPrefix : cj::kNpyLoopPrefix) + src->name + "_" + std::to_string(first + (int)i);
      EntryPoint e{kind, idx, v.symbol};
      e.parallel = parallel;
      e.core_dims = core_dims;
      entries.push_back(e);
      b.variants.push_back(v);
    }
  }
  lower_stage(prog, b.name);
  emit_stage(b, prog, entries);
  return b;
}
}  // namespace

NumpyUfuncBuild build_numpy_ufunc(const std::shared_ptr<FunctionSource>& src, const std::vector<Signature>& sigs,
                                  bool parallel, int first) {
  return build_numpy_loops(src, sigs, EntryPoint::Kind::NumpyLoop, {}, parallel, first);
}

NumpyUfuncBuild build_numpy_gufunc(const std::shared_ptr<FunctionSource>& src, const std::vector<Signature>& sigs,
                                   const std::vector<std::vector<int>>& core_dims, bool parallel, int first) {
  return build_numpy_loops(src, sigs, EntryPoint::Kind::NumpyGufunc, core_dims, parallel, first);
}

namespace {
// What build_single builds: one entry point (a kernel or an @jit function) and the options that
// change its typing or its code.
struct SingleOptions {
  Role role = Role::Device;
  EntryPoint::Kind kind = EntryPoint::Kind::Cpu;
  std::string symbol;
  Type declared_ret = Type::unknown();
  std::string* annotated = nullptr;  // where inspect_types()'s text goes (null: not wanted)
  bool parallel = false;             // @jit(parallel=True)
  bool python_errors = false;        // @jit's error_model='python'
  bool boundscheck = false;          // @jit(boundscheck=True)
  bool race_check = false;           // CUJIT_SIM_RACECHECK (kernels)
  bool debug_checks = false;         // @cuda.jit(debug=True)
};

// One entry point for one set of argument types: types it, fills `b` and returns the instance's
// inferred return type.
Type build_single(Build& b, const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args,
                  const SingleOptions& o) {
  b.name = src->name;
  const bool cpu = o.kind == EntryPoint::Kind::Cpu;
  Program prog;
  prog.debug_checks = o.debug_checks;
  prog.host_only = cpu;
  prog.parallel = o.parallel;
  prog.python_errors = cpu && o.python_errors;
  prog.boundscheck = cpu && o.boundscheck;
  prog.optionals = cpu;
  parse_stage(prog, src);
  int idx;
  {
    StageTimer t{"type", src->name};
    idx = prog.instantiate(src, resolve_function_args(prog, *src, args), o.declared_ret, o.role);
    if (o.kind == EntryPoint::Kind::Kernel) check_static_shared_memory(prog, idx, src->name);
  }
  // Without shared memory there is nothing to race on: the kernel stays the unchecked build (and
  // so its speed, and its cache entry).
  prog.race_check = o.race_check && uses_shared_memory(prog);
  b.cooperative = o.kind == EntryPoint::Kind::Kernel && (uses_grid_group(prog) || uses_cooperative_foreign(prog));
  for (const auto* l : program_links(prog))
    if (l->kind != "cu") b.device_links.push_back(*l);
    else b.cuda_links.push_back(l->name);
  if (!b.device_links.empty()) b.nvrtc_options = {"-rdc=true"};  // calls to be resolved by the linker
  lower_stage(prog, b.name);
  emit_stage(b, prog, {{o.kind, idx, o.symbol}});
  if (o.annotated) *o.annotated = annotate_types(*prog.fns[idx]);
  return prog.fns[idx]->ret;
}
}  // namespace

KernelBuild build_kernel(const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args, bool debug) {
  KernelBuild b;
  b.arg_types = args;
  b.symbol = cj::kKernelPrefix + src->name;
  SingleOptions o;
  o.role = Role::Kernel;
  o.kind = EntryPoint::Kind::Kernel;
  o.symbol = b.symbol;
  o.declared_ret = Type::void_();
  o.annotated = &b.annotated;
  o.race_check = sim_racecheck_enabled();
  o.debug_checks = debug;
  build_single(b, src, args, o);
  return b;
}

Build build_device_function(const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args,
                            const Type& declared_ret, bool c_abi, const std::string& symbol, Type* ret) {
  Build b;
  b.name = src->name;
  Program prog;
  parse_stage(prog, src);
  int idx;
  {
    StageTimer t{"type", src->name};
    idx = prog.instantiate(src, args, declared_ret, Role::Device);
  }
  lower_stage(prog, b.name);
  EntryPoint e{EntryPoint::Kind::DeviceAbi, idx, symbol};
  e.c_abi = c_abi;
  emit_stage(b, prog, {e});
  if (ret) *ret = prog.fns[idx]->ret;
  return b;
}

CpuBuild build_cpu_function(const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args,
                            const CpuOptions& options, const Type& ret) {
  CpuBuild b;
  b.arg_types = args;
  b.symbol = cj::kCpuPrefix + src->name;
#if defined(__x86_64__)
  // Thread-locals of a dlopen'd library (the random generators' state pointers) are then reached
  // through TLS descriptors instead of a __tls_get_addr call each: monte_carlo_pi runs 1.2x
  // faster. Not for simulator kernels: their fibers crash under it.
  b.host_flags = {"-mtls-dialect=gnu2"};
#endif
  if (options.parallel) b.host_flags.push_back("-fopenmp");
  if (options.fastmath) b.host_flags.push_back("-ffast-math");
  SingleOptions o;
  o.role = Role::Device;
  o.kind = EntryPoint::Kind::Cpu;
  o.symbol = b.symbol;
  o.declared_ret = ret;
  o.annotated = &b.annotated;
  o.parallel = options.parallel;
  o.python_errors = options.python_errors;
  o.boundscheck = options.boundscheck;
  b.ret = build_single(b, src, args, o);
  return b;
}

void argument_type_error(const std::shared_ptr<FunctionSource>& src, int index, const std::string& msg) {
  ast::Module mod = parse(src->source);
  const ast::Node& def = *mod.func;
  SourceLoc at = index < (int)def.params.size() ? def.params[index].loc : def.loc;
  user_error(src->source, at, ErrorKind::Typing,
             "non-precise type pyobject: argument " + std::to_string(index) + " of " + src->name + "(): " + msg);
}

const std::string& cuda_prelude() {
  static const std::string text = with_prelude(Target::CUDA, "");
  return text;
}

namespace {
// Where a GPU program's prelude ends (after kCudaPreludeEnd), or 0 for a source without one. The
// first occurrence is the prelude's own: user text (a linked CUDA C++ source) only comes after it.
size_t cuda_prelude_size(const std::string& source) {
  const size_t at = source.find(kCudaPreludeEnd);
  return at == std::string::npos ? 0 : at + sizeof(kCudaPreludeEnd) - 1;
}
}  // namespace

std::string restrict_cuda_source(const std::string& cuda_source) {
  std::string s = cuda_source;
  s.insert(cuda_prelude_size(cuda_source), "#define CJ_RESTRICT 1\n");
  return s;
}

void kernel_variant_sources(Build& b, bool restrict, bool narrow) {
  if (restrict) b.cuda_source = restrict_cuda_source(b.cuda_source);
  if (!narrow) return;
  const std::string& prelude = cuda_prelude();
  const size_t at = b.cuda_source.compare(0, prelude.size(), prelude) == 0 ? prelude.size() : 0;
  b.cuda_source.insert(at, "#define CJ_INDEX32 1\n");
  // The simulator runs the same narrow indexing, so that its tests prove it; after the host
  // prelude too, which stays precompiled.
  b.host_source.insert(std::min(b.host_prelude_len, b.host_source.size()), "#define CJ_INDEX32 1\n");
}

toolchain::NvrtcOutput nvrtc_compile_source(const std::string& source, const std::string& name,
                                            const std::string& arch, const std::vector<std::string>& extra_options,
                                            bool allow_pch, bool allow_minimal) {
  // NVRTC gets the prelude as a header of its own, which it can precompile (toolchain/nvrtc_pch.h):
  // one precompiled header per distinct prelude (the optional parts a program uses, debug checks).
  if (const size_t n = cuda_prelude_size(source))
    return toolchain::nvrtc_compile(source.substr(n), name, arch, extra_options, source.substr(0, n), allow_pch,
                                    allow_minimal);
  return toolchain::nvrtc_compile(source, name, arch, extra_options, std::string(), allow_pch, allow_minimal);
}

void nvrtc_prepare_prelude_pch(std::function<std::string()> arch) {
  const std::string& prelude = cuda_prelude();
  toolchain::nvrtc_prepare_pch(prelude.substr(0, cuda_prelude_size(prelude)), std::move(arch));
}

toolchain::NvrtcOutput compile_cuda(const Build& b, const std::string& arch) {
  StageTimer t{"nvrtc", b.name + " for " + arch};
  const bool cubin = arch.rfind("sm_", 0) == 0;
  const std::string ext = cubin ? "cubin" : "ptx";
  // -rdc=true for linked code, then @cuda.jit's options; in the key only when there are some
  // (the keys of other programs stay as they were).
  std::vector<std::string> options = b.nvrtc_options;
  options.insert(options.end(), b.nvrtc_flags.begin(), b.nvrtc_flags.end());
  std::string key = toolchain::cache_key({toolchain::without_line_files(b.cuda_source), arch, toolchain::nvrtc_identity(), CUJIT_VERSION, "nvrtc-3"});
  if (!options.empty()) {
    std::string flags;
    for (const auto& f : options) flags += f + "\n";
    key = toolchain::cache_key({key, flags});
  }
  if (auto hit = toolchain::cache_get(key, ext)) {
    toolchain::NvrtcOutput o;
    o.image = std::move(*hit);
    o.is_cubin = cubin;
    // NVRTC's warnings come back with the image: they are shown for linked sources every time.
    if (auto log = toolchain::cache_get(key, "nvrtclog")) o.log = std::move(*log);
    return o;
  }
  toolchain::NvrtcOutput o;
  try {
    o = nvrtc_compile_source(b.cuda_source, b.name + ".cu", arch, options);
  } catch (const rt::NvrtcCompileError& e) {
    map_toolchain_error(b, e.log, "CUDA compiler (NVRTC)", std::string(e.what()) + "\n" + e.log);
  }
  if (debug_level() >= 1 && !o.pch.empty())
    std::cerr << "cujit: nvrtc " << b.name << ": prelude's precompiled header " << o.pch << "\n";
  if (!o.log.empty()) toolchain::cache_put(key, "nvrtclog", o.log);
  toolchain::cache_put(key, ext, o.image);
  toolchain::cache_put_text(key, "cu", b.cuda_source);
  return o;
}

std::shared_ptr<toolchain::HostLibrary> compile_host(const Build& b) {
  StageTimer t{"host compiler", b.name};
  std::shared_ptr<toolchain::HostLibrary> lib;
  try {
    lib = toolchain::host_compile(b.host_source, b.host_flags, b.host_prelude_len);
  } catch (const rt::HostCompileError& e) {
    // A linked CUDA C++ source the host compiler refuses: say what the simulator can compile.
    for (const auto& name : b.cuda_links)
      if (e.output.find(name + ":") != std::string::npos)
        throw rt::ToolchainError("the CUDA simulator cannot compile the linked CUDA C++ source " + name +
                                 ": it compiles linked sources as plain C++, where CUDA's built-ins (threadIdx, "
                                 "__syncthreads(), atomicAdd, ...) and headers do not exist; run it on the GPU. "
                                 "The C++ compiler said:\n" + e.output);
    map_toolchain_error(b, e.output, "host C++ compiler", e.what());
  }
  // Every library built from the host prelude has this hook (prelude/host_services.h).
  auto bind = reinterpret_cast<cj::HostBindFn>(lib->symbol(CJ_ABI_STR(CJ_ABI_HOST_BIND)));
  bind(rt::host_services());
  return lib;
}

std::string name_files(std::string message, const std::vector<std::string>& file_order) {
  for (size_t k = 0; k < file_order.size(); ++k) {
    const std::string tag = "{file" + std::to_string(k) + "}";
    for (size_t at = message.find(tag); at != std::string::npos; at = message.find(tag, at + file_order[k].size()))
      message.replace(at, tag.size(), file_order[k]);
  }
  return message;
}

}  // namespace cujit
