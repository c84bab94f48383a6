//===- BGVToRNS.td - bgv-to-rns conversion ------------------*- tablegen -*-===//
#ifndef EMBER_CONVERSIONS_BGVTORNS_TD
#define EMBER_CONVERSIONS_BGVTORNS_TD

include "mlir/Pass/PassBase.td"

def BGVToRNS : Pass<"bgv-to-rns", "::mlir::ModuleOp"> {
  let summary = "Lower bgv ciphertext ops to rns polynomial ops";
  let description = [{
    The bgv counterpart of `ckks-to-rns`, over the same chain attribute
    (`#ckks.params<..., plain = t>`) and the same structured ops, so that
    every rns pass (key-switch selection, ModDown merging, fusion) and
    both emitters apply unchanged. A ciphertext at level l of degree d
    becomes d `!rns.poly<ntt, q[0:l+1]>` values (BGV ciphertexts live in
    NTT form, like CKKS's: Phantom II-C); a plaintext one.

    - add/sub/neg, add_plain/sub_plain/mul_plain: limb-wise ops per
      polynomial.
    - mul_int and adjust_factor: `rns.mul_const` by the integer;
      add_int c: `rns.add_const` of [c mu]_t (centred) to c_0 (the constant
      polynomial c mu, whose NTT is that value in every slot).
    - mul: the tensor product `(a0 b0, a0 b1 + a1 b0, a1 b1)`.
    - relinearize and rotate: the hybrid key switch of ckks-to-rns
      (`decompose`, `mod_up`, `ks_inner_product`, `mod_down`); the keys
      carry errors t e and the chain's `plain` makes the runtime's ModDown
      the t-corrected one.
    - mod_switch: `rns.rescale` (divided by q_l, t-corrected at run time).
    - encode: `rns.encode` of the integers (centred mod t) with the factor
      as the scale: the runtime encodes [mu m]_t for a BGV chain;
      encode_values (a plaintext argument): `rns.encode_values` likewise,
      encoded when the program runs.
  }];
  let dependentDialects = ["::ember::rns::RNSDialect"];
}

#endif // EMBER_CONVERSIONS_BGVTORNS_TD
