//===- CKKSDialect.td - the ckks dialect --------------------*- tablegen -*-===//
#ifndef EMBER_CKKS_DIALECT_TD
#define EMBER_CKKS_DIALECT_TD

include "mlir/IR/OpBase.td"

def CKKS_Dialect : Dialect {
  let name = "ckks";
  let cppNamespace = "::ember::ckks";
  let summary = "CKKS ciphertexts typed with level, scale and degree";
  let description = [{
    The `ckks` dialect is the scheme level of Ember. A module carries its
    parameters as `ckks.params = #ckks.params<...>` (ring degree, the Q and P
    primes themselves, default scale, dnum, security level). A ciphertext
    type records its level (index of the last Q prime it still holds), its
    exact scale (a double: after `ckks.rescale` at level l the scale is
    `s / q_l` with the real prime q_l, as the runtime computes it) and its
    degree (2 polynomials, or 3 after a multiplication and before
    relinearization). Verifiers reject operands whose levels, scales
    (relative tolerance 1e-9) or degrees do not match.

    Traits carry the semantics passes need: `ReducesLevel` (rescale,
    mod_drop), `NeedsLinearInput` (ops whose ciphertext operands must have
    degree 2: mul, rotations, conjugate, keyswitch) and `KeySwitching` (ops
    that perform a key switch and need an evaluation key).
  }];
  let useDefaultTypePrinterParser = 0;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the module attribute that holds the #ckks.params.
    static constexpr llvm::StringLiteral kParamsAttrName = "ckks.params";

    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    void printType(::mlir::Type type,
                   ::mlir::DialectAsmPrinter &printer) const override;
  }];
}

class CKKS_Op<string mnemonic, list<Trait> traits = []>
    : Op<CKKS_Dialect, mnemonic, traits>;

// Traits (C++ in CKKSTraits.h).
def CKKS_ReducesLevel : NativeOpTrait<"ReducesLevel"> {
  let cppNamespace = "::ember::ckks";
}
def CKKS_NeedsLinearInput : NativeOpTrait<"NeedsLinearInput"> {
  let cppNamespace = "::ember::ckks";
}
def CKKS_KeySwitching : NativeOpTrait<"KeySwitching"> {
  let cppNamespace = "::ember::ckks";
}

#endif // EMBER_CKKS_DIALECT_TD
