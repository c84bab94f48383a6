//===- TypeUpdate.h - keep ckks types consistent after rewrites -----------===//
//
// The ckks passes rewrite operands (a rescale, mod_drop or relinearize put
// in between) and then recompute the result types downstream, op by op.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"

namespace ember::ckks {

/// Recomputes the result types of `op` from its operand types: through
/// InferTypeOpInterface (which reports mismatches as errors at `op`), as the
/// operand type for SameOperandsAndResultType ops and hoisted rotations, and
/// with the input's degree for rescale/mod_drop. Other ops are left alone.
mlir::LogicalResult refreshResultTypes(mlir::Operation *op);

/// Sets the function type of `func` from its arguments and the operands of
/// its func.return.
void syncFunctionType(mlir::func::FuncOp func);

} // namespace ember::ckks
