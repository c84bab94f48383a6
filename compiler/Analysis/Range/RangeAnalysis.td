//===- RangeAnalysis.td - fhe-annotate-ranges ----------------*- tablegen -*-===//
#ifndef EMBER_ANALYSIS_RANGE_TD
#define EMBER_ANALYSIS_RANGE_TD

include "mlir/Pass/PassBase.td"

def FHEAnnotateRanges : Pass<"fhe-annotate-ranges", "mlir::ModuleOp"> {
  let summary = "Annotate every fhe value with the range of its slots";
  let description = [{
    **What.** Runs the range analysis (`compiler/Analysis/Range`, the one
    `fhe-to-ckks` uses to choose the first prime and the scale) and writes
    what it found onto the IR, for tests and for reading a program's
    magnitudes: each op's result gets `fhe.range = [lo, hi]` (the hull of
    its slots' ranges; `[re_lo, re_hi, im_lo, im_hi]` when an imaginary
    part can be nonzero) and `fhe.bound` (the largest magnitude |z| of any
    slot); the module gets `fhe.largest` and `fhe.largest_bound`: the value
    that must fit the first prime with the largest bound.

    **The analysis.** Interval arithmetic from the arguments' declared
    ranges (`fhe.range` argument attributes; without one, an argument lies
    in [-1, 1], the usual CKKS convention), one interval per slot for the
    real part and one for the imaginary part: `add`, `sub`, `neg` part by
    part; `mul` as the complex product of intervals, `x * x` as a square
    (never negative); `rotate` moves the slots' intervals; `conjugate`
    negates the imaginary part; a `constant` is its slots' values. Keeping
    one interval per slot (a single one while all slots agree) is what
    makes a diagonal-method matrix-vector product come out as the sum of
    |w| of each row rather than slots x max |w|. An op carrying
    `fhe.assume_range = [lo, hi]` has its real slots' range intersected
    with it: `fhe-expand-poly-eval` marks the Chebyshev variable t and every
    T_n (|T_n| <= 1 on the interval the user gave, where interval
    arithmetic alone grows like 3^n). An fhe op without a rule is an
    error: a range the compiler cannot bound is never guessed.

    **Why.** A CKKS value of magnitude B at scale S is held as a polynomial
    with coefficients up to B * S; when that passes q_0 / 2 the decryption
    wraps around silently (issue 12: `x * x` at x = 3000 decrypted to
    -437182).
  }];
}

#endif // EMBER_ANALYSIS_RANGE_TD
