//===- ExpandPolyEval.cpp - fhe-expand-poly-eval --------------------------===//
//
// fhe.poly_eval -> fhe.mul / fhe.add / fhe.sub and splat constants, by
// Paterson-Stockmeyer in the Chebyshev or the power basis (the pass
// description in ExpandPolyEval.td; the same algorithm in Python is
// tests/e2e/polys.py, whose depths the lit and e2e tests pin).
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/ExpandPolyEval/ExpandPolyEval.h"
#include "dialects/FHE/IR/FHEDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <cmath>
#include <map>
#include <optional>
#include <tuple>

namespace ember {
#define GEN_PASS_DEF_EXPANDPOLYEVAL
#include "compiler/Transforms/ExpandPolyEval/ExpandPolyEval.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember::fhe;

namespace {

int log2Ceil(int64_t n) {
  int k = 0;
  while ((int64_t(1) << k) < n)
    ++k;
  return k;
}

/// Paterson-Stockmeyer over a value type V supplied by Ops: the IR builder
/// below, or the depth-and-cost model that picks the baby-step count.
/// Ops provides add, sub, mul (ciphertexts), addConst, subConst, mulConst.
template <typename Ops> class PatersonStockmeyer {
public:
  using V = typename Ops::V;
  /// A partial result: a ciphertext, or (no value) a plain scalar.
  struct Term {
    std::optional<V> v;
    double c = 0;
  };

  PatersonStockmeyer(Ops &ops, bool chebyshev, int64_t k)
      : ops_(ops), chebyshev_(chebyshev), k_(k) {}

  /// sum_i c_i B_i(t) for the degree-d coefficients c (c.back() != 0).
  V run(V t, ArrayRef<double> c) {
    const int64_t d = static_cast<int64_t>(c.size()) - 1;
    basis_.emplace(1, t);
    for (int64_t i = 2; i <= std::min(k_, d); ++i)
      step(i);
    giants_ = {k_};
    while (giants_.back() * 2 <= d) {
      giants_.push_back(giants_.back() * 2);
      step(giants_.back());
    }
    if (k_ > d)
      giants_.clear(); // one baby polynomial
    return *rec(c, static_cast<int>(giants_.size()) - 1).v; // degree >= 1
  }

private:
  /// T_n (Chebyshev) or x^n (power), at depth ceil(log2 n): the product of
  /// the largest power of two a below n and n - a.
  V step(int64_t n) {
    auto it = basis_.find(n);
    if (it != basis_.end())
      return it->second;
    const int64_t a = int64_t(1) << (log2Ceil(n) - 1), rest = n - a;
    V v = ops_.mul(step(a), step(rest));
    if (chebyshev_) { // T_n = 2 T_a T_rest - T_(a - rest), T_0 = 1
      v = ops_.mulConst(v, 2.0);
      v = a == rest ? ops_.subConst(v, 1.0) : ops_.sub(v, step(a - rest));
      ops_.assumeUnit(v); // |T_n| <= 1 for t in [-1, 1]
    }
    return basis_.emplace(n, v).first->second;
  }

  /// sum_i c_i B_i over the baby steps.
  Term babyPoly(ArrayRef<double> c) {
    std::optional<V> out;
    for (size_t i = 1; i < c.size(); ++i) {
      if (c[i] == 0.0)
        continue;
      V term = ops_.mulConst(basis_.at(static_cast<int64_t>(i)), c[i]);
      out = out ? ops_.add(*out, term) : term;
    }
    if (!out)
      return {std::nullopt, c.empty() ? 0.0 : c[0]};
    return {c[0] != 0.0 ? ops_.addConst(*out, c[0]) : *out};
  }

  /// p = r + q B_g, g the largest giant step below len(c).
  Term rec(ArrayRef<double> c, int gi) {
    if (gi < 0 || static_cast<int64_t>(c.size()) <= k_)
      return babyPoly(c);
    while (gi > 0 && giants_[gi] >= static_cast<int64_t>(c.size()))
      --gi;
    const int64_t g = giants_[gi], len = static_cast<int64_t>(c.size());
    std::vector<double> r(c.begin(), c.begin() + g);
    std::vector<double> q(c.begin() + g, c.end());
    if (chebyshev_) { // T_(g+i) = 2 T_g T_i - T_(g-i)
      for (int64_t i = 1; i < len - g; ++i) {
        q[i] = 2 * c[g + i];
        r[g - i] -= c[g + i];
      }
    }
    Term lo = rec(r, gi - 1), hi = rec(q, gi - 1);
    V giant = basis_.at(g);
    std::optional<V> prod;
    if (hi.v)
      prod = ops_.mul(*hi.v, giant);
    else if (hi.c != 0.0)
      prod = ops_.mulConst(giant, hi.c);
    if (!prod)
      return lo;
    if (!lo.v)
      return {lo.c != 0.0 ? ops_.addConst(*prod, lo.c) : *prod};
    return {ops_.add(*lo.v, *prod)};
  }

  Ops &ops_;
  bool chebyshev_;
  int64_t k_;
  std::vector<int64_t> giants_;
  std::map<int64_t, V> basis_;
};

/// The model: a value's depth (levels consumed), and the ciphertext
/// multiplications made (each a relinearization, the expensive part).
struct DepthOps {
  struct V {
    int depth;
  };
  int64_t products = 0;
  V add(V a, V b) { return {std::max(a.depth, b.depth)}; }
  V sub(V a, V b) { return add(a, b); }
  V mul(V a, V b) {
    ++products;
    return {std::max(a.depth, b.depth) + 1};
  }
  V addConst(V a, double) { return a; }
  V subConst(V a, double) { return a; }
  V mulConst(V a, double c) { return {a.depth + (isFreeFactor(c) ? 0 : 1)}; }
  void assumeUnit(V) {}
};

/// The IR: fhe ops before the poly_eval, splat constants shared.
struct IrOps {
  using V = Value;
  IrOps(PolyEvalOp op)
      : b(op), loc(op.getLoc()), slots(op.getType().getSlots()),
        ct(op.getType()) {}
  Value splat(double c) {
    auto it = splats.find(c);
    if (it != splats.end())
      return it->second;
    auto tensor = RankedTensorType::get({slots}, b.getF64Type());
    Value v =
        ConstantOp::create(b, loc, PlaintextType::get(b.getContext(), slots),
                           DenseElementsAttr::get(tensor, llvm::APFloat(c)));
    return splats[c] = v;
  }
  Value add(Value x, Value y) { return AddOp::create(b, loc, ct, x, y); }
  Value sub(Value x, Value y) { return SubOp::create(b, loc, ct, x, y); }
  Value mul(Value x, Value y) { return MulOp::create(b, loc, ct, x, y); }
  Value addConst(Value x, double c) { return add(x, splat(c)); }
  Value subConst(Value x, double c) { return sub(x, splat(c)); }
  /// x * c (a level, unless c is an integer: ckks.mul_int; none for 1).
  Value mulConst(Value x, double c) { return c == 1.0 ? x : mul(x, splat(c)); }
  /// Marks x (an op made here) as lying in [-1, 1] for the range analysis
  /// (fhe.assume_range): t by the user's interval, T_n given t.
  void assumeUnit(Value x) {
    x.getDefiningOp()->setAttr(ember::fhe::kAssumeRangeAttrName,
                               b.getDenseF64ArrayAttr({-1.0, 1.0}));
  }

  OpBuilder b;
  Location loc;
  int64_t slots;
  Type ct;
  std::map<double, Value> splats;
};

/// The baby-step count: the power of two whose expansion is the shallowest,
/// then has the fewest ciphertext products, then is nearest sqrt(d + 1).
int64_t chooseBabySteps(ArrayRef<double> c, bool chebyshev) {
  const int64_t d = static_cast<int64_t>(c.size()) - 1;
  const double near = std::log2(std::sqrt(double(d + 1)));
  int64_t best = 0;
  std::tuple<int, int64_t, double> bestCost;
  for (int64_t k = 2; k <= std::max<int64_t>(2, d); k *= 2) {
    DepthOps model;
    PatersonStockmeyer<DepthOps> ps(model, chebyshev, k);
    int depth = ps.run({0}, c).depth;
    auto cost = std::make_tuple(depth, model.products,
                                std::fabs(std::log2(double(k)) - near));
    if (!best || cost < bestCost)
      best = k, bestCost = cost;
  }
  return best;
}

Value expand(PolyEvalOp op) {
  ArrayRef<double> all = op.getCoeffs();
  size_t n = all.size();
  while (n > 0 && all[n - 1] == 0.0)
    --n; // the verifier guarantees degree >= 1
  ArrayRef<double> c = all.take_front(n);
  const bool chebyshev = op.getBasis() == "chebyshev";
  IrOps ir(op);
  Value t = op.getInput();
  if (chebyshev) { // t = alpha x + beta maps [lo, hi] onto [-1, 1]
    ArrayRef<double> iv = op.getInterval();
    const double alpha = 2.0 / (iv[1] - iv[0]);
    const double beta = -(iv[1] + iv[0]) / (iv[1] - iv[0]);
    t = ir.mulConst(t, alpha);
    if (beta != 0.0)
      t = ir.addConst(t, beta);
    // The interval is the user's statement that x lies in [lo, hi].
    if (t != op.getInput())
      ir.assumeUnit(t);
  }
  PatersonStockmeyer<IrOps> ps(ir, chebyshev, chooseBabySteps(c, chebyshev));
  return ps.run(t, c);
}

struct ExpandPolyEvalPass
    : public ember::impl::ExpandPolyEvalBase<ExpandPolyEvalPass> {
  void runOnOperation() override {
    SmallVector<PolyEvalOp> evals;
    getOperation().walk([&](PolyEvalOp op) { evals.push_back(op); });
    for (PolyEvalOp op : evals) {
      Value result = expand(op);
      op.getResult().replaceAllUsesWith(result);
      op.erase();
    }
  }
};

} // namespace

mlir::Value ember::expandPolyEval(ember::fhe::PolyEvalOp op) {
  return expand(op);
}

ember::PolyEvalShape ember::polyEvalShape(llvm::ArrayRef<double> coeffs,
                                          bool chebyshev) {
  size_t n = coeffs.size();
  while (n > 0 && coeffs[n - 1] == 0.0)
    --n;
  if (n < 2)
    return {};
  ArrayRef<double> c = coeffs.take_front(n);
  DepthOps model;
  PatersonStockmeyer<DepthOps> ps(model, chebyshev,
                                  chooseBabySteps(c, chebyshev));
  int depth = ps.run({0}, c).depth;
  return {depth, model.products};
}
