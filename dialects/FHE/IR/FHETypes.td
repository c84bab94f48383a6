//===- FHETypes.td - fhe types ------------------------------*- tablegen -*-===//
#ifndef EMBER_FHE_TYPES_TD
#define EMBER_FHE_TYPES_TD

include "dialects/FHE/IR/FHEDialect.td"
include "mlir/IR/AttrTypeBase.td"

class FHE_Type<string name, string typeMnemonic> : TypeDef<FHE_Dialect, name> {
  let mnemonic = typeMnemonic;
  let parameters = (ins "int64_t":$slots);
  let assemblyFormat = "`<` $slots `>`";
  let genVerifyDecl = 1;
}

def FHE_CiphertextType : FHE_Type<"Ciphertext", "ct"> {
  let summary = "an encrypted vector of `slots` values";
  let description = [{
    `!fhe.ct<8>` is an encrypted vector of 8 slots. Operations act slot-wise;
    `fhe.rotate` moves slots cyclically. `slots` is a power of two, at
    most 2^16 (N/2 of the largest ring).
  }];
}

def FHE_PlaintextType : FHE_Type<"Plaintext", "pt"> {
  let summary = "a plaintext (unencrypted) vector of `slots` values";
  let description = [{
    `!fhe.pt<8>` is a vector of 8 values known to the server (weights,
    constants), produced by `fhe.constant` or passed as a function argument.
  }];
}

def FHE_AnyValue : AnyTypeOf<[FHE_CiphertextType, FHE_PlaintextType],
                             "fhe ciphertext or plaintext">;

// Encrypted integers (scheme="tfhe"): `width` bits, two's complement for the
// signed type; arithmetic wraps modulo 2^width (as tfhe-rs's FheUint).
class FHE_IntType<string name, string typeMnemonic> : TypeDef<FHE_Dialect, name> {
  let mnemonic = typeMnemonic;
  let parameters = (ins "unsigned":$width);
  let assemblyFormat = "`<` $width `>`";
  let genVerifyDecl = 1;
}

def FHE_EncryptedUIntType : FHE_IntType<"EncryptedUInt", "eint"> {
  let summary = "an encrypted unsigned integer of `width` bits";
  let description = [{
    `!fhe.eint<8>` is an encrypted integer in [0, 256); `!fhe.eint<1>` is an
    encrypted bit. `fhe-to-lwe` lowers it to `width` LWE ciphertexts of
    bits (least significant first). 1 <= width <= 32.
  }];
}

def FHE_EncryptedSIntType : FHE_IntType<"EncryptedSInt", "esint"> {
  let summary = "an encrypted signed (two's complement) integer of `width` bits";
  let description = [{
    `!fhe.esint<8>` is an encrypted integer in [-128, 128). Addition,
    subtraction, multiplication and bitwise operations are those of the
    unsigned type on the same bits; comparisons are signed.
  }];
}

def FHE_AnyEncryptedInt : AnyTypeOf<[FHE_EncryptedUIntType, FHE_EncryptedSIntType],
                                    "encrypted integer">;

#endif // EMBER_FHE_TYPES_TD
