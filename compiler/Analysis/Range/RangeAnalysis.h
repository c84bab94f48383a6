//===- RangeAnalysis.h - slot ranges of fhe values --------------*- C++ -*-===//
//
// Interval propagation over the fhe dialect, from the ranges the arguments
// declare (`fhe.range`, default [-1, 1]) to every value of a function. Each
// slot keeps its own interval (real and imaginary part), so that rotations
// and slot-wise plaintexts stay precise: a diagonal matrix-vector product
// is bounded by its rows' sums of |w|, not by slots x max|w|. fhe-to-ckks
// reads the largest magnitude to choose the first prime and the scale
// (see RangeAnalysis.td and FHEToCKKS.td).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialects/FHE/IR/FHEDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Analysis/Range/RangeAnalysis.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Analysis/Range/RangeAnalysis.h.inc"

/// What the analysis knows about one value: the hull of its slots' ranges
/// and the largest magnitude |z| a slot can have.
struct RangeSummary {
  fhe::SlotRange hull;
  double bound = 0;
};

/// The ranges of every fhe value of the functions of a module.
class RangeAnalysis {
public:
  /// Propagates the argument ranges through every function of `module`.
  /// Fails, with a diagnostic at the op or argument, on a malformed
  /// `fhe.range` or an op of the fhe dialect it has no rule for.
  static mlir::FailureOr<RangeAnalysis> run(mlir::ModuleOp module);

  /// The range of `v` (an fhe value of an analysed function), or nullptr.
  const RangeSummary *lookup(mlir::Value v) const;

  /// The value that must fit the first prime with the largest bound: any
  /// ciphertext, and a plaintext added to or subtracted from one (it is
  /// encoded at the ciphertext's level and scale, down to level 0). A
  /// plaintext factor is encoded at a level >= 1, where q_0 q_1 holds it,
  /// and is bounded through the product. Null when there is no such value.
  mlir::Value largest() const { return largest_; }

private:
  llvm::DenseMap<mlir::Value, RangeSummary> ranges_;
  mlir::Value largest_;
};

} // namespace ember
