//===- ExpandLinearTransform.h - fhe-expand-linear-transform --------------===//
#pragma once

#include "dialects/FHE/IR/FHEDialect.h"

#include "mlir/Pass/Pass.h"

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Transforms/ExpandLinearTransform/ExpandLinearTransform.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/ExpandLinearTransform/ExpandLinearTransform.h.inc"
/// The baby-step giant-step expansion of one fhe.linear_transform (as the
/// pass), built before it; the caller replaces its uses and erases it.
/// `doubleHoisting`: the split assumes ckks-hoist-rotations' products over
/// Q_l u P (ckks.hoisted_dot) where they pay.
mlir::Value expandLinearTransform(fhe::LinearTransformOp op,
                                  bool doubleHoisting);
} // namespace ember
