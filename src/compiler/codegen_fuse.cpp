// The loop of a fused chain of CUDA ufunc calls (bindings/ufunc_fuse.cpp decides what is fused):
// one element function that calls each step's typed function in order, exactly as each ufunc's
// own element does (codegen_entry.cpp), and stores only the last result.
#include <sstream>

#include "compiler/codegen_entry.h"

namespace cujit {

std::string emit_fused_entry(const EntryPoint& ep, const Program& prog, const EntryContext& cx) {
  const auto& type = cx.type;
  const int nleaves = (int)ep.leaves.size();
  std::ostringstream os;
  os << "CJ_DEVICE static void " << ep.symbol << "_elem(char** a) {\n";
  for (size_t j = 0; j < ep.steps.size(); ++j) {
    const auto& st = ep.steps[j];
    const FunctionInstance& f = *prog.fns[st.instance];
    // Every intermediate passes cj::fuse_barrier (prelude/common.h): the unfused calls round it
    // to its type in memory, so the compiler must not contract it into the next step's
    // arithmetic (an fma of one ufunc's multiply and the next one's add).
    const bool last = j + 1 == ep.steps.size();
    os << "  const " << type(f.ret) << " s" << j << " = " << (last ? "" : "cj::fuse_barrier(") << f.cpp_name << "(";
    for (size_t i = 0; i < st.args.size(); ++i) {
      int r = st.args[i];
      os << (i ? ", " : "");
      if (r >= 0) os << "*(const " << type(f.arg_types[i]) << "*)a[" << r << "]";
      else os << "s" << ~r;
    }
    os << (last ? ");\n" : "));\n");
  }
  const FunctionInstance& root = *prog.fns[ep.instance];
  os << "  *(" << type(root.ret) << "*)a[" << nleaves << "] = s" << ep.steps.size() - 1 << ";\n}\n";
  os << "using " << ep.symbol << "_sizes = cj::Sizes<";
  for (Scalar s : ep.leaves) os << scalar_size(s) << ", ";
  os << scalar_size(root.ret.scalar) << ">;\n";
  os << "CJ_UFUNC_ENTRY(" << ep.symbol << ", " << nleaves + 1 << ")\n";
  return os.str();
}

}  // namespace cujit
