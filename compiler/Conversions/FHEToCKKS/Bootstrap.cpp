//===- Bootstrap.cpp - CKKS bootstrapping as fhe ops ----------------------===//
//
// See Bootstrap.h. The linear transforms are the encoder's special FFT
// (runtime/core/encoder.cpp, fftSpecial / fftSpecialInv) written as
// matrices on the slot vector: each radix-2 stage has three generalized
// diagonals (offsets 0 and +-len/2), and a group of stages is their product.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversions/FHEToCKKS/Bootstrap.h"
#include "compiler/Transforms/ExpandLinearTransform/ExpandLinearTransform.h"
#include "compiler/Transforms/ExpandPolyEval/ExpandPolyEval.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <complex>
#include <map>

using namespace mlir;
using namespace ember::fhe;

namespace ember::bootstrap {
namespace {

using Complex = std::complex<double>;
/// A slots x slots matrix by its generalized diagonals: offset o -> d with
/// M[s][(s + o) mod slots] = d[s] (fhe.linear_transform's convention).
using Diagonals = std::map<int64_t, std::vector<Complex>>;

/// The roots the encoder uses: zeta^k = exp(2 pi i k / 2N), and the
/// rotation group 5^j mod 2N of its slots.
struct Roots {
  int64_t n, m; // slots = N / 2, m = 2N
  std::vector<uint64_t> group;
  explicit Roots(int logN) : n(int64_t{1} << (logN - 1)), m(n * 4) {
    uint64_t power = 1;
    for (int64_t j = 0; j < n; ++j) {
      group.push_back(power);
      power = power * 5 % static_cast<uint64_t>(m);
    }
  }
  Complex zeta(uint64_t k) const {
    double angle = 2.0 * M_PI * static_cast<double>(k) / static_cast<double>(m);
    return {std::cos(angle), std::sin(angle)};
  }
};

/// The diagonal at `offset` (mod slots), zero when new.
std::vector<Complex> &diagonal(Diagonals &d, int64_t slots, int64_t offset) {
  offset = ((offset % slots) + slots) % slots;
  auto [it, inserted] = d.try_emplace(offset);
  if (inserted)
    it->second.assign(slots, Complex(0, 0));
  return it->second;
}

void accumulate(Diagonals &d, int64_t slots, int64_t offset, int64_t s,
                Complex v) {
  diagonal(d, slots, offset)[s] += v;
}

/// One stage (half-length h = len / 2) of fftSpecialInv without its bit
/// reversal and 1/n: for j < h in each block of len,
///   out[i+j] = v[i+j] + v[i+j+h],  out[i+j+h] = (v[i+j] - v[i+j+h]) xi_j.
Diagonals inverseStage(const Roots &r, int64_t len) {
  const int64_t n = r.n, h = len / 2, lenq = len * 4;
  Diagonals d;
  for (int64_t s = 0; s < n; ++s) {
    int64_t j = s % len;
    if (j < h) {
      accumulate(d, n, 0, s, 1.0);
      accumulate(d, n, h, s, 1.0);
    } else {
      uint64_t idx = static_cast<uint64_t>(
          (lenq - static_cast<int64_t>(r.group[j - h] % lenq)) * (r.m / lenq));
      Complex xi = r.zeta(idx);
      accumulate(d, n, -h, s, xi);
      accumulate(d, n, 0, s, -xi);
    }
  }
  return d;
}

/// One stage of fftSpecial after its bit reversal:
///   out[i+j] = v[i+j] + xi_j v[i+j+h],  out[i+j+h] = v[i+j] - xi_j v[i+j+h].
Diagonals forwardStage(const Roots &r, int64_t len) {
  const int64_t n = r.n, h = len / 2, lenq = len * 4;
  Diagonals d;
  for (int64_t s = 0; s < n; ++s) {
    int64_t j = s % len;
    if (j < h) {
      Complex xi = r.zeta((r.group[j] % lenq) * (r.m / lenq));
      accumulate(d, n, 0, s, 1.0);
      accumulate(d, n, h, s, xi);
    } else {
      Complex xi = r.zeta((r.group[j - h] % lenq) * (r.m / lenq));
      accumulate(d, n, -h, s, 1.0);
      accumulate(d, n, 0, s, -xi);
    }
  }
  return d;
}

/// second after first: (B A)[s][s + a + b] += B_b[s] A_a[s + b].
Diagonals compose(const Diagonals &second, const Diagonals &first,
                  int64_t slots) {
  Diagonals out;
  const int64_t mask = slots - 1; // a power of two
  for (const auto &[b, db] : second)
    for (const auto &[a, da] : first) {
      std::vector<Complex> &d = diagonal(out, slots, a + b);
      for (int64_t s = 0; s < slots; ++s)
        d[s] += db[s] * da[(s + b) & mask];
    }
  return out;
}

/// The stages in the order they apply, multiplied in `groups` consecutive
/// groups (sizes as equal as possible, larger ones first, or last with
/// `largerLast`), each scaled.
std::vector<Diagonals> groupStages(const std::vector<Diagonals> &stages,
                                   int groups, double scale, int64_t slots,
                                   bool largerLast = false) {
  std::vector<Diagonals> out;
  size_t next = 0;
  const int larger = static_cast<int>(stages.size() % groups);
  for (int g = 0; g < groups; ++g) {
    const int rank = largerLast ? groups - 1 - g : g;
    size_t size = stages.size() / groups + (rank < larger ? 1 : 0);
    Diagonals m = stages[next++];
    for (size_t k = 1; k < size; ++k)
      m = compose(stages[next++], m, slots);
    for (auto &[o, d] : m)
      for (Complex &v : d)
        v *= scale;
    // Diagonals that cancelled out (exactly zero) cost a rotation for
    // nothing.
    for (auto it = m.begin(); it != m.end();)
      it = llvm::all_of(it->second, [](Complex v) { return v == Complex(); })
               ? m.erase(it)
               : std::next(it);
    out.push_back(std::move(m));
  }
  return out;
}

/// An fhe.linear_transform of `x` by `m`, expanded (baby-step giant-step).
Value linearTransform(OpBuilder &b, Location loc, Value x, const Diagonals &m,
                      bool doubleHoisting) {
  auto type = cast<CiphertextType>(x.getType());
  const int64_t slots = type.getSlots();
  SmallVector<int64_t> offsets;
  std::vector<Complex> values;
  values.reserve(m.size() * slots);
  for (const auto &[o, d] : m) {
    offsets.push_back(o);
    values.insert(values.end(), d.begin(), d.end());
  }
  auto tensor =
      RankedTensorType::get({static_cast<int64_t>(offsets.size()), slots},
                            ComplexType::get(b.getF64Type()));
  auto diagonals = DenseElementsAttr::get(tensor, ArrayRef<Complex>(values));
  auto op = LinearTransformOp::create(b, loc, type, x,
                                      b.getDenseI64ArrayAttr(offsets),
                                      diagonals, b.getI64IntegerAttr(0));
  Value out = ember::expandLinearTransform(op, doubleHoisting);
  op.erase();
  return out;
}

Value polynomial(OpBuilder &b, Location loc, Value x, StringRef basis,
                 ArrayRef<double> coeffs) {
  auto op = PolyEvalOp::create(b, loc, x.getType(), x, b.getStringAttr(basis),
                               b.getDenseF64ArrayAttr(coeffs),
                               b.getDenseF64ArrayAttr({-1.0, 1.0}));
  Value out = ember::expandPolyEval(op);
  op.erase();
  return out;
}

Value splat(OpBuilder &b, Location loc, int64_t slots, Complex v) {
  auto type = RankedTensorType::get({slots}, ComplexType::get(b.getF64Type()));
  if (v.imag() == 0)
    return ConstantOp::create(
        b, loc, PlaintextType::get(b.getContext(), slots),
        DenseElementsAttr::get(RankedTensorType::get({slots}, b.getF64Type()),
                               v.real()));
  return ConstantOp::create(b, loc, PlaintextType::get(b.getContext(), slots),
                            DenseElementsAttr::get(type, v));
}

} // namespace

int Config::evalModLevels() const {
  // The cosine (Paterson-Stockmeyer in the Chebyshev basis on [-1, 1]:
  // ceil(log2(d + 1))), the double angles, the degree-3 arcsine.
  return static_cast<int>(llvm::Log2_64_Ceil(cosine.size())) + doubleAngles + 2;
}

int Config::depth() const { return ctsLevels + evalModLevels() + stcLevels; }

namespace {
/// The shape for K with r double angles: the cosine's interpolant to a
/// dropped tail below kCosineTail (the degree's depth m), unless a tail
/// below 2^-cosineBits in the message allows one level less: then the
/// degree at that depth with the fewest products, then the smallest tail
/// (Paterson-Stockmeyer at d = 2^m - 1 takes many more products than at
/// 2^m - 2).
Config configureWith(int hammingWeight, double k, int doubleAngles,
                     int cosineBits) {
  Config c;
  c.hammingWeight = hammingWeight;
  c.k = k;
  c.doubleAngles = doubleAngles;
  // cos((2 pi K t - pi/2) / 2^r) at M Chebyshev nodes, in long double.
  constexpr int kNodes = 512;
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double a = 2 * pi * c.k / std::ldexp(1.0L, c.doubleAngles);
  const long double phase = -pi / 2 / std::ldexp(1.0L, c.doubleAngles);
  std::vector<long double> coeffs(kNodes, 0.0L);
  for (int j = 0; j < kNodes; ++j) {
    long double theta = pi * (j + 0.5L) / kNodes;
    long double f = std::cos(a * std::cos(theta) + phase);
    for (int m = 0; m < kNodes; ++m)
      coeffs[m] += f * std::cos(m * theta);
  }
  for (long double &v : coeffs)
    v *= 2.0L / kNodes;
  coeffs[0] /= 2;
  // tails[d]: the dropped tail at degree d (the coefficients fall
  // super-exponentially past a = 2 pi K / 2^r).
  std::vector<long double> tails(kNodes, 0.0L);
  for (int m = kNodes - 2; m >= 0; --m)
    tails[m] = tails[m + 1] + std::fabs(coeffs[m + 1]);
  // An error e in the cosine is at most 4^r q_0 / (2 pi S_0) e in the
  // message.
  const long double bound =
      std::ldexp(1.0L, -cosineBits) /
      (std::ldexp(1.0L, 2 * c.doubleAngles + kMessageRatioBits) / (2 * pi));
  auto leastBelow = [&](long double tail) {
    int d = 1;
    while (d < kNodes - 1 && tails[d] >= tail)
      ++d;
    return d;
  };
  const int tight = leastBelow(kCosineTail), loose = leastBelow(bound);
  int first = tight, last = tight;
  if (loose < tight &&
      llvm::Log2_32_Ceil(loose + 1) < llvm::Log2_32_Ceil(tight + 1)) {
    first = loose;
    last = (1 << llvm::Log2_32_Ceil(loose + 1)) - 1;
  }
  std::vector<double> best;
  PolyEvalShape bestShape;
  for (int degree = first; degree <= last; ++degree) {
    std::vector<double> cut(coeffs.begin(), coeffs.begin() + degree + 1);
    PolyEvalShape shape = polyEvalShape(cut, /*chebyshev=*/true);
    if (best.empty() || shape.depth < bestShape.depth ||
        (shape.depth == bestShape.depth &&
         shape.products <= bestShape.products)) {
      best = std::move(cut);
      bestShape = shape;
      c.cosineError = static_cast<double>(tails[degree]);
    }
  }
  c.cosine = std::move(best);
  c.products = bestShape.products + c.doubleAngles;
  return c;
}
} // namespace

Window window(ckks::ParamsAttr params) {
  Window w;
  w.q0 = 1;
  for (int64_t i = 0; i < ckks::baseLimbs(params.getScalePrimes()); ++i)
    w.q0 *= static_cast<double>(params.getQ()[i]);
  const double s0 = params.getLevelScale(0);
  const double ratio = w.q0 / (s0 * std::exp2(kMessageRatioBits));
  // (A chain without program levels has no level-0 scale: s0 = 0, ratio
  // infinite; its trial lowering fails, and the chain grows.)
  w.factor = std::isfinite(ratio) && ratio >= 2 && ratio <= 0x1p30
                 ? static_cast<int64_t>(std::floor(ratio))
                 : 1;
  w.scale = s0 * static_cast<double>(w.factor);
  return w;
}

Config configure(int hammingWeight, int cosineBits) {
  // I + P / q_0 = (c_0 + c_1 s) / Q_0 with c_0, c_1 centred mod Q_0 (the
  // exact lift, whatever Q_0's limbs): h + 1 terms uniform in (-1/2, 1/2).
  const double variance = (hammingWeight + 1) / 12.0;
  const double k = std::ceil(6.5 * std::sqrt(variance)) + 2;
  // The fewest levels over r = 2..3 double angles, then the fewest
  // products. K = 13 (h = 32): r = 3, degree 30, 10 levels (r = 2 with
  // the looser tail needs degree 45: also 10 levels, more products; with
  // bootstrap-cosine-bits=34, r = 2 and degree 48); K = 29 (h = 192): r =
  // 3, 11 levels.
  Config best = configureWith(hammingWeight, k, 2, cosineBits);
  Config three = configureWith(hammingWeight, k, 3, cosineBits);
  if (three.evalModLevels() < best.evalModLevels() ||
      (three.evalModLevels() == best.evalModLevels() &&
       three.products < best.products))
    best = std::move(three);
  return best;
}

namespace {
/// A matrix of diagonals on n slots as one on 2n slots: every diagonal
/// repeated, so that on a vector that repeats every n slots it acts as the
/// n x n matrix on each period, and it commutes with the rotation by n.
/// The offsets stay in [0, n) (o and o + n are the same rotation of such a
/// vector; taking o - n for o > n/2 instead gave one key and 2% more
/// transforms at 2^14 slots). rows (if any) scales the result's slots,
/// cols the input's: diag(rows) M diag(cols).
Diagonals lift(const Diagonals &m, int64_t n, const std::vector<Complex> &rows,
               const std::vector<Complex> &cols) {
  const int64_t slots = 2 * n;
  Diagonals out;
  for (const auto &[o, d] : m) {
    std::vector<Complex> &v = out[o];
    v.resize(slots);
    for (int64_t s = 0; s < slots; ++s) {
      v[s] = d[s % n];
      if (!rows.empty())
        v[s] *= rows[s];
      if (!cols.empty())
        v[s] *= cols[(s + o) % slots];
    }
  }
  return out;
}

/// (1, ..., 1, v, ..., v): 1 on the first half of `slots`, v on the second.
std::vector<Complex> halves(int64_t slots, Complex v) {
  std::vector<Complex> out(slots, Complex(1, 0));
  std::fill(out.begin() + slots / 2, out.end(), v);
  return out;
}

Value untile(OpBuilder &b, Location loc, Value x, int64_t slots) {
  auto type = cast<CiphertextType>(x.getType());
  if (type.getSlots() == slots)
    return x;
  return UntileOp::create(b, loc, CiphertextType::get(b.getContext(), slots),
                          x);
}

int64_t slotsOf(Value x) {
  return cast<CiphertextType>(x.getType()).getSlots();
}
} // namespace

Value expand(BootstrapOp op, const Config &config, int logN, const Window &w,
             double topScale, StopAfter stop) {
  const double q0 = w.q0, inputScale = w.scale;
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  const int64_t half = int64_t{1} << (logN - 1);
  // n slots: the vector's polynomial lies in the subring of X^(N / 2n).
  const int64_t n = op.getType().getSlots();
  const bool sparse = n < half;
  // Sparse packing works on 2n slots: the real coefficients of both parts
  // side by side, so that EvalMod runs once (Lattigo's and OpenFHE's
  // repacking).
  const int64_t wide = sparse ? 2 * n : n;
  const Roots roots(static_cast<int>(llvm::Log2_64(n)) + 1);
  auto ctType = [&](int64_t slots) { return CiphertextType::get(ctx, slots); };

  // ModRaise: slots sigma(P + q_0 I) / S_L. I is not in a sparse input's
  // subring: the raised polynomial is read at N/2 slots, and SubSum (the
  // trace to the subring: the sum of x's images under X -> X^(5^(n 2^j)),
  // j < log2(N / 2n), rotations by n, 2n, ... N/4 slots) leaves
  // (N / 2n) (P + q_0 I') in it, I' the subring part of I. The factor
  // N / 2n joins the CoeffToSlot constants.
  // 32-bit words: the message moved up to 2^kMessageRatioBits below Q_0
  // first (an integer multiple: no level, no encoding error).
  Value input = op.getInput();
  if (w.factor > 1)
    input = MulOp::create(b, loc, ctType(n), input,
                          splat(b, loc, n, static_cast<double>(w.factor)));
  Value x = ModRaiseOp::create(b, loc, ctType(half), input);
  for (int64_t step = n; step < half; step *= 2)
    x = AddOp::create(b, loc, ctType(half), x,
                      RotateOp::create(b, loc, x, b.getI64IntegerAttr(step)));
  x = untile(b, loc, x, wide);

  // CoeffToSlot: fftSpecialInv's stages (len = n .. 2) times
  // S_L / (2 (N/2) q_0 K) (N/2 = n, or n times SubSum's factor):
  // w = BR(c_lo + i c_hi) / (2 q_0 K), the 1/2 for the split below. The
  // factor is shared out evenly so that no group's constants are tiny
  // (they are encoded at the ciphertext's scale). With one slot there is
  // no stage: the factor alone (one level).
  std::vector<Diagonals> stages;
  for (int64_t len = n; len >= 2; len /= 2)
    stages.push_back(inverseStage(roots, len));
  if (stages.empty())
    stages.push_back(Diagonals{{0, std::vector<Complex>(n, 1.0)}});
  const double factor =
      topScale / (2.0 * static_cast<double>(half) * q0 * config.k);
  const int cts = std::min<int>(config.ctsLevels, stages.size());
  std::vector<Diagonals> groups =
      groupStages(stages, cts, std::pow(factor, 1.0 / cts), n);
  // Sparse: on 2n slots, the last group's result rows n..2n-1 times -i,
  // (w, -i w), so that adding the conjugate gives (2 Re w, 2 Im w).
  for (size_t g = 0; g < groups.size(); ++g)
    x = linearTransform(b, loc, x,
                        sparse ? lift(groups[g], n,
                                      g + 1 == groups.size()
                                          ? halves(wide, Complex(0, -1))
                                          : std::vector<Complex>{},
                                      {})
                               : groups[g],
                        config.doubleHoisting);
  // Full slots: re = w + conj(w), im = -i (w - conj(w)): t in [-1, 1] for
  // the coefficients 0..n-1 and n..2n-1 (bit-reversed order). Sparse: both
  // in one vector of 2n slots.
  Value conj = ConjugateOp::create(b, loc, x);
  Value re = AddOp::create(b, loc, ctType(wide), x, conj);
  Value im;
  if (!sparse)
    im = MulOp::create(b, loc, ctType(n),
                       SubOp::create(b, loc, ctType(n), x, conj),
                       splat(b, loc, n, Complex(0, -1)));
  if (stop == StopAfter::kCoeffToSlot)
    return sparse ? untile(b, loc, re, n)
                  : AddOp::create(b, loc, ctType(n), re, im);

  // EvalMod: s = sin(2 pi K t) = sin(2 pi P / q_0), then
  // P / S_0 = (q_0 / (2 pi S_0)) (s + s^3 / 6).
  const double amplitude = q0 / (2.0 * M_PI * inputScale);
  auto evalMod = [&](Value t) {
    const int64_t slots = slotsOf(t);
    Value y = polynomial(b, loc, t, "chebyshev", config.cosine);
    for (int k = 0; k < config.doubleAngles; ++k) {
      Value square = MulOp::create(b, loc, ctType(slots), y, y);
      Value twice = MulOp::create(b, loc, ctType(slots), square,
                                  splat(b, loc, slots, 2.0));
      y = SubOp::create(b, loc, ctType(slots), twice,
                        splat(b, loc, slots, 1.0));
    }
    return polynomial(b, loc, y, "power",
                      {0.0, amplitude, 0.0, amplitude / 6.0});
  };
  Value z;
  if (sparse) {
    z = evalMod(re);
  } else {
    Value lo = evalMod(re), hi = evalMod(im);
    z = AddOp::create(
        b, loc, ctType(n), lo,
        MulOp::create(b, loc, ctType(n), hi, splat(b, loc, n, Complex(0, 1))));
  }
  if (stop == StopAfter::kEvalMod)
    return untile(b, loc, z, n);

  // SlotToCoeff: fftSpecial's stages (len = 2 .. n) on BR(P_lo + i P_hi) /
  // S_0 give the slots back. Sparse: the first group's input slots n..2n-1
  // times i, (a, i b); the lifted groups commute with the rotation by n,
  // so adding the result rotated by n applies them to (a + i b, a + i b)
  // and leaves the vector repeated every n slots.
  stages.clear();
  for (int64_t len = 2; len <= n; len *= 2)
    stages.push_back(forwardStage(roots, len));
  if (stages.empty())
    stages.push_back(Diagonals{{0, std::vector<Complex>(n, 1.0)}});
  // Its groups mirror CoeffToSlot's (larger ones last: the same stage
  // lengths per group), so that both use the same rotations: at 2^14 slots
  // of N = 2^16 (14 stages, 5 + 5 + 4) that is 39 rotation keys, not 48.
  const int stc = std::min<int>(config.stcLevels, stages.size());
  groups = groupStages(stages, stc, 1.0, n, /*largerLast=*/true);
  for (size_t g = 0; g < groups.size(); ++g)
    z = linearTransform(b, loc, z,
                        sparse ? lift(groups[g], n, {},
                                      g == 0 ? halves(wide, Complex(0, 1))
                                             : std::vector<Complex>{})
                               : groups[g],
                        config.doubleHoisting);
  if (sparse)
    z = untile(
        b, loc,
        AddOp::create(b, loc, ctType(wide), z,
                      RotateOp::create(b, loc, z, b.getI64IntegerAttr(n))),
        n);
  return z;
}

} // namespace ember::bootstrap
