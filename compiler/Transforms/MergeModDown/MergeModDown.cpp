//===- MergeModDown.cpp - ModDown merging and accumulation
//-----------------===//
//
// rescale(y + ModDown(a)) -> ModDown'(P*y + a) to Q_{l-1},
// ModDown(a) + ModDown(b) -> ModDown(a + b), and
// sigma_g(y) + ModDown(a) -> ModDown(a + P sigma_g(y)) and
// y + ModDown(a) -> ModDown(a + P y). See MergeModDown.td.
//
//===----------------------------------------------------------------------===//

#include "compiler/Transforms/MergeModDown/MergeModDown.h"

#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "rns-merge-moddown"

namespace ember {
#define GEN_PASS_DEF_RNSMERGEMODDOWN
#include "compiler/Transforms/MergeModDown/MergeModDown.h.inc"
} // namespace ember

using namespace mlir;

namespace ember {
namespace {

using rns::PolyType;

/// Finds, in the tree of single-use adds rooted at `root`, an operand that
/// is result `index` of a ModDown (of `want` when set) with no other use.
/// Returns the add that consumes it (null when `root` is that result).
static std::optional<std::pair<rns::AddOp, OpResult>>
findModDownTerm(Value root, unsigned index, rns::ModDownOp want,
                unsigned depth = 0) {
  auto isTerm = [&](Value v) {
    auto md = v.getDefiningOp<rns::ModDownOp>();
    return md && (!want || md == want) && v.hasOneUse() &&
           cast<OpResult>(v).getResultNumber() == index;
  };
  if (depth == 0 && isTerm(root))
    return std::make_pair(rns::AddOp(), cast<OpResult>(root));
  auto add = root.getDefiningOp<rns::AddOp>();
  if (!add || !add->hasOneUse() || depth > 32)
    return std::nullopt;
  for (Value operand : {add.getLhs(), add.getRhs()})
    if (isTerm(operand))
      return std::make_pair(add, cast<OpResult>(operand));
  for (Value operand : {add.getLhs(), add.getRhs()})
    if (auto found = findModDownTerm(operand, index, want, depth + 1))
      return found;
  return std::nullopt;
}

/// rescale(x_0..x_n) where every x_i is ModDown(a)#i plus a sum y_i of
/// other polynomials (single-use adds), the ModDown used nowhere else ->
/// mod_down(P*y_i + a_i) to Q_{l-1}.
struct MergeRescaleIntoModDown : OpRewritePattern<rns::RescaleOp> {
  MergeRescaleIntoModDown(MLIRContext *ctx, bool lift)
      : OpRewritePattern(ctx), lift(lift) {}
  /// Lifted addends read in place (mod_down ... lifted(y)) rather than
  /// rns.mul_p + rns.add over Q_l u P.
  bool lift;

  LogicalResult matchAndRewrite(rns::RescaleOp rescale,
                                PatternRewriter &rewriter) const override {
    rns::ModDownOp modDown;
    // Per input: the add that consumes the ModDown result (null: none).
    SmallVector<rns::AddOp> consumers;
    for (auto [i, x] : llvm::enumerate(rescale.getInputs())) {
      auto found = findModDownTerm(x, i, modDown);
      if (!found)
        return rewriter.notifyMatchFailure(rescale, "not fed by one ModDown");
      modDown = cast<rns::ModDownOp>(found->second.getOwner());
      consumers.push_back(found->first);
    }
    if (modDown.getNumResults() != rescale.getInputs().size())
      return rewriter.notifyMatchFailure(rescale, "ModDown has other results");
    if (!modDown.getLifted().empty())
      return rewriter.notifyMatchFailure(rescale, "ModDown already merged");
    auto inTy = cast<PolyType>(modDown.getInputs()[0].getType());
    auto outTy = cast<PolyType>(modDown.getResults()[0].getType());
    if (outTy.getNumQ() != inTy.getNumQ())
      return rewriter.notifyMatchFailure(rescale, "ModDown already merged");

    LLVM_DEBUG(llvm::dbgs()
               << "merging " << rescale << " into " << modDown << "\n");
    // Take the ModDown term out of each sum: its add becomes its other
    // operand, so rescale input i is now y_i (when there was an add).
    for (rns::AddOp add : consumers) {
      if (!add)
        continue;
      bool lhs = add.getLhs().getDefiningOp() == modDown.getOperation();
      rewriter.replaceOp(add, lhs ? add.getRhs() : add.getLhs());
    }
    Location loc = rescale.getLoc();
    // In place: the addends of the inputs that have one, when they are a
    // prefix of the inputs (a rotation adds to part 0 only).
    size_t prefix = 0;
    while (prefix < consumers.size() && consumers[prefix])
      ++prefix;
    bool inPlace = lift && inTy.isNTT() &&
                   llvm::all_of(ArrayRef(consumers).drop_front(prefix),
                                [](rns::AddOp a) { return !a; });
    if (inPlace) {
      SmallVector<Value> lifted(rescale.getInputs().take_front(prefix));
      rewriter.replaceOpWithNewOp<rns::ModDownOp>(
          rescale, rescale.getResultTypes(), modDown.getInputs(), lifted);
      return success();
    }
    SmallVector<Value> inputs;
    for (auto [i, acc] : llvm::enumerate(modDown.getInputs())) {
      if (!consumers[i]) {
        inputs.push_back(acc);
        continue;
      }
      Value y = rescale.getInputs()[i];
      Value lifted = rns::MulPOp::create(rewriter, loc, inTy, y);
      inputs.push_back(rns::AddOp::create(rewriter, loc, lifted, acc));
    }
    rewriter.replaceOpWithNewOp<rns::ModDownOp>(
        rescale, rescale.getResultTypes(), inputs, ValueRange{});
    return success();
  }
};

/// The value at the top of the tree of single-use adds that `v` feeds.
static Value sumRoot(Value v) {
  while (v.hasOneUse()) {
    auto add = dyn_cast<rns::AddOp>(*v.user_begin());
    if (!add)
      break;
    v = add.getResult();
  }
  return v;
}

/// Two ModDowns whose results #i are terms of one sum (a tree of
/// single-use adds) for every i -> one ModDown of the summed accumulators:
/// ModDown(a) + ModDown(b) = ModDown(a + b) up to rounding.
struct AccumulateBeforeModDown : OpRewritePattern<rns::ModDownOp> {
  using OpRewritePattern::OpRewritePattern;

  /// The add consuming the only use of `v`, when there is one.
  static rns::AddOp consumer(Value v) {
    return v.hasOneUse() ? dyn_cast<rns::AddOp>(*v.user_begin()) : rns::AddOp();
  }

  LogicalResult matchAndRewrite(rns::ModDownOp first,
                                PatternRewriter &rewriter) const override {
    // Partner: the ModDown whose result #0 shares the sum of first's #0.
    rns::AddOp add0 = consumer(first.getResult(0));
    if (!add0)
      return failure();
    Value root0 = sumRoot(first.getResult(0));
    rns::ModDownOp second;
    root0.getParentBlock()->walk([&](rns::ModDownOp md) {
      if (!second && md != first && consumer(md.getResult(0)) &&
          md->getBlock() == first->getBlock() &&
          sumRoot(md.getResult(0)) == root0)
        second = md;
    });
    if (!second || !first.getLifted().empty() || !second.getLifted().empty() ||
        second.getInputs().getTypes() != first.getInputs().getTypes() ||
        second.getResultTypes() != first.getResultTypes())
      return failure();
    // Root at the earlier ModDown so that the sums read (first, second).
    if (second->isBeforeInBlock(first))
      return failure();
    // Every result pair must share a sum; the later consumer keeps the
    // merged term, the earlier one drops its term.
    SmallVector<rns::AddOp> keep, drop;
    for (auto [r1, r2] : llvm::zip(first.getResults(), second.getResults())) {
      rns::AddOp c1 = consumer(r1), c2 = consumer(r2);
      if (!c1 || !c2 || c1->getBlock() != first->getBlock() ||
          c2->getBlock() != first->getBlock() || sumRoot(r1) != sumRoot(r2))
        return failure();
      bool firstLater = c2->isBeforeInBlock(c1);
      keep.push_back(firstLater ? c1 : c2);
      drop.push_back(c1 == c2 ? rns::AddOp() : (firstLater ? c2 : c1));
    }

    LLVM_DEBUG(llvm::dbgs() << "accumulating " << first << " and " << second
                            << " before one ModDown\n");
    rns::AddOp earliest = keep.front();
    for (rns::AddOp add : keep)
      if (add->isBeforeInBlock(earliest))
        earliest = add;
    rewriter.setInsertionPoint(earliest);
    Location loc = first.getLoc();
    SmallVector<Value> sums;
    for (auto [a, b] : llvm::zip(first.getInputs(), second.getInputs()))
      sums.push_back(rns::AddOp::create(rewriter, loc, a, b));
    auto merged = rns::ModDownOp::create(rewriter, loc, first.getResultTypes(),
                                         sums, ValueRange{});
    for (size_t i = 0; i < keep.size(); ++i) {
      Value r1 = first.getResult(i), r2 = second.getResult(i);
      if (!drop[i]) { // both terms in one add: it becomes the merged term
        rewriter.replaceOp(keep[i], merged.getResult(i));
        continue;
      }
      Value dropped = drop[i].getLhs() == r1 || drop[i].getLhs() == r2
                          ? drop[i].getRhs()
                          : drop[i].getLhs();
      rewriter.replaceOp(drop[i], dropped);
      rewriter.modifyOpInPlace(keep[i], [&] {
        for (OpOperand &operand : keep[i]->getOpOperands())
          if (operand.get() == r1 || operand.get() == r2)
            operand.set(merged.getResult(i));
      });
    }
    return success();
  }
};

/// Whether `v` is defined before `op` (a block argument of an enclosing
/// region, or an op earlier in op's block).
static bool definedBefore(Value v, Operation *op) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner()->getParentOp()->isAncestor(op);
  Operation *def = v.getDefiningOp();
  return def->getBlock() == op->getBlock() && def->isBeforeInBlock(op);
}

/// Whether `y` waits for nothing that a ModDown's inputs do not already
/// wait for (`inputsWait`, the ModDown's backward slice): every op of y's
/// backward slice outside it is cheap, elementwise (fused or not) or an
/// automorphism, computed where its operands are, or has no operand (a
/// constant, a key). Lifting y otherwise would tie the ModDown to an
/// independent chain (another key switch's result), serialising branches
/// that the graph and the device partition run side by side.
static bool addsNoDependency(Value y,
                             const SetVector<Operation *> &inputsWait) {
  Operation *def = y.getDefiningOp();
  if (!def || inputsWait.contains(def))
    return true;
  auto cheap = [](Operation *op) {
    return op->getNumOperands() == 0 ||
           op->hasTrait<rns::OpTrait::RNSElementwise>() ||
           isa<rns::FusedOp, rns::AutomorphismOp>(op);
  };
  BackwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *op) { return !inputsWait.contains(op); };
  SetVector<Operation *> slice;
  return succeeded(getBackwardSlice(def, &slice, options)) &&
         llvm::all_of(slice, cheap);
}

/// Addends of a plain ModDown's results: y_i + ModDown(a)#i for a prefix of
/// the results, the ModDown plain (to Q_l) and used nowhere else, the sum
/// read by no elementwise op -> mod_down(a) lifted(y): the runtime adds y in
/// the last NTT's epilogue instead of a separate kernel that reads y and the
/// ModDown's result and writes their sum.
///   - `rotations`: y_i = sigma_g(c_i) (a rotation's c0 side), one g for the
///     prefix: lifted(c) {lifted_galois = g}, read permuted.
///   - `plain`: y_i defined before the ModDown and waiting for nothing its
///     inputs do not (addsNoDependency: a product's d0 and d1 when its
///     output is not rescaled), read in order.
struct LiftAddendsIntoModDown : OpRewritePattern<rns::ModDownOp> {
  LiftAddendsIntoModDown(MLIRContext *ctx, bool rotations, bool plain)
      : OpRewritePattern(ctx), rotations(rotations), plain(plain) {}

  LogicalResult matchAndRewrite(rns::ModDownOp modDown,
                                PatternRewriter &rewriter) const override {
    if (!modDown.getLifted().empty())
      return rewriter.notifyMatchFailure(modDown, "already lifted");
    auto inTy = cast<PolyType>(modDown.getInputs()[0].getType());
    auto outTy = cast<PolyType>(modDown.getResults()[0].getType());
    if (!inTy.isNTT() || outTy.getNumQ() != inTy.getNumQ())
      return rewriter.notifyMatchFailure(modDown, "not a plain NTT ModDown");
    // Only where the add would be a kernel of its own: an add that fuses
    // into an elementwise consumer's kernel costs that kernel one (permuted)
    // input, cheaper there than in the integer-bound NTT.
    auto fusesOn = [](Value v) {
      return llvm::any_of(v.getUsers(), [](Operation *user) {
        return user->hasTrait<rns::OpTrait::RNSElementwise>();
      });
    };
    // The ModDown's backward slice, computed once, when a plain addend asks.
    std::optional<SetVector<Operation *>> slice;
    auto inputsWait = [&]() -> const SetVector<Operation *> & {
      if (!slice) {
        slice.emplace();
        (void)getBackwardSlice(modDown.getOperation(), &*slice);
      }
      return *slice;
    };
    // The addend of result r: (y, g), g = 0 for one read in order.
    auto addendOf =
        [&](OpResult r,
            rns::AddOp add) -> std::optional<std::pair<Value, int64_t>> {
      Value other = add.getLhs() == r ? add.getRhs() : add.getLhs();
      if (other.getType() != r.getType())
        return std::nullopt;
      auto autom = other.getDefiningOp<rns::AutomorphismOp>();
      if (rotations && autom && definedBefore(autom.getInput(), modDown))
        return std::make_pair(autom.getInput(), int64_t(autom.getGalois()));
      if (plain && definedBefore(other, modDown) &&
          addsNoDependency(other, inputsWait()))
        return std::make_pair(other, int64_t(0));
      return std::nullopt;
    };
    std::optional<int64_t> galois;
    SmallVector<rns::AddOp> adds;
    SmallVector<Value> lifted;
    for (OpResult r : modDown.getResults()) {
      auto add =
          r.hasOneUse() ? dyn_cast<rns::AddOp>(*r.user_begin()) : rns::AddOp();
      auto addend = add && !fusesOn(add) ? addendOf(r, add) : std::nullopt;
      if (!addend || (galois && *galois != addend->second))
        break; // the folded results are a prefix, with one g
      galois = addend->second;
      adds.push_back(add);
      lifted.push_back(addend->first);
    }
    if (adds.empty())
      return rewriter.notifyMatchFailure(modDown, "no addend to lift");
    LLVM_DEBUG(llvm::dbgs() << "lifting " << lifted.size() << " addend(s) into "
                            << modDown << "\n");
    rewriter.setInsertionPoint(modDown);
    auto merged = rns::ModDownOp::create(
        rewriter, modDown.getLoc(), modDown.getResultTypes(),
        modDown.getInputs(), lifted,
        *galois ? rewriter.getI64IntegerAttr(*galois) : IntegerAttr());
    for (auto [i, add] : llvm::enumerate(adds))
      rewriter.replaceOp(add, merged.getResult(i));
    rewriter.replaceOp(modDown, merged.getResults());
    return success();
  }

  bool rotations, plain;
};

struct RNSMergeModDownPass : impl::RNSMergeModDownBase<RNSMergeModDownPass> {
  using RNSMergeModDownBase::RNSMergeModDownBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    if (accumulate)
      patterns.add<AccumulateBeforeModDown>(&getContext());
    if (mergeRescale)
      patterns.add<MergeRescaleIntoModDown>(&getContext(), liftInPlace);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
    // After the others: a lifted ModDown is neither accumulated nor merged
    // with a rescale, so only what they left is folded.
    if (liftRotation || liftAddends) {
      RewritePatternSet lift(&getContext());
      lift.add<LiftAddendsIntoModDown>(&getContext(), liftRotation,
                                       liftAddends);
      if (failed(applyPatternsGreedily(getOperation(), std::move(lift))))
        signalPassFailure();
    }
  }
};

} // namespace
} // namespace ember
