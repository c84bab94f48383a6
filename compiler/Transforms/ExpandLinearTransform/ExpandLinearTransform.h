//===- ExpandLinearTransform.h - fhe-expand-linear-transform --------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Transforms/ExpandLinearTransform/ExpandLinearTransform.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/ExpandLinearTransform/ExpandLinearTransform.h.inc"
} // namespace ember
