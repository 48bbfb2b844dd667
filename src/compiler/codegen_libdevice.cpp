// The libdevice table and the C++ of libdevice calls (see libdevice.h).
#include <sstream>

#include "compiler/diagnostics.h"
#include "compiler/libdevice.h"

namespace cujit {

namespace {
struct Row {
  const char* name;
  const char* ret;
  const char* params;  // "float64 a, int32* b"
  const char* host;
};
const Row kRows[] = {
#define LIBDEVICE(name, ret, params, host) {#name, ret, params, host},
#include "compiler/libdevice.def"
#undef LIBDEVICE
};

Scalar scalar_named(const std::string& n) {
  Scalar s;
  if (!scalar_from_name(n, &s)) throw InternalError("libdevice.def: unknown type " + n);
  return s;
}

LibdeviceFn parse_row(const Row& r) {
  LibdeviceFn f;
  f.name = r.name;
  f.ret_void = std::string(r.ret) == "void";
  f.ret = f.ret_void ? Scalar::Int32 : scalar_named(r.ret);
  f.host = r.host;
  std::istringstream in(r.params);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::istringstream words(item);
    std::string ty, name;
    words >> ty >> name;
    bool out = !ty.empty() && ty.back() == '*';
    if (out) ty.pop_back();
    f.params.push_back({name, scalar_named(ty), out});
  }
  return f;
}

// Helpers of the simulator's implementations, emitted once into a host program that calls
// libdevice. The directed roundings (_rz, _rd, _ru) run the one IEEE operation under that
// rounding mode of the host's FPU, which gives the same correctly rounded result as the GPU's
// instruction; volatile keeps the compiler from folding or moving the operation out of the mode.
const char* kHostHelpers = R"(#include <algorithm>
#include <cfenv>
#include <limits>
namespace cj_ld {
struct Mode {
  int old;
  explicit Mode(int m) : old(std::fegetround()) { std::fesetround(m); }
  ~Mode() { std::fesetround(old); }
};
template <class T> static T add(int m, T a, T b) { volatile T x = a, y = b; Mode g(m); volatile T r = x + y; return r; }
template <class T> static T sub(int m, T a, T b) { volatile T x = a, y = b; Mode g(m); volatile T r = x - y; return r; }
template <class T> static T mul(int m, T a, T b) { volatile T x = a, y = b; Mode g(m); volatile T r = x * y; return r; }
template <class T> static T div(int m, T a, T b) { volatile T x = a, y = b; Mode g(m); volatile T r = x / y; return r; }
template <class T> static T rcp(int m, T a) { return div(m, T(1), a); }
template <class T> static T sqrt(int m, T a) { volatile T x = a; Mode g(m); volatile T r = std::sqrt((T)x); return r; }
template <class T> static T fma(int m, T a, T b, T c) {
  volatile T x = a, y = b, z = c; Mode g(m); volatile T r = std::fma((T)x, (T)y, (T)z); return r;
}
template <class To, class From> static To cvt(int m, From a) { volatile From x = a; Mode g(m); volatile To r = (To)x; return r; }
// The GPU's float-to-integer conversion (cvt): rounded as asked, saturated to the type's range,
// NaN to 0. The rounding needs no mode: rint (the default mode), trunc, floor, ceil.
template <class I, class F> static I sat(F r) {
  if (r != r) return 0;
  if (r <= (F)std::numeric_limits<I>::min()) return std::numeric_limits<I>::min();
  if (r >= (F)std::numeric_limits<I>::max()) return std::numeric_limits<I>::max();
  return (I)r;
}
template <class I, class F> static I to_int(int m, F a) {
  return sat<I>(m == FE_TOWARDZERO ? std::trunc(a) : m == FE_DOWNWARD ? std::floor(a) : m == FE_UPWARD ? std::ceil(a)
                                                                                                      : std::rint(a));
}
template <class To, class From> static To bits(From a) { static_assert(sizeof(To) == sizeof(From)); To r; std::memcpy(&r, &a, sizeof r); return r; }
static int32_t sext24(int32_t a) { return (int32_t)((uint32_t)a << 8) >> 8; }
static uint32_t brev32(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}
// __byte_perm(x, y, s): byte i of the result is byte (s >> 4i) & 7 of the 8 bytes y:x.
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s) {
  uint64_t v = ((uint64_t)y << 32) | x;
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= (uint32_t)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
// sin(pi x) and cos(pi x) with exact zeros and ones at integers and half-integers: x is first
// reduced exactly to [-1, 1] (fmod is exact), then to a quarter period around 0.
constexpr double kPi = 3.14159265358979323846;
static double sinpi(double x) {
  if (std::isinf(x)) return NAN;
  double r = std::fmod(x, 2.0);                  // (-2, 2), exact
  if (r > 1.0) r -= 2.0; else if (r < -1.0) r += 2.0;  // [-1, 1], exact
  double a = std::fabs(r), s;
  if (a <= 0.25) s = std::sin(kPi * a);
  else if (a <= 0.75) s = std::cos(kPi * (0.5 - a));
  else s = std::sin(kPi * (1.0 - a));
  if (s == 0.0) return std::copysign(0.0, x);
  return r < 0 ? -s : s;
}
static double cospi(double x) {
  if (std::isinf(x)) return NAN;
  double a = std::fabs(std::fmod(x, 2.0));  // [0, 2), exact
  if (a > 1.0) a = 2.0 - a;                  // [0, 1], exact
  if (a == 0.5) return 0.0;
  if (a <= 0.25) return std::cos(kPi * a);
  if (a < 0.5) return std::sin(kPi * (0.5 - a));
  if (a <= 0.75) return -std::sin(kPi * (a - 0.5));
  return -std::cos(kPi * (1.0 - a));
}
}  // namespace cj_ld
)";

// The C++ type of a parameter or result. libdevice's i16 values (half bits) are zeroext: the GPU
// declaration says unsigned short, so a call that is not inlined extends them as the callee does;
// the wrapper converts to and from Numba's int16, keeping the bits.
std::string c_type(Scalar s, bool cuda) { return cuda && s == Scalar::Int16 ? "uint16_t" : scalar_cpp(s); }

std::string param_list(const LibdeviceFn& f, bool names, bool cuda) {
  std::string s;
  for (size_t i = 0; i < f.params.size(); ++i) {
    s += (i ? ", " : "") + c_type(f.params[i].type, cuda) + (f.params[i].out ? "*" : "");
    if (names) s += " a" + std::to_string(i);
  }
  return s;
}
}  // namespace

const std::vector<LibdeviceFn>& libdevice_functions() {
  static const std::vector<LibdeviceFn> fns = [] {
    std::vector<LibdeviceFn> v;
    for (const auto& r : kRows) v.push_back(parse_row(r));
    return v;
  }();
  return fns;
}

const LibdeviceFn* find_libdevice(const std::string& name) {
  for (const auto& f : libdevice_functions())
    if (f.name == name) return &f;
  return nullptr;
}

Type libdevice_result(const LibdeviceFn& f) {
  std::vector<Type> members;
  if (!f.ret_void) members.push_back(Type::scalar_of(f.ret));
  bool outputs = false;
  for (const auto& p : f.params)
    if (p.out) { members.push_back(Type::scalar_of(p.type)); outputs = true; }
  if (!outputs) return members.empty() ? Type::none() : members[0];
  return Type::tuple(members);
}

std::vector<Scalar> libdevice_inputs(const LibdeviceFn& f) {
  std::vector<Scalar> v;
  for (const auto& p : f.params)
    if (!p.out) v.push_back(p.type);
  return v;
}

std::string libdevice_definitions(const std::map<std::string, std::string>& used, bool cuda) {
  if (used.empty()) return "";
  std::ostringstream out;
  if (!cuda) out << kHostHelpers;
  for (const auto& [name, result] : used) {
    const LibdeviceFn* f = find_libdevice(name);
    if (!f) throw InternalError("libdevice: no function " + name);
    const std::string ret = f->ret_void ? "void" : c_type(f->ret, cuda);
    if (cuda) {
      // NVRTC links libdevice's bitcode into the program: the declaration is all it needs.
      out << "extern \"C\" __device__ " << ret << " __nv_" << name << "(" << param_list(*f, false, true) << ");\n";
    } else if (f->host.empty()) {
      out << "static " << ret << " __nv_" << name << "(" << param_list(*f, true, false) << ") {\n"
          << "  cj::sim_value_error(\"NotImplementedError: libdevice." << name
          << " has no exact host implementation, so the simulator cannot run it (it runs on the GPU)\");\n}\n";
    } else {
      out << "static inline " << ret << " __nv_" << name << "(" << param_list(*f, true, false) << ") { " << f->host << " }\n";
    }
    // The wrapper the call sites use: inputs in, the Python-level result out.
    std::string params, call, locals, members;
    for (size_t i = 0; i < f->params.size(); ++i) {
      const auto& p = f->params[i];
      std::string a = "a" + std::to_string(i);
      call += (i ? ", " : "") + std::string(p.out ? "&" : "") + a;
      if (p.out) {
        locals += std::string(scalar_cpp(p.type)) + " " + a + " = 0; ";
        members += ", " + a;
      } else {
        params += (params.empty() ? "" : ", ") + std::string(scalar_cpp(p.type)) + " " + a;
      }
    }
    out << "CJ_FN " << result << " cj_ld_" << name << "(" << params << ") { " << locals;
    if (members.empty()) {
      out << "return __nv_" << name << "(" << call << "); }\n";
    } else if (f->ret_void) {
      out << "__nv_" << name << "(" << call << "); return " << result << "{" << members.substr(2) << "}; }\n";
    } else {
      out << ret << " r = __nv_" << name << "(" << call << "); return " << result << "{r" << members << "}; }\n";
    }
  }
  return out.str();
}

}  // namespace cujit
