//===- CostReport.td - ember-cost-report -------------------*- tablegen -*-===//

#ifndef EMBER_ANALYSIS_COST_TD
#define EMBER_ANALYSIS_COST_TD

include "mlir/Pass/PassBase.td"

def EmberCostReport : Pass<"ember-cost-report", "::mlir::ModuleOp"> {
  let summary = "Print per-function counts of RNS primitives and bytes moved";
  let description = [{
    A static cost model of rns IR (run `ckks-to-rns` first; the IR is not
    changed). For every function it prints, to stdout:

    - `ntt`, `intt`: limb-transforms (limbs x polynomials), including the
      ones inside ModUp, ModDown and rescale, which are counted by their
      expansion (ModUp per digit: INTT of the digit, BConv to the other
      limbs of Q_l u P, NTT of those; ModDown: INTT of the dropped limbs,
      BConv to the kept ones, NTT; rescale: the same with one dropped limb).
    - `bconv`: base conversions and their multiply-adds (|in| x |out| x N).
    - `mod_up`, `mod_down`, `rescale` ops and `modulus switches`
      (mod_down + rescale: the ModSwitch passes over a ciphertext; a
      merged ModDown counts once).
    - `ks_inner_product`, `automorphism` (per polynomial).
    - `elementwise kernels`: one per elementwise op outside a fusion
      region, one per `rns.fused` without a transform (a fused region with
      an (I)NTT runs inside that transform's kernel), plus the subtract and
      scale of each ModDown/rescale polynomial.
    - `bytes`: DRAM traffic at the module's N (`#ckks.params`), one limb =
      N x 8 bytes (64-bit words): every kernel reads its inputs and writes
      its outputs once; a fused region only its external inputs and
      results; key-switch inner products read their keys. L2 reuse is not
      modelled.

    After `rns-expand-modswitch` the same work appears as explicit `ntt`,
    `intt`, `bconv` and elementwise ops (`concat`, `drop_limbs` are free),
    and the `mod_up`/`mod_down`/`rescale` lines read 0.

    The numbers are what the optimisations change: hoisting (`mod_up`),
    double hoisting and `rns-merge-moddown` (`mod_down`, `modulus
    switches`), `rns-fuse-elementwise` (`elementwise kernels`, `bytes`).
  }];
  let options = [
    Option<"logN", "log-n", "int64_t", /*default=*/"0",
           "log2 of the ring degree when the module has no #ckks.params">,
  ];
}

#endif // EMBER_ANALYSIS_COST_TD
