//===- InsertRelin.h - ckks-insert-relin ----------------------------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {
#define GEN_PASS_DECL
#include "compiler/Transforms/InsertRelin/InsertRelin.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/InsertRelin/InsertRelin.h.inc"
} // namespace ember
