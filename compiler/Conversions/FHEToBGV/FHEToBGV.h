//===- FHEToBGV.h - fhe-to-bgv conversion ---------------------------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Conversions/FHEToBGV/FHEToBGV.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversions/FHEToBGV/FHEToBGV.h.inc"

} // namespace ember
