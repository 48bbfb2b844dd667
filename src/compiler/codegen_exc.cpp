// The code of a raise statement (typed in typeinfer_exc.cpp).
//  - @jit code (host_only) throws cj::PyError (prelude/host_services.h) carrying the class's
//    index in Program::exc_classes and the arguments' values; the entry point catches it and
//    hands it to the dispatcher, which makes the Python exception (bindings/cpu.cpp). A try
//    statement is a C++ try/catch around the body (codegen.cpp).
//  - GPU code numbers the raise (Program::raise_sites, by node, so that the CUDA and the host
//    text agree) and calls cj::gpu_raise(site): with debug=True the GPU records the site and the
//    thread in the fault record that index checks use and the thread exits; without, the thread
//    exits (numba-cuda ignores the exception); the simulator always stops the launch with it, as
//    numba-cuda's simulator does.
#include <cstdio>

#include "compiler/codegen.h"

namespace cujit {

namespace {
std::string c_string(const std::string& s) {
  std::string r = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') r += '\\', r += (char)ch;
    else if (ch < 0x20 || ch >= 0x7f) {
      char b[8];
      std::snprintf(b, sizeof b, "\\%03o", ch);  // octal: never swallows a following digit
      r += b;
    } else r += (char)ch;
  }
  return r + "\"";
}

ExcArg constant_arg(const ast::Node& a) {
  const bool neg = a.is(ast::Kind::UnaryOp) && a.op == ast::Op::USub;
  const ast::Node& c = a.is(ast::Kind::UnaryOp) ? *a.operand() : a;
  ExcArg r;
  using T = ast::ConstValue::Tag;
  switch (c.cval.tag) {
    case T::None: r.tag = ExcArg::Tag::None; break;
    case T::Bool: r.tag = neg ? ExcArg::Tag::Int : ExcArg::Tag::Bool, r.i = neg ? -(int64_t)c.cval.b : c.cval.b; break;
    case T::Int:
      if (c.cval.big_int) r.tag = ExcArg::Tag::UInt, r.u = (uint64_t)c.cval.i;
      else r.tag = ExcArg::Tag::Int, r.i = neg ? (int64_t)(0 - (uint64_t)c.cval.i) : c.cval.i;
      break;
    case T::Float: r.tag = ExcArg::Tag::Float, r.f = neg ? -c.cval.f : c.cval.f; break;
    case T::Imag: r.tag = ExcArg::Tag::Complex, r.im = neg ? -c.cval.f : c.cval.f; break;
    case T::Str: r.tag = ExcArg::Tag::Str, r.s = c.cval.s; break;
    case T::Bytes: throw InternalError("codegen: a bytes literal as an exception argument (typing refuses it)");
  }
  return r;
}
}  // namespace

std::string raise_code(const Program& prog, const FunctionInstance& fn, const ast::Node& s,
                       const std::function<std::string(const ast::Node&)>& value) {
  const ast::Node* call = s.exc() && s.exc()->is(ast::Kind::Call) ? s.exc().get() : nullptr;
  const int cls = (int)s.cval.i;
  if (fn.host_only) {
    std::string args;
    if (call)
      for (const auto& a : call->args()) {
        std::string v = a->is(ast::Kind::Constant) && a->cval.tag == ast::ConstValue::Tag::Str ? c_string(a->cval.s)
                        : a->type.tag == Type::Tag::None                                        ? "cj::ExcNone{}"
                                                                                                : value(*a);
        args += ", cj::exc_arg(" + v + ")";
      }
    return "cj::raise_exc(" + std::to_string(cls) + ", " + (prog.exc_classes[cls].is_exception ? "1" : "0") + args +
           ");";
  }
  int site;
  auto it = prog.raise_site_of.find(&s);
  if (it != prog.raise_site_of.end()) {
    site = it->second;
  } else {
    RaiseSite r;
    r.cls = cls;
    if (call)
      for (const auto& a : call->args()) r.args.push_back(constant_arg(*a));
    r.function = fn.src->name;
    r.file = fn.mod.source.filename;
    r.line = s.loc.line;
    prog.raise_sites.push_back(std::move(r));
    site = (int)prog.raise_sites.size() - 1;
    prog.raise_site_of[&s] = site;
  }
  return "cj::gpu_raise(" + std::to_string(site) + ");";
}

// The raise site (Program::raise_sites) of a check codegen adds at `line` of `fn`, one per `key`:
// builtin class `cls` with message `msg`, reported by the dispatcher as a user's raise is.
int named_raise_site(const Program& prog, const FunctionInstance& fn, const std::string& key, const std::string& cls,
                     const std::string& msg, int line) {
  auto it = prog.raise_site_named.find(key);
  if (it != prog.raise_site_named.end()) return it->second;
  int ci = -1;
  for (size_t i = 0; i < prog.exc_classes.size(); ++i)
    if (prog.exc_classes[i].key == "builtins." + cls) ci = (int)i;
  if (ci < 0) {  // the table is typing's; codegen adds the classes these checks raise
    prog.exc_classes.push_back(ExcClass{"builtins." + cls, cls, true});
    ci = (int)prog.exc_classes.size() - 1;
  }
  RaiseSite r;
  r.cls = ci;
  ExcArg m;
  m.tag = ExcArg::Tag::Str;
  m.s = msg;
  r.args.push_back(m);
  r.function = fn.src->name;
  r.file = fn.mod.source.filename;
  r.line = line;
  prog.raise_sites.push_back(std::move(r));
  const int site = (int)prog.raise_sites.size() - 1;
  prog.raise_site_named[key] = site;
  return site;
}

std::string checked_tuple_item(const Program& prog, const FunctionInstance& fn, int line, const std::string& tuple,
                               const std::string& index) {
  const int site = named_raise_site(prog, fn, "gpu:" + fn.mod.source.filename + ":" + std::to_string(line) + ":tuple",
                                    "IndexError", "tuple index out of range", line);
  return "(" + tuple + ").at_or_raise((int64_t)(" + index + "), " + std::to_string(site) + ")";
}

std::string zero_division_code(const Program& prog, const FunctionInstance& fn, ast::Op op, const Type& t, int line,
                               bool sim, const std::string& a, const std::string& b) {
  const bool integer = is_integer(t.scalar);
  const char* kind = op == ast::Op::Div ? "truediv" : op == ast::Op::FloorDiv ? "floordiv" : "mod";
  // numba-cuda's debug mode: the Python error model on the GPU (Numba's messages); its simulator
  // runs the kernel under np.seterr(divide='raise'), where only a finite nonzero numerator (any
  // integer one for // and %) divided by zero raises, and a float % never does.
  const char* msg = op == ast::Op::Div ? "division by zero"
                    : op == ast::Op::FloorDiv ? (integer ? "integer division by zero" : "division by zero")
                                              : (integer ? "integer modulo by zero" : "modulo by zero");
  const char* ufunc = op == ast::Op::Div ? "divide" : op == ast::Op::FloorDiv ? "floor_divide" : "remainder";
  if (sim && op == ast::Op::Mod && !integer) return "cj::pymod(" + a + ", " + b + ")";
  const std::string key = std::string(sim ? "sim:" : "gpu:") + fn.mod.source.filename + ":" + std::to_string(line) +
                          ":" + kind + (integer ? ":int" : ":float");
  const int site = named_raise_site(prog, fn, key, sim ? "FloatingPointError" : "ZeroDivisionError",
                                    sim ? std::string("divide by zero encountered in scalar ") + ufunc : msg, line);
  // Integers always raise on a zero divisor (both targets); floats on the simulator only when
  // the numerator is finite and nonzero.
  const std::string when = integer || !sim ? "1" : "0";
  return std::string("cj::dbg_") + kind + "(" + a + ", " + b + ", " + std::to_string(site) + ", " + when + ")";
}

std::string divmod_code(const Program& prog, const FunctionInstance& fn, const Type& t, int line, bool python_errors,
                        bool sim, const std::string& a, const std::string& b, const std::string& tuple_type) {
  const Type& el = t.elems[0];
  const bool integer = is_integer(el.scalar);
  std::string check;
  if (python_errors) {  // Numba's messages (cpython/numbers.py: int_divmod_impl, real_divmod_impl)
    check = std::string("if (cj_dmb == 0) cj::raise(\"ZeroDivisionError\", \"") +
            (integer ? "integer divmod by zero" : "modulo by zero") + "\"); ";
  } else if (prog.debug_checks && !fn.host_only) {
    // numba-cuda's debug mode: the Python error model on the GPU; its simulator runs Python's
    // divmod on NumPy scalars under np.seterr(divide='raise').
    const std::string key = std::string(sim ? "sim:" : "gpu:") + fn.mod.source.filename + ":" + std::to_string(line) +
                            ":divmod" + (integer ? ":int" : ":float");
    const int site = named_raise_site(prog, fn, key, sim ? "FloatingPointError" : "ZeroDivisionError",
                                      sim ? "divide by zero encountered in divmod"
                                          : integer ? "integer divmod by zero" : "modulo by zero", line);
    check = std::string("if (cj::dbg_zero(cj_dma, cj_dmb, ") + (integer || !sim ? "1" : "0") + ")) cj::gpu_raise(" +
            std::to_string(site) + "); ";
  }
  return "([&]() { auto cj_dma = " + a + "; auto cj_dmb = " + b + "; " + check + "return " + tuple_type +
         "{cj::floordiv(cj_dma, cj_dmb), cj::pymod(cj_dma, cj_dmb)}; }())";
}

}  // namespace cujit
