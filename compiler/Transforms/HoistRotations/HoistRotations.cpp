//===- HoistRotations.cpp - ckks-hoist-rotations --------------------------===//
#include "compiler/Transforms/HoistRotations/HoistRotations.h"
#include "dialects/CKKS/IR/CKKSDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#include <set>

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
  SmallVector<AddOp> adds = llvm::to_vector(block.getOps<AddOp>());
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

/// A sum of plaintext products of rotations of one value: its add ops and
/// products (to erase), and per product the offset and the weight.
struct DotTree {
  Operation *root = nullptr; ///< the outermost add, or a lone product
  Value source;              ///< x (rotated), or x before the rescale
  bool rescaled = false;     ///< products read rescale(rotate(x)), rescale(x)
  SmallVector<Operation *> ops;
  SmallVector<int64_t> offsets;
  SmallVector<Value> weights;
  SmallVector<Value> rotations; ///< the rotate results the products read
};

/// Collects the leaves of the add tree under `v` when each is a
/// `ckks.mul_plain` by a `ckks.encode` of R(x, o): rotate(x, o) or x (o =
/// 0), or the rescale of one of these, with one x and one form for all.
bool collectDot(Value v, Block *block, bool isRoot, DotTree &t) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != block || (!isRoot && !v.hasOneUse()))
    return false;
  if (auto add = dyn_cast<AddOp>(def)) {
    t.ops.push_back(add);
    return collectDot(add.getLhs(), block, false, t) &&
           collectDot(add.getRhs(), block, false, t);
  }
  auto mul = dyn_cast<MulPlainOp>(def);
  if (!mul || mul->hasAttr("ckks.scale_adjust") ||
      !mul.getPlaintext().getDefiningOp<EncodeOp>())
    return false;
  Value c = mul.getCiphertext();
  bool rescaled = false;
  if (auto r = c.getDefiningOp<RescaleOp>()) {
    rescaled = true;
    c = r.getInput();
  }
  Value source = c;
  int64_t offset = 0;
  if (auto rot = c.getDefiningOp<RotateOp>(); rot && rot->getBlock() == block) {
    source = rot.getInput();
    offset = rot.getOffset();
    t.rotations.push_back(rot.getResult());
  }
  if (t.source && (t.source != source || t.rescaled != rescaled))
    return false;
  t.source = source;
  t.rescaled = rescaled;
  t.ops.push_back(mul);
  t.offsets.push_back(offset);
  t.weights.push_back(mul.getPlaintext());
  return true;
}

/// Rewrite 0: sums of plaintext products of rotations of one value ->
/// ckks.hoisted_dot, where every use of those rotations is such a product
/// and the sums are fewer than the rotations (each sum has one ModDown;
/// each hoisted rotation had one).
void formDots(Block &block) {
  SmallVector<AddOp> adds = llvm::to_vector(block.getOps<AddOp>());
  DenseSet<Operation *> claimed;
  // Per (x, rescaled): the trees, outermost sums first.
  llvm::MapVector<std::pair<Value, unsigned>, std::vector<DotTree>> groups;
  // Then the products in no such sum (a giant step of one diagonal).
  SmallVector<Operation *> roots(llvm::reverse(adds));
  for (auto mul : block.getOps<MulPlainOp>())
    roots.push_back(mul);
  for (Operation *root : roots) {
    if (claimed.contains(root))
      continue;
    DotTree t;
    t.root = root;
    if (!collectDot(root->getResult(0), &block, /*isRoot=*/true, t) ||
        t.rotations.empty())
      continue;
    for (Operation *op : t.ops)
      claimed.insert(op);
    groups[{t.source, t.rescaled ? 1u : 0u}].push_back(std::move(t));
  }
  for (auto &[key, trees] : groups) {
    auto [source, rescaled] = key;
    // Every use of every rotation must be a product of these trees.
    DenseSet<Operation *> products;
    SetVector<Value> rotations;
    std::set<int64_t> offsets;
    size_t withRotations = 0;
    for (DotTree &t : trees) {
      for (Operation *op : t.ops)
        if (isa<MulPlainOp>(op))
          products.insert(op);
      rotations.insert(t.rotations.begin(), t.rotations.end());
      withRotations += !t.rotations.empty();
    }
    for (Value r : rotations)
      offsets.insert(r.getDefiningOp<RotateOp>().getOffset());
    auto productUse = [&](Operation *user) { return products.contains(user); };
    bool covered = llvm::all_of(rotations, [&](Value r) {
      if (!rescaled)
        return llvm::all_of(r.getUsers(), productUse);
      return llvm::all_of(r.getUsers(), [&](Operation *user) {
        auto rescale = dyn_cast<RescaleOp>(user);
        return rescale && llvm::all_of(rescale->getUsers(), productUse);
      });
    });
    if (!covered || withRotations >= offsets.size())
      continue;
    // The hoisted source: x, or rescale(x) (one already made, else new,
    // before the first rotation).
    Value x = source;
    if (rescaled) {
      RescaleOp existing;
      for (Operation *user : source.getUsers())
        if (auto r = dyn_cast<RescaleOp>(user); r && r->getBlock() == &block)
          if (!existing || r->isBeforeInBlock(existing))
            existing = r;
      Operation *first = rotations.front().getDefiningOp();
      for (Value r : rotations)
        if (r.getDefiningOp()->isBeforeInBlock(first))
          first = r.getDefiningOp();
      if (existing && existing->isBeforeInBlock(first)) {
        x = existing.getResult();
      } else {
        auto anyRescale = cast<RescaleOp>(*rotations.front().user_begin());
        OpBuilder b(first);
        x = RescaleOp::create(b, first->getLoc(), anyRescale.getType(), source)
                .getResult();
      }
    }
    for (DotTree &t : trees) {
      OpBuilder b(t.root);
      auto dot = HoistedDotOp::create(b, t.root->getLoc(),
                                      t.root->getResult(0).getType(), x,
                                      t.offsets, t.weights);
      LLVM_DEBUG(llvm::dbgs()
                 << "double hoisting with products: " << dot << "\n");
      t.root->getResult(0).replaceAllUsesWith(dot.getResult());
      // t.ops lists parents before children: erase users first.
      for (Operation *op : t.ops)
        op->erase();
    }
    for (Value r : rotations) {
      Operation *rot = r.getDefiningOp();
      for (Operation *user : llvm::make_early_inc_range(rot->getUsers()))
        if (user->use_empty())
          user->erase();
      if (rot->use_empty())
        rot->erase();
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
      if (doubleHoisting) {
        if (products)
          formDots(*block);
        formRotationSums(*block);
      }
      hoistRotations(*block, single);
    });
  }
};

} // namespace
