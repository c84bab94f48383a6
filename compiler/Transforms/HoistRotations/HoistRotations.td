//===- HoistRotations.td - ckks-hoist-rotations -------------*- tablegen -*-===//
#ifndef EMBER_TRANSFORMS_HOISTROTATIONS_TD
#define EMBER_TRANSFORMS_HOISTROTATIONS_TD

include "mlir/Pass/PassBase.td"

def HoistRotations : Pass<"ckks-hoist-rotations", "mlir::ModuleOp"> {
  let summary = "Share one ModUp among rotations of one ciphertext (hoisting)";
  let description = [{
    **What.** Three rewrites, in this order, per block:

    0. *Double hoisting with plaintext products.* Addition trees whose
       leaves are `ckks.mul_plain` of a rotation of one ciphertext `x` (or
       of `x`) by a `ckks.encode` constant, all read directly or all
       through a `ckks.rescale` (then `x` is rescaled once, before the
       rotations: rotation and rescaling commute), become
       `ckks.hoisted_dot %x by [offsets] weights(...)`: the products are
       taken of the key products over Q_l u P, one ModDown per sum
       (Bossuat et al., Eurocrypt 2021, 4.2: a baby-step giant-step
       matrix product's inner sums). Applied only when every use of those
       rotations is such a product and the sums are fewer than the
       rotations (each hoisted rotation had its own ModDown); a lone
       product counts as a sum of one. fhe-expand-linear-transform's
       split assumes it (its `double-hoisting` option).
    1. *Double hoisting.* An addition tree (`ckks.add`) whose leaves are
       rotations of one ciphertext `x` (and possibly `x` itself, offset 0),
       whose rotations and partial sums have no other users, becomes one
       `ckks.hoisted_rotate_sum %x by [offsets]`: one ModUp for all
       rotations, the key products accumulated in the extended basis QP and
       one ModDown for the sum (Bossuat, Mouchet, Troncoso-Pastoriza,
       Hubaux, Eurocrypt 2021; Cheddar 5.1). Needs at least two rotations.
    2. *Hoisting.* Two or more `ckks.rotate` of the same value become one
       `ckks.hoisted_rotate %x by [offsets]` with one result per rotation,
       placed at the first rotation: the ModUp (digit decomposition and
       basis extension of c1) is computed once (Halevi and Shoup, Crypto
       2018; Cheddar 5.1).

    A single rotation (unless `single`), rotations of different
    ciphertexts, and sums whose partial results are used elsewhere are left
    alone. With `single=true` a lone rotation becomes a one-offset
    `ckks.hoisted_rotate` too: ModUp of c1 first, then the automorphism on
    the raised digits, which rns-fuse-elementwise folds into the inner
    product's reads (`ks_inner_product {galois}`) and into the c0 side's
    loads, so that no automorphism pass over c1 is left (the pipeline sets
    it with fusion on: without that fold the digits' automorphism moves
    dnum times more limbs than c1's).

    **Why.** In hybrid key switching ModUp and ModDown are most of a
    rotation's cost; n rotations of one ciphertext summed cost n ModUps and
    n ModDowns without hoisting and one of each with double hoisting.

    **Off switch.** `enabled=false` makes the pass a no-op;
    `double-hoisting=false` keeps only rewrite 2; `products=false` drops
    rewrite 0.
  }];
  let dependentDialects = ["::ember::ckks::CKKSDialect"];
  let options = [
    Option<"enabled", "enabled", "bool", /*default=*/"true",
           "Run the pass (false: leave the IR unchanged)">,
    Option<"doubleHoisting", "double-hoisting", "bool", /*default=*/"true",
           "Turn sums of rotations into ckks.hoisted_rotate_sum">,
    Option<"single", "single", "bool", /*default=*/"false",
           "Hoist a lone rotation too (its automorphism folded into the "
           "inner product by rns-fuse-elementwise)">,
    Option<"products", "products", "bool", /*default=*/"true",
           "With double-hoisting: sums of plaintext products of rotations "
           "into ckks.hoisted_dot (rewrite 0)">,
  ];
}

#endif // EMBER_TRANSFORMS_HOISTROTATIONS_TD
