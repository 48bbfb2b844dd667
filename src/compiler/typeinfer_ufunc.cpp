// Typing of NumPy ufunc calls (the UFUNC rows of builtins.def): np.sin(x), np.add(a, b, out),
// np.add(a, b, out=out), on numbers and arrays. The loop is chosen as Numba chooses it
// (numba/np/numpy_support.py, ufunc_find_matching_loop): NumPy's loops in order, the first whose
// inputs the arguments cast to safely (any integer to any float where the inputs mix integers
// and floats) and whose result casts to the out= array's dtype same_kind.
#include <string>

#include "compiler/builtins.h"
#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

namespace {

std::string short_name(const BuiltinRow& b) { return std::string(b.name).substr(6); }  // "numpy.sin" -> "sin"

std::string loops_text(const std::vector<UfuncLoop>& loops) {
  std::string s;
  for (const auto& l : loops) {
    std::string sig = "(";
    for (size_t i = 0; i < l.in.size(); ++i) sig += (i ? ", " : "") + std::string(scalar_name(l.in[i]));
    sig += ") -> ";
    for (size_t i = 0; i < l.out.size(); ++i) sig += (i ? ", " : "") + std::string(scalar_name(l.out[i]));
    s += (s.empty() ? "" : "; ") + sig;
  }
  return s;
}

}  // namespace

const UfuncLoop* match_ufunc_loop(const std::vector<UfuncLoop>& loops, const std::vector<Scalar>& in,
                                  const std::vector<Scalar>& outs) {
  bool ints = false, floats = false;
  for (Scalar s : in) {
    const char k = scalar_kind(s);
    ints = ints || k == 'i' || k == 'u';
    floats = floats || k == 'f' || k == 'c';
  }
  // Numba: with mixed integer and float inputs, any integer may take a float loop (np.power of
  // float32 and int32 computes in float32).
  const bool mixed = ints && floats;
  auto input_fits = [&](Scalar from, Scalar to) {
    const char fk = scalar_kind(from), tk = scalar_kind(to);
    if (mixed && (fk == 'i' || fk == 'u') && (tk == 'f' || tk == 'c')) return true;
    return can_cast_safe(from, to);
  };
  for (const auto& l : loops) {
    if (l.in.size() != in.size()) continue;
    bool ok = true;
    for (size_t i = 0; i < in.size() && ok; ++i) ok = input_fits(in[i], l.in[i]);
    for (size_t i = 0; i < outs.size() && ok; ++i) ok = can_cast_same_kind(l.out[i], outs[i]);
    if (ok) return &l;
  }
  return nullptr;
}

bool bind_ufunc_keywords(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b) {
  const size_t nin = ufunc_loops(b.id).empty() ? 1 : ufunc_loops(b.id)[0].in.size();
  for (auto& kw : call.keywords) {
    // NumPy's other ufunc keywords (where=, casting=, dtype=, ...) Numba does not support either.
    if (kw.name != "out")
      user_error(fn.mod.source, kw.loc, ErrorKind::Unsupported,
                 std::string(b.name) + "() got the keyword argument '" + kw.name +
                     "': only out= is supported in compiled code");
    if (call.args().size() != nin)
      user_error(fn.mod.source, kw.loc, ErrorKind::Typing,
                 std::string(b.name) + "() got its output both by position and as out=, or too few inputs (it takes " +
                     std::to_string(nin) + ")");
    call.args().push_back(std::move(kw.value));
  }
  call.keywords.clear();
  return true;
}

Type type_ufunc_call(FunctionInstance& fn, ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  auto fail = [&](const ast::Node& at, ErrorKind k, const std::string& msg) { user_error(fn.mod.source, at.loc, k, msg); };
  const std::vector<UfuncLoop>& loops = ufunc_loops(b.id);
  if (loops.empty()) fail(e, ErrorKind::Unsupported, std::string(b.name) + "() has no loop for the types cujit knows");
  const size_t nin = loops[0].in.size(), nout = loops[0].out.size();
  if (args.size() < nin || args.size() > nin + nout)
    fail(e, ErrorKind::Typing,
         std::string(b.name) + "() takes " + std::to_string(nin) + " input" + (nin == 1 ? "" : "s") + " and " +
             std::to_string(nout) + " optional output array, got " + std::to_string(args.size()) + " arguments");
  int ndim = 0;
  std::vector<Scalar> in;
  for (size_t i = 0; i < nin; ++i) {
    const Type& t = args[i];
    if (!t.is_scalar() && !t.is_array())
      fail(*e.args()[i], ErrorKind::Typing, std::string(b.name) + "() needs numbers or arrays, got " + t.str());
    if (t.is_array() && t.ndim > ndim) ndim = t.ndim;
    in.push_back(t.scalar);
  }
  std::vector<Type> outs(args.begin() + nin, args.end());
  for (size_t i = 0; i < outs.size(); ++i) {
    const ast::Node& at = *e.args()[nin + i];
    if (!outs[i].is_array())
      fail(at, ErrorKind::Typing, std::string(b.name) + "(): the output (out=) must be an array, got " + outs[i].str());
    if (outs[i].readonly) fail(at, ErrorKind::Typing, readonly_store_message(outs[i]));
    // NumPy never broadcasts the output: inputs of more dimensions cannot fit it.
    if (outs[i].ndim < ndim)
      fail(at, ErrorKind::Typing,
           std::string(b.name) + "(): the output array has " + std::to_string(outs[i].ndim) +
               " dimension(s), fewer than the inputs' " + std::to_string(ndim) + " (NumPy does not broadcast the output)");
  }
  std::vector<Scalar> out_scalars;
  for (const auto& o : outs) out_scalars.push_back(o.scalar);
  const UfuncLoop* loop = match_ufunc_loop(loops, in, out_scalars);
  if (!loop) {
    std::string got;
    for (const auto& t : args) got += (got.empty() ? "" : ", ") + t.str();
    fail(e, ErrorKind::Typing,
         "can't resolve ufunc " + short_name(b) + " for types (" + got + "): none of NumPy's loops [" + loops_text(loops) +
             "] takes these inputs safely" + (outs.empty() ? "" : " and casts its result to the output's dtype same_kind"));
  }
  fn.ufunc_loops[&e] = *loop;
  if (nout != 1)
    fail(e, ErrorKind::Unsupported, std::string(b.name) + "() has " + std::to_string(nout) + " outputs: not supported yet");
  if (!outs.empty()) return outs[0];  // np.sin(x, out) returns out
  if (ndim == 0) return Type::scalar_of(loop->out[0]);
  if (!fn.host_only)
    fail(e, ErrorKind::Unsupported,
         std::string(b.name) + "() on an array makes a new array, which " + fn.compiled_as +
             " cannot allocate: pass the array to write into as out= (np." + short_name(b) + "(..., out=result))");
  return Type::array(loop->out[0], ndim, 'C');
}

Type type_reduce_call(FunctionInstance& fn, ast::Node& e, const BuiltinRow& b, const std::vector<Type>& args) {
  auto fail = [&](const ast::Node& at, ErrorKind k, const std::string& msg) { user_error(fn.mod.source, at.loc, k, msg); };
  if (args.size() != 1)
    fail(e, args.size() > 1 ? ErrorKind::Unsupported : ErrorKind::Typing,
         std::string(b.name) + "() takes one array" + (args.size() > 1 ? " (axis=, dtype= and out= are not supported)" : ""));
  if (!args[0].is_array()) fail(*e.args()[0], ErrorKind::Typing, std::string(b.name) + "() needs an array, got " + args[0].str());
  const Scalar d = args[0].scalar;
  const char k = scalar_kind(d);
  using B = Builtin;
  // Complex arrays: sum/prod/mean/nansum/nanprod in their own type, var/std in float64, nanmean
  // in complex128, all/any/count_nonzero by "either part nonzero" (Numba's); min/max and their nan
  // forms order complex numbers by real part then imaginary part (prelude's red_beats).
  const bool complex_ok = b.id == B::NpSum || b.id == B::NpProd || b.id == B::NpMean || b.id == B::NpVar ||
                          b.id == B::NpStd || b.id == B::NpNansum || b.id == B::NpNanprod || b.id == B::NpNanmean ||
                          b.id == B::NpAll || b.id == B::NpAny || b.id == B::NpCountNonzero || b.id == B::NpMin ||
                          b.id == B::NpMax || b.id == B::NpAmin || b.id == B::NpAmax || b.id == B::NpNanmin ||
                          b.id == B::NpNanmax;
  if (k == 'c' && !complex_ok)
    fail(*e.args()[0], ErrorKind::Unsupported, std::string(b.name) + "() of a complex array is not supported yet");
  if (k == 'M' || k == 'm')  // the reductions compute in numbers, which NaT and units are not
    fail(*e.args()[0], ErrorKind::Unsupported, std::string(b.name) + "() of " + args[0].str() + " is not supported yet");
  switch (b.id) {
    // Numba's: integers and bool sum in int64 (unsigned in uint64), floats in their own type.
    case B::NpSum: case B::NpProd: case B::NpNansum: case B::NpNanprod:
      if (k == 'f' || k == 'c') return Type::scalar_of(d);
      return Type::scalar_of(k == 'u' ? Scalar::UInt64 : Scalar::Int64);
    case B::NpMean: return Type::scalar_of(d == Scalar::Float32 || k == 'c' ? d : Scalar::Float64);
    case B::NpNanmean: return Type::scalar_of(k == 'c' ? Scalar::Complex128 : Scalar::Float64);
    case B::NpVar: case B::NpStd: return Type::scalar_of(Scalar::Float64);
    case B::NpArgmin: case B::NpArgmax: case B::NpCountNonzero: return Type::scalar_of(Scalar::Int64);
    case B::NpAll: case B::NpAny: return Type::scalar_of(Scalar::Bool);
    default: return Type::scalar_of(d);  // min, max, nanmin, nanmax
  }
}

}  // namespace cujit
