//===- BGVDialect.td - the bgv dialect ----------------------*- tablegen -*-===//
#ifndef EMBER_BGV_DIALECT_TD
#define EMBER_BGV_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def BGV_Dialect : Dialect {
  let name = "bgv";
  let cppNamespace = "::ember::bgv";
  let summary = "BGV: exact integer arithmetic modulo a plaintext modulus t";
  let description = [{
    What `fhe-to-bgv` lowers a `scheme = "bgv"` program to, and what
    `bgv-to-rns` lowers to RNS polynomials (Phantom II-C, Table II). A
    ciphertext at level l holds q_0..q_l of the module's chain
    (`#ckks.params<..., plain = t>`: the RNS chain attribute both schemes
    share) and decrypts to [c_0 + c_1 s]_{Q_l} = mu m + t e: the slots m
    (integers mod t, batched as SEAL and Phantom do), a correction factor
    mu in [1, t) and the noise e. The factor is static: fresh ciphertexts
    carry 1, a product the product of its operands' factors, a modulus
    switch from level l the factor times q_l^-1 (mod t); the types carry
    it, the verifiers check it, and the client divides it out when it
    decodes. Ciphertexts are added only at equal levels and factors
    (`fhe-to-bgv` switches and scales operands to meet).
  }];
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Function result attribute: the compiler's estimate of an output's
    /// remaining noise budget in bits (log2 Q_l - log2 |mu m + t e| - 1,
    /// SEAL's definition for BGV; decryption is exact while it is > 0).
    static constexpr llvm::StringLiteral kNoiseBudgetAttrName =
        "bgv.noise_budget";
  }];
}

class BGV_Op<string mnemonic, list<Trait> traits = []>
    : Op<BGV_Dialect, mnemonic, traits>;

#endif // EMBER_BGV_DIALECT_TD
