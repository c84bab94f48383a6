//===- PartitionLimbs.h - partition=limbs -----------------------*- C++ -*-===//
//
// The limb split of kernel-partition-devices: every polynomial's RNS limbs
// spread over k devices, with the base conversions' inputs all-gathered.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>

namespace ember {

/// What a limb split moved: the transfers it inserted and their bytes.
struct LimbSplitStats {
  int64_t transfers = 0;
  int64_t transferBytes = 0;
  /// The Q and P limbs of each device: device d holds q[qBounds[d] :
  /// qBounds[d+1]] and p[pBounds[d] : pBounds[d+1]] of every polynomial.
  llvm::SmallVector<int64_t> qBounds, pBounds;
};

/// Splits the limbs of every polynomial of `f` (kernel IR with expanded
/// modulus switches: ModUp and ModDown as intt, bconv, ntt and concat) over
/// `k` devices: each op becomes one clone per device over that device's
/// share of its limbs (`device` set), each `bconv` first gathers its whole
/// input on every device that converts to a limb it holds (`transfer`s and
/// a `concat`), the inputs are split from device 0 and the results gathered
/// back to device 0. `limbBytes` is one limb's bytes (N words). Fails with
/// a diagnostic on an op it cannot split (structured ModUp/ModDown, KLSS,
/// BFV).
mlir::LogicalResult splitLimbs(mlir::func::FuncOp f, int64_t k,
                               int64_t limbBytes, LimbSplitStats &stats);

} // namespace ember
