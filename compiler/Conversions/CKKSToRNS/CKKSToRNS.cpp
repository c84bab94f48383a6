//===- CKKSToRNS.cpp - lower ckks ops to rns polynomial ops
//----------------===//
//
// A ciphertext of degree d at level l becomes d `!rns.poly<ntt, q[0:l+1]>`
// (q[0:3+2l] under double-prime scaling: ParamsAttr::getLimbs)
// values; key switching is hybrid (Phantom III-D) and stays structured:
// decompose -> mod_up -> ks_inner_product -> mod_down. See CKKSToRNS.td.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversions/CKKSToRNS/CKKSToRNS.h"
#include "compiler/Conversions/CKKSToRNS/KeySwitchLowering.h"

#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Common/SlotVectors.h"
#include "dialects/RNS/IR/RNSOps.h"
#include "ember/security.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>
#include <type_traits>

#define DEBUG_TYPE "ckks-to-rns"

namespace ember {
#define GEN_PASS_DEF_CKKSTORNS
#include "compiler/Conversions/CKKSToRNS/CKKSToRNS.h.inc"
} // namespace ember

using namespace mlir;

namespace ember {

int64_t galoisElementForRotation(int64_t offset, int64_t logN) {
  uint64_t twoN = uint64_t{2} << logN;
  int64_t halfN = int64_t{1} << (logN - 1);
  uint64_t k = static_cast<uint64_t>(((offset % halfN) + halfN) % halfN);
  uint64_t g = 1, base = 5;
  for (; k; k >>= 1, base = base * base % twoN)
    if (k & 1)
      g = g * base % twoN;
  return static_cast<int64_t>(g);
}

namespace {

using rns::PolyType;
using rns_lowering::Basis;
using rns_lowering::KeySwitcher;
using rns_lowering::LowerAddSub;
using rns_lowering::Replacement;

template <typename Op> struct LowerOp : rns_lowering::BasisPattern<Op> {
  using rns_lowering::BasisPattern<Op>::BasisPattern;

  int64_t levelOf(Value v) const {
    if (auto ct = dyn_cast<ckks::CiphertextType>(v.getType()))
      return ct.getLevel();
    return cast<ckks::PlaintextType>(v.getType()).getLevel();
  }
};

#define LOWERING(OP)                                                           \
  struct Lower##OP : LowerOp<ckks::OP> {                                       \
    using LowerOp::LowerOp;                                                    \
    LogicalResult                                                              \
    matchAndRewrite(ckks::OP op, OneToNOpAdaptor adaptor,                      \
                    ConversionPatternRewriter &rewriter) const override;       \
  };                                                                           \
  LogicalResult Lower##OP::matchAndRewrite(                                    \
      ckks::OP op, OneToNOpAdaptor adaptor,                                    \
      ConversionPatternRewriter &rewriter) const

/// round(c * scale) of a plaintext that is one real constant c in every
/// slot (a splat `ckks.encode`): the constant polynomial it encodes. None
/// for vectors (and for values whose product overflows a double).
std::optional<APInt> scalarPlaintext(Value plaintext) {
  auto encode = plaintext.getDefiningOp<ckks::EncodeOp>();
  if (!encode)
    return std::nullopt;
  std::optional<double> c = ember::realSplat(encode.getValue());
  if (!c)
    return std::nullopt;
  double scale = cast<ckks::PlaintextType>(encode.getType()).getScale();
  double v = *c * scale;
  if (!std::isfinite(v))
    return std::nullopt;
  // Wide enough for any double's integer part, plus a sign bit.
  int bits = std::max(64, std::ilogb(std::fabs(v) + 1) + 3);
  APSInt k(bits, /*isUnsigned=*/false);
  bool exact;
  APFloat(std::round(v))
      .convertToInteger(k, APFloat::rmNearestTiesToAway, &exact);
  return APInt(k);
}

IntegerAttr integerAttr(Builder &b, const APInt &v) {
  return b.getIntegerAttr(b.getIntegerType(v.getBitWidth()), v);
}

LOWERING(TileOp) {
  // The same polynomials, read with more slots.
  rewriter.replaceOpWithMultiple(op, Replacement{adaptor.getInput()});
  return success();
}

LOWERING(MulIOp) {
  // Times X^(N/2): the constant i encoded at scale 1 is that monomial
  // exactly (coefficient N/2 is 1, the rest 0), one product per limb.
  auto c = cast<ckks::CiphertextType>(op.getInput().getType());
  auto values = DenseElementsAttr::get(
      RankedTensorType::get({c.getSlots()},
                            ComplexType::get(rewriter.getF64Type())),
      std::complex<double>(0.0, 1.0));
  Value monomial =
      rns::EncodeOp::create(rewriter, op.getLoc(), basis.q(c.getLevel()),
                            values, rewriter.getF64FloatAttr(1.0));
  SmallVector<Value> out;
  for (Value v : adaptor.getInput())
    out.push_back(rns::MulOp::create(rewriter, op.getLoc(), v, monomial));
  rewriter.replaceOpWithMultiple(op, Replacement{out});
  return success();
}

/// Bootstrapping's key switch s -> s' at level 0 (sparse-secret
/// encapsulation): each limb of Q_0 (q_0; q_0 and the base pair under
/// double-prime scaling) is one digit, raised exactly to Q_0 u {p_0} (one
/// prime: the centred BConv has no error), the inner product with the
/// to_sparse key (a digit per limb), ModDown by p_0.
static SmallVector<Value> switchToSparse(OpBuilder &b, Location loc,
                                         const Basis &basis, ValueRange c) {
  MLIRContext *ctx = b.getContext();
  const unsigned base = basis.limbs(0);
  auto poly = [&](rns::Form f, unsigned qLo, unsigned qHi, unsigned pHi) {
    return PolyType::get(ctx, f, qLo, qHi, 0, pHi);
  };
  auto raised = poly(rns::Form::ntt, 0, base, 1);
  SmallVector<Value> digits;
  for (unsigned j = 0; j < base; ++j) {
    // Limb j in both forms, then its lifts to the limbs below it and to
    // those above it with p_0, in the basis' order.
    Value own = c[1];
    if (base > 1)
      own = rns::DropLimbsOp::create(b, loc, poly(rns::Form::ntt, j, j + 1, 0),
                                     c[1]);
    Value coeff =
        rns::INTTOp::create(b, loc, poly(rns::Form::coeff, j, j + 1, 0), own);
    auto lift = [&](PolyType to) {
      Value up = rns::BConvOp::create(b, loc, to, coeff);
      return rns::NTTOp::create(b, loc, to.withForm(rns::Form::ntt), up)
          .getResult();
    };
    SmallVector<Value> parts;
    if (j > 0)
      parts.push_back(lift(poly(rns::Form::coeff, 0, j, 0)));
    parts.push_back(own);
    parts.push_back(lift(j + 1 < base ? poly(rns::Form::coeff, j + 1, base, 1)
                                      : poly(rns::Form::coeff, 0, 0, 1)));
    digits.push_back(rns::ConcatOp::create(b, loc, raised, parts));
  }
  Value key =
      rns::LoadKeyOp::create(b, loc, rns::EvalKeyType::get(ctx, base, base, 1),
                             IntegerAttr(), b.getStringAttr("to_sparse"));
  auto ip = rns::KSInnerProductOp::create(b, loc, raised, raised, digits, key,
                                          /*galois=*/IntegerAttr());
  Type level0 = c[0].getType();
  auto md = rns::ModDownOp::create(b, loc, TypeRange{level0, level0},
                                   ValueRange{ip.getAcc0(), ip.getAcc1()},
                                   ValueRange{});
  return {rns::AddOp::create(b, loc, c[0], md.getResult(0)), md.getResult(1)};
}

LOWERING(ModRaiseOp) {
  // Each polynomial: INTT of the limbs of Q_0 (q_0; q_0 and the base pair
  // under double-prime scaling), the centred representative of each
  // coefficient mod Q_0 converted to the limbs above, the limbs joined,
  // NTT. From one prime the centred BConv gives it; from more, the exact
  // BConv: the fast one's u Q_0 in c_1 would be multiplied by the secret,
  // giving ModRaise's I a variance of (h + 1) |Q_0| / 12 instead of
  // (h + 1) / 12 (sd 2.9 instead of 1.7 at h = 32 and three limbs: past
  // EvalMod's K about once in 10^6 coefficients). Encapsulated:
  // under s' (switchToSparse first), then back to s at the top with the
  // from_sparse key.
  Location loc = op.getLoc();
  const int64_t topLevel = levelOf(op.getResult());
  const unsigned top = basis.limbs(topLevel), base = basis.limbs(0);
  MLIRContext *ctx = rewriter.getContext();
  auto bottom = PolyType::get(ctx, rns::Form::coeff, 0, base, 0, 0);
  auto raised = PolyType::get(ctx, rns::Form::coeff, base, top, 0, 0);
  auto whole = PolyType::get(ctx, rns::Form::coeff, 0, top, 0, 0);
  SmallVector<Value> in(adaptor.getInput());
  if (op.getEncapsulate())
    in = switchToSparse(rewriter, loc, basis, in);
  SmallVector<Value> out;
  for (Value v : in) {
    Value c = rns::INTTOp::create(rewriter, loc, bottom, v);
    auto up = rns::BConvOp::create(rewriter, loc, raised, c);
    if (base > 1)
      up.setExact(true);
    Value joined =
        rns::ConcatOp::create(rewriter, loc, whole, ValueRange{c, up});
    out.push_back(rns::NTTOp::create(rewriter, loc, basis.q(topLevel), joined));
  }
  if (op.getEncapsulate()) {
    KeySwitcher ks{rewriter, loc, basis, topLevel};
    auto [r0, r1] = ks.switchAndAdd(out[0], out[1], ks.loadFromSparseKey());
    out = {r0, r1};
  }
  rewriter.replaceOpWithMultiple(op, Replacement{out});
  return success();
}

LOWERING(MulPlainOp) {
  SmallVector<Value> out;
  // One constant in every slot: a multiplication by its integer, no
  // encoded polynomial read.
  if (std::optional<APInt> k = scalarPlaintext(op.getPlaintext())) {
    for (Value c : adaptor.getCiphertext())
      out.push_back(rns::MulConstOp::create(rewriter, op.getLoc(), c,
                                            integerAttr(rewriter, *k)));
    rewriter.replaceOpWithMultiple(op, Replacement{out});
    return success();
  }
  Value p = adaptor.getPlaintext().front();
  for (Value c : adaptor.getCiphertext())
    out.push_back(rns::MulOp::create(rewriter, op.getLoc(), c, p));
  rewriter.replaceOpWithMultiple(op, Replacement{out});
  return success();
}

template <typename CkksOp, typename RnsOp>
struct LowerPlainAddSub : LowerOp<CkksOp> {
  using LowerOp<CkksOp>::LowerOp;
  using OneToNOpAdaptor = typename LowerOp<CkksOp>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(CkksOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> out(adaptor.getCiphertext());
    if (std::optional<APInt> k = scalarPlaintext(op.getPlaintext())) {
      // One constant in every slot: add (or subtract) its integer to c0.
      APInt v = std::is_same_v<RnsOp, rns::SubOp>
                    ? -k->sext(k->getBitWidth() + 1)
                    : *k;
      out[0] = rns::AddConstOp::create(rewriter, op.getLoc(), out[0],
                                       integerAttr(rewriter, v));
    } else {
      out[0] = RnsOp::create(rewriter, op.getLoc(), out[0],
                             adaptor.getPlaintext().front());
    }
    rewriter.replaceOpWithMultiple(op, Replacement{out});
    return success();
  }
};

LOWERING(EncodeOp) {
  auto pt = cast<ckks::PlaintextType>(op.getType());
  Value v = rns::EncodeOp::create(rewriter, op.getLoc(), basis.q(pt.getLevel()),
                                  op.getValue(),
                                  rewriter.getF64FloatAttr(pt.getScale()));
  rewriter.replaceOpWithMultiple(op, Replacement{{v}});
  return success();
}

LOWERING(EncodeValuesOp) {
  auto pt = cast<ckks::PlaintextType>(op.getType());
  Value v = rns::EncodeValuesOp::create(
      rewriter, op.getLoc(), basis.q(pt.getLevel()), op.getValues(),
      rewriter.getF64FloatAttr(pt.getScale()));
  rewriter.replaceOpWithMultiple(op, Replacement{{v}});
  return success();
}

LOWERING(RescaleOp) {
  ValueRange in = adaptor.getInput();
  int64_t level = levelOf(op.getInput());
  SmallVector<Type> types(in.size(), basis.q(level - 1));
  auto r = rns::RescaleOp::create(rewriter, op.getLoc(), types, in);
  rewriter.replaceOpWithMultiple(op, Replacement{r.getResults()});
  return success();
}

LOWERING(ModDropOp) {
  PolyType t = basis.q(levelOf(op.getResult()));
  SmallVector<Value> out;
  for (Value v : adaptor.getInput())
    out.push_back(rns::DropLimbsOp::create(rewriter, op.getLoc(), t, v));
  rewriter.replaceOpWithMultiple(op, Replacement{out});
  return success();
}

LOWERING(RelinearizeOp) {
  ValueRange in = adaptor.getInput();
  if (in.size() == 2) {
    rewriter.replaceOpWithMultiple(op, Replacement{in});
    return success();
  }
  if (in.size() != 3)
    return rewriter.notifyMatchFailure(op, "relinearizes degree 3 only");
  KeySwitcher ks{rewriter, op.getLoc(), basis, levelOf(op.getInput())};
  rewriter.replaceOpWithMultiple(
      op, Replacement{rns_lowering::relinearize(ks, in)});
  return success();
}

/// Rotation-like ops: automorphism of (c0, c1), then key switch of
/// sigma(c1) with the Galois key of g.
static void lowerAutomorphismKS(Operation *op, ValueRange in, int64_t galois,
                                const Basis &basis, int64_t level,
                                ConversionPatternRewriter &rewriter) {
  KeySwitcher ks{rewriter, op->getLoc(), basis, level};
  rewriter.replaceOpWithMultiple(
      op, Replacement{rns_lowering::automorphismSwitch(ks, in, galois)});
}

LOWERING(RotateOp) {
  lowerAutomorphismKS(op, adaptor.getInput(),
                      galoisElementForRotation(op.getOffset(), basis.logN()),
                      basis, levelOf(op.getInput()), rewriter);
  return success();
}

LOWERING(ConjugateOp) {
  lowerAutomorphismKS(op, adaptor.getInput(),
                      galoisElementForConjugation(basis.logN()), basis,
                      levelOf(op.getInput()), rewriter);
  return success();
}

LOWERING(KeySwitchOp) {
  ValueRange in = adaptor.getInput();
  KeySwitcher ks{rewriter, op.getLoc(), basis, levelOf(op.getInput())};
  auto [r0, r1] =
      ks.switchAndAdd(in[0], in[1], ks.loadKey(op.getGaloisElement()));
  rewriter.replaceOpWithMultiple(op, Replacement{{r0, r1}});
  return success();
}

/// One rotation of a hoisted group: automorphism of the shared raised
/// digits, inner product with the Galois key. Returns the accumulators over
/// Q_l u P and sigma(c0).
static std::tuple<Value, Value, Value>
hoistedTerm(KeySwitcher &ks, ValueRange raised, Value c0, int64_t galois) {
  SmallVector<Value> rotated;
  for (Value d : raised)
    rotated.push_back(ks.automorphism(d, galois));
  auto [a0, a1] = ks.innerProduct(rotated, ks.loadKey(galois));
  return {a0, a1, ks.automorphism(c0, galois)};
}

LOWERING(HoistedRotateOp) {
  ValueRange in = adaptor.getInput();
  KeySwitcher ks{rewriter, op.getLoc(), basis, levelOf(op.getInput())};
  SmallVector<Value> raised; // the one shared ModUp, made on first need
  Replacement out;
  for (int64_t offset : op.getOffsets()) {
    int64_t g = galoisElementForRotation(offset, basis.logN());
    if (g == 1) {
      out.push_back(SmallVector<Value>(in));
      continue;
    }
    if (raised.empty())
      raised = ks.modUp(in[1]);
    auto [a0, a1, s0] = hoistedTerm(ks, raised, in[0], g);
    auto [m0, m1] = ks.modDown(a0, a1);
    out.push_back({ks.add(s0, m0), m1});
  }
  rewriter.replaceOpWithMultiple(op, std::move(out));
  return success();
}

LOWERING(HoistedRotateSumOp) {
  ValueRange in = adaptor.getInput();
  KeySwitcher ks{rewriter, op.getLoc(), basis, levelOf(op.getInput())};
  SmallVector<Value> raised;
  Value acc0, acc1, sum0, plain0, plain1;
  for (int64_t offset : op.getOffsets()) {
    int64_t g = galoisElementForRotation(offset, basis.logN());
    if (g == 1) { // rotation by 0: the input itself joins the sum
      plain0 = ks.add(plain0, in[0]);
      plain1 = ks.add(plain1, in[1]);
      continue;
    }
    if (raised.empty())
      raised = ks.modUp(in[1]);
    auto [a0, a1, s0] = hoistedTerm(ks, raised, in[0], g);
    acc0 = ks.add(acc0, a0);
    acc1 = ks.add(acc1, a1);
    sum0 = ks.add(sum0, s0);
  }
  Value r0 = plain0, r1 = plain1;
  if (acc0) { // one ModDown for the whole sum
    auto [m0, m1] = ks.modDown(acc0, acc1);
    r0 = ks.add(r0, ks.add(sum0, m0));
    r1 = ks.add(r1, m1);
  }
  rewriter.replaceOpWithMultiple(op, Replacement{{r0, r1}});
  return success();
}

LOWERING(HoistedDotOp) {
  ValueRange in = adaptor.getInput();
  const int64_t level = levelOf(op.getInput());
  KeySwitcher ks{rewriter, op.getLoc(), basis, level};
  Location loc = op.getLoc();
  PolyType qp = basis.qp(level);
  // Every term joins the sums over Q_l u P: a rotation's (acc0 + P
  // sigma(c0), acc1), the unrotated input's (P c0, P c1), each times its
  // weight encoded over Q_l u P; one ModDown divides by P. P c0 is made
  // once and permuted (sigma(P c0) = P sigma(c0)): an automorphism over
  // Q_l u P is a permuted load of the kernels that sum there. A rotation's
  // lifted accumulator is the same op in every sum of its offset (the
  // giant steps of a matrix product), shared once CSE has run.
  auto lift = [&](Value x) {
    return rns::MulPOp::create(rewriter, loc, qp, x).getResult();
  };
  SmallVector<Value> raised;
  Value acc0, acc1;
  Value pc0 = lift(in[0]);
  for (auto [offset, weight] : llvm::zip(op.getOffsets(), op.getWeights())) {
    auto enc = weight.getDefiningOp<ckks::EncodeOp>();
    if (!enc)
      return rewriter.notifyMatchFailure(op, "weights must be ckks.encode");
    Value w = rns::EncodeOp::create(
        rewriter, loc, qp, enc.getValue(),
        rewriter.getF64FloatAttr(
            cast<ckks::PlaintextType>(enc.getType()).getScale()));
    auto mul = [&](Value x) {
      return rns::MulOp::create(rewriter, loc, x, w).getResult();
    };
    Value t0, t1;
    int64_t g = galoisElementForRotation(offset, basis.logN());
    if (g == 1) {
      t0 = pc0;
      t1 = lift(in[1]);
    } else {
      if (raised.empty())
        raised = ks.modUp(in[1]);
      auto [a0, a1, s0] = hoistedTerm(ks, raised, pc0, g);
      t0 = ks.add(a0, s0);
      t1 = a1;
    }
    acc0 = ks.add(acc0, mul(t0));
    acc1 = ks.add(acc1, mul(t1));
  }
  auto [m0, m1] = ks.modDown(acc0, acc1);
  rewriter.replaceOpWithMultiple(op, Replacement{{m0, m1}});
  return success();
}

#undef LOWERING

struct CKKSToRNSPass : impl::CKKSToRNSBase<CKKSToRNSPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Basis basis{ckks::ParamsAttr::lookup(module)};
    if (!basis.params) {
      module.emitError("ckks-to-rns needs the module's #ckks.params "
                       "(run fhe-to-ckks first)");
      return signalPassFailure();
    }
    bool needsKS = false;
    module.walk(
        [&](Operation *op) { needsKS |= op->hasTrait<ckks::KeySwitching>(); });
    if (needsKS && basis.numP() == 0) {
      module.emitError("hybrid key switching needs special primes P, but "
                       "#ckks.params has none");
      return signalPassFailure();
    }

    TypeConverter tc;
    rns_lowering::addSchemeTypes<ckks::CiphertextType, ckks::PlaintextType>(
        tc, basis);

    RewritePatternSet patterns(ctx);
    patterns
        .add<LowerAddSub<ckks::AddOp, rns::AddOp, false>,
             LowerAddSub<ckks::SubOp, rns::SubOp, true>,
             LowerPlainAddSub<ckks::AddPlainOp, rns::AddOp>,
             LowerPlainAddSub<ckks::SubPlainOp, rns::SubOp>,
             rns_lowering::LowerNeg<ckks::NegOp>,
             rns_lowering::LowerMulInt<ckks::MulIntOp>, LowerMulIOp,
             LowerModRaiseOp, rns_lowering::LowerTensor<ckks::MulOp>,
             LowerMulPlainOp, LowerEncodeOp, LowerEncodeValuesOp, LowerTileOp,
             LowerRescaleOp, LowerModDropOp, LowerRelinearizeOp, LowerRotateOp,
             LowerConjugateOp, LowerKeySwitchOp, LowerHoistedRotateOp,
             LowerHoistedRotateSumOp, LowerHoistedDotOp>(tc, ctx, basis);
    if (failed(rns_lowering::convertToRns<ckks::CKKSDialect>(
            module, tc, std::move(patterns))))
      return signalPassFailure();
    // Splat constants whose every use became an rns.mul_const/add_const.
    module.walk([](rns::EncodeOp encode) {
      if (encode->use_empty())
        encode->erase();
    });
    // A ciphertext argument became several polynomials: the argument
    // attributes (ember.name) no longer line up; the names live on in
    // ember.interface.
    for (auto f : module.getOps<func::FuncOp>())
      f.removeArgAttrsAttr();
  }
};

} // namespace
} // namespace ember
