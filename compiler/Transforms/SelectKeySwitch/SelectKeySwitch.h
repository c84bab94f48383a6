//===- SelectKeySwitch.h - rns-select-keyswitch ---------------------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Transforms/SelectKeySwitch/SelectKeySwitch.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/SelectKeySwitch/SelectKeySwitch.h.inc"
} // namespace ember
