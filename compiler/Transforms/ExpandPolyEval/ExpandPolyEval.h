//===- ExpandPolyEval.h - fhe-expand-poly-eval ----------------------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Transforms/ExpandPolyEval/ExpandPolyEval.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/ExpandPolyEval/ExpandPolyEval.h.inc"
} // namespace ember
