// literal_unroll: `for x in literal_unroll(tup)` over a heterogeneous tuple compiles the loop's body
// once per item, each copy typed with that item's type (Numba's versioned loop body). The typer
// (typeinfer_stmt.cpp, Typer::block) decides, once the tuple's type is known, that such a loop is
// unrolled (FunctionInstance::unrolls), and Program::instantiate rewrites it into
//
//     __cj_unroll_t<k> = tup                 # the tuple evaluated once
//     for __cj_unroll_i<k> in range(n):      # break, continue and else keep their meaning
//         if __cj_unroll_i<k> == 0:
//             x = __cj_unroll_t<k>[0]
//             <body>
//         elif __cj_unroll_i<k> == 1:
//             x = __cj_unroll_t<k>[1]
//             <copy of body>
//         ...
//
// and types the function again from the start (RestartTyping), so every pass sees the rewritten
// tree: the walk itself never changes the tree it walks. Each copy assigns its own versions of x
// (typeinfer_ssa.h), so the copies never unify their types unless x is read after the loop,
// where Numba unifies them too. The names start with
// "__cj_", which no user code of this project's users names.
#include "compiler/typeinfer.h"

#include <string>
#include <utility>

namespace cujit {

namespace {

const char kIndexPrefix[] = "__cj_unroll_i";


ast::NodePtr int_node(int64_t v, SourceLoc loc) {
  ast::NodePtr n = ast::make(ast::Kind::Constant, loc);
  n->cval.tag = ast::ConstValue::Tag::Int;
  n->cval.i = v;
  return n;
}

}  // namespace

bool is_unroll_index(const ast::Node& for_target) {
  return for_target.is(ast::Kind::Name) && for_target.name.rfind(kIndexPrefix, 0) == 0;
}

void reset_typing(FunctionInstance& f) {
  f.ret = Type::unknown();
  f.locals.clear();
  f.versions.clear();
  f.cpp_locals.clear();
  f.param_vars.clear();
  f.stores.clear();
  f.join_copies.clear();
  f.resolved.clear();
  f.array_shapes.clear();
  f.shared_bytes.clear();
  f.local_bytes.clear();
  f.array_alignment.clear();
  f.const_arrays.clear();
  f.parallel_loops.clear();
  f.unwrap.clear();
  f.dead_returns.clear();
  drop_rewrites(f);  // decided again by the next run, on the tree as it is then
}

void rewrite_literal_unroll(std::vector<ast::NodePtr>& stmts, size_t at, size_t count, int id) {
  using K = ast::Kind;
  ast::NodePtr loop = std::move(stmts[at]);
  const SourceLoc loc = loop->loc, iter_loc = loop->iter()->loc, target_loc = loop->target()->loc;
  const std::string tuple_var = "__cj_unroll_t" + std::to_string(id);
  const std::string index_var = kIndexPrefix + std::to_string(id);

  ast::NodePtr hold = ast::make(K::Assign, iter_loc);
  hold->targets().push_back(ast::make_name(tuple_var, iter_loc));
  hold->rhs() = std::move(loop->iter()->args()[0]);

  ast::NodePtr range = ast::make(K::Call, iter_loc);
  range->func() = ast::make_name("range", iter_loc);
  range->args().push_back(int_node((int64_t)count, iter_loc));
  ast::NodePtr rewritten = ast::make(K::For, loc);
  rewritten->target() = ast::make_name(index_var, target_loc);
  rewritten->iter() = std::move(range);
  rewritten->orelse = std::move(loop->orelse);

  // The if/elif chain, built from its last branch up.
  std::vector<ast::NodePtr> chain;
  for (size_t k = count; k-- > 0;) {
    ast::NodePtr test = ast::make(K::Compare, iter_loc);
    test->lhs() = ast::make_name(index_var, iter_loc);
    test->ops.push_back(ast::Op::Eq);
    test->comparators().push_back(int_node((int64_t)k, iter_loc));
    ast::NodePtr branch = ast::make(K::If, loc);
    branch->test() = std::move(test);
    ast::NodePtr item = ast::make(K::Subscript, target_loc);
    item->value() = ast::make_name(tuple_var, target_loc);
    item->index() = int_node((int64_t)k, target_loc);
    ast::NodePtr bind = ast::make(K::Assign, target_loc);
    bind->targets().push_back(k == 0 ? std::move(loop->target()) : ast::clone(*loop->target()));
    bind->rhs() = std::move(item);
    branch->body.push_back(std::move(bind));
    for (auto& s : loop->body) branch->body.push_back(k == 0 ? std::move(s) : ast::clone(*s));
    branch->orelse = std::move(chain);
    chain.clear();
    chain.push_back(std::move(branch));
  }
  rewritten->body = std::move(chain);

  stmts[at] = std::move(hold);
  stmts.insert(stmts.begin() + (long)at + 1, std::move(rewritten));
}

}  // namespace cujit
