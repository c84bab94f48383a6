//===- InitAll.cpp - register every Ember dialect and pass ----------------===//
#include "compiler/InitAll.h"

#include "compiler/Conversions/FHEToCKKS/FHEToCKKS.h"
#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Transforms/HoistRotations/HoistRotations.h"
#include "compiler/Transforms/InsertRelin/InsertRelin.h"
#include "compiler/Transforms/ManageLevels/ManageLevels.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/FHE/IR/FHEDialect.h"

#include "compiler/Analysis/Cost/CostReport.h"
#include "compiler/Conversions/CKKSToRNS/CKKSToRNS.h"
#include "compiler/Transforms/ExpandModSwitch/ExpandModSwitch.h"
#include "compiler/Transforms/FuseElementwise/FuseElementwise.h"
#include "compiler/Transforms/MergeModDown/MergeModDown.h"
#include "compiler/Transforms/SelectKeySwitch/SelectKeySwitch.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "compiler/Conversions/RNSToKernel/RNSToKernel.h"
#include "compiler/Transforms/PlanMemory/PlanMemory.h"
#include "compiler/Transforms/RecordInterface/RecordInterface.h"
#include "dialects/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void ember::registerAllEmberDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::tensor::TensorDialect>();
  registry.insert<fhe::FHEDialect, ckks::CKKSDialect>();
  registry.insert<rns::RNSDialect>();
  registry.insert<kernel::KernelDialect>();
}

void ember::registerAllEmberPasses() {
  mlir::registerTransformsPasses(); // canonicalize, cse, symbol-dce, ...
  registerFHEToCKKSPasses();
  registerManageLevelsPasses();
  registerInsertRelinPasses();
  registerHoistRotationsPasses();
  registerCKKSToRNSPasses();
  registerSelectKeySwitchPasses();
  registerMergeModDownPasses();
  registerExpandModSwitchPasses();
  registerFuseElementwisePasses();
  registerCostReportPasses();
  registerRecordInterfacePasses();
  registerRNSToKernelPasses();
  registerPlanMemoryPasses();
  registerEmberPipelines();
}
