//===- PlanMemory.h - kernel-plan-memory ----------------------------------===//
#pragma once

#include "dialects/Kernel/IR/KernelDialect.h"

#include "mlir/Pass/Pass.h"

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Transforms/PlanMemory/PlanMemory.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/PlanMemory/PlanMemory.h.inc"

} // namespace ember
