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

/// What the expansion of a polynomial on [-1, 1] (no change of variable)
/// costs, with the baby-step count the pass picks: the levels it consumes
/// and its ciphertext products (a relinearization each). Bootstrapping
/// picks its cosine's degree by it (Bootstrap.cpp, configure).
struct PolyEvalShape {
  int depth = 0;
  int64_t products = 0;
};
PolyEvalShape polyEvalShape(llvm::ArrayRef<double> coeffs, bool chebyshev);
} // namespace ember
