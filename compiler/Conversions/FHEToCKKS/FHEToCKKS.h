//===- FHEToCKKS.h - fhe-to-ckks conversion -------------------------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Conversions/FHEToCKKS/FHEToCKKS.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversions/FHEToCKKS/FHEToCKKS.h.inc"
} // namespace ember
