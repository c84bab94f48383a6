//===- FHEToCKKS.cpp - fhe-to-ckks ----------------------------------------===//
//
// 1. Analyse: slot count, multiplicative depth and value ranges of the
//    module.
// 2. Choose parameters (or take them from the options) whose first prime
//    holds every value, and attach them.
// 3. Rewrite each function op by op into ckks with provisional types, then
//    let the level manager (eager) place rescales/mod_drops and compute the
//    final types.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversions/FHEToCKKS/FHEToCKKS.h"
#include "compiler/Analysis/Cost/CKKSCost.h"
#include "compiler/Analysis/Range/RangeAnalysis.h"
#include "compiler/Conversions/FHEToCKKS/Bootstrap.h"
#include "compiler/Transforms/ManageLevels/LevelManagement.h"
#include "compiler/Transforms/PlaceBootstraps/PlaceBootstraps.h"
#include "compiler/Transforms/Utils/FreeFactors.h"
#include "compiler/Transforms/Utils/TypeUpdate.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Common/SlotVectors.h"
#include "dialects/FHE/IR/FHEDialect.h"

#include "ember/primes.h"
#include "ember/security.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <optional>
#include <set>
#include <tuple>

#define DEBUG_TYPE "fhe-to-ckks"

namespace ember {
#define GEN_PASS_DEF_FHETOCKKS
#include "compiler/Conversions/FHEToCKKS/FHEToCKKS.h.inc"
} // namespace ember

using namespace mlir;
namespace ckks = ember::ckks;
namespace fhe = ember::fhe;

namespace {

constexpr int kFirstPrimeBits = 60; // q_0: holds the output
constexpr int kSpecialPrimeBits = 60;
/// At 32-bit words (WordTraits<uint32_t>::kMaxPrimeBits): q_0, the pairs'
/// primes and P are below 2^30.
constexpr int kWord32PrimeBits = 30;
/// Bootstrapping's procedure levels at 32-bit words: pairs of primes just
/// below 2^30 carrying 2^59 (a 2^60 pair would need primes within 2^-7 of
/// 2^30, too few for 16 levels; Bootstrap.h's kProcedurePrimeBits at 64).
constexpr int kProcedurePairBits = 2 * kWord32PrimeBits - 1;
constexpr int kMinLogN = 13, kMaxLogN = 17;
constexpr int kDefaultScaleBits = 40;
/// The smallest scale the compiler lowers to when values are large; below
/// it a program is refused (the precision would be what 2^20 allows).
constexpr int kMinScaleBits = 20;
/// Levels a bootstrapping program's chain may grow beyond the budget
/// (Bootstrap.h) until it level-manages.
constexpr int64_t kMaxBootstrapMargin = 3;

/// Margin between the largest value and q_0 / 2, in bits.
///
/// A slot vector z with |z_j| <= B encodes at scale S to a polynomial whose
/// coefficients are at most B * S (decoding's inverse is an average of
/// the slots times roots of unity), and decryption gives m + e mod q_0 at
/// level 0: the result is right while |m + e| < q_0 / 2. Higher levels
/// need nothing more: a value at level l has scale S_l <= S_max, and an
/// unrescaled product (scale S_l^2 = S_{l-1} q_l, modulus Q_l =
/// Q_{l-1} q_l) or a scale adjustment (S_{l-1} q_l) fits exactly when its
/// rescaled value fits Q_{l-1} >= q_0. So B * S_max * 2^margin < q_0 / 2,
/// and one bit leaves q_0 / 4 for e: a ciphertext's error is a few
/// thousand (fresh encryption: sigma 3.2 times sqrt(N)-sized sums, under
/// 2^15 at N = 2^17; rescaling and key switching add less) plus its
/// relative precision, about 2^-20 of B * S; q_0 / 4 is at least 2^37 (the
/// 40-bit q_0 of athena40): over 2^20 times more than e ever is. The
/// interval bounds are exact worst cases of the exact values, rounded by
/// doubles (2^-52 relative), which the same bit absorbs.
constexpr int kMarginBits = 1;

/// log2 of the largest scale a program's value can carry with the chain
/// `q` whose program scale is 2^log_scale: the largest canonical scale
/// (ckks::levelScales) of the levels up to the fresh ciphertexts' (a
/// mod_drop keeps its scale). The runs above hold only bootstrapping's
/// values, bounded by construction, over moduli far above q_0.
double log2MaxScale(ArrayRef<uint64_t> q, int64_t scalePrimes,
                    double logScale) {
  const int64_t bits = static_cast<int64_t>(logScale);
  std::vector<uint64_t> moduli = ckks::levelModuli(q, scalePrimes);
  std::vector<double> scales = ckks::levelScales(moduli, bits);
  double best = 0;
  for (int64_t l = 0; l <= ckks::inputLevel(moduli); ++l)
    best = std::max(best, std::log2(scales[l]));
  return best;
}

/// The Q chain of `spec`: ember::generateQChain, or with double-prime
/// scaling q_0 and (size - 1) / 2 pairs of 30-bit primes
/// (ember::generateDoublePrimeChain), each pair carrying the scale its two
/// nominal sizes sum to: the program's (as the runtime's Context builds a
/// named set's chain), and bootstrapping's procedure pairs their own
/// (kProcedurePairBits).
std::vector<uint64_t> qChain(const ember::ParamSpec &spec) {
  if (spec.scale_primes == 2) {
    std::vector<int> scales;
    for (size_t i = 1; i + 1 < spec.q_bits.size(); i += 2)
      scales.push_back(spec.q_bits[i] + spec.q_bits[i + 1]);
    return ember::generateDoublePrimeChain(spec.log_n, spec.q_bits[0], scales,
                                           kWord32PrimeBits);
  }
  return ember::generateQChain(spec.log_n, spec.q_bits,
                               static_cast<int>(spec.log_scale));
}

/// Nominal sizes of a pair carrying 2^logScale (they sum to it).
void setPair(std::vector<int> &qBits, size_t first, int logScale) {
  qBits[first] = (logScale + 1) / 2;
  qBits[first + 1] = logScale / 2;
}

/// Levels of a named set's chain (a pair per level above the base under
/// double-prime scaling).
int64_t specMaxLevel(const ember::ParamSpec &spec) {
  const int64_t limbs = static_cast<int64_t>(spec.q_bits.size());
  return (limbs - ckks::baseLimbs(spec.scale_primes)) / spec.scale_primes;
}

/// The smallest pair scale at which ember::generateDoublePrimeChain finds
/// the pairs of a chain at N = 2^logN (measured for 12 pairs: 2^42 at
/// N = 2^13 .. 2^50 at 2^17; below, the NTT primes near the square root
/// of the scale are too sparse to keep it within 2^-6).
int minDoublePrimeScaleBits(int logN) { return 2 * logN + 16; }

/// Bits of q_0 that a value of magnitude `bound` needs at scale
/// 2^log2Scale: bound * scale * 2^margin < q_0 / 2.
double bitsNeeded(double bound, double log2Scale) {
  return std::log2(bound) + log2Scale + kMarginBits + 1;
}

/// "file:line" of the first file location in `loc`, or "".
std::string fileLine(Location loc) {
  std::string out;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      out = (f.getFilename().str() + ":" + std::to_string(f.getLine()));
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}

/// `x` printed with one decimal.
std::string oneDecimal(double x) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.1f", x);
  return s;
}

/// "the value at file:line", or "argument N (file:line)" for an argument.
std::string describe(Value v) {
  std::string where = fileLine(v.getLoc());
  if (auto arg = dyn_cast<BlockArgument>(v))
    return "argument " + std::to_string(arg.getArgNumber()) +
           (where.empty() ? "" : " (" + where + ")");
  return "the value at " + (where.empty() ? "this location" : where);
}

std::string formatBound(double bound) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.6g", bound) << " (2^"
     << llvm::format("%.2f", std::log2(bound)) << ")";
  return s;
}

/// Rotation keys of a run between bootstraps, estimated: one per distinct
/// offset (mod `slots`) of the program's rotations (fhe.rotate, every
/// diagonal of fhe.linear_transform, whose baby-step giant-step split is
/// chosen later and may use other offsets) and of one bootstrap's ckks
/// expansion, and one for conjugation.
int64_t galoisKeysEstimate(ModuleOp program, ModuleOp procedure,
                           int64_t slots) {
  std::set<int64_t> offsets;
  bool conjugation = false;
  auto add = [&](int64_t offset) {
    offset = ((offset % slots) + slots) % slots;
    if (offset)
      offsets.insert(offset);
  };
  auto visit = [&](Operation *op) {
    if (auto r = dyn_cast<fhe::RotateOp>(op))
      add(r.getOffset());
    else if (auto t = dyn_cast<fhe::LinearTransformOp>(op))
      llvm::for_each(t.getOffsets(), add);
    else if (auto r = dyn_cast<ckks::RotateOp>(op))
      add(r.getOffset());
    else if (auto h = dyn_cast<ckks::HoistedRotateOp>(op))
      llvm::for_each(h.getOffsets(), add);
    else if (auto h = dyn_cast<ckks::HoistedRotateSumOp>(op))
      llvm::for_each(h.getOffsets(), add);
    else if (isa<fhe::ConjugateOp, ckks::ConjugateOp>(op))
      conjugation = true;
  };
  program.walk(visit);
  procedure.walk(visit);
  return static_cast<int64_t>(offsets.size()) + (conjugation ? 1 : 0);
}

int64_t slotsOf(Type type) {
  if (auto ct = dyn_cast<fhe::CiphertextType>(type))
    return ct.getSlots();
  if (auto pt = dyn_cast<fhe::PlaintextType>(type))
    return pt.getSlots();
  return 0;
}

/// Largest slot count and multiplicative depth over all functions, and the
/// op where that depth is reached (for diagnostics). A multiplication by an
/// integer constant or by +-i costs no level (ckks.mul_int, ckks.mul_i); a
/// bootstrap's result has used `bootstrapDepth` levels of the chain.
void analyse(ModuleOp module, int64_t &slots, int64_t &depth,
             Operation *&deepest, int64_t bootstrapDepth, int64_t inputDepth) {
  slots = 1;
  depth = 0;
  deepest = module;
  DenseMap<Value, int64_t> depthOf;
  module.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      slots = std::max(slots, slotsOf(t));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type t : block.getArgumentTypes())
          slots = std::max(slots, slotsOf(t));
    int64_t d = 0;
    for (Value operand : op->getOperands())
      d = std::max(d, isa<BlockArgument>(operand) ? inputDepth
                                                  : depthOf.lookup(operand));
    d += ember::levelsUsed(op);
    if (isa<fhe::BootstrapOp>(op))
      d = bootstrapDepth;
    for (Value result : op->getResults())
      depthOf[result] = d;
    if (d > depth) {
      depth = d;
      deepest = op;
    }
  });
}

} // namespace

namespace {
struct FHEToCKKSPass : public ember::impl::FHEToCKKSBase<FHEToCKKSPass> {
  using FHEToCKKSBase::FHEToCKKSBase;

  void runOnOperation() override;

private:
  /// Parameters for (slots, depth), or nullopt after emitting a diagnostic.
  std::optional<ember::ParamSpec> choose(Operation *where, int64_t slots,
                                         int64_t depth, bool secure);
  /// A spec of `depth` levels at `log_n` with the `dnum` option's digits
  /// (0: the smallest count that is secure), or nullopt when none is.
  std::optional<ember::ParamSpec> fit(int log_n, int64_t depth, bool secure);
  LogicalResult convert(func::FuncOp func, ckks::ParamsAttr params);
  /// The primes of `spec` (Q chain, P, and T for a KLSS form), or failure
  /// after a diagnostic.
  LogicalResult generatePrimes(ModuleOp module, const ember::ParamSpec &spec,
                               std::vector<uint64_t> &q,
                               std::vector<uint64_t> &p,
                               std::vector<uint64_t> &t);
  /// The largest scale at most the default 2^40 at which `bound` fits a
  /// 60-bit q_0 (before the exact check with the chosen primes); failure
  /// after a diagnostic at `where` when even 2^kMinScaleBits is too large.
  FailureOr<int64_t> initialScaleBits(Value where, double bound);
  /// The error for a value too large for any scale >= 2^kMinScaleBits.
  void reportTooLarge(Value where, double bound);
  /// The same at 32-bit words, where the scale cannot come down (the
  /// pairs' smallest) and the headroom is the base modulus'.
  void reportTooLarge32(Value where, double bound, ArrayRef<uint64_t> q,
                        const ember::ParamSpec &spec);
  /// Whether `bound` fits the first prime of `q` at the scales of the
  /// chain (kMarginBits); with `report`, the diagnostic for parameters the
  /// user fixed (scale-bits or a named set).
  bool fits(Value where, double bound, ArrayRef<uint64_t> q,
            const ember::ParamSpec &spec, bool report);
  /// The scale-bits option, 0 meaning the scale the value ranges allow (at
  /// most the default 40).
  int64_t scaleBitsOrDefault() const {
    return scaleBits ? scaleBits : fittedScaleBits;
  }
  /// The word size of the parameters: 64 or 32 (double-prime scaling).
  int wordBits = 64;
  /// Resolves the `word` option into wordBits (auto: the cost model's
  /// choice, see Word size); failure after a diagnostic.
  LogicalResult chooseWord(ModuleOp module, bool secure);
  /// word=auto: the word size whose parameters for the program the cost
  /// model (CKKSCostModel at KeySwitchConstants::forWord) predicts
  /// faster; both predictions are recorded on the module
  /// (ember.word64_us, ember.word32_us) for ember-cost-report.
  int cheaperWord(ModuleOp module, bool secure);
  int64_t fittedScaleBits = kDefaultScaleBits;
  /// The default scale: 2^40, 2^50 for a program that bootstraps.
  int64_t defaultScaleBits = kDefaultScaleBits;
  /// The secret's Hamming weight (0: uniform ternary; bootstrapping's
  /// sparse weight when the program bootstraps).
  int hammingWeight = 0;
  /// Levels of the bootstrapping procedure, a run of their own at the top
  /// of the chain; fresh ciphertexts start below them.
  int64_t procedureLevels = 0;
  /// The program bootstraps with sparse-secret encapsulation.
  bool encapsulating = false;
  /// Checks each fhe.bootstrap's slot count and input range against the
  /// parameters.
  LogicalResult checkBootstraps(ModuleOp module, ckks::ParamsAttr params,
                                const ember::RangeAnalysis &ranges);
  /// Expands every fhe.bootstrap with the chosen parameters.
  LogicalResult expandBootstraps(ModuleOp module, ckks::ParamsAttr params,
                                 const ember::bootstrap::Config &config);
  /// Bootstraps expanded, then every function rewritten into managed ckks.
  LogicalResult lower(ModuleOp module, ckks::ParamsAttr params,
                      const ember::bootstrap::Config &bootConfig);
  /// The state of a program that bootstraps: the procedure's levels at the
  /// top of the chain, the 2^40 scale, the secret (Bootstrap.h).
  void enterBootstrapping(const ember::bootstrap::Config &config);
  /// bootstrap=auto: inserts the bootstraps the program needs (Automatic
  /// placement in FHEToCKKS.td); sets placedLevels when it inserted any.
  LogicalResult placeAutomatically(ModuleOp module, bool secure,
                                   const ember::bootstrap::Config &config);
  /// One bootstrap's expansion at `params`, lowered to ckks on a scratch
  /// module (what the placement prices); null when it does not lower.
  OwningOpRef<ModuleOp>
  lowerOneBootstrap(ckks::ParamsAttr params,
                    const ember::bootstrap::Config &config, int64_t slots);
  /// The placement's constraints and costs for a run of `levels` levels
  /// priced by `model`.
  ember::BootstrapPlacementOptions
  placementOptions(const ember::CKKSCostModel &model, int64_t levels,
                   double bootstrapUs,
                   std::function<std::string(Value)> cannotBootstrap);
  /// (ring, bits, bound) when fit() refused a chain for bootstrapping's
  /// encapsulation key alone (Q_0 p_0 above the h = 32 bound).
  std::optional<std::tuple<int, int, int>> encapsulationRefused;
  /// The program run between bootstraps that the automatic placement used
  /// (0: none placed); the chain gets exactly that run.
  int64_t placedLevels = 0;
};
} // namespace

std::optional<ember::ParamSpec> FHEToCKKSPass::fit(int log_n, int64_t depth,
                                                   bool secure) {
  ember::ParamSpec spec;
  spec.name = "custom";
  spec.log_n = log_n;
  spec.log_scale = static_cast<double>(scaleBitsOrDefault());
  spec.hamming_weight = hammingWeight;
  spec.q_bits.assign(depth + 1, static_cast<int>(scaleBitsOrDefault()));
  spec.q_bits[0] = kFirstPrimeBits;
  int specialBits = kSpecialPrimeBits;
  std::vector<uint64_t> q;
  if (wordBits == 32) {
    // Double-prime scaling: q_0, the base pair and a pair per level, each
    // pair carrying the scale: the program's scale, or (not fixed by
    // scale-bits) the smallest from what the primes allow at this N up
    // whose pairs exist (a long chain uses up the primes near a small
    // scale's square root).
    int logScale = static_cast<int>(scaleBitsOrDefault());
    if (!scaleBits)
      logScale = std::max(logScale, minDoublePrimeScaleBits(log_n));
    spec.scale_primes = 2;
    specialBits = kWord32PrimeBits;
    for (;; logScale += 2) {
      spec.log_scale = logScale;
      spec.q_bits.assign(3 + 2 * depth, 0);
      spec.q_bits[0] = kWord32PrimeBits;
      for (int64_t l = 0; l <= depth; ++l)
        setPair(spec.q_bits, 1 + 2 * l,
                procedureLevels && l >= 1 && l > depth - procedureLevels
                    ? kProcedurePairBits
                    : logScale);
      try {
        q = qChain(spec);
        break;
      } catch (const ember::Error &) {
        if (scaleBits || logScale + 2 > 2 * kWord32PrimeBits)
          break; // generatePrimes reports it
      }
    }
  }
  if (procedureLevels && wordBits != 32) {
    // Bootstrapping: q_0 = S_0 2^kMessageRatioBits, and the procedure's
    // levels on their own run of larger primes at the top. (32-bit words:
    // the pairs above; Q_0 = q_0 and the base pair is 2^30 S_0, and the
    // expansion multiplies its input by an integer to reach
    // S_0 2^kMessageRatioBits, Bootstrap.h.)
    spec.q_bits[0] = static_cast<int>(scaleBitsOrDefault()) +
                     ember::bootstrap::kMessageRatioBits;
    for (int64_t l = std::max<int64_t>(1, depth + 1 - procedureLevels);
         l <= depth; ++l)
      spec.q_bits[l] = ember::bootstrap::kProcedurePrimeBits;
  }
  int limbs = static_cast<int>(spec.q_bits.size());
  // A dnum above the number of Q primes means one prime per digit.
  int first = dnum ? std::min(static_cast<int>(dnum), limbs) : 1;
  int last = dnum ? first : limbs;
  // Encapsulation's key s -> s' lives at Q_0 p_0 (the level-0 limbs and a
  // p_0 of the special primes' size; primes may lie a fraction of a bit
  // above their nominal size): it needs a published bound for the
  // ephemeral weight (117 bits at N = 2^16: a 50-bit q_0 and a 60-bit p_0
  // at 64-bit words, 30 + 48 + 30 bits at 32).
  int baseBits = 0;
  for (int64_t i = 0; i < ckks::baseLimbs(spec.scale_primes); ++i)
    baseBits += spec.q_bits[i];
  const int encapsulationBound =
      ember::maxLogQPSparse128(log_n, ember::kEncapsulationHammingWeight);
  if (secure && encapsulating &&
      baseBits + specialBits + 1 > encapsulationBound) {
    encapsulationRefused = {log_n, baseBits + specialBits, encapsulationBound};
    return std::nullopt;
  }
  // log QP counts the bits of the primes the set will get (ember::logQP): a
  // scale prime may lie just above 2^scale-bits. Primes that cannot be
  // generated are reported by runOnOperation; count the nominal sizes then.
  // P: the fewest special primes that cover the largest of d digits balanced
  // by the primes' bits (ember::balancedDigitSizes: 40-bit program primes
  // pack more densely than the bootstrapping's 60-bit ones); the runtime
  // refuses a P below a digit, and ember::digitSizes then gives equal counts
  // where this P covers them, else the balanced digits.
  std::vector<int> bits = spec.q_bits;
  try {
    if (q.empty())
      q = qChain(spec);
    bits.clear();
    for (uint64_t prime : q)
      bits.push_back(ember::nominalBits(prime));
  } catch (const ember::Error &) {
    // q stays empty: nominal sizes
  }
  auto logQP = [&] {
    if (q.empty())
      return spec.logQP();
    try {
      return ember::logQP(q, ember::generateNttPrimes(log_n, spec.p_bits, q));
    } catch (const ember::Error &) {
      return spec.logQP();
    }
  };
  for (int d = first; d <= last; ++d) {
    spec.dnum = d;
    int largest =
        ember::largestDigitBits(bits, ember::balancedDigitSizes(bits, d));
    spec.p_bits.assign((largest + specialBits - 1) / specialBits, specialBits);
    int bound = hammingWeight ? ember::maxLogQPSparse128(log_n, hammingWeight)
                              : ember::maxLogQP128(log_n);
    if (!secure || logQP() <= bound)
      return spec;
  }
  return std::nullopt;
}

std::optional<ember::ParamSpec> FHEToCKKSPass::choose(Operation *where,
                                                      int64_t slots,
                                                      int64_t depth,
                                                      bool secure) {
  if (!paramSet.empty()) {
    if (logN || scaleBits || dnum) {
      where->emitError("parameter set '")
          << paramSet << "' fixes log N, the scale and dnum; do not combine "
          << "it with log-n, scale-bits or dnum";
      return std::nullopt;
    }
    ember::ParamSpec spec;
    if (!ember::namedParamSpec(paramSet, spec)) {
      where->emitError("unknown parameter set '")
          << paramSet
          << "' (expected A, B, C, athena40, athena24, athena47, cheddar32 "
             "or cheddar32k1)";
      return std::nullopt;
    }
    if ((spec.scale_primes == 2) != (wordBits == 32)) {
      where->emitError("parameter set '")
          << paramSet << "' is for " << (spec.scale_primes == 2 ? 32 : 64)
          << "-bit words, but word = " << wordBits << " was asked for";
      return std::nullopt;
    }
    if (depth > specMaxLevel(spec) ||
        slots > (int64_t{1} << (spec.log_n - 1))) {
      where->emitError("program has multiplicative depth ")
          << depth << " and " << slots << " slots; parameter set " << paramSet
          << " allows depth " << specMaxLevel(spec) << " and "
          << (int64_t{1} << (spec.log_n - 1)) << " slots";
      return std::nullopt;
    }
    spec.security =
        secure ? ember::Security::k128 : ember::Security::kInsecureTestOnly;
    return spec;
  }
  if (scaleBitsOrDefault() < kMinLogN + 2 || scaleBitsOrDefault() > 60) {
    where->emitError("scale-bits = ")
        << scaleBitsOrDefault() << " is outside 15..60";
    return std::nullopt;
  }
  if (logN && (logN < kMinLogN || logN > kMaxLogN)) {
    where->emitError("log-n = ")
        << static_cast<int64_t>(logN) << " is outside 13..17";
    return std::nullopt;
  }
  int lo = logN ? static_cast<int>(logN) : kMinLogN;
  int hi = logN ? static_cast<int>(logN) : kMaxLogN;
  while (lo <= hi && (int64_t{1} << (lo - 1)) < slots)
    ++lo;
  if (lo > hi) {
    where->emitError("program uses ")
        << slots << " slots, more than N/2 = " << (int64_t{1} << (hi - 1))
        << " allows";
    return std::nullopt;
  }
  for (int n = lo; n <= hi; ++n)
    if (std::optional<ember::ParamSpec> spec = fit(n, depth, secure))
      return spec;
  // Nothing fits. When bootstrapping's encapsulation key is what no ring
  // allows (Q_0 p_0 above the published bound for its sparse secret), say
  // so: no depth would fit.
  encapsulationRefused.reset();
  bool others = false;
  for (int n = lo; n <= hi && !others; ++n)
    others = fit(n, 0, secure).has_value();
  if (!others && encapsulationRefused) {
    auto [ring, bits, bound] = *encapsulationRefused;
    where->emitError("bootstrapping's encapsulation key s -> s' lives at "
                     "Q_0 p_0 (the level-0 modulus and one special prime): ")
        << bits << " bits at a 2^" << scaleBitsOrDefault()
        << " scale, above the " << bound
        << "-bit 128-bit bound for its Hamming-weight-"
        << ember::kEncapsulationHammingWeight << " secret at N = 2^" << ring
        << (bound ? "" : " (none is published below N = 2^16)")
        << ": lower scale-bits, or compile with encapsulate=False (a sparse "
           "main secret)";
    return std::nullopt;
  }
  // Otherwise report the largest depth that would.
  int64_t best = -1;
  for (int64_t d = 0; d < 1000; ++d) {
    bool any = false;
    for (int n = lo; n <= hi && !any; ++n)
      any = fit(n, d, secure).has_value();
    if (!any)
      break;
    best = d;
  }
  where->emitError("program has multiplicative depth ")
      << depth << ", but the largest depth possible with 128-bit secure "
      << "parameters (N = 2^" << lo << "..2^" << hi << ", "
      << scaleBitsOrDefault() << "-bit scale"
      << (dnum ? ", dnum = " + std::to_string(static_cast<int64_t>(dnum))
               : std::string())
      << ") is " << best
      << (bootstrap == "manual" && procedureLevels == 0
              ? "; bootstrap=auto inserts bootstraps where a program is "
                "deeper than the chain"
              : "");
  return std::nullopt;
}

LogicalResult FHEToCKKSPass::generatePrimes(ModuleOp module,
                                            const ember::ParamSpec &spec,
                                            std::vector<uint64_t> &q,
                                            std::vector<uint64_t> &p,
                                            std::vector<uint64_t> &t) {
  t.clear();
  try {
    q = qChain(spec);
    p = ember::generateNttPrimes(spec.log_n, spec.p_bits, q);
    if (spec.klss_gamma > 0) {
      if (spec.t_bits.empty()) {
        // The fewest primes of the word's largest size (61 or 30 bits)
        // whose product meets the bound.
        t = ckks::fewestTPrimes(spec.log_n, q, p, spec.dnum, spec.klss_gamma,
                                wordBits);
      } else {
        std::vector<uint64_t> exclude(q);
        exclude.insert(exclude.end(), p.begin(), p.end());
        t = ember::generateNttPrimes(spec.log_n, spec.t_bits, exclude);
      }
    }
  } catch (const ember::Error &e) {
    module.emitError("cannot generate the primes: ") << e.what();
    return failure();
  }
  return success();
}

FailureOr<int64_t> FHEToCKKSPass::initialScaleBits(Value where, double bound) {
  // A 60-bit q_0 lies just below 2^60; the exact check (fits) follows.
  double room = kFirstPrimeBits - 1 - kMarginBits - std::log2(bound);
  int64_t bits = std::min<int64_t>(defaultScaleBits,
                                   static_cast<int64_t>(std::ceil(room)) - 1);
  if (bits >= kMinScaleBits)
    return bits;
  reportTooLarge(where, bound);
  return failure();
}

void FHEToCKKSPass::reportTooLarge(Value where, double bound) {
  emitError(where.getLoc(), describe(where))
      << " can reach magnitude " << formatBound(bound)
      << " for inputs in their declared ranges; even at the smallest scale "
         "the compiler lowers to, 2^"
      << kMinScaleBits << ", it needs q_0 > 2^"
      << oneDecimal(bitsNeeded(bound, kMinScaleBits))
      << " (magnitude x scale x 2^" << kMarginBits
      << " of noise margin < q_0 / 2), and q_0 has at most " << kFirstPrimeBits
      << " bits: declare smaller input ranges, or scale the values down "
         "before they grow";
}

void FHEToCKKSPass::reportTooLarge32(Value where, double bound,
                                     ArrayRef<uint64_t> q,
                                     const ember::ParamSpec &spec) {
  const double base = ckks::baseBits(q, spec.scale_primes);
  const double scale = log2MaxScale(q, spec.scale_primes, spec.log_scale);
  emitError(where.getLoc(), describe(where))
      << " can reach magnitude " << formatBound(bound)
      << "; at 32-bit words the level-0 modulus (q_0 and the base pair, 2^"
      << oneDecimal(base) << ") holds it at the chain's scale 2^"
      << oneDecimal(scale) << " only below 2^"
      << oneDecimal(base - scale - kMarginBits - 1)
      << " (magnitude x scale x 2^" << kMarginBits
      << " of noise margin < Q_0 / 2), and the pairs allow no smaller scale "
         "at this ring: declare smaller input ranges, scale the values "
         "down, or compile with word=64";
}

bool FHEToCKKSPass::fits(Value where, double bound, ArrayRef<uint64_t> q,
                         const ember::ParamSpec &spec, bool report) {
  double q0Bits = ckks::baseBits(q, spec.scale_primes);
  double scaleBits = log2MaxScale(q, spec.scale_primes, spec.log_scale);
  double need = bitsNeeded(bound, scaleBits);
  LLVM_DEBUG(llvm::dbgs() << "scale 2^" << scaleBits << ": needs " << need
                          << " bits, q_0 has " << q0Bits << "\n");
  if (need < q0Bits)
    return true;
  if (!report)
    return false;
  // The largest whole scale that would fit this q_0.
  int64_t fitting = static_cast<int64_t>(std::ceil(q0Bits - 1 - kMarginBits -
                                                   std::log2(bound))) -
                    1;
  std::string value = describe(where);
  // The base modulus < 2^q0Length.
  int q0Length = static_cast<int>(std::floor(q0Bits)) + 1;
  auto diag = emitError(where.getLoc());
  if (!paramSet.empty())
    diag << "parameter set '" << paramSet << "' (a " << q0Length
         << "-bit q_0, scale 2^" << static_cast<int64_t>(spec.log_scale)
         << ") cannot hold " << value << ": it can reach magnitude "
         << formatBound(bound) << " and needs q_0 > 2^" << oneDecimal(need)
         << " (magnitude x scale x 2^" << kMarginBits
         << " of noise margin < q_0 / 2); declare smaller input ranges, or "
            "let the compiler choose the parameters";
  else
    diag << value << " can reach magnitude " << formatBound(bound)
         << "; at the scale 2^" << scaleBitsOrDefault()
         << " that scale-bits fixes it needs q_0 > 2^" << oneDecimal(need)
         << " (magnitude x scale x 2^" << kMarginBits
         << " of noise margin < q_0 / 2), and q_0 < 2^" << q0Length << ": "
         << (fitting >= kMinScaleBits
                 ? "use scale-bits <= " + std::to_string(fitting) + ", or "
                 : std::string())
         << "declare smaller input ranges";
  return false;
}

LogicalResult FHEToCKKSPass::convert(func::FuncOp func,
                                     ckks::ParamsAttr params) {
  MLIRContext *ctx = func.getContext();
  int64_t level = params.getInputLevel();
  double scale = params.getDefaultScale();
  // The scale fhe.mod_raise's input must reach (bootstrapping's S_0).
  const double s0 = params.getLevelScale(0);
  auto convertType = [&](Type type) -> Type {
    if (auto ct = dyn_cast<fhe::CiphertextType>(type))
      return ckks::CiphertextType::get(ctx, ct.getSlots(), level, scale);
    if (auto pt = dyn_cast<fhe::PlaintextType>(type))
      return ckks::PlaintextType::get(ctx, pt.getSlots(), level, scale);
    return type;
  };
  // A plaintext argument is the program's run-time slot values (complex:
  // real programs pass zero imaginary parts), encoded on the server when the
  // program runs (ckks.encode_values).
  auto argType = [&](Type type) -> Type {
    if (auto pt = dyn_cast<fhe::PlaintextType>(type))
      return RankedTensorType::get({pt.getSlots()},
                                   ComplexType::get(Float64Type::get(ctx)));
    return convertType(type);
  };
  if (func.isExternal()) {
    SmallVector<Type> in, out;
    for (Type t : func.getArgumentTypes())
      in.push_back(argType(t));
    for (Type t : func.getResultTypes())
      out.push_back(convertType(t));
    func.setType(FunctionType::get(ctx, in, out));
    return success();
  }
  OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
  for (BlockArgument arg : func.getArguments()) {
    Type pt = convertType(arg.getType());
    arg.setType(argType(arg.getType()));
    if (isa<ckks::PlaintextType>(pt)) {
      // One encoding for now; ckks-manage-levels re-encodes per use.
      Value enc = ckks::EncodeValuesOp::create(entry, arg.getLoc(), pt, arg);
      arg.replaceAllUsesExcept(enc, enc.getDefiningOp());
    }
  }

  // Provisional result types: the level manager recomputes all of them.
  auto isCt = [](Value v) { return isa<ckks::CiphertextType>(v.getType()); };
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<fhe::FHEDialect>(op->getDialect()))
      ops.push_back(op);
  });
  OpBuilder b(ctx);
  for (Operation *op : ops) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    Type resultType = convertType(op->getResult(0).getType());
    // ct (op) pt with the ciphertext first.
    auto ctFirst = [&](Value x, Value y) {
      return isCt(x) ? std::make_pair(x, y) : std::make_pair(y, x);
    };
    Value replacement =
        TypeSwitch<Operation *, Value>(op)
            .Case<fhe::ConstantOp>([&](fhe::ConstantOp c) -> Value {
              return ckks::EncodeOp::create(b, loc, resultType, c.getValue());
            })
            .Case<fhe::AddOp>([&](fhe::AddOp add) -> Value {
              Value x = add.getLhs(), y = add.getRhs();
              if (isCt(x) && isCt(y))
                return ckks::AddOp::create(b, loc, resultType, x, y);
              auto [c, p] = ctFirst(x, y);
              return ckks::AddPlainOp::create(b, loc, resultType, c, p);
            })
            .Case<fhe::SubOp>([&](fhe::SubOp sub) -> Value {
              Value x = sub.getLhs(), y = sub.getRhs();
              if (isCt(x) && isCt(y))
                return ckks::SubOp::create(b, loc, resultType, x, y);
              if (isCt(x))
                return ckks::SubPlainOp::create(b, loc, resultType, x, y);
              // p - c == -(c - p)
              Value d = ckks::SubPlainOp::create(b, loc, resultType, y, x);
              return ckks::NegOp::create(b, loc, resultType, d);
            })
            .Case<fhe::ModRaiseOp>([&](fhe::ModRaiseOp raise) -> Value {
              // Read at the top level (above the fresh ciphertexts' level,
              // the scale-keeping CoeffToSlot levels) and scale;
              // ckks-manage-levels brings the input to level 0 at exactly
              // S_0.
              auto top = ckks::CiphertextType::get(
                  ctx, raise.getType().getSlots(), params.getMaxLevel(),
                  params.getLevelScale(params.getMaxLevel()));
              return ckks::ModRaiseOp::create(
                  b, loc, top, raise.getInput(), b.getF64FloatAttr(s0),
                  encapsulating ? b.getUnitAttr() : UnitAttr());
            })
            .Case<fhe::MulOp>([&](fhe::MulOp mul) -> Value {
              Value x = mul.getLhs(), y = mul.getRhs();
              if (std::optional<int> unit = ember::imaginaryUnitFactor(mul)) {
                Value c = isCt(x) ? x : y;
                Value r = ckks::MulIOp::create(b, loc, c);
                return *unit > 0 ? r : ckks::NegOp::create(b, loc, r);
              }
              if (isCt(x) && isCt(y)) {
                Value m = ckks::MulOp::create(b, loc, resultType, x, y);
                return ckks::RelinearizeOp::create(b, loc, resultType, m);
              }
              auto [c, p] = ctFirst(x, y);
              if (std::optional<int64_t> k = ember::integerFactor(mul))
                return ckks::MulIntOp::create(b, loc, resultType, c, *k);
              return ckks::MulPlainOp::create(b, loc, resultType, c, p);
            })
            .Case<fhe::NegOp>([&](fhe::NegOp neg) -> Value {
              return ckks::NegOp::create(b, loc, resultType, neg.getInput());
            })
            .Case<fhe::TileOp, fhe::UntileOp>([&](Operation *tile) -> Value {
              return ckks::TileOp::create(
                  b, loc, tile->getOperand(0),
                  cast<fhe::CiphertextType>(tile->getResult(0).getType())
                      .getSlots());
            })
            .Case<fhe::RotateOp>([&](fhe::RotateOp rot) -> Value {
              return ckks::RotateOp::create(b, loc, resultType, rot.getInput(),
                                            rot.getOffset());
            })
            .Case<fhe::ConjugateOp>([&](fhe::ConjugateOp conj) -> Value {
              return ckks::ConjugateOp::create(b, loc, resultType,
                                               conj.getInput());
            })
            .Default([](Operation *) { return Value(); });
    if (!replacement)
      return op->emitOpError("has no ckks lowering in fhe-to-ckks");
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
  ckks::syncFunctionType(func);
  return ckks::manageLevels(func, params, ckks::LevelOptions{});
}

LogicalResult
FHEToCKKSPass::checkBootstraps(ModuleOp module, ckks::ParamsAttr params,
                               const ember::RangeAnalysis &ranges) {
  const ember::bootstrap::Window w = ember::bootstrap::window(params);
  WalkResult result = module.walk([&](fhe::BootstrapOp op) {
    // |P / Q_0| = bound * S / Q_0 must stay where the arcsine is exact.
    const ember::RangeSummary *range = ranges.lookup(op.getInput());
    double bound = range ? range->bound : fhe::kDefaultBound;
    double limit = w.maxInput();
    if (bound > limit) {
      op.emitOpError("input can reach magnitude ")
          << formatBound(bound) << ", but bootstrapping at scale 2^"
          << oneDecimal(std::log2(w.scale)) << " with a "
          << oneDecimal(std::log2(w.q0)) << "-bit Q_0 is accurate only up "
          << "to " << formatBound(limit) << " (Q_0 / S_0 = 2^"
          << ember::bootstrap::kMessageRatioBits
          << "): scale the value down before bootstrapping and back up "
             "after";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult
FHEToCKKSPass::expandBootstraps(ModuleOp module, ckks::ParamsAttr params,
                                const ember::bootstrap::Config &config) {
  const ember::bootstrap::Window w = ember::bootstrap::window(params);
  const double top = params.getLevelScale(params.getMaxLevel());
  SmallVector<fhe::BootstrapOp> ops;
  module.walk([&](fhe::BootstrapOp op) { ops.push_back(op); });
  using ember::bootstrap::StopAfter;
  StopAfter stop = bootstrapStopAfter == "coeff_to_slot"
                       ? StopAfter::kCoeffToSlot
                   : bootstrapStopAfter == "eval_mod" ? StopAfter::kEvalMod
                                                      : StopAfter::kNone;
  for (fhe::BootstrapOp op : ops) {
    Value out = ember::bootstrap::expand(
        op, config, static_cast<int>(params.getLogN()), w, top, stop);
    op.getResult().replaceAllUsesWith(out);
    op.erase();
  }
  return success();
}

void FHEToCKKSPass::runOnOperation() {
  ModuleOp module = getOperation();
  bool secure = true;
  if (!bootstrapStopAfter.empty() && bootstrapStopAfter != "coeff_to_slot" &&
      bootstrapStopAfter != "eval_mod") {
    module.emitError("bootstrap-stop-after must be coeff_to_slot or eval_mod, "
                     "got '")
        << bootstrapStopAfter << "'";
    return signalPassFailure();
  }
  if (security == "none")
    secure = false;
  else if (security != "128") {
    module.emitError("security must be 128 or none, got '") << security << "'";
    return signalPassFailure();
  }
  // A program that bootstraps gets a 2^40 scale under a 2^50 q_0, the
  // procedure's levels at the top of the chain and either a dense secret
  // with an ephemeral sparse one around ModRaise (encapsulation) or a
  // sparse secret.
  if (failed(chooseWord(module, secure)))
    return signalPassFailure();
  ember::bootstrap::Config bootConfig = ember::bootstrap::configure(
      encapsulate ? ember::kEncapsulationHammingWeight
                  : ember::bootstrap::kHammingWeight,
      static_cast<int>(bootstrapCosineBits));
  bootConfig.doubleHoisting = doubleHoisting;
  if (bootstrapCosineBits < 10 || bootstrapCosineBits > 50) {
    module.emitError("bootstrap-cosine-bits = ")
        << bootstrapCosineBits << " is outside 10..50";
    return signalPassFailure();
  }
  if (extraLevels < 0) {
    module.emitError("extra-levels = ") << extraLevels << " is negative";
    return signalPassFailure();
  }
  if (bootstrap != "manual" && bootstrap != "auto") {
    module.emitError("bootstrap must be manual or auto, got '")
        << bootstrap << "'";
    return signalPassFailure();
  }
  if (bootstrap == "auto" &&
      failed(placeAutomatically(module, secure, bootConfig)))
    return signalPassFailure();
  bool bootstraps = false;
  module.walk([&](fhe::BootstrapOp) { bootstraps = true; });

  if (bootstraps)
    enterBootstrapping(bootConfig);
  int64_t slots = 0, depth = 0;
  Operation *deepest = nullptr;
  analyse(module, slots, depth, deepest, bootConfig.depth(), procedureLevels);
  // An automatic placement ran every segment within placedLevels and left
  // extra-levels at the outputs: the chain's run is exactly that.
  if (placedLevels)
    depth = std::max(depth, procedureLevels + placedLevels);
  else
    depth += extraLevels;
  LLVM_DEBUG(llvm::dbgs() << "slots " << slots << ", depth " << depth << "\n");
  // The value that must fit the first prime with the largest bound.
  FailureOr<ember::RangeAnalysis> ranges = ember::RangeAnalysis::run(module);
  if (failed(ranges))
    return signalPassFailure();
  Value largest = ranges->largest();
  double bound = largest ? ranges->lookup(largest)->bound : 0;
  LLVM_DEBUG(llvm::dbgs() << "largest magnitude " << bound << "\n");
  bool scaleFixed = scaleBits || !paramSet.empty();
  if (!scaleFixed && largest) {
    FailureOr<int64_t> start = initialScaleBits(largest, bound);
    if (failed(start))
      return signalPassFailure();
    fittedScaleBits = *start;
  }

  // KLSS shape: the options override the named set's.
  if (klssGamma < 0 || klssT < 0) {
    module.emitError("klss-gamma and klss-t must be non-negative");
    return signalPassFailure();
  }
  std::optional<ember::ParamSpec> spec;
  std::vector<uint64_t> q, p, t;
  ckks::ParamsAttr params;
  // A program that bootstraps is lowered once on a copy first: the level
  // manager's exact scales may cost Paterson-Stockmeyer a level more than
  // ceil(log2(d + 1)) on some chains, so the chain grows by a level until
  // the whole program, bootstraps expanded, fits it.
  for (int64_t margin = 0;; ++margin) {
    // Parameters for the program's depth, then the exact check that the
    // first prime holds every value at the chain's scales; a scale the ranges
    // chose comes down a bit at a time until it does.
    for (;;) {
      spec = choose(deepest, slots, depth + margin, secure);
      if (!spec)
        return signalPassFailure();
      if (klssGamma)
        spec->klss_gamma = static_cast<int>(klssGamma);
      if (klssT)
        spec->t_bits.assign(klssT, ckks::tempPrimeBits(wordBits));
      if (spec->klss_gamma == 0 && !spec->t_bits.empty() && klssT) {
        module.emitError("klss-t needs klss-gamma (the key-group size) on the "
                         "automatic parameter path");
        return signalPassFailure();
      }
      if (spec->klss_gamma == 0)
        spec->t_bits.clear();
      if (failed(generatePrimes(module, *spec, q, p, t)))
        return signalPassFailure();
      if (!largest || fits(largest, bound, q, *spec, scaleFixed))
        break;
      if (scaleFixed)
        return signalPassFailure();
      if (wordBits == 32) {
        // The pairs' smallest scale is what the chain has: a smaller scale
        // does not help, the headroom above it is the base's.
        reportTooLarge32(largest, bound, q, *spec);
        return signalPassFailure();
      }
      if (fittedScaleBits <= kMinScaleBits) {
        reportTooLarge(largest, bound);
        return signalPassFailure();
      }
      --fittedScaleBits;
    }
    params = ckks::ParamsAttr::getChecked(
        [&] { return module.emitError("invalid parameters: "); }, &getContext(),
        static_cast<int64_t>(spec->log_n), ArrayRef<uint64_t>(q),
        ArrayRef<uint64_t>(p), static_cast<int64_t>(spec->log_scale),
        static_cast<int64_t>(spec->dnum), int64_t{secure ? 128 : 0},
        ArrayRef<uint64_t>(t), static_cast<int64_t>(spec->klss_gamma),
        static_cast<int64_t>(spec->hamming_weight), int64_t{wordBits},
        static_cast<int64_t>(spec->scale_primes), uint64_t{0}, false);
    if (!params)
      return signalPassFailure();
    module->setAttr(ckks::CKKSDialect::kParamsAttrName, params);
    if (!bootstraps)
      break;
    if (failed(checkBootstraps(module, params, *ranges)))
      return signalPassFailure();
    OwningOpRef<ModuleOp> trial(cast<ModuleOp>(module->clone()));
    LogicalResult fitted = success();
    {
      ScopedDiagnosticHandler quiet(&getContext(),
                                    [](Diagnostic &) { return success(); });
      fitted = lower(*trial, params, bootConfig);
    }
    if (succeeded(fitted))
      break;
    if (margin == kMaxBootstrapMargin) {
      // Lower for real: its diagnostic says what failed.
      (void)lower(module, params, bootConfig);
      return signalPassFailure();
    }
  }
  if (failed(lower(module, params, bootConfig)))
    return signalPassFailure();
}

LogicalResult FHEToCKKSPass::chooseWord(ModuleOp module, bool secure) {
  if (!word.empty() && word != "64" && word != "32" && word != "auto")
    return module.emitError("word must be 64, 32 or auto, got '")
           << word << "'";
  if (!(wordMargin >= 0 && wordMargin < 1))
    return module.emitError("word-margin = ")
           << wordMargin << " is outside [0, 1)";
  ember::ParamSpec named;
  const bool haveNamed =
      !paramSet.empty() && ember::namedParamSpec(paramSet, named);
  // A named set fixes its word size (choose() reports a conflict).
  if (word.empty() || (word == "auto" && haveNamed)) {
    wordBits = haveNamed && named.scale_primes == 2 ? 32 : 64;
    return success();
  }
  bool bootstraps = bootstrap == "auto";
  module.walk([&](fhe::BootstrapOp) { bootstraps = true; });
  if (word == "auto") {
    // The cost model's word choice does not price bootstrapping (word=32
    // compiles it): 64 then. It prices hybrid key switching at both words;
    // a KLSS form (given or added by rns-select-keyswitch) is then chosen
    // at that word.
    wordBits = bootstraps ? 64 : cheaperWord(module, secure);
    return success();
  }
  wordBits = word == "32" ? 32 : 64;
  return success();
}

int FHEToCKKSPass::cheaperWord(ModuleOp module, bool secure) {
  int64_t slots = 0, depth = 0;
  Operation *deepest = nullptr;
  analyse(module, slots, depth, deepest, 0, 0);
  depth += extraLevels;
  // Each op at the level its operands reach (the input level less the
  // levels used before it), as analyse counts them.
  DenseMap<Value, int64_t> used;
  SmallVector<std::pair<Operation *, int64_t>> ops;
  module.walk([&](Operation *op) {
    int64_t d = 0;
    for (Value operand : op->getOperands())
      d = std::max(d, used.lookup(operand));
    if (isa<fhe::FHEDialect>(op->getDialect()))
      ops.push_back({op, d});
    for (Value result : op->getResults())
      used[result] = d + ember::levelsUsed(op);
  });
  // The value that must fit the level-0 modulus (32-bit words keep 30 bits
  // above any scale; a word that cannot hold it is not a candidate).
  Value largest;
  double bound = 0;
  {
    ScopedDiagnosticHandler quiet(&getContext(),
                                  [](Diagnostic &) { return success(); });
    FailureOr<ember::RangeAnalysis> ranges = ember::RangeAnalysis::run(module);
    if (succeeded(ranges) && (largest = ranges->largest()))
      bound = ranges->lookup(largest)->bound;
  }
  double best = 0;
  int bestWord = 64; // also when neither fits (choose() then reports it)
  bool any = false;
  for (int w : {64, 32}) {
    wordBits = w;
    std::optional<ember::ParamSpec> spec;
    std::vector<uint64_t> q, p, t;
    {
      ScopedDiagnosticHandler quiet(&getContext(),
                                    [](Diagnostic &) { return success(); });
      spec = choose(deepest, slots, depth, secure);
      if (!spec || failed(generatePrimes(module, *spec, q, p, t)))
        continue;
      if (w == 32 && largest && !fits(largest, bound, q, *spec, false))
        continue;
    }
    auto params = ckks::ParamsAttr::get(
        &getContext(), spec->log_n, q, p, static_cast<int64_t>(spec->log_scale),
        spec->dnum, secure ? 128 : 0, ArrayRef<uint64_t>(), 0,
        spec->hamming_weight, w, spec->scale_primes, uint64_t{0}, false);
    ember::CKKSCostModel model{params, ember::KeySwitchConstants::forWord(w)};
    double us = 0;
    for (auto [op, d] : ops)
      us += model.fheOpUs(op, std::max<int64_t>(0, params.getInputLevel() - d));
    LLVM_DEBUG(llvm::dbgs() << "word " << w << ": N = 2^" << spec->log_n
                            << ", predicted " << us << " us\n");
    module->setAttr(w == 64 ? "ember.word64_us" : "ember.word32_us",
                    FloatAttr::get(Float64Type::get(&getContext()), us));
    // 32 bits only by the margin `word-margin` (the loop prices 64 bits
    // first): measured against the model, the compiled 32-bit programs ran
    // 4-66% slower relative to the 64-bit ones than predicted (six programs
    // at both words on an H200, bench/RESULTS.md).
    const double needed = w == 32 && any ? best * (1 - wordMargin) : best;
    if (!any || us < needed) {
      any = true;
      best = us;
      bestWord = w;
    }
  }
  return bestWord;
}

void FHEToCKKSPass::enterBootstrapping(const ember::bootstrap::Config &config) {
  encapsulating = encapsulate;
  hammingWeight = encapsulate ? 0 : config.hammingWeight;
  defaultScaleBits = fittedScaleBits = ember::bootstrap::kScaleBits;
  procedureLevels = config.depth();
}

OwningOpRef<ModuleOp>
FHEToCKKSPass::lowerOneBootstrap(ckks::ParamsAttr params,
                                 const ember::bootstrap::Config &config,
                                 int64_t slots) {
  MLIRContext *ctx = &getContext();
  Location loc = UnknownLoc::get(ctx);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  (*scratch)->setAttr(ckks::CKKSDialect::kParamsAttrName, params);
  auto ct = fhe::CiphertextType::get(ctx, slots);
  OpBuilder b = OpBuilder::atBlockBegin(scratch->getBody());
  auto func =
      func::FuncOp::create(b, loc, "bootstrap", b.getFunctionType({ct}, {ct}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value out = fhe::BootstrapOp::create(b, loc, ct, entry->getArgument(0));
  func::ReturnOp::create(b, loc, out);
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  if (failed(lower(*scratch, params, config)))
    return {};
  return scratch;
}

LogicalResult
FHEToCKKSPass::placeAutomatically(ModuleOp module, bool secure,
                                  const ember::bootstrap::Config &config) {
  if (!paramSet.empty())
    return module.emitError("bootstrap=auto chooses a bootstrapping chain; "
                            "do not combine it with the parameter set '")
           << paramSet << "'";
  if (bootstrapLevels < 0)
    return module.emitError("bootstrap-levels = ")
           << bootstrapLevels << " is negative";
  bool manual = false;
  module.walk([&](fhe::BootstrapOp) { manual = true; });
  int64_t slots = 0, depth = 0;
  Operation *deepest = nullptr;
  analyse(module, slots, depth, deepest, config.depth(),
          manual ? config.depth() : 0);
  // The ring the slots need, and the one whose 128-bit bound decides (test
  // mode: as a real program would get, at N = 2^16 at least).
  int ring = logN ? static_cast<int>(logN) : kMinLogN;
  while (ring < kMaxLogN && (int64_t{1} << (ring - 1)) < slots)
    ++ring;
  int boundRing = secure ? ring : std::max(ring, 16);
  int64_t levels = bootstrapLevels;
  if (levels == 0 && !manual && fit(boundRing, depth + extraLevels, true))
    return success(); // the program fits a chain without bootstrapping
  // Saved, so that a placement that inserts nothing leaves the program as
  // it was.
  auto saved = std::make_tuple(encapsulating, hammingWeight, defaultScaleBits,
                               fittedScaleBits, procedureLevels);
  enterBootstrapping(config);
  // A ring the slots allow may be too small for bootstrapping's levels
  // (fewer slots than N/2 bootstrap by sparse packing): without log-n, the
  // program gets the smallest ring whose 128-bit chain holds them and one
  // more (N = 2^16).
  if (secure && !logN)
    while (ring < kMaxLogN && !fit(ring, procedureLevels + 1, true))
      boundRing = ++ring;
  int64_t most = levels;
  if (levels == 0) {
    for (int64_t b = 1; b <= 64 && fit(boundRing, b + procedureLevels, true);
         ++b)
      most = b;
    if (most == 0)
      return module.emitError("bootstrap=auto: the program has depth ")
             << depth << ", more than a 128-bit secure chain at N = 2^"
             << boundRing
             << " holds, and no 128-bit secure chain there holds "
                "bootstrapping's "
             << procedureLevels
             << " levels and one more (N = 2^16 is the smallest ring that "
                "does: drop log_n or raise it)";
  }
  // The parameters of a run of b levels: the program's (the test mode
  // prices them as the real ones at boundRing would be).
  auto paramsFor = [&](int64_t b, int pricedRing,
                       bool pricedSecure) -> ckks::ParamsAttr {
    std::optional<ember::ParamSpec> spec =
        fit(pricedRing, b + procedureLevels, pricedSecure);
    std::vector<uint64_t> q, p, t;
    if (!spec || failed(generatePrimes(module, *spec, q, p, t)))
      return {};
    return ckks::ParamsAttr::get(
        &getContext(), spec->log_n, q, p, static_cast<int64_t>(spec->log_scale),
        spec->dnum, pricedSecure ? 128 : 0, ArrayRef<uint64_t>(), 0,
        spec->hamming_weight, wordBits, spec->scale_primes, uint64_t{0}, false);
  };
  // One bootstrap's expansion, lowered once at the largest run; a run b
  // shifts its levels by b - most.
  ckks::ParamsAttr ringParams = paramsFor(most, ring, secure);
  if (!ringParams)
    return module.emitError("bootstrap=auto: no ")
           << (secure ? "128-bit secure " : "") << "chain at N = 2^" << ring
           << " holds " << most << " levels between bootstraps and "
           << "bootstrapping's " << procedureLevels;
  // Priced at the program's widest vector (fewer slots cost less).
  OwningOpRef<ModuleOp> procedure =
      lowerOneBootstrap(ringParams, config, slots);
  if (!procedure)
    return module.emitError("bootstrap=auto: bootstrapping does not lower at "
                            "N = 2^")
           << ring << " with " << most << " levels between bootstraps";
  FailureOr<ember::RangeAnalysis> ranges = ember::RangeAnalysis::run(module);
  if (failed(ranges))
    return failure();
  const double limit = ember::bootstrap::window(ringParams).maxInput();
  auto cannotBootstrap = [&](Value v) -> std::string {
    const ember::RangeSummary *range = ranges->lookup(v);
    double bound = range ? range->bound : fhe::kDefaultBound;
    if (bound > limit)
      return "it can reach magnitude " + formatBound(bound) +
             ", and bootstrapping is accurate only up to " +
             formatBound(limit) + ": scale it down before and up after";
    return "";
  };
  // Each candidate run, priced; the cheapest placement wins (more levels
  // mean fewer bootstraps, but more limbs and key-switch digits per op).
  struct Candidate {
    int64_t levels = 0;
    ember::CKKSCostModel model;
    double bootstrapUs = 0, total = 0;
  };
  // key-memory-budget-mib: a run's evaluation keys at the program's ring (as
  // ember-cost-report counts them): the relinearization key,
  // galoisKeysEstimate and encapsulation's two.
  const uint64_t budget = static_cast<uint64_t>(keyMemoryBudgetMiB) << 20;
  const int64_t halfN = int64_t{1} << (ring - 1);
  const int64_t keys =
      budget ? 1 + galoisKeysEstimate(module, *procedure, halfN) : 0;
  std::optional<std::pair<int64_t, uint64_t>> smallestKeys; // levels, bytes
  std::optional<Candidate> chosen;
  SmallVector<func::FuncOp> funcs;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      funcs.push_back(func);
  for (int64_t b = levels ? levels : std::max<int64_t>(1, extraLevels);
       b <= most; ++b) {
    Candidate c;
    c.levels = b;
    c.model.constants = ember::KeySwitchConstants::forWord(wordBits);
    c.model.params = paramsFor(b, secure ? ring : boundRing, true);
    if (!secure && !c.model.params)
      c.model.params = paramsFor(b, ring, false);
    if (!c.model.params)
      continue;
    if (budget) {
      ckks::ParamsAttr real =
          secure ? c.model.params : paramsFor(b, ring, false);
      if (!real)
        continue;
      // Encapsulation: from_sparse is a full key, to_sparse a digit per
      // limb of Q_0.
      uint64_t bytes =
          (keys + (encapsulating ? 1 : 0)) * real.getHybridKeyBytes() +
          (encapsulating ? real.getToSparseKeyBytes() : 0);
      if (!smallestKeys || bytes < smallestKeys->second)
        smallestKeys = {b, bytes};
      if (bytes > budget)
        continue;
    }
    procedure->walk([&](Operation *op) {
      if (isa<ckks::CKKSDialect>(op->getDialect()))
        c.bootstrapUs += c.model.opUs(op, b - most);
    });
    ember::BootstrapPlacementOptions opts =
        placementOptions(c.model, b, c.bootstrapUs, cannotBootstrap);
    opts.dryRun = true;
    bool feasible = true;
    {
      ScopedDiagnosticHandler quiet(&getContext(),
                                    [](Diagnostic &) { return success(); });
      for (func::FuncOp func : funcs) {
        FailureOr<ember::BootstrapPlacement> plan =
            ember::placeBootstraps(func, opts);
        if (failed(plan)) {
          feasible = false;
          break;
        }
        c.total += plan->total();
      }
    }
    LLVM_DEBUG(llvm::dbgs() << "bootstrap=auto: " << b << " levels: "
                            << (feasible ? c.total : -1.0) << " us\n");
    if (feasible && (!chosen || c.total < chosen->total))
      chosen = c;
  }
  if (!chosen && budget && smallestKeys && smallestKeys->second > budget)
    return module.emitError("bootstrap=auto: no run between bootstraps fits "
                            "key-memory-budget-mib = ")
           << static_cast<int64_t>(keyMemoryBudgetMiB)
           << ": the smallest keys, " << keys << " of them with "
           << smallestKeys->first << " levels between bootstraps, take "
           << ((smallestKeys->second + (1 << 20) - 1) >> 20) << " MiB";
  // None feasible: place with the most levels for the diagnostic.
  Candidate last;
  if (!chosen) {
    last.levels = most;
    last.model.params = ringParams;
  }
  const Candidate &use = chosen ? *chosen : last;
  ember::BootstrapPlacementOptions opts =
      placementOptions(use.model, use.levels, use.bootstrapUs, cannotBootstrap);
  int64_t inserted = 0;
  for (func::FuncOp func : funcs) {
    FailureOr<ember::BootstrapPlacement> placed =
        ember::placeBootstraps(func, opts);
    if (failed(placed))
      return failure();
    inserted += placed->bootstraps;
  }
  if (inserted || manual)
    placedLevels = use.levels;
  else
    std::tie(encapsulating, hammingWeight, defaultScaleBits, fittedScaleBits,
             procedureLevels) = saved;
  return success();
}

ember::BootstrapPlacementOptions FHEToCKKSPass::placementOptions(
    const ember::CKKSCostModel &model, int64_t levels, double bootstrapUs,
    std::function<std::string(Value)> cannotBootstrap) {
  ember::BootstrapPlacementOptions opts;
  opts.levels = levels;
  opts.outputLevels = extraLevels;
  opts.bootstrapCost = bootstrapUs;
  opts.units = "us";
  opts.cannotBootstrap = std::move(cannotBootstrap);
  opts.opCost = [model](Operation *op, int64_t level) {
    return model.fheOpUs(op, level);
  };
  return opts;
}

LogicalResult FHEToCKKSPass::lower(ModuleOp module, ckks::ParamsAttr params,
                                   const ember::bootstrap::Config &bootConfig) {
  if (failed(expandBootstraps(module, params, bootConfig)))
    return failure();
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (failed(convert(func, params)))
      return failure();
  return success();
}
