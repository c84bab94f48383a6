//===- LWEDialect.td - the lwe dialect ----------------------*- tablegen -*-===//
#ifndef EMBER_LWE_DIALECT_TD
#define EMBER_LWE_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def LWE_Dialect : Dialect {
  let name = "lwe";
  let cppNamespace = "::ember::lwe";
  let summary = "FHEW/TFHE: LWE ciphertexts of bits and their bootstrapped gates";
  let description = [{
    What `fhe-to-lwe` lowers encrypted integers to: a circuit over
    `!lwe.bit`, an LWE ciphertext of one bit (m q / 4 at the gate modulus
    q, OpenFHE's encoding). `lwe.gate` is one gate bootstrap (GINX blind
    rotation, sample extraction, key and modulus switching: the runtime's
    `ember::lwe::Evaluator::gate`), `lwe.mux` two blind rotations summed
    before one key switch, `lwe.not` and `lwe.trivial` are linear (no
    bootstrap). The module attribute `lwe.params` names the parameter set
    (`ember::lwe::Params::named`). `ember-translate --emit-tfhe-circuit`
    writes the circuit the runtime executes.
  }];
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// The module attribute naming the parameter set (a string).
    static constexpr llvm::StringLiteral kParamsAttrName = "lwe.params";
  }];
}

class LWE_Op<string mnemonic, list<Trait> traits = []>
    : Op<LWE_Dialect, mnemonic, traits>;

def LWE_BitType : TypeDef<LWE_Dialect, "Bit"> {
  let mnemonic = "bit";
  let summary = "an LWE ciphertext of one bit";
}

#endif // EMBER_LWE_DIALECT_TD
