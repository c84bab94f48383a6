//===- CKKSCost.h - time model of ckks operations at chosen parameters ----===//
//
// The predicted time of one ckks operation at its level with the
// parameters of the module: key switches by the hybrid key-switch model
// (KeySwitchCost.h), rescales by their NTTs, elementwise operations by
// the bytes they move. Read by the bootstrap placement of fhe-to-ckks
// (`bootstrap=auto`), which weighs each segment's operations against its
// bootstraps, and priced with the same H200 constants as the key-switch
// choice. Elementwise kernels that fusion merges later are counted one by
// one: the model ranks placements, it does not predict the final run.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "compiler/Analysis/Cost/KeySwitchCost.h"
#include "dialects/CKKS/IR/CKKSDialect.h"

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace ember {

struct CKKSCostModel {
  ckks::ParamsAttr params;
  KeySwitchConstants constants;

  /// A launch and its fixed overheads (us), for every kernel.
  static constexpr double kLaunchUs = 3;

  /// One hybrid key switch (relinearization or rotation) of a level-`level`
  /// ciphertext. Levels here are ckks levels (params.getLimbs(level)
  /// limbs; under double-prime scaling a level is a pair of primes).
  double keySwitchUs(int64_t level) const;
  /// An elementwise kernel that reads and writes `polys` polynomials of
  /// getLimbs(level) limbs in all.
  double elementwiseUs(int64_t level, int64_t polys) const;
  /// Rescaling a ciphertext of `parts` polynomials from `level`: per part
  /// the INTT of the dropped limb and the NTT of the others, and the
  /// subtraction and scaling.
  double rescaleUs(int64_t level, int64_t parts) const;
  /// The predicted time of a ckks op at the level of its first ciphertext
  /// operand plus `levelShift` (the same op on a chain with that many more
  /// levels below it); 0 for ops without a kernel of their own (encodings,
  /// which are constants uploaded at load, mod_drop and tile, which are
  /// views).
  double opUs(mlir::Operation *op, int64_t levelShift = 0) const;
  /// The predicted time of the ckks ops an fhe op lowers to when its
  /// ciphertext inputs are at `level` (a product with its key switch and
  /// rescale; 0 for constants and free ops).
  double fheOpUs(mlir::Operation *op, int64_t level) const;
};

} // namespace ember
