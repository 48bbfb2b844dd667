// Typing of named tuples (collections.namedtuple, typing.NamedTuple), Numba's NamedTuple and
// NamedUniTuple: a tuple type that also names its class (Type::tclass). Everything a tuple does
// they do through the tuple rules; here are what only they have: fields by name, and calls of the
// class in compiled code. codegen_tuples.cpp writes their code.
#include <string>

#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"

namespace cujit {

Type named_tuple_field(const FunctionInstance& fn, const ast::Node& at, const Type& v, const std::string& name) {
  const int i = v.tclass->field(name);
  // Numba's message; _fields, _asdict, _replace and the tuple methods are unknown there too.
  if (i < 0) user_error(fn.mod.source, at.loc, ErrorKind::Typing, "Unknown attribute '" + name + "' of type " + v.str());
  return v.elems[(size_t)i];
}

Type type_named_tuple_call(FunctionInstance& fn, ast::Node& call, const GlobalValue& cls, const std::vector<Type>& args) {
  const TupleClass& c = *cls.tclass;
  auto fail = [&](const ast::Node& at, const std::string& why) {
    // Numba's words (it raises them as a TypeError while typing).
    user_error(fn.mod.source, at.loc, ErrorKind::Typing, "In '" + cls.module + "': " + why);
  };
  // Python's binding of the call to the fields: positional first, then keywords, then the
  // class's defaults. Each field's code: "@k" the k-th positional argument, "=k" the k-th
  // keyword's value, else a default's literal.
  std::vector<std::string> code(c.fields.size());
  std::vector<Type> items(c.fields.size());
  if (args.size() > c.fields.size()) fail(call, "too many positional arguments");
  for (size_t k = 0; k < args.size(); ++k) {
    code[k] = "@" + std::to_string(k);
    items[k] = args[k];
  }
  for (size_t k = 0; k < call.keywords.size(); ++k) {
    const ast::Keyword& kw = call.keywords[k];
    const int i = c.field(kw.name);
    if (kw.name.empty() || !kw.value) fail(call, "**kwargs are not supported");
    if (i < 0) fail(*kw.value, "got an unexpected keyword argument '" + kw.name + "'");
    if (!code[(size_t)i].empty()) fail(*kw.value, "multiple values for argument '" + kw.name + "'");
    code[(size_t)i] = "=" + std::to_string(k);
    items[(size_t)i] = kw.value->type;
  }
  for (size_t i = 0; i < c.fields.size(); ++i) {
    if (!code[i].empty()) continue;
    const GlobalValue* d = nullptr;
    for (const auto& g : cls.elems) if (g.attr == c.fields[i]) d = &g;
    if (!d) fail(call, "missing a required argument: '" + c.fields[i] + "'");
    items[i] = type_of_global(*d);
    if (!items[i].known() || d->kind == GlobalValue::Kind::Array)
      user_error(fn.mod.source, call.loc, ErrorKind::Unsupported,
                 "the default of field '" + c.fields[i] + "' of " + c.name + " is not a number or a tuple of numbers");
    code[i] = constant_literal(*d);
  }
  for (size_t i = 0; i < items.size(); ++i) {
    const Type& t = items[i];
    if (t.tag == Type::Tag::Module || t.tag == Type::Tag::String || t.tag == Type::Tag::Iterator || t.tag == Type::Tag::Range ||
        t.tag == Type::Tag::None || t.tag == Type::Tag::Void)
      user_error(fn.mod.source, call.loc, ErrorKind::Unsupported,
                 "a named tuple field of type " + t.str() + " is not supported (field '" + c.fields[i] + "' of " + c.name + ")");
  }
  Resolved r{Resolved::Kind::Builtin};
  r.items = std::move(code);
  fn.resolved[&call] = r;
  return Type::named_tuple(cls.tclass, std::move(items));
}

}  // namespace cujit
