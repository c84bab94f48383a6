//===- ManageLevels.td - ckks-manage-levels -----------------*- tablegen -*-===//
#ifndef EMBER_TRANSFORMS_MANAGELEVELS_TD
#define EMBER_TRANSFORMS_MANAGELEVELS_TD

include "mlir/Pass/PassBase.td"

def ManageLevels : Pass<"ckks-manage-levels", "mlir::ModuleOp"> {
  let summary = "Insert rescale and mod_drop so binary ops match in level and scale";
  let description = [{
    **What.** Removes every `ckks.rescale`, `ckks.mod_drop` and scale
    adjustment (`ckks.mul_plain` marked `ckks.scale_adjust`) and places them
    again by a forward walk, recomputing every type from the function
    arguments down, so that the pass is idempotent and strategy-driven:

    - `strategy=eager`: a `ckks.rescale` right after every `ckks.mul` and
      `ckks.mul_plain` (the textbook schedule).
    - `strategy=lazy` (waterline rescaling): a value is rescaled only when it
      is about to be multiplied or returned, or meets a lower-level operand,
      and its scale exceeds 2^waterline. `(a*b) + (c*d)` then costs one
      rescale instead of two, and additions run at the higher level (lazy
      rescaling: Kim, Papadimitriou, Polyakov, "Approximate homomorphic
      encryption with reduced approximation error", CT-RSA 2022; Cheddar
      5.2).

    Additions and subtractions are then matched, cheapest first: at equal
    scales the higher-level operand is `mod_drop`ped; when an operand is
    made of products by plaintexts (a linear combination sum_i c_i x_i,
    possibly with integer multiples, negations, plaintext additions and
    rescales in it, every op single-use) it is *refolded*: redone at the
    other operand's level, each x_i `mod_drop`ped there and its constant
    re-encoded at s_target / s(x_i), so the scale adjustment costs nothing
    (the constant is encoded anyway) and the sum takes one rescale (the
    baby steps T_1 .. T_k of a polynomial sit at several levels; adjusting
    each partial sum cost a multiply and a rescale per term); when a rescale of the
    higher one lands exactly on the other's scale it is rescaled; when the
    scales are far apart (ratio >= 2^20) the smaller-scale operand is
    multiplied by 1 encoded at the ratio, which costs no level; otherwise
    the higher one is mod-dropped to one level above the other, multiplied
    by 1 encoded at s_target * q / s and rescaled, which lands exactly on
    the other's scale (and at one level with close scales, both go one
    level down that way). Every adjustment tries a refold first, at the
    target or one level above it and rescaled.

    Multiplication operands need equal levels. When they differ and the
    product reaches an addition or subtraction (directly or through later
    ops), the higher operand is brought down to the lower one's level *and
    scale* by the same adjustment (multiply by 1 encoded at about S_{l+1},
    rescale: it has the level to spare), as OpenFHE's FLEXIBLEAUTO does.
    Every value at level l then carries that level's scale S_l (S_{l-1} =
    S_l^2 / q_l, the sequence `ember::generateQChain` picks its primes
    for), so products made at one level all rescale to the same scale and
    additions of them never run out of levels to match; the program needs
    exactly its multiplicative depth in levels.

    With `rescale-outputs=false` (lazy strategy) a returned value keeps its
    scale, a lone product's ~S^2 included, and the client decrypts with the
    scale the interface records. A rescale divides the modulus and the
    scale alike, so Q_l / scale, the room the message has, is the same
    either way; not rescaling saves the rescale's time and rounding error
    and keeps the level. One hmul+relin then costs what OpenFHE's and
    Phantom's benchmarks time (no rescale). A product that meets no
    addition only needs the level, and its higher operand is mod_dropped.
    Plaintext operands (`ckks.encode`) are re-encoded at the level the use
    needs and at the ciphertext's exact scale (for `mul_plain` too, so a
    plaintext product has the scale of a ciphertext product at that level).
    Scales stay exact: a rescale at level l divides by the actual prime
    q_l of `#ckks.params`.

    Every product is relinearized right away (a rescale needs degree 2);
    `ckks-insert-relin`, which runs next, makes that lazy where it is free.

    **Why.** CKKS needs operands at one level and one scale; where rescales go
    decides both the levels a program consumes and its precision (Cheddar
    5.2: "lazy everything").

    Fails with a diagnostic when a rescale would be needed at level 0.
  }];
  let dependentDialects = ["::ember::ckks::CKKSDialect"];
  let options = [
    Option<"strategy", "strategy", "std::string", /*default=*/"\"eager\"",
           "eager (rescale after every multiplication) or lazy (rescale "
           "only when needed, above the waterline)">,
    Option<"waterline", "waterline", "int64_t", /*default=*/"0",
           "Lazy strategy: log2 of the scale above which a value is "
           "rescaled before a multiplication or return; 0 means "
           "1.5 x logScale of #ckks.params">,
    Option<"rescaleOutputs", "rescale-outputs", "bool", /*default=*/"true",
           "Lazy strategy: rescale returned values above the waterline "
           "(false: return them at their scale)">,
  ];
}

#endif // EMBER_TRANSFORMS_MANAGELEVELS_TD
