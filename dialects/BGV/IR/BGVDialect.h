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

// mulMod, invMod, centred, switchedFactor of ember::bgv:
// ember/bgv_params.h (shared with the runtime).
