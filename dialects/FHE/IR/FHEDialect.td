//===- FHEDialect.td - the scheme-agnostic fhe dialect -----*- tablegen -*-===//
#ifndef EMBER_FHE_DIALECT_TD
#define EMBER_FHE_DIALECT_TD

include "mlir/IR/OpBase.td"

def FHE_Dialect : Dialect {
  let name = "fhe";
  let cppNamespace = "::ember::fhe";
  let summary = "Scheme-agnostic encrypted slot vectors";
  let description = [{
    The `fhe` dialect is what the Python frontend traces into: encrypted
    vectors of `n` slots (`!fhe.ct<n>`) and plaintext vectors (`!fhe.pt<n>`),
    with slot-wise `add`, `sub`, `mul`, `neg`, cyclic `rotate` by a constant
    and `conjugate`. Nothing here names a scheme, a level or a scale:
    `fhe-to-ckks` chooses the parameters and the CKKS representation.

    Room is left for later ops that stay scheme-agnostic: `fhe.bootstrap`
    (refresh levels), `fhe.poly_eval` (a polynomial given by coefficients),
    `fhe.matvec` (a plaintext matrix times an encrypted vector, lowered with
    BSGS and hoisted rotations), `fhe.lut` and scheme switching to TFHE. They
    will be added as ops of this dialect with their own lowerings.
  }];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // `fhe.range` on function arguments (and on ops, from
  // fhe-annotate-ranges): see kRangeAttrName in FHEDialect.h.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
}

class FHE_Op<string mnemonic, list<Trait> traits = []>
    : Op<FHE_Dialect, mnemonic, traits>;

#endif // EMBER_FHE_DIALECT_TD
