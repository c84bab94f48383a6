//===- FHEToLWE.h - fhe-to-lwe conversion ---------------------------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Conversions/FHEToLWE/FHEToLWE.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversions/FHEToLWE/FHEToLWE.h.inc"
} // namespace ember
