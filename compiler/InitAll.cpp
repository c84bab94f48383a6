//===- InitAll.cpp - register every Ember pass
//-----------------------------===//
// (The dialects are registered in InitDialects.cpp.)
#include "compiler/InitAll.h"

#include "compiler/Analysis/Range/RangeAnalysis.h"
#include "compiler/Conversions/BGVToRNS/BGVToRNS.h"
#include "compiler/Conversions/FHEToBGV/FHEToBGV.h"
#include "compiler/Conversions/FHEToCKKS/FHEToCKKS.h"
#include "compiler/Conversions/FHEToLWE/FHEToLWE.h"
#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Transforms/ExpandLinearTransform/ExpandLinearTransform.h"
#include "compiler/Transforms/ExpandPolyEval/ExpandPolyEval.h"
#include "compiler/Transforms/HoistRotations/HoistRotations.h"
#include "compiler/Transforms/InsertRelin/InsertRelin.h"
#include "compiler/Transforms/ManageLevels/ManageLevels.h"
#include "compiler/Transforms/PlaceBootstraps/PlaceBootstraps.h"

#include "compiler/Analysis/Cost/CostReport.h"
#include "compiler/Conversions/CKKSToRNS/CKKSToRNS.h"
#include "compiler/Transforms/ExpandModSwitch/ExpandModSwitch.h"
#include "compiler/Transforms/FuseElementwise/FuseElementwise.h"
#include "compiler/Transforms/MergeModDown/MergeModDown.h"
#include "compiler/Transforms/SelectKeySwitch/SelectKeySwitch.h"

#include "compiler/Conversions/RNSToKernel/RNSToKernel.h"
#include "compiler/Transforms/PartitionDevices/PartitionDevices.h"
#include "compiler/Transforms/PlanMemory/PlanMemory.h"
#include "compiler/Transforms/RecordInterface/RecordInterface.h"

#include "mlir/Transforms/Passes.h"

void ember::registerAllEmberPasses() {
  mlir::registerTransformsPasses(); // canonicalize, cse, symbol-dce, ...
  registerRangeAnalysisPasses();
  registerFHEToCKKSPasses();
  registerFHEToLWEPasses();
  registerFHEToBGVPasses();
  registerBGVToRNSPasses();
  registerManageLevelsPasses();
  registerExpandLinearTransformPasses();
  registerExpandPolyEvalPasses();
  registerPlaceBootstrapsPasses();
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
  registerPartitionDevicesPasses();
  registerPlanMemoryPasses();
  registerEmberPipelines();
}
