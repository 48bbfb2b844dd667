// Typing of the intrinsics that make arrays (BuiltinTyper, typeinfer_builtin_typer.h): np.empty
// and its kin, cuda.local/shared.array, device copies and views, and random.* / np.random.*.
// Split from typeinfer_builtins.cpp.
#include <algorithm>
#include <functional>
#include <string>

#include "compiler/typeinfer_builtin_typer.h"
#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/libdevice.h"
#include "compiler/typeinfer.h"

namespace cujit {
namespace detail {

// random.* and np.random.*: CPU code only. Arguments were put in parameter order by
// bind_builtin_keywords; a None is a parameter left at its default.
Type BuiltinTyper::random_call(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  host_only(e, b, "GPU code draws random numbers with cujit.cuda.random (create_xoroshiro128p_states)");
  using B = Builtin;
  auto given = [&](size_t i) { return i < args.size() && args[i].tag != Type::Tag::None; };
  auto number = [&](size_t i) {
    if (given(i) && (!args[i].is_scalar() || is_complex(args[i].scalar)))
      error(*e.args()[i], std::string(b.name) + "() needs a real number, got " + args[i].str());
  };
  auto integer = [&](size_t i) {
    if (given(i) && (!args[i].is_scalar() || !is_integral(args[i].scalar)))
      error(*e.args()[i], std::string(b.name) + "() needs an integer, got " + args[i].str());
  };
  // With a size (an int or a tuple of ints), an array of that shape filled with draws.
  auto sized = [&](size_t i, Scalar s) {
    if (!given(i)) return Type::scalar_of(s);
    return Type::array(s, shape_ndim(*e.args()[i], b, args[i]), 'C');
  };
  switch (b.id) {
    case B::PySeed: case B::NpSeed:
      arity(e, b, args, 1, 1); integer(0);
      return Type::none();
    case B::PyRandom:
      arity(e, b, args, 0, 0);
      return Type::scalar_of(Scalar::Float64);
    case B::NpRandom: case B::NpRandomSample: case B::NpStdNormal:
      arity(e, b, args, 0, 1);
      return sized(0, Scalar::Float64);
    case B::NpRand: case B::NpRandn:  // rand(d0, d1, ...): the sizes as separate arguments
      for (size_t i = 0; i < args.size(); ++i) integer(i);
      if (args.empty()) return Type::scalar_of(Scalar::Float64);
      return Type::array(Scalar::Float64, (int)args.size(), 'C');
    case B::PyUniform: arity(e, b, args, 2, 2); number(0); number(1); return Type::scalar_of(Scalar::Float64);
    case B::PyGauss: case B::PyNormalvariate:
      arity(e, b, args, 0, 2); number(0); number(1);
      return Type::scalar_of(Scalar::Float64);
    case B::NpNormal: case B::NpUniform:
      arity(e, b, args, 0, 3); number(0); number(1);
      return sized(2, Scalar::Float64);
    case B::PyRandint: arity(e, b, args, 2, 2); integer(0); integer(1); return Type::scalar_of(Scalar::Int64);
    case B::PyRandrange:
      arity(e, b, args, 1, 3); integer(0); integer(1);
      if (given(2)) unsupported(*e.args()[2], "random.randrange() with a step is not supported");
      return Type::scalar_of(Scalar::Int64);
    case B::NpRandint:
      arity(e, b, args, 1, 3); integer(0); integer(1);
      return sized(2, Scalar::Int64);
    case B::NpExponential: arity(e, b, args, 0, 2); number(0); return sized(1, Scalar::Float64);
    case B::NpStdExponential: arity(e, b, args, 0, 1); return sized(0, Scalar::Float64);
    case B::NpLaplace: case B::NpLogistic: case B::NpGumbel: case B::NpLognormal:
      arity(e, b, args, 0, 3); number(0); number(1);
      return sized(2, Scalar::Float64);
    case B::NpGeometric:
      arity(e, b, args, 1, 2); number(0);
      if (!given(0)) error(e, "numpy.random.geometric() missing a required argument: 'p'");
      return sized(1, Scalar::Int64);
    case B::NpPoisson: arity(e, b, args, 0, 2); number(0); return sized(1, Scalar::Int64);
    case B::NpRanf: case B::NpSample: case B::NpStdCauchy:
      arity(e, b, args, 0, 1);
      return sized(0, Scalar::Float64);
    case B::NpGamma: case B::NpStdGamma: case B::NpBeta: case B::NpChisquare: case B::NpF: case B::NpStdT:
    case B::NpPareto: case B::NpWeibull: case B::NpRandPower: case B::NpRayleigh: case B::NpWald: case B::NpVonmises:
    case B::NpNegBinomial: case B::NpBinomial: {
      // Parameters before the size: how many, and how many of them are required.
      const bool two = b.id == B::NpGamma || b.id == B::NpBeta || b.id == B::NpF || b.id == B::NpWald ||
                       b.id == B::NpVonmises || b.id == B::NpNegBinomial || b.id == B::NpBinomial;
      const size_t np = two ? 2 : 1, req = b.id == B::NpGamma ? 1 : b.id == B::NpRayleigh ? 0 : np;
      arity(e, b, args, req, np + 1);
      for (size_t i = 0; i < np; ++i) {
        if (i < req && !given(i)) error(e, std::string(b.name) + "() missing a required argument");
        number(i);
      }
      if (b.id == B::NpBinomial) integer(0);
      const bool ints = b.id == B::NpNegBinomial || b.id == B::NpBinomial;
      return sized(np, ints ? Scalar::Int64 : Scalar::Float64);
    }
    case B::NpChoice: {  // Numba: a 1-d array or an int population, size=, replace= (no p=)
      arity(e, b, args, 1, 3);
      Scalar item = Scalar::Int64;
      if (args[0].is_array() && !args[0].is_record_array() && args[0].ndim == 1) item = args[0].scalar;
      else if (!(args[0].is_scalar() && is_integer(args[0].scalar)))
        error(*e.args()[0], "np.random.choice() first argument should be int or array, got " + args[0].str());
      if (given(2) && !(args[2].is_scalar() && is_integral(args[2].scalar)))
        error(*e.args()[2], "np.random.choice() needs a bool as replace, got " + args[2].str());
      return sized(1, item);
    }
    case B::NpHypergeometric: case B::NpLogseries: case B::NpZipf: case B::NpNoncentralChisquare: {
      const size_t np = b.id == B::NpHypergeometric ? 3 : b.id == B::NpNoncentralChisquare ? 2 : 1;
      arity(e, b, args, np, np + 1);
      for (size_t i = 0; i < np; ++i) {
        if (!given(i)) error(e, std::string(b.name) + "() missing a required argument");
        number(i);
      }
      return sized(np, b.id == B::NpNoncentralChisquare ? Scalar::Float64 : Scalar::Int64);
    }
    case B::NpMultinomial: case B::NpDirichlet: {  // a vector of draws per item of size: size's dims, then len(pvals)
      const bool mn = b.id == B::NpMultinomial;
      const size_t v = mn ? 1 : 0;  // pvals / alpha
      arity(e, b, args, v + 1, v + 2);
      const std::string fname = mn ? "np.random.multinomial()" : "np.random.dirichlet()";
      if (mn && !(args[0].is_scalar() && is_integral(args[0].scalar)))
        error(*e.args()[0], fname + ": n should be an integer, got " + args[0].str());
      const Type& p = args[v];
      const bool numbers = (p.is_array() && !p.record && p.ndim == 1 && !is_complex(p.scalar)) ||
                           ((p.is_list() || (p.is_tuple() && !p.elems.empty())) && iteration_item(p).is_scalar() &&
                            !is_complex(iteration_item(p).scalar));
      if (!numbers)
        error(*e.args()[v], fname + ": " + (mn ? "pvals" : "alpha") + " should be a 1-d array or a sequence of real numbers, got " + p.str());
      Type r = sized(v + 1, mn ? Scalar::Int64 : Scalar::Float64);
      if (r.is_scalar()) return Type::array(r.scalar, 1, 'C');
      if (r.ndim >= 8) unsupported(e, fname + " would make more than 8 dimensions");
      r.ndim += 1;
      return r;
    }
    case B::NpTriangular:
      arity(e, b, args, 3, 4); number(0); number(1); number(2);
      for (size_t i = 0; i < 3; ++i)
        if (!given(i)) error(e, "numpy.random.triangular() needs left, mode and right");
      return sized(3, Scalar::Float64);
    default: break;
  }
  throw InternalError(std::string("no typing rule for ") + b.name);
}

// CPU-only intrinsics: `gpu_hint` says what GPU code does instead.
void BuiltinTyper::host_only(const ast::Node& e, const BuiltinRow& b, const char* gpu_hint) {
  if (!fn().host_only)
    unsupported(e, std::string(b.name) + "() is not supported in " + fn().compiled_as +
                       ": it is only supported in CPU code (@jit, @vectorize); " + gpu_hint);
}

// The dtype argument of an array constructor: np.float32, cujit.float32, float, int, bool, or
// a NumPy dtype name ('float32', as Numba takes it).
Scalar BuiltinTyper::dtype_arg(const ast::Node& at, const BuiltinRow& b, const Type& t) {
  if (t.tag == Type::Tag::DType && t.record)
    unsupported(at, std::string(b.name) + "() of a record dtype is not supported (records are supported in "
                                          "cuda.local.array and cuda.shared.array, and as arguments)");
  if (t.is_type_object()) error(at, std::string(b.name) + "() got the type " + t.elems[0].str() + ", which is no NumPy dtype");
  if (t.tag == Type::Tag::DType) return t.scalar;
  Scalar sc;
  if (at.is(ast::Kind::Constant) && at.cval.tag == ast::ConstValue::Tag::Str) {
    if (scalar_from_numpy_name(at.cval.s, &sc)) return sc;
    error(at, std::string(b.name) + "() got an unknown dtype name '" + at.cval.s + "'");
  }
  if (t.tag == Type::Tag::Function) {
    if (t.name == "float") return Scalar::Float64;
    if (t.name == "int") return Scalar::Int64;
    if (t.name == "bool") return Scalar::Bool;
  }
  error(at, std::string(b.name) + "() needs a NumPy or cujit type as its dtype (np.float32, float), got " + t.str());
}

// The ndim of a shape argument: an integer (1) or a tuple of integers.
int BuiltinTyper::shape_ndim(const ast::Node& at, const BuiltinRow& b, const Type& t) {
  if (t.is_scalar() && is_integer(t.scalar)) return 1;
  if (t.is_tuple()) {
    for (const auto& x : t.elems)
      if (!x.is_scalar() || !is_integer(x.scalar))
        error(at, std::string(b.name) + "() needs a shape of integers, got " + t.str());
    return (int)t.elems.size();
  }
  error(at, std::string(b.name) + "() needs an integer or a tuple of integers as its shape, got " + t.str());
}

Type BuiltinTyper::array_new(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  using B = Builtin;
  if (b.id == B::NpCopy && !fn().host_only) return gpu_copy(e, b, args);
  host_only(e, b, kArraysOnGpu);
  auto given = [&](size_t i) { return i < args.size() && args[i].tag != Type::Tag::None; };
  auto dtype_or = [&](size_t i, Scalar dflt) { return given(i) ? dtype_arg(*e.args()[i], b, args[i]) : dflt; };
  auto need_array = [&](size_t i) {
    if (!given(i) || !args[i].is_array()) error(i < e.args().size() ? *e.args()[i] : e, std::string(b.name) + "() needs an array");
  };
  auto need_scalar = [&](size_t i) {
    if (!given(i) || !args[i].is_scalar()) error(i < e.args().size() ? *e.args()[i] : e, std::string(b.name) + "() needs a fill value (a number)");
  };
  switch (b.id) {
    case B::NpEmpty: case B::NpZeros: case B::NpOnes:
      arity(e, b, args, 1, 2);
      return Type::array(dtype_or(1, Scalar::Float64), shape_ndim(*e.args()[0], b, args[0]), 'C');
    case B::NpFull: {
      arity(e, b, args, 2, 3); need_scalar(1);
      Scalar fill = args[1].scalar;  // NumPy: the fill value's own dtype
      return Type::array(dtype_or(2, fill), shape_ndim(*e.args()[0], b, args[0]), 'C');
    }
    case B::NpEmptyLike: case B::NpZerosLike: case B::NpOnesLike:
      arity(e, b, args, 1, 2); need_array(0);
      return Type::array(dtype_or(1, args[0].scalar), args[0].ndim, 'C');
    case B::NpFullLike:
      arity(e, b, args, 2, 3); need_array(0); need_scalar(1);
      return Type::array(dtype_or(2, args[0].scalar), args[0].ndim, 'C');
    case B::NpCopy:
      arity(e, b, args, 1, 1); need_array(0);
      return Type::array(args[0].scalar, args[0].ndim, 'C');
    case B::NpArange: {
      arity(e, b, args, 1, 4);
      bool any_float = false;
      for (size_t i = 0; i < 3; ++i) {
        if (!given(i)) continue;
        if (!args[i].is_scalar() || is_complex(args[i].scalar)) error(*e.args()[i], "numpy.arange() needs real numbers, got " + args[i].str());
        any_float = any_float || is_float(args[i].scalar);
      }
      if (!given(0)) error(e, "numpy.arange() needs a stop");
      return Type::array(dtype_or(3, any_float ? Scalar::Float64 : Scalar::Int64), 1, 'C');
    }
    default: break;
  }
  throw InternalError(std::string("no typing rule for ") + b.name);
}

// a.copy() / np.copy(a) in GPU code: of a global array only, whose shape is a constant, into a
// local array of the thread (numba-cuda allocates; GPU code here has no heap).
Type BuiltinTyper::gpu_copy(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  arity(e, b, args, 1, 1);
  const GlobalValue* g = global_named(*e.args()[0]);
  if (!g || g->kind != GlobalValue::Kind::Array)
    unsupported(e, std::string(b.name) + "() in " + fn().compiled_as + " copies only a global NumPy array (its shape is "
                   "a constant); copy other arrays into a cuda.local.array or cuda.shared.array element by element");
  std::vector<int64_t> dims = g->shape;
  int64_t bytes = scalar_size(g->scalar);
  for (auto d : dims) bytes *= d;  // the global exists in memory: no overflow
  fn().array_shapes[&e] = dims;
  fn().local_bytes[&e] = bytes;
  if (bytes > kMaxLocalBytes)
    error(e, std::string(b.name) + "() is too large: the copy takes " + std::to_string(bytes) + " bytes, more than the " +
                 std::to_string(kMaxLocalBytes) + " bytes (512 KiB) of local memory a GPU thread may have");
  return Type::array(g->scalar, (int)dims.size(), 'C');
}

// a.view(dtype): the same bytes as another dtype (NumPy's rule: the last axis contiguous and
// its bytes a multiple of the new itemsize, checked at run time).
Type BuiltinTyper::array_view(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  arity(e, b, args, 2, 2);
  if (!args[0].is_array()) error(e, "view() is a method of arrays, not of " + args[0].str());
  Type r = args[0];
  r.scalar = dtype_arg(*e.args()[1], b, args[1]);
  return r;
}

// cuda.local.array(shape, dtype[, alignment]) / cuda.shared.array(...), positional or by keyword.
Type BuiltinTyper::array_alloc(ast::Node& e, const BuiltinRow& b) {
  const ast::Node* shape = e.args().size() > 0 ? e.args()[0].get() : nullptr;
  const ast::Node* dtype = e.args().size() > 1 ? e.args()[1].get() : nullptr;
  const ast::Node* align = e.args().size() > 2 ? e.args()[2].get() : nullptr;
  for (auto& kw : e.keywords) {
    if (kw.name == "shape") shape = kw.value.get();
    else if (kw.name == "dtype") dtype = kw.value.get();
    else if (kw.name == "alignment") align = kw.value.get();
    else error(*kw.value, std::string(b.name) + "() got an unexpected keyword argument '" + kw.name + "'");
  }
  if (!shape || !dtype || e.args().size() > 3) error(e, std::string(b.name) + "() takes a shape, a dtype and an optional alignment");
  // A record type (a global made by numba.from_dtype, or a structured np.dtype) gives an array
  // of records; any other dtype a scalar one.
  const RecordPtr record = dtype->type.tag == Type::Tag::DType ? dtype->type.record : nullptr;
  const Scalar scalar = record ? Scalar::UInt8 : alloc_dtype(*dtype, b);
  auto alloc_type = [&](int ndim) { return record ? Type::record_array(record, ndim, 'C') : Type::array(scalar, ndim, 'C'); };
  if (align && !(align->is(ast::Kind::Constant) && align->cval.tag == ast::ConstValue::Tag::None)) {
    // numba-cuda's rules: a constant integer, positive, a power of 2 and a multiple of the
    // pointer size (8); None is the dtype's own alignment.
    int64_t n;
    const ast::Node* culprit;
    if (fold_int(*align, &n, &culprit) != Fold::Ok)
      error(*align, std::string(b.name) + "(): alignment must be a constant integer, got " +
                        (align->type.known() ? align->type.str() : std::string("an expression")));
    const char* bad = n <= 0 ? "positive" : (n & (n - 1)) != 0 ? "a power of 2" : n % 8 != 0 ? "a multiple of 8" : nullptr;
    if (bad) error(*align, std::string(b.name) + "(): Alignment must be " + bad + ", got " + std::to_string(n));
    fn().array_alignment[&e] = n;
  }
  // The sizes, each with the node an error points at.
  std::vector<std::pair<int64_t, const ast::Node*>> sizes;
  if (const ast::Node* def = single_definition(*shape))  // shape = (16, 16) in the function
    if (def->is(ast::Kind::Tuple)) shape = def;
  const GlobalValue* g = global_named(*shape);
  if (g && g->kind == GlobalValue::Kind::Tuple) {  // SHAPE = (16, 16)
    for (const auto& item : g->elems) {
      int64_t v;
      const ast::Node* at;
      if (!global_int(item, &v, &at, *shape))
        error(*shape, std::string(b.name) + "() needs a shape of integers; the global tuple '" + shape->name +
                          "' holds a " + type_of_global(item).str());
      sizes.push_back({v, shape});
    }
  } else {
    std::vector<const ast::Node*> parts;
    if (shape->is(ast::Kind::Tuple)) for (auto& x : shape->elts()) parts.push_back(x.get());
    else parts.push_back(shape);
    for (auto* p : parts) {
      int64_t v;
      const ast::Node* culprit = p;
      Fold f = fold_int(*p, &v, &culprit);
      if (f == Fold::Overflow)
        error(*culprit, std::string(b.name) + "() shape is too large: this size does not fit in 64 bits");
      if (f != Fold::Ok) error(*culprit, not_constant(b, *culprit));
      sizes.push_back({v, p});
    }
  }
  if (sizes.empty()) error(*shape, std::string(b.name) + "() needs at least one dimension");
  std::vector<int64_t> dims;
  for (auto [v, p] : sizes) {
    if (v == 0 && b.id == Builtin::CudaSharedArray) {  // dynamic: sized by the launch's sharedmem
      if (sizes.size() != 1) error(*p, "dynamic shared memory (a shape of 0) must be 1-dimensional");
      dims.push_back(0);
      continue;
    }
    if (v <= 0) error(*p, std::string(b.name) + "() needs positive sizes, got " + std::to_string(v));
    dims.push_back(v);
  }
  fn().array_shapes[&e] = dims;
  if (dims[0] == 0 && fn().array_alignment.count(&e))  // its storage is the launch's, not this array's
    unsupported(*align, "alignment= is not supported for dynamic shared memory (a shape of 0)");
  if (dims[0] == 0) return alloc_type(1);
  // The array's bytes. Past int64 or a device's limit, the toolchain would fail on the
  // generated code (or the simulator's stack overflow): refused here, at the user's line.
  int64_t bytes = record ? record->size : scalar_size(scalar);
  for (auto d : dims)
    if (__builtin_mul_overflow(bytes, d, &bytes))
      error(*shape, std::string(b.name) + "() is too large: its size in bytes does not fit in 64 bits");
  if (b.id == Builtin::CudaSharedArray) {
    // The kernel's total is checked against the limit once typed (check_static_shared_memory).
    fn().shared_bytes[&e] = bytes;
  } else {
    fn().local_bytes[&e] = bytes;
    int64_t total = 0;
    for (const auto& [node, n] : fn().local_bytes) total += n;
    if (total > kMaxLocalBytes)
      error(*shape, std::string(b.name) + "() is too large: " +
                        (total == bytes ? "this array takes " + std::to_string(bytes) + " bytes"
                                        : "the local arrays of " + fn().src->name + "() take " + std::to_string(total) + " bytes") +
                        ", more than the " + std::to_string(kMaxLocalBytes) +
                        " bytes (512 KiB) of local memory a GPU thread may have; use cuda.shared.array or a global array");
  }
  return alloc_type((int)dims.size());
}

}  // namespace detail
}  // namespace cujit
