//===- PartitionDevices.h - kernel-partition-devices ----------------------===//
#pragma once

#include "dialects/Kernel/IR/KernelDialect.h"

#include "mlir/Pass/Pass.h"

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Transforms/PartitionDevices/PartitionDevices.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/PartitionDevices/PartitionDevices.h.inc"

} // namespace ember
