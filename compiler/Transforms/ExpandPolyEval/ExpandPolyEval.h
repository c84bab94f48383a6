//===- ExpandPolyEval.h - fhe-expand-poly-eval ----------------------------===//
#pragma once

#include "dialects/FHE/IR/FHEDialect.h"

#include "mlir/Pass/Pass.h"

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Transforms/ExpandPolyEval/ExpandPolyEval.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/ExpandPolyEval/ExpandPolyEval.h.inc"
/// The expansion of one fhe.poly_eval (Paterson-Stockmeyer, as the pass),
/// built before it; the caller replaces its uses and erases it.
mlir::Value expandPolyEval(fhe::PolyEvalOp op);
} // namespace ember
