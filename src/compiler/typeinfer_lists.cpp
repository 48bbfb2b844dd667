// Lists in @jit code (Numba's List; CPU only): list comprehensions rewritten into loops before
// typing, the item type of a list made by a literal (unified with what is appended to the name it
// is assigned to, as Numba's type variables unify), and the typing of list operations that
// typeinfer.cpp hands over. codegen_lists.cpp writes their code; prelude/host_list.h runs it.
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "compiler/diagnostics.h"
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_rewrites.h"
#include "compiler/typeinfer_refusals.h"

namespace cujit {

bool lists_items_compare(const Type& a, const Type& b, bool order);

namespace {
using ast::Kind;
using ast::Node;
using ast::NodePtr;

using detail::refuse;  // typeinfer_refusals.h
using detail::typing;


void rename(Node& e, const std::map<std::string, std::string>& names) {
  if (e.is(Kind::Name)) {
    if (auto it = names.find(e.name); it != names.end()) e.name = it->second;
    return;
  }
  ast::for_each_child(e, [&](Node& c) { rename(c, names); });
}

void target_names(const Node& t, std::vector<std::string>* out) {
  if (t.is(Kind::Name)) out->push_back(t.name);
  if (t.is(Kind::Tuple) || t.is(Kind::List))
    for (const auto& x : t.elts()) target_names(*x, out);
}

// Rewrites `[elt for t1 in it1 if c1 for t2 in it2 ...]` where a statement evaluates it: the
// statements that build it go before that statement (`v = []`, the loops, `v.append(elt)`),
// and the comprehension becomes `v`. Its targets are renamed, as they are local to it in Python 3.
struct Desugar {
  const SourceFile& src;
  bool sum_builtin = false;  // sum(...) calls are rewritten too (typeinfer_rewrites.cpp)
  int count = 0;

  void block(std::vector<NodePtr>& stmts) {
    std::vector<NodePtr> out;
    for (auto& s : stmts) {
      std::vector<NodePtr> before;
      hoist_in_stmt(*s, &before);
      block(before);
      for (auto& b : before) out.push_back(std::move(b));
      block(s->body);
      block(s->orelse);
      name_literal(*s);
      out.push_back(std::move(s));
    }
    stmts = std::move(out);
  }

  // `x = [...]`: the literal types its items together with what is appended to x.
  // Dicts and sets likewise (`d = {}`, `d = dict()`, `s = set()`; typeinfer_dicts.cpp).
  static void name_literal(Node& s) {
    if (!s.is(Kind::Assign) || s.targets().size() != 1 || !s.targets()[0]->is(Kind::Name) || !s.rhs()->name.empty()) return;
    Node& v = *s.rhs();
    // typed.List() / typed.Dict() (or List() / Dict() imported from numba.typed): the typer
    // reads the name only where the call is one of those (typeinfer_typed.cpp).
    const bool typed_call = v.is(Kind::Call) && v.args().empty() && v.keywords.empty() &&
                            (v.func()->is(Kind::Name) || v.func()->is(Kind::Attribute)) &&
                            (v.func()->name == "List" || v.func()->name == "Dict");
    const bool empty_call = typed_call || (v.is(Kind::Call) && v.args().empty() && v.func()->is(Kind::Name) &&
                                           (v.func()->name == "dict" || v.func()->name == "set"));
    if (v.is(Kind::List) || v.is(Kind::Dict) || v.is(Kind::Set) || empty_call) v.name = s.targets()[0]->name;
  }

  void hoist_in_stmt(Node& s, std::vector<NodePtr>* before) {
    switch (s.kind) {
      case Kind::Expr: case Kind::Return: hoist(s.value(), before, true); break;
      case Kind::If: hoist(s.test(), before, true); break;
      case Kind::Assign: case Kind::AugAssign: hoist(s.rhs(), before, true); break;
      case Kind::For: hoist(s.iter(), before, true); break;
      case Kind::While: hoist(s.test(), before, false); break;
      case Kind::Delete: for (auto& t : s.targets()) hoist(t, before, true); break;
      default: break;  // no expression of its own (the blocks are walked by block())
    }
    if (s.is(Kind::Assign))
      for (auto& t : s.targets()) hoist(t, before, false);
  }

  void hoist(NodePtr& e, std::vector<NodePtr>* before, bool ok) {
    if (e) hoist(*e, before, ok);
  }

  // Finds comprehensions in `e`; `ok`: evaluated exactly once where the statement runs.
  void hoist(Node& e, std::vector<NodePtr>* before, bool ok) {
    const bool sum = sum_builtin && is_sum_call(e);
    if (sum || is_sort_key_call(e)) {  // typeinfer_rewrites.cpp: its arguments first
      hoist_children(e, before, ok);
      if (!ok)
        refuse(src, e, std::string(sum ? "sum()" : "a sort with key=") + " here (a while loop's test, a branch of a "
                       "conditional expression, an operand after 'and'/'or') is not supported; assign it to a variable first");
      if (sum) expand_sum(src, e, before, count++);
      else expand_sort_key(src, e, before, count++);
      return;
    }
    if (e.is(Kind::ListComp)) {
      if (!ok)
        refuse(src, e, "a list comprehension here (a while loop's test, a branch of a conditional expression, an "
                        "operand after 'and'/'or') is not supported; assign it to a variable first");
      expand(e, before);
      return;
    }
    if (e.is(Kind::IfExp)) {
      hoist(e.test(), before, ok);
      hoist(e.if_true(), before, false);
      hoist(e.if_false(), before, false);
      return;
    }
    if (e.is(Kind::BoolOp)) {  // operands after the first may not run
      for (size_t i = 0; i < e.values().size(); ++i) hoist(e.values()[i], before, ok && i == 0);
      return;
    }
    hoist_children(e, before, ok);
  }

  // Python evaluates a statement's parts left to right, and a hoisted comprehension's (or sum's,
  // or keyed sort's) loops now run before the statement: a part evaluated before one that is not
  // stable (a call, an item, arithmetic) is computed into a variable first, in order, so that
  // what it does and what it reads happen before the loops run, as in Python
  // (`l.pop(), [x for x in l]`, `l.pop(), sum(l)`).
  void hoist_children(Node& e, std::vector<NodePtr>* before, bool ok) {
    std::vector<Node*> kids;
    ast::for_each_child(e, [&](Node& c) { kids.push_back(&c); });
    size_t last_comp = kids.size();
    for (size_t i = 0; i < kids.size(); ++i)
      if (has_comp(*kids[i])) last_comp = i;
    for (size_t i = 0; i < kids.size(); ++i) {
      if (has_comp(*kids[i])) hoist(*kids[i], before, ok);
      else if (last_comp != kids.size() && i < last_comp && !stable(*kids[i])) spill(*kids[i], before);
    }
  }

  // Whether `e` holds something this pass moves before the statement.
  bool has_comp(const Node& e) const {
    if (e.is(Kind::ListComp) || (sum_builtin && is_sum_call(e)) || is_sort_key_call(e)) return true;
    bool r = false;
    ast::for_each_child(e, [&](const Node& c) { r = r || has_comp(c); });
    return r;
  }

  // Gives the same value and does nothing else whether evaluated before or after a comprehension:
  // constants, names (a list's name is the same list either way), attributes of those (a module's
  // function, a bound method), tuples of those and range() of those.
  static bool stable(const Node& e) {
    bool r = true;
    switch (e.kind) {
      case Kind::Constant: case Kind::Name: return true;
      case Kind::Attribute: return stable(*e.value());
      case Kind::Tuple: ast::for_each_child(e, [&](const Node& c) { r = r && stable(c); }); return r;
      case Kind::Call:
        if (!e.func()->is(Kind::Name) || e.func()->name != "range") return false;
        ast::for_each_child(e, [&](const Node& c) { r = r && stable(c); });
        return r;
      default: return false;
    }
  }

  // `e` becomes the name of a variable assigned its value before the statement.
  void spill(Node& e, std::vector<NodePtr>* before) {
    const std::string var = "__cj_ev" + std::to_string(count++);
    const SourceLoc loc = e.loc;
    NodePtr assign = ast::make(Kind::Assign, loc);
    assign->targets().push_back(ast::make_name(var, loc));
    assign->rhs() = std::make_unique<Node>(std::move(e));
    before->push_back(std::move(assign));
    e = std::move(*ast::make_name(var, loc));
  }

  // The comprehension node itself becomes the Name of its list (in place: its parent keeps it).
  void expand(Node& comp_node, std::vector<NodePtr>* before) {
    Node* comp = &comp_node;
    const std::string var = "__cj_lc" + std::to_string(count++);
    const SourceLoc loc = comp->loc;
    // Targets local to the comprehension: renamed in everything after the first iterable.
    std::map<std::string, std::string> names;
    for (auto& c : comp->generators()) {
      std::vector<std::string> ns;
      target_names(*c->target(), &ns);
      for (auto& n : ns) names[n] = var + "_" + n;
    }
    for (size_t i = 0; i < comp->generators().size(); ++i) {
      Node& c = *comp->generators()[i];
      rename(*c.target(), names);
      if (i > 0) rename(*c.iter(), names);
      for (auto& t : c.ifs()) rename(*t, names);
    }
    rename(*comp->elt(), names);
    NodePtr init = ast::make(Kind::Assign, loc);
    init->targets().push_back(ast::make_name(var, loc));
    init->rhs() = ast::make(Kind::List, loc);
    init->rhs()->name = var;
    init->rhs()->cval.s = "comprehension";  // for messages: the refusal in GPU code names it
    // The innermost statement: var.append(elt).
    NodePtr call = ast::make(Kind::Call, comp->elt()->loc);
    call->func() = ast::make(Kind::Attribute, comp->elt()->loc);
    call->func()->name = "append";
    call->func()->value() = ast::make_name(var, loc);
    call->args().push_back(std::move(comp->elt()));
    NodePtr inner = ast::make(Kind::Expr, call->loc);
    inner->value() = std::move(call);
    for (size_t i = comp->generators().size(); i-- > 0;) {
      Node& c = *comp->generators()[i];
      for (size_t k = c.ifs().size(); k-- > 0;) {
        NodePtr test = ast::make(Kind::If, c.ifs()[k]->loc);
        test->test() = std::move(c.ifs()[k]);
        test->body.push_back(std::move(inner));
        inner = std::move(test);
      }
      NodePtr loop = ast::make(Kind::For, c.loc);
      loop->target() = std::move(c.target());
      loop->iter() = std::move(c.iter());
      loop->body.push_back(std::move(inner));
      inner = std::move(loop);
    }
    before->push_back(std::move(init));
    before->push_back(std::move(inner));
    comp->generators().clear();  // its parts moved into the loops; the node is now the list's name
    comp->kind = Kind::Name;
    comp->name = var;
    comp->loc = loc;
  }
};

// What Python's sort orders (prelude's py_less): numbers but complex ones, strs, and tuples and
// lists of those (item by item, as Numba's sort compares them).
static bool lists_sort_orderable(const Type& t) {
  if (t.is_tuple()) return std::all_of(t.elems.begin(), t.elems.end(), lists_sort_orderable);
  if (t.is_list()) return t.elems[0].known() && lists_sort_orderable(t.elems[0]);  // list_cmp
  return (t.is_scalar() && !is_complex(t.scalar)) || t.tag == Type::Tag::String;
}

bool list_item_ok(const Type& t) {
  return t.is_scalar() || t.is_tuple() || t.is_array() || t.is_list() || t.is_record() || t.tag == Type::Tag::String;
}

Type unify_items(const SourceFile& src, const Node& at, const Type& a, const Type& b) {
  if (!a.known()) return b;
  if (!b.known()) return a;
  Type u = unify(a, b);
  if (!u.known() || u.is_optional())
    typing(src, at, "cannot unify " + a.str() + " and " + b.str() + " for the items of a list");
  return u;
}

// The hint of the list named by `self` (a Name whose literal is tracked), widened by `item`. A
// typed.List's (`l`: ListType[undefined] from `List()`) is its first item's type, as Numba
// refines it; later items are cast into it (typed_item_store).
void widen_hint(FunctionInstance& fn, const Node& self, const Node& at, const Type& item, const Type& l) {
  if (!self.is(Kind::Name)) return;
  auto it = fn.list_items.find(self.name);
  if (it == fn.list_items.end()) return;
  if (l.typed) {
    if (!it->second.known()) it->second = item;
    return;
  }
  it->second = unify_items(fn.mod.source, at, it->second, item);
}

// Numba's refusal of an item that does not cast into a typed.List's item type.
void typed_item_store(FunctionInstance& fn, const Node& at, const char* method, const Type& l, const Type& v) {
  const SourceFile& src = fn.mod.source;
  if (!l.typed || !l.elems[0].known() || !v.known()) return;
  if (typed_stores_into(v, l.elems[0])) return warn_unsafe_store(fn, v, l.elems[0]);
  typing(src, at, std::string("No implementation of function impl_") + method + " found for signature: impl_" + method + "(" +
                      l.str() + ", " + v.str() + "): cannot safely cast " + v.str() + " to " + l.elems[0].str() +
                      ". Please cast explicitly.");
}

using detail::is_int;

}  // namespace

void desugar_comprehensions(ast::Module& m) {
  Desugar d{m.source};
  d.block(m.func->body);
}

namespace {
// `list(zip(a, b))`, `list(enumerate(l))`, `sorted(zip(...), ...)`: Numba's list() and sorted()
// take any iterable; cujit's take containers, so an iterator argument becomes the comprehension
// `[t for t in zip(a, b)]`, which the pass below turns into a loop (same items, same order).
void lists_wrap_iterator_arguments(Node& e, int& count) {
  ast::for_each_child(e, [&](Node& c) { lists_wrap_iterator_arguments(c, count); });
  if (!e.is(Kind::Call) || !e.func()->is(Kind::Name) || e.args().empty()) return;
  if (e.func()->name != "list" && e.func()->name != "sorted") return;
  NodePtr& it = e.args()[0];
  if (!it->is(Kind::Call) || !it->func()->is(Kind::Name) || (it->func()->name != "zip" && it->func()->name != "enumerate"))
    return;
  const SourceLoc loc = it->loc;
  const std::string var = "cj_iter" + std::to_string(count++);
  NodePtr comp = ast::make(Kind::ListComp, loc);
  comp->elt() = ast::make_name(var, loc);
  NodePtr gen = ast::make(Kind::Comprehension, loc);
  gen->target() = ast::make_name(var, loc);
  gen->iter() = std::move(it);
  comp->generators().push_back(std::move(gen));
  it = std::move(comp);
}
}  // namespace

void desugar_comprehensions_and_builtins(ast::Module& m, bool sum_builtin) {
  int wrapped = 0;
  for (auto& st : m.func->body) lists_wrap_iterator_arguments(*st, wrapped);
  Desugar d{m.source, sum_builtin};
  d.block(m.func->body);
}

Type type_list_literal(FunctionInstance& fn, ast::Node& e, const std::vector<Type>& items) {
  const SourceFile& src = fn.mod.source;
  if (!fn.host_only) {
    const bool comp = e.cval.s == "comprehension";
    refuse(src, e, std::string(comp ? "list comprehensions" : "list literals") + " are not supported in " + fn.compiled_as +
                       " (lists exist in CPU code only, as in numba-cuda); use a tuple, or an array (cuda.local.array)");
  }
  Type item = Type::unknown();
  for (size_t i = 0; i < items.size(); ++i) {
    if (!items[i].known()) return Type::unknown();
    if (!list_item_ok(items[i])) refuse(src, *e.elts()[i], "a list cannot hold a " + items[i].str() + " in compiled code");
    item = unify_items(src, *e.elts()[i], item, items[i]);
  }
  if (!e.name.empty()) {
    Type& hint = fn.list_items[e.name];
    hint = unify_items(src, e, hint, item);
    item = hint;
  } else if (items.empty()) {
    typing(src, e, "cannot infer the type of an empty list here; assign it to a variable and append to it, or "
                   "give it an item");
  }
  return Type::list(item);
}

void check_list_known(const FunctionInstance& fn, const ast::Node& e) {
  if (e.type.is_typed_list() && !e.type.elems[0].known())  // Numba's words
    typing(fn.mod.source, e, "Cannot infer the type of variable" + (e.name.empty() ? std::string() : " '" + e.name + "'") +
                                 ", have imprecise type: " + e.type.str() + " (nothing is appended to it: append to it, or make "
                                 "it with List.empty_list(item_type))");
  if (e.type.is_list() && !e.type.elems[0].known())
    typing(fn.mod.source, e, "cannot infer the type of the empty list '" + e.name +
                                 "': nothing is appended to it (Numba needs the item type; append to it, or give it an item)");
}

void check_lists_known(const FunctionInstance& fn) {
  std::function<void(const Node&)> walk = [&](const Node& n_node) {
    const Node& n = typed_form(fn, n_node);  // before the lowering stage puts the forms in the tree
    if (n.is(Kind::List) || (n.is(Kind::Call) && n.type.is_typed_list())) check_list_known(fn, n);
    // And a `{}`, dict() or set() nothing typed (typeinfer_dicts.cpp).
    if (n.is(Kind::Dict) || n.is(Kind::Set) || (n.is(Kind::Call) && (n.type.is_dict() || n.type.is_set()))) check_dicts_known(fn, n);
    ast::for_each_child(n, walk);
  };
  walk(*fn.mod.func);
}

const char* list_method_builtin(const std::string& method) {
  static const std::map<std::string, const char*> m = {
      {"append", "list.append"}, {"pop", "list.pop"}, {"insert", "list.insert"}, {"extend", "list.extend"},
      {"sort", "list.sort"}, {"reverse", "list.reverse"}, {"index", "list.index"}, {"count", "list.count"},
      {"remove", "list.remove"}, {"clear", "list.clear"}, {"copy", "list.copy"}};
  auto it = m.find(method);
  return it == m.end() ? nullptr : it->second;
}

Type type_list_call(FunctionInstance& fn, ast::Node& call, const BuiltinRow& b, const std::vector<Type>& args) {
  const SourceFile& src = fn.mod.source;
  const std::string name = b.name;
  if (!fn.host_only)
    refuse(src, call, name + "() is not supported in " + fn.compiled_as + " (lists exist in CPU code only, as in numba-cuda)");
  auto arity = [&](size_t lo, size_t hi) {
    if (args.size() < lo || args.size() > hi)
      typing(src, call, name + "() takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                            " argument(s), " + std::to_string(args.size()) + " given");
  };
  auto iterable_item = [&](const ast::Node& at, const Type& t) {
    // A dict gives its keys, in insertion order (list(d), sorted(d): codegen_lists.cpp's fill_from).
    Type it = t.tag == Type::Tag::Iterator ? Type::unknown() : t.is_dict() ? t.elems[0] : iteration_item(t);
    if (!it.known())
      typing(src, at, "No implementation of function " + name + "() for a " + t.str() + " (it takes an iterable: a list, range, array or tuple of one type)");
    return it;
  };
  // sorted's and list.sort's key= and reverse= (bound to positions 1 and 2 by their keyword spec).
  auto sort_options = [&](size_t first) {
    if (args.size() > first && args[first].tag != Type::Tag::None)
      refuse(src, *call.args()[first], name + "() with a key function is not supported yet; sort the keys (or tuples of key and value) instead");
    if (args.size() > first + 1 && !(args[first + 1].is_scalar() && !is_complex(args[first + 1].scalar)))
      typing(src, *call.args()[first + 1], name + "() takes a boolean reverse=, not " + args[first + 1].str());
  };
  if (name == "list" || name == "sorted") {
    if (name == "list") arity(0, 1);
    else arity(1, 3), sort_options(1);
    if (args.empty()) typing(src, call, "cannot infer the type of list(): give it an iterable");
    const Type& a0 = args[0];  // a list, dict or set whose items a later append types: a later pass
    if ((a0.is_list() || a0.is_set() || a0.is_dict()) && !std::all_of(a0.elems.begin(), a0.elems.end(), [](const Type& t) { return t.known(); }))
      return Type::unknown();
    Type item = iterable_item(*call.args()[0], args[0]);
    if (!list_item_ok(item)) refuse(src, call, "a list cannot hold a " + item.str() + " in compiled code");
    if (name == "sorted" && item.known() && !lists_sort_orderable(item))
      refuse(src, call, "sorted() is supported on numbers, strings and tuples of them only (here " + item.str() + ")");
    return Type::list(item);
  }
  if (b.id == Builtin::TypedList || b.id == Builtin::TypedListEmpty) return type_typed_list_call(fn, call, b, args);
  // Methods: args[0] is the list.
  const Type& l = args[0];
  const Type item = l.elems[0];
  const std::string m = name.substr(5);
  auto value_arg = [&](size_t i) {
    if (l.typed) {
      if (!typed_list_item_ok(args[i])) typing(src, *call.args()[i], "cannot store a " + args[i].str() + " in a " + l.str());
      typed_item_store(fn, *call.args()[i], m.c_str(), l, args[i]);
      return;
    }
    if (!list_item_ok(args[i]))
      typing(src, *call.args()[i], "cannot store a " + args[i].str() + " in a " + l.str());
    if (item.known() && (item.is_scalar() || item.tag == Type::Tag::String) && item.is_scalar() != args[i].is_scalar())
      typing(src, *call.args()[i], "cannot store a " + args[i].str() + " in a " + l.str());
  };
  auto comparable_arg = [&](size_t i) {
    const bool strs = item.tag == Type::Tag::String && args[i].tag == Type::Tag::String;  // prelude/host_str.h's ==
    if (!strs && !lists_items_compare(item, args[i], false))
      refuse(src, call, "list." + m + "() of a " + args[i].str() + " in a " + l.str() +
                            " is not supported (numbers, strings, and lists and tuples of them are)");
  };
  if (m == "append") {
    arity(2, 2);
    value_arg(1);
    widen_hint(fn, *call.args()[0], call, args[1], l);
    return Type::none();
  }
  if (m == "insert") {
    arity(3, 3);
    if (!is_int(args[1])) typing(src, *call.args()[1], "list.insert() takes an integer index, not " + args[1].str());
    value_arg(2);
    widen_hint(fn, *call.args()[0], call, args[2], l);
    return Type::none();
  }
  if (m == "extend") {
    arity(2, 2);
    Type it = iterable_item(*call.args()[1], args[1]);
    widen_hint(fn, *call.args()[0], call, it, l);
    if (l.typed) typed_item_store(fn, *call.args()[1], "extend", l, it);
    // A list, or what list(x) takes (codegen_lists.cpp's fill_from): a tuple of one type, a range,
    // an array, a str, a set.
    if (!args[1].is_list() && !args[1].is_tuple() && args[1].tag != Type::Tag::Range && !args[1].is_array() &&
        args[1].tag != Type::Tag::String && !args[1].is_set())
      refuse(src, *call.args()[1], "list.extend() of a " + args[1].str() + " is not supported yet; extend by a list (list(x))");
    return Type::none();
  }
  if (!item.known()) return Type::unknown();  // an empty literal's type, not known yet
  if (m == "pop") {
    arity(1, 2);
    if (args.size() == 2 && !is_int(args[1])) typing(src, *call.args()[1], "list.pop() takes an integer index, not " + args[1].str());
    return item;
  }
  if (m == "sort" && args.size() == 3 && args[1].is_list()) {  // a sort with key= (typeinfer_rewrites.cpp): by its keys
    // (only that rewrite passes a list there: a key given by the user is a function or None)
    const Type k = args[1].is_list() ? args[1].elems[0] : Type::unknown();
    if (!k.known()) return Type::unknown();
    if (!lists_sort_orderable(k))
      refuse(src, call, "a sort key function returning " + k.str() + " is not supported (keys of numbers, strings and tuples of them are)");
    if (!(args[2].is_scalar() && !is_complex(args[2].scalar)))
      typing(src, *call.args()[2], "an integer is required for 'reverse' (got type " + args[2].str() + ")");
    return Type::none();
  }
  if (m == "sort") {
    arity(1, 3);
    sort_options(1);
    if (item.is_scalar() && is_complex(item.scalar)) typing(src, call, "list.sort() of complex numbers: they have no order");
    if (!lists_sort_orderable(item))
      refuse(src, call, "list.sort() is supported on lists of numbers, strings and tuples of them only (here " + l.str() + ")");
    return Type::none();
  }
  if (m == "reverse" || m == "clear") {
    arity(1, 1);
    return Type::none();
  }
  if (m == "copy") {
    arity(1, 1);
    return l.typed ? Type::typed_list(item) : Type::list(item);
  }
  if (m == "index" || m == "count" || m == "remove") {
    arity(2, m == "index" ? 4 : 2);  // l.index(x, start, stop), negative bounds as Python's (cj::list_index_of)
    comparable_arg(1);
    for (size_t i = 2; i < args.size(); ++i)
      if (!is_int(args[i])) typing(src, *call.args()[i], std::string("arg \"") + (i == 2 ? "start" : "stop") + "\" must be an Integer. Got " + args[i].str());
    return m == "remove" ? Type::none() : Type::scalar_of(Scalar::Int64);
  }
  typing(src, call, "Unknown attribute '" + m + "' of type " + l.str());
}

Type type_list_subscript(FunctionInstance& fn, ast::Node& e, const Type& l, const Type& index) {
  if (e.index()->is(Kind::Slice)) return l.typed ? Type::typed_list(l.elems[0]) : Type::list(l.elems[0]);
  if (!is_int(index)) typing(fn.mod.source, *e.index(), "list indices must be integers or slices, not " + index.str());
  return l.elems[0];
}

void check_list_store(FunctionInstance& fn, const ast::Node& stmt, ast::Node& target, const Type& value) {
  const SourceFile& src = fn.mod.source;
  const Type& l = target.value()->type;
  if (stmt.is(Kind::AugAssign) && target.index()->is(Kind::Slice))
    refuse(src, stmt, "augmented assignment to a list slice is not supported");
  if (target.index()->is(Kind::Slice)) {
    if (!value.is_list()) typing(src, stmt, "can only assign a list to a list slice, not a " + value.str());
    return;
  }
  if (!value.known() || !l.elems[0].known()) return;
  if (l.typed) return typed_item_store(fn, stmt, "setitem", l, value);
  if (l.elems[0].is_scalar() != value.is_scalar() || (!value.is_scalar() && unify(l.elems[0], value) != l.elems[0]))
    typing(src, stmt, "cannot store a " + value.str() + " in a " + l.str());
}

Type list_binop_type(FunctionInstance& fn, const ast::Node& at, ast::Op op, const Type& a, const Type& b) {
  const SourceFile& src = fn.mod.source;
  if ((a.is_list() && a.typed) || (b.is_list() && b.typed))  // Numba's ListType has neither + nor *
    typing(src, at, std::string("No implementation of function Function(<built-in function ") +
                        (op == ast::Op::Add ? "add" : op == ast::Op::Mult ? "mul" : ast::op_spelling(op)) +
                        ">) found for signature: (" + a.str() + ", " + b.str() + ")");
  if (op == ast::Op::Add && a.is_list() && b.is_list()) {
    if (!a.elems[0].known()) return b;
    if (!b.elems[0].known()) return a;
    Type u = unify(a.elems[0], b.elems[0]);
    if (!u.known()) typing(src, at, "cannot concatenate a " + a.str() + " and a " + b.str());
    return Type::list(u);
  }
  if (op == ast::Op::Mult && (a.is_list() ? is_int(b) : is_int(a))) return a.is_list() ? a : b;
  typing(src, at, std::string("unsupported operand type(s) for ") + ast::op_spelling(op) + ": '" + a.str() + "' and '" + b.str() + "'");
}

// Whether items of types a and b compare as prelude/host_list.h's py_eq (and, `order`, py_less)
// do: numbers (real ones for an order), strs, lists of those (reflected with reflected), and
// tuples of one type holding those.
bool lists_items_compare(const Type& a, const Type& b, bool order) {
  if (a.is_scalar() && b.is_scalar())
    return !order || (!is_complex(a.scalar) && !is_complex(b.scalar) && !is_time(a.scalar) && !is_time(b.scalar));
  if (a.tag == Type::Tag::String && b.tag == Type::Tag::String) return true;
  if (a.is_list() && b.is_list())
    return a.typed == b.typed && a.elems[0].known() && b.elems[0].known() && lists_items_compare(a.elems[0], b.elems[0], order);
  if (a.is_tuple() && b.is_tuple() && a == b)
    return std::all_of(a.elems.begin(), a.elems.end(), [&](const Type& x) { return x.known() && lists_items_compare(x, x, order); });
  return false;
}

bool list_comparison_ok(const Type& l, ast::Op op, const Type& r) {
  if (op == ast::Op::In || op == ast::Op::NotIn)
    return r.is_list() && (!r.elems[0].known() || lists_items_compare(l, r.elems[0], false));  // unknown: typed later
  if (l.is_list() && r.is_list() && l.typed != r.typed) return false;  // Numba: no eq(list(int64), ListType[int64])
  if (l.is_list() && r.is_list() && (!l.elems[0].known() || !r.elems[0].known())) return true;  // typed once an append types it
  const bool order = op != ast::Op::Eq && op != ast::Op::NotEq;
  return l.is_list() && r.is_list() && lists_items_compare(l.elems[0], r.elems[0], order);
}

}  // namespace cujit
