// Padding of static cuda.shared.array rows on the GPU (shared_layout.h). Two questions, both
// answered from the typed tree of the function that declares the array:
//  - May the layout change? Only if every use of the variable is an element access with one
//    integer per dimension (load, store, augmented store, atomic), or reads its shape, size, ndim
//    or dtype; the variable is assigned once, by the call; and no nested function can see it.
//    Anything else (passing it to a function, a view, .strides, a copy, an array expression)
//    could observe the strides and keeps the plain C layout.
//  - Does it pay? Shared memory has 32 banks of 4 bytes; the 32 threads of a warp differ first
//    in threadIdx.x, so an access whose leading index varies with threadIdx.x (`tile[tx, k]`)
//    reads down a column, and an even row length of 4-byte elements puts every other row in the
//    same banks (16 float32: 16-way conflicts; 32: 32-way). One element more per row makes the
//    row length odd and the column's elements land in distinct banks. Accesses along a row need
//    nothing, and padding would cost their vector loads (LDS.128) where rows lose 16-byte
//    alignment, so those arrays stay plain. benchmarks/RESULTS.md has the measurements.
#include "compiler/shared_layout.h"

#include <cstdlib>
#include <functional>
#include <memory>
#include <unordered_set>

#include "compiler/builtins.h"

namespace cujit {

namespace {
using ast::Kind;

const Resolved* sl_resolved(const FunctionInstance& f, const ast::Node& n) {
  auto it = f.resolved.find(&n);
  return it == f.resolved.end() ? nullptr : &it->second;
}

// The C++ variable a Name reads, or "" for anything else.
std::string sl_local(const FunctionInstance& f, const ast::Node& n) {
  if (!n.is(Kind::Name)) return "";
  const Resolved* r = sl_resolved(f, n);
  return r && r->kind == Resolved::Kind::Local ? r->name : "";
}

// The C++ variable an assignment target Name writes, or "".
std::string sl_store(const FunctionInstance& f, const ast::Node& n) {
  auto it = f.stores.find(&n);
  return it == f.stores.end() ? "" : it->second.cpp;
}

Builtin sl_builtin(const ast::Node& call) {
  const Type& t = call.func()->type;
  if (t.tag != Type::Tag::Function) return Builtin::None;
  const BuiltinRow* b = find_builtin(t.name);
  return b ? b->id : Builtin::None;
}

bool sl_atomic(Builtin b) {
  switch (b) {
    case Builtin::AtomicAdd: case Builtin::AtomicSub: case Builtin::AtomicMax: case Builtin::AtomicMin:
    case Builtin::AtomicExch: case Builtin::AtomicNanmax: case Builtin::AtomicNanmin: case Builtin::AtomicAnd:
    case Builtin::AtomicOr: case Builtin::AtomicXor: case Builtin::AtomicInc: case Builtin::AtomicDec:
    case Builtin::AtomicCas:
      return true;
    default:
      return false;
  }
}

// One integer per dimension: the access names one element.
bool sl_full_index(const ast::Node& ix, int ndim) {
  if (!ix.is(Kind::Tuple) || (int)ix.elts().size() != ndim) return false;
  for (const auto& e : ix.elts())
    if (!e->type.is_scalar() || !is_integer(e->type.scalar)) return false;
  return true;
}

// The C++ variables whose value varies with threadIdx.x (the index the threads of a warp differ
// in first): assigned from cuda.threadIdx.x, cuda.laneid, cuda.grid's first coordinate, or an
// expression of such a variable, to a fixed point. Over-approximating only costs padding.
struct SlTxVars {
  const FunctionInstance& f;
  std::unordered_set<std::string> vars;
  bool grew = false;

  bool varies(const ast::Node& e) const {
    if (const Resolved* r = sl_resolved(f, e)) {
      if (r->kind == Resolved::Kind::CudaDim) return r->name == "threadIdx.x" || r->name == "laneid";
      if (r->kind == Resolved::Kind::Local) return vars.count(r->name) > 0;
    }
    if (e.is(Kind::Call) && sl_builtin(e) == Builtin::CudaGrid) return true;
    bool any = false;
    ast::for_each_child(e, [&](const ast::Node& c) { any = any || varies(c); });
    return any;
  }
  void mark(const ast::Node& target) {
    std::string v = sl_store(f, target);
    if (!v.empty() && vars.insert(v).second) grew = true;
  }
  // `target = value`: a tuple target takes a tuple value's items one by one, and only the first
  // coordinate of cuda.grid(n) (threadIdx.y's coordinate is the same across a row of threads).
  void assign(const ast::Node& target, const ast::Node& value) {
    if (target.is(Kind::Name)) {
      if (varies(value)) mark(target);
    } else if (target.is(Kind::Tuple)) {
      const auto& ts = target.elts();
      if (value.is(Kind::Tuple) && value.elts().size() == ts.size()) {
        for (size_t i = 0; i < ts.size(); ++i) assign(*ts[i], *value.elts()[i]);
      } else if (value.is(Kind::Call) && sl_builtin(value) == Builtin::CudaGrid) {
        if (!ts.empty() && ts[0]->is(Kind::Name)) mark(*ts[0]);
      } else if (varies(value)) {
        for (const auto& t : ts) assign(*t, value);
      }
    }
  }
  void walk(const ast::Node& n) {
    if (n.is(Kind::Assign)) {
      for (const auto& t : n.targets()) assign(*t, *n.rhs());
    } else if (n.is(Kind::AugAssign)) {
      assign(*n.target(), *n.rhs());
    } else if (n.is(Kind::For)) {
      assign(*n.target(), *n.iter());
    }
    ast::for_each_child(n, [&](const ast::Node& c) { walk(c); });
  }
  SlTxVars(const FunctionInstance& fn, const ast::Node& def) : f(fn) {
    do {
      grew = false;
      walk(def);
    } while (grew);
  }
};

// The uses of one shared array's variable.
struct SlArrayUses {
  const FunctionInstance& f;
  const SlTxVars& tx;
  const ast::Node& call;    // the cuda.shared.array call
  const ast::Node* target;  // the Name it is assigned to
  std::string var;          // that Name's C++ variable
  int ndim;
  std::string unsafe;       // why the layout must stay plain, or ""
  std::string column;       // an access that reads down a column, or ""

  void refuse(const std::string& why, const ast::Node& at) {
    if (unsafe.empty()) unsafe = why + " at line " + std::to_string(at.loc.line);
  }
  void element(const ast::Node& ix, const ast::Node& at) {
    const auto& es = ix.elts();
    for (int k = 0; k + 1 < ndim && column.empty(); ++k)
      if (tx.varies(*es[k])) column = "line " + std::to_string(at.loc.line) + " indexes a leading dimension with threadIdx.x";
  }
  bool is_var(const ast::Node& n) const { return !var.empty() && sl_local(f, n) == var; }

  void walk(const ast::Node& n, const ast::Node* parent) {
    if (&n == target) return;
    if (n.is(Kind::Name)) {
      if (!var.empty() && sl_store(f, n) == var) refuse("it is assigned again", n);
      if (is_var(n)) {
        std::string how = !parent ? "used as a value"
                          : parent->is(Kind::Call) ? "passed to a call"
                          : parent->is(Kind::Attribute) ? "its ." + parent->name + " is read"
                          : parent->is(Kind::Subscript) ? "indexed by something else than one integer per dimension"
                                                        : "used as a whole array";
        refuse(how, n);
      }
      return;
    }
    if (n.is(Kind::Subscript) && is_var(*n.value())) {
      if (!sl_full_index(*n.index(), ndim)) return refuse("indexed by something else than one integer per dimension", n);
      element(*n.index(), n);
      walk(*n.index(), &n);
      return;
    }
    if (n.is(Kind::Attribute) && is_var(*n.value()) &&
        (n.name == "shape" || n.name == "ndim" || n.name == "size" || n.name == "dtype"))
      return;
    if (n.is(Kind::Call) && !n.args().empty() && is_var(*n.args()[0])) {
      Builtin b = sl_builtin(n);
      if (b == Builtin::Len && n.args().size() == 1) return;
      if (sl_atomic(b) && n.args().size() >= 2 && sl_full_index(*n.args()[1], ndim)) {
        element(*n.args()[1], n);
        for (size_t i = 1; i < n.args().size(); ++i) walk(*n.args()[i], &n);
        return;
      }
    }
    ast::for_each_child(n, [&](const ast::Node& c) { walk(c, &n); });
  }
};

// The single Name a statement `name = <call>` assigns the call to, or null.
const ast::Node* sl_assigned_name(const ast::Node& def, const ast::Node& call) {
  const ast::Node* found = nullptr;
  std::function<void(const ast::Node&)> walk = [&](const ast::Node& n) {
    if (n.is(Kind::Assign) && n.rhs().get() == &call && n.targets().size() == 1 && n.targets()[0]->is(Kind::Name))
      found = n.targets()[0].get();
    ast::for_each_child(n, walk);
  };
  walk(def);
  return found;
}

}  // namespace

std::unordered_map<const ast::Node*, SharedLayout> plan_shared_layouts(const FunctionInstance& f, int64_t spare_bytes) {
  std::unordered_map<const ast::Node*, SharedLayout> plan;
  const char* env = std::getenv("CUJIT_SHARED_PAD");
  const int64_t forced = env && *env ? std::atoll(env) : -1;  // -1: the rule
  const ast::Node& def = *f.mod.func;
  std::unique_ptr<SlTxVars> tx;
  for (const auto& [node, dims] : f.array_shapes) {
    if (dims.size() < 2 || !node->is(Kind::Call) || sl_builtin(*node) != Builtin::CudaSharedArray) continue;
    int64_t n = 1;
    for (auto d : dims) n *= d;
    if (n == 0) continue;  // dynamic shared memory: its layout is the launch's
    if (!tx) tx = std::make_unique<SlTxVars>(f, def);
    SharedLayout& out = plan[node];
    SlArrayUses uses{f, *tx, *node, sl_assigned_name(def, *node), "", (int)dims.size(), "", ""};
    if (!uses.target) {
      out.reason = "plain layout: not assigned to a variable of its own";
    } else if (!f.nested.empty()) {
      out.reason = "plain layout: the function has nested functions, which may see it";
    } else {
      uses.var = sl_store(f, *uses.target);
      uses.walk(def, nullptr);
      for (const auto& [at, copies] : f.join_copies)
        for (const auto& c : copies)
          if (c.to.cpp == uses.var || c.from.cpp == uses.var) uses.refuse("it joins another value", *at.first);
      const int64_t last = dims.back();
      const int elem = scalar_size(node->type.scalar);
      if (!uses.unsafe.empty()) {
        out.reason = "plain layout: " + uses.unsafe;
      } else if (forced == 0) {
        out.reason = "plain layout: CUJIT_SHARED_PAD=0";
      } else if (forced > 0) {
        out.row = last + forced;
        out.reason = "rows padded " + std::to_string(last) + " -> " + std::to_string(out.row) + " elements (CUJIT_SHARED_PAD)";
      } else if (uses.column.empty()) {
        out.reason = "plain layout: no access reads down a column";
      } else if (node->type.record || elem < 4) {
        out.reason = "plain layout: " + uses.column + ", but its elements are narrower than a bank";
      } else if (last % 2 != 0) {
        out.reason = "plain layout: " + uses.column + ", and its odd rows already spread over the banks";
      } else {
        out.row = last + 1;
        out.reason = "rows padded " + std::to_string(last) + " -> " + std::to_string(out.row) + " elements: " + uses.column;
      }
      const int64_t extra = out.row ? n / last * (out.row - last) * elem : 0;
      if (extra > spare_bytes) {
        out.row = 0;
        out.reason = "plain layout: padding would pass the 48 KiB of static shared memory a kernel may hold";
      }
      spare_bytes -= extra;
    }
  }
  return plan;
}

}  // namespace cujit
