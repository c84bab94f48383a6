//===- CKKSOps.td - ckks operations -------------------------*- tablegen -*-===//
#ifndef EMBER_CKKS_OPS_TD
#define EMBER_CKKS_OPS_TD

include "dialects/CKKS/IR/CKKSAttributes.td"
include "dialects/CKKS/IR/CKKSTypes.td"
include "dialects/Common/SlotValues.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

def CKKS_Ct : Type<CPred<"::llvm::isa<::ember::ckks::CiphertextType>($_self)">,
                   "ckks ciphertext", "::ember::ckks::CiphertextType">;
def CKKS_Pt : Type<CPred<"::llvm::isa<::ember::ckks::PlaintextType>($_self)">,
                   "ckks plaintext", "::ember::ckks::PlaintextType">;

// Ops whose result type follows from the operand types: the inference is the
// verifier (it names the mismatch), and builders need no result type.
class CKKS_InferredOp<string mnemonic, list<Trait> traits = []>
    : CKKS_Op<mnemonic, !listconcat([Pure,
        DeclareOpInterfaceMethods<InferTypeOpInterface>], traits)>;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def CKKS_EncodeOp : CKKS_Op<"encode", [ConstantLike, Pure]> {
  let summary = "a plaintext constant encoded at the result's level and scale";
  let description = [{
    ```mlir
    %p = ckks.encode dense<0.5> : tensor<8xf64>
           -> !ckks.pt<8, level = 3, scale = 1099511627776.0>
    ```
    Values are one per slot (f64, or complex<f64>: CKKS slots are complex),
    or a splat. `ckks-manage-levels` retypes (re-encodes) plaintexts to the
    level and scale each use needs.
  }];
  let arguments = (ins Ember_SlotValuesAttr:$value);
  let results = (outs CKKS_Pt:$result);
  let assemblyFormat = "$value attr-dict `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CKKS_EncodeValuesOp : CKKS_Op<"encode_values", [Pure]> {
  let summary = "run-time slot values encoded at the result's level and scale";
  let description = [{
    ```mlir
    %p = ckks.encode_values %w : tensor<8xcomplex<f64>>
           -> !ckks.pt<8, level = 3, scale = 1099511627776.0>
    ```
    A plaintext argument of the program (`!fhe.pt<n>` in the fhe dialect,
    a tensor of complex<f64> slot values here) encoded when the program
    runs, on the server: new weights need no new compilation. Like
    `ckks.encode`, `ckks-manage-levels` re-encodes it at the level and
    scale each use needs.
  }];
  let arguments = (ins Ember_SlotValuesTensor:$values);
  let results = (outs CKKS_Pt:$result);
  let assemblyFormat = "$values attr-dict `:` type($values) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

class CKKS_CtCtOp<string mnemonic, list<Trait> traits = []>
    : CKKS_InferredOp<mnemonic, traits> {
  let arguments = (ins CKKS_Ct:$lhs, CKKS_Ct:$rhs);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

def CKKS_AddOp : CKKS_CtCtOp<"add", [Commutative]> {
  let summary = "ciphertext + ciphertext";
  let description = [{
    Operands must have equal slots, level and scale; degrees may differ (a
    degree-2 operand is padded), the result has the larger degree.
  }];
}

def CKKS_SubOp : CKKS_CtCtOp<"sub"> {
  let summary = "ciphertext - ciphertext";
  let description = "As `ckks.add`.";
}

def CKKS_MulOp : CKKS_CtCtOp<"mul", [Commutative, CKKS_NeedsLinearInput]> {
  let summary = "ciphertext x ciphertext (tensor product, degree 3 result)";
  let description = [{
    Operands of degree 2 at the same level; the result has degree 3 and the
    product of the scales. `ckks.relinearize` brings it back to degree 2,
    `ckks.rescale` brings the scale down.
  }];
}

class CKKS_CtPtOp<string mnemonic, list<Trait> traits = []>
    : CKKS_InferredOp<mnemonic, traits> {
  let arguments = (ins CKKS_Ct:$ciphertext, CKKS_Pt:$plaintext);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = [{
    $ciphertext `,` $plaintext attr-dict `:` type($ciphertext) `,` type($plaintext)
  }];
}

def CKKS_MulPlainOp : CKKS_CtPtOp<"mul_plain"> {
  let summary = "ciphertext x plaintext";
  let description = [{
    Same level; the result scale is the product of the scales, the degree
    that of the ciphertext. A `ckks.scale_adjust` unit attribute marks the
    multiplications by one that `ckks-manage-levels` inserts to match scales
    (it removes and re-creates them when run again).
  }];
}

def CKKS_AddPlainOp : CKKS_CtPtOp<"add_plain"> {
  let summary = "ciphertext + plaintext (same level and scale)";
  let description = "Adding an all-zero `ckks.encode` folds away.";
  let hasFolder = 1;
}

def CKKS_SubPlainOp : CKKS_CtPtOp<"sub_plain"> {
  let summary = "ciphertext - plaintext (same level and scale)";
  let description = "Subtracting an all-zero `ckks.encode` folds away.";
  let hasFolder = 1;
}

def CKKS_NegOp : CKKS_InferredOp<"neg"> {
  let summary = "negation";
  let description = "`%b = ckks.neg %a : !ckks.ct<...>`";
  let arguments = (ins CKKS_Ct:$input);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def CKKS_TileOp : CKKS_InferredOp<"tile"> {
  let summary = "the same ciphertext read with another slot count (free)";
  let description = [{
    `%y = ckks.tile %x to 16 : !ckks.ct<4, ...>`: a ciphertext of s slots
    (in the subring that repeats its vector every s slots) read as one of
    `slots` slots, a multiple of s. `slots` may also divide s: then the
    vector must already repeat every `slots` slots (`fhe.untile`, which
    only bootstrapping's sparse packing makes, promises it), and the
    result reads one period. Level, scale and degree stay; it lowers to
    nothing.
  }];
  let arguments = (ins CKKS_Ct:$input, I64Attr:$slots);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input `to` $slots attr-dict `:` type($input)";
}

def CKKS_MulIntOp : CKKS_InferredOp<"mul_int"> {
  let summary = "ciphertext x integer constant (no level spent)";
  let description = [{
    `%b = ckks.mul_int %a, 2 : !ckks.ct<...>` multiplies every coefficient
    by the integer: the scale, the level and the degree stay as they are
    (no encoding, no rescale), so `2 * (x * y) - 1` costs the one level of
    its product. `fhe-to-ckks` lowers a multiplication by an integer-valued
    scalar constant to it.
  }];
  let arguments = (ins CKKS_Ct:$input, I64Attr:$value);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input `,` $value attr-dict `:` type($input)";
}

def CKKS_MulIOp : CKKS_InferredOp<"mul_i"> {
  let summary = "every slot times the imaginary unit i (no level spent)";
  let description = [{
    `%b = ckks.mul_i %a : !ckks.ct<...>` multiplies the plaintext by the
    monomial X^(N/2), which is i at every root zeta^(5^j) (5^j = 1 mod 4):
    exact, no encoding error, no rescale; level, scale and degree stay.
    `fhe-to-ckks` lowers a multiplication by the constant i (or -i) to it;
    bootstrapping splits and joins real and imaginary parts with it.
  }];
  let arguments = (ins CKKS_Ct:$input);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

//===----------------------------------------------------------------------===//
// Key switching
//===----------------------------------------------------------------------===//

def CKKS_RelinearizeOp : CKKS_InferredOp<"relinearize", [CKKS_KeySwitching]> {
  let summary = "degree 3 -> degree 2 with the relinearization key";
  let description = [{
    Key-switches the s^2 component of a degree-3 ciphertext back under s.
    `ckks-insert-relin` places these lazily (Cheddar 5.2).
  }];
  let arguments = (ins CKKS_Ct:$input);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def CKKS_RotateOp : CKKS_Op<"rotate", [Pure, SameOperandsAndResultType,
    CKKS_NeedsLinearInput, CKKS_KeySwitching]> {
  let summary = "cyclic left rotation of the slots (automorphism + key switch)";
  let description = [{
    `%b = ckks.rotate %a by 3 : !ckks.ct<...>`: b[i] = a[(i + 3) mod slots],
    with `-slots < offset < slots`. Folds: rotation by 0, rotation of a
    rotation (offsets add, mod slots).
  }];
  let arguments = (ins CKKS_Ct:$input, I64Attr:$offset);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input `by` $offset attr-dict `:` type($input)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CKKS_ConjugateOp : CKKS_Op<"conjugate", [Pure, SameOperandsAndResultType,
    CKKS_NeedsLinearInput, CKKS_KeySwitching]> {
  let summary = "complex conjugation of the slots (automorphism X -> X^-1)";
  let description = "`%b = ckks.conjugate %a : !ckks.ct<...>`";
  let arguments = (ins CKKS_Ct:$input);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def CKKS_KeySwitchOp : CKKS_Op<"keyswitch", [Pure, SameOperandsAndResultType,
    CKKS_NeedsLinearInput, CKKS_KeySwitching]> {
  let summary = "key switch from s(X^g) to s (the second half of a rotation)";
  let description = [{
    `%b = ckks.keyswitch %a galois 5 : !ckks.ct<...>` takes a ciphertext
    decryptable under s(X^g) (the result of applying the automorphism
    X -> X^g to a ciphertext under s) and key-switches it back under s with
    the Galois key of `g` (odd, so that X -> X^g is an automorphism).
    Exposed for lowerings that apply automorphisms themselves.
  }];
  let arguments = (ins CKKS_Ct:$input, I64Attr:$galois_element);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input `galois` $galois_element attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def CKKS_HoistedRotateOp : CKKS_Op<"hoisted_rotate", [Pure,
    CKKS_NeedsLinearInput, CKKS_KeySwitching]> {
  let summary = "several rotations of one ciphertext sharing one ModUp";
  let description = [{
    ```mlir
    %r:3 = ckks.hoisted_rotate %x by [1, 2, 4] : !ct -> !ct, !ct, !ct
    ```
    Result i is `ckks.rotate %x by offsets[i]`. The ModUp (digit
    decomposition and basis extension of c1) is computed once and shared;
    each rotation then does its own key product, automorphism and ModDown
    (hoisting, Halevi-Shoup 2018; Cheddar 5.1). Made by
    `ckks-hoist-rotations`.
  }];
  let arguments = (ins CKKS_Ct:$input, DenseI64ArrayAttr:$offsets);
  let results = (outs Variadic<CKKS_Ct>:$results);
  let assemblyFormat = [{
    $input `by` $offsets attr-dict `:` type($input) `->` type($results)
  }];
  let hasVerifier = 1;
}

def CKKS_HoistedRotateSumOp : CKKS_Op<"hoisted_rotate_sum", [Pure,
    SameOperandsAndResultType, CKKS_NeedsLinearInput, CKKS_KeySwitching]> {
  let summary = "sum of rotations of one ciphertext: one ModUp, one ModDown";
  let description = [{
    ```mlir
    %s = ckks.hoisted_rotate_sum %x by [0, 1, 2, 3] : !ct
    ```
    The result is the sum over i of `ckks.rotate %x by offsets[i]` (offset 0
    is %x itself). One ModUp is shared by all rotations and the key products
    are accumulated in the extended basis QP, so one ModDown serves the whole
    sum ("double hoisting": Bossuat et al., Eurocrypt 2021; Cheddar 5.1).
    Made by `ckks-hoist-rotations` from an add tree of rotations.
  }];
  let arguments = (ins CKKS_Ct:$input, DenseI64ArrayAttr:$offsets);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input `by` $offsets attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def CKKS_HoistedDotOp : CKKS_Op<"hoisted_dot", [Pure,
    CKKS_NeedsLinearInput, CKKS_KeySwitching]> {
  let summary = "sum of rotations of one ciphertext times plaintexts: one "
                "ModUp, one ModDown";
  let description = [{
    ```mlir
    %y = ckks.hoisted_dot %x by [0, 1, 2] weights(%p0, %p1, %p2)
        : !ct, !pt, !pt, !pt -> !ct2
    ```
    The result is the sum over i of `ckks.mul_plain (ckks.rotate %x by
    offsets[i]), weights[i]` (offset 0 is %x itself). One ModUp is shared
    by the rotations, and the plaintext products are taken of the key
    products while they are still over the extended basis Q_l u P (each
    weight encoded over Q_l u P), so that one ModDown serves the whole sum:
    the inner sum of a baby-step giant-step matrix product with "double
    hoisting" (Bossuat, Mouchet, Troncoso-Pastoriza and Hubaux, Eurocrypt
    2021, 4.2; Cheddar 5.1). ModDown commutes with a plaintext product up
    to rounding (the rounding error is multiplied by the weight, as the
    product of a rounded ModDown would be). The weights must be
    `ckks.encode` constants at the input's level, of one scale; the result
    is at the input's level, its scale the input's times the weights'.
    Made by `ckks-hoist-rotations` from sums of such products.
  }];
  let arguments = (ins CKKS_Ct:$input, DenseI64ArrayAttr:$offsets,
                   Variadic<CKKS_Pt>:$weights);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = [{
    $input `by` $offsets `weights` `(` $weights `)` attr-dict `:`
    type($input) `,` type($weights) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Modulus management
//===----------------------------------------------------------------------===//

def CKKS_RescaleOp : CKKS_Op<"rescale", [Pure, CKKS_ReducesLevel,
    CKKS_NeedsLinearInput]> {
  let summary = "divide by q_level: level - 1, scale / q_level";
  let description = [{
    The input must have degree 2: rescaling (c0, c1, c2) rounds c2, whose
    rounding error decrypts multiplied by s^2 (about N times larger than
    the error of c1), so a product is relinearized first.

    ```mlir
    %b = ckks.rescale %a : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
                        -> !ckks.ct<8, level = 1, scale = 1099511693311.9998>
    ```
    The result scale is the input scale divided by the actual prime
    q_level of the module's `#ckks.params` (exact, as the runtime computes
    it), checked with a relative tolerance of 1e-9.
  }];
  let arguments = (ins CKKS_Ct:$input);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def CKKS_ModRaiseOp : CKKS_Op<"mod_raise", [Pure, CKKS_NeedsLinearInput]> {
  let summary = "bootstrapping's ModRaise: level 0 read at the top level";
  let description = [{
    ```mlir
    %r = ckks.mod_raise %x {input_scale = 1.1259e+15 : f64}
        : !ckks.ct<4096, level = 0, scale = 1.1259e+15>
       -> !ckks.ct<4096, level = 26, scale = 1.1259e+15>
    ```
    Lifts each polynomial of a level-0 ciphertext (its coefficients'
    centred representatives mod q_0) to the whole chain Q_L: the result
    decrypts to P + q_0 I, I an integer polynomial with small
    coefficients (about sqrt(h / 12) for a secret of Hamming weight h). The
    result type is given (level L, the chain's top scale), not inferred:
    the slots are read at that scale by the CoeffToSlot that follows. Its
    slot count is the input's or a multiple of it (a sparse input is read
    at N/2 slots: I is not in the input's subring).
    `input_scale` is the scale the input must have (the chain's canonical
    S_0, which the expansion's constants assume); `ckks-manage-levels`
    brings the operand to level 0 at exactly that scale. Lowers to INTT,
    a one-prime (centred) BConv to q_1..q_L and an NTT.

    With `encapsulate` (sparse-secret encapsulation, Bossuat, Troncoso-
    Pastoriza and Hubaux, ACNS 2022) the main secret s is dense: the input
    is first key-switched to an ephemeral sparse secret s' over q_0 and the
    first special prime (`rns.load_key to_sparse`), raised under s' (so I
    stays as small as a sparse secret makes it), and switched back to s at
    the top level (`rns.load_key from_sparse`).
  }];
  let arguments = (ins CKKS_Ct:$input, F64Attr:$input_scale,
                       UnitAttr:$encapsulate);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def CKKS_ModDropOp : CKKS_Op<"mod_drop", [Pure, CKKS_ReducesLevel]> {
  let summary = "drop primes down to a lower level, scale unchanged";
  let description = [{
    `%b = ckks.mod_drop %a : !ckks.ct<8, level = 3, ...> -> !ckks.ct<8,
    level = 1, ...>` keeps q_0..q_1: the scale and degree are unchanged.
  }];
  let arguments = (ins CKKS_Ct:$input);
  let results = (outs CKKS_Ct:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

#endif // EMBER_CKKS_OPS_TD
