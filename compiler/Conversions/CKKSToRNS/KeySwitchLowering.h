//===- KeySwitchLowering.h - rns builders shared by ckks/bgv-to-rns ------===//
//
// The RNS view of a module's #ckks.params (the chain both ckks and bgv
// lower over), the hybrid key switch as rns ops (Phantom III-D) and the
// lowerings the two schemes share (additions, the tensor product,
// relinearization, rotations, the conversion driver): ckks-to-rns and
// bgv-to-rns emit the same structured chain, so that every rns pass
// applies to both.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace ember::rns_lowering {

using mlir::Location;
using mlir::OpBuilder;
using mlir::SmallVector;
using mlir::SmallVectorImpl;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;
using rns::PolyType;

/// The RNS view of the module's #ckks.params.
struct Basis {
  ckks::ParamsAttr params;

  mlir::MLIRContext *ctx() const { return params.getContext(); }
  unsigned numQ() const { return params.getQ().size(); }
  unsigned numP() const { return params.getP().size(); }
  int64_t logN() const { return params.getLogN(); }
  /// Q limbs of a ciphertext at ckks `level` (level + 1, or 3 + 2 level
  /// under double-prime scaling: ParamsAttr::getLimbs).
  unsigned limbs(int64_t level) const { return params.getLimbs(level); }
  /// Ciphertext polynomial at `level`: its limbs(level) Q primes in NTT
  /// form.
  PolyType q(int64_t level) const {
    return PolyType::get(ctx(), rns::Form::ntt, 0, limbs(level), 0, 0);
  }
  /// Key-switching basis Q_level u P.
  PolyType qp(int64_t level) const {
    return PolyType::get(ctx(), rns::Form::ntt, 0, limbs(level), 0, numP());
  }
  rns::EvalKeyType key() const {
    return rns::EvalKeyType::get(ctx(), params.getDnum(), numQ(), numP());
  }
  /// Digit types at `level`: the digits of ember::digitSizes over the whole
  /// chain, cut at q_level (Phantom III-D keeps c1 in Q_l).
  SmallVector<Type> digits(int64_t level) const {
    SmallVector<Type> out;
    unsigned top = limbs(level), lo = 0;
    for (int size : params.getDigitSizes()) {
      if (lo >= top)
        break;
      unsigned hi = std::min<unsigned>(lo + size, top);
      out.push_back(PolyType::get(ctx(), rns::Form::ntt, lo, hi, 0, 0));
      lo += size;
    }
    return out;
  }
};

/// Emits the pieces of a hybrid key switch at one level.
struct KeySwitcher {
  OpBuilder &b;
  Location loc;
  const Basis &basis;
  int64_t level;

  /// ModUp: digits of `poly` (over Q_l) raised to Q_l u P.
  SmallVector<Value> modUp(Value poly) {
    SmallVector<Type> digitTypes = basis.digits(level);
    auto dec = rns::DecomposeOp::create(b, loc, digitTypes, poly);
    SmallVector<Type> upTypes(digitTypes.size(), basis.qp(level));
    auto up = rns::ModUpOp::create(b, loc, upTypes, dec.getDigits());
    return SmallVector<Value>(up.getResults());
  }
  Value loadKey(std::optional<int64_t> galois) {
    mlir::IntegerAttr g =
        galois ? b.getI64IntegerAttr(*galois) : mlir::IntegerAttr();
    return rns::LoadKeyOp::create(b, loc, basis.key(), g, mlir::StringAttr());
  }
  /// Bootstrapping's key s' -> s (an ordinary key over Q u P).
  Value loadFromSparseKey() {
    return rns::LoadKeyOp::create(b, loc, basis.key(), mlir::IntegerAttr(),
                                  b.getStringAttr("from_sparse"));
  }
  std::pair<Value, Value> innerProduct(ValueRange digits, Value key) {
    PolyType t = basis.qp(level);
    auto ip = rns::KSInnerProductOp::create(b, loc, t, t, digits, key,
                                            /*galois=*/mlir::IntegerAttr());
    return {ip.getAcc0(), ip.getAcc1()};
  }
  std::pair<Value, Value> modDown(Value acc0, Value acc1) {
    PolyType t = basis.q(level);
    auto md = rns::ModDownOp::create(b, loc, mlir::TypeRange{t, t},
                                     ValueRange{acc0, acc1}, ValueRange{});
    return {md.getResult(0), md.getResult(1)};
  }
  Value automorphism(Value v, int64_t galois) {
    return rns::AutomorphismOp::create(b, loc, v.getType(), v,
                                       b.getI64IntegerAttr(galois));
  }
  Value add(Value x, Value y) {
    if (!x)
      return y;
    return rns::AddOp::create(b, loc, x, y);
  }
  /// Key-switches `poly` with `key` and returns (c0 + m0, m1).
  std::pair<Value, Value> switchAndAdd(Value c0, Value poly, Value key) {
    SmallVector<Value> up = modUp(poly);
    auto [a0, a1] = innerProduct(up, key);
    auto [m0, m1] = modDown(a0, a1);
    return {add(c0, m0), m1};
  }
};

using Replacement = SmallVector<SmallVector<Value>>;

/// Replaces `op` by `each` applied to every polynomial of `in` (the parts
/// of a ciphertext): the lowering of every limb-wise unary op.
template <typename F>
mlir::LogicalResult replaceEachPoly(mlir::Operation *op, ValueRange in,
                                    mlir::ConversionPatternRewriter &rewriter,
                                    F each) {
  SmallVector<Value> out;
  for (Value v : in)
    out.push_back(each(v));
  rewriter.replaceOpWithMultiple(op, Replacement{out});
  return mlir::success();
}

/// A 1:N conversion pattern of a scheme op over the module's basis.
template <typename Op> struct BasisPattern : mlir::OpConversionPattern<Op> {
  BasisPattern(const mlir::TypeConverter &tc, mlir::MLIRContext *ctx,
               const Basis &basis)
      : mlir::OpConversionPattern<Op>(tc, ctx), basis(basis) {}
  const Basis &basis;
};

/// add/sub of ciphertexts (getLhs/getRhs); the shorter one is padded with
/// zero polynomials.
template <typename SrcOp, typename RnsOp, bool negateRhsTail>
struct LowerAddSub : BasisPattern<SrcOp> {
  using BasisPattern<SrcOp>::BasisPattern;
  using OneToNOpAdaptor = typename BasisPattern<SrcOp>::OneToNOpAdaptor;
  mlir::LogicalResult
  matchAndRewrite(SrcOp op, OneToNOpAdaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    ValueRange a = adaptor.getLhs(), b = adaptor.getRhs();
    SmallVector<Value> out;
    for (size_t i = 0, e = std::max(a.size(), b.size()); i < e; ++i) {
      if (i < a.size() && i < b.size())
        out.push_back(RnsOp::create(rewriter, op.getLoc(), a[i], b[i]));
      else if (i < a.size())
        out.push_back(a[i]);
      else if (negateRhsTail)
        out.push_back(rns::NegOp::create(rewriter, op.getLoc(), b[i]));
      else
        out.push_back(b[i]);
    }
    rewriter.replaceOpWithMultiple(op, Replacement{out});
    return mlir::success();
  }
};

/// Negation: every polynomial of the input (getInput).
template <typename SrcOp> struct LowerNeg : BasisPattern<SrcOp> {
  using BasisPattern<SrcOp>::BasisPattern;
  using OneToNOpAdaptor = typename BasisPattern<SrcOp>::OneToNOpAdaptor;
  mlir::LogicalResult
  matchAndRewrite(SrcOp op, OneToNOpAdaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    return replaceEachPoly(op, adaptor.getInput(), rewriter, [&](Value v) {
      return rns::NegOp::create(rewriter, op.getLoc(), v);
    });
  }
};

/// Every polynomial of the input (getInput) times the op's integer
/// (getValue): ckks.mul_int, bgv.mul_int and bgv.adjust_factor.
template <typename SrcOp> struct LowerMulInt : BasisPattern<SrcOp> {
  using BasisPattern<SrcOp>::BasisPattern;
  using OneToNOpAdaptor = typename BasisPattern<SrcOp>::OneToNOpAdaptor;
  mlir::LogicalResult
  matchAndRewrite(SrcOp op, OneToNOpAdaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    auto c = rewriter.getI64IntegerAttr(static_cast<int64_t>(op.getValue()));
    return replaceEachPoly(op, adaptor.getInput(), rewriter, [&](Value v) {
      return rns::MulConstOp::create(rewriter, op.getLoc(), v, c);
    });
  }
};

/// The tensor product of two degree-2 ciphertexts: (a0 b0, a0 b1 + a1 b0,
/// a1 b1), 4 products, no Karatsuba (its extra additions cost more memory
/// traffic than the saved product on a GPU).
inline SmallVector<Value> tensorProduct(OpBuilder &b, Location loc,
                                        ValueRange x, ValueRange y) {
  Value d0 = rns::MulOp::create(b, loc, x[0], y[0]);
  Value u = rns::MulOp::create(b, loc, x[0], y[1]);
  Value v = rns::MulOp::create(b, loc, x[1], y[0]);
  Value d1 = rns::AddOp::create(b, loc, u, v);
  Value d2 = rns::MulOp::create(b, loc, x[1], y[1]);
  return {d0, d1, d2};
}

/// A ciphertext product (getLhs/getRhs of degree 2): tensorProduct.
template <typename SrcOp> struct LowerTensor : BasisPattern<SrcOp> {
  using BasisPattern<SrcOp>::BasisPattern;
  using OneToNOpAdaptor = typename BasisPattern<SrcOp>::OneToNOpAdaptor;
  mlir::LogicalResult
  matchAndRewrite(SrcOp op, OneToNOpAdaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    ValueRange a = adaptor.getLhs(), b = adaptor.getRhs();
    if (a.size() != 2 || b.size() != 2)
      return rewriter.notifyMatchFailure(op, "tensor product needs degree 2");
    rewriter.replaceOpWithMultiple(
        op, Replacement{tensorProduct(rewriter, op.getLoc(), a, b)});
    return mlir::success();
  }
};

/// Degree 3 -> 2: c_2 key-switched with the relinearization key.
inline SmallVector<Value> relinearize(KeySwitcher &ks, ValueRange in) {
  auto [r0, m1] = ks.switchAndAdd(in[0], in[2], ks.loadKey(std::nullopt));
  return {r0, ks.add(in[1], m1)};
}

/// Rotation-like ops: the automorphism X -> X^galois of (c0, c1), then the
/// key switch of sigma(c1) with the Galois key of `galois` (nothing for 1).
inline SmallVector<Value> automorphismSwitch(KeySwitcher &ks, ValueRange in,
                                             int64_t galois) {
  if (galois == 1)
    return SmallVector<Value>(in);
  Value s0 = ks.automorphism(in[0], galois);
  Value s1 = ks.automorphism(in[1], galois);
  auto [r0, r1] = ks.switchAndAdd(s0, s1, ks.loadKey(galois));
  return {r0, r1};
}

/// The scheme's types as rns polynomials: a ciphertext of degree d at
/// level l is d polynomials over q[0:limbs(l)] in NTT form, a plaintext
/// one; other types unchanged.
template <typename CtType, typename PtType>
void addSchemeTypes(mlir::TypeConverter &tc, const Basis &basis) {
  tc.addConversion([](Type t) { return t; });
  tc.addConversion([&basis](CtType t, SmallVectorImpl<Type> &out)
                       -> std::optional<mlir::LogicalResult> {
    out.append(t.getDegree(), basis.q(t.getLevel()));
    return mlir::success();
  });
  tc.addConversion(
      [&basis](PtType t) -> Type { return basis.q(t.getLevel()); });
}

/// Applies a scheme -> rns 1:N conversion to `module`: `patterns` plus the
/// function signature, return and call patterns of `tc`, with the ops of
/// `Dialect` illegal.
template <typename Dialect>
mlir::LogicalResult convertToRns(mlir::ModuleOp module,
                                 const mlir::TypeConverter &tc,
                                 mlir::RewritePatternSet &&patterns) {
  mlir::MLIRContext *ctx = module.getContext();
  mlir::populateFunctionOpInterfaceTypeConversionPattern<mlir::func::FuncOp>(
      patterns, tc);
  mlir::populateReturnOpTypeConversionPattern(patterns, tc);
  mlir::populateCallOpTypeConversionPattern(patterns, tc);
  mlir::ConversionTarget target(*ctx);
  target.addIllegalDialect<Dialect>();
  target.addLegalDialect<rns::RNSDialect>();
  target.addDynamicallyLegalOp<mlir::func::FuncOp>([&](mlir::func::FuncOp f) {
    return tc.isSignatureLegal(f.getFunctionType()) && tc.isLegal(&f.getBody());
  });
  target.addDynamicallyLegalOp<mlir::func::ReturnOp, mlir::func::CallOp>(
      [&](mlir::Operation *op) { return tc.isLegal(op); });
  target.markUnknownOpDynamicallyLegal([](mlir::Operation *) { return true; });
  return mlir::applyPartialConversion(module, target, std::move(patterns));
}

} // namespace ember::rns_lowering
