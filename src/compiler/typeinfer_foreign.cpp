// Typing of calls to foreign device functions (cuda.declare_device): the declared Numba signature
// is the whole contract, as in numba-cuda: arguments convert to its types, the call has its
// return type. Only numbers cross (the Python side refuses other types at declaration).
#include <string>
#include <vector>

#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

void record_foreign(Program& prog, FunctionInstance& fn, const ast::Node& at, const GlobalValue& decl) {
  auto it = prog.foreign.find(decl.attr);
  if (it == prog.foreign.end()) {
    prog.foreign.emplace(decl.attr, Program::ForeignUse{&decl, fn.mod.source, at.loc});
    return;
  }
  const GlobalValue& old = *it->second.decl;
  if (old.type_name != decl.type_name || old.module != decl.module)
    user_error(fn.mod.source, at.loc, ErrorKind::Typing,
               "the foreign function '" + decl.attr + "' is declared twice in one kernel, as " + old.type_name +
                   " (abi='" + old.module + "') and as " + decl.type_name + " (abi='" + decl.module + "')");
}

Type type_foreign_call(Program& prog, FunctionInstance& fn, ast::Node& call, const GlobalValue& decl,
                       const std::vector<Type>& args) {
  (void)prog;
  const Signature sig = parse_signature(decl.type_name);  // checked by declare_device
  if (args.size() != sig.args.size())
    user_error(fn.mod.source, call.loc, ErrorKind::Typing,
               decl.attr + "() takes " + std::to_string(sig.args.size()) + " argument(s) (" + decl.type_name + ") but " +
                   std::to_string(args.size()) + " were given");
  if (fn.host_only)
    user_error(fn.mod.source, call.loc, ErrorKind::Typing,
               decl.attr + "() is a foreign CUDA device function (cuda.declare_device): it cannot be called from " +
                   fn.compiled_as);
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i].is_scalar())
      user_error(fn.mod.source, call.args()[i]->loc, ErrorKind::Typing,
                 "argument " + std::to_string(i) + " of " + decl.attr + "() is " + sig.args[i].str() + " (" +
                     decl.type_name + "), which a " + args[i].str() + " cannot be converted to");
  return sig.ret.tag == Type::Tag::Void ? Type::none() : sig.ret;
}

}  // namespace cujit
