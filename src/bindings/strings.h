// Python str and the strings of @jit code (cujit_abi.h's cj::StrHead; prelude/host_str.h): a str
// argument becomes a new StrHead of its code points, and a returned one a new Python str.
#pragma once
#include <pybind11/pybind11.h>

#include "abi/cujit_abi.h"
#include "bindings/marshal.h"

namespace cujit {

/// A Python str argument of a @jit function (Numba's unicode_type): one reference to a new
/// StrHead holding its code points (its hash, CPython's, already known), dropped by release_str.
KArg marshal_str(const pybind11::handle& h);

/// The Python str of the string at `head` (null: "").
pybind11::object str_value(const cj::StrHead* head);

/// Drops one reference to a string (an argument's, or a returned one's).
void release_str(cj::StrHead* head);

}  // namespace cujit
