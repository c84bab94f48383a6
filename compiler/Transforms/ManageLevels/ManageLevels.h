//===- ManageLevels.h - ckks-manage-levels --------------------------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Transforms/ManageLevels/ManageLevels.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/ManageLevels/ManageLevels.h.inc"
} // namespace ember
