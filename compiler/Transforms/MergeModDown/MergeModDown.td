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

    3. **A rotation's c0 side into its ModDown** (lift-rotation, after the
       two above). `sigma_g(y) + ModDown(a)#0` (a rotation's
       `rot(c0) + ModDown(acc0)`; likewise for a prefix of the results,
       with one g) becomes `mod_down(a) lifted(y) {lifted_galois = g}`:
       the switch of `a + P sigma_g(y)`. The runtime reads y permuted in
       the last NTT's epilogue, so no separate kernel reads sigma_g(y) and
       the ModDown's result to add them. Only plain ModDowns (to Q_l) in
       NTT form, with y defined before the ModDown, and only where the sum
       is read by no elementwise op (which would fuse the add into its own
       kernel: the permuted read costs less there than in the NTT, measured
       on an H200).
    4. **Other addends into a plain ModDown** (lift-addends, with 3).
       `y + ModDown(a)#i`, y any polynomial defined before the ModDown
       (the d0 and d1 of a product whose output is not rescaled), becomes
       `mod_down(a) lifted(y)`: y is read in order in the last NTT's
       epilogue, under the same conditions as 3. y's kernel then writes y
       where a kernel after the ModDown read y's operands and the ModDown's
       result: for one hmul+relin, d0 and d1 join d2's kernel (which reads
       the same operands) and two polynomials fewer cross memory.

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
    Option<"liftRotation", "lift-rotation", "bool", /*default=*/"true",
           "Fold a rotation's sigma_g(c0) + ModDown(acc)#0 into the "
           "ModDown as a permuted lifted addend (rewrite 3)">,
    Option<"liftAddends", "lift-addends", "bool", /*default=*/"true",
           "Fold y + ModDown(acc)#i, y defined before the ModDown, into "
           "the ModDown as a lifted addend read in order (rewrite 4)">,
  ];
  let dependentDialects = ["::ember::rns::RNSDialect"];
}

#endif // EMBER_TRANSFORMS_MERGEMODDOWN_TD
