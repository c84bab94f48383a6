//===- RangeAnalysis.cpp - slot ranges of fhe values ----------------------===//
//
// One forward walk per function. Each live value holds its slots' ranges:
// one entry per slot, or a single entry when every slot has the same range
// (arguments, splat constants and what is computed from them only), so a
// program that never meets a slot-wise plaintext costs O(1) per op. A
// value's per-slot ranges are released after its last use; its summary
// (hull and bound) stays.
//
// Rules (x, y: ranges of the real and imaginary parts of one slot):
//   add, sub, neg       interval arithmetic, part by part
//   mul                 (a + bi)(c + di) = (ac - bd) + (ad + bc)i with
//                       interval products; x * x squares (a^2 >= 0)
//   rotate by k         slot i takes slot (i + k) mod n
//   conjugate           the imaginary part changes sign
//   constant            each slot's value (a splat: one value)
//   argument            `fhe.range`, else [-1, 1] (real)
// An infinite or NaN bound (a product past the doubles) is unbounded.
//
//===----------------------------------------------------------------------===//
#include "compiler/Analysis/Range/RangeAnalysis.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#define DEBUG_TYPE "fhe-annotate-ranges"

namespace ember {
#define GEN_PASS_DEF_FHEANNOTATERANGES
#include "compiler/Analysis/Range/RangeAnalysis.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember;
using fhe::Interval;
using fhe::SlotRange;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The ranges of a value's slots: one per slot, or one for all (a splat).
using Slots = std::vector<SlotRange>;

Interval add(Interval a, Interval b) { return {a.lo + b.lo, a.hi + b.hi}; }
Interval neg(Interval a) { return {-a.hi, -a.lo}; }
Interval sub(Interval a, Interval b) { return add(a, neg(b)); }
Interval scaled(Interval a, double k) { return {k * a.lo, k * a.hi}; }

Interval mul(Interval a, Interval b) {
  double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  for (double x : p)
    if (std::isnan(x)) // 0 x inf
      return {-kInf, kInf};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

/// a * a for one value: never negative.
Interval square(Interval a) {
  double l = a.lo * a.lo, h = a.hi * a.hi;
  double lo = a.lo <= 0 && a.hi >= 0 ? 0 : std::min(l, h);
  return {lo, std::max(l, h)};
}

bool isReal(const SlotRange &r) { return r.im.lo == 0 && r.im.hi == 0; }

double magnitude(Interval a) {
  return std::max(std::fabs(a.lo), std::fabs(a.hi));
}

/// The largest |z| of a slot in `r` (NaN counts as unbounded).
double magnitude(const SlotRange &r) {
  double m = isReal(r) ? magnitude(r.re)
                       : std::hypot(magnitude(r.re), magnitude(r.im));
  return std::isnan(m) ? kInf : m;
}

SlotRange mul(const SlotRange &x, const SlotRange &y) {
  return {sub(mul(x.re, y.re), mul(x.im, y.im)),
          add(mul(x.re, y.im), mul(x.im, y.re))};
}

SlotRange square(const SlotRange &x) {
  if (isReal(x))
    return {square(x.re), {0, 0}};
  return {sub(square(x.re), square(x.im)), scaled(mul(x.re, x.im), 2)};
}

/// f applied slot by slot; a splat operand stands for every slot.
template <typename F> Slots zip(const Slots &a, const Slots &b, F f) {
  size_t n = std::max(a.size(), b.size());
  Slots out(n);
  for (size_t i = 0; i < n; ++i)
    out[i] = f(a[a.size() == 1 ? 0 : i], b[b.size() == 1 ? 0 : i]);
  return out;
}

template <typename F> Slots map(const Slots &a, F f) {
  Slots out(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    out[i] = f(a[i]);
  return out;
}

/// A constant's slots (f64 or complex<f64> elements; a splat is one).
FailureOr<Slots> constantSlots(fhe::ConstantOp c) {
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!dense)
    return c.emitOpError("range analysis needs a dense constant");
  Slots out;
  if (auto values = dense.tryGetValues<APFloat>(); succeeded(values)) {
    for (const APFloat &v : *values) {
      double x = v.convertToDouble();
      out.push_back({{x, x}, {0, 0}});
      if (dense.isSplat())
        break;
    }
  } else if (auto values = dense.tryGetValues<std::complex<APFloat>>();
             succeeded(values)) {
    for (const std::complex<APFloat> &v : *values) {
      double re = v.real().convertToDouble(), im = v.imag().convertToDouble();
      out.push_back({{re, re}, {im, im}});
      if (dense.isSplat())
        break;
    }
  } else {
    return c.emitOpError("range analysis: unsupported constant element type ")
           << dense.getElementType();
  }
  return out;
}

RangeSummary summarize(const Slots &slots) {
  RangeSummary r;
  r.hull = slots.front();
  for (const SlotRange &s : slots) {
    r.hull.re = {std::min(r.hull.re.lo, s.re.lo),
                 std::max(r.hull.re.hi, s.re.hi)};
    r.hull.im = {std::min(r.hull.im.lo, s.im.lo),
                 std::max(r.hull.im.hi, s.im.hi)};
    r.bound = std::max(r.bound, magnitude(s));
  }
  return r;
}

bool isFheValue(Value v) {
  return isa<fhe::CiphertextType, fhe::PlaintextType>(v.getType());
}

} // namespace

FailureOr<RangeAnalysis> RangeAnalysis::run(ModuleOp module) {
  RangeAnalysis result;
  double largestBound = -1;
  // Only ciphertexts and plaintexts that meet one in an addition must fit
  // q_0 (see largest()).
  auto consider = [&](Value v, bool mustFit) {
    if (!mustFit)
      return;
    double b = result.ranges_[v].bound;
    if (b > largestBound) {
      largestBound = b;
      result.largest_ = v;
    }
  };
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (!func.getBody().hasOneBlock())
      return func.emitError("range analysis handles single-block functions "
                            "only");
    Block &block = func.getBody().front();
    DenseMap<Value, Slots> live;
    DenseMap<Value, unsigned> usesLeft;
    auto define = [&](Value v, Slots slots) {
      result.ranges_[v] = summarize(slots);
      unsigned uses = std::distance(v.use_begin(), v.use_end());
      if (uses) {
        live[v] = std::move(slots);
        usesLeft[v] = uses;
      }
      consider(v, isa<fhe::CiphertextType>(v.getType()));
    };
    for (BlockArgument arg : block.getArguments()) {
      if (!isFheValue(arg))
        continue;
      SlotRange r = fhe::defaultRange();
      if (Attribute a =
              func.getArgAttr(arg.getArgNumber(), fhe::kRangeAttrName)) {
        FailureOr<SlotRange> parsed = fhe::parseRange(a, [&] {
          return emitError(arg.getLoc())
                 << "argument " << arg.getArgNumber() << " of @"
                 << func.getSymName() << ": ";
        });
        if (failed(parsed))
          return failure();
        r = *parsed;
      }
      define(arg, Slots{r});
    }
    for (Operation &op : block) {
      auto slotsOf = [&](Value v) -> const Slots & { return live[v]; };
      FailureOr<Slots> out =
          TypeSwitch<Operation *, FailureOr<Slots>>(&op)
              .Case<fhe::ConstantOp>(
                  [&](fhe::ConstantOp c) { return constantSlots(c); })
              .Case<fhe::AddOp>([&](fhe::AddOp o) -> FailureOr<Slots> {
                return zip(slotsOf(o.getLhs()), slotsOf(o.getRhs()),
                           [](const SlotRange &x, const SlotRange &y) {
                             return SlotRange{add(x.re, y.re), add(x.im, y.im)};
                           });
              })
              .Case<fhe::SubOp>([&](fhe::SubOp o) -> FailureOr<Slots> {
                return zip(slotsOf(o.getLhs()), slotsOf(o.getRhs()),
                           [](const SlotRange &x, const SlotRange &y) {
                             return SlotRange{sub(x.re, y.re), sub(x.im, y.im)};
                           });
              })
              .Case<fhe::MulOp>([&](fhe::MulOp o) -> FailureOr<Slots> {
                if (o.getLhs() == o.getRhs())
                  return map(slotsOf(o.getLhs()),
                             [](const SlotRange &x) { return square(x); });
                return zip(slotsOf(o.getLhs()), slotsOf(o.getRhs()),
                           [](const SlotRange &x, const SlotRange &y) {
                             return mul(x, y);
                           });
              })
              .Case<fhe::NegOp>([&](fhe::NegOp o) -> FailureOr<Slots> {
                return map(slotsOf(o.getInput()), [](const SlotRange &x) {
                  return SlotRange{neg(x.re), neg(x.im)};
                });
              })
              .Case<fhe::ConjugateOp>(
                  [&](fhe::ConjugateOp o) -> FailureOr<Slots> {
                    return map(slotsOf(o.getInput()), [](const SlotRange &x) {
                      return SlotRange{x.re, neg(x.im)};
                    });
                  })
              .Case<fhe::RotateOp>([&](fhe::RotateOp o) -> FailureOr<Slots> {
                const Slots &in = slotsOf(o.getInput());
                if (in.size() == 1)
                  return in;
                int64_t n = static_cast<int64_t>(in.size());
                int64_t k = ((o.getOffset() % n) + n) % n;
                Slots out(in.size());
                for (int64_t i = 0; i < n; ++i)
                  out[i] = in[(i + k) % n];
                return out;
              })
              .Case<fhe::BootstrapOp>(
                  [&](fhe::BootstrapOp o) -> FailureOr<Slots> {
                    // The same values, refreshed (the approximation error
                    // is far below the interval arithmetic's slack).
                    return slotsOf(o.getInput());
                  })
              .Case<fhe::TileOp>([&](fhe::TileOp o) -> FailureOr<Slots> {
                // The vector repeated: the same ranges, slot i from i mod s.
                const Slots &in = slotsOf(o.getInput());
                if (in.size() == 1)
                  return in;
                Slots out(o.getType().getSlots());
                for (size_t i = 0; i < out.size(); ++i)
                  out[i] = in[i % in.size()];
                return out;
              })
              .Case<fhe::UntileOp>([&](fhe::UntileOp o) -> FailureOr<Slots> {
                // One period of a repeating vector: its first slots.
                const Slots &in = slotsOf(o.getInput());
                if (in.size() == 1)
                  return in;
                return Slots(in.begin(), in.begin() + o.getType().getSlots());
              })
              .Default([&](Operation *other) -> FailureOr<Slots> {
                if (isa_and_nonnull<fhe::FHEDialect>(other->getDialect()) ||
                    llvm::any_of(other->getResults(), isFheValue))
                  return other->emitOpError(
                      "has no rule in the range analysis (fhe-to-ckks "
                      "needs every value's range to choose the scale)");
                return Slots{};
              });
      if (failed(out))
        return failure();
      // What the op is known to satisfy (fhe.assume_range, real slots only:
      // a Chebyshev T_n of a real t in [-1, 1]).
      if (auto assume =
              op.getAttrOfType<DenseF64ArrayAttr>(fhe::kAssumeRangeAttrName);
          assume && assume.size() == 2)
        for (SlotRange &s : *out)
          if (s.im.lo == 0 && s.im.hi == 0) {
            fhe::Interval r{std::max(s.re.lo, assume[0]),
                            std::min(s.re.hi, assume[1])};
            s.re = r.lo <= r.hi ? r : fhe::Interval{assume[0], assume[1]};
          }
      if (op.getNumResults() == 1 && isFheValue(op.getResult(0)))
        define(op.getResult(0), std::move(*out));
      // A plaintext added to or subtracted from a ciphertext is encoded at
      // its level and scale: it must fit q_0 too.
      if (isa<fhe::AddOp, fhe::SubOp>(op))
        for (Value operand : op.getOperands())
          consider(operand, isa<fhe::PlaintextType>(operand.getType()));
      for (Value operand : op.getOperands()) {
        auto it = usesLeft.find(operand);
        if (it != usesLeft.end() && --it->second == 0) {
          live.erase(operand);
          usesLeft.erase(it);
        }
      }
    }
  }
  return result;
}

const RangeSummary *RangeAnalysis::lookup(Value v) const {
  auto it = ranges_.find(v);
  return it == ranges_.end() ? nullptr : &it->second;
}

namespace {
struct AnnotateRangesPass
    : ember::impl::FHEAnnotateRangesBase<AnnotateRangesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<RangeAnalysis> ranges = RangeAnalysis::run(module);
    if (failed(ranges))
      return signalPassFailure();
    Builder b(module.getContext());
    module.walk([&](Operation *op) {
      if (op->getNumResults() != 1)
        return;
      if (const RangeSummary *r = ranges->lookup(op->getResult(0))) {
        op->setAttr(fhe::kRangeAttrName,
                    fhe::getRangeAttr(b.getContext(), r->hull));
        op->setAttr("fhe.bound", b.getF64FloatAttr(r->bound));
      }
    });
    if (Value v = ranges->largest()) {
      Operation *where = v.getDefiningOp();
      std::string what =
          where ? "'" + where->getName().getStringRef().str() + "'"
                : "argument " +
                      std::to_string(cast<BlockArgument>(v).getArgNumber());
      module->setAttr("fhe.largest", b.getStringAttr(what));
      module->setAttr("fhe.largest_bound",
                      b.getF64FloatAttr(ranges->lookup(v)->bound));
    }
  }
};
} // namespace
