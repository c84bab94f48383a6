//===- CostReport.h - ember-cost-report ------------------------------*- C++
//-*-===//
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <cstdint>

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Analysis/Cost/CostReport.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Analysis/Cost/CostReport.h.inc"

/// Counts of one function's RNS primitives (see CostReport.td).
struct RNSCost {
  int64_t ntt = 0, intt = 0; ///< limb-transforms
  int64_t bconv = 0;         ///< base conversions (one per polynomial)
  int64_t bconvMacs = 0;     ///< multiply-adds of all BConvs
  int64_t modUp = 0, modDown = 0, rescale = 0;
  int64_t innerProducts = 0, automorphisms = 0;
  int64_t elementwiseKernels = 0, fusedRegions = 0;
  int64_t limbsMoved = 0; ///< limbs read + written; x N x 8 for bytes

  int64_t modulusSwitches() const { return modDown + rescale; }
};

/// The cost of `func` at ring degree 2^logN (logN only scales MACs).
RNSCost computeRNSCost(mlir::Operation *func, int64_t logN);

} // namespace ember
