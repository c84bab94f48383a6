//===- LWEOps.td - lwe operations ---------------------------*- tablegen -*-===//
#ifndef EMBER_LWE_OPS_TD
#define EMBER_LWE_OPS_TD

include "dialects/LWE/IR/LWEDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

def LWE_GateOp : LWE_Op<"gate", [Pure]> {
  let summary = "a two-input gate: one bootstrap";
  let description = [{
    `%c = lwe.gate "AND", %a, %b`: AND, OR, NAND, NOR, XOR or XNOR of two
    bits (their sum, shifted so that the output bit is its sign, then
    bootstrapped: the output's noise is fresh).
  }];
  let arguments = (ins StrAttr:$gate, LWE_BitType:$lhs, LWE_BitType:$rhs);
  let results = (outs LWE_BitType:$result);
  let assemblyFormat = "$gate `,` $lhs `,` $rhs attr-dict";
  let hasVerifier = 1;
}

def LWE_MuxOp : LWE_Op<"mux", [Pure]> {
  let summary = "sel ? t : f: two blind rotations, one key switch";
  let description = "`%r = lwe.mux %sel, %t, %f`";
  let arguments = (ins LWE_BitType:$sel, LWE_BitType:$t, LWE_BitType:$f);
  let results = (outs LWE_BitType:$result);
  let assemblyFormat = "$sel `,` $t `,` $f attr-dict";
}

def LWE_NotOp : LWE_Op<"not", [Pure]> {
  let summary = "the complement (q/4 - ct: linear, no bootstrap)";
  let description = "`%b = lwe.not %a`";
  let arguments = (ins LWE_BitType:$input);
  let results = (outs LWE_BitType:$result);
  let assemblyFormat = "$input attr-dict";
}

def LWE_TrivialOp : LWE_Op<"trivial", [Pure, ConstantLike]> {
  let summary = "a known bit as a noiseless ciphertext (a = 0, b = m q / 4)";
  let description = [{
    `%one = lwe.trivial 1`: what an output that is a constant becomes
    (fhe-to-lwe folds constant bits into the gates otherwise).
  }];
  let arguments = (ins I64Attr:$value);
  let results = (outs LWE_BitType:$result);
  let assemblyFormat = "$value attr-dict";
  let hasVerifier = 1;
}

// --- radix blocks ---------------------------------------------------------

def LWE_LinearOp : LWE_Op<"linear", [Pure]> {
  let summary = "x a + y b + c: a linear form of blocks (no bootstrap)";
  let description = [{
    `%s = lwe.linear %a, %b * [4, 1] + 0`: the sum of the inputs (one or
    two blocks) times the coefficients, plus the constant (in units of the
    block encoding's round(Q / 32)), modulo Q. Its noise is the inputs'
    weighted by the coefficients (fhe-to-lwe records the sum of their
    squares on the `lwe.lut` that reads it).
  }];
  let arguments = (ins Variadic<LWE_BlockType>:$inputs,
                   DenseI64ArrayAttr:$coefficients, I64Attr:$constant);
  let results = (outs LWE_BlockType:$result);
  let assemblyFormat = "$inputs `*` $coefficients `+` $constant attr-dict";
  let hasVerifier = 1;
}

def LWE_LutOp : LWE_Op<"lut", [Pure]> {
  let summary = "table[v]: one programmable bootstrap of a block";
  let description = [{
    `%r = lwe.lut %s, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]`:
    a table of 16 entries, each below 16, indexed by the block's value (a
    value of 16 or more reads the negacyclic half: fhe-to-lwe never lets
    one reach a table). The key-switch-first bootstrap: the input is
    switched to q_ks, to the LWE key and to q, blindly rotated and
    extracted, so the output's noise is fresh. fhe-to-lwe records the
    input's range (`lo`, `hi`) and the sum of squares of the coefficients
    of the bootstrapped blocks it combines (`nu2`), from which the circuit
    states each table's failure probability.
  }];
  let arguments = (ins LWE_BlockType:$input, DenseI64ArrayAttr:$table,
                   OptionalAttr<I64Attr>:$lo, OptionalAttr<I64Attr>:$hi,
                   OptionalAttr<I64Attr>:$nu2);
  let results = (outs LWE_BlockType:$result);
  let assemblyFormat = "$input `,` $table attr-dict";
  let hasVerifier = 1;
}

def LWE_BlockConstantOp : LWE_Op<"block_constant", [Pure, ConstantLike]> {
  let summary = "a known block as a noiseless ciphertext (a = 0)";
  let description = "`%c = lwe.block_constant 3` (0 to 31)";
  let arguments = (ins I64Attr:$value);
  let results = (outs LWE_BlockType:$result);
  let assemblyFormat = "$value attr-dict";
  let hasVerifier = 1;
}

#endif // EMBER_LWE_OPS_TD
