//===- InsertRelin.td - ckks-insert-relin -------------------*- tablegen -*-===//
#ifndef EMBER_TRANSFORMS_INSERTRELIN_TD
#define EMBER_TRANSFORMS_INSERTRELIN_TD

include "mlir/Pass/PassBase.td"

def InsertRelin : Pass<"ckks-insert-relin", "mlir::ModuleOp"> {
  let summary = "Relinearize lazily: only where a degree-2 ciphertext is needed";
  let description = [{
    **What.** Removes every `ckks.relinearize` and places them again: a
    degree-3 ciphertext (the result of `ckks.mul`) stays degree 3 through
    additions, subtractions, negations, plaintext operations and
    mod_drops, and is relinearized once, just before the first use that
    needs degree 2: an op with the `NeedsLinearInput` trait (another
    `ckks.mul`, rotations, conjugation, key switching, and `ckks.rescale`:
    rescaling (c0, c1, c2) would round c2, whose error decrypts multiplied
    by s^2 -- on a degree-59 Chebyshev evaluation that costs 7 bits), a
    `func.return` (outputs are degree 2), or any op outside the ckks dialect. Later uses
    of the same value, whatever they are, take the relinearized value.
    `(a*b) + (c*d)` returned is relinearized once, after the addition,
    instead of twice. The pass runs after `ckks-manage-levels`, which
    places the rescales this rule reads.

    **Why.** Relinearization is a key switch, the most expensive CKKS
    operation; summing degree-3 products first (one extra polynomial per
    addition) saves key switches. Lazy relinearization as in Cheddar 5.2,
    which takes it from Lee et al., "High-precision bootstrapping for
    approximate homomorphic encryption by error variance minimization"
    (Eurocrypt 2022).

    **Off switch.** `lazy=false` relinearizes right after every `ckks.mul`.
  }];
  let dependentDialects = ["::ember::ckks::CKKSDialect"];
  let options = [
    Option<"lazy", "lazy", "bool", /*default=*/"true",
           "Relinearize before the first use that needs degree 2 (true) or "
           "right after every multiplication (false)">,
  ];
}

#endif // EMBER_TRANSFORMS_INSERTRELIN_TD
