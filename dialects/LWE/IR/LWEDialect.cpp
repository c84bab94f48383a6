//===- LWEDialect.cpp - lwe dialect, types and ops ------------------------===//
#include "dialects/LWE/IR/LWEDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ember::lwe;

#include "dialects/LWE/IR/LWEDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/LWE/IR/LWETypes.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/LWE/IR/LWEOps.cpp.inc"

void LWEDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/LWE/IR/LWETypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/LWE/IR/LWEOps.cpp.inc"
      >();
}

LogicalResult GateOp::verify() {
  static const char *const kGates[] = {"AND", "OR",  "NAND",
                                       "NOR", "XOR", "XNOR"};
  if (!llvm::is_contained(kGates, getGate()))
    return emitOpError() << "unknown gate '" << getGate()
                         << "' (AND, OR, NAND, NOR, XOR, XNOR)";
  return success();
}

LogicalResult TrivialOp::verify() {
  if (getValue() != 0 && getValue() != 1)
    return emitOpError() << "a bit is 0 or 1, got " << getValue();
  return success();
}
