//===- RNSOps.td - rns operations --------------------------*- tablegen -*-===//

#ifndef EMBER_DIALECT_RNS_OPS_TD
#define EMBER_DIALECT_RNS_OPS_TD

include "RNSDialect.td"
include "RNSTypes.td"
include "dialects/Common/SlotValues.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

/// Limb-wise elementwise: output limb i, coefficient j depends only on the
/// operands' limb i, coefficient j. `rns-fuse-elementwise` fuses these.
def RNS_Elementwise : NativeOpTrait<"RNSElementwise"> {
  let cppNamespace = "::ember::rns::OpTrait";
}

/// Every rns type among the op's operands and results fits the module's
/// `#ckks.params` (when the module has them): Q, P and T ranges within the
/// chain, keys of the chain's shape (RNSOps.cpp, verifyTypesAgainstParams).
def RNS_WithinParams : NativeOpTrait<"RNSWithinParams"> {
  let cppNamespace = "::ember::rns::OpTrait";
}

class RNS_Op<string mnemonic, list<Trait> traits = []>
    : Op<RNS_Dialect, mnemonic, !listconcat(traits, [RNS_WithinParams])>;

//===----------------------------------------------------------------------===//
// Elementwise arithmetic (all mod q_i, limb by limb)
//===----------------------------------------------------------------------===//

def RNS_ZeroOp : RNS_Op<"zero", [Pure]> {
  let summary = "the zero polynomial";
  let description = [{
    `%z = rns.zero : !rns.poly<ntt, q[0:3]>` is 0 in every limb; folds away
    as an operand of `add`, `sub` and `mul`.
  }];
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def RNS_EncodeOp : RNS_Op<"encode", [Pure]> {
  let summary = "a plaintext constant encoded as a polynomial";
  let description = [{
    `%p = rns.encode dense<0.5> : tensor<8xf64>, 1099511627776.0 :
    !rns.poly<ntt, q[0:4]>` is the CKKS encoding of the slot values at the
    given scale, reduced mod the result's primes, in the result's form.
    Lowered from `ckks.encode`; the code generator precomputes it.
  }];
  let arguments = (ins Ember_SlotValuesAttr:$value, F64Attr:$scale);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = "$value `,` $scale attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def RNS_EncodeValuesOp : RNS_Op<"encode_values", [Pure]> {
  let summary = "run-time slot values encoded as a polynomial";
  let description = [{
    `%p = rns.encode_values %w, 1099511627776.0 : tensor<8xcomplex<f64>> ->
    !rns.poly<ntt, q[0:4]>` is the CKKS encoding of a plaintext argument's
    slot values at the given scale, over the result's primes (a prefix of
    Q), in the result's form. Lowered from `ckks.encode_values`; encoded
    when the program runs.
  }];
  let arguments = (ins Ember_SlotValuesTensor:$values, F64Attr:$scale);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = [{
    $values `,` $scale attr-dict `:` type($values) `->` type($result)
  }];
  let hasVerifier = 1;
}

class RNS_BinaryOp<string mnemonic, list<Trait> traits = []>
    : RNS_Op<mnemonic, !listconcat(traits, [Pure, SameOperandsAndResultType,
                                            RNS_Elementwise])> {
  let arguments = (ins RNS_AnyPoly:$lhs, RNS_AnyPoly:$rhs);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
}

def RNS_AddOp : RNS_BinaryOp<"add", [Commutative]> {
  let summary = "limb-wise addition mod q_i";
  let description = [{
    Adds two polynomials over the same basis and in the same form.
    `add(x, zero)` folds to `x`.
  }];
}

def RNS_SubOp : RNS_BinaryOp<"sub"> {
  let summary = "limb-wise subtraction mod q_i";
  let description = [{
    Subtracts two polynomials over the same basis and in the same form.
    `sub(x, zero)` folds to `x`.
  }];
}

def RNS_MulOp : RNS_BinaryOp<"mul", [Commutative]> {
  let summary = "limb-wise (Hadamard) product in NTT form";
  let description = [{
    Multiplies two polynomials in NTT form coefficient by coefficient, which
    is the negacyclic product of the polynomials. The verifier rejects
    `coeff` operands: their product is a convolution, not elementwise.
  }];
  let hasVerifier = 1;
}

def RNS_NegOp : RNS_Op<"neg", [Pure, SameOperandsAndResultType,
                               RNS_Elementwise]> {
  let summary = "limb-wise negation mod q_i";
  let description = "Negates every residue; `neg(neg(x))` folds to `x`.";
  let arguments = (ins RNS_AnyPoly:$input);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasFolder = 1;
}

def RNS_MulConstOp : RNS_Op<"mul_const", [Pure, SameOperandsAndResultType,
                                          RNS_Elementwise]> {
  let summary = "multiplication by an integer constant";
  let description = [{
    Multiplies every limb by the signed integer `value` reduced mod that
    limb's prime: `%y = rns.mul_const %x, 3 : !rns.poly<ntt, q[0:4]>`. The
    integer may be wider than 64 bits (`... , 1208925819614629174706176 :
    i82`): a CKKS plaintext that is one real constant c in every slot,
    encoded at scale s, is the constant polynomial round(c s), so a
    multiplication by it is this op (no encoding, no buffer). A value of 1
    folds away. `value` is a signless integer of at least 64 bits, read as
    signed (what the custom form and ckks-to-rns make).
  }];
  let arguments = (ins RNS_AnyPoly:$input, APIntAttr:$value);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = [{
    $input `,` custom<SignedInteger>($value) attr-dict `:` type($result)
  }];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def RNS_AddConstOp : RNS_Op<"add_const", [Pure, SameOperandsAndResultType,
                                          RNS_Elementwise]> {
  let summary = "addition of an integer constant polynomial (NTT form)";
  let description = [{
    `%y = rns.add_const %x, -5 : !rns.poly<ntt, q[0:4]>` adds the constant
    polynomial `value` (signed, any width): in NTT form every evaluation
    point gets `value` mod its limb's prime. Adding a CKKS plaintext that
    is one real constant c in every slot at scale s adds round(c s). Only
    NTT form (in coefficient form the constant polynomial is not
    elementwise). A value of 0 folds away. `value`: as in `mul_const`.
  }];
  let arguments = (ins RNS_AnyPoly:$input, APIntAttr:$value);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = [{
    $input `,` custom<SignedInteger>($value) attr-dict `:` type($result)
  }];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def RNS_MulPOp : RNS_Op<"mul_p", [Pure, RNS_Elementwise]> {
  let summary = "multiply by P into the extended basis Q_l u P";
  let description = [{
    `%y = rns.mul_p %x : !rns.poly<ntt, q[0:6]> -> !rns.poly<ntt, q[0:6], p[0:4]>`
    is `P * x` over Q_l u P: each Q limb is multiplied by `[P]_{q_i}` and the
    P limbs are zero. It lets a polynomial in Q_l join a key-switch
    accumulator before ModDown, so that a following rescale can merge into
    that ModDown (`rns-merge-moddown`; ModDown divides by P again).
  }];
  let arguments = (ins RNS_AnyPoly:$input);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def RNS_MulInvOp : RNS_Op<"mul_inv", [Pure, SameOperandsAndResultType,
                                      RNS_Elementwise]> {
  let summary = "multiply by the inverse of a product of primes";
  let description = [{
    `%y = rns.mul_inv %x, q[4:5], p[0:2] : !rns.poly<ntt, q[0:4]>` multiplies
    every limb by `D^-1 mod q_i`, where D is the product of the primes of
    the given sub-basis (here q_4 p_0 p_1), which must be disjoint from the
    operand's basis. It ends an expanded ModDown or rescale:
    `(x - conv(x)) * D^-1`, where the difference is divisible by D.
  }];
  let arguments = (ins RNS_AnyPoly:$input, I64Attr:$qLo, I64Attr:$qHi,
                   I64Attr:$pLo, I64Attr:$pHi);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = [{
    $input `,` custom<Divisor>($qLo, $qHi, $pLo, $pHi) attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Transforms and basis changes
//===----------------------------------------------------------------------===//

def RNS_NTTOp : RNS_Op<"ntt", [Pure]> {
  let summary = "forward negacyclic NTT of every limb";
  let description = [{
    Coefficient form to NTT form (bit-reversed order), same basis. Costs one
    limb-transform per limb. `ntt(intt(x))` folds to `x`.
  }];
  let arguments = (ins RNS_AnyPoly:$input);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def RNS_INTTOp : RNS_Op<"intt", [Pure]> {
  let summary = "inverse negacyclic NTT of every limb";
  let description = [{
    NTT form to coefficient form, same basis. `intt(ntt(x))` folds to `x`.
  }];
  let arguments = (ins RNS_AnyPoly:$input);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def RNS_BConvOp : RNS_Op<"bconv", [Pure]> {
  let summary = "fast base conversion between disjoint bases";
  let description = [{
    Computes the residues of `x` for the result basis from its residues over
    the input basis (Cheddar eq. 2): multiply each input limb by
    `[(B/b_i)^-1]_{b_i}`, then a `|out| x |in|` matrix product with entries
    `[B/b_i]_{c_j}`. Both sides are in coefficient form and share no limb.
    Costs `|in| x |out| x N` multiply-adds.

    The conversion is centred: it gives `x + u B` for the centred
    representative `x` of each coefficient, with `u` the sum of the inputs'
    centred fractions, rounded (zero from one limb; from `m` limbs, of
    variance about `m / 12`). With `exact`, `u` is computed in doubles and
    subtracted (Athena 2.2, ember::cpu::bconvExact): the result is `x`
    itself. ModRaise needs that from more than one limb: a `u` in `c_1`
    is multiplied by the secret, and would widen EvalMod's range `K` by
    the square root of the limb count.
  }];
  let arguments = (ins RNS_AnyPoly:$input, UnitAttr:$exact);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def RNS_DropLimbsOp : RNS_Op<"drop_limbs", [Pure]> {
  let summary = "keep a sub-basis (mod_drop, P part of an extended poly)";
  let description = [{
    Keeps the limbs of a sub-basis without any arithmetic: dropping the top Q
    limbs reduces `x mod Q_l` to `x mod Q_{l'}` (`ckks.mod_drop`); keeping
    only the P limbs of a Q_l u P polynomial gives the input of ModDown's
    BConv. The result's Q and P ranges must lie inside the input's.
    Folds: to its input when nothing is dropped; a drop of a drop reads
    the original.
  }];
  let arguments = (ins RNS_AnyPoly:$input);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def RNS_ConcatOp : RNS_Op<"concat", [Pure]> {
  let summary = "join polynomials over disjoint sub-bases";
  let description = [{
    The inverse of `drop_limbs`/`decompose`: the operands' bases are
    disjoint and together form the result's basis (same form); limbs are
    placed, not computed. An expanded ModUp joins the digit's own limbs
    with the limbs its BConv produced. Free in the cost model: the code
    generator writes the parts into one buffer.
  }];
  let arguments = (ins Variadic<RNS_AnyPoly>:$parts);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat =
      "$parts attr-dict `:` type($parts) `->` type($result)";
  let hasVerifier = 1;
}

def RNS_AutomorphismOp : RNS_Op<"automorphism", [Pure,
                                                 SameOperandsAndResultType]> {
  let summary = "the automorphism X -> X^g";
  let description = [{
    Applies the Galois automorphism `sigma_g: X -> X^g` (g odd) to every
    limb; in NTT form this is a permutation of columns (Cheddar eq. 3).
    Rotation by k slots uses `g = 5^k mod 2N`, conjugation `g = 2N - 1`.
    `g = 1` folds away.
  }];
  let arguments = (ins RNS_AnyPoly:$input, I64Attr:$galois);
  let results = (outs RNS_AnyPoly:$result);
  let assemblyFormat = "$input `,` $galois attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Modulus switching and hybrid key switching
//===----------------------------------------------------------------------===//

def RNS_RescaleOp : RNS_Op<"rescale", [Pure, SameVariadicOperandSize]> {
  let summary = "divide by the top prime q_l and round (ModSwitch)";
  let description = [{
    Rescales every polynomial of a ciphertext at once:
    `x -> round(x / q_l)`, from Q_l = q[lo:l+1] to Q_{l-1} = q[lo:l]. In RNS
    this is one ModSwitch (Cheddar 2.3): INTT of limb l, its reduction into
    the other limbs, NTT, subtract, multiply by `q_l^-1`. Under double-prime
    scaling (`#ckks.params<..., scalePrimes = 2>`) it drops the top pair
    at once (one ModSwitch by the pair's product). All operands share one
    type, all results another.
  }];
  let arguments = (ins Variadic<RNS_AnyPoly>:$inputs);
  let results = (outs Variadic<RNS_AnyPoly>:$results);
  let assemblyFormat =
      "$inputs attr-dict `:` type($inputs) `->` type($results)";
  let hasVerifier = 1;
}

def RNS_DecomposeOp : RNS_Op<"decompose", [Pure]> {
  let summary = "split Q_l into key-switching digits";
  let description = [{
    Splits a polynomial over Q_l into dnum digits of consecutive Q limbs
    (hybrid key switching, Phantom III-D). Each digit keeps its own limbs;
    no arithmetic happens (the HPS factor `[Q_j*^-1]_{D_j}` lives in the
    key), so this is a view. The digits' ranges must tile the input's.
  }];
  let arguments = (ins RNS_AnyPoly:$input);
  let results = (outs Variadic<RNS_AnyPoly>:$digits);
  let assemblyFormat =
      "$input attr-dict `:` type($input) `->` type($digits)";
  let hasVerifier = 1;
}

def RNS_ModUpOp : RNS_Op<"mod_up", [Pure, SameVariadicOperandSize,
                                    SameVariadicResultSize]> {
  let summary = "raise every key-switching digit to Q_l u P";
  let description = [{
    For each digit (a sub-range D_j of Q_l in NTT form) computes its
    residues over all of Q_l u P: INTT of the digit, BConv D_j -> (Q_l u P)
    minus D_j, NTT of the new limbs; the digit's own limbs are copied. One
    op covers all digits of one key switch, so the NTTs of all digits can be
    launched together and hoisting (one ModUp shared by many rotations) is a
    matter of uses of this op.
  }];
  let arguments = (ins Variadic<RNS_AnyPoly>:$digits);
  let results = (outs Variadic<RNS_AnyPoly>:$results);
  let assemblyFormat =
      "$digits attr-dict `:` type($digits) `->` type($results)";
  let hasVerifier = 1;
}

def RNS_LoadKeyOp : RNS_Op<"load_key", [Pure]> {
  let summary = "an evaluation key supplied by the client";
  let description = [{
    `rns.load_key relin : !rns.evk<...>` is the relinearisation key,
    `rns.load_key galois 25 : !rns.evk<...>` the rotation key of Galois
    element 25. The result type says the form: `!rns.evk` (hybrid) or
    `!rns.klss_evk` (KLSS, `rns-select-keyswitch`). The manifest lists
    exactly the keys loaded, in each form loaded.

    Bootstrapping's sparse-secret encapsulation keys (hybrid only):
    `rns.load_key to_sparse : !rns.evk<dnum = 1, q = 1, p = 1>` switches a
    level-0 ciphertext from s to the ephemeral sparse s' over Q_0 and the
    first special prime alone (its security rests on that small modulus),
    a digit per limb of Q_0 (`dnum = q = 3` under double-prime scaling:
    q_0 and the base pair);
    `rns.load_key from_sparse : !rns.evk<...>` switches back from s' to s,
    an ordinary key over Q u P.
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$galois,
                       OptionalAttr<StrAttr>:$encapsulation);
  let results = (outs RNS_AnyKey:$key);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def RNS_KSInnerProductOp : RNS_Op<"ks_inner_product", [Pure]> {
  let summary = "inner product of raised digits with an evaluation key";
  let description = [{
    `(acc0, acc1) = sum_j digit_j * (evk_j.b, evk_j.a)` over Q_l u P in NTT
    form. The digits are `mod_up` results (possibly permuted by an
    automorphism, when hoisted); there are at most dnum of them. With
    `galois`, each digit is read permuted by the NTT-form automorphism
    X -> X^galois: `sum_j sigma(digit_j) * evk_j`, the hoisted rotation's
    automorphism folded into the inner product's indexing
    (`rns-fuse-elementwise`), so the permuted digits are never written.
  }];
  let arguments = (ins Variadic<RNS_AnyPoly>:$digits, RNS_AnyEvalKey:$key,
                       OptionalAttr<I64Attr>:$galois);
  let results = (outs RNS_AnyPoly:$acc0, RNS_AnyPoly:$acc1);
  let assemblyFormat = "$key `(` $digits `)` attr-dict `:` type($key) `,` "
                       "`(` type($digits) `)` `->` type($acc0) `,` type($acc1)";
  let hasVerifier = 1;
}

def RNS_ModDownOp : RNS_Op<"mod_down", [Pure, AttrSizedOperandSegments,
                                        SameVariadicResultSize]> {
  let summary = "divide by P (and optionally the top Q primes) and round";
  let description = [{
    Inputs and results share one form. In NTT form (hybrid key switching)
    the P limbs are converted by INTT, BConv, NTT as below; in coefficient
    form (KLSS key switching, whose inner product ends in coefficient form)
    only the BConv and the subtract/scale run, and an `rns.ntt` of the
    results follows.

    Brings key-switch accumulators from Q_l u P back to a prefix of Q_l:
    `x -> round(x / D)` where D is the product of the dropped limbs. With
    the result over Q_l, D = P (plain ModDown: INTT of the P limbs, BConv
    P -> Q_l, NTT, subtract, multiply by `P^-1`). With the result over
    Q_{l-1}, D = P * q_l: ModDown merged with the following rescale in one
    ModSwitch (Cheddar 5.2, from MAD), produced by `rns-merge-moddown`.
    All polynomials of one ciphertext go through one op.

    Optional `lifted` addends y_0..y_{m-1} (m <= inputs, NTT form, over the
    inputs' Q limbs) make result i the switch of `x_i + P y_i` (P the
    product of the special primes): the merged ModDown's `P * c_i + acc_i`,
    read in place instead of an `rns.mul_p` and an `rns.add` over Q_l u P
    (`rns-merge-moddown` with lift-in-place). Over a plain ModDown (D = P)
    that is `ModDown(x_i) + y_i`, added in the last NTT's epilogue
    (`rns-merge-moddown` with lift-addends).

    With `lifted_galois = g` the addends are read permuted: result i is the
    switch of `x_i + P sigma_g(y_i)`, sigma_g the automorphism X -> X^g
    (a rotation's `sigma_g(c0) + ModDown(acc)#0`, folded by
    `rns-merge-moddown` with lift-rotation). Only where no Q limb is
    dropped (a plain ModDown to Q_l).
  }];
  let arguments = (ins Variadic<RNS_AnyPoly>:$inputs,
                       Variadic<RNS_AnyPoly>:$lifted,
                       OptionalAttr<I64Attr>:$lifted_galois);
  let results = (outs Variadic<RNS_AnyPoly>:$results);
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$results, "::mlir::ValueRange":$inputs,
                   "::mlir::ValueRange":$lifted), [{
      build($_builder, $_state, results, inputs, lifted,
            ::mlir::IntegerAttr());
    }]>
  ];
  let assemblyFormat = [{
    $inputs (`lifted` `(` $lifted^ `:` type($lifted) `)`)? attr-dict `:`
    type($inputs) `->` type($results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// KLSS key switching (Kim-Lee-Seo-Song, CRYPTO 2023; Athena 2.3)
//===----------------------------------------------------------------------===//

def RNS_KlssModUpOp : RNS_Op<"klss_mod_up", [Pure, SameVariadicOperandSize,
                                             SameVariadicResultSize]> {
  let summary = "convert every key-switching digit exactly to T";
  let description = [{
    KLSS step 1: for each digit (a sub-range D_j of Q_l in NTT form), INTT,
    exact base conversion D_j -> T (the centred representative, Athena 2.2)
    and NTT over T. Results `!rns.poly<ntt, t[0:R]>`, one per digit. One op
    covers all digits of one key switch, so a hoisted group of rotations
    shares it (each rotation applies its `rns.automorphism` to the T
    digits). Runtime: `klssModUp(ctx, digit)` per digit. Costs
    |D_j| + R limb-transforms and |D_j| x R multiply-adds per coefficient
    per digit.
  }];
  let arguments = (ins Variadic<RNS_AnyPoly>:$digits);
  let results = (outs Variadic<RNS_AnyPoly>:$results);
  let assemblyFormat =
      "$digits attr-dict `:` type($digits) `->` type($results)";
  let hasVerifier = 1;
}

def RNS_KlssInnerProductOp : RNS_Op<"klss_inner_product", [Pure]> {
  let summary = "KLSS inner product over T and the way back to Q_l u P";
  let description = [{
    KLSS step 2 (Athena Fig. 2): for each key group j covering P u Q_l,
    `acc_j = sum_i tdigit_i * key[i][j]` over T (NTT form), INTT over T and
    an exact BConv T -> group j's limbs. Results: the two accumulators in
    **coefficient form** over Q_l u P (the hybrid inner product's values),
    to be brought down by a coefficient-form `rns.mod_down` and one
    `rns.ntt`. Runtime: `klssInnerProduct(ctx, key, {tdigits}, level, acc0,
    acc1)`.
  }];
  let arguments = (ins Variadic<RNS_AnyPoly>:$digits, RNS_AnyKlssKey:$key);
  let results = (outs RNS_AnyPoly:$acc0, RNS_AnyPoly:$acc1);
  let assemblyFormat = "$key `(` $digits `)` attr-dict `:` type($key) `,` "
                       "`(` type($digits) `)` `->` type($acc0) `,` type($acc1)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// BFV
//===----------------------------------------------------------------------===//

def RNS_BfvTensorOp : RNS_Op<"bfv_tensor", [Pure,
    AllTypesMatch<["a0", "a1", "b0", "b1", "d0", "d1", "d2"]>]> {
  let summary = "BFV's scale-invariant tensor product (BEHZ or HPS)";
  let description = [{
    ```mlir
    %d0, %d1, %d2 = rns.bfv_tensor %a0, %a1, %b0, %b1 {behz}
                      : !rns.poly<ntt, q[0:4]>
    ```
    The product of the BFV ciphertexts (a0, a1) and (b0, b1) scaled by
    t / Q and rounded, in one of the two full-RNS methods: with `behz`,
    Bajard-Eynard-Hasan-Zucca (fast extension to an auxiliary base with
    Montgomery's correction, fast floor, Shenoy-Kumaresan back to Q);
    without, Halevi-Polyakov-Shoup (Phantom III-E: exact extension, the
    tensor over Q u R, scale-and-round to R, exact conversion back). Both
    INTT the inputs, take the tensor over Q u R and NTT the result; they
    round differently, and both decrypt to the product. Every polynomial is
    in NTT form over the full Q (a BFV chain never drops a prime); t is the
    chain's `plain`. One runtime call (`BfvEvaluator::multiplyBehz` or
    `multiply`).
  }];
  let arguments = (ins RNS_AnyPoly:$a0, RNS_AnyPoly:$a1, RNS_AnyPoly:$b0,
                       RNS_AnyPoly:$b1, UnitAttr:$behz);
  let results = (outs RNS_AnyPoly:$d0, RNS_AnyPoly:$d1, RNS_AnyPoly:$d2);
  let assemblyFormat = [{
    $a0 `,` $a1 `,` $b0 `,` $b1 attr-dict `:` type($a0)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fusion regions
//===----------------------------------------------------------------------===//

def RNS_FusedOp : RNS_Op<"fused", [IsolatedFromAbove,
                                   RecursiveMemoryEffects]> {
  let summary = "a group of ops the code generator emits as one kernel";
  let description = [{
    Produced by `rns-fuse-elementwise`. The body takes the external inputs
    as block arguments and yields the values used outside. It holds a chain
    of elementwise ops over one basis, possibly with one `ntt` or `intt`
    whose prologue (ops feeding it) and epilogue (ops using it) are the
    elementwise ops. Each external input is read once and each result
    written once (Cheddar 5.3).
  }];
  let arguments = (ins Variadic<RNS_AnyPoly>:$inputs);
  let results = (outs Variadic<RNS_AnyPoly>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
}

def RNS_YieldOp : RNS_Op<"yield", [Pure, Terminator, HasParent<"FusedOp">]> {
  let summary = "results of a fusion region";
  let description = "Terminates an `rns.fused` body.";
  let arguments = (ins Variadic<RNS_AnyPoly>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // EMBER_DIALECT_RNS_OPS_TD
