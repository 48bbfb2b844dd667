// libFuzzer target over the compiler front end (issue 8): arbitrary text is parsed, typed for
// argument types the first input byte picks, and generated for both targets. A CompileError is
// what a user sees for bad input and is fine; a crash, a hang, a sanitizer report or any other
// exception is a bug. InternalError (a compiler bug the user sees as a Python exception, never a
// crash) aborts only with CUJIT_FUZZ_STRICT=1.
//
//   tests_cpp/fuzz_run.sh [SECONDS]   builds with clang -fsanitize=fuzzer,address,undefined and
//                                      runs over tests_cpp/fuzz_corpus (make test: a short run)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen.h"
#include "compiler/parser.h"
#include "compiler/typeinfer.h"

namespace {
using namespace cujit;

// Argument types to try, indexed by bits of the selector byte.
Type arg_type(int k) {
  switch (k & 7) {
    case 0: return Type::scalar_of(Scalar::Float64);
    case 1: return Type::scalar_of(Scalar::Int64);
    case 2: return Type::scalar_of(Scalar::Float32);
    case 3: return Type::scalar_of(Scalar::Bool);
    case 4: return Type::array(Scalar::Float32, 1, 'C');
    case 5: return Type::array(Scalar::Float64, 2, 'C');
    case 6: return Type::array(Scalar::Int32, 1, 'A');
    default: return Type::array(Scalar::UInt8, 3, 'F');
  }
}

GlobalValue module(const char* name) {
  GlobalValue g;
  g.kind = GlobalValue::Kind::Module;
  g.module = name;
  return g;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t selector = data[0];
  auto src = std::make_shared<FunctionSource>();
  src->name = "f";
  src->source = {"fuzz.py", std::string(reinterpret_cast<const char*>(data + 1), size - 1), 1, 0};
  src->globals["math"] = module("math");
  src->globals["cuda"] = module("cuda");
  src->globals["np"] = module("numpy");
  src->globals["random"] = module("random");
  try {
    ast::Module mod = parse(src->source);
    if (!mod.func) return 0;
    std::vector<Type> args;
    for (size_t i = 0; i < mod.func->params.size(); ++i) args.push_back(arg_type(selector + (int)i * 3));
    const bool cpu = selector & 0x80;  // an @jit function (CPU-only intrinsics) or a kernel
    Program prog;
    prog.parser = [](const SourceFile& text) { return parse(text); };  // the parse stage (pipeline.cpp's)
    prog.host_only = cpu;
    prog.parallel = cpu && (selector & 0x40);
    prog.python_errors = cpu;
    const int idx = prog.instantiate(src, args, cpu ? Type::unknown() : Type::void_(), cpu ? Role::Device : Role::Kernel);
    if (idx < 0) return 0;
    const std::vector<EntryPoint> entries{{cpu ? EntryPoint::Kind::Cpu : EntryPoint::Kind::Kernel, idx, "cj_entry"}};
    emit_program(prog, entries, Target::Host);
    if (!cpu) emit_program(prog, entries, Target::CUDA);
  } catch (const CompileError&) {
  } catch (const InternalError& e) {
    if (std::getenv("CUJIT_FUZZ_STRICT")) {
      std::fprintf(stderr, "InternalError: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
