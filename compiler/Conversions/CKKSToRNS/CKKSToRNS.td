//===- CKKSToRNS.td - ckks-to-rns conversion ---------------*- tablegen -*-===//

#ifndef EMBER_CONVERSIONS_CKKSTORNS_TD
#define EMBER_CONVERSIONS_CKKSTORNS_TD

include "mlir/Pass/PassBase.td"

def CKKSToRNS : Pass<"ckks-to-rns", "::mlir::ModuleOp"> {
  let summary = "Lower ckks ciphertext ops to rns polynomial ops";
  let description = [{
    Expands every `ckks` op into RNS polynomial operations over the modulus
    chain of the module's `#ckks.params`. A ciphertext at level l of degree
    d becomes d values of type `!rns.poly<ntt, q[0:l+1]>` (a 1:N type
    conversion, function signatures and returns included); a plaintext
    becomes one.

    - add/sub/neg, add_plain/sub_plain/mul_plain: limb-wise ops per
      polynomial (the shorter ciphertext is padded with zeros).
    - mul: tensor product `(a0 b0, a0 b1 + a1 b0, a1 b1)` (degree 3).
    - rescale: one `rns.rescale` of all polynomials; mod_drop:
      `rns.drop_limbs`.
    - relinearize, rotate, conjugate, keyswitch: hybrid key switching
      (Phantom III-D): `rns.decompose` splits the polynomial to switch into
      dnum digits of consecutive Q limbs (`ember::digitSizes`: equal counts
      where P covers them, else balanced by the primes' bits; uneven sizes
      allowed; at level l the digits are cut at q_l), `rns.mod_up` raises
      every digit to Q_l u P, `rns.ks_inner_product` multiplies with the
      evaluation key (`rns.load_key relin` or `galois g`) into two
      accumulators over Q_l u P, and one `rns.mod_down` brings both back.
      Rotation by k uses `g = 5^k mod 2N`, conjugation `g = 2N - 1`; the
      automorphism is applied before the key switch.
    - hoisted_rotate: one ModUp of c1 shared by all offsets; per offset the
      automorphism is applied to the raised digits, then inner product and
      ModDown (Halevi-Shoup hoisting, Cheddar 5.1).
    - hoisted_rotate_sum: one ModUp, per offset automorphism and inner
      product, accumulation over Q_l u P and ONE ModDown for the whole sum
      (double hoisting, Bossuat et al. 2021; Cheddar 5.1).

    ModUp, ModDown and rescale stay structured ops: their INTT/BConv/NTT
    expansion belongs to the kernel lowering, which sees the whole chain
    (ARCHITECTURE.md, "one late lowering makes the key-switch chain"); the
    cost model (`--ember-cost-report`) counts them by that expansion.
  }];
  let dependentDialects = ["::ember::rns::RNSDialect"];
}

#endif // EMBER_CONVERSIONS_CKKSTORNS_TD
