//===- Pipelines.h - named Ember pipelines --------------------------------===//
#pragma once

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace ember {

/// Options of `--ember-pipeline=fhe-to-rns{...}`; each optimisation has an
/// off switch so its gain can be measured.
struct FheToRnsOptions : public mlir::PassPipelineOptions<FheToRnsOptions> {
  Option<std::string> scheme{
      *this, "scheme",
      llvm::cl::desc("ckks (real or complex slots), bgv or bfv (integer "
                     "slots modulo plaintext-modulus: fhe-to-bgv, "
                     "bgv-to-rns)"),
      llvm::cl::init("ckks")};
  Option<std::string> bfvMult{
      *this, "bfv-mult", llvm::cl::desc("BFV's product: behz (default) or hps"),
      llvm::cl::init("behz")};
  Option<uint64_t> plaintextModulus{
      *this, "plaintext-modulus",
      llvm::cl::desc("BGV's and BFV's plaintext modulus t (a prime, 1 mod "
                     "2N)"),
      llvm::cl::init(65537)};
  Option<std::string> params{*this, "params",
                             llvm::cl::desc("Named parameter set A, B or C "
                                            "(empty: chosen from the program)"),
                             llvm::cl::init("")};
  Option<int64_t> logN{*this, "log-n",
                       llvm::cl::desc("Ring degree N = 2^log-n (13..17; 0: "
                                      "the smallest that fits)"),
                       llvm::cl::init(0)};
  Option<int64_t> scaleBits{*this, "scale-bits",
                            llvm::cl::desc("Bits of the default scale and of "
                                           "each scale prime (0: 40, or less "
                                           "when declared ranges need it)"),
                            llvm::cl::init(0)};
  Option<std::string> word{
      *this, "word",
      llvm::cl::desc("Word size: 64, 32 (double-prime scaling) or auto (the "
                     "cost model's choice; fhe-to-ckks); empty: 64, or the "
                     "named set's"),
      llvm::cl::init("")};
  Option<int64_t> dnum{*this, "dnum",
                       llvm::cl::desc("Key-switching digits (0: the fewest "
                                      "that are secure)"),
                       llvm::cl::init(0)};
  Option<int64_t> extraLevels{
      *this, "extra-levels",
      llvm::cl::desc("Levels beyond the program's depth (left at the "
                     "outputs, e.g. for further computation)"),
      llvm::cl::init(0)};
  Option<bool> encapsulate{
      *this, "encapsulate",
      llvm::cl::desc("Bootstrapping keeps a dense secret and switches to an "
                     "ephemeral sparse one around ModRaise (sparse-secret "
                     "encapsulation); false: a sparse (h = 192) secret"),
      llvm::cl::init(true)};
  Option<std::string> bootstrap{
      *this, "bootstrap",
      llvm::cl::desc("manual: the program's own bootstraps; auto: also "
                     "insert them where the program is deeper than the "
                     "chain, at the least predicted cost (fhe-to-ckks)"),
      llvm::cl::init("manual")};
  Option<int64_t> bootstrapLevels{
      *this, "bootstrap-levels",
      llvm::cl::desc("With bootstrap=auto, the levels between bootstraps "
                     "(0: the most 128-bit parameters allow)"),
      llvm::cl::init(0)};
  Option<std::string> bootstrapStopAfter{
      *this, "bootstrap-stop-after",
      llvm::cl::desc("Measurement aid: stop bootstraps after coeff_to_slot "
                     "or eval_mod (fhe-to-ckks)"),
      llvm::cl::init("")};
  Option<int64_t> bootstrapCosineBits{
      *this, "bootstrap-cosine-bits",
      llvm::cl::desc("EvalMod's cosine interpolant: its dropped tail at "
                     "most 2^-bits in the message (fhe-to-ckks)"),
      llvm::cl::init(27)};
  Option<std::string> security{*this, "security",
                               llvm::cl::desc("128 or none (insecure test "
                                              "mode)"),
                               llvm::cl::init("128")};
  Option<std::string> rescale{*this, "rescale",
                              llvm::cl::desc("Rescale strategy: eager or lazy"),
                              llvm::cl::init("lazy")};
  Option<bool> rescaleOutputs{
      *this, "rescale-outputs",
      llvm::cl::desc("Lazy rescale: rescale returned values above the "
                     "waterline (false: return them at their scale, e.g. a "
                     "lone product at ~S^2)"),
      llvm::cl::init(true)};
  Option<bool> lazyRelin{*this, "lazy-relin",
                         llvm::cl::desc("Relinearize lazily (Cheddar 5.2)"),
                         llvm::cl::init(true)};
  Option<bool> expandModSwitch{
      *this, "expand-modswitch",
      llvm::cl::desc("Expand ModUp/ModDown/rescale into INTT, BConv, NTT "
                     "before fusion (off: the kernel lowering expands them)"),
      llvm::cl::init(false)};
  Option<bool> hoisting{*this, "hoisting",
                        llvm::cl::desc("Hoist rotations (one ModUp) and sums "
                                       "of rotations (one ModDown)"),
                        llvm::cl::init(true)};
  Option<bool> doubleHoisting{
      *this, "double-hoisting",
      llvm::cl::desc("Double hoisting of matrix-vector products (CKKS): each "
                     "giant step's inner sum of plaintext products taken "
                     "over Q_l u P before one ModDown (ckks.hoisted_dot), "
                     "and the baby-step giant-step split chosen for it; "
                     "needs hoisting"),
      llvm::cl::init(true)};
  Option<bool> mergeModDown{*this, "merge-moddown",
                            llvm::cl::desc("Merge ModDown with the following "
                                           "rescale and sum before ModDown"),
                            llvm::cl::init(true)};
  Option<std::string> keyswitch{
      *this, "keyswitch",
      llvm::cl::desc("Key switching: auto (cost model per key switch), "
                     "hybrid or klss (rns-select-keyswitch)"),
      llvm::cl::init("auto")};
  Option<int64_t> keyMemoryBudgetMiB{
      *this, "key-memory-budget-mib",
      llvm::cl::desc("Device memory for evaluation keys in MiB (0: "
                     "unlimited); KLSS keys are larger"),
      llvm::cl::init(0)};
  Option<int64_t> klssGamma{
      *this, "klss-gamma",
      llvm::cl::desc("KLSS key group size for parameters chosen from the "
                     "program (0: none, or 4 when keyswitch=klss); named "
                     "sets carry their own"),
      llvm::cl::init(0)};
  Option<int64_t> klssT{*this, "klss-t",
                        llvm::cl::desc("KLSS temporary primes r' (0: the "
                                       "fewest the exact products need)"),
                        llvm::cl::init(0)};
  Option<bool> klssForm{
      *this, "klss-form",
      llvm::cl::desc("With keyswitch=auto, give parameters chosen from the "
                     "program a KLSS form where the cost model predicts a "
                     "win (rns-select-keyswitch klss-form)"),
      llvm::cl::init(true)};
  Option<bool> fusion{*this, "fusion",
                      llvm::cl::desc("Fuse elementwise chains (and NTT "
                                     "prologues/epilogues) into one kernel"),
                      llvm::cl::init(true)};
  Option<bool> liftRotation{
      *this, "lift-rotation",
      llvm::cl::desc("Fold a rotation's sigma_g(c0) + ModDown(acc)#0 into the "
                     "ModDown's last NTT as a permuted lifted addend (with "
                     "fusion; rns-merge-moddown lift-rotation)"),
      llvm::cl::init(true)};
  Option<bool> liftAddends{
      *this, "lift-addends",
      llvm::cl::desc("Add y in a plain ModDown's last NTT: y + ModDown(acc)#i "
                     "as a lifted addend (with fusion; rns-merge-moddown "
                     "lift-addends)"),
      llvm::cl::init(true)};
  Option<bool> hoistSiblings{
      *this, "hoist-siblings",
      llvm::cl::desc("Horizontal fusion may hoist a sibling kernel up to an "
                     "earlier one that reads the same buffers (the giant "
                     "steps of a matrix-vector product; rns-fuse-elementwise "
                     "hoist-siblings)"),
      llvm::cl::init(true)};
  Option<bool> lazySums{
      *this, "lazy-sums",
      llvm::cl::desc("Generated kernels sum three or more products "
                     "unreduced and reduce each sum once (64-bit words; "
                     "rns-fuse-elementwise lazy-sums)"),
      llvm::cl::init(true)};
  Option<int64_t> lanes{
      *this, "lanes",
      llvm::cl::desc("Coefficients per thread of generated CUDA kernels: "
                     "1, 2 or 4; 0 picks 2 at 32-bit words, 1 at 64 "
                     "(rns-fuse-elementwise lanes)"),
      llvm::cl::init(0)};
  Option<int64_t> devices{
      *this, "devices",
      llvm::cl::desc("GPUs of one host to spread the program over "
                     "(kernel-partition-devices; fhe-to-kernel only)"),
      llvm::cl::init(1)};
  Option<int64_t> linkGBps{
      *this, "link-gbps",
      llvm::cl::desc("GPU-to-GPU bandwidth the partition assumes (GB/s; "
                     "120, the best of 60-350 measured on two H200s)"),
      llvm::cl::init(120)};
  Option<std::string> partition{
      *this, "partition",
      llvm::cl::desc("With devices > 1: operations (whole operations per "
                     "GPU, the schedule's choice) or limbs (every "
                     "polynomial's limbs split over all the GPUs, base "
                     "conversions gathered; expands the modulus switches "
                     "and uses hybrid key switching; "
                     "kernel-partition-devices limbs)"),
      llvm::cl::init("operations")};
  Option<bool> recompute{
      *this, "recompute",
      llvm::cl::desc("With devices > 1, run a kernel again on the GPU that "
                     "reads its result where the model prices that below "
                     "the transfer (kernel-partition-devices recompute)"),
      llvm::cl::init(true)};
  Option<bool> partialSums{
      *this, "partial-sums",
      llvm::cl::desc("With devices > 1, split a sum whose terms are on "
                     "several GPUs into one partial sum per GPU "
                     "(kernel-partition-devices partial-sums)"),
      llvm::cl::init(true)};
  Option<int64_t> concurrency{
      *this, "concurrency",
      llvm::cl::desc("Percent of extra arena the memory plan may take so "
                     "that independent ops stay unordered in the GPU's graph "
                     "(0: the minimal arena, which suits the CPU; "
                     "kernel-plan-memory concurrency; fhe-to-kernel only)"),
      llvm::cl::init(0)};
  Option<bool> ksOverlap{
      *this, "ks-overlap",
      llvm::cl::desc("Run a ModDown's INTT and BConv beside its inner "
                     "product's kept rows on the GPU; the memory plan keeps "
                     "the digits alive through the ModDown "
                     "(kernel-plan-memory ks-overlap; one device; "
                     "fhe-to-kernel only)"),
      llvm::cl::init(true)};
  Option<bool> printMemory{
      *this, "print-memory",
      llvm::cl::desc("Print the planned arena of each function "
                     "(kernel-plan-memory print; fhe-to-kernel only)"),
      llvm::cl::init(false)};
  Option<int64_t> linkLatencyUs{
      *this, "link-latency-us",
      llvm::cl::desc("Fixed cost of one GPU-to-GPU transfer the partition "
                     "assumes (microseconds)"),
      llvm::cl::init(12)};
};

/// Appends the fhe -> ckks -> rns pipeline to `pm` (a module pass manager).
void buildFheToRnsPipeline(mlir::OpPassManager &pm,
                           const FheToRnsOptions &options);

/// fhe-to-rns without expand-modswitch, then rns-to-kernel and
/// kernel-plan-memory.
void buildFheToKernelPipeline(mlir::OpPassManager &pm,
                              const FheToRnsOptions &options);

/// Registers the named pipelines (fhe-to-rns, fhe-to-kernel).
void registerEmberPipelines();

} // namespace ember
