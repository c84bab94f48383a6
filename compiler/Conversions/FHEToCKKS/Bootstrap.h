//===- Bootstrap.h - CKKS bootstrapping as fhe ops ------------------------===//
//
// fhe-to-ckks expands each fhe.bootstrap, once the parameters are chosen,
// into the four steps of CKKS bootstrapping (Cheon-Han-Kim-Kim-Song 2018;
// Cheddar 2.3, Athena 5), written with fhe ops so that the expansions,
// hoisting, ModDown merging and fusion downstream see the whole procedure:
//
//   ModRaise     fhe.mod_raise: the level-0 polynomial P read at the top of
//                the chain, P + q_0 I (I small: the secret is sparse, or
//                the dense secret is switched to an ephemeral sparse one
//                around it, ckks.mod_raise's `encapsulate`).
//   CoeffToSlot  the inverse of the encoding's special FFT as `ctsLevels`
//                sparse linear transforms (its radix-2 stages grouped; the
//                bit reversal is left out: EvalMod is slot-wise, and
//                SlotToCoeff takes the same order), scaled so that the
//                slots hold t = (P + q_0 I) / (q_0 K) in [-1, 1]; real and
//                imaginary parts (the coefficients 0..N/2-1 and N/2..N-1)
//                split with one conjugation and a free multiplication by i.
//   EvalMod      sin(2 pi K t) = cos(2^r theta), theta = (2 pi K t - pi/2)
//                / 2^r: a Chebyshev interpolant of cos(theta) on [-1, 1],
//                r double-angle steps (cos 2a = 2 cos^2 a - 1), then
//                P / S_0 = (q_0 / (2 pi S_0)) arcsin(s), arcsin to degree 3
//                (s + s^3 / 6): the sine's own error x^3 (2 pi)^2 / 6 falls
//                to x^5 terms, 2^-33 of |x| for |P| <= q_0 / 2^10.
//   SlotToCoeff  the special FFT's stages, `stcLevels` sparse transforms,
//                after the parts are joined (re + i im); its groups mirror
//                CoeffToSlot's (the same stage lengths per group), so the
//                two share their rotation keys.
//
// Sparse packing (n < N/2 slots: the vector's polynomial lies in the
// subring of Y = X^(N/2n)), as Lattigo and OpenFHE do it. ModRaise's I
// leaves the subring, so the raised ciphertext is read at N/2 slots and
// SubSum (log2(N/2n) rotations by n, 2n, .. N/4 and additions: the trace
// to the subring) brings it back, times N/2n. The n-point transforms then
// act on 2n slots (fhe.untile: the vector repeats every 2n): CoeffToSlot's
// last group also multiplies slots n..2n-1 by -i, so that adding the
// conjugate leaves both parts' real coefficients side by side, and EvalMod
// runs once, on 2n real slots. SlotToCoeff's first group multiplies its
// input slots n..2n-1 by i; its groups commute with the rotation by n, so
// adding the result rotated by n joins the parts, and the vector, now
// repeating every n slots, is read at n. log2(N/2n) + 1 more rotations
// than the full-slot procedure, half its EvalMod, smaller transforms (fewer
// than three levels each below 8 slots: the chain keeps the budgeted
// levels), and less noise (SlotToCoeff sums over n coefficients).
//
// Levels: ctsLevels + ceil(log2(d + 1)) + r + 2 + stcLevels (d the cosine's
// degree). The multiples of q_0 that ModRaise adds are removed only while
// |I| + |P / q_0| < K: with a secret of Hamming weight h, I has standard
// deviation sqrt((h + 1) / 12) (ModRaise lifts each coefficient of c_1 to a
// uniform centred value, times h coefficients of the secret, plus c_0's
// rounding), and K covers 6.5 of them plus 2, a failure probability
// below 2^-34 per coefficient.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/FHE/IR/FHEDialect.h"

#include "mlir/IR/Value.h"

#include <vector>

namespace ember::bootstrap {

/// The sparse secret bootstrapping programs get without encapsulation
/// (OpenFHE's and Lattigo's default weight; 128-bit bounds in
/// ember::maxLogQPSparse128). With it (the default) the secret is dense and
/// ModRaise sees ember::kEncapsulationHammingWeight.
inline constexpr int kHammingWeight = 192;
/// The default scale of a program that bootstraps: its own levels (below
/// the procedure's) have primes of this size.
inline constexpr int kScaleBits = 40;
/// log2(q_0 / S_0): q_0 has kScaleBits + this many bits. EvalMod computes
/// (q_0 / (2 pi S_0)) sin(2 pi P / q_0), exact to the arcsine's cubic term
/// while |P / q_0| stays small; a larger ratio multiplies EvalMod's noise.
inline constexpr int kMessageRatioBits = 10;
/// The procedure's own levels (CoeffToSlot, EvalMod, SlotToCoeff) sit at
/// the top of the chain on primes of this size, at a scale of 2^60 (their
/// own run, ckks::levelScales). EvalMod multiplies the noise of its input
/// t by about K q_0 / S_0 (2^15) and SlotToCoeff by sqrt(N) more: at a
/// 2^50 scale that held the result to ~16 bits at N = 2^13; every bit of
/// scale here is a bit of precision.
inline constexpr int kProcedurePrimeBits = 60;
/// The largest |P / q_0| the arcsine step handles to 20 bits: the input's
/// magnitude times S_0 / q_0 must stay below it (8 at q_0 / S_0 = 2^10).
inline constexpr double kMaxInputRatio = 1.0 / 128;

/// The cosine interpolant's dropped tail. After r double angles
/// (cos 2a = 2 cos^2 a - 1 multiplies an error by up to 4) and the final
/// factor q_0 / (2 pi S_0) = 2^10 / 2 pi, an error e in the cosine is at
/// most 2^(2r + 7.4) e in the message: 2^-31.6 for r <= 3, eight bits below
/// the procedure's noise (23 mean bits at N = 2^16).
inline constexpr long double kCosineTail = 0x1p-45L;
/// A looser bound, on the tail's error in the message (2^-bits), that the
/// cosine may take where it saves the cosine a level: with K = 13, r = 3
/// double angles and a degree-30 cosine at depth 5 (2^-28.0 in the message,
/// 2^-30.7 root mean square over the slots) instead of degree 32 at depth 6
/// make ten levels, as r = 2 and degree 48 did, with 15 products per
/// EvalMod instead of 16 (two relinearizations fewer after lazy
/// relinearization, four scale adjustments fewer). Measured: 0.07 mean
/// bits less at N = 2^16, 0.3 at N = 2^13 (the double angles' amplified
/// noise). The option bootstrap-cosine-bits sets it; 34 keeps the earlier
/// degree-48 cosine.
inline constexpr int kCosineMessageBits = 27;

/// Bootstrapping's view of a chain's level 0. ModRaise lifts the level-0
/// modulus Q_0 (q_0; q_0 and the base pair under double-prime scaling), and
/// EvalMod is accurate while the message sits 2^kMessageRatioBits below it.
/// At 64-bit words q_0 is built so (S_0 2^10); at 32-bit words Q_0 is about
/// 2^30 S_0 (the pair carries the scale, q_0 the headroom), so the
/// expansion first multiplies its input by the integer `factor` (about
/// 2^20, no level: ckks.mul_int) and EvalMod reads the message at
/// S_0 factor.
struct Window {
  double q0 = 0;      ///< Q_0
  int64_t factor = 1; ///< the input's integer multiplier before ModRaise
  double scale = 0;   ///< S_0 factor: the message's scale in EvalMod
  /// The largest input magnitude the arcsine step handles (kMaxInputRatio).
  double maxInput() const { return kMaxInputRatio * q0 / scale; }
};
Window window(ckks::ParamsAttr params);

/// The procedure's shape for a secret of Hamming weight h.
struct Config {
  int hammingWeight = 0;
  /// EvalMod's range: |I| + |P / q_0| < K.
  double k = 0;
  /// Double-angle steps r (2 or 3: the fewest levels, then the fewest
  /// products).
  int doubleAngles = 3;
  /// Chebyshev coefficients of cos((2 pi K t - pi / 2) / 2^r) on [-1, 1]
  /// (c_0 not halved: f = sum_k c_k T_k).
  std::vector<double> cosine;
  /// Sum of the dropped coefficients' magnitudes: the interpolant's error.
  double cosineError = 0;
  /// The cosine's ciphertext products (ember::polyEvalShape), plus one per
  /// double angle: EvalMod's relinearizations less the arcsine's two.
  int64_t products = 0;
  int ctsLevels = 3;
  int stcLevels = 3;
  /// The DFTs' baby-step giant-step splits assume double hoisting with
  /// plaintext products over Q_l u P (ckks.hoisted_dot): set when
  /// ckks-hoist-rotations runs with double-hoisting on.
  bool doubleHoisting = false;

  int evalModLevels() const;
  /// Levels the whole procedure consumes after ModRaise.
  int depth() const;
};

/// K is 6.5 standard deviations of ModRaise's I (variance (h + 1) / 12:
/// ModRaise lifts the centred representative mod Q_0 exactly, from any
/// number of limbs; rns.bconv's `exact`), plus 2. The cosine's dropped
/// tail is at most 2^-cosineBits in the message (kCosineMessageBits).
Config configure(int hammingWeight = kHammingWeight,
                 int cosineBits = kCosineMessageBits);

/// Where an expansion may stop (a measurement aid: the times of programs
/// stopped after each phase give the phases' times on a GPU, where a CUDA
/// graph has no events inside). Stopped, the result is not the input: after
/// CoeffToSlot it is re + im, after EvalMod the joined parts.
enum class StopAfter { kNone, kCoeffToSlot, kEvalMod };

/// Builds the expansion of `op` before it (its slot count N / 2 =
/// 2^(logN - 1), or fewer: sparse packing) for a chain with level-0
/// window `w` and top scale topScale; its linear transforms and
/// polynomials are expanded too. The caller replaces the op's uses and
/// erases it.
mlir::Value expand(fhe::BootstrapOp op, const Config &config, int logN,
                   const Window &w, double topScale,
                   StopAfter stop = StopAfter::kNone);

} // namespace ember::bootstrap
