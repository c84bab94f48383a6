//===- BGVToRNS.cpp - bgv -> rns ------------------------------------------===//
//
// See BGVToRNS.td: the ckks-to-rns lowering for BGV's ops, sharing its
// key-switch builders (KeySwitchLowering.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversions/BGVToRNS/BGVToRNS.h"
#include "compiler/Conversions/CKKSToRNS/CKKSToRNS.h"
#include "compiler/Conversions/CKKSToRNS/KeySwitchLowering.h"
#include "dialects/BGV/IR/BGVDialect.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace ember {
#define GEN_PASS_DEF_BGVTORNS
#include "compiler/Conversions/BGVToRNS/BGVToRNS.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember;

namespace {

using rns_lowering::Basis;
using rns_lowering::KeySwitcher;
using rns_lowering::LowerAddSub;
using rns_lowering::Replacement;

int64_t levelOf(Value v) {
  if (auto ct = dyn_cast<bgv::CiphertextType>(v.getType()))
    return ct.getLevel();
  return cast<bgv::PlaintextType>(v.getType()).getLevel();
}

using rns_lowering::BasisPattern;

/// The scale the runtime encodes a plaintext of type `pt` at: BGV's factor;
/// under a BFV chain Delta = Q / t for a scaled plaintext (the plan's
/// Delta m form) and 1 for the multiplier m.
double plainScale(ckks::ParamsAttr params, bgv::PlaintextType pt) {
  if (!params.isBfv())
    return static_cast<double>(pt.getFactor());
  return pt.getScaled() ? params.getBfvDelta() : 1.0;
}

#define LOWERING(OP)                                                           \
  struct Lower##OP : BasisPattern<bgv::OP> {                                   \
    using BasisPattern::BasisPattern;                                          \
    LogicalResult                                                              \
    matchAndRewrite(bgv::OP op, OneToNOpAdaptor adaptor,                       \
                    ConversionPatternRewriter &rewriter) const override;       \
  };                                                                           \
  LogicalResult Lower##OP::matchAndRewrite(                                    \
      bgv::OP op, OneToNOpAdaptor adaptor,                                     \
      ConversionPatternRewriter &rewriter) const

template <typename BgvOp, typename RnsOp>
struct LowerPlainAddSub : BasisPattern<BgvOp> {
  using BasisPattern<BgvOp>::BasisPattern;
  using OneToNOpAdaptor = typename BasisPattern<BgvOp>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(BgvOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> out(adaptor.getCiphertext());
    out[0] = RnsOp::create(rewriter, op.getLoc(), out[0],
                           adaptor.getPlaintext().front());
    rewriter.replaceOpWithMultiple(op, Replacement{out});
    return success();
  }
};

LOWERING(AddIntOp) {
  // c in every slot is the constant polynomial c, times the factor.
  auto ct = cast<bgv::CiphertextType>(op.getInput().getType());
  const uint64_t t = basis.params.getPlain();
  int64_t c = bgv::centred(op.getValue(), t);
  if (basis.params.isBfv()) {
    // BFV adds ceil(Q [c]_t / t), a different residue per prime: the
    // splat's Delta-scaled encoding (one constant of the program).
    auto tensor = RankedTensorType::get({ct.getSlots()}, rewriter.getF64Type());
    auto type = bgv::PlaintextType::get(getContext(), ct.getSlots(),
                                        ct.getLevel(), 1, /*scaled=*/true);
    Value p = rns::EncodeOp::create(
        rewriter, op.getLoc(), basis.q(ct.getLevel()),
        DenseElementsAttr::get(tensor, static_cast<double>(c)),
        rewriter.getF64FloatAttr(plainScale(basis.params, type)));
    SmallVector<Value> out(adaptor.getInput());
    out[0] = rns::AddOp::create(rewriter, op.getLoc(), out[0], p);
    rewriter.replaceOpWithMultiple(op, Replacement{out});
    return success();
  }
  uint64_t r = static_cast<uint64_t>(c < 0 ? c + static_cast<int64_t>(t) : c);
  int64_t v =
      bgv::centred(static_cast<int64_t>(bgv::mulMod(r, ct.getFactor(), t)), t);
  SmallVector<Value> out(adaptor.getInput());
  out[0] = rns::AddConstOp::create(rewriter, op.getLoc(), out[0],
                                   rewriter.getI64IntegerAttr(v));
  rewriter.replaceOpWithMultiple(op, Replacement{out});
  return success();
}

LOWERING(MulPlainOp) {
  Value p = adaptor.getPlaintext().front();
  return rns_lowering::replaceEachPoly(
      op, adaptor.getCiphertext(), rewriter,
      [&](Value c) { return rns::MulOp::create(rewriter, op.getLoc(), c, p); });
}

LOWERING(EncodeOp) {
  auto pt = cast<bgv::PlaintextType>(op.getType());
  const uint64_t t = basis.params.getPlain();
  // The runtime encodes [mu m]_t of integer slot values carried as doubles
  // (exact: centred values are below t / 2 < 2^51).
  SmallVector<double> values;
  auto attr = cast<DenseElementsAttr>(op.getValue());
  for (int64_t v : attr.getValues<int64_t>())
    values.push_back(static_cast<double>(bgv::centred(v, t)));
  auto tensor = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      rewriter.getF64Type());
  Value v = rns::EncodeOp::create(
      rewriter, op.getLoc(), basis.q(pt.getLevel()),
      DenseElementsAttr::get(tensor, ArrayRef<double>(values)),
      rewriter.getF64FloatAttr(plainScale(basis.params, pt)));
  rewriter.replaceOpWithMultiple(op, Replacement{{v}});
  return success();
}

LOWERING(EncodeValuesOp) {
  // The run-time values, encoded by the runtime as [mu m]_t (a BGV plan).
  auto pt = cast<bgv::PlaintextType>(op.getType());
  Value v = rns::EncodeValuesOp::create(
      rewriter, op.getLoc(), basis.q(pt.getLevel()), op.getValues(),
      rewriter.getF64FloatAttr(plainScale(basis.params, pt)));
  rewriter.replaceOpWithMultiple(op, Replacement{{v}});
  return success();
}

struct LowerMulOp : BasisPattern<bgv::MulOp> {
  LowerMulOp(const TypeConverter &tc, MLIRContext *ctx, const Basis &basis,
             bool behz)
      : BasisPattern(tc, ctx, basis), behz(behz) {}
  bool behz;
  LogicalResult
  matchAndRewrite(bgv::MulOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange a = adaptor.getLhs(), b = adaptor.getRhs();
    if (a.size() != 2 || b.size() != 2)
      return rewriter.notifyMatchFailure(op, "tensor product needs degree 2");
    if (!basis.params.isBfv()) {
      rewriter.replaceOpWithMultiple(
          op, Replacement{
                  rns_lowering::tensorProduct(rewriter, op.getLoc(), a, b)});
      return success();
    }
    // BFV: the scale-invariant product, one runtime call.
    auto h = rns::BfvTensorOp::create(rewriter, op.getLoc(), a[0], a[1], b[0],
                                      b[1], behz);
    rewriter.replaceOpWithMultiple(op, Replacement{h.getResults()});
    return success();
  }
};

LOWERING(ModSwitchOp) {
  ValueRange in = adaptor.getInput();
  SmallVector<Type> types(in.size(), basis.q(levelOf(op.getInput()) - 1));
  auto r = rns::RescaleOp::create(rewriter, op.getLoc(), types, in);
  rewriter.replaceOpWithMultiple(op, Replacement{r.getResults()});
  return success();
}

LOWERING(RelinearizeOp) {
  ValueRange in = adaptor.getInput();
  if (in.size() != 3)
    return rewriter.notifyMatchFailure(op, "relinearizes degree 3 only");
  KeySwitcher ks{rewriter, op.getLoc(), basis, levelOf(op.getInput())};
  rewriter.replaceOpWithMultiple(
      op, Replacement{rns_lowering::relinearize(ks, in)});
  return success();
}

struct LowerRotateOp : BasisPattern<bgv::RotateOp> {
  LowerRotateOp(const TypeConverter &tc, MLIRContext *ctx, const Basis &basis,
                bool hoist)
      : BasisPattern(tc, ctx, basis), hoist(hoist) {}
  bool hoist;
  LogicalResult
  matchAndRewrite(bgv::RotateOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    KeySwitcher ks{rewriter, op.getLoc(), basis, levelOf(op.getInput())};
    ValueRange in = adaptor.getInput();
    int64_t g = galoisElementForRotation(op.getOffset(), basis.logN());
    if (!hoist || g == 1) {
      rewriter.replaceOpWithMultiple(
          op, Replacement{rns_lowering::automorphismSwitch(ks, in, g)});
      return success();
    }
    // Hoisted: ModUp of c1 itself, the automorphism applied to the raised
    // digits (read permuted by the inner product after fusion) and to c0.
    // Every rotation of one value raises the same c1, so CSE leaves one
    // ModUp for all of them (the baby steps of ember.matvec).
    SmallVector<Value> rotated;
    for (Value d : ks.modUp(in[1]))
      rotated.push_back(ks.automorphism(d, g));
    auto [a0, a1] = ks.innerProduct(rotated, ks.loadKey(g));
    auto [m0, m1] = ks.modDown(a0, a1);
    rewriter.replaceOpWithMultiple(
        op, Replacement{{ks.add(ks.automorphism(in[0], g), m0), m1}});
    return success();
  }
};

#undef LOWERING

struct BGVToRNSPass : ember::impl::BGVToRNSBase<BGVToRNSPass> {
  using BGVToRNSBase::BGVToRNSBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Basis basis{ckks::ParamsAttr::lookup(module)};
    if (bfvMult != "behz" && bfvMult != "hps") {
      module.emitError("bgv-to-rns: bfv-mult must be behz or hps, got '")
          << bfvMult << "'";
      return signalPassFailure();
    }
    if (!basis.params || !basis.params.isBgv()) {
      module.emitError("bgv-to-rns needs the module's #ckks.params with a "
                       "plaintext modulus (run fhe-to-bgv first)");
      return signalPassFailure();
    }
    // The interface (ember.interface) keeps the names and noise budgets; a
    // ciphertext result becomes several polynomials.
    for (auto f : module.getOps<func::FuncOp>())
      f.removeResAttrsAttr();
    TypeConverter tc;
    rns_lowering::addSchemeTypes<bgv::CiphertextType, bgv::PlaintextType>(
        tc, basis);

    RewritePatternSet patterns(ctx);
    patterns
        .add<LowerAddSub<bgv::AddOp, rns::AddOp, false>,
             LowerAddSub<bgv::SubOp, rns::SubOp, true>,
             LowerPlainAddSub<bgv::AddPlainOp, rns::AddOp>,
             LowerPlainAddSub<bgv::SubPlainOp, rns::SubOp>,
             rns_lowering::LowerMulInt<bgv::MulIntOp>,
             rns_lowering::LowerMulInt<bgv::AdjustFactorOp>, LowerAddIntOp,
             rns_lowering::LowerNeg<bgv::NegOp>, LowerMulPlainOp, LowerEncodeOp,
             LowerEncodeValuesOp, LowerModSwitchOp, LowerRelinearizeOp>(tc, ctx,
                                                                        basis);
    patterns.add<LowerRotateOp>(tc, ctx, basis, hoistRotations);
    patterns.add<LowerMulOp>(tc, ctx, basis, bfvMult == "behz");
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   tc);
    populateReturnOpTypeConversionPattern(patterns, tc);
    populateCallOpTypeConversionPattern(patterns, tc);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<bgv::BGVDialect>();
    target.addLegalDialect<rns::RNSDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp f) {
      return tc.isSignatureLegal(f.getFunctionType()) &&
             tc.isLegal(&f.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return tc.isLegal(op); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    for (auto f : module.getOps<func::FuncOp>())
      f.removeArgAttrsAttr();
  }
};

} // namespace
