//===- FHEToBGV.cpp - fhe-to-bgv: parameters, levels, factors, noise ------===//
//
// See FHEToBGV.td. One walk over each function decides the depth, a second
// rewrites it into bgv with the chosen chain, tracking each ciphertext's
// level, factor and noise bound.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversions/FHEToBGV/FHEToBGV.h"
#include "dialects/BGV/IR/BGVDialect.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Common/SlotVectors.h"
#include "dialects/FHE/IR/FHEDialect.h"

#include "ember/bgv_params.h"
#include "ember/primes.h"
#include "ember/security.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <optional>

namespace ember {
#define GEN_PASS_DEF_FHETOBGV
#include "compiler/Conversions/FHEToBGV/FHEToBGV.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember;

namespace {

/// A splat integer above this magnitude (centred mod t) is a product that
/// takes a level: the modulus switch after it keeps the noise at its base.
constexpr int64_t kCheapIntBits = 8;
/// Level primes q = 1 (mod 2N t) are used when 2N t is at most 2^(b - this)
/// for b-bit primes (enough candidates near 2^b).
constexpr int kCongruentSlackBits = 8;

std::string oneDecimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

/// The integer slot values of a constant (a splat repeated), or an error at
/// the constant naming the first value that is not an integer.
FailureOr<std::vector<int64_t>> integerValues(fhe::ConstantOp c,
                                              int64_t slots) {
  std::vector<int64_t> out;
  for (std::complex<double> v : slotValues(c.getValue(), slots)) {
    if (v.imag() != 0 || v.real() != std::floor(v.real()) ||
        std::fabs(v.real()) >= 0x1p62) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", v.real());
      return c.emitError("BGV slots are integers modulo t; this constant "
                         "holds ")
             << buf << (v.imag() != 0 ? " (complex)" : "");
    }
    out.push_back(static_cast<int64_t>(v.real()));
  }
  return out;
}

std::optional<int64_t> splatOf(const std::vector<int64_t> &v) {
  for (int64_t x : v)
    if (x != v.front())
      return std::nullopt;
  return v.empty() ? std::nullopt : std::optional<int64_t>(v.front());
}

/// The worst-case noise model of ember/bgv_params.h, per operation: BGV's
/// bounds, and BFV's (t times the invariant noise) when `bfv`.
struct NoiseModel : bgv::BgvNoise {
  double t, delta;
  bool bfv;
  bgv::BfvNoise fv;
  NoiseModel(uint64_t plain, int log_n, int dnum, bool bfv)
      : bgv::BgvNoise(bgv::bgvNoise(plain, log_n, dnum)),
        t(static_cast<double>(plain)), delta(bgv::noiseTerms(log_n).delta),
        bfv(bfv), fv(bgv::bfvNoise(plain, log_n, dnum)) {
    if (bfv) {
      fresh = fv.fresh;
      ks = fv.ks;
    }
  }
  /// A relinearized product of ciphertexts at bounds a and b.
  double product(double a, double b) const {
    return bfv ? fv.c1 / 2 * (a + b) + fv.c2 : delta * a * b + ks;
  }
  /// A plaintext added (BFV: its rounding, 1, times t; BGV: t / 2).
  double plainAdded(double a) const { return a + (bfv ? t : t / 2); }
  /// Times a plaintext vector (BFV: plus the reduction of m m' mod t).
  double plainProduct(double a) const {
    return bfv ? delta * t / 2 * (a + t * t) : a * delta * t / 2;
  }
  /// Times the integer c (centred).
  double intProduct(double a, int64_t c) const {
    const double m = static_cast<double>(std::max<int64_t>(1, std::llabs(c)));
    return bfv ? m * a + m * t * t / 2 : a * m;
  }
};

/// A converted value: a ciphertext with its noise bound, or a constant
/// (materialized where it is used).
struct Converted {
  Value ct;
  double bound = 0;
  std::optional<std::vector<int64_t>> constant;
  Location loc;
  /// A plaintext argument: its run-time values (encoded where used).
  Value plain = {};
  /// A product not yet switched down (lazy switching): it is, where a
  /// product, a rotation or an output needs it, or an operand at another
  /// level; sums of products are switched once.
  bool pending = false;
};

struct FHEToBGVPass : ember::impl::FHEToBGVBase<FHEToBGVPass> {
  using FHEToBGVBase::FHEToBGVBase;

  void runOnOperation() override;

private:
  LogicalResult checkOps(func::FuncOp f);
  /// Levels each value consumes below the top (-1: a constant).
  FailureOr<int64_t> depthOf(func::FuncOp f, int64_t &slots);
  FailureOr<ckks::ParamsAttr> chooseParams(ModuleOp module, int64_t depth,
                                           int64_t slots);
  /// The chain of Q primes of `bits` at 2^log_n with P and dnum (the
  /// fewest 61-bit special primes over dnum balanced digits, dnum from
  /// OpenFHE's default up) within the security bound; `why` on failure.
  FailureOr<ckks::ParamsAttr> chainFor(ModuleOp module, int log_n,
                                       const std::vector<int> &bits,
                                       int64_t depth, std::string &why);
  /// The prime sizes the program's noise needs under params_ (a dry
  /// conversion of a copy): at least `bits`.
  FailureOr<std::vector<int>>
  bitsForNoise(ModuleOp module, const std::vector<int> &bits, std::string &why);
  LogicalResult convert(func::FuncOp f);

  // The chain being lowered to.
  ckks::ParamsAttr params_;
  // A dry conversion (bitsForNoise) records instead of failing: log2 of the
  // largest bound switched away from each level, and at each level.
  bool dry_ = false;
  std::vector<double> maxPre_, maxAt_;
  // Where the noise is closest to (or above) Q_l / 2: where an error points.
  std::optional<Location> worstLoc_;
  double worstOver_ = 0;
  std::optional<NoiseModel> noise_;
  uint64_t t_ = 0;
  bool bfv_ = false;
  double log2Q(int64_t level) const {
    double s = 0;
    for (int64_t i = 0; i <= level; ++i)
      s += std::log2(static_cast<double>(params_.getQ()[i]));
    return s;
  }
};

bool isCheapInt(int64_t c, uint64_t t) {
  return std::llabs(bgv::centred(c, t)) <= (int64_t{1} << kCheapIntBits);
}

LogicalResult FHEToBGVPass::checkOps(func::FuncOp f) {
  for (BlockArgument a : f.getArguments())
    if (!isa<fhe::CiphertextType, fhe::PlaintextType>(a.getType()))
      return emitError(a.getLoc(), "BGV programs take encrypted or plaintext "
                                   "integer vectors; argument ")
             << a.getArgNumber() << " is " << a.getType();
  if (f.getBody().getBlocks().size() != 1)
    return f.emitError("BGV programs are straight-line (one block)");
  WalkResult r = f.walk([&](Operation *op) {
    if (isa<func::FuncOp, func::ReturnOp, fhe::ConstantOp, fhe::AddOp,
            fhe::SubOp, fhe::MulOp, fhe::NegOp, fhe::RotateOp>(op))
      return WalkResult::advance();
    op->emitError() << "'" << op->getName()
                    << "' has no BGV lowering (BGV takes + - * with "
                       "ciphertexts, integer constants, negation and "
                       "rotations)";
    return WalkResult::interrupt();
  });
  return failure(r.wasInterrupted());
}

FailureOr<int64_t> FHEToBGVPass::depthOf(func::FuncOp f, int64_t &slots) {
  llvm::DenseMap<Value, int64_t> used; // levels consumed; -1 for constants
  for (BlockArgument a : f.getArguments()) {
    if (auto pt = dyn_cast<fhe::PlaintextType>(a.getType())) {
      used[a] = -1; // a plaintext, like a constant
      slots = std::max(slots, pt.getSlots());
      continue;
    }
    used[a] = 0;
    slots = std::max(slots, cast<fhe::CiphertextType>(a.getType()).getSlots());
  }
  int64_t depth = 0;
  for (Operation &op : f.getBody().front()) {
    auto get = [&](Value v) { return used.lookup(v); };
    int64_t d = 0;
    if (auto c = dyn_cast<fhe::ConstantOp>(op)) {
      d = -1;
    } else if (isa<fhe::AddOp, fhe::SubOp>(op)) {
      d = std::max(get(op.getOperand(0)), get(op.getOperand(1)));
    } else if (isa<fhe::NegOp, fhe::RotateOp>(op)) {
      d = get(op.getOperand(0));
    } else if (auto m = dyn_cast<fhe::MulOp>(op)) {
      int64_t a = get(m.getLhs()), b = get(m.getRhs());
      Value cst = a < 0 ? m.getLhs() : b < 0 ? m.getRhs() : Value();
      bool levelled = true;
      if (auto c = cst ? cst.getDefiningOp<fhe::ConstantOp>() : nullptr) {
        FailureOr<std::vector<int64_t>> v =
            integerValues(c, cast<fhe::PlaintextType>(c.getType()).getSlots());
        if (failed(v))
          return failure();
        std::optional<int64_t> s = splatOf(*v);
        levelled = !s || !isCheapInt(*s, plaintextModulus);
      }
      d = std::max(a, b) + (levelled ? 1 : 0);
    }
    for (Value r : op.getResults()) {
      used[r] = d;
      if (auto ct = dyn_cast<fhe::CiphertextType>(r.getType()))
        slots = std::max(slots, ct.getSlots());
    }
    depth = std::max(depth, d);
  }
  return depth;
}

/// Q primes for `bits` at ring degree 2^log_n: q = 1 (mod 2N t) from 2^b up
/// where 2N t <= 2^(b - kCongruentSlackBits) for every prime, else the
/// largest NTT primes of each size (generateNttPrimes). q_0 is never
/// switched away, so only its size matters.
std::vector<uint64_t> qPrimes(int log_n, const std::vector<int> &bits,
                              uint64_t t, bool &congruent) {
  const unsigned __int128 step = static_cast<unsigned __int128>(2) << log_n;
  const unsigned __int128 big = step * t;
  for (size_t i = 1; i < bits.size(); ++i)
    congruent &= big <= (static_cast<unsigned __int128>(1)
                         << (bits[i] - kCongruentSlackBits)) &&
                 bits[i] < 61;
  if (!congruent)
    return generateNttPrimes(log_n, bits);
  std::vector<uint64_t> out = generateNttPrimes(log_n, {bits[0]});
  for (size_t i = 1; i < bits.size(); ++i) {
    const uint64_t s = static_cast<uint64_t>(big);
    uint64_t c = ((uint64_t{1} << bits[i]) / s + 1) * s + 1;
    while (!isPrime(c) || llvm::is_contained(out, c))
      c += s;
    out.push_back(c);
  }
  return out;
}

FailureOr<ckks::ParamsAttr> FHEToBGVPass::chainFor(ModuleOp module, int log_n,
                                                   const std::vector<int> &bits,
                                                   int64_t depth,
                                                   std::string &why) {
  const uint64_t t = plaintextModulus;
  const bool secure = security == "128";
  // BFV never switches: no level prime needs a congruence.
  bool congruent = congruentPrimes && !bfv_;
  std::vector<uint64_t> q;
  try {
    q = qPrimes(log_n, bits, t, congruent);
  } catch (const ember::Error &e) {
    why = e.what();
    return failure();
  }
  std::vector<int> nominal;
  for (uint64_t p : q)
    nominal.push_back(nominalBits(p));
  const int first = dnum ? static_cast<int>(dnum)
                         : bgv::defaultDnum(static_cast<int>(depth),
                                            static_cast<int>(q.size()));
  for (int d = first; d <= (dnum ? first : static_cast<int>(q.size())); ++d) {
    const int largest =
        largestDigitBits(nominal, balancedDigitSizes(nominal, d));
    const int count =
        (largest + 1 + bgv::kSpecialPrimeBits - 1) / bgv::kSpecialPrimeBits;
    std::vector<uint64_t> p;
    try {
      p = generateNttPrimes(log_n,
                            std::vector<int>(count, bgv::kSpecialPrimeBits), q);
    } catch (const ember::Error &e) {
      why = e.what();
      return failure();
    }
    const int bitsQP = logQP(q, p);
    if (secure && bitsQP > maxLogQP128(log_n)) {
      why = "depth " + std::to_string(depth) + " needs log QP " +
            std::to_string(bitsQP) + " at N = 2^" + std::to_string(log_n) +
            ", above the 128-bit bound " + std::to_string(maxLogQP128(log_n));
      continue;
    }
    const int64_t digits = std::min<int64_t>(d, static_cast<int64_t>(q.size()));
    // The KLSS form asked for: T is not a ciphertext modulus (not in log QP).
    std::vector<uint64_t> temp;
    if (klssGamma > 0) {
      try {
        temp = ckks::fewestTPrimes(log_n, q, p, digits, klssGamma, 64);
      } catch (const ember::Error &e) {
        why = e.what();
        return failure();
      }
    }
    return ckks::ParamsAttr::get(
        module.getContext(), log_n, q, p, bits.back(), digits, secure ? 128 : 0,
        temp, temp.empty() ? 0 : klssGamma, 0, 64, 1, t, bfv_);
  }
  return failure();
}

FailureOr<std::vector<int>>
FHEToBGVPass::bitsForNoise(ModuleOp module, const std::vector<int> &bits,
                           std::string &why) {
  // The program converted on a copy, recording its noise.
  OwningOpRef<ModuleOp> copy = module.clone();
  dry_ = true;
  worstLoc_.reset();
  maxPre_.assign(bits.size(), -1e300);
  maxAt_.assign(bits.size(), -1e300);
  bool ok = true;
  for (auto f : copy->getOps<func::FuncOp>())
    ok &= succeeded(convert(f));
  dry_ = false;
  if (!ok)
    return failure();
  if (bfv_) {
    // Every value at the top within Q / 2 with kBgvMarginBits to spare:
    // more 60-bit primes for the deficit.
    const size_t top = bits.size() - 1;
    double deficit = maxAt_[top] + 2 + bgv::kBgvMarginBits -
                     log2Q(static_cast<int64_t>(top));
    std::vector<int> out(bits);
    if (deficit > 0)
      out.insert(out.end(),
                 static_cast<size_t>(std::ceil(deficit / bgv::kBfvPrimeBits)),
                 bgv::kBfvPrimeBits);
    return out;
  }
  // A switch from level l must bring its largest input back to the base
  // the chain was sized for (bgv_params.h: B_0 = max(fresh, 2 (B_ms + t
  // KS))): q_l >= B_pre / (B_0 - B_ms).
  const NoiseModel &nm = *noise_;
  const double base = nm.base;
  std::vector<int> out(bits);
  for (size_t l = 1; l < bits.size(); ++l)
    if (maxPre_[l] > -1e300)
      out[l] = std::max<int>(
          out[l],
          static_cast<int>(std::ceil(maxPre_[l] - std::log2(base - nm.ms))));
  // Every value at level l within Q_l / 2 with a bit to spare: the deficit
  // goes to q_0, which every level holds.
  double deficit = 0;
  for (size_t l = 0; l < bits.size(); ++l)
    if (maxAt_[l] > -1e300)
      deficit =
          std::max(deficit, maxAt_[l] + 2 - log2Q(static_cast<int64_t>(l)));
  out[0] += static_cast<int>(std::ceil(deficit));
  for (int b : out)
    if (b > 60) {
      emitError(worstLoc_ ? *worstLoc_ : module.getLoc(),
                "the noise of this value needs BGV primes of ")
          << b << " bits, more than the runtime's 60: fewer large integer "
          << "factors or sums before a product, or more products (each "
          << "switches the noise back down)";
      return failure();
    }
  return out;
}

FailureOr<ckks::ParamsAttr>
FHEToBGVPass::chooseParams(ModuleOp module, int64_t depth, int64_t slots) {
  const uint64_t t = plaintextModulus;
  if (security != "128" && security != "none") {
    module.emitError("security must be 128 or none, got '") << security << "'";
    return failure();
  }
  const bool secure = security == "128";
  if (t <= 2 || t >= (uint64_t{1} << 52) || !isPrime(t)) {
    module.emitError("plaintext modulus ")
        << t << " must be a prime in 3..2^52";
    return failure();
  }
  std::string why;
  for (int log_n = logN ? static_cast<int>(logN) : 13;
       log_n <= (logN ? logN : 17); ++log_n) {
    const uint64_t twoN = uint64_t{2} << log_n;
    if (slots > static_cast<int64_t>(twoN / 4)) {
      why = std::to_string(slots) + " slots need N/2 >= slots";
      continue;
    }
    if (t % twoN != 1) {
      why = "plaintext modulus " + std::to_string(t) +
            " is not 1 mod 2N = " + std::to_string(twoN) +
            " (it does not batch at N = 2^" + std::to_string(log_n) + ")";
      continue;
    }
    // BFV starts from one prime and grows by the program's own noise (the
    // depth formula of bgv_params.h counts every levelled product as a
    // ciphertext product, whose noise grows ~4 sqrt(N) times more than a
    // plaintext's: 10-50 bits too many on bench/programs/bgv_chain.py).
    std::vector<int> bits(1, bgv::kBfvPrimeBits);
    try {
      if (!bfv_)
        bits =
            bgv::qBitsFor(bgv::Scheme::kBgv, static_cast<int>(depth), t, log_n);
    } catch (const ember::Error &e) {
      why = e.what();
      continue;
    }
    // The depth's chain, then primes grown until the program's own noise
    // (sums, integer factors, rotations) fits: a fixed point, as growing a
    // prime only lowers the noise after it.
    for (int round = 0; round < 8; ++round) {
      FailureOr<ckks::ParamsAttr> params =
          chainFor(module, log_n, bits, depth, why);
      if (failed(params))
        break;
      params_ = *params;
      noise_.emplace(t, log_n, static_cast<int>(params_.getDnum()), bfv_);
      FailureOr<std::vector<int>> need = bitsForNoise(module, bits, why);
      if (failed(need))
        return failure();
      if (*need == bits)
        return *params;
      bits = *need;
    }
  }
  module.emitError("no ") << (secure ? "128-bit " : "")
                          << (bfv_ ? "BFV" : "BGV") << " parameters for depth "
                          << depth << ", t = " << t << " and " << slots
                          << " slots: " << why;
  return failure();
}

LogicalResult FHEToBGVPass::convert(func::FuncOp f) {
  MLIRContext *ctx = f.getContext();
  const int64_t top = params_.getMaxLevel();
  const NoiseModel &nm = *noise_;
  llvm::DenseMap<Value, Converted> map;
  OpBuilder b(ctx);
  auto ctType = [](Value v) { return cast<bgv::CiphertextType>(v.getType()); };

  // Checks a new ciphertext's bound against Q_l / 2.
  auto checked = [&](Value v, double bound, Location loc) -> FailureOr<Value> {
    int64_t level = ctType(v).getLevel();
    if (dry_) {
      maxAt_[level] = std::max(maxAt_[level], std::log2(bound));
      double over = std::log2(bound) - log2Q(level);
      if (!worstLoc_ || over > worstOver_) {
        worstOver_ = over;
        worstLoc_ = loc;
      }
      return v;
    }
    if (std::log2(bound) >= log2Q(level) - 1) {
      emitError(loc, "the noise of this value can reach 2^")
          << oneDecimal(std::log2(bound)) << ", above Q_" << level << " / 2 (2^"
          << oneDecimal(log2Q(level) - 1)
          << "): it would decrypt wrongly. Fewer large integer factors, or "
             "a larger ring (log-n), give it room";
      return failure();
    }
    return v;
  };
  auto modSwitch = [&](Converted &c) -> LogicalResult {
    auto ty = ctType(c.ct);
    int64_t l = ty.getLevel();
    auto out = ty.withLevelAndFactor(
        l - 1, bgv::switchedFactor(ty.getFactor(), params_.getQ()[l], t_));
    c.ct = bgv::ModSwitchOp::create(b, c.loc, out, c.ct);
    if (dry_)
      maxPre_[l] = std::max(maxPre_[l], std::log2(c.bound));
    c.bound = c.bound / static_cast<double>(params_.getQ()[l]) + nm.ms;
    return success();
  };
  // Two ciphertexts at one level (the higher switched down) and, with
  // `factors`, one factor.
  auto settle = [&](Converted &c) {
    if (c.pending)
      (void)modSwitch(c);
    c.pending = false;
  };
  auto align = [&](Converted &x, Converted &y, bool factors) {
    // At one level, a pending product and any other value add before the
    // switch (the sum is switched once); across levels both settle first.
    if (ctType(x.ct).getLevel() != ctType(y.ct).getLevel()) {
      settle(x);
      settle(y);
    }
    while (ctType(x.ct).getLevel() > ctType(y.ct).getLevel())
      (void)modSwitch(x);
    while (ctType(y.ct).getLevel() > ctType(x.ct).getLevel())
      (void)modSwitch(y);
    uint64_t fx = ctType(x.ct).getFactor(), fy = ctType(y.ct).getFactor();
    if (!factors || fx == fy)
      return;
    // Scale the side whose ratio is smaller (centred): noise times |r|.
    uint64_t rY = bgv::mulMod(fx, bgv::invMod(fy, t_), t_); // y * rY ~ x
    uint64_t rX = bgv::invMod(rY, t_);
    int64_t cY = bgv::centred(static_cast<int64_t>(rY), t_);
    int64_t cX = bgv::centred(static_cast<int64_t>(rX), t_);
    Converted &s = std::llabs(cY) <= std::llabs(cX) ? y : x;
    int64_t c = &s == &y ? cY : cX;
    uint64_t target = &s == &y ? fx : fy;
    auto ty = ctType(s.ct).withLevelAndFactor(ctType(s.ct).getLevel(), target);
    s.ct = bgv::AdjustFactorOp::create(b, s.loc, ty, s.ct, c);
    s.bound *= static_cast<double>(std::llabs(c));
  };
  // A constant or a plaintext argument, encoded at `level` and `factor`
  // (BFV: `scaled`, Delta m, where it is added).
  auto encode = [&](const Converted &k, int64_t slots, int64_t level,
                    uint64_t factor, Location loc,
                    bool added = false) -> Value {
    auto type =
        bgv::PlaintextType::get(ctx, slots, level, factor, bfv_ && added);
    if (k.plain)
      return bgv::EncodeValuesOp::create(b, loc, type, k.plain);
    auto tensor = RankedTensorType::get({slots}, b.getI64Type());
    auto attr = DenseElementsAttr::get(tensor, ArrayRef<int64_t>(*k.constant));
    return bgv::EncodeOp::create(b, loc, type, attr);
  };

  for (BlockArgument a : f.getArguments()) {
    if (auto pt = dyn_cast<fhe::PlaintextType>(a.getType())) {
      // Run-time slot values (complex, as CKKS's plaintext arguments; the
      // real parts are the integers), encoded at each use's level.
      a.setType(RankedTensorType::get({pt.getSlots()},
                                      ComplexType::get(b.getF64Type())));
      map.try_emplace(a, Converted{Value(), 0, std::nullopt, a.getLoc(), a});
      continue;
    }
    int64_t slots = cast<fhe::CiphertextType>(a.getType()).getSlots();
    a.setType(bgv::CiphertextType::get(ctx, slots, top, 1, 2));
    map.try_emplace(a, Converted{a, nm.fresh, std::nullopt, a.getLoc()});
  }

  SmallVector<Operation *> dead;
  for (Operation &opRef : llvm::make_early_inc_range(f.getBody().front())) {
    Operation *op = &opRef;
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<Value> outs;
      for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
        Converted &c = map.find(v)->second;
        if (!c.ct)
          return emitError(loc, "result ")
                 << i
                 << " is a constant, not a ciphertext (BGV outputs are "
                    "encrypted)";
        settle(c);
        outs.push_back(c.ct);
        auto ty = ctType(c.ct);
        int budget = static_cast<int>(
            std::floor(log2Q(ty.getLevel()) - std::log2(c.bound) - 1));
        f.setResultAttr(i, bgv::BGVDialect::kNoiseBudgetAttrName,
                        b.getI64IntegerAttr(budget));
        if (print && !dry_)
          emitRemark(loc, "output ")
              << i << ": level " << ty.getLevel() << ", factor "
              << ty.getFactor() << ", noise budget " << budget
              << " bits (estimated, worst case)";
      }
      ret->setOperands(outs);
      continue;
    }
    Converted out{Value(), 0, std::nullopt, loc};
    if (auto c = dyn_cast<fhe::ConstantOp>(op)) {
      FailureOr<std::vector<int64_t>> v =
          integerValues(c, cast<fhe::PlaintextType>(c.getType()).getSlots());
      if (failed(v))
        return failure();
      out.constant = std::move(*v);
    } else if (isa<fhe::AddOp, fhe::SubOp>(op)) {
      bool sub = isa<fhe::SubOp>(op);
      Converted x = map.find(op->getOperand(0))->second;
      Converted y = map.find(op->getOperand(1))->second;
      if (!x.ct && !y.ct)
        return op->emitError("an operation on two constants (fold it in "
                             "numpy before tracing)");
      if (x.ct && y.ct) {
        align(x, y, /*factors=*/true);
        out.ct = sub ? Value(bgv::SubOp::create(b, loc, x.ct, y.ct))
                     : Value(bgv::AddOp::create(b, loc, x.ct, y.ct));
        out.bound = x.bound + y.bound;
        out.pending = x.pending || y.pending;
      } else {
        // ct +- constant, or constant - ct (= -ct + constant).
        bool negate = sub && !x.ct;
        Converted &ct = x.ct ? x : y;
        const Converted &k = x.ct ? y : x;
        Value base = ct.ct;
        if (negate)
          base = bgv::NegOp::create(b, loc, base);
        bool minus = sub && x.ct; // ct - constant
        auto ty = ctType(base);
        if (std::optional<int64_t> s =
                k.constant ? splatOf(*k.constant) : std::nullopt) {
          int64_t v = bgv::centred(minus ? -bgv::centred(*s, t_) : *s, t_);
          out.ct = bgv::AddIntOp::create(b, loc, base, v);
        } else {
          Value p = encode(k, ty.getSlots(), ty.getLevel(), ty.getFactor(), loc,
                           /*added=*/true);
          out.ct = minus ? Value(bgv::SubPlainOp::create(b, loc, base, p))
                         : Value(bgv::AddPlainOp::create(b, loc, base, p));
        }
        out.bound = nm.plainAdded(ct.bound);
        out.pending = ct.pending;
      }
    } else if (auto m = dyn_cast<fhe::MulOp>(op)) {
      Converted x = map.find(m.getLhs())->second;
      Converted y = map.find(m.getRhs())->second;
      if (!x.ct && !y.ct)
        return op->emitError("an operation on two constants (fold it in "
                             "numpy before tracing)");
      bool levelled = true;
      if (x.ct && y.ct) {
        settle(x);
        settle(y);
        align(x, y, /*factors=*/false);
        auto tx = ctType(x.ct), ty = ctType(y.ct);
        auto prodTy = bgv::CiphertextType::get(
            ctx, tx.getSlots(), tx.getLevel(),
            bgv::mulMod(tx.getFactor(), ty.getFactor(), t_), 3);
        Value prod = bgv::MulOp::create(b, loc, prodTy, x.ct, y.ct);
        out.ct = bgv::RelinearizeOp::create(b, loc, prod);
        out.bound = nm.product(x.bound, y.bound);
      } else {
        Converted &ct = x.ct ? x : y;
        const Converted &k = x.ct ? y : x;
        std::optional<int64_t> s =
            k.constant ? splatOf(*k.constant) : std::nullopt;
        if (!s || !isCheapInt(*s, t_))
          settle(ct); // a levelled product takes a switched operand
        auto ty = ctType(ct.ct);
        if (s) {
          int64_t v = bgv::centred(*s, t_);
          out.ct = bgv::MulIntOp::create(b, loc, ct.ct, v);
          out.bound = nm.intProduct(ct.bound, v);
          levelled = !isCheapInt(v, t_);
          out.pending = ct.pending;
        } else {
          Value p = encode(k, ty.getSlots(), ty.getLevel(), 1, loc);
          out.ct = bgv::MulPlainOp::create(b, loc, ty, ct.ct, p);
          out.bound = nm.plainProduct(ct.bound);
        }
      }
      if (levelled && !bfv_) { // BFV never switches
        if (failed(checked(out.ct, out.bound, loc)))
          return failure();
        if (ctType(out.ct).getLevel() == 0)
          return emitError(loc, "no level left for this product (the "
                                "chain was sized for a smaller depth)");
        if (lazySwitch)
          out.pending = true;
        else
          (void)modSwitch(out);
      }
    } else if (isa<fhe::NegOp>(op)) {
      Converted x = map.find(op->getOperand(0))->second;
      out.ct = bgv::NegOp::create(b, loc, x.ct);
      out.bound = x.bound;
      out.pending = x.pending;
    } else if (auto r = dyn_cast<fhe::RotateOp>(op)) {
      Converted x = map.find(r.getInput())->second;
      settle(x); // a key switch over fewer limbs
      out.ct = bgv::RotateOp::create(b, loc, x.ct, r.getOffset());
      out.bound = x.bound + nm.ks;
    }
    if (out.ct && failed(checked(out.ct, out.bound, loc)))
      return failure();
    map.try_emplace(op->getResult(0), std::move(out));
    dead.push_back(op);
  }
  for (Operation *op : llvm::reverse(dead)) {
    op->dropAllUses();
    op->erase();
  }
  Block &body = f.getBody().front();
  f.setType(FunctionType::get(ctx, body.getArgumentTypes(),
                              body.getTerminator()->getOperandTypes()));
  return success();
}

void FHEToBGVPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (ckks::ParamsAttr::lookup(module)) {
    module.emitError("fhe-to-bgv: the module already has #ckks.params");
    return signalPassFailure();
  }
  int64_t depth = 0, slots = 1;
  for (auto f : module.getOps<func::FuncOp>()) {
    if (failed(checkOps(f)))
      return signalPassFailure();
    FailureOr<int64_t> d = depthOf(f, slots);
    if (failed(d))
      return signalPassFailure();
    depth = std::max(depth, *d);
  }
  t_ = plaintextModulus;
  if (scheme != "bgv" && scheme != "bfv") {
    module.emitError("fhe-to-bgv: scheme must be bgv or bfv, got '")
        << scheme << "'";
    return signalPassFailure();
  }
  bfv_ = scheme == "bfv";
  FailureOr<ckks::ParamsAttr> params = chooseParams(module, depth, slots);
  if (failed(params))
    return signalPassFailure();
  params_ = *params;
  noise_.emplace(t_, static_cast<int>(params_.getLogN()),
                 static_cast<int>(params_.getDnum()), bfv_);
  module->setAttr("ckks.params", params_);
  if (print)
    emitRemark(module.getLoc(),
               bfv_ ? "BFV parameters: N = 2^" : "BGV parameters: N = 2^")
        << params_.getLogN() << ", t = " << t_ << ", depth " << depth << ", "
        << params_.getQ().size() << " Q primes, " << params_.getP().size()
        << " P primes, dnum " << params_.getDnum() << ", log QP "
        << logQP(params_.getQ(), params_.getP());
  for (auto f : module.getOps<func::FuncOp>())
    if (failed(convert(f)))
      return signalPassFailure();
}

} // namespace
