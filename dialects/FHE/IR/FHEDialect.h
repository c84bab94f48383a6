//===- FHEDialect.h - the fhe dialect -------------------------------------===//
//
// Scheme-agnostic encrypted slot vectors; see FHEDialect.td.
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

#include "dialects/FHE/IR/FHEDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/FHE/IR/FHETypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/FHE/IR/FHEOps.h.inc"
