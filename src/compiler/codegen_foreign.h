// Foreign device functions (cuda.declare_device) and linked code (link=) in generated programs.
#pragma once
#include <string>
#include <vector>

#include "compiler/codegen.h"

namespace cujit {

/// Every item of code the program links, once each: its kernels' link= and its foreign
/// functions' declare_device(link=...), in that order.
std::vector<const GlobalValue::LinkItem*> program_links(const Program& prog);

/// What goes ahead of the generated functions: the linked CUDA C++ sources, or, with none, the
/// foreign functions' declarations. Throws the user's error when a foreign function is called
/// but nothing is linked.
std::string foreign_prologue(const Program& prog, Target target);

/// A call of `decl` with arguments already converted to its signature's types.
std::string foreign_call(const GlobalValue& decl, const Signature& sig, const std::vector<std::string>& args);

/// Whether a foreign function the program calls was declared with use_cooperative=True.
bool uses_cooperative_foreign(const Program& prog);

}  // namespace cujit
