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

#endif // EMBER_LWE_OPS_TD
