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

#define GET_TYPEDEF_CLASSES
#include "dialects/LWE/IR/LWETypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/LWE/IR/LWEOps.h.inc"
