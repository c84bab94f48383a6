//===- PlaceBootstraps.h - fhe-place-bootstraps ---------------------------===//
#pragma once

#include "dialects/FHE/IR/FHEDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

#include <functional>
#include <string>

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Transforms/PlaceBootstraps/PlaceBootstraps.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/PlaceBootstraps/PlaceBootstraps.h.inc"

/// What the placement (PlaceBootstraps.td) minimises and under which
/// constraints.
struct BootstrapPlacementOptions {
  /// Levels between bootstraps: arguments and bootstrap results have them.
  int64_t levels = 0;
  /// Levels the returned ciphertexts keep.
  int64_t outputLevels = 0;
  /// Predicted cost of an fhe op whose ciphertext inputs are at `level`.
  std::function<double(mlir::Operation *, int64_t level)> opCost;
  /// Predicted cost of one bootstrap.
  double bootstrapCost = 0;
  /// Why `value` cannot be bootstrapped ("" when it can): a point where
  /// such a value would need it is no cut.
  std::function<std::string(mlir::Value)> cannotBootstrap;
  /// How the report names the units of the costs ("us").
  std::string units;
  /// Only compute the least cost; the function is left as it is.
  bool dryRun = false;
};

/// What a placement did (also recorded on the function).
struct BootstrapPlacement {
  int64_t bootstraps = 0;
  double opCost = 0;        ///< the ops' predicted cost, all segments
  double bootstrapCost = 0; ///< the inserted bootstraps' predicted cost
  double total() const { return opCost + bootstrapCost; }
};

/// Inserts the least-cost bootstraps into `func` (a single-block fhe
/// function), and records `ember.bootstrap_placement` on it (with
/// `dryRun`, only what it would do); failure after a diagnostic at the op
/// that no placement reaches.
mlir::FailureOr<BootstrapPlacement>
placeBootstraps(mlir::func::FuncOp func, const BootstrapPlacementOptions &opts);

/// The name of the function attribute that records a placement.
inline constexpr llvm::StringLiteral kBootstrapPlacementAttr =
    "ember.bootstrap_placement";
} // namespace ember
