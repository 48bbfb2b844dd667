// Code generation of calls (Emitter, codegen_emitter.h): calls of user functions and function
// values, and of intrinsics (builtins.def: one case per Builtin), with NumPy's array
// allocation, random numbers and print. Split from codegen.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <sstream>

#include "compiler/codegen_emitter.h"
#include "compiler/codegen_foreign.h"
#include "compiler/codegen_iter.h"
#include "compiler/fnval.h"
#include "compiler/libdevice.h"
#include "compiler/layout.h"

namespace cujit {
namespace detail {

std::string Emitter::call(const ast::Node& e) {
  const Type& callee = e.func()->type;
  if (callee.tag == Type::Tag::DType) return convert(expr(*e.args()[0]), e.args()[0]->type, e.type);
  if (e.type.is_named_tuple() && callee.tag == Type::Tag::Module) return emit_named_tuple_call(e, resolved(e)->items, values());
  if (callee.user_fn >= 0) {
    const Resolved* r = resolved(e);
    if (!r || r->instance < 0) throw InternalError("codegen: unresolved call");
    const FunctionInstance& f = *prog_.fns[r->instance];
    std::string s = f.cpp_name + "(";
    for (size_t i = 0; i < e.args().size(); ++i)
      s += (i ? ", " : "") + (f.arg_types[i].tag == Type::Tag::None
                                  ? "((void)(" + expr(*e.args()[i]) + "), cj::Unit{})"  // None: no value (param_type)
                                  : convert(expr(*e.args()[i]), e.args()[i]->type, f.arg_types[i]));
    return s + ")";
  }
  if (const LibdeviceFn* ld = callee.name.rfind("cuda.libdevice.", 0) ? nullptr : find_libdevice(callee.name.substr(15))) {
    libdevice_[ld->name] = type(e.type);
    std::string s = "cj_ld_" + ld->name + "(";
    const std::vector<Scalar> in = libdevice_inputs(*ld);
    for (size_t i = 0; i < in.size(); ++i) s += (i ? ", " : "") + arg(e, i, Type::scalar_of(in[i]));
    return s + ")";
  }
  if (callee.name.rfind(kForeignPrefix, 0) == 0) {  // cuda.declare_device (codegen_foreign.h)
    const GlobalValue& decl = *prog_.foreign.at(callee.name.substr(std::string(kForeignPrefix).size())).decl;
    const Signature sig = parse_signature(decl.type_name);
    std::vector<std::string> args;
    for (size_t i = 0; i < e.args().size(); ++i) args.push_back(arg(e, i, sig.args[i]));
    return foreign_call(decl, sig, args);
  }
  // An intrinsic called by its name, or through a variable or parameter that holds it.
  const BuiltinRow* b = find_builtin(callee.name);
  if (callee.tag != Type::Tag::Function || !b) throw InternalError("codegen: call of " + callee.str());
  return builtin(e, b->id);
}

std::string Emitter::arg(const ast::Node& e, size_t i, const Type& to) {
  return convert(expr(*e.args()[i]), e.args()[i]->type, to);
}

std::string Emitter::builtin(const ast::Node& e, Builtin b) {
  std::string sp = builtin_spelling(b);
  const Type& r = e.type;
  const Rule rule = builtin_row(b).rule;
  if (rule == Rule::Ufunc) {  // codegen_ufunc.cpp
    std::vector<std::string> args;
    for (const auto& a : e.args()) args.push_back(expr(*a));
    bool alloc = false;
    std::string s = ufunc_code(*fn_, e, b, args, prog_.host_only, &alloc);
    allocates_ = allocates_ || alloc;
    return s;
  }
  if (rule == Rule::Elementwise) return elementwise_call(e, b);  // codegen_arrayexpr.cpp
  if (rule == Rule::ArrayReduce) {
    if (e.args().size() > 1) return numpy_reduce(e, b);  // axis= / dtype= (codegen_numpy.cpp)
    return reduce_code(e, b, expr(*e.args()[0]), prog_.host_only);
  }
  if (rule == Rule::NpFunc) {  // codegen_numpy.cpp (a scalar result may make arrays too: np.median;
    allocates_ = true;         // type(): a tuple result's struct, np.linalg.eig's)
    type(e.type);
    return numpy_call(e, b);
  }
  if (rule == Rule::StrOp) return str_call_code(e, b, [this](const ast::Node& n) { return expr(n); });  // codegen_strings.cpp
  if (rule == Rule::DictOp) {  // codegen_dicts.cpp (type(): the result's tuple structs, items() or popitem())
    type(e.type);
    return dict_call_code(*fn_, e, b, [this](const ast::Node& n) { return expr(n); },
                          [this](const std::string& c, const Type& f, const Type& t) { return convert(c, f, t); });
  }
  if (rule == Rule::ListOp)  // codegen_lists.cpp
    return list_call_code(*fn_, e, b, [this](const ast::Node& n) { return expr(n); },
                          [this](const std::string& c, const Type& f, const Type& t) { return convert(c, f, t); });
  if (r.is_array() && rule != Rule::ArrayAlloc && rule != Rule::ConstArray && rule != Rule::ArrayView &&
      !(b == Builtin::NpCopy && !prog_.host_only))  // GPU code's copy() is local storage
    allocates_ = true;
  if (std::string c = emit_complex_builtin(e, b, values()); !c.empty()) return c;
  if (std::string c = emit_time_builtin(e, b, values()); !c.empty()) return c;
  switch (b) {
    case Builtin::Abs: return sp + "(" + arg(e, 0, r) + ")";
    case Builtin::Min: case Builtin::Max: {
      std::vector<std::string> items;
      if (e.args().size() == 1 && e.args()[0]->type.is_list())  // prelude/host_list.h
        return std::string(b == Builtin::Min ? "cj::list_min(" : "cj::list_max(") + expr(*e.args()[0]) + ")";
      if (e.args().size() == 1 && e.args()[0]->type.tag == Type::Tag::String)  // prelude/host_str.h
        return "cj::str_minmax(" + expr(*e.args()[0]) + (b == Builtin::Max ? ", true)" : ", false)");
      if (e.args().size() == 1) {
        const Type& t = e.args()[0]->type;
        const std::string tup = "cj_mt" + std::to_string(tmp_++);  // the tuple evaluated once
        for (size_t i = 0; i < t.elems.size(); ++i)
          items.push_back(convert(tup + ".f" + std::to_string(i), t.elems[i], r));
        std::string acc = items[0];
        for (size_t i = 1; i < items.size(); ++i) acc = sp + "(" + acc + ", " + items[i] + ")";
        return "([&]() { auto " + tup + " = " + expr(*e.args()[0]) + "; return " + acc + "; }())";
      }
      for (size_t i = 0; i < e.args().size(); ++i) items.push_back(arg(e, i, r));
      if (!prog_.host_only && e.args().size() == 2 && (r.scalar == Scalar::Float32 || r.scalar == Scalar::Float64) &&
          r.is_scalar() && is_float(e.args()[0]->type.scalar) && is_float(e.args()[1]->type.scalar))
        return sp + "_float(" + items[0] + ", " + items[1] + ")";  // numba-cuda's fmax/fmin (common.h)
      std::string acc = items[0];
      for (size_t i = 1; i < items.size(); ++i) acc = sp + "(" + acc + ", " + items[i] + ")";
      return acc;
    }
    case Builtin::Round:
      // numba-cuda rounds the scaled value in float64, Numba's CPU code in x's type (they differ
      // for float32: round(float32(0.3425), 3) is 0.343 on the GPU, 0.342 in @jit code).
      if (e.args().size() == 2)
        return std::string(prog_.host_only ? "cj::round_digits(" : "cj::round_digits_f64(") + arg(e, 0, r) +
               ", (int64_t)(" + expr(*e.args()[1]) + "))";
      if (is_integral(e.args()[0]->type.scalar)) return arg(e, 0, r);
      return "cj::round_even(" + expr(*e.args()[0]) + ")";
    case Builtin::Divmod:  // codegen_exc.cpp: the zero divisor's error or value as // and % give
      return divmod_code(prog_, *fn_, r, line_, prog_.python_errors, target_ == Target::Host,
                         arg(e, 0, r.elems[0]), arg(e, 1, r.elems[0]), type(r));
    case Builtin::BoolFn:
      if (e.args()[0]->type.tag == Type::Tag::String) return "cj::str_truth(" + expr(*e.args()[0]) + ")";
      if (const Type& t = e.args()[0]->type; t.is_tuple())  // not empty: known from the type
        return "((void)(" + expr(*e.args()[0]) + "), " + (t.elems.empty() ? "false" : "true") + ")";
      else if (t.is_list() || t.is_dict() || t.is_set())
        return "((" + expr(*e.args()[0]) + ").size() != 0)";
      return arg(e, 0, r);
    case Builtin::Int: case Builtin::Float: return arg(e, 0, r);
    case Builtin::Len: {
      const Type& t = e.args()[0]->type;
      if (t.is_tuple()) return "((void)(" + expr(*e.args()[0]) + "), (int64_t)" + std::to_string(t.elems.size()) + ")";
      if (t.is_list() || t.is_dict() || t.is_set() || t.tag == Type::Tag::String) return "(" + expr(*e.args()[0]) + ").size()";
      if (is_flat_iter(t)) return "cj::size(" + expr(*e.args()[0]) + ")";  // len(a.flat)
      if (t.is_charseq()) return "cj::charseq_len(" + expr(*e.args()[0]) + ")";  // a record's string field
      return "(" + expr(*e.args()[0]) + ").shape[0]";
    }
    case Builtin::Print: return print(e);
    case Builtin::TupleOf: return e.args().empty() ? type(e.type) + "{}" : expr(*e.args()[0]);
    case Builtin::CudaGrid: case Builtin::CudaGridsize: {
      std::string base = b == Builtin::CudaGrid ? "cj::grid_" : "cj::gridsize_";
      if (r.is_scalar()) return base + "x()";
      std::string s = type(r) + "{";
      const char* xyz[] = {"x", "y", "z"};
      for (size_t i = 0; i < r.elems.size(); ++i) s += (i ? ", " : "") + base + xyz[i] + "()";
      return s + "}";
    }
    case Builtin::CudaConstArray: case Builtin::LiteralUnroll: case Builtin::CudaLiteralUnroll: return expr(*e.args()[0]);
    case Builtin::CudaLocalArray: case Builtin::CudaSharedArray: {
      const std::vector<int64_t>& dims = fn_->array_shapes.at(&e);
      int64_t n = 1;
      for (auto d : dims) n *= d;
      std::string T = r.record ? record_cpp(*r.record) : scalar_cpp(r.scalar), name = "cj_mem" + std::to_string(tmp_++);
      if (n == 0)  // dynamic shared memory: every such array starts at the same bytes, as in Numba
        return "cj::c_array<" + T + ", 1>((" + T + "*)cj::dyn_shared_ptr(), (int64_t)(cj::dyn_shared_bytes() / sizeof(" + T + ")))";
      // Shared memory: __shared__ on the GPU; in the simulator, one buffer per CPU thread,
      // which runs a block's threads one after another, so the block shares it.
      std::string where = b == Builtin::CudaLocalArray ? "" : target_ == Target::CUDA ? "__shared__ " : "static thread_local ";
      auto al = fn_->array_alignment.find(&e);  // alignment=n (a power of 2, checked when typing)
      if (al != fn_->array_alignment.end()) where = "alignas(" + std::to_string(al->second) + ") " + where;
      auto lay = shared_layouts_.find(&e);  // GPU only: rows padded against bank conflicts (shared_layout.h)
      const int64_t row = lay == shared_layouts_.end() ? 0 : lay->second.row;
      if (lay != shared_layouts_.end()) storage_ << "  // cuda.shared.array at line " << e.loc.line << ": " << lay->second.reason << "\n";
      storage_ << "  " << where << T << " " << name << "[" << (row ? n / dims.back() * row : n) << "];\n";
      // The race check knows shared memory by its address: the storage registers itself.
      if (b == Builtin::CudaSharedArray && race_checked()) name = "cj::sim_race_shared(" + name + ", (int64_t)" + std::to_string(n) + ")";
      std::string s = row ? "cj::c_array_rows<" + T + ", " + std::to_string(dims.size()) + ">(" + name + ", (int64_t)" + std::to_string(row)
                          : "cj::c_array<" + T + ", " + std::to_string(dims.size()) + ">(" + name;
      for (auto d : dims) s += ", (int64_t)" + std::to_string(d);
      return s + ")";
    }
    case Builtin::AtomicAdd: case Builtin::AtomicSub: case Builtin::AtomicMax: case Builtin::AtomicMin:
    case Builtin::AtomicExch: case Builtin::AtomicNanmax: case Builtin::AtomicNanmin: case Builtin::AtomicAnd:
    case Builtin::AtomicOr: case Builtin::AtomicXor: case Builtin::AtomicInc: case Builtin::AtomicDec:
    case Builtin::AtomicCas: case Builtin::AtomicCas0: case Builtin::CudaLdca: case Builtin::CudaLdcg:
    case Builtin::CudaLdcs: case Builtin::CudaLdlu: case Builtin::CudaLdcv: case Builtin::CudaStcg:
    case Builtin::CudaStcs: case Builtin::CudaStwb: case Builtin::CudaStwt: {  // an element's address
      std::string ref = "cj::elem(" + expr(*e.args()[0]);
      size_t first_value = 2;
      if (b == Builtin::AtomicCas0) {
        ref += ", (int64_t)0)";
        first_value = 1;
      } else if (e.args()[1]->type.is_tuple()) {
        ref = tuple_indexed(ref, *e.args()[1]);  // evaluated once (it may be a call)
      } else {
        ref += ", (int64_t)(" + expr(*e.args()[1]) + "))";
      }
      std::string s = sp + "(&" + ref;
      for (size_t k = first_value; k < e.args().size(); ++k)  // a cache-hinted store casts in the prelude
        s += ", " + (r.tag == Type::Tag::None ? expr(*e.args()[k]) : arg(e, k, r));
      return s + ")";
    }
    case Builtin::CudaSyncCount: case Builtin::CudaSyncAnd: case Builtin::CudaSyncOr:
      uses_barrier_ = true;
      return sp + "(" + truth(*e.args()[0]) + ")";
    // Warp-synchronous intrinsics: the simulator must run the block's threads as fibers.
    case Builtin::CudaShfl: case Builtin::CudaShflUp: case Builtin::CudaShflDown: case Builtin::CudaShflXor:
      uses_barrier_ = true;
      return sp + "((uint32_t)(" + expr(*e.args()[0]) + "), " + expr(*e.args()[1]) + ", (int32_t)(" + expr(*e.args()[2]) + "))";
    case Builtin::CudaAllSync: case Builtin::CudaAnySync: case Builtin::CudaEqSync: case Builtin::CudaBallotSync:
      uses_barrier_ = true;
      return sp + "((uint32_t)(" + expr(*e.args()[0]) + "), " + truth(*e.args()[1]) + ")";
    case Builtin::CudaMatchAnySync: {
      // CUDA matches 32- or 64-bit values; Numba's signatures widen smaller ints to int32.
      Scalar s = e.args()[1]->type.scalar;
      Type vt = Type::scalar_of(is_float(s) ? s : scalar_size(s) == 8 ? s : Scalar::Int32);
      uses_barrier_ = true;
      return sp + "((uint32_t)(" + expr(*e.args()[0]) + "), " + convert(expr(*e.args()[1]), e.args()[1]->type, vt) + ")";
    }
    case Builtin::CudaActivemask:
      uses_barrier_ = true;
      return sp + "()";
    case Builtin::CudaLanemaskLt: case Builtin::ThreadId: return sp + "()";
    case Builtin::CudaSyncwarp:
      uses_barrier_ = true;
      return sp + "(" + (e.args().empty() ? std::string("0xffffffffu") : "(uint32_t)(" + expr(*e.args()[0]) + ")") + ")";
    case Builtin::CudaFence: case Builtin::CudaFenceBlock: case Builtin::CudaFenceSystem:
      return sp + "()";
    case Builtin::CudaNanosleep: return sp + "((uint32_t)(" + expr(*e.args()[0]) + "))";
    case Builtin::CudaPopc: case Builtin::CudaClz: case Builtin::CudaFfs:
      return sp + "(" + expr(*e.args()[0]) + ")";
    case Builtin::CudaBrev: return sp + "(" + arg(e, 0, r) + ")";
    case Builtin::CudaFma: case Builtin::CudaSelp:  // selp's test becomes bool in cj::selp
      return sp + "(" + arg(e, 0, r) + ", " + arg(e, 1, r) + ", " + arg(e, 2, r) + ")";
    case Builtin::PyRandom: case Builtin::PyUniform: case Builtin::PyGauss: case Builtin::PyNormalvariate:
    case Builtin::PyRandint: case Builtin::PyRandrange: case Builtin::PySeed: case Builtin::NpRandom:
    case Builtin::NpRandomSample: case Builtin::NpRand: case Builtin::NpRandn: case Builtin::NpStdNormal:
    case Builtin::NpNormal: case Builtin::NpUniform: case Builtin::NpRandint: case Builtin::NpSeed:
    case Builtin::NpExponential: case Builtin::NpStdExponential: case Builtin::NpLaplace: case Builtin::NpLogistic:
    case Builtin::NpGumbel: case Builtin::NpLognormal: case Builtin::NpGeometric: case Builtin::NpPoisson:
    case Builtin::NpTriangular: case Builtin::NpRanf: case Builtin::NpSample: case Builtin::NpGamma:
    case Builtin::NpStdGamma: case Builtin::NpBeta: case Builtin::NpChisquare: case Builtin::NpF: case Builtin::NpStdT:
    case Builtin::NpStdCauchy: case Builtin::NpPareto: case Builtin::NpWeibull: case Builtin::NpRandPower:
    case Builtin::NpRayleigh: case Builtin::NpWald: case Builtin::NpVonmises: case Builtin::NpNegBinomial:
    case Builtin::NpBinomial: case Builtin::NpChoice: case Builtin::NpHypergeometric: case Builtin::NpLogseries:
    case Builtin::NpZipf: case Builtin::NpNoncentralChisquare: case Builtin::NpMultinomial: case Builtin::NpDirichlet:
      return random_call(e, b, sp);
    case Builtin::NpEmpty: case Builtin::NpZeros: case Builtin::NpOnes: case Builtin::NpFull:
    case Builtin::NpEmptyLike: case Builtin::NpZerosLike: case Builtin::NpOnesLike: case Builtin::NpFullLike:
    case Builtin::NpCopy:
      if (!prog_.host_only) {  // GPU code: a global array into local storage (typeinfer's gpu_copy)
        const std::vector<int64_t>& dims = fn_->array_shapes.at(&e);
        int64_t n = 1;
        for (auto d : dims) n *= d;
        std::string T = scalar_cpp(r.scalar), name = "cj_mem" + std::to_string(tmp_++);
        storage_ << "  " << T << " " << name << "[" << n << "];\n";
        std::string s = "cj::copy_array(cj::c_array<" + T + ", " + std::to_string(dims.size()) + ">(" + name;
        for (auto d : dims) s += ", (int64_t)" + std::to_string(d);
        return s + "), " + expr(*e.args()[0]) + ")";
      }
      return array_new(e, b, sp);
    case Builtin::ArrayViewM:
      if (prog_.host_only) sp = "cj::npa_view";  // Numba's messages (prelude/host_numpy.h)
      return sp + "<" + std::string(scalar_cpp(r.scalar)) + ">(" + expr(*e.args()[0]) + ")";
    case Builtin::NpArange:
      return array_new(e, b, sp);
    case Builtin::CudaSync:
      uses_barrier_ = true;
      return sp + "()";
    case Builtin::CgThisGrid: return sp + "()";
    case Builtin::CgGridSync:  // a block barrier on each side: the simulator needs fibers
      uses_barrier_ = true;
      return sp + "(" + expr(*e.args()[0]) + ")";
    case Builtin::MathFrexp: return sp + "<" + type(r) + ">(" + arg(e, 0, r.elems[0]) + ")";
    case Builtin::MathModf: return sp + "<" + type(r) + ">(" + arg(e, 0, r.elems[0]) + ")";
    case Builtin::MathLdexp: return sp + "(" + arg(e, 0, r) + ", (int64_t)(" + expr(*e.args()[1]) + "))";
    case Builtin::MathGcd: return sp + "(" + arg(e, 0, r) + ", " + arg(e, 1, r) + ")";
    case Builtin::MathPow: case Builtin::MathAtan2: case Builtin::MathHypot: case Builtin::MathCopysign:
    case Builtin::MathFmod: case Builtin::MathNextafter: case Builtin::MathRemainder: {
      // Each argument converted to the case typing chose (builtins.h); an integer parameter of
      // atan2/hypot is computed in the result's float type, as Numba's lowering does.
      const MathCase c = math_binary_case(b, e.args()[0]->type.scalar, e.args()[1]->type.scalar, !prog_.host_only);
      auto param = [&](int i) { return Type::scalar_of(is_float(c.param_types[i]) ? c.param_types[i] : r.scalar); };
      // Numba's CPU math.pow(float, int) is `**` (cpython/numbers.py int_power: squaring).
      if (b == Builtin::MathPow && prog_.host_only && !is_float(c.param_types[1]))
        return std::string(prog_.python_errors ? "cj::py_powi(" : "cj::powi(") + arg(e, 0, param(0)) + ", " +
               arg(e, 1, Type::scalar_of(c.param_types[1])) + ")";
      return sp + "(" + arg(e, 0, param(0)) + ", " + arg(e, 1, param(1)) + ")";
    }
    case Builtin::IntBitCount: return (prog_.host_only ? sp : sp + "_bits") + "(" + expr(*e.args()[0]) + ")";
    case Builtin::Conjugate: return expr(*e.args()[0]);
    case Builtin::MathFloor: case Builtin::MathCeil: case Builtin::MathTrunc:
      if (is_float(r.scalar)) sp += "_f";  // GPU code: numba-cuda's float result
      break;
    default: break;
  }
  // The math families: arguments converted to the result's float type (or float64 for the
  // predicates and the to-int functions, whose results are not floats).
  Type at = r;
  if (rule == Rule::Fp16Compare) at = Type::scalar_of(Scalar::Float16);
  else if (!r.is_scalar() || !is_inexact(r.scalar)) {
    const Type& a0 = e.args()[0]->type;
    at = Type::scalar_of(is_float(a0.scalar) ? a0.scalar : Scalar::Float64);
    if (b == Builtin::MathFloor || b == Builtin::MathCeil || b == Builtin::MathTrunc) {
      if (is_integral(a0.scalar)) return convert(expr(*e.args()[0]), a0, r);
    }
  }
  std::string s = sp + "(";
  for (size_t i = 0; i < e.args().size(); ++i) s += (i ? ", " : "") + arg(e, i, at);
  return s + ")";
}

// The sizes of a shape argument (an integer or a tuple of them) as int64 C++ arguments. A
// tuple is read from `cj_s`, which `*init` declares: the caller puts it first in an
// immediately called lambda (host code only, so C++20 is at hand), evaluating it once.
std::string Emitter::shape_sizes(const ast::Node& sh, std::string* init) {
  if (!sh.type.is_tuple()) return "(int64_t)(" + expr(sh) + ")";
  *init = "const auto cj_s = " + expr(sh) + "; ";
  std::string dims;
  for (size_t k = 0; k < sh.type.elems.size(); ++k) dims += (k ? ", " : "") + std::string("(int64_t)cj_s.f") + std::to_string(k);
  return dims;
}

// np.empty and friends (prelude/host_arrays.h).
std::string Emitter::array_new(const ast::Node& e, Builtin b, const std::string& sp) {
  using B = Builtin;
  const Type& r = e.type;
  const std::string T = scalar_cpp(r.scalar), N = std::to_string(r.ndim);
  auto given = [&](size_t i) { return i < e.args().size() && e.args()[i]->type.tag != Type::Tag::None; };
  auto sized = [&](const std::string& pre) {
    std::string init, dims = shape_sizes(*e.args()[0], &init);
    std::string call = sp + "<" + T + ", " + N + ">(" + pre + dims + ")";
    return init.empty() ? call : "[&] { " + init + "return " + call + "; }()";
  };
  switch (b) {
    case B::NpEmpty: case B::NpZeros: case B::NpOnes: return sized("");
    case B::NpFull: return sized("(" + T + ")(" + expr(*e.args()[1]) + "), ");
    case B::NpEmptyLike: return sp + "<" + T + ">(" + expr(*e.args()[0]) + ")";
    case B::NpZerosLike: return "cj::filled(" + sp + "<" + T + ">(" + expr(*e.args()[0]) + "), (" + T + ")0)";
    case B::NpOnesLike: return "cj::filled(" + sp + "<" + T + ">(" + expr(*e.args()[0]) + "), (" + T + ")1)";
    case B::NpFullLike:
      return "cj::filled(" + sp + "<" + T + ">(" + expr(*e.args()[0]) + "), (" + T + ")(" + expr(*e.args()[1]) + "))";
    case B::NpCopy: return sp + "<" + T + ">(" + expr(*e.args()[0]) + ", [](" + T + " x) { return x; })";
    case B::NpArange: {
      bool ints = true;
      for (size_t i = 0; i < 3; ++i) ints = ints && (!given(i) || is_integral(e.args()[i]->type.scalar));
      const Type w = Type::scalar_of(ints ? Scalar::Int64 : Scalar::Float64);
      std::string start = given(1) ? arg(e, 0, w) : (ints ? "(int64_t)0" : "0.0");
      std::string stop = given(1) ? arg(e, 1, w) : arg(e, 0, w);
      std::string step = given(2) ? arg(e, 2, w) : (ints ? "(int64_t)1" : "1.0");
      return std::string(ints ? "cj::np_arange_int<" : "cj::np_arange<") + T + ">(" + start + ", " + stop + ", " + step + ")";
    }
    default: break;
  }
  throw InternalError("codegen: array constructor");
}

// random.* / np.random.* (prelude/host_random.h): the generator (0: random, 1: np.random) comes
// first; parameters left at None take their defaults here. With a size, an immediately called
// lambda evaluates the arguments once and fills a new array with draws.
std::string Emitter::random_call(const ast::Node& e, Builtin b, const std::string& sp) {
  using B = Builtin;
  const bool py = b == B::PyRandom || b == B::PyUniform || b == B::PyGauss || b == B::PyNormalvariate ||
                  b == B::PyRandint || b == B::PyRandrange || b == B::PySeed;
  const Type f64 = Type::scalar_of(Scalar::Float64), i64 = Type::scalar_of(Scalar::Int64);
  auto given = [&](size_t i) { return i < e.args().size() && e.args()[i]->type.tag != Type::Tag::None; };
  auto num = [&](size_t i, const char* dflt) { return given(i) ? arg(e, i, f64) : std::string(dflt); };
  const std::string which = py ? "0" : "1";
  std::vector<std::string> a;  // the draw's arguments after the generator
  int size_arg = -1;           // where the size is; -2: rand(d0, d1, ...), sizes as arguments
  switch (b) {
    case B::PySeed: case B::NpSeed: return sp + "(" + which + ", " + arg(e, 0, i64) + ")";
    case B::PyUniform: case B::NpUniform: case B::PyGauss: case B::PyNormalvariate: case B::NpNormal:
      a = {num(0, "0.0"), num(1, "1.0")};
      size_arg = 2;
      break;
    case B::NpRandn: case B::NpStdNormal:
      a = {"0.0", "1.0"};
      size_arg = b == B::NpRandn ? -2 : 0;
      break;
    case B::NpExponential: a = {num(0, "1.0")}; size_arg = 1; break;
    case B::NpStdExponential: a = {"1.0"}; size_arg = 0; break;
    case B::NpLaplace: case B::NpLogistic: case B::NpGumbel: case B::NpLognormal:
      a = {num(0, "0.0"), num(1, "1.0")};
      size_arg = 2;
      break;
    case B::NpGeometric: a = {num(0, "0.5")}; size_arg = 1; break;
    case B::NpPoisson: a = {num(0, "1.0")}; size_arg = 1; break;
    case B::NpTriangular: a = {num(0, "0.0"), num(1, "0.0"), num(2, "0.0")}; size_arg = 3; break;
    case B::NpStdCauchy: size_arg = 0; break;
    case B::NpGamma: a = {num(0, "1.0"), num(1, "1.0")}; size_arg = 2; break;
    case B::NpRayleigh: a = {num(0, "1.0")}; size_arg = 1; break;
    case B::NpStdGamma: case B::NpChisquare: case B::NpStdT: case B::NpPareto: case B::NpWeibull: case B::NpRandPower:
      a = {num(0, "1.0")};
      size_arg = 1;
      break;
    case B::NpBeta: case B::NpF: case B::NpWald: case B::NpVonmises: case B::NpNegBinomial:
      a = {num(0, "1.0"), num(1, "1.0")};
      size_arg = 2;
      break;
    case B::NpBinomial: a = {arg(e, 0, i64), num(1, "0.5")}; size_arg = 2; break;
    case B::NpChoice: return choice_call(e, sp);
    case B::NpHypergeometric: a = {num(0, "0.0"), num(1, "0.0"), num(2, "0.0")}; size_arg = 3; break;
    case B::NpLogseries: case B::NpZipf: a = {num(0, "0.0")}; size_arg = 1; break;
    case B::NpNoncentralChisquare: a = {num(0, "0.0"), num(1, "0.0")}; size_arg = 2; break;
    case B::NpMultinomial: case B::NpDirichlet: return vector_draws_call(e, b, sp);
    case B::PyRandint: a = {arg(e, 0, i64), arg(e, 1, i64)}; break;
    case B::PyRandrange: case B::NpRandint:  // one argument: [0, n)
      a = given(1) ? std::vector<std::string>{arg(e, 0, i64), arg(e, 1, i64)}
                   : std::vector<std::string>{"(int64_t)0", arg(e, 0, i64)};
      size_arg = 2;
      break;
    default: size_arg = b == B::NpRand ? -2 : 0; break;
  }
  // The integer draws take no generator argument: each function knows its own.
  const bool with_gen = !(b == B::PyRandint || b == B::PyRandrange || b == B::NpRandint);
  auto draw = [&](const std::vector<std::string>& args) {
    std::string s = sp + "(" + (with_gen ? which : "");
    for (size_t i = 0; i < args.size(); ++i) s += (with_gen || i ? ", " : "") + args[i];
    return s + ")";
  };
  if (!e.type.is_array()) return draw(a);
  std::string out = "[&] { ", init, dims;
  std::vector<std::string> names;
  for (size_t i = 0; i < a.size(); ++i) {
    names.push_back("cj_a" + std::to_string(i));
    out += "const auto " + names.back() + " = " + a[i] + "; ";
  }
  if (size_arg == -2) {
    for (size_t i = 0; i < e.args().size(); ++i) dims += (i ? ", " : "") + std::string("(int64_t)(") + expr(*e.args()[i]) + ")";
  } else {
    dims = shape_sizes(*e.args()[size_arg], &init);
  }
  const std::string T = scalar_cpp(e.type.scalar), N = std::to_string(e.type.ndim);
  out += init + "auto cj_r = cj::np_empty<" + T + ", " + N + ">(" + dims + "); ";
  out += "for (int64_t cj_k = 0, cj_n = cj::size(cj_r); cj_k < cj_n; ++cj_k) cj_r.data[cj_k] = " + draw(names) + "; ";
  return out + "return cj_r; }()";
}

// np.random.multinomial / dirichlet (prelude/host_random.h): a new array of size's dimensions and
// then len(pvals), filled by rand_multinomial_fill / rand_dirichlet_fill; pvals (alpha) as a 1-d
// array (a list or tuple becomes a float64 one first, as np.array would make it).
std::string Emitter::vector_draws_call(const ast::Node& e, Builtin b, const std::string& sp) {
  const bool mn = b == Builtin::NpMultinomial;
  const ast::Node& pv = *e.args()[mn ? 1 : 0];
  std::string p = expr(pv);
  if (pv.type.is_tuple()) {
    std::string items;
    for (size_t k = 0; k < pv.type.elems.size(); ++k) items += (k ? ", " : "") + std::string("(double)cj_pt.f") + std::to_string(k);
    p = "[&] { const auto cj_pt = " + p + "; return cj::npa_from_values<double>(" + items + "); }()";
  } else if (pv.type.is_list()) {
    p = "cj::npa_from_seq<double>(" + p + ")";
  }
  std::string out = "[&] { ";
  if (mn) out += "const int64_t cj_n = " + arg(e, 0, Type::scalar_of(Scalar::Int64)) + "; ";
  out += "const auto cj_p = " + p + "; ";
  const size_t size_at = mn ? 2 : 1;
  std::string init, dims;
  if (size_at < e.args().size() && e.args()[size_at]->type.tag != Type::Tag::None) {
    dims = shape_sizes(*e.args()[size_at], &init);
    if (!dims.empty()) dims += ", ";
  }
  dims += "cj_p.shape[0]";
  const std::string T = scalar_cpp(e.type.scalar), N = std::to_string(e.type.ndim);
  out += init + "auto cj_r = cj::np_empty<" + T + ", " + N + ">(" + dims + "); ";
  out += sp + "(" + (mn ? "cj_n, " : "") + "cj_p, cj_r); return cj_r; }()";
  return out;
}

// np.random.choice (prelude/host_random.h): one item, or an array of `size` filled by rand_choice_fill.
std::string Emitter::choice_call(const ast::Node& e, const std::string& sp) {
  const std::string pop = expr(*e.args()[0]);
  if (!e.type.is_array()) return sp + "(" + pop + ")";
  const bool replace_given = e.args().size() > 2 && e.args()[2]->type.tag != Type::Tag::None;
  std::string init;
  const std::string dims = shape_sizes(*e.args()[1], &init);
  const std::string T = scalar_cpp(e.type.scalar), N = std::to_string(e.type.ndim);
  return "[&] { const auto cj_pop = " + pop + "; const bool cj_rep = " +
         (replace_given ? "(bool)(" + expr(*e.args()[2]) + ")" : std::string("true")) + "; " + init +
         "auto cj_r = cj::np_empty<" + T + ", " + N + ">(" + dims + "); cj::rand_choice_fill(cj_pop, cj_r, cj_rep); return cj_r; }()";
}

std::string Emitter::print(const ast::Node& e) {
  std::string fmt, args, binds;  // binds: tuples, evaluated once into temporaries
  for (size_t i = 0; i < e.args().size(); ++i) {
    const ast::Node& a = *e.args()[i];
    if (i) fmt += " ";
    if (a.type.tag == Type::Tag::None) { fmt += "%s"; args += ", ((void)(" + expr(a) + "), \"None\")"; continue; }
    if (a.type.tag == Type::Tag::String && !a.is(ast::Kind::Constant)) {  // a str value (@jit code): its UTF-8
      fmt += "%s";
      args += ", cj::str_utf8(" + expr(a) + ").c_str()";
      continue;
    }
    if (a.type.tag == Type::Tag::String) {
      for (char c : a.cval.s) {
        if (c == '%') fmt += "%%";
        else if (c == '"' || c == '\\') { fmt += '\\'; fmt += c; }
        else if (c == '\n') fmt += "\\n";
        else fmt += c;
      }
      continue;
    }
    if (print_needs_text(a.type)) {  // @jit code: containers, tuples holding str (codegen_print.cpp)
      fmt += "%s";
      args += ", " + print_text(expr(a), a.type, &tmp_) + ".c_str()";
      continue;
    }
    if (a.type.tag == Type::Tag::Module) {  // cuda.threadIdx and kin (typing allows no other): a Dim3
      const std::string d = "CJ_" + a.type.name.substr(5) + "_";
      fmt += "(%lld, %lld, %lld)";
      for (const char* c : {"x", "y", "z"}) args += ", (long long)" + d + c;
      continue;
    }
    std::string code = expr(a);
    if (a.type.is_tuple()) {
      const std::string t = "cj_pt" + std::to_string(tmp_++);
      binds += "auto " + t + " = " + code + "; ";
      code = t;
    }
    print_piece(code, a.type, &fmt, &args);
  }
  std::string call = "printf(\"" + fmt + "\\n\"" + args + ")";
  // On the CPU stdout may be a buffered pipe (Jupyter, pytest): flush so output keeps its order.
  if (target_ == Target::Host) call = "(" + call + ", fflush(stdout))";
  return binds.empty() ? call : "([&]() { " + binds + "return " + call + "; }())";
}

}  // namespace detail
}  // namespace cujit
