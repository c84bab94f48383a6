//===- MergeModDown.td - rns-merge-moddown -----------------*- tablegen -*-===//

#ifndef EMBER_TRANSFORMS_MERGEMODDOWN_TD
#define EMBER_TRANSFORMS_MERGEMODDOWN_TD

include "mlir/Pass/PassBase.td"

def RNSMergeModDown : Pass<"rns-merge-moddown"> {
  let summary = "Merge ModDown with a following rescale; sum before ModDown";
  let description = [{
    Two rewrites that remove ModSwitch passes (INTT, BConv, NTT over a whole
    ciphertext), the most expensive routine of CKKS (Cheddar 2.3):

    1. **ModDown merging** (Cheddar 5.2, from MAD, MICRO 2023). A key
       switch's `rns.mod_down` to Q_l whose results (possibly after adding
       a polynomial y over Q_l, as relinearisation does for d0 and d1) are
       rescaled becomes one `rns.mod_down` from Q_l u P straight to Q_{l-1}:
       `rescale(y + ModDown(a)) = round((P*y + a) / (P*q_l))`. The lifted
       `y` are operands of the new op (`lifted(...)`: the runtime reads
       `P*y + a` in place, the dropped q_l limb in a small pre-pass and the
       kept limbs in the final NTT's epilogue), or, with
       lift-in-place=false, `P*y` is made by `rns.mul_p` (elementwise; its
       P limbs are zero) and added over Q_l u P. One modulus switch instead
       of two; the rounding error is no larger.
       Lazy rescaling (a rescale moved past the sum) is incompatible with
       this (Cheddar 5.2); ckks-manage-levels runs earlier and decides.
    2. **Accumulate before ModDown** (Cheddar 5.1, second hoisting form).
       Two ModDowns over the same bases whose results #i are terms of one
       sum (a tree of single-use `rns.add`s, e.g. rotations of a ciphertext
       summed: `(s + ModDown(a)#0) + (t + ModDown(b)#0)`, and likewise for
       #1) become one `ModDown(a + b)` that replaces one term of each sum
       while the other term is dropped: ModDown is linear up to rounding,
       and the accumulators are summed in the extended basis Q_l u P.
       Applied repeatedly, n key-switched terms of a sum need one ModDown
       even without `ckks-hoist-rotations` (which also shares the ModUp).

    IR without such patterns is left unchanged.
  }];
  let options = [
    Option<"mergeRescale", "merge-rescale", "bool", /*default=*/"true",
           "Merge a rescale into the preceding ModDown (rewrite 1)">,
    Option<"accumulate", "accumulate", "bool", /*default=*/"true",
           "Sum key-switch accumulators before one ModDown (rewrite 2)">,
    Option<"liftInPlace", "lift-in-place", "bool", /*default=*/"true",
           "Merged ModDowns read P*y + a in place (lifted operands) rather "
           "than after an rns.mul_p and an rns.add">,
  ];
  let dependentDialects = ["::ember::rns::RNSDialect"];
}

#endif // EMBER_TRANSFORMS_MERGEMODDOWN_TD
