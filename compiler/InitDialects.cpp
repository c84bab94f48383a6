//===- InitDialects.cpp - register every Ember dialect --------------------===//
//
// Its own library (EmberInitDialects), so that tools that only parse and
// verify IR (the fuzz/fuzz_mlir harness) link the dialects without the
// passes.
//
//===----------------------------------------------------------------------===//
#include "compiler/InitAll.h"

#include "dialects/BGV/IR/BGVDialect.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/FHE/IR/FHEDialect.h"
#include "dialects/Kernel/IR/KernelDialect.h"
#include "dialects/LWE/IR/LWEDialect.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void ember::registerAllEmberDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::tensor::TensorDialect>();
  registry.insert<fhe::FHEDialect, ckks::CKKSDialect>();
  registry.insert<rns::RNSDialect>();
  registry.insert<kernel::KernelDialect>();
  registry.insert<lwe::LWEDialect>();
  registry.insert<bgv::BGVDialect>();
}
