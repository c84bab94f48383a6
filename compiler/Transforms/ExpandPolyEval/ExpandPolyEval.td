//===- ExpandPolyEval.td - fhe-expand-poly-eval -------------*- tablegen -*-===//
#ifndef EMBER_TRANSFORMS_EXPANDPOLYEVAL_TD
#define EMBER_TRANSFORMS_EXPANDPOLYEVAL_TD

include "mlir/Pass/PassBase.td"

def ExpandPolyEval : Pass<"fhe-expand-poly-eval", "mlir::ModuleOp"> {
  let summary = "Expand fhe.poly_eval by Paterson-Stockmeyer at minimal depth";
  let description = [{
    **What.** Replaces every `fhe.poly_eval` by `fhe.mul`, `fhe.add`,
    `fhe.sub` and splat `fhe.constant`s:

    - Chebyshev basis on [lo, hi]: t = alpha x + beta with alpha = 2 / (hi -
      lo), beta = -(hi + lo) / (hi - lo) (no op on [-1, 1]; the
      multiplication is free when alpha is an integer, `ckks.mul_int`);
      baby steps T_1..T_k (k a power of two near sqrt(d + 1), T_n = 2 T_a T_b
      - T_(a-b) with a the largest power of two below n, so T_n sits at depth
      ceil(log2 n)), giant steps T_k, T_2k, T_4k, ...; the series is split
      at the largest giant step g below its length, p = r + q T_g with
      q_0 = c_g, q_i = 2 c_(g+i) and r_(g-i) -= c_(g+i) (T_(g+i) = 2 T_g T_i
      - T_(g-i)), recursively.
    - Power basis: baby steps x^1..x^k, giant steps x^k, x^2k, ...; p = r +
      q x^g recursively.

    The scalar coefficients multiply baby steps (a level each, none for an
    integer); the factors 2 of the recurrences are integers and cost no
    level. The baby-step count k is the power of two whose expansion is the
    shallowest (a model of each op's depth), then has the fewest ciphertext
    products, then is nearest sqrt(d + 1): near sqrt(d + 1) the deepest
    baby step's coefficient meets the deepest giant step when d + 1 is at
    or just below a power of two (d = 7, 15, 31, 61-63, ...: one level
    more), where a smaller k avoids it. Total depth ceil(log2(d + 1)) for every degree (checked up to
    256 in both bases, tests/e2e/test_poly_eval.py), plus one for a change
    of variable that is not free; `fhe-to-ckks` budgets it when it picks
    the modulus chain. Rescales and relinearizations are placed later
    (`ckks-manage-levels`, lazy; `ckks-insert-relin`), as for any program.

    **Why.** A polynomial is how CKKS evaluates every non-polynomial function
    (sigmoid, tanh, the modular reduction of bootstrapping); evaluating it
    at the minimal depth is what decides how many levels a program
    consumes. Paterson-Stockmeyer in the Chebyshev basis is the method of
    Lattigo and OpenFHE (EvalChebyshevSeriesPS); the same algorithm written
    by a user in Python is tests/e2e/polys.py.
  }];
  let dependentDialects = ["::ember::fhe::FHEDialect"];
}

#endif // EMBER_TRANSFORMS_EXPANDPOLYEVAL_TD
