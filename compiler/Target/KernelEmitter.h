//===- KernelEmitter.h - C++, CUDA and manifest emitters ------------------===//
//
// The kernel-level program (after rns-to-kernel and kernel-plan-memory) as
// C++ against the CPU runtime, as CUDA against the CUDA runtime, and its
// client manifest (JSON). Registered in ember-translate as --emit-cpp,
// --emit-cuda and --emit-manifest.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialects/CKKS/IR/CKKSDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace ember::target {

/// The "params" object of the manifest (and --ckks-params-to-json):
/// log_n, q, p, log_scale, dnum, security, plus t and gamma when the
/// parameters carry a KLSS form.
llvm::json::Object paramsToJson(ckks::ParamsAttr params);

mlir::LogicalResult emitCpp(mlir::ModuleOp module, llvm::raw_ostream &os);
mlir::LogicalResult emitCuda(mlir::ModuleOp module, llvm::raw_ostream &os);
mlir::LogicalResult emitManifest(mlir::ModuleOp module, llvm::raw_ostream &os);

/// Registers the three translations (call before mlirTranslateMain).
void registerKernelTranslations();

} // namespace ember::target
