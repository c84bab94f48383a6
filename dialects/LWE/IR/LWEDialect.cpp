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

LogicalResult LinearOp::verify() {
  const size_t n = getInputs().size();
  if (n < 1 || n > 2)
    return emitOpError() << "combines one or two blocks, got " << n;
  if (getCoefficients().size() != n)
    return emitOpError() << getCoefficients().size() << " coefficients for "
                         << n << " blocks";
  return success();
}

LogicalResult LutOp::verify() {
  ArrayRef<int64_t> table = getTable();
  if (table.size() != kBlockModulus)
    return emitOpError() << "a table of " << kBlockModulus
                         << " entries (a block's values), got " << table.size();
  for (auto [i, v] : llvm::enumerate(table))
    if (v < 0 || v >= int64_t(kBlockModulus))
      return emitOpError() << "entry " << i << " = " << v << " is outside [0, "
                           << kBlockModulus << ")";
  if (getLo() && getHi() &&
      (*getLo() < 0 || *getLo() > *getHi() ||
       *getHi() >= int64_t(kBlockModulus)))
    return emitOpError() << "the input's range [" << *getLo() << ", "
                         << *getHi() << "] is not within [0, " << kBlockModulus
                         << ")";
  if (getNu2() && *getNu2() < 1)
    return emitOpError() << "nu2 (a sum of squared integer weights) is at "
                            "least 1, got "
                         << *getNu2();
  return success();
}

LogicalResult BlockConstantOp::verify() {
  if (getValue() < 0 || getValue() >= 2 * int64_t(kBlockModulus))
    return emitOpError() << "a block's value is in [0, " << 2 * kBlockModulus
                         << "), got " << getValue();
  return success();
}
