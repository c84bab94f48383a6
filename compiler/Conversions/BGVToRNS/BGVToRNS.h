//===- BGVToRNS.h - bgv-to-rns conversion ---------------------------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Conversions/BGVToRNS/BGVToRNS.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversions/BGVToRNS/BGVToRNS.h.inc"

} // namespace ember
