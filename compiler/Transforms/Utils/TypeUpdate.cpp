//===- TypeUpdate.cpp - keep ckks types consistent after rewrites ---------===//
#include "compiler/Transforms/Utils/TypeUpdate.h"

#include "dialects/CKKS/IR/CKKSDialect.h"

#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;

LogicalResult ember::ckks::refreshResultTypes(Operation *op) {
  if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
    SmallVector<Type> types;
    if (failed(infer.inferReturnTypes(
            op->getContext(), op->getLoc(), op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), types)))
      return failure();
    for (auto [result, type] : llvm::zip(op->getResults(), types))
      result.setType(type);
    return success();
  }
  if (op->hasTrait<OpTrait::SameOperandsAndResultType>() ||
      isa<HoistedRotateOp>(op)) {
    for (Value result : op->getResults())
      result.setType(op->getOperand(0).getType());
    return success();
  }
  if (isa<RescaleOp, ModDropOp>(op)) {
    auto in = cast<CiphertextType>(op->getOperand(0).getType());
    auto out = cast<CiphertextType>(op->getResult(0).getType());
    op->getResult(0).setType(out.withDegree(in.getDegree()));
  }
  return success();
}

void ember::ckks::syncFunctionType(func::FuncOp func) {
  SmallVector<Type> results;
  func.walk([&](func::ReturnOp ret) {
    results.assign(ret.getOperandTypes().begin(), ret.getOperandTypes().end());
  });
  func.setType(FunctionType::get(func.getContext(),
                                 func.getBody().getArgumentTypes(), results));
}
