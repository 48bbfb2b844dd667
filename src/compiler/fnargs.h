// Functions passed from Python as arguments: a @jit function to a @jit function, a device
// function to a kernel (Numba's Dispatcher type). The dispatchers type such an argument as a
// Function whose name is its key (bindings/marshal.cpp), so a call with another function is
// another specialisation; the compile's snapshot holds the function as the global
// " fnarg <key>" (with_function_args), which resolve_function_args binds the parameter to.
#pragma once
#include <string>
#include <vector>

#include "compiler/types.h"

namespace cujit {

class Program;
struct FunctionSource;

/// A Function whose name is a key "name@<id>" (builtins and globals never hold an '@'), spelt by
/// its name alone.
inline bool is_function_arg(const Type& t) { return t.tag == Type::Tag::Function && t.name.find('@') != std::string::npos; }

/// The snapshot global that holds the function of argument type `t`.
inline std::string function_arg_global(const Type& t) { return " fnarg " + t.name; }

/// `args` with each function argument bound to its function in `prog` (Type::user_fn), so that a
/// call of the parameter calls that function, typed at the call as any callee.
std::vector<Type> resolve_function_args(Program& prog, const FunctionSource& src, std::vector<Type> args);

}  // namespace cujit
