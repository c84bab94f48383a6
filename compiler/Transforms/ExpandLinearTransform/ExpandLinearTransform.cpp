//===- ExpandLinearTransform.cpp - fhe-expand-linear-transform ------------===//
//
// fhe.linear_transform -> fhe.rotate / fhe.mul / fhe.add by baby-step
// giant-step (the pass description in ExpandLinearTransform.td).
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/ExpandLinearTransform/ExpandLinearTransform.h"
#include "dialects/Common/SlotVectors.h"
#include "dialects/FHE/IR/FHEDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <complex>
#include <map>
#include <set>
#include <tuple>

namespace ember {
#define GEN_PASS_DEF_EXPANDLINEARTRANSFORM
#include "compiler/Transforms/ExpandLinearTransform/ExpandLinearTransform.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember::fhe;

namespace {

// Shares of one rotation's key switch at set B on an H200 (Nsight,
// bench/profiles/h200_rotate_B_compiled.txt): ModUp (INTT, BConv, NTT of the
// digits), the key inner product, ModDown; and a plaintext product over Q_l
// (both parts), or, double-hoisted, over Q_l u P (the key products' two
// parts and sigma(c0) apart: 1.6x the limbs).
constexpr double kModUp = 0.49, kInnerProduct = 0.11, kModDown = 0.38;
constexpr double kPlainProduct = 0.02, kPlainProductQP = 0.032;
/// Splits predicted within this fraction of the fastest are ranked by
/// their Galois keys (each a key of dnum x 2 x (L + K) limbs to hold).
constexpr double kKeyTolerance = 0.10;

/// The baby step of offset o, and its giant step.
int64_t babyOf(int64_t o, int64_t n1) { return o % n1; }
int64_t giantOf(int64_t o, int64_t n1) { return o - o % n1; }

/// Predicted time (in rotations) and Galois keys of n1 baby steps.
/// Hoisted baby steps each take an inner product and a ModDown; giant
/// steps a ModUp and an inner product, their ModDowns merged into one.
/// Double-hoisted (`ckks-hoist-rotations` makes each giant step's inner
/// sum a ckks.hoisted_dot where the inner sums are fewer than the baby
/// rotations), the baby steps' ModDowns give way to one per inner sum
/// that has a rotation (the one of giant step 0 merges into the final).
std::pair<double, size_t> predict(ArrayRef<int64_t> offsets, int64_t n1,
                                  bool doubleHoisting) {
  std::set<int64_t> babies, giants, sumsWithBaby;
  for (int64_t o : offsets) {
    if (babyOf(o, n1)) {
      babies.insert(babyOf(o, n1));
      sumsWithBaby.insert(giantOf(o, n1));
    }
    if (giantOf(o, n1))
      giants.insert(giantOf(o, n1));
  }
  double giantUs = 0;
  if (!giants.empty()) // per rotation ModUp + IP, one merged ModDown
    giantUs = giants.size() * (kModUp + kInnerProduct) + kModDown;
  double t = giantUs + kPlainProduct * offsets.size();
  if (!babies.empty()) // one shared ModUp, then per rotation IP + ModDown
    t += kModUp + babies.size() * (kInnerProduct + kModDown);
  if (doubleHoisting && sumsWithBaby.size() < babies.size()) {
    double dh = giantUs + kPlainProductQP * offsets.size() + kModUp +
                babies.size() * kInnerProduct +
                (sumsWithBaby.size() - (sumsWithBaby.count(0) ? 1 : 0) +
                 (giants.empty() ? 1 : 0)) *
                    kModDown;
    t = std::min(t, dh);
  }
  return {t, babies.size() + giants.size()};
}

/// The power of two n1 (1..slots) of least predicted time; among those
/// within kKeyTolerance of it, the fewest keys.
int64_t chooseBaby(ArrayRef<int64_t> offsets, int64_t slots,
                   bool doubleHoisting) {
  std::vector<std::tuple<int64_t, double, size_t>> splits;
  double fastest = 0;
  for (int64_t n1 = 1; n1 <= slots; n1 *= 2) {
    auto [t, keys] = predict(offsets, n1, doubleHoisting);
    splits.emplace_back(n1, t, keys);
    fastest = n1 == 1 ? t : std::min(fastest, t);
  }
  int64_t best = 1;
  std::pair<size_t, double> bestRank{SIZE_MAX, 0};
  for (auto [n1, t, keys] : splits) {
    if (t > fastest * (1 + kKeyTolerance))
      continue;
    std::pair<size_t, double> rank{keys, t};
    if (rank < bestRank)
      best = n1, bestRank = rank;
  }
  return best;
}

Value expand(LinearTransformOp op, bool doubleHoisting) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type ct = op.getType();
  const int64_t slots = op.getType().getSlots();
  ArrayRef<int64_t> offsets = op.getOffsets();
  DenseElementsAttr diagonals = op.getDiagonals();
  const bool complex = ember::isComplexValues(diagonals);
  std::vector<std::complex<double>> values =
      ember::slotValues(diagonals, slots * offsets.size());
  const int64_t n1 =
      op.getBaby() ? op.getBaby() : chooseBaby(offsets, slots, doubleHoisting);

  // roll(d_j, g): slot s holds d_j[(s - g) mod slots].
  auto rolled = [&](size_t j, int64_t g) -> Value {
    auto tensor = RankedTensorType::get(
        {slots}, complex ? Type(ComplexType::get(b.getF64Type()))
                         : Type(b.getF64Type()));
    DenseElementsAttr attr;
    if (complex) {
      std::vector<std::complex<double>> v(slots);
      for (int64_t s = 0; s < slots; ++s)
        v[s] = values[j * slots + ((s - g) % slots + slots) % slots];
      attr = DenseElementsAttr::get(tensor, ArrayRef(v));
    } else {
      SmallVector<double> v;
      for (int64_t s = 0; s < slots; ++s)
        v.push_back(
            values[j * slots + ((s - g) % slots + slots) % slots].real());
      attr = DenseElementsAttr::get(tensor, ArrayRef(v));
    }
    return ConstantOp::create(b, loc, PlaintextType::get(b.getContext(), slots),
                              attr);
  };

  std::map<int64_t, Value> baby; // baby step -> rot(x, b)
  std::map<int64_t, SmallVector<size_t>> byGiant;
  for (auto [j, o] : llvm::enumerate(offsets))
    byGiant[giantOf(o, n1)].push_back(j);
  for (int64_t o : offsets) {
    int64_t bs = babyOf(o, n1);
    if (!baby.count(bs))
      baby[bs] = bs ? Value(RotateOp::create(b, loc, op.getInput(),
                                             b.getI64IntegerAttr(bs)))
                    : op.getInput();
  }
  Value sum;
  for (auto &[g, members] : byGiant) {
    Value inner;
    for (size_t j : members) {
      Value term =
          MulOp::create(b, loc, ct, baby[babyOf(offsets[j], n1)], rolled(j, g));
      inner = inner ? Value(AddOp::create(b, loc, ct, inner, term)) : term;
    }
    if (g)
      inner = RotateOp::create(b, loc, inner, b.getI64IntegerAttr(g));
    sum = sum ? Value(AddOp::create(b, loc, ct, sum, inner)) : inner;
  }
  return sum;
}

struct ExpandLinearTransformPass
    : public ember::impl::ExpandLinearTransformBase<ExpandLinearTransformPass> {
  using ExpandLinearTransformBase::ExpandLinearTransformBase;
  void runOnOperation() override {
    SmallVector<LinearTransformOp> ops;
    getOperation().walk([&](LinearTransformOp op) { ops.push_back(op); });
    for (LinearTransformOp op : ops) {
      Value result = expand(op, doubleHoisting);
      op.getResult().replaceAllUsesWith(result);
      op.erase();
    }
  }
};

} // namespace

mlir::Value ember::expandLinearTransform(ember::fhe::LinearTransformOp op,
                                         bool doubleHoisting) {
  return expand(op, doubleHoisting);
}
