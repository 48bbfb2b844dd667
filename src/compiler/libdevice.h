// numba.cuda.libdevice: the table of libdevice functions (libdevice.def, generated from
// libdevice's bitcode by tools/libdevice_table.py), the Python-level type of a call, and the
// C++ the generated code needs for the functions it calls (codegen_libdevice.cpp).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "compiler/types.h"

namespace cujit {

struct LibdeviceParam {
  std::string name;  // libdevice's own parameter name
  Scalar type;
  bool out;          // a pointer: an output, one more member of the Python-level result
};

struct LibdeviceFn {
  std::string name;  // without "__nv_": "sinf"
  bool ret_void;
  Scalar ret;
  std::vector<LibdeviceParam> params;
  std::string host;  // the simulator's body over a0, a1, ...; "" where the host has no exact equivalent
};

const std::vector<LibdeviceFn>& libdevice_functions();
const LibdeviceFn* find_libdevice(const std::string& name);
/// The Python-level result: the return value, then each output; a tuple when there are outputs.
Type libdevice_result(const LibdeviceFn& f);
/// The parameters the Python-level call takes (the non-output ones), in order.
std::vector<Scalar> libdevice_inputs(const LibdeviceFn& f);
/// The definitions generated code needs before its functions: for each function in `used`
/// (name -> C++ type of the Python-level result) a `cj_ld_<name>` wrapper returning that result,
/// over libdevice's `__nv_<name>` on the GPU or the simulator's host implementation.
std::string libdevice_definitions(const std::map<std::string, std::string>& used, bool cuda);

}  // namespace cujit
