//===- RNSDialect.td - the rns dialect ---------------------*- tablegen -*-===//
//
// Polynomials of R_Q = Z_Q[X]/(X^N + 1) held as residues over an explicit RNS
// basis, in coefficient or NTT form. The lowest layer that still reads like
// the CKKS math; the kernel dialect below it plans buffers and launches.
//
//===----------------------------------------------------------------------===//

#ifndef EMBER_DIALECT_RNS_DIALECT_TD
#define EMBER_DIALECT_RNS_DIALECT_TD

include "mlir/IR/OpBase.td"

def RNS_Dialect : Dialect {
  let name = "rns";
  let cppNamespace = "::ember::rns";
  let summary = "RNS polynomial operations: NTT, BConv, ModUp/ModDown, key "
                "switching";
  let description = [{
    The `rns` dialect represents a CKKS computation as operations on
    polynomials in residue-number-system form (Cheddar 2.2). A value of type
    `!rns.poly<ntt, q[a:b], p[c:d]>` is a polynomial of R_N whose residues
    are held for the primes `q_a .. q_{b-1}` of the module's Q chain and the
    special primes `p_c .. p_{d-1}` of P, i.e. a limb-major `limbs x N`
    buffer. Limb indices refer to the modulus chain of the module's
    `#ckks.params` attribute; N comes from there too.

    The dialect keeps the key-switching structure explicit (ARCHITECTURE.md,
    "Lessons"): `rns.decompose` (digits of consecutive Q limbs),
    `rns.mod_up` (raise every digit to Q_l u P), `rns.ks_inner_product`
    (digits x evaluation key, two accumulators over Q_l u P) and
    `rns.mod_down` (back to Q_l, optionally merged with a rescale). Hoisting
    is therefore visible as one `mod_up` feeding several inner products and
    ModDown deferral as one `mod_down` of summed accumulators.

    Elementwise ops (`add`, `sub`, `mul`, `neg`, `mul_const`, `add_const`) carry the
    `RNSElementwise` trait that `rns-fuse-elementwise` reads; fusion regions
    are `rns.fused` ops. Words are 64-bit today; nothing in the types fixes
    the word size, so 32-bit words with double-prime scaling can be added as
    a module-level choice.
  }];
  let useDefaultTypePrinterParser = 1;
}

#endif // EMBER_DIALECT_RNS_DIALECT_TD
