//===- LWEDialect.h - the lwe dialect -------------------------------------===//
//
// FHEW/TFHE bit circuits; see LWEDialect.td.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/LWE/IR/LWEDialect.h.inc"

namespace ember::lwe {
/// A radix block's values: 2 message bits and 2 carry bits (tables over
/// Z_16 with a padding bit, encoded as v round(Q / 32)).
inline constexpr unsigned kBlockModulus = 16;
/// The message bits of a block (the radix's base is 4).
inline constexpr unsigned kBlockBits = 2;
} // namespace ember::lwe

#define GET_TYPEDEF_CLASSES
#include "dialects/LWE/IR/LWETypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/LWE/IR/LWEOps.h.inc"
