//===- LWEDialect.td - the lwe dialect ----------------------*- tablegen -*-===//
#ifndef EMBER_LWE_DIALECT_TD
#define EMBER_LWE_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def LWE_Dialect : Dialect {
  let name = "lwe";
  let cppNamespace = "::ember::lwe";
  let summary = "FHEW/TFHE: LWE ciphertexts of bits and radix blocks, and their bootstraps";
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

    Radix integers (module attribute `lwe.encoding = "radix"`) are built of
    `!lwe.block`s instead: an LWE ciphertext at the ring modulus Q
    (dimension N, under the ring key) of a value v in [0, 16) encoded as v
    round(Q / 32), with a padding bit (tfhe-rs's 2_2 blocks: 2 message
    bits, 2 carry bits). `lwe.linear` combines blocks (no bootstrap),
    `lwe.lut` is one programmable bootstrap in the key-switch-first order
    (key and modulus switches, blind rotation, sample extraction: the
    runtime's `Evaluator::pbs`), `lwe.block_constant` a known block.
  }];
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// The module attribute naming the parameter set (a string).
    static constexpr llvm::StringLiteral kParamsAttrName = "lwe.params";
    /// "radix" on a module of `!lwe.block` circuits (absent: bits).
    static constexpr llvm::StringLiteral kEncodingAttrName = "lwe.encoding";
    /// log2 of the largest failure probability of a table in the module
    /// (radix; from the parameter set's noise model).
    static constexpr llvm::StringLiteral kLog2FailureAttrName =
        "lwe.log2_failure";
  }];
}

class LWE_Op<string mnemonic, list<Trait> traits = []>
    : Op<LWE_Dialect, mnemonic, traits>;

def LWE_BitType : TypeDef<LWE_Dialect, "Bit"> {
  let mnemonic = "bit";
  let summary = "an LWE ciphertext of one bit";
}

def LWE_BlockType : TypeDef<LWE_Dialect, "Block"> {
  let mnemonic = "block";
  let summary = "an LWE ciphertext of a radix block (v in [0, 16) at Q)";
}

#endif // EMBER_LWE_DIALECT_TD
