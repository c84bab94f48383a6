//===- InsertRelin.cpp - ckks-insert-relin --------------------------------===//
#include "compiler/Transforms/InsertRelin/InsertRelin.h"
#include "compiler/Transforms/Utils/TypeUpdate.h"
#include "dialects/CKKS/IR/CKKSDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ckks-insert-relin"

namespace ember {
#define GEN_PASS_DEF_INSERTRELIN
#include "compiler/Transforms/InsertRelin/InsertRelin.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember::ckks;

/// True when `op` needs its ciphertext operands at degree 2.
static bool needsDegree2(Operation *op) {
  return op->hasTrait<NeedsLinearInput>() || isa<func::ReturnOp>(op) ||
         !isa<CKKSDialect>(op->getDialect());
}

static bool isDegree3(Value v) {
  auto type = dyn_cast<CiphertextType>(v.getType());
  return type && type.getDegree() == 3;
}

static LogicalResult insertRelin(func::FuncOp func, bool lazy) {
  if (func.isExternal())
    return success();
  if (!func.getBody().hasOneBlock())
    return func.emitError("ckks-insert-relin handles single-block functions "
                          "only");
  Block &block = func.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(block))
    if (auto relin = dyn_cast<RelinearizeOp>(op)) {
      relin.getResult().replaceAllUsesWith(relin.getInput());
      relin.erase();
    }

  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  DenseMap<Value, Value> relinearized;
  OpBuilder b(func.getContext());
  for (Operation *op : ops) {
    for (OpOperand &operand : op->getOpOperands()) {
      Value v = operand.get();
      if (!isDegree3(v))
        continue;
      // Once relinearized, every later use takes the degree-2 value.
      Value &r = relinearized[v];
      if (!r && needsDegree2(op)) {
        b.setInsertionPoint(op);
        r = RelinearizeOp::create(b, op->getLoc(), v);
        LLVM_DEBUG(llvm::dbgs() << "relinearize before " << *op << "\n");
      }
      if (r)
        operand.set(r);
    }
    if (failed(refreshResultTypes(op)))
      return failure();
    if (!lazy && isa<MulOp>(op)) {
      b.setInsertionPointAfter(op);
      Value product = op->getResult(0);
      Value r = RelinearizeOp::create(b, op->getLoc(), product);
      product.replaceAllUsesExcept(r, r.getDefiningOp());
    }
  }
  syncFunctionType(func);
  return success();
}

namespace {
struct InsertRelinPass : public ember::impl::InsertRelinBase<InsertRelinPass> {
  using InsertRelinBase::InsertRelinBase;

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](func::FuncOp func) {
      return failed(insertRelin(func, lazy)) ? WalkResult::interrupt()
                                             : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
