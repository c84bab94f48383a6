//===- ExpandLinearTransform.td - fhe-expand-linear-transform -*- tablegen -*-===//
#ifndef EMBER_TRANSFORMS_EXPANDLINEARTRANSFORM_TD
#define EMBER_TRANSFORMS_EXPANDLINEARTRANSFORM_TD

include "mlir/Pass/PassBase.td"

def ExpandLinearTransform : Pass<"fhe-expand-linear-transform", "mlir::ModuleOp"> {
  let summary = "Expand fhe.linear_transform by baby-step giant-step";
  let description = [{
    **What.** `y = sum_j d_j * rot(x, o_j)` with n1 baby steps: each offset
    o = g + b (b = o mod n1, g = o - b) gives

        y = sum_g rot( sum_b roll(d_(g+b), g) * rot(x, b), g )

    (`roll(d, g)`, the diagonal rotated right by g at compile time, so that
    the giant rotation puts it back). The baby rotations are rotations of
    the one ciphertext x (`ckks-hoist-rotations` shares their ModUp); the
    giant rotations are summed (`rns-merge-moddown` merges their ModDowns:
    double hoisting). One plaintext product per diagonal: one level.

    **The split.** n1 is the attribute `baby` when set, else the power of
    two that minimizes the predicted time in units of one rotation's key
    switch, from the H200 profile of a set-B rotation
    (bench/profiles/h200_rotate_B_compiled.txt: ModUp 0.49, inner product
    0.11, ModDown 0.38): one shared ModUp plus an inner product and a
    ModDown per baby rotation, a ModUp and an inner product per giant
    rotation plus one merged ModDown, 0.02 per plaintext product; ties go
    to fewer Galois keys. For 64 consecutive diagonals it picks 8 x 8 (14
    keys), for 256 it picks 16 x 16.

    **Double hoisting** (`double-hoisting=true`, set by the pipeline with
    hoisting on). `ckks-hoist-rotations` turns each giant step's inner sum
    into a `ckks.hoisted_dot` (products over Q_l u P, one ModDown per sum)
    where the sums with a baby rotation are fewer than the baby rotations.
    The model then counts those ModDowns instead of one per baby rotation,
    and 0.032 per product (Q_l u P, 1.6x the limbs); among the splits
    within 10% of the fastest it takes the fewest Galois keys. For 64
    consecutive diagonals it picks 16 x 4 (18 keys; 32 x 2, 32 keys, is
    predicted 3% faster); bootstrapping's DFTs go from 8 x 8 to 16 x 4.

    **Why.** A matrix-vector product is the linear layer of every neural
    network and the CoeffToSlot / SlotToCoeff of bootstrapping; the diagonal
    method with baby-step giant-step needs about 2 sqrt(n) rotations and
    keys instead of n (Halevi-Shoup; Cheddar 5.1 and Athena for its
    hoisting).
  }];
  let dependentDialects = ["::ember::fhe::FHEDialect"];
  let options = [
    Option<"doubleHoisting", "double-hoisting", "bool", /*default=*/"false",
           "Choose the split for double hoisting with plaintext products "
           "over Q_l u P (ckks-hoist-rotations' ckks.hoisted_dot; the "
           "pipeline sets it with hoisting on)">,
  ];
}

#endif // EMBER_TRANSFORMS_EXPANDLINEARTRANSFORM_TD
