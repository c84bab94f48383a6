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
      the t-corrected one. A rotation is lowered hoisted
      (`hoist-rotations`, on): c1 is raised before the automorphism, which
      then applies to the raised digits (Halevi-Shoup hoisting; the
      automorphism and ModUp commute), so the rotations of one value share
      one ModUp once CSE runs.
    - mod_switch: `rns.rescale` (divided by q_l, t-corrected at run time).
    - encode: `rns.encode` of the integers (centred mod t) with the factor
      as the scale: the runtime encodes [mu m]_t for a BGV chain;
      encode_values (a plaintext argument): `rns.encode_values` likewise,
      encoded when the program runs.

    Under a BFV chain (`scheme = bfv`): `mul` is `rns.bfv_tensor` (the
    scale-invariant product, one runtime call: BEHZ, or HPS with
    `bfv-mult=hps`); plaintexts are encoded
    at scale Delta = Q / t when `scaled` (Delta m, for add_plain/sub_plain)
    and at scale 1 otherwise (the centred m, for mul_plain); add_int adds
    the Delta-scaled encoding of the splat; key switches are CKKS's (the
    plan's plain_modulus is 0, so nothing is t-corrected).
  }];
  let options = [
    Option<"bfvMult", "bfv-mult", "std::string", /*default=*/"\"behz\"",
           "BFV's product: behz (Bajard-Eynard-Hasan-Zucca; 0.84-0.92x "
           "HPS's time on the CPU and the GPU, bench/RESULTS.md) or hps "
           "(Halevi-Polyakov-Shoup)">,
    Option<"hoistRotations", "hoist-rotations", "bool", /*default=*/"true",
           "Rotations in hoisted form (ModUp of c1, then the automorphism "
           "of the raised digits), so that the CSE after this pass leaves "
           "one ModUp for every rotation of one value; false: the "
           "automorphism first, a ModUp per rotation">,
  ];
  let dependentDialects = ["::ember::rns::RNSDialect"];
}

#endif // EMBER_CONVERSIONS_BGVTORNS_TD
