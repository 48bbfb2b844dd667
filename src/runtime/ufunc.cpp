// Broadcasting and the packed argument block of CUDA ufuncs (see ufunc.h).
#include "runtime/ufunc.h"

#include <stdexcept>

#include "runtime/device_array.h"  // shape_str

namespace cujit::rt {

std::vector<int64_t> broadcast_shapes(const std::vector<std::vector<int64_t>>& shapes) {
  size_t nd = 0;
  for (const auto& s : shapes) nd = std::max(nd, s.size());
  std::vector<int64_t> out(nd, 1);
  for (const auto& s : shapes) {
    size_t off = nd - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[off + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o == 1) { o = s[i]; continue; }
      std::string all;
      for (size_t k = 0; k < shapes.size(); ++k) all += (k ? " " : "") + shape_str(shapes[k]);
      throw std::invalid_argument("operands could not be broadcast together with shapes " + all);
    }
  }
  return out;
}

std::vector<int64_t> pack_ufunc_args(const std::vector<int64_t>& shape, const std::vector<Operand>& ops,
                                     int64_t* n) {
  const size_t nops = ops.size();
  // Per operand, strides aligned to `shape` from the right; 0 where the operand is broadcast.
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> st(nops);
  *n = 1;
  for (int64_t d : shape) *n *= d;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;  // size-1 dimensions move nothing
    dims.push_back(shape[d]);
    for (size_t k = 0; k < nops; ++k) {
      const Operand& o = ops[k];
      int64_t od = (int64_t)d - (int64_t)(shape.size() - o.shape.size());
      st[k].push_back(od < 0 || o.shape[od] == 1 ? 0 : o.strides[od]);
    }
  }
  // Merge dimension i into i+1 where every operand steps through both as through one.
  for (size_t i = 0; i + 1 < dims.size();) {
    bool ok = true;
    for (size_t k = 0; k < nops && ok; ++k) ok = st[k][i] == st[k][i + 1] * dims[i + 1];
    if (!ok) { ++i; continue; }
    dims[i + 1] *= dims[i];
    dims.erase(dims.begin() + i);
    for (auto& s : st) s.erase(s.begin() + i);
  }
  if (dims.empty()) {
    dims.push_back(1);
    for (auto& s : st) s.push_back(0);
  }
  if (dims.size() > (size_t)kUfuncMaxDims)
    throw std::invalid_argument("CUDA ufuncs support up to " + std::to_string(kUfuncMaxDims) +
                                " dimensions after broadcasting; got " + std::to_string(dims.size()));
  // cj::UfuncArgs<nops>, word by word.
  std::vector<int64_t> buf(cj::ufunc_args_words((int)nops), 0);
  buf[0] = *n;
  buf[1] = (int64_t)dims.size();
  for (size_t d = 0; d < dims.size(); ++d) buf[cj::ufunc_shape_word((int)d)] = dims[d];
  for (size_t k = 0; k < nops; ++k) {
    buf[cj::ufunc_ptr_word((int)k)] = (int64_t)(intptr_t)ops[k].data;
    for (size_t d = 0; d < dims.size(); ++d) buf[cj::ufunc_stride_word((int)nops, (int)k, (int)d)] = st[k][d];
  }
  return buf;
}

}  // namespace cujit::rt
