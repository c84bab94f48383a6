//===- ExpandModSwitch.td - rns-expand-modswitch -----------*- tablegen -*-===//

#ifndef EMBER_TRANSFORMS_EXPANDMODSWITCH_TD
#define EMBER_TRANSFORMS_EXPANDMODSWITCH_TD

include "mlir/Pass/PassBase.td"

def RNSExpandModSwitch : Pass<"rns-expand-modswitch"> {
  let summary = "Expand mod_up, mod_down and rescale into INTT/BConv/NTT";
  let description = [{
    `ckks-to-rns` and `rns-merge-moddown` work on structured modulus
    switches, so that hoisting, ModDown deferral and ModDown merging are
    visible as IR structure. This pass expands them into the primitives of
    the runtime (Cheddar 2.3, Alg. 1; Phantom III-D):

    - `rns.mod_up`, per digit D_j = q[a:b] of Q_l u P: `intt` of the digit,
      `bconv` to the limbs below and above it, `ntt` of the new limbs, and
      `rns.concat` with the digit's own (still NTT-form) limbs.
    - `rns.mod_down` from B u D to B (D = P, or P and q_l when merged with a
      rescale) and `rns.rescale` (D = q_l), per polynomial: `drop_limbs`
      into the kept and dropped parts, `intt` of the dropped part, `bconv`
      to the kept basis, `ntt`, `sub`, `mul_inv` by D.

    Run it after `rns-merge-moddown` and before `rns-fuse-elementwise`, so
    that fusion puts the subtract and the scale into the NTT's epilogue
    (ARCHITECTURE.md: "NTT with the ModDown subtract and P^-1 scale fused
    on its end"). The fhe-to-rns pipeline leaves it off by default
    (`expand-modswitch=true` turns it on) because the kernel lowering
    batches the per-digit transforms itself and the cost report counts
    ModUp/ModDown only in structured form.
  }];
  let dependentDialects = ["::ember::rns::RNSDialect"];
}

#endif // EMBER_TRANSFORMS_EXPANDMODSWITCH_TD
