//===- FHEDialect.cpp - fhe dialect, types, ops and folders ---------------===//
#include "dialects/FHE/IR/FHEDialect.h"
#include "dialects/Common/SlotVectors.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ember::fhe;

#include "dialects/FHE/IR/FHEDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/FHE/IR/FHETypes.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/FHE/IR/FHEOps.cpp.inc"

void FHEDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/FHE/IR/FHETypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/FHE/IR/FHEOps.cpp.inc"
      >();
}

Operation *FHEDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense || !ember::isSlotValuesAttr(dense) || !isa<PlaintextType>(type))
    return nullptr;
  return ConstantOp::create(builder, loc, type, dense);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult
CiphertextType::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t slots) {
  return ember::verifySlotCount(emitError, slots);
}

LogicalResult
PlaintextType::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t slots) {
  return ember::verifySlotCount(emitError, slots);
}

static int64_t getSlots(Type type) {
  if (auto ct = dyn_cast<CiphertextType>(type))
    return ct.getSlots();
  return cast<PlaintextType>(type).getSlots();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  return ember::verifySlotValues(*this, getValue(), getType().getSlots());
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

static LogicalResult verifyBinary(Operation *op) {
  Type lhs = op->getOperand(0).getType(), rhs = op->getOperand(1).getType();
  auto result = cast<CiphertextType>(op->getResult(0).getType());
  if (!isa<CiphertextType>(lhs) && !isa<CiphertextType>(rhs))
    return op->emitOpError("needs at least one encrypted operand; fold "
                           "plaintext-only arithmetic before tracing");
  if (getSlots(lhs) != getSlots(rhs) || getSlots(lhs) != result.getSlots())
    return op->emitOpError("slot counts differ: ")
           << getSlots(lhs) << ", " << getSlots(rhs) << " -> "
           << result.getSlots();
  return success();
}

LogicalResult AddOp::verify() { return verifyBinary(*this); }
LogicalResult SubOp::verify() { return verifyBinary(*this); }
LogicalResult MulOp::verify() { return verifyBinary(*this); }

OpFoldResult AddOp::fold(FoldAdaptor) {
  if (ember::isZeroSlotConstant(getRhs()) && getLhs().getType() == getType())
    return getLhs();
  if (ember::isZeroSlotConstant(getLhs()) && getRhs().getType() == getType())
    return getRhs();
  return {};
}

OpFoldResult SubOp::fold(FoldAdaptor) {
  if (ember::isZeroSlotConstant(getRhs()) && getLhs().getType() == getType())
    return getLhs();
  return {};
}

LogicalResult RotateOp::verify() {
  return ember::verifyRotationOffset(*this, getOffset(), getType().getSlots());
}

OpFoldResult RotateOp::fold(FoldAdaptor) {
  return ember::foldRotation(*this, getType().getSlots());
}

LogicalResult TileOp::verify() {
  int64_t in = getInput().getType().getSlots(), out = getType().getSlots();
  if (out < in || out % in != 0)
    return emitOpError("tiles ")
           << in << " slots to " << out << "; the result must be a multiple";
  return success();
}

OpFoldResult TileOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}
