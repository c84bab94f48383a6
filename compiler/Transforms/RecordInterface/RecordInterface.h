//===- RecordInterface.h - ckks-record-interface --------------------------===//
#pragma once

#include "mlir/Pass/Pass.h"

namespace ember {

#define GEN_PASS_DECL
#include "compiler/Transforms/RecordInterface/RecordInterface.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Transforms/RecordInterface/RecordInterface.h.inc"

} // namespace ember
