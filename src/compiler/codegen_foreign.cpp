// Code generation for foreign device functions (cuda.declare_device) and linked code (link=):
// CUDA C++ sources go into the program itself, ahead of the generated functions, on both targets
// (the simulator compiles them as plain C++, with the CUDA qualifiers defined away); the other
// kinds (PTX, cubins, ...) are for the GPU's linker (Build::device_links).
#include "compiler/codegen_foreign.h"

#include <set>
#include <sstream>

#include "compiler/diagnostics.h"

namespace cujit {

namespace {
void add_links(const GlobalValue& g, std::vector<const GlobalValue::LinkItem*>& out,
               std::set<std::pair<std::string, std::string>>& seen) {
  for (const auto& l : g.links)
    if (seen.insert({l.kind, l.data}).second) out.push_back(&l);
}

std::string quoted(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    if (c == '\n') { r += "\\n"; continue; }
    r += c;
  }
  return r + "\"";
}
}  // namespace

std::vector<const GlobalValue::LinkItem*> program_links(const Program& prog) {
  std::vector<const GlobalValue::LinkItem*> out;
  std::set<std::pair<std::string, std::string>> seen;  // one source given twice is put in once
  for (const auto& f : prog.fns) {
    auto it = f->src->globals.find(" link");  // a kernel's own link= (decorators.capture)
    if (it != f->src->globals.end()) add_links(it->second, out, seen);
  }
  for (const auto& [name, use] : prog.foreign) add_links(*use.decl, out, seen);
  return out;
}

std::string foreign_prologue(const Program& prog, Target target) {
  const auto links = program_links(prog);
  if (prog.foreign.empty() && links.empty()) return "";
  if (links.empty()) {
    const auto& use = prog.foreign.begin()->second;
    user_error(use.source, use.at, ErrorKind::Typing,
               "no code defines the foreign function '" + use.decl->attr +
                   "': give the CUDA C++ or PTX that defines it as link=[...] to cuda.declare_device or to the "
                   "kernel's cuda.jit");
  }
  std::ostringstream os;
  bool have_source = false;
  for (const auto* l : links) {
    if (l->kind != "cu") continue;
    have_source = true;
    os << "// linked CUDA C++: " << l->name << "\n";
    if (target == Target::Host)  // plain C++ on the host: the CUDA qualifiers mean nothing there
      os << "#define __device__\n#define __host__\n#define __forceinline__ inline\n"
            "#define __noinline__ __attribute__((noinline))\n";
    os << "#line 1 " << quoted(l->name) << "\n" << l->data << "\n";
    if (target == Target::Host) os << "#undef __device__\n#undef __host__\n#undef __forceinline__\n#undef __noinline__\n";
  }
  // With a source in the program, its own declarations are the ones calls go through (whatever
  // C types it spells, see cj::foreign_numba); otherwise the code comes from the GPU's linker and
  // the declaration follows from the Numba signature.
  if (!have_source) {
    for (const auto& [name, use] : prog.foreign) {
      const Signature sig = parse_signature(use.decl->type_name);
      const bool c_abi = use.decl->module == "c";
      const std::string ret = sig.ret.tag == Type::Tag::Void ? "void" : cpp_type(sig.ret);
      os << "extern \"C\" CJ_DEVICE " << (c_abi ? ret : std::string("int")) << " " << name << "(";
      size_t i = 0;
      if (!c_abi) os << ret << "*", ++i;
      for (const auto& a : sig.args) os << (i++ ? ", " : "") << cpp_type(a);
      os << ");\n";
    }
  }
  return os.str();
}

std::string foreign_call(const GlobalValue& decl, const Signature& sig, const std::vector<std::string>& args) {
  const bool c_abi = decl.module == "c";
  const bool is_void = sig.ret.tag == Type::Tag::Void;
  std::string s = "cj::foreign_" + std::string(c_abi ? "c" : "numba");
  s += is_void ? "_void(" : "<" + cpp_type(sig.ret) + ">(";
  s += decl.attr;
  for (const auto& a : args) s += ", " + a;
  return s + ")";
}

bool uses_cooperative_foreign(const Program& prog) {
  for (const auto& [name, use] : prog.foreign)
    if (use.decl->i) return true;
  return false;
}

}  // namespace cujit
