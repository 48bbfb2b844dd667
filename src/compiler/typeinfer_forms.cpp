// The new forms typing gives nodes (FunctionInstance::rewrites, ARCHITECTURE.md deviation 1):
// built beside the tree from copies of its nodes, typed in the node's place, and put in the tree
// by the lowering stage (lower.cpp, apply_typing_rewrites). And the literal_unroll loops typing
// decided to unroll (FunctionInstance::unrolls), rewritten between two typing runs.
#include "compiler/typeinfer.h"

#include <functional>
#include <utility>
#include <vector>

namespace cujit {

namespace {

// Marks each call of `copy` bound where its original in `orig` is (the two trees have one shape).
void forms_copy_bound(FunctionInstance& fn, const ast::Node& orig, const ast::Node& copy) {
  if (fn.bound_calls.count(&orig)) fn.bound_calls.insert(&copy);
  std::vector<const ast::Node*> a, b;
  ast::for_each_child(orig, [&](const ast::Node& c) { a.push_back(&c); });
  ast::for_each_child(copy, [&](const ast::Node& c) { b.push_back(&c); });
  if (a.size() != b.size()) throw InternalError("clone_for_rewrite: the copy's shape differs");
  for (size_t i = 0; i < a.size(); ++i) forms_copy_bound(fn, *a[i], *b[i]);
}

// Rewrites the recorded loops of `stmts`.
void forms_unroll_block(FunctionInstance& fn, std::vector<ast::NodePtr>& stmts) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    auto d = fn.unrolls.find(stmts[i].get());
    if (d == fn.unrolls.end()) continue;
    const size_t count = d->second;
    fn.unrolls.erase(d);
    if (count == 0) {  // a tuple of one type (an array, a list): the loop runs over it as it is
      ast::Node& s = *stmts[i];
      ast::NodePtr tuple = std::move(s.iter()->args()[0]);
      s.iter() = std::move(tuple);
    } else {
      rewrite_literal_unroll(stmts, i, count, fn.unrolled++);
    }
  }
}

// The recorded loops anywhere under `n` (for_each_child walks statement lists too).
void forms_unroll(FunctionInstance& fn, ast::Node& n) {
  forms_unroll_block(fn, n.body);
  forms_unroll_block(fn, n.orelse);
  ast::for_each_child(n, [&](ast::Node& c) { forms_unroll(fn, c); });
}

}  // namespace

ast::NodePtr clone_for_rewrite(FunctionInstance& fn, const ast::Node& n) {
  ast::NodePtr copy = ast::clone(n);
  forms_copy_bound(fn, n, *copy);
  return copy;
}

void record_form(FunctionInstance& fn, const ast::Node& n, ast::NodePtr form) {
  // n's children are typed through the form's copies from now on: the array sizes their calls
  // recorded (cuda.local/shared.array as a method's receiver) would count twice in the totals
  // checked against the limits. Their other entries stay, bound calls among them, for a run that
  // types the tree again from the start (reset_typing drops the forms).
  std::function<void(const ast::Node&)> sizes = [&](const ast::Node& c) {
    fn.local_bytes.erase(&c);
    fn.shared_bytes.erase(&c);
    ast::for_each_child(c, sizes);
  };
  ast::for_each_child(n, sizes);
  fn.rewrites[&n] = std::move(form);
}

const ast::Node& typed_form(const FunctionInstance& fn, const ast::Node& n) {
  const ast::Node* at = &n;
  for (auto r = fn.rewrites.find(at); r != fn.rewrites.end(); r = fn.rewrites.find(at)) at = r->second.get();
  return *at;
}

ast::Node& typed_form(FunctionInstance& fn, ast::Node& n) {
  return const_cast<ast::Node&>(typed_form(static_cast<const FunctionInstance&>(fn), static_cast<const ast::Node&>(n)));
}

void forget_typing_of(FunctionInstance& fn, const ast::Node& n) {
  if (auto r = fn.rewrites.find(&n); r != fn.rewrites.end()) {
    ast::NodePtr form = std::move(r->second);
    fn.rewrites.erase(r);
    forget_typing_of(fn, *form);  // freed with `form`
  }
  fn.resolved.erase(&n);
  fn.unwrap.erase(&n);
  fn.ufunc_loops.erase(&n);
  fn.array_shapes.erase(&n);
  fn.shared_bytes.erase(&n);
  fn.local_bytes.erase(&n);
  fn.array_alignment.erase(&n);
  fn.stores.erase(&n);
  fn.bound_calls.erase(&n);
  fn.parallel_loops.erase(&n);
  fn.dead_returns.erase(&n);
  fn.unrolls.erase(&n);
  for (auto e : {Edge::BodyEnd, Edge::OrelseEnd, Edge::LoopEntry, Edge::Jump}) fn.join_copies.erase({&n, e});
  ast::for_each_child(n, [&](const ast::Node& c) { forget_typing_of(fn, c); });
}

void drop_rewrites(FunctionInstance& fn) {
  // The nodes themselves stay in the tree, bound calls included; only the new forms go.
  while (!fn.rewrites.empty()) {
    ast::NodePtr form = std::move(fn.rewrites.begin()->second);
    fn.rewrites.erase(fn.rewrites.begin());
    forget_typing_of(fn, *form);
  }
}

void apply_unroll_decisions(FunctionInstance& fn) {
  forms_unroll(fn, *fn.mod.func);
  if (!fn.unrolls.empty()) throw InternalError("a literal_unroll loop typing decided to unroll is not in the tree");
}

}  // namespace cujit
