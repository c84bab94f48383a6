//===- HoistRotations.h - ckks-hoist-rotations ----------------------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Transforms/HoistRotations/HoistRotations.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/HoistRotations/HoistRotations.h.inc"
} // namespace ember
