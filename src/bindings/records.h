// Structured NumPy dtypes as cujit's Record type (compiler/types.h): the one reading of a dtype's
// layout, shared by the dispatchers (marshal.cpp) and the Python type objects (types.py).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "compiler/types.h"

namespace cujit {

/// Whether `dt` is a structured dtype (it has fields).
bool is_structured_dtype(const pybind11::dtype& dt);

/// The Record of a structured dtype: each field's offset and type from the type table (a scalar
/// cujit has), a nested record, or a fixed-size array of either. A field of a type cujit lacks is
/// kept by its Numba name (RecordField::unsupported). Throws TypeError for what Numba refuses too
/// (object fields, a byte order other than the machine's). Memoised per dtype.
RecordPtr record_from_dtype(const pybind11::dtype& dt);

/// The dtype a Record was read from (record_from_dtype saw it), for results of that type.
pybind11::dtype record_dtype(const Record& r);

/// A uint8 view of the bytes of `n` records (shape + [itemsize], strides + [1]) over `data`,
/// kept alive by `base`: how a record array or record scalar travels to the GPU and back.
pybind11::array record_bytes_view(const pybind11::handle& base, char* data, int64_t itemsize,
                                  std::vector<int64_t> shape, std::vector<int64_t> strides, bool writeable);

/// The data address of a NumPy record scalar (np.void / np.record): the element of the array it
/// was read from, as Numba passes it (a write to a field is seen by that array).
char* record_scalar_data(const pybind11::handle& h);

/// Whether h is a NumPy record scalar (np.void with fields, np.record).
bool is_record_scalar(const pybind11::handle& h);

void define_records(pybind11::module_& m);

}  // namespace cujit
