//===- Pipelines.cpp - named Ember pipelines ------------------------------===//
#include "compiler/Pipelines/Pipelines.h"

#include "compiler/Conversions/BGVToRNS/BGVToRNS.h"
#include "compiler/Conversions/CKKSToRNS/CKKSToRNS.h"
#include "compiler/Conversions/FHEToBGV/FHEToBGV.h"
#include "compiler/Conversions/FHEToCKKS/FHEToCKKS.h"
#include "compiler/Conversions/RNSToKernel/RNSToKernel.h"
#include "compiler/Transforms/ExpandLinearTransform/ExpandLinearTransform.h"
#include "compiler/Transforms/ExpandModSwitch/ExpandModSwitch.h"
#include "compiler/Transforms/ExpandPolyEval/ExpandPolyEval.h"
#include "compiler/Transforms/FuseElementwise/FuseElementwise.h"
#include "compiler/Transforms/HoistRotations/HoistRotations.h"
#include "compiler/Transforms/InsertRelin/InsertRelin.h"
#include "compiler/Transforms/ManageLevels/ManageLevels.h"
#include "compiler/Transforms/MergeModDown/MergeModDown.h"
#include "compiler/Transforms/PartitionDevices/PartitionDevices.h"
#include "compiler/Transforms/PlanMemory/PlanMemory.h"
#include "compiler/Transforms/RecordInterface/RecordInterface.h"
#include "compiler/Transforms/SelectKeySwitch/SelectKeySwitch.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

/// Whether the kernel program is to be split by limbs over several GPUs.
static bool limbSplit(const ember::FheToRnsOptions &options) {
  return options.devices > 1 && options.partition == "limbs";
}

/// The rns passes both schemes run after their lowering to rns: shared key
/// loads (canonicalize, CSE), key-switch selection, ModDown merging,
/// optionally the expanded modulus switches, fusion.
static void addRnsPasses(mlir::OpPassManager &pm,
                         const ember::FheToRnsOptions &options,
                         bool expandModSwitch) {
  using namespace ember;
  // Share evaluation-key loads, fold automorphisms by 1 and dead views.
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // Hybrid or KLSS per key switch, on the structured chains ckks-to-rns or
  // bgv-to-rns made (before merging rewrites their ModDowns; a BGV KLSS
  // ModDown is t-corrected like the others); keys fit the budget.
  RNSSelectKeySwitchOptions select;
  select.method = options.keyswitch;
  // A limb split handles hybrid key switching (KLSS's T digits are not
  // split): auto means hybrid there.
  if (limbSplit(options) && select.method == "auto")
    select.method = "hybrid";
  select.memoryBudgetMiB = options.keyMemoryBudgetMiB;
  // Parameters chosen from the program (not a named or explicit set, no
  // KLSS form asked for) get a KLSS form where the model predicts a win.
  select.klssForm =
      options.klssForm && options.params.empty() && options.klssGamma == 0;
  pm.addPass(createRNSSelectKeySwitch(select));
  // Fewer ModSwitch passes: ModDown + rescale merged, sums before ModDown.
  // Fusion on: a merged ModDown reads P*y + acc in place (lifted), and a
  // rotation's sigma(c0), or another addend, is added in its ModDown's
  // epilogue.
  pm.addPass(createRNSMergeModDown(RNSMergeModDownOptions{
      options.mergeModDown, options.mergeModDown, options.fusion,
      options.fusion && options.liftRotation,
      // Not over several devices: with d0, d1 and d2 in one kernel of four
      // inputs, kernel-partition-devices orders the input transfers of a
      // branch worse (tests/lit/Transforms/partition_devices/branches.mlir:
      // 1.20x predicted without, under min-gain with).
      options.fusion && options.liftAddends && options.devices <= 1}));
  // Optionally expose the INTT/BConv/NTT chains so fusion sees their tails.
  if (expandModSwitch)
    pm.addPass(createRNSExpandModSwitch());
  // Fuse last: merging made the mul_p/add chains that fusion groups.
  pm.addPass(createRNSFuseElementwise(RNSFuseElementwiseOptions{
      options.fusion, /*fuseTransforms=*/true,
      /*horizontal=*/true, options.hoistSiblings,
      /*permutedLoads=*/true, options.lazySums, options.lanes}));
}

/// scheme=bgv: the linear-transform expansion, fhe-to-bgv (parameters from
/// depth, t and noise; lazy modulus switching; factors), bgv-to-rns, then
/// the rns passes (a merged ModDown by P q_l is t-corrected like the
/// others). scheme=bfv: the same passes, fhe-to-bgv in its BFV variant
/// (no switching; HPS products; key switches not t-corrected). Rotations of
/// one value share their ModUp (bgv-to-rns's hoisted form and CSE).
static void buildBgvToRnsPipeline(mlir::OpPassManager &pm,
                                  const ember::FheToRnsOptions &options) {
  using namespace ember;
  // Matrix-vector products (ember.matvec) by baby-step giant-step: the
  // rotations, products with (integer) diagonals and sums fhe-to-bgv takes.
  pm.addPass(createExpandLinearTransform());
  pm.addPass(mlir::createCanonicalizerPass());
  FHEToBGVOptions fheToBgv;
  fheToBgv.scheme = options.scheme;
  fheToBgv.plaintextModulus = options.plaintextModulus;
  fheToBgv.logN = options.logN;
  fheToBgv.dnum = options.dnum;
  fheToBgv.security = options.security;
  fheToBgv.lazySwitch = options.rescale != "eager";
  fheToBgv.klssGamma = options.klssGamma;
  if (options.keyswitch == "klss" && options.klssGamma == 0)
    fheToBgv.klssGamma = 4;
  pm.addPass(createFHEToBGV(fheToBgv));
  pm.addPass(createCKKSRecordInterface());
  // Rotations hoisted (the ModUps of one value's rotations shared by the
  // CSE of addRnsPasses) unless hoisting=false.
  pm.addPass(
      createBGVToRNS(BGVToRNSOptions{options.bfvMult, options.hoisting}));
  // ModUp/ModDown stay structured (rns-expand-modswitch's expansion is not
  // t-corrected, so expand-modswitch does not apply to bgv).
  addRnsPasses(pm, options, /*expandModSwitch=*/false);
}

void ember::buildFheToRnsPipeline(mlir::OpPassManager &pm,
                                  const FheToRnsOptions &options) {
  if (options.scheme == "bgv" || options.scheme == "bfv")
    return buildBgvToRnsPipeline(pm, options);
  // Polynomials into multiplications and additions at minimal depth, first:
  // the depth that fhe-to-ckks budgets counts their levels.
  pm.addPass(createExpandPolyEval());
  // Matrix-vector products by baby-step giant-step (its rotations hoisted
  // and its ModDowns merged by the passes below; the split assumes double
  // hoisting with products over Q_l u P when hoisting is on).
  const bool doubleHoisting = options.hoisting && options.doubleHoisting;
  pm.addPass(createExpandLinearTransform(
      ExpandLinearTransformOptions{doubleHoisting}));
  // Fold rotate-by-0, rotate-of-rotate, x + 0 while still in fhe (and drop
  // the expansion's unused baby steps).
  pm.addPass(mlir::createCanonicalizerPass());
  // Depth and slots decide N and the moduli; output is valid, eagerly managed
  // ckks.
  FHEToCKKSOptions fheToCkks;
  fheToCkks.paramSet = options.params;
  fheToCkks.security = options.security;
  fheToCkks.logN = options.logN;
  fheToCkks.scaleBits = options.scaleBits;
  fheToCkks.dnum = options.dnum;
  fheToCkks.word = options.word;
  fheToCkks.extraLevels = options.extraLevels;
  fheToCkks.encapsulate = options.encapsulate;
  fheToCkks.bootstrap = options.bootstrap;
  fheToCkks.bootstrapLevels = options.bootstrapLevels;
  fheToCkks.keyMemoryBudgetMiB = options.keyMemoryBudgetMiB;
  fheToCkks.bootstrapStopAfter = options.bootstrapStopAfter;
  fheToCkks.bootstrapCosineBits = options.bootstrapCosineBits;
  fheToCkks.doubleHoisting = doubleHoisting;
  // A KLSS form for parameters chosen from the program: asked for, or
  // implied by a forced keyswitch=klss (gamma 4, the fewest T primes).
  fheToCkks.klssGamma = options.klssGamma;
  fheToCkks.klssT = options.klssT;
  if (options.keyswitch == "klss" && options.params.empty() &&
      options.klssGamma == 0)
    fheToCkks.klssGamma = 4;
  pm.addPass(createFHEToCKKS(fheToCkks));
  // Re-place rescales/mod_drops with the chosen strategy (exact scales).
  pm.addPass(createManageLevels(
      ManageLevelsOptions{options.rescale, 0, options.rescaleOutputs}));
  // Relinearize lazily where it is free: after the rescales are placed, so
  // that a product is relinearized before it is rescaled (never rounding
  // c2, whose error decrypts multiplied by s^2).
  pm.addPass(createInsertRelin(InsertRelinOptions{options.lazyRelin}));
  // Fold what level management exposed, and merge duplicate encodes.
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // Hoist last at the ckks level: the rotations and their sums are final now.
  // A lone rotation too when fusion folds its digits' automorphism into the
  // inner product.
  pm.addPass(createHoistRotations(HoistRotationsOptions{
      options.hoisting, options.hoisting, options.hoisting && options.fusion,
      doubleHoisting}));
  // Keep slots, levels and scales of the interface: rns types drop them.
  pm.addPass(createCKKSRecordInterface());
  // Expand every ckks op into RNS polynomial ops (hybrid key switching).
  pm.addPass(createCKKSToRNS());
  // A limb split needs ModUp and ModDown as intt, bconv, ntt and concat.
  addRnsPasses(pm, options, options.expandModSwitch || limbSplit(options));
}

void ember::buildFheToKernelPipeline(mlir::OpPassManager &pm,
                                     const FheToRnsOptions &options) {
  // The structured modulus switches must survive: each becomes one runtime
  // call whose rounding is tested in the runtime.
  // (rns-to-kernel also lowers expanded IR; expand-modswitch stays off by
  // default.)
  buildFheToRnsPipeline(pm, options);
  // Runtime calls and generated kernels over explicit buffers.
  pm.addPass(createRNSToKernel());
  // Several GPUs: each kernel op gets its device, transfers where buffers
  // cross.
  if (options.devices > 1) {
    KernelPartitionDevicesOptions partition;
    partition.devices = options.devices;
    partition.linkGBps = options.linkGBps;
    partition.linkLatencyUs = options.linkLatencyUs;
    partition.recompute = options.recompute;
    partition.partialSums = options.partialSums;
    partition.mode = options.partition;
    pm.addPass(createKernelPartitionDevices(partition));
  }
  // Last: every buffer is final now; place them in one arena (per device).
  KernelPlanMemoryOptions memory;
  memory.concurrency = options.concurrency;
  memory.ksOverlap = options.ksOverlap && options.devices <= 1;
  memory.print = options.printMemory;
  pm.addPass(createKernelPlanMemory(memory));
}

void ember::registerEmberPipelines() {
  mlir::PassPipelineRegistration<FheToRnsOptions>(
      "fhe-to-rns",
      "The Ember pipeline from the fhe dialect down to rns polynomials",
      buildFheToRnsPipeline);
  mlir::PassPipelineRegistration<FheToRnsOptions>(
      "fhe-to-kernel",
      "fhe-to-rns (structured modulus switches), then rns-to-kernel and "
      "kernel-plan-memory: what the emitters read",
      buildFheToKernelPipeline);
}
