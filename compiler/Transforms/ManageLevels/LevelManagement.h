//===- LevelManagement.h - rescale / mod_drop placement -------------------===//
//
// The algorithm of ckks-manage-levels, shared with fhe-to-ckks (which must
// produce valid, level-managed ckks IR).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialects/CKKS/IR/CKKSDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace ember::ckks {

enum class RescaleStrategy { Eager, Lazy };

struct LevelOptions {
  RescaleStrategy strategy = RescaleStrategy::Eager;
  /// log2 of the lazy waterline; 0 means 1.5 x params.getLogScale().
  int64_t waterline = 0;
};

/// Removes the rescales, mod_drops and scale adjustments of `func` and
/// places them again (see ManageLevels.td); every type is recomputed from
/// the argument types and the function type is updated.
mlir::LogicalResult manageLevels(mlir::func::FuncOp func, ParamsAttr params,
                                 const LevelOptions &options);

} // namespace ember::ckks
