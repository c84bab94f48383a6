// Serialized objects between Python's bytes and the runtime's Bytes, for
// the module's files (module.cpp, tfhe.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace ember::python {

inline pybind11::bytes toBytes(const std::vector<uint8_t> &b) {
  return pybind11::bytes(reinterpret_cast<const char *>(b.data()), b.size());
}
inline std::vector<uint8_t> fromBytes(const pybind11::bytes &b) {
  const std::string_view view = b;
  return std::vector<uint8_t>(view.begin(), view.end());
}

} // namespace ember::python
