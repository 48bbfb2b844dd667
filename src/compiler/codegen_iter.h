// `for` over enumerate(...) and zip(...) for codegen.cpp (codegen_iter.cpp): the iterables are
// evaluated once, in order, and the loop runs for the shortest one's length, as in Python.
#pragma once
#include <string>

#include "compiler/codegen_values.h"

namespace cujit {

struct IterationPlan {
  std::string setup;  // statements evaluating each iterable (and enumerate's start) once
  std::string count;  // the number of iterations (int64_t)
  std::string item;   // the item of iteration `i`, of type iteration_item(iter.type)
};

/// The plan of `for x in iter`, `iter` being a call of enumerate or zip, with `i` the name of the
/// iteration counter. `host_only`: @jit code, whose range(a, b, 0) raises rather than ends the
/// thread.
IterationPlan plan_iteration(const ast::Node& iter, const std::string& i, const ValueContext& cx, bool host_only);

}  // namespace cujit
