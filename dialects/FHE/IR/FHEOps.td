//===- FHEOps.td - fhe operations ---------------------------*- tablegen -*-===//
#ifndef EMBER_FHE_OPS_TD
#define EMBER_FHE_OPS_TD

include "dialects/FHE/IR/FHETypes.td"
include "dialects/Common/SlotValues.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

def FHE_ConstantOp : FHE_Op<"constant", [ConstantLike, Pure]> {
  let summary = "a plaintext vector constant";
  let description = [{
    A dense vector of slot values, f64 (real) or complex<f64>, or a splat
    (one value broadcast to every slot). The tensor length must equal the
    slot count, or be a splat.

    ```mlir
    %w = fhe.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64> -> !fhe.pt<4>
    %half = fhe.constant dense<0.5> : tensor<4xf64> -> !fhe.pt<4>
    %i = fhe.constant dense<(0.0, 1.0)> : tensor<4xcomplex<f64>> -> !fhe.pt<4>
    ```
  }];
  let arguments = (ins Ember_SlotValuesAttr:$value);
  let results = (outs FHE_PlaintextType:$result);
  let assemblyFormat = "$value attr-dict `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

// Binary slot-wise ops: any mix of ciphertext and plaintext operands, at
// least one encrypted; the result is a ciphertext of the same slot count.
class FHE_BinaryOp<string mnemonic, list<Trait> traits = []>
    : FHE_Op<mnemonic, !listconcat([Pure], traits)> {
  let arguments = (ins FHE_AnyValue:$lhs, FHE_AnyValue:$rhs);
  let results = (outs FHE_CiphertextType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def FHE_AddOp : FHE_BinaryOp<"add", [Commutative]> {
  let summary = "slot-wise addition";
  let description = [{
    `%c = fhe.add %a, %b : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>`. Adding a
    zero constant folds away.
  }];
  let hasFolder = 1;
}

def FHE_SubOp : FHE_BinaryOp<"sub"> {
  let summary = "slot-wise subtraction (lhs - rhs)";
  let description = [{
    `%c = fhe.sub %a, %b : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>`.
    Subtracting a zero constant folds away.
  }];
  let hasFolder = 1;
}

def FHE_MulOp : FHE_BinaryOp<"mul", [Commutative]> {
  let summary = "slot-wise multiplication";
  let description = [{
    `%c = fhe.mul %a, %b : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>`. Each
    multiplication adds one to the multiplicative depth that `fhe-to-ckks`
    budgets levels for (plaintext multiplications included: they rescale).
  }];
}

class FHE_UnaryOp<string mnemonic, list<Trait> traits = []>
    : FHE_Op<mnemonic, !listconcat([Pure, SameOperandsAndResultType], traits)> {
  let arguments = (ins FHE_CiphertextType:$input);
  let results = (outs FHE_CiphertextType:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
}

def FHE_NegOp : FHE_UnaryOp<"neg"> {
  let summary = "slot-wise negation";
  let description = "`%b = fhe.neg %a : !fhe.ct<8>`";
}

def FHE_ConjugateOp : FHE_UnaryOp<"conjugate"> {
  let summary = "complex conjugation of every slot";
  let description = "`%b = fhe.conjugate %a : !fhe.ct<8>`";
}

def FHE_BootstrapOp : FHE_UnaryOp<"bootstrap"> {
  let summary = "refresh a ciphertext's levels (CKKS bootstrapping)";
  let description = [{
    `%y = fhe.bootstrap %x : !fhe.ct<8>` gives `y = x` (up to the
    scheme's approximation error) at a level from which the program can
    multiply again. `fhe-to-ckks` budgets the levels of the procedure
    (ModRaise, CoeffToSlot, EvalMod, SlotToCoeff: see
    compiler/Conversions/FHEToCKKS/Bootstrap.h), chooses a sparse secret
    for it and expands it into fhe ops (`fhe.mod_raise`, linear
    transforms, polynomials) once the parameters are known. Its input
    must lie in [-8, 8] at the default 2^50 scale (the range analysis
    checks it): the sine that removes q_0's multiples is linear only near
    0.
  }];
}

def FHE_ModRaiseOp : FHE_Op<"mod_raise", [Pure]> {
  let summary = "the first step of bootstrapping (made by fhe-to-ckks only)";
  let description = [{
    `%r = fhe.mod_raise %x : !fhe.ct<8> -> !fhe.ct<8>` reads x's ciphertext
    at level 0 (its polynomial P, at the canonical level-0 scale S_0 of the
    chain) as one at the top level L: its slots then hold
    sigma(P + q_0 I) / S_L for an unknown integer polynomial I with small
    coefficients (bounded by the K of the bootstrapping configuration).
    The result's slot count is the input's or a multiple of it: a sparse
    input's P lies in the subring of its slot count, but I does not, so
    bootstrapping's sparse packing reads the raised polynomial at N/2
    slots. Only `fhe-to-ckks` makes it, when it expands `fhe.bootstrap`
    with the chosen parameters, so it is not a value-level operation a
    program writes; it lowers to `ckks.mod_raise`.
  }];
  let arguments = (ins FHE_CiphertextType:$input);
  let results = (outs FHE_CiphertextType:$result);
  let assemblyFormat =
      "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def FHE_TileOp : FHE_Op<"tile", [Pure]> {
  let summary = "the slots repeated to a larger slot count (free)";
  let description = [{
    `%y = fhe.tile %x : !fhe.ct<4> -> !fhe.ct<16>` gives
    `y[i] = x[i mod 4]`. The result's slot count is a multiple of the
    input's. In CKKS a vector of s slots is encoded in the subring that
    repeats it every s slots, so it already is its tiling: the op only
    changes the slot count (no level, no work). It lets values of
    different slot counts meet.
  }];
  let arguments = (ins FHE_CiphertextType:$input);
  let results = (outs FHE_CiphertextType:$result);
  let assemblyFormat =
      "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def FHE_UntileOp : FHE_Op<"untile", [Pure]> {
  let summary = "a periodic vector read at its period (made by fhe-to-ckks only)";
  let description = [{
    `%y = fhe.untile %x : !fhe.ct<16> -> !fhe.ct<4>` gives `y[i] = x[i]`
    for a vector x that repeats every 4 slots: its polynomial lies in the
    subring of 4 slots, so reading it with 4 slots is free (the inverse of
    `fhe.tile`). The repetition is the maker's promise, not a checked
    property, so only `fhe-to-ckks` makes it: bootstrapping's sparse
    packing (fewer than N/2 slots) works at 2n and N/2 slots and returns
    to n. The result's slot count divides the input's. Lowers to
    `ckks.tile` with the smaller slot count.
  }];
  let arguments = (ins FHE_CiphertextType:$input);
  let results = (outs FHE_CiphertextType:$result);
  let assemblyFormat =
      "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def FHE_RotateOp : FHE_Op<"rotate", [Pure, SameOperandsAndResultType]> {
  let summary = "cyclic left rotation of the slots by a constant";
  let description = [{
    `%b = fhe.rotate %a by 3 : !fhe.ct<8>` gives `b[i] = a[(i + 3) mod 8]`.
    The offset satisfies `-slots < offset < slots`; a negative offset rotates
    right. Folding: a rotation by 0 is its input; a rotation of a rotation
    is one rotation by the sum of the offsets, taken mod `slots`.
  }];
  let arguments = (ins FHE_CiphertextType:$input, I64Attr:$offset);
  let results = (outs FHE_CiphertextType:$result);
  let assemblyFormat = "$input `by` $offset attr-dict `:` qualified(type($input))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def FHE_PolyEvalOp : FHE_Op<"poly_eval", [Pure, SameOperandsAndResultType]> {
  let summary = "a polynomial of a ciphertext, slot by slot";
  let description = [{
    `%y = fhe.poly_eval %x "chebyshev" [c0, c1, ..., cd] on [lo, hi] : !fhe.ct<8>`
    gives `y[i] = sum_k c_k T_k(t_i)`, `t_i = (2 x_i - lo - hi) / (hi - lo)`
    (the Chebyshev series of degree d on [lo, hi]);
    `"power" [c0, ..., cd] on [-1.0, 1.0]` gives `sum_k c_k x_i^k` (the
    power basis takes no interval: it must be [-1, 1]).

    `fhe-expand-poly-eval` expands it into multiplications and additions by
    Paterson-Stockmeyer (baby steps T_1..T_k, giant steps T_k, T_2k, ...) in
    ceil(log2(d + 1)) levels, plus one for the change of variable when
    2 / (hi - lo) is not an integer. The coefficients are f64;
    trailing zeros are dropped; the degree must be at least 1.
  }];
  let arguments = (ins FHE_CiphertextType:$input, StrAttr:$basis,
                       DenseF64ArrayAttr:$coeffs, DenseF64ArrayAttr:$interval);
  let results = (outs FHE_CiphertextType:$result);
  let assemblyFormat = [{
    $input $basis $coeffs `on` $interval attr-dict `:` qualified(type($input))
  }];
  let hasVerifier = 1;
}

def FHE_LinearTransformOp
    : FHE_Op<"linear_transform", [Pure, SameOperandsAndResultType]> {
  let summary = "a plaintext matrix times a ciphertext, by its diagonals";
  let description = [{
    `%y = fhe.linear_transform %x by [0, 1, 5] diagonals dense<...> :
    tensor<3x8xf64> : !fhe.ct<8>` gives `y = sum_j d_j * rot(x, o_j)` for
    offsets o_j (distinct, in [0, slots)) and diagonals d_j (row j of the
    `offsets x slots` tensor, f64 or complex<f64>): the slots x slots
    matrix M with `M[s][(s + o_j) mod slots] = d_j[s]` (Halevi-Shoup's
    generalized diagonals) times x. One level (a plaintext product).

    `fhe-expand-linear-transform` lowers it by baby-step giant-step: `baby`
    baby steps (rotations of x, which `ckks-hoist-rotations` shares one
    ModUp for) and giant steps over their sums (whose ModDowns
    `rns-merge-moddown` merges: double hoisting). `baby = 0` (the default)
    lets the pass choose it with its cost model.
  }];
  let arguments = (ins FHE_CiphertextType:$input, DenseI64ArrayAttr:$offsets,
                       Ember_SlotValuesAttr:$diagonals,
                       DefaultValuedAttr<I64Attr, "0">:$baby);
  let results = (outs FHE_CiphertextType:$result);
  let assemblyFormat = [{
    $input `by` $offsets `diagonals` $diagonals attr-dict `:` qualified(type($input))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Encrypted integers (scheme="tfhe"), lowered by fhe-to-lwe to bit circuits
//===----------------------------------------------------------------------===//

class FHE_IntBinaryOp<string mnemonic, list<Trait> traits = []>
    : FHE_Op<mnemonic, !listconcat([Pure, SameOperandsAndResultType], traits)> {
  let arguments = (ins FHE_AnyEncryptedInt:$lhs, FHE_AnyEncryptedInt:$rhs);
  let results = (outs FHE_AnyEncryptedInt:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` qualified(type($result))";
}

def FHE_IntAddOp : FHE_IntBinaryOp<"int_add", [Commutative]> {
  let summary = "integer addition modulo 2^width";
  let description = "`%c = fhe.int_add %a, %b : !fhe.eint<8>`";
}
def FHE_IntSubOp : FHE_IntBinaryOp<"int_sub"> {
  let summary = "integer subtraction modulo 2^width (lhs - rhs)";
  let description = "`%c = fhe.int_sub %a, %b : !fhe.eint<8>`";
}
def FHE_IntMulOp : FHE_IntBinaryOp<"int_mul", [Commutative]> {
  let summary = "integer multiplication modulo 2^width";
  let description = "`%c = fhe.int_mul %a, %b : !fhe.eint<8>` (the low bits).";
}
def FHE_IntAndOp : FHE_IntBinaryOp<"int_and", [Commutative]> {
  let summary = "bitwise and";
  let description = "`%c = fhe.int_and %a, %b : !fhe.eint<8>`";
}
def FHE_IntOrOp : FHE_IntBinaryOp<"int_or", [Commutative]> {
  let summary = "bitwise or";
  let description = "`%c = fhe.int_or %a, %b : !fhe.eint<8>`";
}
def FHE_IntXorOp : FHE_IntBinaryOp<"int_xor", [Commutative]> {
  let summary = "bitwise exclusive or";
  let description = "`%c = fhe.int_xor %a, %b : !fhe.eint<8>`";
}

def FHE_IntNotOp : FHE_Op<"int_not", [Pure, SameOperandsAndResultType]> {
  let summary = "bitwise complement";
  let description = "`%b = fhe.int_not %a : !fhe.eint<8>`";
  let arguments = (ins FHE_AnyEncryptedInt:$input);
  let results = (outs FHE_AnyEncryptedInt:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
}

def FHE_IntConstantOp : FHE_Op<"int_constant", [ConstantLike, Pure]> {
  let summary = "an integer constant as an encrypted integer (a trivial encryption)";
  let description = [{
    `%c = fhe.int_constant 5 : !fhe.eint<8>`: the value must fit the type
    (unsigned: [0, 2^width), signed: [-2^(width-1), 2^(width-1))). Its bits
    are known to the compiler, which folds them into the gates that use
    them (`x + 1` needs no bootstrap for the constant's zero bits).
  }];
  let arguments = (ins I64Attr:$value);
  let results = (outs FHE_AnyEncryptedInt:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def FHE_IntCmpOp : FHE_Op<"int_cmp", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "integer comparison giving an encrypted bit";
  let description = [{
    `%b = fhe.int_cmp "lt", %x, %y : !fhe.eint<8> -> !fhe.eint<1>`.
    Predicates: eq, ne, lt, le, gt, ge (signed for `!fhe.esint`).
  }];
  let arguments = (ins StrAttr:$predicate, FHE_AnyEncryptedInt:$lhs,
                       FHE_AnyEncryptedInt:$rhs);
  let results = (outs FHE_EncryptedUIntType:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def FHE_IntLutOp : FHE_Op<"int_lut", [Pure]> {
  let summary = "a table lookup: table[x] for x the input's bit pattern";
  let description = [{
    `%y = fhe.int_lut %x [3, 0, 2, 1] : !fhe.eint<2> -> !fhe.eint<2>`: the
    table has 2^width(input) entries, indexed by the input's bits read as
    an unsigned number; every entry fits the result type.
  }];
  let arguments = (ins FHE_AnyEncryptedInt:$input, DenseI64ArrayAttr:$table);
  let results = (outs FHE_AnyEncryptedInt:$result);
  let assemblyFormat = [{
    $input $table attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

#endif // EMBER_FHE_OPS_TD
