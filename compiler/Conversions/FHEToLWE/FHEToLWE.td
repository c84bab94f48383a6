//===- FHEToLWE.td - fhe-to-lwe conversion ------------------*- tablegen -*-===//
#ifndef EMBER_CONVERSIONS_FHETOLWE_TD
#define EMBER_CONVERSIONS_FHETOLWE_TD

include "mlir/Pass/PassBase.td"

def FHEToLWE : Pass<"fhe-to-lwe", "mlir::ModuleOp"> {
  let summary = "Lower encrypted integers to circuits of bootstrapped gates";
  let description = [{
    **What.** Every function over encrypted integers (`!fhe.eint<k>`,
    `!fhe.esint<k>`) becomes a function over `!lwe.bit`s: each k-bit
    argument and result becomes k bits, least significant first, and each
    integer op a circuit of `lwe.gate`, `lwe.mux` and `lwe.not`. The
    function records its interface as `lwe.input_widths`,
    `lwe.input_signed`, `lwe.output_widths` and `lwe.output_signed`; the
    module gets `lwe.params` (the parameter set).

    **Circuits** (the bootstraps they cost, per bit): addition is a ripple
    carry adder, s = a ^ b ^ c, carry = (a ^ b) ? c : a (two XORs and a
    MUX, which is two blind rotations and one key switch); subtraction adds
    the complement with a carry of 1 (NOT is free: q/4 - ct);
    multiplication modulo 2^k adds the k shifted partial products (a AND
    b_i); a < b carries lt = (a_i ^ b_i) ? b_i : lt from the least
    significant bit (signed: the sign bits complemented first); equality
    ANDs the XNORs in a tree; a table lookup is a MUX tree per output bit
    over the input bits with the table's bits at the leaves. Known bits
    (`fhe.int_constant`, and what they make known) are folded: AND with 0
    is 0, XOR with 1 is a NOT, a MUX with a known select is a wire, so
    `x + 1` or `x * 3` costs only the gates whose inputs are unknown.
    At OpenFHE's 128-bit sets Ember's bootstraps carry one bit reliably (a
    lookup table over Z_4 already fails with probability 2^-68 per
    bootstrap, Z_8 2^-19), so there the blocks are bits.

    **Radix blocks** (`encoding=radix`, the default where a set allows it:
    STD128_4BIT_MR, TOY_4BIT_MR). As tfhe-rs does, a k-bit integer is
    ceil(k/2) `!lwe.block`s of 2 message bits each, least significant first
    (the top one 1 bit when k is odd), in a value of [0, 16) read by tables
    over Z_16: `lwe.linear` sums blocks for free and `lwe.lut` is one
    programmable bootstrap. The circuits (Radix.cpp): carry-lookahead sums
    (an 8-bit add is 9 tables over 3 levels, a comparison 5 over 2), the
    partial products' halves reduced by columns for multiplication, one
    table of 4 a + b per block for bitwise operations, and for a table of a
    k-bit input one table per output block (k <= 4) or candidates selected
    block by block. Every table input's range stays within [0, 16), and its
    noise weight nu2 (the sum of squared coefficients of the bootstrapped
    blocks it combines) within `max-log2-failure` of the set's noise model
    (the key-switch-first order, `NoiseEstimate::log2BlockFailure`); each
    `lwe.lut` records both, and the module the worst failure
    (`lwe.log2_failure`).

    **Errors.** An op that is not an encrypted-integer op (a CKKS slot
    vector, control flow) is refused at its location; so is an unknown
    parameter set, and TOY without `insecure`.
  }];
  let dependentDialects = ["ember::lwe::LWEDialect", "mlir::func::FuncDialect"];
  let options = [
    Option<"params", "params", "std::string", "\"STD128\"",
           "the FHEW/TFHE parameter set: STD128, STD128Q, STD128_AP, STD128_4BIT, STD128_4BIT_MR (TOY, TOY_AP, TOY_MR, TOY_4BIT_MR with insecure)">,
    Option<"insecure", "insecure", "bool", "false",
           "allow the insecure TOY set (tests only)">,
    Option<"encoding", "encoding", "std::string", "\"auto\"",
           "bits (gate circuits), radix (blocks of 2 bits under tables over "
           "Z_16) or auto (radix where the set's tables over Z_16 meet "
           "max-log2-failure, else bits)">,
    Option<"maxLog2Failure", "max-log2-failure", "double", "-40.0",
           "log2 of the largest failure probability allowed per table "
           "(radix)">,
  ];
}

#endif // EMBER_CONVERSIONS_FHETOLWE_TD
