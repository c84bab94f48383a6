//===- MergeModDown.h - rns-merge-moddown ---------------------------*- C++
//-*-===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Transforms/MergeModDown/MergeModDown.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/MergeModDown/MergeModDown.h.inc"

} // namespace ember
