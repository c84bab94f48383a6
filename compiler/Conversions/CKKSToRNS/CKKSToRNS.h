//===- CKKSToRNS.h - ckks-to-rns conversion ------------------------*- C++
//-*-===//
#pragma once

#include "mlir/Pass/Pass.h"

#include <cstdint>

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Conversions/CKKSToRNS/CKKSToRNS.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversions/CKKSToRNS/CKKSToRNS.h.inc"

/// Galois element of a left rotation by `offset` slots at ring degree
/// 2^logN: 5^offset mod 2N (negative offsets wrap modulo N/2).
int64_t galoisElementForRotation(int64_t offset, int64_t logN);

/// Galois element of complex conjugation: 2N - 1.
inline int64_t galoisElementForConjugation(int64_t logN) {
  return (int64_t{2} << logN) - 1;
}

} // namespace ember
