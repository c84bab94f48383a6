//===- ExpandModSwitch.h - rns-expand-modswitch ---------------------*- C++
//-*-===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Transforms/ExpandModSwitch/ExpandModSwitch.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/ExpandModSwitch/ExpandModSwitch.h.inc"

} // namespace ember
