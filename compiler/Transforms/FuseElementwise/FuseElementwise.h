//===- FuseElementwise.h - rns-fuse-elementwise ---------------------*- C++
//-*-===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Transforms/FuseElementwise/FuseElementwise.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/FuseElementwise/FuseElementwise.h.inc"

} // namespace ember
