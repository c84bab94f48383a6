//===- BGVDialect.h - the bgv dialect -------------------------------------===//
//
// BGV ciphertexts and their operations; see BGVDialect.td.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ember/bgv_params.h"

#include <cstdint>

#include "dialects/BGV/IR/BGVDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/BGV/IR/BGVTypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/BGV/IR/BGVOps.h.inc"

namespace ember::bgv {

// mulMod, invMod, centred: ember/bgv_params.h (shared with the runtime).

/// The factor after a modulus switch from `level` of a chain Q: mu
/// q_level^-1 (mod t).
uint64_t switchedFactor(uint64_t mu, uint64_t q_level, uint64_t t);

} // namespace ember::bgv
