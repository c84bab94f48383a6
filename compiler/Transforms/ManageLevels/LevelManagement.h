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
  /// Lazy strategy: rescale a returned value above the waterline (true), or
  /// return it at its scale (false: a lone product at ~S^2, as OpenFHE's
  /// FLEXIBLEAUTO decrypts one; Q_l / scale is the same either way).
  bool rescaleOutputs = true;
};

/// Removes the rescales, mod_drops and scale adjustments of `func` and
/// places them again (see ManageLevels.td); every type is recomputed from
/// the argument types and the function type is updated.
mlir::LogicalResult manageLevels(mlir::func::FuncOp func, ParamsAttr params,
                                 const LevelOptions &options);

} // namespace ember::ckks
