// The data file of a compiled program (`<name>.data`, next to its emitted
// source): the slot values of its plaintext constants, so that the source
// holds structure and offsets, not numbers. The compiler writes it
// (`ember-translate --emit-data`), the runtime reads it
// (ember::program::readConstantData); this header is the format both
// follow. Layout, little endian:
//   "EMBD" | version u32 | count u64 | count float64 values
//   | SHA-256 of everything before (32 bytes)
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::program::data_format {

inline constexpr char kMagic[4] = {'E', 'M', 'B', 'D'};
inline constexpr uint32_t kVersion = 1;
inline constexpr size_t kHeaderBytes = 4 + 4 + 8;
inline constexpr size_t kDigestBytes = 32;

} // namespace ember::program::data_format
