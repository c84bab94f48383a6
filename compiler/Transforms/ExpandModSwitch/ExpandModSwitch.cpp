//===- ExpandModSwitch.cpp - ModUp/ModDown/rescale to primitives
//-----------===//

#include "compiler/Transforms/ExpandModSwitch/ExpandModSwitch.h"

#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#define DEBUG_TYPE "rns-expand-modswitch"

namespace ember {
#define GEN_PASS_DEF_RNSEXPANDMODSWITCH
#include "compiler/Transforms/ExpandModSwitch/ExpandModSwitch.h.inc"
} // namespace ember

using namespace mlir;

namespace ember {
namespace {

using rns::Form;
using rns::PolyType;

/// round((x) / D) for x over kept u dropped, D the product of the dropped
/// primes: x_kept - NTT(BConv(INTT(x_dropped))), times D^-1.
Value switchDown(PatternRewriter &b, Location loc, Value x, PolyType kept,
                 PolyType dropped) {
  Value keep = rns::DropLimbsOp::create(b, loc, kept, x);
  Value drop = rns::DropLimbsOp::create(b, loc, dropped, x);
  // A coefficient-form input (KLSS ModDown) needs no transforms.
  Value coeff =
      dropped.isNTT()
          ? rns::INTTOp::create(b, loc, dropped.withForm(Form::coeff), drop)
          : drop;
  Value conv = rns::BConvOp::create(b, loc, kept.withForm(Form::coeff), coeff);
  Value back = kept.isNTT() ? rns::NTTOp::create(b, loc, kept, conv) : conv;
  Value diff = rns::SubOp::create(b, loc, keep, back);
  return rns::MulInvOp::create(b, loc, kept, diff,
                               b.getI64IntegerAttr(dropped.getQLo()),
                               b.getI64IntegerAttr(dropped.getQHi()),
                               b.getI64IntegerAttr(dropped.getPLo()),
                               b.getI64IntegerAttr(dropped.getPHi()));
}

/// mod_down and rescale: every input goes from its basis to the result's
/// prefix of it; the dropped limbs are the rest (P, P and q_l, or q_l).
template <typename OpTy> struct ExpandSwitchDown : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &b) const override {
    auto in = cast<PolyType>(op.getInputs()[0].getType());
    auto kept = cast<PolyType>(op.getResults()[0].getType());
    PolyType dropped =
        in.withBasis(kept.getQHi(), in.getQHi(), in.getPLo(), in.getPHi());
    SmallVector<Value> results;
    for (auto [i, x] : llvm::enumerate(op.getInputs())) {
      if constexpr (std::is_same_v<OpTy, rns::ModDownOp>) {
        // A lifted addend: P*y + x (P*sigma_g(y) with lifted_galois),
        // explicitly.
        if (i < op.getLifted().size()) {
          Value y = op.getLifted()[i];
          if (auto g = op.getLiftedGaloisAttr())
            y = rns::AutomorphismOp::create(b, op.getLoc(), y.getType(), y,
                                            uint64_t(g.getInt()));
          Value lifted = rns::MulPOp::create(b, op.getLoc(), in, y);
          x = rns::AddOp::create(b, op.getLoc(), lifted, x);
        }
      }
      results.push_back(switchDown(b, op.getLoc(), x, kept, dropped));
    }
    b.replaceOp(op, results);
    return success();
  }
};

struct ExpandModUp : OpRewritePattern<rns::ModUpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(rns::ModUpOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    auto full = cast<PolyType>(op.getResults()[0].getType());
    SmallVector<Value> results;
    for (Value digit : op.getDigits()) {
      auto d = cast<PolyType>(digit.getType());
      Value coeff = rns::INTTOp::create(b, loc, d.withForm(Form::coeff), digit);
      // The limbs below the digit, the digit itself, the limbs above it
      // and P.
      SmallVector<Value> parts;
      auto extend = [&](PolyType target) {
        Value conv =
            rns::BConvOp::create(b, loc, target.withForm(Form::coeff), coeff);
        parts.push_back(rns::NTTOp::create(b, loc, target, conv));
      };
      if (d.getQLo() > full.getQLo())
        extend(full.withBasis(full.getQLo(), d.getQLo(), 0, 0));
      parts.push_back(digit);
      if (d.getQHi() < full.getQHi() || full.hasP())
        extend(full.withBasis(d.getQHi(), full.getQHi(), full.getPLo(),
                              full.getPHi()));
      results.push_back(rns::ConcatOp::create(b, loc, full, parts));
    }
    b.replaceOp(op, results);
    return success();
  }
};

struct RNSExpandModSwitchPass
    : impl::RNSExpandModSwitchBase<RNSExpandModSwitchPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandSwitchDown<rns::ModDownOp>,
                 ExpandSwitchDown<rns::RescaleOp>, ExpandModUp>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
} // namespace ember
