// Python bindings of the compiler's inputs: FunctionSource (the user's function and its globals
// snapshot, as python/cujit/decorators.py captured it) and the signature parser.
#include <pybind11/pybind11.h>
#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <functional>
#include <sstream>

#include "bindings/common.h"
#include "bindings/records.h"
#include "compiler/annotate.h"
#include "compiler/globals.h"
#include "compiler/libdevice.h"
#include "compiler/types.h"
#include "compiler/typeinfer.h"
#include "pipeline.h"
#include "toolchain/nvrtc_pch.h"

namespace py = pybind11;

namespace cujit {

namespace {

// The snapshot arrives as {name: (kind, payload...)}; see decorators.py:_classify.
GlobalValue to_global(const std::string& name, const py::tuple& t) {
  GlobalValue g;
  std::string kind = t[0].cast<std::string>();
  using K = GlobalValue::Kind;
  if (kind == "int") {
    g.kind = K::Int;
    g.i = t[1].cast<int64_t>();
  } else if (kind == "float") {
    g.kind = K::Float;
    g.f = t[1].cast<double>();
  } else if (kind == "bool") {
    g.kind = K::Bool;
    g.i = t[1].cast<bool>();
  } else if (kind == "scalar") {
    g.kind = K::Scalar;
    if (!scalar_from_name(t[1].cast<std::string>(), &g.scalar))
      throw std::invalid_argument("global '" + name + "': unsupported scalar type " + t[1].cast<std::string>());
    if (g.scalar == Scalar::Bool) g.i = t[2].cast<bool>();
    else if (is_float(g.scalar)) g.f = t[2].cast<double>();
    else if (is_complex(g.scalar)) {
      auto z = t[2].cast<std::complex<double>>();
      g.f = z.real();
      g.f_im = z.imag();
    }
    else if (g.scalar == Scalar::UInt64) g.u = t[2].cast<uint64_t>();
    else g.i = t[2].cast<int64_t>();
  } else if (kind == "module") {
    g.kind = K::Module;
    g.module = t[1].cast<std::string>();
  } else if (kind == "attr") {
    g.kind = K::ModuleAttr;
    g.module = t[1].cast<std::string>();
    g.attr = t[2].cast<std::string>();
  } else if (kind == "dtype") {
    g.kind = K::DType;
    if (t[1].cast<std::string>() == "record") g.record = record_from_dtype(py::dtype::from_args(t[2]));
    else if (!scalar_from_name(t[1].cast<std::string>(), &g.scalar)) {
      try {  // a type object of no scalar, by its spelling ("unicode_type", "ListType[int64]")
        g.of = parse_type(t[1].cast<std::string>());
      } catch (const std::invalid_argument&) {
        g.kind = K::Opaque;  // an error only where the function uses it
        g.type_name = "type object " + t[1].cast<std::string>();
      }
    }
  } else if (kind == "array") {
    g.kind = K::Array;
    if (t[1].cast<std::string>() == "record") g.record = record_from_dtype(py::dtype::from_args(t[4]));
    else if (!scalar_from_name(t[1].cast<std::string>(), &g.scalar))
      throw std::invalid_argument("global '" + name + "': unsupported array dtype " + t[1].cast<std::string>());
    g.shape = t[2].cast<std::vector<int64_t>>();
    g.bytes = t[3].cast<std::string>();
  } else if (kind == "tuple" || kind == "ntclass") {
    // ("tuple", items[, key, name, fields]): a tuple, or a named tuple of that class;
    // ("ntclass", key, name, fields, [(field, default)]): a named tuple class.
    const bool cls = kind == "ntclass";
    g.kind = cls ? K::NamedTupleClass : K::Tuple;
    if (!cls)
      for (auto item : t[1].cast<py::list>()) g.elems.push_back(to_global(name, item.cast<py::tuple>()));
    const size_t at = cls ? 1 : 2;
    if (t.size() > at) {
      auto c = std::make_shared<TupleClass>();
      c->key = g.type_name = t[at].cast<std::string>();
      c->name = t[at + 1].cast<std::string>();
      c->fields = t[at + 2].cast<std::vector<std::string>>();
      g.tclass = std::move(c);
    }
    if (cls) g.module = t[5].cast<std::string>();  // repr(cls), for messages
    if (cls)
      for (auto item : t[4].cast<py::list>()) {
        auto it = item.cast<py::tuple>();
        g.elems.push_back(to_global(name, it[1].cast<py::tuple>()));
        g.elems.back().attr = it[0].cast<std::string>();
      }
  } else if (kind == "enum" || kind == "enumclass") {  // (kind, key, is IntEnum, value | [(name, member)])
    g.kind = kind == "enum" ? K::EnumMember : K::EnumClass;
    g.type_name = t[1].cast<std::string>();
    g.i = t[2].cast<bool>();
    if (kind == "enum") {
      g.elems.push_back(to_global(name, t[3].cast<py::tuple>()));
    } else {
      for (auto item : t[3].cast<py::list>()) {
        auto it = item.cast<py::tuple>();
        g.elems.push_back(to_global(name, it[1].cast<py::tuple>()));
        g.elems.back().attr = it[0].cast<std::string>();
      }
    }
  } else if (kind == "exception") {  // (kind, key, __name__, derives from Exception)
    g.kind = K::ExcClass;
    g.type_name = t[1].cast<std::string>();
    g.attr = t[2].cast<std::string>();
    g.i = t[3].cast<bool>();
  } else if (kind == "function") {
    g.kind = K::Function;
    g.fn = t[1].cast<std::shared_ptr<FunctionSource>>();
    if (t.size() > 2) g.sigs = t[2].cast<std::vector<std::string>>();
  } else if (kind == "none") {
    g.kind = K::NoneValue;
  } else if (kind == "foreign" || kind == "link") {
    // ("foreign", C name, signature, abi, use_cooperative, items) or ("link", items)
    g.kind = kind == "foreign" ? K::Foreign : K::Link;
    if (kind == "foreign") {
      g.attr = t[1].cast<std::string>();
      g.type_name = t[2].cast<std::string>();
      g.module = t[3].cast<std::string>();
      g.i = t[4].cast<bool>();
    }
    for (auto item : t[kind == "foreign" ? 5 : 1].cast<py::list>()) {
      auto it = item.cast<py::tuple>();
      g.links.push_back({it[0].cast<std::string>(), it[1].cast<std::string>(), it[2].cast<std::string>()});
    }
  } else {
    g.kind = K::Opaque;
    g.type_name = t[1].cast<std::string>();
    if (t.size() > 2) g.attr = "str:" + t[2].cast<std::string>();  // a str (globals.h)
  }
  return g;
}

}  // namespace

std::string FunctionSource::fingerprint() const {
  std::ostringstream os;
  os << name << '\n' << source.filename << ':' << source.first_line << '\n' << source.text << '\n';
  for (const auto& [n, g] : globals) {
    os << n << '=' << (int)g.kind << ',' << (int)g.scalar << ',' << g.i << ',' << g.u << ','
       << g.f << ',' << g.module << ',' << g.attr << ',' << g.type_name;
    if (g.fn) os << ",fn:" << g.fn->name;
    for (const auto& s : g.sigs) os << ",sig:" << s;
    if (g.kind == GlobalValue::Kind::Array) os << ",array:" << g.bytes.size() << ":" << std::hash<std::string>()(g.bytes);
    for (const auto& l : g.links) os << ",link:" << l.kind << ':' << l.name << ':' << std::hash<std::string>()(l.data);
    // Tuple items, nested tuples and arrays too (every value decides the generated code).
    std::function<void(const GlobalValue&)> items = [&](const GlobalValue& t) {
      for (const auto& e : t.elems) {
        os << ",(" << (int)e.kind << ',' << (int)e.scalar << ',' << e.i << ',' << e.u << ',' << e.f << ',' << e.attr
           << ',' << e.type_name;
        for (auto d : e.shape) os << ",d" << d;
        if (e.kind == GlobalValue::Kind::Array) os << ",array:" << e.bytes.size() << ":" << std::hash<std::string>()(e.bytes);
        items(e);
        os << ')';
      }
    };
    items(g);
    os << '\n';
  }
  return os.str();
}

void define_compiler(py::module_& m) {
  py::class_<FunctionSource, std::shared_ptr<FunctionSource>>(m, "FunctionSource",
      "A Python function's source and globals snapshot, as the compiler sees it.")
      .def(py::init([](std::string name, std::string text, std::string filename, int first_line, int col_offset) {
             auto f = std::make_shared<FunctionSource>();
             f->name = std::move(name);
             f->source.filename = std::move(filename);
             f->source.text = std::move(text);
             f->source.first_line = first_line;
             f->source.col_offset = col_offset;
             return f;
           }),
           py::arg("name"), py::arg("text"), py::arg("filename"), py::arg("first_line"), py::arg("col_offset") = 0)
      .def("set_globals", [](py::handle self, const py::dict& d) {
             FunctionSource& f = initialized<FunctionSource>(self, "FunctionSource");
             f.globals.clear();
             for (auto item : d) {
               std::string n = item.first.cast<std::string>();
               f.globals[n] = to_global(n, item.second.cast<py::tuple>());
             }
           })
      .def("add_global", [](py::handle self, const std::string& n, const py::tuple& t) {
             initialized<FunctionSource>(self, "FunctionSource").globals[n] = to_global(n, t);
           })
      .def_property_readonly("name", [](py::handle f) { return initialized<FunctionSource>(f, "FunctionSource").name; })
      .def_property_readonly("filename", [](py::handle f) { return initialized<FunctionSource>(f, "FunctionSource").source.filename; })
      .def_property_readonly("first_line", [](py::handle f) { return initialized<FunctionSource>(f, "FunctionSource").source.first_line; })
      .def_property_readonly("text", [](py::handle f) { return initialized<FunctionSource>(f, "FunctionSource").source.text; });

  // The libdevice table (compiler/libdevice.def), from which cujit.cuda.libdevice and
  // libdevicefuncs are made: (name, return type, [(parameter, type, is_output)], simulated).
  m.def("libdevice_functions", [] {
    py::list out;
    for (const auto& f : libdevice_functions()) {
      py::list params;
      for (const auto& p : f.params) params.append(py::make_tuple(p.name, scalar_name(p.type), p.out));
      out.append(py::make_tuple(f.name, f.ret_void ? "void" : scalar_name(f.ret), params, !f.host.empty()));
    }
    return out;
  });
  m.def("scalar_table", [] {
    // types.def for the Python type objects (types.py): (name, dtype str, aliases) per row.
    py::list rows;
    for (int i = 0; i < kNumScalars; ++i)
      rows.append(py::make_tuple(scalar_name(Scalar(i)), scalar_dtype_str(Scalar(i)), scalar_aliases(Scalar(i))));
    return rows;
  }, "The scalar types the compiler has (types.def): a list of (name, numpy dtype str, aliases).");
  m.def("parse_signature", [](const std::string& s) {
    Signature sig = parse_signature(s);
    std::vector<std::string> args;
    for (auto& a : sig.args) args.push_back(a.str());
    return py::make_tuple(sig.ret.known() ? py::object(py::str(sig.ret.str())) : py::object(py::none()), args);
  }, "Parses a Numba signature string into (return type or None, [argument types]) spellings.");

  m.def("infer_types", [](std::shared_ptr<FunctionSource> src, const std::vector<std::string>& arg_types) {
    std::vector<Type> args;
    for (auto& a : arg_types) args.push_back(parse_type(a));
    Program prog;
    prog.optionals = true;  // typed as @jit types it: a result may be OptionalType, as in Numba
    prog.host_only = true;  // and with its CPU rules (math.floor returns an int, as in Numba's @njit)
    parse_stage(prog, src);
    int idx = prog.instantiate(src, args, Type::unknown(), Role::Device);
    const FunctionInstance& f = *prog.fns[idx];
    py::dict locals;
    for (const auto& [n, t] : f.versions) locals[py::str(n)] = t.str();
    return py::make_tuple(f.ret.str(), locals);
  }, "Types a function as a device function for argument types given as strings; returns "
     "(return type, {variable version: type}) in Numba's spelling: x, x.1, ... for each "
     "assignment and join of x that is kept.");

  m.def("annotate_types", [](std::shared_ptr<FunctionSource> src, const std::vector<std::string>& arg_types) {
    std::vector<Type> args;
    for (auto& a : arg_types) args.push_back(parse_type(a));
    Program prog;
    prog.host_only = true;
    parse_stage(prog, src);
    return annotate_types(*prog.fns[prog.instantiate(src, args, Type::unknown(), Role::Device)]);
  }, "The inspect_types() listing of a function typed as a CPU function for argument types given "
     "as strings, without compiling it (for tests of the front end's own speed).");

  m.def("generate_kernel_source", [](std::shared_ptr<FunctionSource> src, const std::vector<std::string>& arg_types, bool cuda) {
    std::vector<Type> args;
    for (auto& a : arg_types) args.push_back(parse_type(a));
    KernelBuild b = build_kernel(src, args);
    return cuda ? b.cuda_source : b.host_source;
  }, "The generated C++ (with prelude) of a kernel for argument types given as strings.");

  m.def("generate_device_source", [](std::shared_ptr<FunctionSource> src, const std::vector<std::string>& arg_types,
                                     const std::string& ret, bool c_abi, const std::string& symbol) {
    std::vector<Type> args;
    for (auto& a : arg_types) args.push_back(parse_type(a));
    Type r;
    Build b = build_device_function(src, args, ret.empty() ? Type::unknown() : parse_type(ret), c_abi, symbol, &r);
    return py::make_tuple(b.cuda_source, r.tag == Type::Tag::None ? std::string("void") : r.str());
  }, "cuda.compile(device=True): the CUDA C++ of a device function with an extern \"C\" entry `symbol` "
     "(C ABI, or Numba's status-and-result-pointer ABI), and its return type's spelling.");

  // The NVRTC step alone, as compile_cuda runs it but without the disk cache: for
  // benchmarks/nvrtc_compile.py and the precompiled-header tests.
  m.def("nvrtc_compile", [](const std::string& source, const std::string& arch,
                            const std::vector<std::string>& options, bool pch, bool minimal,
                            const std::string& name) {
    toolchain::NvrtcOutput o;
    {
      py::gil_scoped_release nogil;
      o = nvrtc_compile_source(source, name, arch, options, pch, minimal);
    }
    py::dict d;
    d["image"] = py::bytes(o.image);
    d["log"] = o.log;
    d["pch"] = o.pch;
    return d;
  }, py::arg("source"), py::arg("arch"), py::arg("options") = std::vector<std::string>{}, py::arg("pch") = true, py::arg("minimal") = true,
     py::arg("name") = "kernel.cu",
     "Compiles a generated program (generate_kernel_source) with NVRTC, no disk cache: {'image': CUBIN "
     "(arch 'sm_XY') or PTX ('compute_XY') bytes, 'log', 'pch': 'created', 'used' or ''}. pch=False "
     "compiles without the process's precompiled prelude, minimal=False without -minimal (NVRTC 12.8+ "
     "only: older ones get neither).");
  m.def("nvrtc_supported_archs", [] { return toolchain::nvrtc_supported_archs(); },
        "The architectures the loaded NVRTC compiles for, ascending (75, 80, ...): "
        "numba.cuda.cudadrv.nvrtc.get_supported_ccs and find_closest_arch.");
  m.def("nvrtc_pch_stats", [] {
    toolchain::PchStats s = toolchain::pch_stats();
    py::dict d;
    d["created"] = s.created;
    d["used"] = s.used;
    d["discarded"] = s.discarded;
    d["failed"] = s.failed;
    d["folder"] = s.folder;
    d["files"] = s.files;
    d["enabled"] = toolchain::pch_enabled();
    return d;
  }, "This process's NVRTC precompiled headers: counters, their folder and files (toolchain/nvrtc_pch.h).");
  m.def("_nvrtc_background_idle", [](double seconds) {
    py::gil_scoped_release nogil;
    return toolchain::nvrtc_background_idle(seconds);
  }, py::arg("seconds") = 60.0,
        "Waits until NVRTC's background thread (the PCH it writes) has nothing to do; False after `seconds`.");
}

}  // namespace cujit
