//===- ManageLevels.cpp - ckks-manage-levels ------------------------------===//
//
// Places ckks.rescale / ckks.mod_drop / scale adjustments (see
// ManageLevels.td for the policy). The walk visits the ops of a function in
// order; when it reaches an op, the types of its operands are final, so it
// fixes the operands (inserting ops just before it) and recomputes its
// result types.
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/ManageLevels/ManageLevels.h"
#include "compiler/Transforms/ManageLevels/LevelManagement.h"
#include "compiler/Transforms/Utils/TypeUpdate.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"

#include <cmath>

#define DEBUG_TYPE "ckks-manage-levels"

namespace ember {
#define GEN_PASS_DEF_MANAGELEVELS
#include "compiler/Transforms/ManageLevels/ManageLevels.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember::ckks;

namespace {

/// Scale ratios at least this large are bridged by multiplying with a
/// constant encoded at the ratio (no level spent); smaller ones would lose
/// precision in the encoding, so they spend a level instead.
constexpr double kMinScaleUpRatio = 1 << 20;

/// Scales this close are the same scale. Much tighter than the verifiers'
/// kScaleTolerance: adding x at scale s(1 + d) to y at scale s errs by
/// d |x|, and the chain's scales S_l differ from one another by ~2^-30
/// (primes near 2^50), which bootstrapping's EvalMod multiplies by
/// K q_0 / S_0 ~ 2^15. The adjustments are exact to the rounding of one
/// encoded constant (~2^-50), so the manager can hold every value at the
/// canonical scale of its level.
constexpr double kExactScaleTolerance = 1e-13;

/// A refolded product's plaintext may be encoded at a scale this many times
/// smaller than the smaller of its original scale and the level's canonical
/// scale (4 bits of the constant's precision, far below a rescale's noise),
/// and never below kMinScaleUpRatio.
constexpr double kMaxRefoldPrecisionLoss = 16;

/// At most this many ops are rebuilt by one refold (a sum of that many
/// products), which bounds the pass's work on long sums at falling levels.
constexpr int kRefoldBudget = 256;

bool sameScale(double a, double b) {
  return std::fabs(a - b) <= kExactScaleTolerance * std::max(a, b);
}

class LevelManager {
public:
  LevelManager(ParamsAttr params, const LevelOptions &options)
      : params(params), moduli(params.getLevelModuli()),
        lazy(options.strategy == RescaleStrategy::Lazy),
        rescaleOutputs(options.rescaleOutputs),
        levelScale(levelScales(moduli, params.getLogScale())) {
    int64_t bits =
        options.waterline ? options.waterline : (3 * params.getLogScale()) / 2;
    waterlineScale = std::ldexp(1.0, bits);
  }

  LogicalResult run(func::FuncOp func);

private:
  ParamsAttr params;
  /// The rescale divisor of each level (ParamsAttr::getLevelModuli).
  std::vector<uint64_t> moduli;
  bool lazy;
  bool rescaleOutputs;
  /// The canonical scale of each level (ckks::levelScales).
  std::vector<double> levelScale;
  double waterlineScale;
  DenseMap<Value, Value> rescaled;
  DenseMap<std::pair<Value, int64_t>, Value> dropped;
  /// Ops whose result reaches a ciphertext-ciphertext add or sub.
  DenseSet<Operation *> meetsAddition;

  static CiphertextType ct(Value v) {
    return cast<CiphertextType>(v.getType());
  }
  /// The waterline is set for the program's scale 2^logScale; a run of
  /// larger primes above (bootstrapping's) scales it by (S_l /
  /// 2^logScale)^1.5.
  bool aboveWaterline(Value v) const {
    if (!lazy)
      return false;
    double run = levelScale[ct(v).getLevel()] / params.getDefaultScale();
    return ct(v).getScale() > waterlineScale * std::pow(run, 1.5);
  }

  FailureOr<Value> rescale(OpBuilder &b, Location loc, Value v);
  FailureOr<Value> rescaleCached(OpBuilder &b, Location loc, Value v);
  Value modDrop(OpBuilder &b, Location loc, Value v, int64_t level);
  Value mulByOne(OpBuilder &b, Location loc, Value v, double ptScale);
  FailureOr<Value> adjust(OpBuilder &b, Location loc, Value v, int64_t level,
                          double scale);
  Value refold(OpBuilder &b, Location loc, Value v, int64_t level,
               double scale);
  bool refoldTree(OpBuilder *b, Location loc, Value v, int64_t level,
                  double scale, int &budget, Value &out);
  double minPlaintextScale(int64_t level, double original) const {
    return std::max(kMinScaleUpRatio, std::min(original, levelScale[level]) /
                                          kMaxRefoldPrecisionLoss);
  }
  LogicalResult matchAddSub(OpBuilder &b, Operation *op);
  LogicalResult matchMul(OpBuilder &b, Operation *op);
  LogicalResult matchModRaise(OpBuilder &b, ModRaiseOp raise);
  LogicalResult rescaleAboveWaterline(OpBuilder &b, Operation *op,
                                      unsigned operandIndex);
  LogicalResult retypePlaintext(OpBuilder &b, Operation *op, int64_t level,
                                double scale);
};

} // namespace

FailureOr<Value> LevelManager::rescale(OpBuilder &b, Location loc, Value v) {
  CiphertextType type = ct(v);
  if (type.getLevel() == 0)
    return emitError(loc, "no level left to rescale: the program needs more "
                          "levels than #ckks.params provides (levels 0..")
           << params.getMaxLevel() << ")";
  double q = static_cast<double>(moduli[type.getLevel()]);
  auto out = type.withLevelAndScale(type.getLevel() - 1, type.getScale() / q);
  return RescaleOp::create(b, loc, out, v).getResult();
}

FailureOr<Value> LevelManager::rescaleCached(OpBuilder &b, Location loc,
                                             Value v) {
  auto it = rescaled.find(v);
  if (it != rescaled.end())
    return it->second;
  FailureOr<Value> r = rescale(b, loc, v);
  if (succeeded(r))
    rescaled[v] = *r;
  return r;
}

Value LevelManager::modDrop(OpBuilder &b, Location loc, Value v,
                            int64_t level) {
  if (ct(v).getLevel() == level)
    return v;
  auto key = std::make_pair(v, level);
  auto it = dropped.find(key);
  if (it != dropped.end())
    return it->second;
  auto out = ct(v).withLevelAndScale(level, ct(v).getScale());
  Value r = ModDropOp::create(b, loc, out, v);
  dropped[key] = r;
  return r;
}

/// v * (1 encoded at `ptScale`): multiplies the scale by ptScale exactly.
Value LevelManager::mulByOne(OpBuilder &b, Location loc, Value v,
                             double ptScale) {
  CiphertextType type = ct(v);
  auto ptType = PlaintextType::get(b.getContext(), type.getSlots(),
                                   type.getLevel(), ptScale);
  auto one = DenseElementsAttr::get(
      RankedTensorType::get({type.getSlots()}, b.getF64Type()), 1.0);
  Value pt = EncodeOp::create(b, loc, ptType, cast<DenseFPElementsAttr>(one));
  auto mul = MulPlainOp::create(b, loc, v, pt);
  mul->setAttr(kScaleAdjustAttrName, b.getUnitAttr());
  return mul;
}

/// Brings v (above `level`) to exactly (level, scale): mod_drop to level+1,
/// multiply by 1 encoded at scale * q_{level+1} / s, rescale.
FailureOr<Value> LevelManager::adjust(OpBuilder &b, Location loc, Value v,
                                      int64_t level, double scale) {
  // Cheaper when v is a sum of products by plaintexts: redone at the target
  // (no rescale), or one level above it and rescaled (the rescale replaces
  // v's own and the adjustment's multiply).
  if (Value r = refold(b, loc, v, level, scale))
    return r;
  double q = static_cast<double>(moduli[level + 1]);
  if (Value r = refold(b, loc, v, level + 1, scale * q))
    return rescale(b, loc, r);
  Value x = modDrop(b, loc, v, level + 1);
  double factor = scale * q / ct(x).getScale();
  if (factor < 1.0)
    return emitError(loc, "cannot match scale ")
           << formatScale(ct(x).getScale()) << " to " << formatScale(scale)
           << " at level " << level
           << ": the adjustment constant would be encoded at scale "
           << formatScale(factor) << " < 1";
  return rescale(b, loc, mulByOne(b, loc, x, factor));
}

/// v rebuilt at exactly (level, scale) without spending a level, or null.
/// A product by a plaintext (`ckks.encode` / `ckks.encode_values`) is redone
/// on its ciphertext mod_dropped to `level`, the plaintext re-encoded at
/// scale / s_x: the scale adjustment folds into the constant the product
/// already multiplies by. Sums, differences, negations, integer and i
/// multiples, plaintext additions and mod_drops of such products are redone
/// term by term, and a rescale from a level above is redone from level+1 at
/// scale * q_{level+1}. This is how a linear combination of values at
/// several levels (the baby steps of a polynomial, T_1 .. T_k) is computed
/// at the lowest of them with one rescale, where adjusting each partial sum
/// would spend a rescale and a multiply per term. Every rebuilt op must
/// have a single use (the old tree is then dead; nothing is computed
/// twice).
Value LevelManager::refold(OpBuilder &b, Location loc, Value v, int64_t level,
                           double scale) {
  if (ct(v).getLevel() < level || sameScale(ct(v).getScale(), scale))
    return {};
  Value out;
  int budget = kRefoldBudget;
  if (!refoldTree(nullptr, loc, v, level, scale, budget, out))
    return {};
  budget = kRefoldBudget;
  refoldTree(&b, loc, v, level, scale, budget, out);
  return out;
}

/// The check (b null) and the rebuild (b set) of refold, one recursion so
/// that both agree.
bool LevelManager::refoldTree(OpBuilder *b, Location loc, Value v,
                              int64_t level, double scale, int &budget,
                              Value &out) {
  CiphertextType type = ct(v);
  if (type.getLevel() < level || --budget < 0)
    return false;
  if (sameScale(type.getScale(), scale)) {
    out = b ? modDrop(*b, loc, v, level) : v;
    return true;
  }
  Operation *def = v.getDefiningOp();
  if (!def || !v.hasOneUse())
    return false;
  auto reencode = [&](Value pt, int64_t l, double s) -> Value {
    auto retyped = cast<PlaintextType>(pt.getType()).withLevelAndScale(l, s);
    if (auto e = pt.getDefiningOp<EncodeOp>())
      return EncodeOp::create(*b, e.getLoc(), retyped, e.getValue());
    auto e = pt.getDefiningOp<EncodeValuesOp>();
    return EncodeValuesOp::create(*b, e.getLoc(), retyped, e.getValues());
  };
  auto encodable = [](Value pt) {
    return pt.getDefiningOp<EncodeOp>() || pt.getDefiningOp<EncodeValuesOp>();
  };
  auto finish = [&](Operation *op) {
    if (failed(refreshResultTypes(op)))
      return false;
    out = op->getResult(0);
    return true;
  };
  return TypeSwitch<Operation *, bool>(def)
      .Case<MulPlainOp>([&](MulPlainOp mul) {
        Value x = mul.getCiphertext();
        double ptScale = scale / ct(x).getScale();
        double original =
            cast<PlaintextType>(mul.getPlaintext().getType()).getScale();
        if (ct(x).getLevel() < level || !encodable(mul.getPlaintext()) ||
            ptScale < minPlaintextScale(level, original))
          return false;
        if (!b)
          return true;
        Value pt = reencode(mul.getPlaintext(), level, ptScale);
        auto redone =
            MulPlainOp::create(*b, loc, modDrop(*b, loc, x, level), pt);
        if (mul->hasAttr(kScaleAdjustAttrName))
          redone->setAttr(kScaleAdjustAttrName, b->getUnitAttr());
        return finish(redone);
      })
      .Case<AddOp, SubOp>([&](Operation *op) {
        Value l, r;
        if (!refoldTree(b, loc, op->getOperand(0), level, scale, budget, l) ||
            !refoldTree(b, loc, op->getOperand(1), level, scale, budget, r))
          return false;
        if (!b)
          return true;
        Operation *redone = isa<AddOp>(op)
                                ? AddOp::create(*b, loc, l, r).getOperation()
                                : SubOp::create(*b, loc, l, r).getOperation();
        return finish(redone);
      })
      .Case<AddPlainOp, SubPlainOp>([&](Operation *op) {
        Value c;
        if (!encodable(op->getOperand(1)) ||
            !refoldTree(b, loc, op->getOperand(0), level, scale, budget, c))
          return false;
        if (!b)
          return true;
        Value pt = reencode(op->getOperand(1), level, scale);
        Operation *redone =
            isa<AddPlainOp>(op)
                ? AddPlainOp::create(*b, loc, c, pt).getOperation()
                : SubPlainOp::create(*b, loc, c, pt).getOperation();
        return finish(redone);
      })
      .Case<NegOp, MulIntOp, MulIOp>([&](Operation *op) {
        Value c;
        if (!refoldTree(b, loc, op->getOperand(0), level, scale, budget, c))
          return false;
        if (!b)
          return true;
        Operation *redone = b->clone(*op);
        redone->setOperand(0, c);
        return finish(redone);
      })
      .Case<ModDropOp>([&](ModDropOp drop) {
        return refoldTree(b, loc, drop.getInput(), level, scale, budget, out);
      })
      .Case<RescaleOp>([&](RescaleOp rs) {
        if (ct(rs.getInput()).getLevel() < level + 1)
          return false;
        double q = static_cast<double>(moduli[level + 1]);
        Value in;
        if (!refoldTree(b, loc, rs.getInput(), level + 1, scale * q, budget,
                        in))
          return false;
        if (!b)
          return true;
        FailureOr<Value> r = rescale(*b, loc, in);
        if (failed(r))
          return false;
        out = *r;
        return true;
      })
      .Default([](Operation *) { return false; });
}

LogicalResult LevelManager::rescaleAboveWaterline(OpBuilder &b, Operation *op,
                                                  unsigned i) {
  Value v = op->getOperand(i);
  if (!isa<CiphertextType>(v.getType()) || !aboveWaterline(v))
    return success();
  FailureOr<Value> r = rescaleCached(b, op->getLoc(), v);
  if (failed(r))
    return failure();
  op->setOperand(i, *r);
  return success();
}

LogicalResult LevelManager::matchMul(OpBuilder &b, Operation *op) {
  for (unsigned i = 0; i < 2; ++i)
    if (failed(rescaleAboveWaterline(b, op, i)))
      return failure();
  CiphertextType t0 = ct(op->getOperand(0)), t1 = ct(op->getOperand(1));
  if (t0.getLevel() == t1.getLevel())
    return success();
  // The higher operand comes down to the lower one's level *and scale*
  // (OpenFHE's FLEXIBLEAUTO): both factors then carry the scale S_l of that
  // level, so every product made at level l has scale S_l^2 and rescales to
  // the same S_{l-1}. A mod_drop alone would keep its own scale, and two
  // products at one level could then differ in scale where nothing is left
  // to match them. The adjustment multiplies by 1 at ~S_{l+1} and rescales
  // from level l+1, which the higher operand has to spare: no depth spent.
  // A product that never meets another value in an addition or subtraction
  // (directly or through later ops) needs no particular scale: there a
  // mod_drop suffices and saves the adjustment's rescale.
  unsigned hi = t0.getLevel() > t1.getLevel() ? 0 : 1;
  CiphertextType lo = hi == 0 ? t1 : t0;
  Value v = op->getOperand(hi);
  if (sameScale(ct(v).getScale(), lo.getScale()) ||
      !meetsAddition.contains(op)) {
    op->setOperand(hi, modDrop(b, op->getLoc(), v, lo.getLevel()));
    return success();
  }
  FailureOr<Value> r = adjust(b, op->getLoc(), v, lo.getLevel(), lo.getScale());
  if (failed(r))
    return failure();
  op->setOperand(hi, *r);
  return success();
}

LogicalResult LevelManager::matchAddSub(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  for (int attempt = 0; attempt < 4; ++attempt) {
    Value x = op->getOperand(0), y = op->getOperand(1);
    CiphertextType tx = ct(x), ty = ct(y);
    if (sameScale(tx.getScale(), ty.getScale())) {
      int64_t level = std::min(tx.getLevel(), ty.getLevel());
      op->setOperand(0, modDrop(b, loc, x, level));
      op->setOperand(1, modDrop(b, loc, y, level));
      return success();
    }
    // hi: the operand at the higher level (x when levels are equal).
    unsigned hi = tx.getLevel() >= ty.getLevel() ? 0 : 1;
    Value vh = op->getOperand(hi), vl = op->getOperand(1 - hi);
    CiphertextType th = ct(vh), tl = ct(vl);
    // Cheapest of all: an operand made of products by plaintexts is redone
    // at the other's level and scale, the adjustment folded into its
    // constants (no level, no extra op).
    if (Value r = refold(b, loc, vh, tl.getLevel(), tl.getScale())) {
      op->setOperand(hi, r);
      return success();
    }
    if (th.getLevel() == tl.getLevel())
      if (Value r = refold(b, loc, vl, th.getLevel(), th.getScale())) {
        op->setOperand(1 - hi, r);
        return success();
      }
    if (th.getLevel() != tl.getLevel() &&
        tl.getScale() / th.getScale() >= kMinScaleUpRatio) {
      // Drop the higher one and scale it up: no level spent.
      Value d = modDrop(b, loc, vh, tl.getLevel());
      op->setOperand(hi, mulByOne(b, loc, d, tl.getScale() / th.getScale()));
      return success();
    }
    if (th.getLevel() == tl.getLevel()) {
      unsigned small = tx.getScale() < ty.getScale() ? 0 : 1;
      double ratio = std::max(tx.getScale(), ty.getScale()) /
                     std::min(tx.getScale(), ty.getScale());
      if (ratio >= kMinScaleUpRatio) {
        op->setOperand(small, mulByOne(b, loc, op->getOperand(small), ratio));
        return success();
      }
    }
    if (th.getLevel() != tl.getLevel()) {
      // A rescale of the higher one (from one level above the other) may
      // land exactly on the other's scale: the cheapest match.
      double q = static_cast<double>(moduli[tl.getLevel() + 1]);
      if (sameScale(th.getScale() / q, tl.getScale())) {
        FailureOr<Value> r =
            rescale(b, loc, modDrop(b, loc, vh, tl.getLevel() + 1));
        if (failed(r))
          return failure();
        op->setOperand(hi, *r);
        return success();
      }
    }
    if (aboveWaterline(x) || aboveWaterline(y)) {
      unsigned big = tx.getScale() > ty.getScale() ? 0 : 1;
      FailureOr<Value> r = rescaleCached(b, loc, op->getOperand(big));
      if (failed(r))
        return failure();
      op->setOperand(big, *r);
      continue;
    }
    if (th.getLevel() != tl.getLevel()) {
      FailureOr<Value> r = adjust(b, loc, vh, tl.getLevel(), tl.getScale());
      if (failed(r))
        return failure();
      op->setOperand(hi, *r);
      return success();
    }
    // One level, scales close but not equal: spend a level on both.
    if (tx.getLevel() == 0)
      return op->emitError("operands have scales ")
             << formatScale(tx.getScale()) << " and "
             << formatScale(ty.getScale())
             << " at level 0; no level left to match them";
    int64_t level = tx.getLevel() - 1;
    FailureOr<Value> r = adjust(b, loc, x, level, ty.getScale());
    if (failed(r))
      return failure();
    op->setOperand(0, *r);
    op->setOperand(1, modDrop(b, loc, y, level));
    return success();
  }
  return op->emitError("could not match the operand levels and scales");
}

/// Bootstrapping's constants assume its input at level 0 with exactly the
/// chain's canonical S_0: a mod_drop when the scale is already that, else
/// an adjustment from a higher level (which the input has to spare).
LogicalResult LevelManager::matchModRaise(OpBuilder &b, ModRaiseOp raise) {
  if (failed(rescaleAboveWaterline(b, raise, 0)))
    return failure();
  Location loc = raise.getLoc();
  Value v = raise.getInput();
  double want = raise.getInputScale().convertToDouble();
  if (sameScale(ct(v).getScale(), want) || ct(v).getLevel() == 0) {
    raise->setOperand(0, modDrop(b, loc, v, 0));
  } else {
    FailureOr<Value> r = adjust(b, loc, v, 0, want);
    if (failed(r))
      return failure();
    raise->setOperand(0, *r);
  }
  double have = ct(raise.getInput()).getScale();
  if (!sameScale(have, want))
    return raise.emitError("the value to bootstrap reaches level 0 at scale ")
           << formatScale(have) << ", not the chain's " << formatScale(want)
           << " that bootstrapping needs, and has no level left to adjust "
              "it: bootstrap it one multiplication earlier";
  return success();
}

LogicalResult LevelManager::retypePlaintext(OpBuilder &b, Operation *op,
                                            int64_t level, double scale) {
  Value pt = op->getOperand(1);
  auto type = cast<PlaintextType>(pt.getType());
  if (type.getLevel() == level && sameScale(type.getScale(), scale))
    return success();
  auto retyped = type.withLevelAndScale(level, scale);
  if (auto encode = pt.getDefiningOp<EncodeOp>()) {
    op->setOperand(
        1, EncodeOp::create(b, encode.getLoc(), retyped, encode.getValue()));
    return success();
  }
  if (auto encode = pt.getDefiningOp<EncodeValuesOp>()) {
    op->setOperand(1, EncodeValuesOp::create(b, encode.getLoc(), retyped,
                                             encode.getValues()));
    return success();
  }
  return op->emitError("plaintext operand is at level ")
         << type.getLevel() << ", scale " << formatScale(type.getScale())
         << " but this use needs level " << level << ", scale "
         << formatScale(scale)
         << "; only ckks.encode and ckks.encode_values can be re-encoded";
}

LogicalResult LevelManager::run(func::FuncOp func) {
  if (func.isExternal())
    return success();
  if (!func.getBody().hasOneBlock())
    return func.emitError("ckks level management handles single-block "
                          "functions only");
  Block &block = func.getBody().front();

  // 1. Strip what an earlier run (or fhe-to-ckks) placed. Relinearizations
  // go too: they are placed again right after each product below, so that
  // every value is degree 2 here (a rescale needs degree 2), and
  // ckks-insert-relin makes them lazy afterwards where that is free.
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isa<RescaleOp, ModDropOp, RelinearizeOp>(op) ||
        (isa<MulPlainOp>(op) && op.hasAttr(kScaleAdjustAttrName))) {
      op.getResult(0).replaceAllUsesWith(op.getOperand(0));
      op.erase();
    }
  }

  // 2. Which results flow into a ciphertext addition or subtraction.
  meetsAddition.clear();
  for (Operation &op : llvm::reverse(block))
    for (Operation *user : op.getUsers())
      if (isa<AddOp, SubOp>(user) || meetsAddition.contains(user)) {
        meetsAddition.insert(&op);
        break;
      }

  // 3. Walk forward, fixing operands and recomputing types.
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  OpBuilder b(func.getContext());
  for (Operation *op : ops) {
    b.setInsertionPoint(op);
    LogicalResult ok =
        TypeSwitch<Operation *, LogicalResult>(op)
            .Case<EncodeOp, EncodeValuesOp>([](auto) { return success(); })
            .Case<MulOp>([&](auto) { return matchMul(b, op); })
            .Case<MulPlainOp>([&](MulPlainOp mul) {
              if (failed(rescaleAboveWaterline(b, op, 0)))
                return failure();
              // At the ciphertext's own scale s: the product has s^2, as a
              // ciphertext product at that level, so both rescale to the
              // same scale (a fixed 2^logScale would drift apart from it).
              // Where the rescale crosses into the next run of the chain,
              // at q_l S_{l-1} / s instead: the product rescales to that
              // run's S_{l-1} (bootstrapping's last SlotToCoeff stage
              // leaves its 60-bit run for the program's scale this way).
              CiphertextType c = ct(mul.getCiphertext());
              int64_t l = c.getLevel();
              double ptScale = c.getScale();
              if (isRunBoundary(moduli, levelScale, l)) {
                double q = static_cast<double>(moduli[l]);
                double crossing = q * levelScale[l - 1] / c.getScale();
                if (crossing >= kMinScaleUpRatio)
                  ptScale = crossing;
              }
              return retypePlaintext(b, op, l, ptScale);
            })
            .Case<AddOp, SubOp>([&](auto) { return matchAddSub(b, op); })
            .Case<ModRaiseOp>([&](ModRaiseOp raise) -> LogicalResult {
              return matchModRaise(b, raise);
            })
            .Case<AddPlainOp, SubPlainOp>([&](auto) {
              CiphertextType type = ct(op->getOperand(0));
              return retypePlaintext(b, op, type.getLevel(), type.getScale());
            })
            .Case<func::ReturnOp>([&](auto) {
              // A rescale divides the modulus and the scale alike: it adds
              // no headroom to an output, only its rounding error.
              for (unsigned i = 0; rescaleOutputs && i < op->getNumOperands();
                   ++i)
                if (failed(rescaleAboveWaterline(b, op, i)))
                  return failure();
              return success();
            })
            .Default([](auto) { return success(); });
    if (failed(ok) || failed(refreshResultTypes(op)))
      return failure();
    if (isa<MulOp>(op)) {
      b.setInsertionPointAfter(op);
      Value product = op->getResult(0);
      Value r = RelinearizeOp::create(b, op->getLoc(), product);
      product.replaceAllUsesExcept(r, r.getDefiningOp());
      if (!lazy) {
        b.setInsertionPointAfter(r.getDefiningOp());
        FailureOr<Value> rs = rescale(b, op->getLoc(), r);
        if (failed(rs))
          return failure();
        r.replaceAllUsesExcept(*rs, rs->getDefiningOp());
      }
      continue;
    }
    if (!lazy && isa<MulPlainOp>(op)) {
      b.setInsertionPointAfter(op);
      Value product = op->getResult(0);
      FailureOr<Value> r = rescale(b, op->getLoc(), product);
      if (failed(r))
        return failure();
      product.replaceAllUsesExcept(*r, r->getDefiningOp());
    }
  }

  // 4. Plaintexts re-encoded at their uses leave the originals dead, and
  // refolded sums (refold) their old terms.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (isOpTriviallyDead(&op))
      op.erase();
  syncFunctionType(func);
  LLVM_DEBUG(llvm::dbgs() << "managed levels of @" << func.getSymName()
                          << "\n");
  return success();
}

LogicalResult ember::ckks::manageLevels(func::FuncOp func, ParamsAttr params,
                                        const LevelOptions &options) {
  return LevelManager(params, options).run(func);
}

namespace {
struct ManageLevelsPass
    : public ember::impl::ManageLevelsBase<ManageLevelsPass> {
  using ManageLevelsBase::ManageLevelsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    LevelOptions options;
    if (strategy == "lazy")
      options.strategy = RescaleStrategy::Lazy;
    else if (strategy != "eager") {
      module.emitError("unknown strategy '")
          << strategy << "' (expected eager or lazy)";
      return signalPassFailure();
    }
    options.waterline = waterline;
    options.rescaleOutputs = rescaleOutputs;
    WalkResult result = module.walk([&](func::FuncOp func) {
      ParamsAttr params = ParamsAttr::lookup(func);
      if (!params) {
        func.emitError("ckks-manage-levels needs the module's '")
            << CKKSDialect::kParamsAttrName << "' (run fhe-to-ckks first)";
        return WalkResult::interrupt();
      }
      return failed(manageLevels(func, params, options))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
