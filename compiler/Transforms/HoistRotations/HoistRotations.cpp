//===- HoistRotations.cpp - ckks-hoist-rotations --------------------------===//
#include "compiler/Transforms/HoistRotations/HoistRotations.h"
#include "dialects/CKKS/IR/CKKSDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ckks-hoist-rotations"

namespace ember {
#define GEN_PASS_DEF_HOISTROTATIONS
#include "compiler/Transforms/HoistRotations/HoistRotations.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember::ckks;

namespace {

/// An add tree of rotations of one source: its ops (to erase) and the
/// rotation offsets of its leaves (0 for the source itself).
struct RotationSum {
  Value source;
  SmallVector<int64_t> offsets;
  SmallVector<Operation *> ops;
  SmallVector<Value> plainLeaves; // leaves that are not rotations
  unsigned rotations = 0;
};

/// Collects the tree under `v`; false when some node disqualifies it.
bool collect(Value v, Block *block, bool isRoot, RotationSum &sum) {
  Operation *def = v.getDefiningOp();
  bool ownedByTree =
      def && def->getBlock() == block && (isRoot || v.hasOneUse());
  if (auto add = dyn_cast_or_null<AddOp>(def); add && ownedByTree) {
    sum.ops.push_back(add);
    return collect(add.getLhs(), block, false, sum) &&
           collect(add.getRhs(), block, false, sum);
  }
  if (auto rot = dyn_cast_or_null<RotateOp>(def); rot && ownedByTree) {
    if (sum.source && sum.source != rot.getInput())
      return false;
    sum.source = rot.getInput();
    sum.offsets.push_back(rot.getOffset());
    sum.ops.push_back(rot);
    ++sum.rotations;
    return true;
  }
  if (isRoot)
    return false;
  sum.plainLeaves.push_back(v);
  return true;
}

/// Rewrite 1: add trees of rotations -> ckks.hoisted_rotate_sum.
void formRotationSums(Block &block) {
  SmallVector<AddOp> adds;
  for (auto add : block.getOps<AddOp>())
    adds.push_back(add);
  DenseSet<Operation *> erased;
  // Outermost sums first: an add comes after the adds it uses.
  for (AddOp root : llvm::reverse(adds)) {
    if (erased.contains(root))
      continue;
    RotationSum sum;
    if (!collect(root.getResult(), &block, /*isRoot=*/true, sum) ||
        sum.rotations < 2 || root.getType() != sum.source.getType() ||
        !llvm::all_of(sum.plainLeaves,
                      [&](Value v) { return v == sum.source; }))
      continue;
    for (size_t i = 0; i < sum.plainLeaves.size(); ++i)
      sum.offsets.push_back(0);
    OpBuilder b(root);
    auto hoisted =
        HoistedRotateSumOp::create(b, root.getLoc(), sum.source, sum.offsets);
    LLVM_DEBUG(llvm::dbgs() << "double hoisting: " << hoisted << "\n");
    root.getResult().replaceAllUsesWith(hoisted.getResult());
    // sum.ops lists parents before children: erase users first.
    for (Operation *op : sum.ops) {
      erased.insert(op);
      op->erase();
    }
  }
}

/// Rewrite 2: rotations of one value -> one ckks.hoisted_rotate (also a
/// lone rotation when `single`).
void hoistRotations(Block &block, bool single) {
  llvm::MapVector<Value, SmallVector<RotateOp>> bySource;
  for (auto rot : block.getOps<RotateOp>())
    bySource[rot.getInput()].push_back(rot);
  for (auto &[source, rotations] : bySource) {
    if (rotations.size() < (single ? 1u : 2u))
      continue;
    SmallVector<int64_t> offsets;
    for (RotateOp rot : rotations)
      offsets.push_back(rot.getOffset());
    OpBuilder b(rotations.front());
    SmallVector<Type> types(rotations.size(), source.getType());
    auto hoisted = HoistedRotateOp::create(b, rotations.front().getLoc(), types,
                                           source, offsets);
    LLVM_DEBUG(llvm::dbgs() << "hoisting: " << hoisted << "\n");
    for (auto [rot, result] : llvm::zip(rotations, hoisted.getResults())) {
      rot.getResult().replaceAllUsesWith(result);
      rot.erase();
    }
  }
}

struct HoistRotationsPass
    : public ember::impl::HoistRotationsBase<HoistRotationsPass> {
  using HoistRotationsBase::HoistRotationsBase;

  void runOnOperation() override {
    if (!enabled)
      return;
    getOperation().walk([&](Block *block) {
      if (doubleHoisting)
        formRotationSums(*block);
      hoistRotations(*block, single);
    });
  }
};

} // namespace
