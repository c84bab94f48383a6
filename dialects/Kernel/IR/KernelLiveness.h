//===- KernelLiveness.h - buffer liveness of a kernel-level function ------===//
//
// One definition of when a buffer dies, shared by kernel-plan-memory (which
// reuses its space) and the emitters (which release it there).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

namespace ember::kernel {

/// The buffer a value lives in: a `kernel.view` resolves to its source.
mlir::Value bufferOf(mlir::Value v);

/// For a `mod_switch_down` call marked `overlap` (kernel-plan-memory
/// ks-overlap): the `ks_inner_product` call right before it whose results it
/// switches down. The runtime may run the two as one step, the inner
/// product's dropped rows and the switch's INTT and BConv beside its kept
/// rows, so the inner product's operands are read until the switch
/// returns. Null for any other op.
mlir::Operation *overlappedInnerProduct(mlir::Operation *op);

/// Liveness of the poly buffers of a straight-line function body. Ops are
/// numbered in order (func arguments are defined at -1); a use of a view is
/// a use of its buffer; returned buffers live to the end (index = #ops); an
/// overlapped mod_switch_down also uses its inner product's operands
/// (overlappedInnerProduct).
struct BufferLiveness {
  llvm::DenseMap<mlir::Operation *, int64_t> index;
  /// Last use of every buffer that has one.
  llvm::DenseMap<mlir::Value, int64_t> lastUse;
  /// Buffers the function returns.
  llvm::DenseSet<mlir::Value> returned;
  int64_t end = 0;

  explicit BufferLiveness(mlir::func::FuncOp f);
  /// The index after which `buffer` (defined at `def`) is dead.
  int64_t deathOf(mlir::Value buffer, int64_t def) const {
    auto it = lastUse.find(buffer);
    return it == lastUse.end() ? def : it->second;
  }
};

} // namespace ember::kernel
