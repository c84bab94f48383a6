//===- KernelEmitter.h - C++, CUDA and manifest emitters ------------------===//
//
// The kernel-level program (after rns-to-kernel and kernel-plan-memory) as
// C++ against the CPU runtime, as CUDA against the CUDA runtime, and its
// client manifest (JSON). Registered in ember-translate as --emit-cpp,
// --emit-cuda and --emit-manifest.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace ember::target {

mlir::LogicalResult emitCpp(mlir::ModuleOp module, llvm::raw_ostream &os);
mlir::LogicalResult emitCuda(mlir::ModuleOp module, llvm::raw_ostream &os);
mlir::LogicalResult emitManifest(mlir::ModuleOp module, llvm::raw_ostream &os);

/// Registers the three translations (call before mlirTranslateMain).
void registerKernelTranslations();

} // namespace ember::target
