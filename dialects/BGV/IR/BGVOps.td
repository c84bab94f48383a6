//===- BGVOps.td - bgv operations ---------------------------*- tablegen -*-===//
#ifndef EMBER_BGV_OPS_TD
#define EMBER_BGV_OPS_TD

include "dialects/BGV/IR/BGVDialect.td"
include "dialects/BGV/IR/BGVTypes.td"
include "dialects/Common/SlotValues.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

def BGV_Ct : Type<CPred<"::llvm::isa<::ember::bgv::CiphertextType>($_self)">,
                  "bgv ciphertext", "::ember::bgv::CiphertextType">;
def BGV_Pt : Type<CPred<"::llvm::isa<::ember::bgv::PlaintextType>($_self)">,
                  "bgv plaintext", "::ember::bgv::PlaintextType">;

// Ops whose result type follows from the operands' (the inference is the
// verifier).
class BGV_InferredOp<string mnemonic, list<Trait> traits = []>
    : BGV_Op<mnemonic, !listconcat([Pure,
        DeclareOpInterfaceMethods<InferTypeOpInterface>], traits)>;

def BGV_EncodeOp : BGV_Op<"encode", [ConstantLike, Pure]> {
  let summary = "an integer vector encoded at the result's level and factor";
  let description = [{
    ```mlir
    %p = bgv.encode dense<[1, -2, 3, 4]> : tensor<4xi64>
           -> !bgv.pt<4, level = 2, factor = 1>
    ```
    One integer per slot (taken mod t; signed allowed) or a splat. The
    runtime encodes it once per context (the values go to the program's
    data file).
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs BGV_Pt:$result);
  let assemblyFormat = "$value attr-dict `->` type($result)";
  let hasVerifier = 1;
}

def BGV_EncodeValuesOp : BGV_Op<"encode_values", [Pure]> {
  let summary = "run-time integer slot values encoded at a level and factor";
  let description = [{
    ```mlir
    %p = bgv.encode_values %w : tensor<8xcomplex<f64>>
           -> !bgv.pt<8, level = 1, factor = 1>
    ```
    A plaintext argument of the program (`!fhe.pt<n>`; its values are the
    real parts, integers taken mod t, as CKKS's plaintext arguments carry
    complex slots) encoded on the server when the program runs: [mu m]_t
    of the values at the result's level and factor.
  }];
  let arguments = (ins Ember_SlotValuesTensor:$values);
  let results = (outs BGV_Pt:$result);
  let assemblyFormat = "$values attr-dict `:` type($values) `->` type($result)";
  let hasVerifier = 1;
}

class BGV_CtCtOp<string mnemonic, list<Trait> traits = []>
    : BGV_InferredOp<mnemonic, traits> {
  let arguments = (ins BGV_Ct:$lhs, BGV_Ct:$rhs);
  let results = (outs BGV_Ct:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

def BGV_AddOp : BGV_CtCtOp<"add", [Commutative]> {
  let summary = "ciphertext + ciphertext";
  let description = [{
    Equal slots, level and factor; the result has the larger degree.
  }];
}

def BGV_SubOp : BGV_CtCtOp<"sub"> {
  let summary = "ciphertext - ciphertext";
  let description = "As `bgv.add`.";
}

def BGV_MulOp : BGV_Op<"mul", [Pure, Commutative]> {
  let summary = "tensor product: degree 3, the product of the factors";
  // Under a BFV chain: the scale-invariant product (t / Q times the tensor,
  // rounded), operands at the top level.
  let description = [{
    ```mlir
    %p = bgv.mul %a, %b : !bgv.ct<8, level = 3, factor = 1>,
           !bgv.ct<8, level = 3, factor = 1> -> !bgv.ct<8, level = 3,
           factor = 1, degree = 3>
    ```
    Degree-2 operands at one level; the factor is mu_a mu_b (mod t).
  }];
  let arguments = (ins BGV_Ct:$lhs, BGV_Ct:$rhs);
  let results = (outs BGV_Ct:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

class BGV_CtPtOp<string mnemonic, list<Trait> traits = []>
    : BGV_InferredOp<mnemonic, traits> {
  let hasVerifier = 1;
  let arguments = (ins BGV_Ct:$ciphertext, BGV_Pt:$plaintext);
  let results = (outs BGV_Ct:$result);
  let assemblyFormat = [{
    $ciphertext `,` $plaintext attr-dict `:` type($ciphertext) `,`
    type($plaintext)
  }];
}

def BGV_AddPlainOp : BGV_CtPtOp<"add_plain"> {
  let summary = "ciphertext + plaintext (of the ciphertext's factor)";
  let description = [{
    Equal slots, level and factor. Under a BFV chain the plaintext is the
    `scaled` form (Delta m).
  }];
}

def BGV_SubPlainOp : BGV_CtPtOp<"sub_plain"> {
  let summary = "ciphertext - plaintext (of the ciphertext's factor)";
  let description = "Equal slots, level and factor.";
}

def BGV_MulPlainOp : BGV_Op<"mul_plain", [Pure]> {
  let summary = "ciphertext * plaintext: the product of the factors";
  let arguments = (ins BGV_Ct:$ciphertext, BGV_Pt:$plaintext);
  let results = (outs BGV_Ct:$result);
  let assemblyFormat = [{
    $ciphertext `,` $plaintext attr-dict `:` type($ciphertext) `,`
    type($plaintext) `->` type($result)
  }];
  let hasVerifier = 1;
}

class BGV_CtIntOp<string mnemonic> : BGV_InferredOp<mnemonic> {
  let arguments = (ins BGV_Ct:$input, I64Attr:$value);
  let results = (outs BGV_Ct:$result);
  let assemblyFormat = "$input `,` $value attr-dict `:` type($input)";
}

def BGV_MulIntOp : BGV_CtIntOp<"mul_int"> {
  let summary = "every slot times an integer (its residue per prime)";
  let description = [{
    `%y = bgv.mul_int %x, 3 : !bgv.ct<...>`: no plaintext, no change of
    factor; the noise grows by |value| (fhe-to-bgv passes the centred
    representative mod t).
  }];
}

def BGV_AddIntOp : BGV_CtIntOp<"add_int"> {
  let summary = "an integer added to every slot";
  let description = [{
    `%y = bgv.add_int %x, 3 : !bgv.ct<...>`: adds the constant polynomial
    [3 mu]_t (centred) to c_0; under a BFV chain, ceil(Q [3]_t / t).
  }];
}

def BGV_AdjustFactorOp : BGV_Op<"adjust_factor", [Pure]> {
  let summary = "the same slots under another factor (times [to / from]_t)";
  let description = [{
    ```mlir
    %y = bgv.adjust_factor %x, -3 : !bgv.ct<8, level = 2, factor = 5>
           -> !bgv.ct<8, level = 2, factor = 65522>
    ```
    Multiplies every coefficient by `value` = [to / from]_t (centred), so
    that mu_from m becomes mu_to m: the slots are unchanged and the factor
    is `to`. What `fhe-to-bgv` inserts before adding values whose factors
    differ (Phantom's and OpenFHE's balancing); the noise grows by |value|.
  }];
  let arguments = (ins BGV_Ct:$input, I64Attr:$value);
  let results = (outs BGV_Ct:$result);
  let assemblyFormat = [{
    $input `,` $value attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def BGV_NegOp : BGV_InferredOp<"neg"> {
  let summary = "-ciphertext";
  let arguments = (ins BGV_Ct:$input);
  let results = (outs BGV_Ct:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def BGV_RelinearizeOp : BGV_InferredOp<"relinearize"> {
  let summary = "degree 3 -> 2 (a key switch of c_2 with the relin key)";
  let arguments = (ins BGV_Ct:$input);
  let results = (outs BGV_Ct:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def BGV_ModSwitchOp : BGV_Op<"mod_switch", [Pure]> {
  let summary = "modulus switch by q_l: level - 1, factor times q_l^-1";
  let description = [{
    ```mlir
    %y = bgv.mod_switch %x : !bgv.ct<8, level = 3, factor = 1>
           -> !bgv.ct<8, level = 2, factor = 28127>
    ```
    BGV's rescale: c' = (c + t w) / q_l with w = [-t^-1 c]_{q_l} (centred),
    so c' = mu q_l^-1 m + t e' (mod t) with e' about e / q_l plus a
    rounding term (OpenFHE's ModReduce). The factor in the result type is
    mu q_l^-1 (mod t), checked against the module's chain.
  }];
  let arguments = (ins BGV_Ct:$input);
  let results = (outs BGV_Ct:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def BGV_RotateOp : BGV_InferredOp<"rotate"> {
  let summary = "cyclic left rotation of the slot vector";
  let description = [{
    `%y = bgv.rotate %x, 1 : !bgv.ct<8, ...>`: slot i of the result is
    slot i + 1 mod 8 of %x (automorphism X -> X^(5^1) and a key switch).
  }];
  let arguments = (ins BGV_Ct:$input, I64Attr:$offset);
  let results = (outs BGV_Ct:$result);
  let assemblyFormat = "$input `,` $offset attr-dict `:` type($input)";
}

#endif // EMBER_BGV_OPS_TD
