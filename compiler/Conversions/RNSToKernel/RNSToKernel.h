//===- RNSToKernel.h - rns-to-kernel --------------------------------------===//
#pragma once

#include "dialects/Kernel/IR/KernelDialect.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Pass/Pass.h"

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Conversions/RNSToKernel/RNSToKernel.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversions/RNSToKernel/RNSToKernel.h.inc"

} // namespace ember
