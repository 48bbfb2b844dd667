// Fusion of CUDA ufunc calls (see ufunc_fuse.h and docs/ARCHITECTURE.md).
//
// The registry holds every pending write: the tree to compute, the memory it writes (held weakly:
// once no array holds that memory, nothing can observe the write and it is dropped) and the
// memory its leaves read (held by the tree). Invariant: no pending write reads or writes memory
// another pending write writes. A new call keeps it: an input that is exactly a pending write's
// destination takes that write's tree as a subtree; an input overlapping one otherwise runs it
// first; writing `out=` runs the pending calls that read it and the writes into it first (a write
// into exactly the same view is superseded: nothing could have observed it). So pending writes
// are independent and run in any order, each as one loop.
#include "bindings/ufunc_fuse.h"

#include <pybind11/numpy.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <map>

#include "bindings/common.h"
#include "bindings/numpy_arrays.h"
#include "runtime/driver.h"
#include "runtime/ufunc.h"

namespace py = pybind11;

namespace cujit {

rt::LoadedModule& UfuncCore::module(rt::Backend b) {
  auto g = lock_without_gil(mu);  // load_build may compile with the GIL released
  auto& slot = modules[b == rt::Backend::GPU ? rt::current_device() : rt::kMaxDevices];
  // A module of a context lost to a kernel fault is stale: load the code again.
  if (!slot || slot->stale()) slot = load_build(build, b, "CUDA ufunc " + build.name);
  return *slot;
}

namespace fuse {

size_t g_pending = 0;

namespace {

// A fused loop's bounds: its element function grows with the chain and its parameter block
// (cj::UfuncArgs) with the operands; a longer chain runs its pending inputs first.
constexpr int kMaxOps = 16;
constexpr int kMaxLeaves = 8;

int g_enabled = -1;
bool g_force_fallback = false;  // tests: the fused loop "fails to build"

struct Node {
  std::shared_ptr<UfuncCore> fn;  // an op: signature `variant` of fn on `kids`
  int variant = -1;
  std::vector<std::shared_ptr<Node>> kids;
  std::shared_ptr<rt::DeviceArray> leaf;  // a leaf: memory read when the tree runs
  std::vector<int64_t> shape;             // an op: its result's shape
  int ops = 0;                            // op nodes below and here (shared ones counted each time)
};

struct Range {
  uintptr_t lo = 0, hi = 0;
};
Range range_of(const rt::Buffer& b) {
  uintptr_t lo = reinterpret_cast<uintptr_t>(b.ptr);
  return {lo, lo + (b.nbytes ? b.nbytes : 1)};
}
bool overlaps(const Range& a, const Range& b) { return a.lo < b.hi && b.lo < a.hi; }

struct Pending {
  std::shared_ptr<Node> root;
  std::weak_ptr<rt::Buffer> buf;  // the memory written
  rt::DeviceArray view;           // where in it (its buf left null: `buf` holds it weakly)
  Range target;
  std::vector<Range> reads;       // the leaves' memory
  rt::Backend backend = rt::Backend::Sim;
  int device = 0;
  py::object stream_obj;  // kept alive until the write has run on it
  void* stream = nullptr;
};

// Leaked: entries hold Python objects, which must not be released after the interpreter is gone.
std::vector<std::shared_ptr<Pending>>& registry() {
  static auto* r = new std::vector<std::shared_ptr<Pending>>();
  return *r;
}

bool same_view(const rt::DeviceArray& a, const rt::DeviceArray& b) {
  return a.data == b.data && a.shape == b.shape && a.strides == b.strides && a.dtype == b.dtype;
}

// A fused loop, built once per tree structure and operand types.
struct FusedKernel {
  UfuncBuild build;
  std::mutex mu;
  std::shared_ptr<rt::LoadedModule> modules[rt::kMaxDevices + 1];
};
std::map<std::string, std::shared_ptr<FusedKernel>>& fused_cache() {
  static auto* c = new std::map<std::string, std::shared_ptr<FusedKernel>>();
  return *c;
}
std::mutex g_cache_mu;

template <class F>
auto naming_simulator_errors(const std::vector<std::string>& files, F f) {
  try {
    return f();
  } catch (const rt::SimulatorIndexError& e) {
    throw rt::SimulatorIndexError(name_files(e.what(), files));
  }
}

// Computes op node `n` into `dst` one call at a time, as the calls ran unfused: each op below it
// into a new array first, then n's own loop. The path of a single call, and the fallback when a
// fused loop cannot be built.
void run_unfused(const Node& n, const rt::DeviceArray& dst, const Pending& p) {
  std::vector<std::shared_ptr<rt::DeviceArray>> args;  // held until the loop is queued (GPU
                                                       // temporaries are freed in stream order)
  for (const auto& k : n.kids) {
    if (k->leaf) {
      args.push_back(k->leaf);
      continue;
    }
    auto tmp = rt::new_device_array(p.backend, k->fn->build.variants[k->variant].output, k->shape, 'C', p.stream);
    run_unfused(*k, *tmp, p);
    args.push_back(tmp);
  }
  UfuncCore& c = *n.fn;
  std::vector<rt::Operand> operands;
  for (const auto& a : args) operands.push_back({a->data, a->shape, a->strides});
  operands.push_back({dst.data, dst.shape, dst.strides});
  int64_t count = 0;
  std::vector<int64_t> packed = rt::pack_ufunc_args(dst.shape, operands, &count);
  rt::LoadedModule& mod = c.module(p.backend);
  const std::string& symbol = c.build.variants[n.variant].symbol;
  naming_simulator_errors(c.build.file_order, [&] {
    py::gil_scoped_release nogil;
    mod.launch_ufunc(symbol, packed, count, p.stream);
    return 0;
  });
}

// Runs one pending write: the ufunc's own loop for a single call, else the fused loop.
void run(const Pending& p) {
  std::shared_ptr<rt::Buffer> buf = p.buf.lock();
  if (!buf) return;  // nothing holds the memory any more: nobody can see the write
  std::unique_ptr<rt::DeviceScope> scope;
  if (p.backend == rt::Backend::GPU && rt::current_device() != p.device) scope = std::make_unique<rt::DeviceScope>(p.device);

  bool single = true;  // one call on leaves: its own loop (the common case, kept cheap)
  for (const auto& k : p.root->kids) single = single && k->leaf;
  if (single) return run_unfused(*p.root, p.view, p);
  // Flatten the tree: distinct leaves (by view), one step per distinct op node.
  std::vector<std::shared_ptr<rt::DeviceArray>> leaves;
  std::vector<FusedOp> ops;
  std::vector<std::pair<UfuncCore*, int>> op_ids;
  std::vector<FusedStep> steps;
  std::vector<const Node*> step_nodes;
  std::map<const Node*, int> step_of;
  std::string key = p.backend == rt::Backend::GPU ? "gpu:" : "sim:";
  std::function<int(const Node&)> visit = [&](const Node& n) -> int {
    if (n.leaf) {
      for (size_t k = 0; k < leaves.size(); ++k)
        if (same_view(*leaves[k], *n.leaf)) return int(k);
      leaves.push_back(n.leaf);
      return int(leaves.size() - 1);
    }
    auto it = step_of.find(&n);
    if (it != step_of.end()) return ~it->second;
    FusedStep s;
    for (const auto& k : n.kids) s.args.push_back(visit(*k));
    std::pair<UfuncCore*, int> id{n.fn.get(), n.variant};
    s.op = -1;
    for (size_t i = 0; i < op_ids.size(); ++i)
      if (op_ids[i] == id) s.op = int(i);
    if (s.op < 0) {
      s.op = int(op_ids.size());
      op_ids.push_back(id);
      ops.push_back({n.fn->src, n.fn->sigs[n.variant]});
    }
    key += "u" + std::to_string(n.fn->id) + "." + std::to_string(n.variant) + "(";
    for (int a : s.args) key += (a >= 0 ? "L" + std::to_string(a) : "s" + std::to_string(~a)) + ",";
    key += ");";
    steps.push_back(s);
    step_nodes.push_back(&n);
    step_of[&n] = int(steps.size() - 1);
    return ~int(steps.size() - 1);
  };
  visit(*p.root);

  const std::string* symbol;
  const std::vector<std::string>* files;
  rt::LoadedModule* mod;
  try {
    if (g_force_fallback) throw std::runtime_error("forced by _core._fusion_force_fallback");
    std::shared_ptr<FusedKernel> fk;
    {
      auto g = lock_without_gil(g_cache_mu);
      auto& slot = fused_cache()[key];
      if (!slot) {
        std::vector<Scalar> leaf_types;
        for (const auto& l : leaves) leaf_types.push_back(l->dtype.scalar);
        std::string name, symbol_name = "cj_fused_" + std::to_string(fused_cache().size());
        for (const Node* n : step_nodes) name += (name.empty() ? "" : "+") + n->fn->build.name;
        auto k = std::make_shared<FusedKernel>();
        k->build = build_fused_ufunc(ops, steps, leaf_types, symbol_name, name);
        if (debug_level() >= 1)
          std::cerr << "cujit: fused " << steps.size() << " CUDA ufunc calls (" << name << ") into one loop, "
                    << leaves.size() << " operands\n";
        slot = k;
      }
      fk = slot;
    }
    {
      auto g = lock_without_gil(fk->mu);
      auto& slot = fk->modules[p.backend == rt::Backend::GPU ? rt::current_device() : rt::kMaxDevices];
      if (!slot || slot->stale()) slot = load_build(fk->build, p.backend, "fused CUDA ufuncs " + fk->build.name);
      mod = slot.get();
    }
    symbol = &fk->build.variants[0].symbol;
    files = &fk->build.file_order;
  } catch (const std::exception& e) {
    // Each call compiled on its own; together they should too. If not, a cujit bug: the calls
    // run one by one rather than fail the user's program.
    if (debug_level() >= 1) std::cerr << "cujit: fused loop " << key << " failed (" << e.what() << "); running the calls one by one\n";
    return run_unfused(*p.root, p.view, p);
  }
  std::vector<rt::Operand> operands;
  for (const auto& l : leaves) {
    if (l->buf) l->buf->check_live();
    operands.push_back({l->data, l->shape, l->strides});
  }
  operands.push_back({p.view.data, p.view.shape, p.view.strides});
  int64_t n = 0;
  std::vector<int64_t> packed = rt::pack_ufunc_args(p.view.shape, operands, &n);
  naming_simulator_errors(*files, [&] {
    py::gil_scoped_release nogil;
    mod->launch_ufunc(*symbol, packed, n, p.stream);
    return 0;
  });
}

// Runs (and removes) every registered write `pred` selects, and drops those nobody can observe.
template <class Pred>
void run_where(Pred pred) {
  auto& r = registry();
  for (;;) {
    std::shared_ptr<Pending> next;
    for (size_t i = 0; i < r.size();) {
      if (r[i]->buf.expired()) {
        r.erase(r.begin() + i);
        continue;
      }
      if (!next && pred(*r[i])) {
        next = r[i];
        r.erase(r.begin() + i);
        continue;
      }
      ++i;
    }
    g_pending = r.size();
    if (!next) return;
    try {
      run(*next);  // may release the GIL: the scan starts again after it
    } catch (...) {
      // Not written (a simulated IndexError, a lost context): it stays pending, so each later
      // observation raises again rather than read what was never computed.
      r.push_back(next);
      g_pending = r.size();
      throw;
    }
  }
}

bool reads_range(const Pending& p, const Range& m) {
  for (const Range& x : p.reads)
    if (overlaps(x, m)) return true;
  return false;
}

// cujit's own memory whose every user cujit sees: a leaf or a destination of a deferred call.
bool own(const rt::DeviceArray& a) {
  return a.buf && a.buf->origin != rt::Buffer::Origin::External && !a.buf->escaped && !a.dtype.is_record() &&
         a.size() > 0;
}

// Intermediate results that can be fused (see cj::fuse_barrier); others are written.
bool fusable_intermediate(Scalar s) {
  switch (s) {
    case Scalar::Bool: case Scalar::Int8: case Scalar::Int16: case Scalar::Int32: case Scalar::Int64:
    case Scalar::UInt8: case Scalar::UInt16: case Scalar::UInt32: case Scalar::UInt64:
    case Scalar::Float32: case Scalar::Float64:
      return true;
    default:
      return false;
  }
}

std::shared_ptr<Node> leaf_node(std::shared_ptr<rt::DeviceArray> a) {
  auto n = std::make_shared<Node>();
  n->leaf = std::move(a);
  return n;
}

void collect_reads(const Node& n, std::vector<Range>* out) {
  if (n.leaf) {
    if (n.leaf->buf) out->push_back(range_of(*n.leaf->buf));
    return;
  }
  for (const auto& k : n.kids) collect_reads(*k, out);
}

}  // namespace

bool enabled() {
  if (g_enabled < 0) {
    const char* e = std::getenv("CUJIT_FUSE");
    g_enabled = !(e && std::string(e) == "0");
  }
  return g_enabled;
}

void observe_slow(const rt::DeviceArray& a) {
  if (!a.buf) return;
  const Range m = range_of(*a.buf);
  run_where([&](const Pending& p) { return overlaps(p.target, m) || reads_range(p, m); });
}

void escape(const rt::DeviceArray& a) {
  observe(a);
  if (a.buf) a.buf->escaped = true;
}

void flush_all() {
  if (g_pending) run_where([](const Pending&) { return true; });
}

py::object try_defer(const std::shared_ptr<UfuncCore>& core, int variant, const std::vector<Input>& in,
                     const std::shared_ptr<rt::DeviceArray>& out, bool host_out, rt::Backend backend,
                     const py::object& stream_obj, void* stream) {
  const UfuncVariant& v = core->build.variants[variant];
  if (host_out || (out && !own(*out))) return {};
  bool any_dev = false;
  for (const Input& a : in) {
    if (a.host || (a.dev && !own(*a.dev))) return {};
    any_dev = any_dev || a.dev;
  }
  if (!any_dev) return {};
  // A result that is not fusable into a later call, and not written to out=, is not deferred.
  if (!out && !fusable_intermediate(v.output)) return {};

  auto& reg = registry();
  std::vector<std::shared_ptr<Node>> kids;
  std::vector<std::shared_ptr<Pending>> kid_from;  // the pending write each subtree came from
  std::vector<std::vector<int64_t>> shapes;
  for (size_t i = 0; i < in.size(); ++i) {
    const Input& a = in[i];
    if (!a.dev) {  // a scalar: a 1-element array of the signature's type, as the eager path makes
      py::array s = py::array(numpy_dtype(v.inputs[i]), std::vector<py::ssize_t>{1});
      s.attr("__setitem__")(0, a.scalar);
      kids.push_back(leaf_node(device_array_from_numpy(s, true, backend, stream)));
      kid_from.push_back(nullptr);
      shapes.push_back({1});
      continue;
    }
    const rt::DeviceArray& d = *a.dev;
    shapes.push_back(d.shape);
    std::shared_ptr<Pending> src;
    if (g_pending) {
      const Range m = range_of(*d.buf);
      // Exactly a pending result on this stream: its tree. Any other pending write into this
      // memory runs first (the call reads what it wrote).
      for (const auto& p : reg)
        if (!p->buf.expired() && p->buf.lock() == d.buf && same_view(p->view, d) && p->stream == stream &&
            fusable_intermediate(v.inputs[i]))
          src = p;
      run_where([&](const Pending& p) { return &p != src.get() && overlaps(p.target, m); });
    }
    if (src) {
      kids.push_back(src->root);
      kid_from.push_back(src);
    } else {
      kids.push_back(leaf_node(a.dev));
      kid_from.push_back(nullptr);
    }
  }
  std::vector<int64_t> shape;
  try {
    shape = rt::broadcast_shapes(shapes);
  } catch (const std::exception&) {
    return {};  // the eager path raises it
  }
  if ((int)shape.size() > rt::kUfuncMaxDims) return {};
  if (out && (out->shape != shape || !(out->dtype == rt::Dtype(v.output)) || out->readonly)) return {};
  int64_t size = 1;
  for (int64_t e : shape) size *= e;
  if (size == 0) return {};

  auto node = std::make_shared<Node>();
  node->fn = core;
  node->variant = variant;
  node->shape = shape;
  auto count = [&] {
    node->ops = 1;
    std::vector<Range> r;
    for (const auto& k : kids) {
      node->ops += k->ops;
      collect_reads(*k, &r);
    }
    return r.size();
  };
  size_t nleaves = count();
  if (node->ops > kMaxOps || nleaves > (size_t)kMaxLeaves) {
    // Too long a chain: the pending inputs run now and are read as leaves.
    for (size_t i = 0; i < kids.size(); ++i) {
      if (!kid_from[i]) continue;
      run_where([&](const Pending& p) { return &p == kid_from[i].get(); });
      kids[i] = leaf_node(in[i].dev);
      kid_from[i] = nullptr;
    }
    nleaves = count();
    if (nleaves > (size_t)kMaxLeaves) return {};
  }
  node->kids = kids;

  std::shared_ptr<rt::DeviceArray> dest;
  if (out) {
    const Range m = range_of(*out->buf);
    std::vector<Range> reads;
    collect_reads(*node, &reads);
    // A leaf in out='s memory is read at the element it writes only when it is out='s own view;
    // otherwise the eager path (each pending input written first) keeps the order of the calls.
    std::function<bool(const Node&)> safe = [&](const Node& n) {
      if (n.leaf) return !(n.leaf->buf && overlaps(range_of(*n.leaf->buf), m)) || same_view(*n.leaf, *out);
      for (const auto& k : n.kids)
        if (!safe(*k)) return false;
      return true;
    };
    if (!safe(*node)) return {};
    // A pending write of exactly this view whose result this call consumes (x = f(x, out=x)) is
    // superseded: its tree lives on in this one and its write could never be seen. Any other
    // write into this memory, and calls reading it, run first (so every call of a loop like
    // add(a, b, out=c) still runs, one call late).
    std::function<bool(const Node&, const Node*)> contains = [&](const Node& n, const Node* t) {
      if (&n == t) return true;
      for (const auto& k : n.kids)
        if (contains(*k, t)) return true;
      return false;
    };
    for (size_t i = 0; i < reg.size();) {
      if (reg[i]->buf.lock() == out->buf && same_view(reg[i]->view, *out) && contains(*node, reg[i]->root.get()))
        reg.erase(reg.begin() + i);
      else ++i;
    }
    g_pending = reg.size();
    run_where([&](const Pending& p) { return overlaps(p.target, m) || reads_range(p, m); });
    dest = out;
  } else {
    dest = rt::new_device_array(backend, v.output, shape, 'C', stream);
  }
  auto p = std::make_shared<Pending>();
  p->root = node;
  p->buf = dest->buf;
  p->view = *dest;
  p->view.buf.reset();
  p->view.bound_stream.reset();
  p->target = range_of(*dest->buf);
  collect_reads(*node, &p->reads);
  p->backend = backend;
  p->device = backend == rt::Backend::GPU ? rt::current_device() : 0;
  p->stream_obj = stream_obj;
  p->stream = stream;
  reg.push_back(p);
  g_pending = reg.size();
  if (out) return py::bool_(true);  // the caller returns its out= object
  return py::cast(dest);
}

bool describe_last(const rt::DeviceArray& out, Repeat* r) {
  auto& reg = registry();
  if (reg.empty()) return false;
  const std::shared_ptr<Pending>& p = reg.back();
  if (p->buf.lock() != out.buf || !same_view(p->view, out)) return false;
  for (const auto& k : p->root->kids)
    if (!k->leaf) return false;
  const Node& n = *p->root;
  UfuncCore& c = *n.fn;
  std::vector<rt::Operand> operands;
  for (const auto& k : n.kids) operands.push_back({k->leaf->data, k->leaf->shape, k->leaf->strides});
  operands.push_back({p->view.data, p->view.shape, p->view.strides});
  r->packed = rt::pack_ufunc_args(p->view.shape, operands, &r->n);
  c.module(p->backend);  // loaded (it is by now: the call built the variant)
  r->module = c.modules[p->backend == rt::Backend::GPU ? rt::current_device() : rt::kMaxDevices];
  if (!r->module) return false;
  r->symbol = &c.build.variants[n.variant].symbol;
  r->files = &c.build.file_order;
  r->pending = p;
  return true;
}

int64_t g_repeats = 0;  // calls that fuse::repeat ran (tests)

bool repeat(Repeat& r) {
  auto& reg = registry();
  if (reg.size() != 1 || reg[0] != r.pending.lock()) return false;
  const Pending& p = *reg[0];
  if (p.buf.expired() || r.module->stale()) return false;
  if (p.backend == rt::Backend::GPU && rt::current_device() != p.device) return false;
  naming_simulator_errors(*r.files, [&] {
    py::gil_scoped_release nogil;
    r.module->launch_ufunc(*r.symbol, r.packed, r.n, p.stream);
    return 0;
  });
  ++g_repeats;
  return true;
}

void define_fusion(py::module_& m) {
  m.def("_set_fusion", [](bool on) {
    flush_all();
    g_enabled = on;
  }, "Fusion of CUDA ufunc calls on (the default, CUJIT_FUSE unset or not 0) or off; for tests.");
  m.def("_fusion_pending", [] {
    size_t n = 0;
    for (const auto& p : registry()) n += !p->buf.expired();
    return n;
  }, "How many deferred CUDA ufunc writes are waiting (observable ones); for tests.");
  m.def("_fusion_force_fallback", [](bool on) { g_force_fallback = on; },
        "Tests: fused loops act as if they failed to build, so chains run one call at a time.");
  m.def("_fusion_repeats", [] { return g_repeats; },
        "Calls that repeated the last call's plan (a CUDA ufunc's per-call fast path) since the process started; for tests.");
  m.def("_fusion_flush", &flush_all, "Runs every deferred CUDA ufunc write.");
  m.def("_fusion_kernels", [] {
    py::list r;
    auto g = lock_without_gil(g_cache_mu);
    for (const auto& [key, k] : fused_cache()) r.append(py::make_tuple(k->build.name, k->build.cuda_source));
    return r;
  }, "The fused loops built so far: (name, CUDA C++ source); for tests.");
}

}  // namespace fuse
}  // namespace cujit
