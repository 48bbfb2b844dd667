// Typing of calls to intrinsics (builtins.def): one case per Rule. Split from typeinfer.cpp, which
// calls type_builtin_call once it knows the callee is a builtin and every argument's type.
#include <algorithm>
#include <functional>
#include <string>

#include "compiler/builtins.h"
#include "compiler/codegen_values.h"  // print_needs_text, print_text_supported
#include "compiler/diagnostics.h"
#include "compiler/libdevice.h"
#include "compiler/typeinfer_builtin_typer.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {

// cuda.threadIdx and its kin as values: numba-cuda's Dim3, printed as the tuple (x, y, z).
bool is_dim3(const Type& t) {
  return t.tag == Type::Tag::Module &&
         (t.name == "cuda.threadIdx" || t.name == "cuda.blockIdx" || t.name == "cuda.blockDim" || t.name == "cuda.gridDim");
}

}  // namespace

namespace detail {

void BuiltinTyper::arity(const ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args, size_t lo, size_t hi) {
  if (args.size() < lo || args.size() > hi) {
    std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
    error(e, std::string(b.name) + "() takes " + want + " argument" + (hi == 1 ? "" : "s") +
                 ", got " + std::to_string(args.size()));
  }
}

// Real numbers unless the rule says it takes complex ones too: a complex value never reaches a
// rule written for reals (Numba has no implementation there either).
void BuiltinTyper::need_numbers(const ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args, bool complex_ok) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_scalar())
      error(*e.args()[i], std::string(b.name) + "() needs a number, got " + args[i].str());
    if (!complex_ok && is_complex(args[i].scalar)) error(e, no_implementation(b, args));
  }
}

void BuiltinTyper::need_int(const ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args, size_t i) {
  if (!args[i].is_scalar() || !is_integer(args[i].scalar))
    error(*e.args()[i], std::string(b.name) + "() needs an integer " + (i == 0 ? "mask" : "lane") + ", got " + args[i].str());
}

Type BuiltinTyper::builtin_call(ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  // math.* computes in float64 unless given float32; NumPy's ufuncs pick the smallest float
  // that holds the integer exactly (np.sqrt of an int16 is float32; Numba has no float16).
  const bool numpy = std::string(b.name).rfind("numpy.", 0) == 0;
  // A datetime64/timedelta64 argument reaches only the intrinsics Numba has for it.
  if (Type t = type_time_call(fn(), e, b, args); t.known()) return t;
  check_float16_numpy(fn(), e, b, args);
  auto float_of = [numpy, &b, this](Scalar s) {
    if (s == Scalar::Float16) return float16_math_result(b, !fn().host_only);
    if (s == Scalar::Float32) return Scalar::Float32;
    if (numpy && is_integral(s) && scalar_size(s) <= 2) return Scalar::Float32;
    return Scalar::Float64;
  };
  switch (b.rule) {
    case Rule::MathUnary:
      arity(e, b, args, 1, 1);
      if (args[0].is_array() && fn().host_only && numpy)  // elementwise, a new array
        return Type::array(is_complex(args[0].scalar) ? args[0].scalar : float_of(args[0].scalar), args[0].ndim, 'C');
      need_numbers(e, b, args, numpy);  // np.sqrt(z) is complex; math.sqrt(z) has no implementation
      if (is_complex(args[0].scalar)) return args[0];
      return Type::scalar_of(float_of(args[0].scalar));
    case Rule::Complex: return type_complex_call(fn(), e, b, args);
    case Rule::MathToInt:
      arity(e, b, args, 1, 1); need_numbers(e, b, args);
      // numba-cuda types math.floor/ceil/trunc in GPU code as the float functions they are in C
      // (float32 -> float32, else float64: floor(nan) stays nan); Numba's CPU code returns an int,
      // as Python does: uint64 for an unsigned integer (the value unchanged), else int64.
      if (!fn().host_only) return Type::scalar_of(float_of(args[0].scalar));
      return Type::scalar_of(is_integer(args[0].scalar) && !is_signed(args[0].scalar) ? Scalar::UInt64 : Scalar::Int64);
    case Rule::MathPredicate:
      arity(e, b, args, 1, 1); need_numbers(e, b, args);
      return Type::scalar_of(Scalar::Bool);
    case Rule::MathBinary:
      arity(e, b, args, 2, 2); need_numbers(e, b, args);
      if (numpy) return Type::scalar_of(float_of(promote(args[0].scalar, args[1].scalar)));
      {  // Numba's declared cases and its overload resolution (a float16 promotes to float32)
        const MathCase c = math_binary_case(b.id, args[0].scalar, args[1].scalar, !fn().host_only);
        if (!c.ok) error(e, no_implementation(b, args));
        return Type::scalar_of(c.ret);
      }
    case Rule::MathFrexp:
      arity(e, b, args, 1, 1); need_numbers(e, b, args);
      return Type::tuple({Type::scalar_of(float_of(args[0].scalar)), Type::scalar_of(Scalar::Int32)});
    case Rule::MathModf: {  // numba-cuda's cases are float32 and float64: float16 converts to float32
      arity(e, b, args, 1, 1); need_numbers(e, b, args);
      const Scalar f = float_of(args[0].scalar) == Scalar::Float16 ? Scalar::Float32 : float_of(args[0].scalar);
      return Type::tuple({Type::scalar_of(f), Type::scalar_of(f)});
    }
    case Rule::MathLdexp:
      arity(e, b, args, 2, 2); need_numbers(e, b, args);
      // Python refuses a float exponent (Numba truncates it in silence).
      if (is_float(args[1].scalar))
        error(*e.args()[1], std::string(b.name) + "() needs an integer exponent, got " + args[1].str());
      return Type::scalar_of(float_of(args[0].scalar));
    case Rule::IntGcd: {
      arity(e, b, args, 2, 2);
      for (size_t i = 0; i < 2; ++i)
        if (!args[i].is_scalar() || !(is_integer(args[i].scalar) || args[i].scalar == Scalar::Bool))
          error(*e.args()[i], std::string(b.name) + "() needs integers, got " + args[i].str());
      // Numba: the two integer types' promotion (uint8 and int32 give int32); int64 where that
      // is a float (int64 with uint64).
      Scalar r = promote(args[0].scalar, args[1].scalar);
      if (r == Scalar::Bool) r = Scalar::Int64;
      return Type::scalar_of(is_float(r) ? Scalar::Int64 : r);
    }
    case Rule::IntBitCount:
      arity(e, b, args, 1, 1);
      if (!args[0].is_scalar() || !is_integer(args[0].scalar))
        error(e, "bit_count() is a method of integers, not of " + args[0].str());
      return args[0];
    case Rule::Conjugate:
      arity(e, b, args, 1, 1);
      if (!args[0].is_scalar() || args[0].scalar == Scalar::Bool)
        error(e, "conjugate() is a method of numbers, not of " + args[0].str());
      return args[0];
    case Rule::Abs:
      arity(e, b, args, 1, 1); need_numbers(e, b, args, true);
      if (is_complex(args[0].scalar)) return Type::scalar_of(complex_part(args[0].scalar));  // its modulus
      return args[0].scalar == Scalar::Bool ? Type::scalar_of(Scalar::Int8) : args[0];  // Numba: abs(True) is int8
    case Rule::MinMax: {
      std::vector<Type> items = args;
      if (args.size() == 1 && args[0].is_list()) {  // min(l): its items, compared at run time
        const Type& item = args[0].elems[0];
        if (!item.known()) return Type::unknown();
        if (item.tag == Type::Tag::String) return item;  // Python's order of strs (host_str.h)
        if (!item.is_scalar() || is_complex(item.scalar)) error(e, no_implementation(b, args));
        return item;
      }
      if (args.size() == 1 && args[0].tag == Type::Tag::String) {  // min(s): of its characters
        refuse_gpu_string(fn_, e);
        return args[0];
      }
      if (args.size() == 1 && args[0].is_tuple()) items = args[0].elems;
      else if (args.size() < 2) error(e, std::string(b.name) + "() needs two or more numbers, or one tuple");
      bool strs = args.size() == 1 && !items.empty();  // a tuple of strs: Numba orders them (not min(a, b) of strs)
      for (const auto& t : items) strs = strs && t.tag == Type::Tag::String;
      if (strs) return items[0];
      Type u = Type::unknown();
      for (size_t i = 0; i < items.size(); ++i) {
        if (!items[i].is_scalar()) error(e, std::string(b.name) + "() needs numbers, got " + items[i].str());
        if (is_complex(items[i].scalar)) error(e, no_implementation(b, items));  // complex has no order
        u = unify(u, items[i]);
      }
      return u;
    }
    case Rule::Round:
      arity(e, b, args, 1, 2); need_numbers(e, b, args);
      if (args.size() == 2) return Type::scalar_of(float_of(args[0].scalar));
      return Type::scalar_of(Scalar::Int64);
    case Rule::Divmod: {
      // Numba's DivMod template has (int64, int64), (uint64, uint64), float32 and float64 pairs:
      // the arguments convert to the first that holds both (int64 with uint64 gives float64).
      arity(e, b, args, 2, 2); need_numbers(e, b, args);
      const Scalar x = args[0].scalar, y = args[1].scalar;
      if (is_time(x) || is_time(y) || x == Scalar::Float16 || y == Scalar::Float16) error(e, no_implementation(b, args));
      Scalar t = arith_result(x, y);
      if (is_integral(x) && is_integral(y)) {  // bool goes either way
        const bool sig = (x != Scalar::Bool && !is_unsigned(x)) || (y != Scalar::Bool && !is_unsigned(y));
        const bool uns = is_unsigned(x) || is_unsigned(y);
        t = sig && uns ? (x == Scalar::UInt64 || y == Scalar::UInt64 ? Scalar::Float64 : Scalar::Int64)
            : uns      ? Scalar::UInt64
                       : Scalar::Int64;
      }
      return Type::tuple({Type::scalar_of(t), Type::scalar_of(t)});
    }
    case Rule::CastInt:
      arity(e, b, args, 1, 1);
      if (args[0].tag == Type::Tag::String) unsupported(e, "int() of a str is not supported (as in Numba)");
      need_numbers(e, b, args);
      // Numba's int() keeps an integer's type (int(uint64) stays unsigned); bool and floats give int64.
      if (is_integer(args[0].scalar)) return args[0];
      return Type::scalar_of(Scalar::Int64);
    case Rule::CastFloat:
      arity(e, b, args, 1, 1);
      if (args[0].tag == Type::Tag::String) return type_float_of_str(fn_, e);  // typeinfer_strings.cpp
      need_numbers(e, b, args);
      // Numba's float(): of a bool there is no implementation ("only support for numbers"); a
      // float32 stays float32 (and in numba-cuda's GPU code a float16 float16); others float64.
      if (args[0].is_scalar(Scalar::Bool)) error(e, no_implementation(b, args));
      if (args[0].is_scalar(Scalar::Float32)) return args[0];
      if (!fn().host_only && args[0].is_scalar(Scalar::Float16)) return args[0];
      return Type::scalar_of(Scalar::Float64);
    case Rule::Fp16: case Rule::Fp16Compare: return type_fp16_call(fn(), e, b, args);
    case Rule::CastBool:
      arity(e, b, args, 1, 1);
      if (args[0].tag == Type::Tag::String) {  // bool(s): not empty (typeinfer_strings.cpp)
        refuse_gpu_string(fn_, e);
        return Type::scalar_of(Scalar::Bool);
      }
      // bool(l) of a list, dict, set or tuple: not empty (codegen_calls.cpp), as Numba's len() != 0
      if (args[0].is_list() || args[0].is_dict() || args[0].is_set() || args[0].is_tuple()) return Type::scalar_of(Scalar::Bool);
      need_numbers(e, b, args, true);
      return Type::scalar_of(Scalar::Bool);
    case Rule::Range: {
      arity(e, b, args, 1, 3);
      bool all_u64 = true;
      for (size_t i = 0; i < args.size(); ++i) {
        if (!args[i].is_scalar() || !is_integral(args[i].scalar))
          error(*e.args()[i], "range() arguments must be integers, not " + args[i].str());
        all_u64 = all_u64 && args[i].scalar == Scalar::UInt64;
      }
      Type r = Type::range();
      r.scalar = all_u64 ? Scalar::UInt64 : Scalar::Int64;
      return r;
    }
    case Rule::LiteralUnroll:  // outside a for loop (typeinfer_unroll.cpp): the value itself
      arity(e, b, args, 1, 1);
      return args[0];
    case Rule::Iterate: {  // enumerate(it[, start]), zip(it, ...): iterated by for (types.h)
      const bool en = b.id == Builtin::Enumerate;
      if (en) arity(e, b, args, 1, 2);
      if (!en && args.empty()) unsupported(e, "zip() without arguments is not supported");
      const size_t n = en ? 1 : args.size();
      for (size_t i = 0; i < n; ++i) {
        const Type& t = args[i];
        if (t.tag == Type::Tag::String) refuse_gpu_string(fn_, *e.args()[i]);
        if (t.tag != Type::Tag::Range && !t.is_array() && !t.is_tuple() && !t.is_list() && t.tag != Type::Tag::Iterator &&
            t.tag != Type::Tag::String)
          error(*e.args()[i], std::string(b.name) + "() needs an iterable (a range, an array, a tuple, enumerate or zip), not " + t.str());
        if (t.is_array() && t.ndim == 0) error(*e.args()[i], "iteration over a 0-d array");
        if (!iteration_item(t).known())
          unsupported(*e.args()[i], std::string(b.name) + "() of a heterogeneous tuple is not supported");
      }
      if (en && args.size() == 2 && !(args[1].is_scalar() && (is_integer(args[1].scalar) || args[1].scalar == Scalar::Bool)))
        error(*e.args()[1], "enumerate() start must be an integer, not " + args[1].str());
      return Type::iterator(b.name, std::vector<Type>(args.begin(), args.begin() + n));
    }
    case Rule::Operator: throw InternalError("typeinfer: operator-module call not rewritten");
    case Rule::Len:
      arity(e, b, args, 1, 1);
      if (args[0].tag == Type::Tag::String) refuse_gpu_string(fn_, e);  // typeinfer_strings.cpp
      else if (!args[0].is_array() && !args[0].is_tuple() && !args[0].is_list() && !args[0].is_dict() && !args[0].is_set() &&
               !is_flat_iter(args[0]) && !args[0].is_charseq())
        error(e, "len() of a " + args[0].str() + " is not supported");
      return Type::scalar_of(Scalar::Int64);
    case Rule::ListOp: return type_list_call(fn_, e, b, args);  // typeinfer_lists.cpp
    case Rule::StrOp: return type_str_call(fn_, e, b, args);  // typeinfer_strings.cpp
    case Rule::DictOp: return type_dict_call(fn_, e, b, args);  // typeinfer_dicts.cpp
    case Rule::TupleOf:
      arity(e, b, args, 0, 1);
      if (args.empty()) return Type::tuple({});
      if (!args[0].is_tuple()) unsupported(e, "tuple() of a " + args[0].str() + " is not supported");
      return args[0];
    case Rule::Print: {
      // Numbers, None, tuples of them; a complex in @jit code only (numba-cuda's GPU prints none).
      std::function<bool(const Type&)> printable = [&](const Type& t) {
        if (t.is_tuple()) return std::all_of(t.elems.begin(), t.elems.end(), printable);
        return (t.is_scalar() && (!is_complex(t.scalar) || fn().host_only)) || t.tag == Type::Tag::None || is_dim3(t);
      };
      // @jit code: lists, dicts, sets and tuples holding them or str, as Numba prints them
      // (codegen_print.cpp).
      auto container = [&](const Type& t) { return fn().host_only && print_needs_text(t) && print_text_supported(t); };
      for (size_t i = 0; i < args.size(); ++i)
        if (!printable(args[i]) && args[i].tag != Type::Tag::String && !container(args[i]))
          unsupported(*e.args()[i], "print() of a " + args[i].str() + " is not supported" +
                                      (args[i].is_scalar() ? " in GPU code (numba-cuda prints no complex number; @jit code does)" : ""));
      return Type::none();
    }
    case Rule::CudaGrid: case Rule::CudaGridsize: {
      arity(e, b, args, 1, 1);
      int64_t n;
      const ast::Node* culprit;
      // numba-cuda raises RequireLiteralValue for a non-constant argument; its name is in the
      // text, as numba-cuda's TypingError carries it (tests match on it).
      if (fold_int(*e.args()[0], &n, &culprit) != Fold::Ok)
        error(*e.args()[0], std::string(b.name) + "() needs the constant 1, 2 or 3 (RequireLiteralValue: got a value of "
                          "type " + args[0].str() + ", not a literal)");
      if (n < 1 || n > 3)
        error(*e.args()[0], std::string(b.name) + "() needs the constant 1, 2 or 3");
      if (n == 1) return Type::scalar_of(Scalar::Int64);
      return Type::tuple(std::vector<Type>(n, Type::scalar_of(Scalar::Int64)));
    }
    case Rule::CudaBarrier:
      arity(e, b, args, 0, 0);
      return Type::none();
    case Rule::CudaGroup:
      if (b.id == Builtin::CgThisGrid) {
        arity(e, b, args, 0, 0);
        return Type::grid_group();
      }
      arity(e, b, args, 1, 1);  // GridGroup.sync(g): typing put the group first
      if (args[0].tag != Type::Tag::GridGroup) error(e, "sync() needs a GridGroup, got " + args[0].str());
      return Type::none();
    case Rule::CudaVote:
      arity(e, b, args, 1, 1); need_numbers(e, b, args);
      return Type::scalar_of(Scalar::Int32);
    case Rule::CudaFence:
      if (b.id == Builtin::CudaNanosleep) {  // nanosleep(ns): uint32 nanoseconds
        arity(e, b, args, 1, 1);
        need_int(e, b, args, 0);
        return Type::none();
      }
      arity(e, b, args, 0, b.id == Builtin::CudaSyncwarp ? 1 : 0);
      return Type::none();
    case Rule::CudaShfl: {
      arity(e, b, args, 3, 3);
      need_int(e, b, args, 0);
      Scalar v = args[1].is_scalar() ? args[1].scalar : Scalar::Bool;
      if (!args[1].is_scalar() || !(v == Scalar::Int32 || v == Scalar::Int64 || v == Scalar::Float32 || v == Scalar::Float64))
        error(*e.args()[1], std::string(b.name) + "() only supports 32- and 64-bit ints and floats, got " + args[1].str());
      need_int(e, b, args, 2);
      return args[1];
    }
    case Rule::CudaWarpVote:
      arity(e, b, args, 2, 2);
      need_int(e, b, args, 0);
      if (!args[1].is_scalar() || !is_integral(args[1].scalar))
        error(*e.args()[1], std::string(b.name) + "() needs an integer or boolean predicate, got " + args[1].str());
      return Type::scalar_of(b.id == Builtin::CudaBallotSync ? Scalar::Int32 : Scalar::Bool);
    case Rule::CudaMatch:
      arity(e, b, args, 2, 2);
      need_int(e, b, args, 0);
      need_numbers(e, b, args);
      return Type::scalar_of(Scalar::Int32);
    case Rule::CudaWarpMask:
      arity(e, b, args, 0, 0);
      return Type::scalar_of(Scalar::UInt32);
    case Rule::CudaBits: case Rule::CudaBitsSame:
      arity(e, b, args, 1, 1);
      if (!args[0].is_scalar() || !is_integer(args[0].scalar))
        error(*e.args()[0], std::string(b.name) + "() needs an integer, got " + args[0].str());
      if (b.id == Builtin::CudaBrev)
        return Type::scalar_of(scalar_size(args[0].scalar) <= 4 ? Scalar::UInt32 : Scalar::UInt64);
      if (b.rule == Rule::CudaBitsSame) return args[0];
      return Type::scalar_of(Scalar::UInt32);
    case Rule::CudaFma: {
      arity(e, b, args, 3, 3); need_numbers(e, b, args);
      Scalar r = args[0].scalar;
      for (auto& a : args) r = promote(r, a.scalar);
      if (is_integral(r)) r = Scalar::Float64;
      if (r == Scalar::Float16) r = Scalar::Float32;  // numba-cuda's fma has no float16 (cuda.fp16.hfma)
      return Type::scalar_of(r);
    }
    case Rule::CudaSelp: {
      arity(e, b, args, 3, 3); need_numbers(e, b, args);
      // Numba's signature: the two values of one type, one PTX selp knows (no int8/bool).
      Scalar v = args[1].scalar;
      bool ok = args[1] == args[2] && v != Scalar::Bool && v != Scalar::Int8 && v != Scalar::UInt8;
      if (!ok)
        error(e, "cuda.selp() needs two values of one type among float32, float64, int16, uint16, int32, "
                 "uint32, int64 and uint64, got " + args[1].str() + " and " + args[2].str());
      return args[1];
    }
    case Rule::CacheLoad: case Rule::CacheStore: {
      // numba-cuda's checks and messages (cache_hints.py), named by the instruction (ldcs).
      const bool store = b.rule == Rule::CacheStore;
      arity(e, b, args, store ? 3 : 2, store ? 3 : 2);
      const std::string op = std::string(b.name).substr(5);
      const Type& a = args[0];
      if (!a.is_array()) error(*e.args()[0], op + " operates on arrays or pointers. Got type " + a.str());
      const Type& ix = args[1];
      bool valid = false;
      if (ix.is_scalar() && is_integer(ix.scalar)) {
        if (a.ndim != 1) error(*e.args()[1], "Expected " + std::to_string(a.ndim) + " indices, got a scalar");
        valid = true;
      } else if (ix.is_tuple()) {
        if ((int)ix.elems.size() != a.ndim)
          error(*e.args()[1], "Expected " + std::to_string(a.ndim) + " indices, got " + std::to_string(ix.elems.size()));
        valid = true;
        for (auto& t : ix.elems) valid = valid && t.is_scalar() && is_integer(t.scalar);
      }
      if (!valid) error(*e.args()[1], ix.str() + " is not a valid index");
      if (!is_integer(a.scalar) && !is_float(a.scalar))
        error(*e.args()[0], op + " requires array of integer or float type, got " + scalar_name(a.scalar));
      if (!store) return Type::scalar_of(a.scalar);
      if (a.readonly) error(*e.args()[0], readonly_store_message(a));
      if (!args[2].is_scalar()) error(*e.args()[2], op + "() needs a number to store, got " + args[2].str());
      return Type::none();
    }
    case Rule::ConstArray:
      arity(e, b, args, 1, 1);
      if (!args[0].is_array() || !fn().resolved.count(e.args()[0].get()) ||
          fn().resolved[e.args()[0].get()].kind != Resolved::Kind::Constant)
        error(*e.args()[0], "cuda.const.array_like() needs a global NumPy array");
      return args[0];
    case Rule::ArrayAlloc: return array_alloc(e, b);
    case Rule::Random: return random_call(e, b, args);
    case Rule::ThreadId:
      host_only(e, b, "GPU code knows its thread from cuda.grid(1) or cuda.threadIdx");
      arity(e, b, args, 0, 0);
      return Type::scalar_of(Scalar::Int64);
    case Rule::ArrayNew: return array_new(e, b, args);
    case Rule::ArrayView: return array_view(e, b, args);
    case Rule::Ufunc: return type_ufunc_call(fn_, e, b, args);
    case Rule::Elementwise: return type_elementwise_call(fn_, e, b, args);
    case Rule::ArrayReduce:  // with an axis or a dtype: typeinfer_numpy.cpp
      if (args.size() > 1) return reduce_axis(e, b, args);
      return type_reduce_call(fn_, e, b, args);
    case Rule::NpFunc: return numpy_call(e, b, args);
    case Rule::Atomic: case Rule::AtomicInt: case Rule::AtomicUnsigned: case Rule::AtomicCas: {
      const bool cas0 = b.id == Builtin::AtomicCas0;  // compare_and_swap(ary, old, val): ary[0]
      const size_t nargs = b.rule == Rule::AtomicCas && !cas0 ? 4 : 3;
      arity(e, b, args, nargs, nargs);
      const Type& a = args[0];
      if (!a.is_array()) error(*e.args()[0], std::string(b.name) + "() needs an array as its first argument, got " + a.str());
      // An atomic writes its array (Numba's typing does not check this; the store would land in
      // read-only memory, or in a constant array's copy, in silence).
      if (a.readonly) error(*e.args()[0], readonly_store_message(a));
      Scalar d = a.scalar;
      bool ints = d == Scalar::Int32 || d == Scalar::Int64 || d == Scalar::UInt32 || d == Scalar::UInt64;
      bool ok = b.rule == Rule::AtomicUnsigned ? (d == Scalar::UInt32 || d == Scalar::UInt64)
              : b.rule == Rule::Atomic ? (ints || d == Scalar::Float32 || d == Scalar::Float64)
              : ints;
      if (!ok) error(*e.args()[0], std::string(b.name) + "() does not support arrays of " + scalar_name(d));
      if (cas0) {
        if (a.ndim != 1) error(*e.args()[0], std::string(b.name) + "() needs a 1-d array");
      } else {
        std::vector<Type> idx = args[1].is_tuple() ? args[1].elems : std::vector<Type>{args[1]};
        if ((int)idx.size() != a.ndim)
          error(*e.args()[1], std::string(b.name) + "() needs " + std::to_string(a.ndim) + " index(es) for " + a.str());
        for (auto& t : idx)
          if (!t.is_scalar() || !is_integer(t.scalar)) error(*e.args()[1], "atomic indices must be integers, not " + t.str());
      }
      for (size_t k = cas0 ? 1 : 2; k < nargs; ++k)
        if (!args[k].is_scalar()) error(*e.args()[k], std::string(b.name) + "() needs a number, got " + args[k].str());
      return Type::scalar_of(d);
    }
  }
  return Type::unknown();
}

[[noreturn]] void BuiltinTyper::error(const ast::Node& at, const std::string& msg) {
  user_error(fn_.mod.source, at.loc, ErrorKind::Typing, msg);
}

[[noreturn]] void BuiltinTyper::unsupported(const ast::Node& at, const std::string& msg) {
  user_error(fn_.mod.source, at.loc, ErrorKind::Unsupported, msg);
}

}  // namespace detail

namespace {
// The parameters of the intrinsics that take keyword arguments (NumPy's and Python's names), in
// order, with the default put in where a later parameter is given by name and this one is not.
struct KwParam {
  const char* name;
  ast::ConstValue::Tag tag;  // None: "not given"
  double value;
};
struct KwSpec {
  Builtin id;
  std::vector<KwParam> params;
};
const std::vector<KwSpec>& keyword_specs() {
  using T = ast::ConstValue::Tag;
  static const std::vector<KwSpec> specs = {
      {Builtin::PyGauss, {{"mu", T::Float, 0.0}, {"sigma", T::Float, 1.0}}},
      // l.sort(...): the list is the first argument (typeinfer_ops.cpp's method rewrite).
      {Builtin::ListSort, {{"self", T::None, 0}, {"key", T::None, 0}, {"reverse", T::Bool, 0}}},
      {Builtin::Sorted, {{"iterable", T::None, 0}, {"key", T::None, 0}, {"reverse", T::Bool, 0}}},
      {Builtin::TypedListEmpty, {{"item_type", T::None, 0}, {"allocated", T::Int, 0}}},
      {Builtin::TypedDictEmpty, {{"key_type", T::None, 0}, {"value_type", T::None, 0}, {"n_keys", T::Int, 0}}},
      {Builtin::PyNormalvariate, {{"mu", T::Float, 0.0}, {"sigma", T::Float, 1.0}}},
      {Builtin::PyUniform, {{"a", T::None, 0}, {"b", T::None, 0}}},
      {Builtin::PyRandint, {{"a", T::None, 0}, {"b", T::None, 0}}},
      {Builtin::PyRandrange, {{"start", T::None, 0}, {"stop", T::None, 0}, {"step", T::None, 0}}},
      {Builtin::PySeed, {{"a", T::None, 0}}},
      {Builtin::NpSeed, {{"seed", T::None, 0}}},
      {Builtin::NpRandom, {{"size", T::None, 0}}},
      {Builtin::NpRandomSample, {{"size", T::None, 0}}},
      {Builtin::NpStdNormal, {{"size", T::None, 0}}},
      {Builtin::NpNormal, {{"loc", T::Float, 0.0}, {"scale", T::Float, 1.0}, {"size", T::None, 0}}},
      {Builtin::NpUniform, {{"low", T::Float, 0.0}, {"high", T::Float, 1.0}, {"size", T::None, 0}}},
      {Builtin::NpRandint, {{"low", T::None, 0}, {"high", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpEmpty, {{"shape", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpZeros, {{"shape", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpOnes, {{"shape", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpFull, {{"shape", T::None, 0}, {"fill_value", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpEmptyLike, {{"a", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpZerosLike, {{"a", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpOnesLike, {{"a", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpFullLike, {{"a", T::None, 0}, {"fill_value", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpArange, {{"start", T::None, 0}, {"stop", T::None, 0}, {"step", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpExponential, {{"scale", T::Float, 1.0}, {"size", T::None, 0}}},
      {Builtin::NpStdExponential, {{"size", T::None, 0}}},
      {Builtin::NpLaplace, {{"loc", T::Float, 0.0}, {"scale", T::Float, 1.0}, {"size", T::None, 0}}},
      {Builtin::NpLogistic, {{"loc", T::Float, 0.0}, {"scale", T::Float, 1.0}, {"size", T::None, 0}}},
      {Builtin::NpGumbel, {{"loc", T::Float, 0.0}, {"scale", T::Float, 1.0}, {"size", T::None, 0}}},
      {Builtin::NpLognormal, {{"mean", T::Float, 0.0}, {"sigma", T::Float, 1.0}, {"size", T::None, 0}}},
      {Builtin::NpGeometric, {{"p", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpPoisson, {{"lam", T::Float, 1.0}, {"size", T::None, 0}}},
      {Builtin::NpTriangular, {{"left", T::None, 0}, {"mode", T::None, 0}, {"right", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpSort, {{"a", T::None, 0}}},
      {Builtin::NpRanf, {{"size", T::None, 0}}},
      {Builtin::NpSample, {{"size", T::None, 0}}},
      {Builtin::NpGamma, {{"shape", T::None, 0}, {"scale", T::Float, 1.0}, {"size", T::None, 0}}},
      {Builtin::NpStdGamma, {{"shape", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpBeta, {{"a", T::None, 0}, {"b", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpChisquare, {{"df", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpF, {{"dfnum", T::None, 0}, {"dfden", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpStdT, {{"df", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpStdCauchy, {{"size", T::None, 0}}},
      {Builtin::NpPareto, {{"a", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpWeibull, {{"a", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpRandPower, {{"a", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpRayleigh, {{"scale", T::Float, 1.0}, {"size", T::None, 0}}},
      {Builtin::NpWald, {{"mean", T::None, 0}, {"scale", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpVonmises, {{"mu", T::None, 0}, {"kappa", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpNegBinomial, {{"n", T::None, 0}, {"p", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpBinomial, {{"n", T::None, 0}, {"p", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpChoice, {{"a", T::None, 0}, {"size", T::None, 0}, {"replace", T::None, 0}}},
      {Builtin::NpHypergeometric, {{"ngood", T::None, 0}, {"nbad", T::None, 0}, {"nsample", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpLogseries, {{"p", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpZipf, {{"a", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpNoncentralChisquare, {{"df", T::None, 0}, {"nonc", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpMultinomial, {{"n", T::None, 0}, {"pvals", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpDirichlet, {{"alpha", T::None, 0}, {"size", T::None, 0}}},
      {Builtin::NpTrace, {{"a", T::None, 0}, {"offset", T::None, 0}}},
      {Builtin::NpLinalgSvd, {{"a", T::None, 0}, {"full_matrices", T::None, 0}}},
      {Builtin::NpLinalgLstsq, {{"a", T::None, 0}, {"b", T::None, 0}, {"rcond", T::None, 0}}},
      {Builtin::NpLinalgPinv, {{"a", T::None, 0}, {"rcond", T::None, 0}}},
      {Builtin::NpLinalgNorm, {{"x", T::None, 0}, {"ord", T::None, 0}}},
      {Builtin::NpLinalgCond, {{"x", T::None, 0}, {"p", T::None, 0}}},
      {Builtin::NpLinalgMatrixRank, {{"A", T::None, 0}, {"tol", T::None, 0}}},
      {Builtin::NpLinalgMatrixPower, {{"a", T::None, 0}, {"n", T::None, 0}}},
      {Builtin::NpArgsort, {{"a", T::None, 0}, {"kind", T::None, 0}}},
      {Builtin::NpSearchsorted, {{"a", T::None, 0}, {"v", T::None, 0}, {"side", T::None, 0}}},
      {Builtin::NpDiff, {{"a", T::None, 0}, {"n", T::None, 0}}},
      {Builtin::NpRound, {{"a", T::None, 0}, {"decimals", T::None, 0}, {"out", T::None, 0}}},
      {Builtin::NpAround, {{"a", T::None, 0}, {"decimals", T::None, 0}, {"out", T::None, 0}}},
      {Builtin::NpBincount, {{"a", T::None, 0}, {"weights", T::None, 0}, {"minlength", T::None, 0}}},
      {Builtin::NpRoll, {{"a", T::None, 0}, {"shift", T::None, 0}}},
      {Builtin::NpInterp, {{"x", T::None, 0}, {"xp", T::None, 0}, {"fp", T::None, 0}}},
      {Builtin::NpIsclose, {{"a", T::None, 0}, {"b", T::None, 0}, {"rtol", T::Float, 1e-05}, {"atol", T::Float, 1e-08}, {"equal_nan", T::Bool, 0}}},
      {Builtin::NpAllclose, {{"a", T::None, 0}, {"b", T::None, 0}, {"rtol", T::Float, 1e-05}, {"atol", T::Float, 1e-08}, {"equal_nan", T::Bool, 0}}},
      {Builtin::NpHistogram, {{"a", T::None, 0}, {"bins", T::Int, 10}, {"range", T::None, 0}}},
      {Builtin::NpSum, {{"a", T::None, 0}, {"axis", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpArgmin, {{"a", T::None, 0}, {"axis", T::None, 0}}},
      {Builtin::NpCountNonzero, {{"a", T::None, 0}, {"axis", T::None, 0}}},
      {Builtin::NpExpandDims, {{"a", T::None, 0}, {"axis", T::None, 0}}},
      {Builtin::NpSwapaxes, {{"a", T::None, 0}, {"axis1", T::None, 0}, {"axis2", T::None, 0}}},
      {Builtin::NpMoveaxis, {{"a", T::None, 0}, {"source", T::None, 0}, {"destination", T::None, 0}}},
      {Builtin::NpRepeat, {{"a", T::None, 0}, {"repeats", T::None, 0}}},
      {Builtin::NpTake, {{"a", T::None, 0}, {"indices", T::None, 0}, {"axis", T::None, 0}}},
      {Builtin::NpFlatnonzero, {{"a", T::None, 0}}},
      {Builtin::NpKron, {{"a", T::None, 0}, {"b", T::None, 0}}},
      {Builtin::NpArrayEqual, {{"a1", T::None, 0}, {"a2", T::None, 0}}},
      {Builtin::NpDigitize, {{"x", T::None, 0}, {"bins", T::None, 0}, {"right", T::Bool, 0}}},
      {Builtin::NpConvolve, {{"a", T::None, 0}, {"v", T::None, 0}, {"mode", T::None, 0}}},
      {Builtin::NpCorrelate, {{"a", T::None, 0}, {"v", T::None, 0}, {"mode", T::None, 0}}},
      {Builtin::NpArgmax, {{"a", T::None, 0}, {"axis", T::None, 0}}},
      {Builtin::NpCumsum, {{"a", T::None, 0}, {"axis", T::None, 0}}},
      {Builtin::NpCumprod, {{"a", T::None, 0}, {"axis", T::None, 0}}},
      {Builtin::NpPercentile, {{"a", T::None, 0}, {"q", T::None, 0}}},
      {Builtin::NpNanpercentile, {{"a", T::None, 0}, {"q", T::None, 0}}},
      {Builtin::NpQuantile, {{"a", T::None, 0}, {"q", T::None, 0}}},
      {Builtin::NpNanquantile, {{"a", T::None, 0}, {"q", T::None, 0}}},
      {Builtin::NpAverage, {{"a", T::None, 0}, {"axis", T::None, 0}, {"weights", T::None, 0}}},
      {Builtin::NpArray, {{"object", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpAsarray, {{"a", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::ArrAstype, {{"a", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpLinspace, {{"start", T::None, 0}, {"stop", T::None, 0}, {"num", T::Int, 50}}},
      {Builtin::NpEye, {{"N", T::None, 0}, {"M", T::None, 0}, {"k", T::Int, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpTri, {{"N", T::None, 0}, {"M", T::None, 0}, {"k", T::Int, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpIdentity, {{"n", T::None, 0}, {"dtype", T::None, 0}}},
      {Builtin::NpTril, {{"m", T::None, 0}, {"k", T::Int, 0}}},
      {Builtin::NpTriu, {{"m", T::None, 0}, {"k", T::Int, 0}}},
      {Builtin::NpDiag, {{"v", T::None, 0}, {"k", T::Int, 0}}},
      {Builtin::NpConcatenate, {{"arrays", T::None, 0}, {"axis", T::Int, 0}}},
      {Builtin::NpStack, {{"arrays", T::None, 0}, {"axis", T::Int, 0}}},
  };
  return specs;
}
}  // namespace

bool bind_builtin_keywords(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b) {
  if (b.rule == Rule::Ufunc) return bind_ufunc_keywords(fn, call, b);
  const KwSpec* spec = nullptr;
  for (const auto& s : keyword_specs())
    if (s.id == b.id) spec = &s;
  if (!spec) return false;
  if (call.keywords.empty()) return true;
  const auto& ps = spec->params;
  if (call.args().size() > ps.size()) return true;  // the rule reports the arity
  std::vector<ast::NodePtr> slots(ps.size());
  for (size_t i = 0; i < call.args().size(); ++i) slots[i] = std::move(call.args()[i]);
  for (auto& kw : call.keywords) {
    size_t k = 0;
    while (k < ps.size() && kw.name != ps[k].name) ++k;
    if (k == ps.size())
      user_error(fn.mod.source, kw.loc, ErrorKind::Typing, std::string(b.name) + "() got an unexpected keyword argument '" + kw.name + "'");
    if (slots[k])
      user_error(fn.mod.source, kw.loc, ErrorKind::Typing, std::string(b.name) + "() got multiple values for argument '" + kw.name + "'");
    slots[k] = std::move(kw.value);
  }
  call.keywords.clear();
  size_t last = 0;
  for (size_t k = 0; k < slots.size(); ++k)
    if (slots[k]) last = k + 1;
  call.args().clear();
  for (size_t k = 0; k < last; ++k) {
    if (!slots[k]) {
      slots[k] = ast::make(ast::Kind::Constant, call.loc);
      slots[k]->cval.tag = ps[k].tag;
      slots[k]->cval.f = ps[k].value;  // read as i or b by an Int or a Bool default
      slots[k]->cval.i = (int64_t)ps[k].value;
      slots[k]->cval.b = ps[k].value != 0;
    }
    call.args().push_back(std::move(slots[k]));
  }
  return true;
}

bool fold_constant_argument(FunctionInstance& fn, const ast::Node& arg, GlobalValue* out) {
  return detail::BuiltinTyper(fn).constant_argument(arg, out);
}

Type type_builtin_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args) {
  // CPU functions have no grid, shared memory or atomics to ask for (Numba: a TypingError).
  if (fn.host_only && std::string(b.name).rfind("cuda.", 0) == 0)
    user_error(fn.mod.source, call.loc, ErrorKind::Typing,
               std::string(b.name) + "() is GPU code: it cannot be called from " + fn.compiled_as +
                   "; compile the function with " + gpu_decorator(fn) + " instead");
  return detail::BuiltinTyper(fn).builtin_call(call, b, args);
}

void check_static_shared_memory(const Program& prog, int root, const std::string& kernel) {
  // Each instance's cuda.shared.array storage is one static __shared__ array, however often it
  // is called, so the kernel's total is the sum over the instances it reaches (as codegen emits them).
  std::vector<int> order;
  std::vector<bool> seen(prog.fns.size(), false);
  std::vector<int> stack{root};
  while (!stack.empty()) {
    int i = stack.back();
    stack.pop_back();
    if (i < 0 || i >= (int)prog.fns.size() || seen[i]) continue;
    seen[i] = true;
    order.push_back(i);
    for (const auto& [node, r] : prog.fns[i]->resolved)
      if (r.kind == Resolved::Kind::UserFunction && r.instance >= 0) stack.push_back(r.instance);
  }
  // Each function's arrays in the order of their lines, so the error lands on the one that crosses
  // the limit, whatever the map's order.
  auto in_source_order = [](const auto& bytes_of) {
    std::vector<std::pair<const ast::Node*, int64_t>> arrays(bytes_of.begin(), bytes_of.end());
    std::sort(arrays.begin(), arrays.end(), [](const auto& a, const auto& b) {
      return a.first->loc.line != b.first->loc.line ? a.first->loc.line < b.first->loc.line : a.first->loc.col < b.first->loc.col;
    });
    return arrays;
  };
  int64_t local = 0;  // every instance's local arrays, as if all were live at once (a bound)
  for (int i : order) {
    const FunctionInstance& f = *prog.fns[i];
    for (const auto& [node, bytes] : in_source_order(f.local_bytes)) {
      local += bytes;
      if (local > kMaxLocalBytes)
        user_error(f.mod.source, node->loc, ErrorKind::Typing,
                   "cuda.local.array() is too large: kernel " + kernel + " needs " + std::to_string(local) +
                       " bytes of local memory per thread, counting the local arrays of the kernel and of the device " +
                       "functions it calls, more than the " + std::to_string(kMaxLocalBytes) +
                       " bytes (512 KiB) a GPU thread may have; use cuda.shared.array or a global array");
    }
  }
  int64_t total = 0;
  for (int i : order) {
    const FunctionInstance& f = *prog.fns[i];
    for (const auto& [node, bytes] : in_source_order(f.shared_bytes)) {
      total += bytes;
      if (total > kMaxStaticSharedBytes)
        user_error(f.mod.source, node->loc, ErrorKind::Typing,
                   "kernel " + kernel + " needs " + std::to_string(total) + " bytes of static shared memory, more " +
                       "than the " + std::to_string(kMaxStaticSharedBytes) + " bytes (48 KiB) a block may have on " +
                       "the GPU (the simulator enforces the same limit); this cuda.shared.array (" +
                       std::to_string(bytes) + " bytes) takes it past the limit, counting the arrays of the " +
                       "kernel and of the device functions it calls. Use smaller arrays, or dynamic shared memory " +
                       "(a shape of 0, sized by the launch's sharedmem), which may go up to the device's opt-in maximum");
    }
  }
}

}  // namespace cujit

namespace cujit {

// libdevice.name(args): each argument converts to the parameter's type as Numba converts to a
// declared signature (any number to any number); outputs (pointer parameters) are not passed but
// returned after the value (libdevice_result).
Type type_libdevice_call(FunctionInstance& fn, ast::Node& call, const LibdeviceFn& ld, const std::vector<Type>& args) {
  const std::string qual = "libdevice." + ld.name;
  if (fn.host_only)
    user_error(fn.mod.source, call.loc, ErrorKind::Typing,
               qual + "() is GPU code: it cannot be called from " + fn.compiled_as + "; compile the function with " +
                   gpu_decorator(fn) + " instead");
  if (!call.keywords.empty())
    user_error(fn.mod.source, call.keywords[0].value ? call.keywords[0].value->loc : call.loc, ErrorKind::Unsupported,
               "keyword arguments are not supported for " + qual + "()");
  std::vector<Scalar> inputs = libdevice_inputs(ld);
  bool ok = args.size() == inputs.size();
  for (const auto& a : args) ok = ok && a.is_scalar();
  if (!ok) {
    std::string got, want;
    for (size_t i = 0; i < args.size(); ++i) got += (i ? ", " : "") + args[i].str();
    for (const auto& p : ld.params)
      if (!p.out) want += (want.empty() ? "" : ", ") + std::string(scalar_name(p.type)) + " " + p.name;
    user_error(fn.mod.source, call.loc, ErrorKind::Typing,
               "No implementation of function " + qual + " found for signature: " + ld.name + "(" + got + "); it takes (" +
                   want + ")");
  }
  return libdevice_result(ld);
}

}  // namespace cujit
