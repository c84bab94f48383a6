//===- PartitionLimbs.cpp - kernel-partition-devices partition=limbs -----===//
//
// Every polynomial's limbs spread over k devices (Cerium's partition of the
// RNS limbs): device d holds the Q limbs q[qb[d] : qb[d+1]] and the P limbs
// p[pb[d] : pb[d+1]] of every polynomial that has them. Limb-wise work
// (generated kernels, NTTs, automorphisms, the key-switch inner product)
// runs on each device over its share; only a base conversion reads limbs
// another device holds, so its input is gathered first. See the .td.
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/PartitionDevices/PartitionLimbs.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Kernel/IR/KernelDialect.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace ember;
using rns::PolyType;

namespace {

/// One limb of a basis: a Q limb or a P limb, by index.
struct Limb {
  bool p;
  int64_t i;
  bool operator<(const Limb &o) const {
    return p != o.p ? !p : i < o.i; // Q limbs first, then P
  }
};

/// The basis of `t` with an empty range as [0, 0) (so that types compare).
PolyType normal(PolyType t) {
  return PolyType::get(
      t.getContext(), t.getForm(), t.getNumQ() ? t.getQLo() : 0,
      t.getNumQ() ? t.getQHi() : 0, t.getNumP() ? t.getPLo() : 0,
      t.getNumP() ? t.getPHi() : 0);
}

/// The Q limbs of `t` alone, and its P limbs alone.
PolyType qRun(PolyType t) {
  return PolyType::get(t.getContext(), t.getForm(), t.getQLo(), t.getQHi(), 0,
                       0);
}
PolyType pRun(PolyType t) {
  return PolyType::get(t.getContext(), t.getForm(), 0, 0, t.getPLo(),
                       t.getPHi());
}

Limb firstLimb(PolyType t) {
  return t.getNumQ() ? Limb{false, t.getQLo()} : Limb{true, t.getPLo()};
}
Limb lastLimb(PolyType t) {
  return t.getNumP() ? Limb{true, t.getPHi() - 1} : Limb{false, t.getQHi() - 1};
}
/// Position of `l` in `t`'s limb order (Q ascending, then P).
int64_t positionIn(PolyType t, Limb l) {
  return l.p ? t.getNumQ() + (l.i - t.getPLo()) : l.i - t.getQLo();
}

class LimbSplit {
public:
  LimbSplit(func::FuncOp f, int64_t k, int64_t limbBytes, LimbSplitStats &stats)
      : f_(f), k_(k), limbBytes_(limbBytes), stats_(stats) {}

  LogicalResult run() {
    Block &body = f_.getBody().front();
    for (Operation &op : body)
      for (Type t : op.getResultTypes())
        if (auto p = dyn_cast<PolyType>(t); p && p.hasT())
          return op.emitOpError(
              "kernel-partition-devices partition=limbs: KLSS key switching is "
              "not split over devices (use keyswitch=hybrid)");
    chooseBounds();
    SmallVector<Operation *> ops;
    for (Operation &op : body)
      ops.push_back(&op);
    // The inputs: device 0 holds them; each other device receives its
    // share.
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    for (BlockArgument a : body.getArguments()) {
      auto t = dyn_cast<PolyType>(a.getType());
      if (!t)
        continue;
      SmallVector<Value> ps(k_);
      for (int64_t d = 0; d < k_; ++d) {
        PolyType s = share(t, d);
        if (!s)
          continue;
        Value v = slice(b, a, s, 0);
        ps[d] = d == 0 ? v : transfer(b, v, 0, d);
      }
      pieces_[a] = std::move(ps);
    }
    for (Operation *op : ops)
      if (failed(split(op)))
        return failure();
    for (Operation *op : llvm::reverse(ops))
      if (!isa<func::ReturnOp>(op)) {
        op->dropAllUses();
        op->erase();
      }
    stats_.qBounds = qb_;
    stats_.pBounds = pb_;
    return success();
  }

private:
  /// Q limbs split so that each device holds about the same number of
  /// (limb, op) pairs over the program (a program that spends its work at
  /// lower levels gives the first devices fewer limbs each); P limbs
  /// evenly (every key switch holds all of P).
  void chooseBounds() {
    int64_t qTop = 0, pTop = 0;
    std::vector<double> w;
    auto see = [&](Type ty) {
      auto t = dyn_cast<PolyType>(ty);
      if (!t)
        return;
      if (t.getNumQ()) {
        qTop = std::max<int64_t>(qTop, t.getQHi());
        if (w.size() < t.getQHi())
          w.resize(t.getQHi(), 0.0);
        for (unsigned i = t.getQLo(); i < t.getQHi(); ++i)
          w[i] += 1;
      }
      if (t.getNumP())
        pTop = std::max<int64_t>(pTop, t.getPHi());
    };
    Block &body = f_.getBody().front();
    for (BlockArgument a : body.getArguments())
      see(a.getType());
    for (Operation &op : body)
      if (!isa<kernel::ViewOp>(op))
        for (Type t : op.getResultTypes())
          see(t);
    qb_.assign(k_ + 1, qTop);
    pb_.assign(k_ + 1, pTop);
    qb_[0] = 0;
    double total = 0;
    for (double x : w)
      total += x;
    // Device d starts after the first prefix of limbs that carries d/k of
    // the weight, with at least one Q limb for each device while they last.
    double acc = 0;
    int64_t i = 0;
    for (int64_t d = 1; d < k_; ++d) {
      while (i < qTop && acc + 1e-9 < total * double(d) / double(k_))
        acc += w[i++];
      int64_t at = std::max<int64_t>(i, qb_[d - 1] + 1);
      at = std::min<int64_t>(at, qTop - (k_ - d));
      qb_[d] = std::max<int64_t>(at, qb_[d - 1]);
    }
    for (int64_t e = 0; e <= k_; ++e)
      pb_[e] = e * pTop / k_;
  }

  /// `t`'s limbs that device d holds (null: none).
  PolyType share(PolyType t, int64_t d) const {
    int64_t qLo = std::max<int64_t>(t.getQLo(), qb_[d]),
            qHi = std::min<int64_t>(t.getQHi(), qb_[d + 1]);
    int64_t pLo = std::max<int64_t>(t.getPLo(), pb_[d]),
            pHi = std::min<int64_t>(t.getPHi(), pb_[d + 1]);
    if (!t.getNumQ() || qLo >= qHi)
      qLo = qHi = 0;
    if (!t.getNumP() || pLo >= pHi)
      pLo = pHi = 0;
    if (qLo == qHi && pLo == pHi)
      return {};
    return PolyType::get(t.getContext(), t.getForm(), qLo, qHi, pLo, pHi);
  }

  kernel::CallOp call(OpBuilder &b, Location loc, StringRef callee,
                      TypeRange results, ValueRange inputs, int64_t d) {
    auto c = kernel::CallOp::create(b, loc, results, b.getStringAttr(callee),
                                    inputs);
    c->setAttr("device", b.getI64IntegerAttr(d));
    return c;
  }

  /// `v` (on device `from`) sent to device `to`.
  Value transfer(OpBuilder &b, Value v, int64_t from, int64_t to) {
    auto t = call(b, v.getLoc(), "transfer", v.getType(), v, from);
    t->setAttr("to", b.getI64IntegerAttr(to));
    ++stats_.transfers;
    stats_.transferBytes +=
        int64_t(cast<PolyType>(v.getType()).getNumLimbs()) * limbBytes_;
    return t.getResult(0);
  }

  /// The limbs `want` of `v` (on device d; a contiguous run of its limbs,
  /// or two runs, Q and P, joined by a concat).
  Value slice(OpBuilder &b, Value v, PolyType want, int64_t d) {
    auto t = normal(cast<PolyType>(v.getType()));
    want = normal(want);
    if (want == t)
      return v;
    const int64_t first = positionIn(t, firstLimb(want)),
                  last = positionIn(t, lastLimb(want));
    if (last - first + 1 == int64_t(want.getNumLimbs())) {
      auto w = kernel::ViewOp::create(b, v.getLoc(), want, v, uint64_t(first),
                                      uint64_t(want.getNumLimbs()));
      w->setAttr("device", b.getI64IntegerAttr(d));
      return w.getResult();
    }
    // Q and P runs apart in v (v holds limbs between them).
    Value parts[] = {slice(b, v, qRun(want), d), slice(b, v, pRun(want), d)};
    return call(b, v.getLoc(), "concat", want, parts, d).getResult(0);
  }

  /// The polynomial `want` on device d from parts there that together hold
  /// exactly its limbs (any order): the part itself, or one concat of the
  /// parts' runs in basis order.
  Value assemble(OpBuilder &b, Location loc, ArrayRef<Value> parts,
                 PolyType want, int64_t d) {
    if (parts.size() == 1)
      return parts.front();
    // Parts already in basis order are joined as they are.
    SmallVector<Value> ordered(parts.begin(), parts.end());
    llvm::sort(ordered, [](Value x, Value y) {
      return firstLimb(cast<PolyType>(x.getType())) <
             firstLimb(cast<PolyType>(y.getType()));
    });
    bool inOrder = true;
    for (size_t i = 1; i < ordered.size(); ++i)
      if (!(lastLimb(cast<PolyType>(ordered[i - 1].getType())) <
            firstLimb(cast<PolyType>(ordered[i].getType()))))
        inOrder = false;
    SmallVector<Value> joined;
    if (inOrder) {
      joined = ordered;
    } else {
      SmallVector<std::pair<Limb, Value>> split;
      for (Value v : parts) {
        auto t = cast<PolyType>(v.getType());
        if (t.getNumQ() && t.getNumP()) {
          split.push_back({firstLimb(qRun(t)), slice(b, v, qRun(t), d)});
          split.push_back({firstLimb(pRun(t)), slice(b, v, pRun(t), d)});
        } else {
          split.push_back({firstLimb(t), v});
        }
      }
      llvm::sort(split, [](auto &x, auto &y) { return x.first < y.first; });
      for (auto &r : split)
        joined.push_back(r.second);
    }
    return call(b, loc, "concat", want, joined, d).getResult(0);
  }

  /// The whole of `v` on device d: its pieces sent there and joined (once
  /// per value and device).
  Value gather(OpBuilder &b, Value v, int64_t d) {
    auto key = std::make_pair(v.getAsOpaquePointer(), d);
    if (auto it = gathered_.find(key); it != gathered_.end())
      return it->second;
    SmallVector<Value> parts;
    for (int64_t e = 0; e < k_; ++e)
      if (Value p = piece(v, e))
        parts.push_back(e == d ? p : transfer(b, p, e, d));
    Value whole =
        assemble(b, v.getLoc(), parts, cast<PolyType>(v.getType()), d);
    gathered_[key] = whole;
    return whole;
  }

  /// Device d's piece of `v` (null: it holds none of v's limbs). Constants,
  /// zeros and keys are made on each device that reads them, at first use:
  /// keys whole, zeros over the share, constants whole and viewed.
  Value piece(Value v, int64_t d) {
    Operation *def = v.getDefiningOp();
    if (def && free_.count(def)) {
      auto key = std::make_pair(v.getAsOpaquePointer(), d);
      if (auto it = made_.find(key); it != made_.end())
        return it->second;
      Value m;
      auto t = dyn_cast<PolyType>(v.getType());
      PolyType s = t ? share(t, d) : PolyType();
      if (!t || s) {
        OpBuilder b(def);
        Operation *c = b.clone(*def);
        c->setAttr("device", b.getI64IntegerAttr(d));
        m = c->getResult(0);
        // A constant is encoded whole (the encoder checks that its values
        // fit the level's Q, and rounds them as over Q_l), then viewed.
        auto callee = cast<kernel::CallOp>(def).getCallee();
        if (t && (callee == "encode" || callee == "encode_values"))
          m = slice(b, m, s, d);
        else if (t)
          m.setType(s);
      }
      made_[key] = m;
      return m;
    }
    auto it = pieces_.find(v);
    return it == pieces_.end() ? Value() : it->second[d];
  }

  LogicalResult split(Operation *op) {
    OpBuilder b(op);
    SmallVector<SmallVector<Value>> out(op->getNumResults(),
                                        SmallVector<Value>(k_));
    if (auto r = dyn_cast<func::ReturnOp>(op)) {
      for (OpOperand &o : r->getOpOperands())
        if (isa<PolyType>(o.get().getType()))
          o.set(gather(b, o.get(), 0));
      return success();
    }
    if (auto v = dyn_cast<kernel::ViewOp>(op)) {
      auto rt = cast<PolyType>(v.getType());
      for (int64_t d = 0; d < k_; ++d)
        if (PolyType s = share(rt, d)) {
          Value src = piece(v.getSource(), d);
          if (!src)
            return op->emitOpError(
                       "kernel-partition-devices partition=limbs: a "
                       "view's source has no limbs on device ")
                   << d;
          out[0][d] = slice(b, src, s, d);
        }
    } else if (auto l = dyn_cast<kernel::LaunchOp>(op)) {
      for (int64_t d = 0; d < k_; ++d)
        if (failed(splitLaunch(b, l, d, out)))
          return failure();
    } else if (auto c = dyn_cast<kernel::CallOp>(op)) {
      StringRef callee = c.getCallee();
      if (llvm::is_contained({"load_key", "encode", "encode_values", "zero"},
                             callee)) {
        free_.insert(op); // made per device at first use (piece)
        return success();
      }
      if (llvm::is_contained({"ntt", "intt", "automorphism", "bconv", "concat",
                              "ks_inner_product"},
                             callee)) {
        for (int64_t d = 0; d < k_; ++d)
          splitCall(b, c, d, out);
      } else {
        return op->emitOpError(
                   "kernel-partition-devices partition=limbs cannot "
                   "split '")
               << callee
               << "' over devices (ModUp and ModDown must be expanded: "
                  "expand-modswitch=true; CKKS with hybrid key switching)";
      }
    } else {
      return op->emitOpError("kernel-partition-devices: not a kernel op");
    }
    for (auto [r, ps] : llvm::zip(op->getResults(), out))
      pieces_[r] = ps;
    return success();
  }

  void splitCall(OpBuilder &b, kernel::CallOp c, int64_t d,
                 SmallVector<SmallVector<Value>> &out) {
    StringRef callee = c.getCallee();
    SmallVector<Type> types;
    for (Value r : c.getResults()) {
      PolyType s = share(cast<PolyType>(r.getType()), d);
      if (!s)
        return; // every result has the same basis: none on d
      types.push_back(s);
    }
    SmallVector<Value> ins;
    if (callee == "concat") {
      for (Value in : c.getInputs())
        if (Value p = piece(in, d))
          ins.push_back(p);
      out[0][d] = assemble(b, c.getLoc(), ins, cast<PolyType>(types[0]), d);
      return;
    }
    if (callee == "bconv") {
      ins.push_back(gather(b, c.getInputs()[0], d));
    } else {
      for (Value in : c.getInputs())
        ins.push_back(piece(in, d));
    }
    Operation *n = b.clone(*c);
    n->setOperands(ins);
    n->setAttr("device", b.getI64IntegerAttr(d));
    for (auto [r, t] : llvm::zip(n->getResults(), types))
      r.setType(t);
    for (auto [i, r] : llvm::enumerate(n->getResults()))
      out[i][d] = r;
  }

  /// Device d's clone of a generated kernel over its share. An input with
  /// no limbs on d is zero there: the body is rebuilt with it folded (x + 0,
  /// x - 0, 0 - x, products of 0), and a result that folds to zero is a
  /// `zero` call.
  LogicalResult splitLaunch(OpBuilder &b, kernel::LaunchOp l, int64_t d,
                            SmallVector<SmallVector<Value>> &out) {
    Block &old = l.getBody().front();
    // Which of the body's values are zero on d (an input with no limbs
    // there, an empty share, or folded from them), before anything is
    // built.
    DenseSet<Value> zero;
    SmallVector<Value> ins;
    for (auto [in, arg] : llvm::zip(l.getInputs(), old.getArguments())) {
      if (Value p = piece(in, d))
        ins.push_back(p);
      else
        zero.insert(arg);
    }
    auto isZero = [&](Value v) { return zero.count(v) > 0; };
    auto shareOf = [&](Value v) {
      auto t = dyn_cast<PolyType>(v.getType());
      return t ? share(t, d) : PolyType();
    };
    for (Operation &op : old.without_terminator()) {
      const bool empty = llvm::none_of(
          op.getResults(), [&](Value r) { return bool(shareOf(r)); });
      const bool zeroIn = llvm::any_of(op.getOperands(), isZero);
      bool folds = empty;
      if (zeroIn &&
          isa<rns::MulOp, rns::MulPOp, rns::MulConstOp, rns::MulInvOp,
              rns::NegOp, rns::NTTOp, rns::INTTOp, rns::AutomorphismOp>(op))
        folds = true;
      if (zeroIn && isa<rns::AddOp, rns::SubOp>(op))
        folds = isZero(op.getOperand(0)) && isZero(op.getOperand(1));
      if (folds)
        for (Value r : op.getResults())
          zero.insert(r);
      else if (zeroIn && !isa<rns::AddOp, rns::SubOp>(op))
        return op.emitOpError("kernel-partition-devices partition=limbs: an "
                              "operand has no limbs on device ")
               << d << " and the op does not fold with zero";
    }
    auto yield = cast<kernel::YieldOp>(old.getTerminator());
    SmallVector<Type> types;
    SmallVector<int> which; // l's result of each of the clone's
    for (auto [i, v] : llvm::enumerate(yield.getValues())) {
      PolyType s = shareOf(v);
      if (!s)
        continue;
      if (isZero(v)) {
        out[i][d] = call(b, l.getLoc(), "zero", s, {}, d).getResult(0);
        continue;
      }
      types.push_back(s);
      which.push_back(int(i));
    }
    if (types.empty())
      return success();
    auto n =
        kernel::LaunchOp::create(b, l.getLoc(), types, l.getNameAttr(), ins);
    for (NamedAttribute a : l->getAttrs())
      if (a.getName() != "name" && a.getName() != "bytes")
        n->setAttr(a.getName(), a.getValue());
    n->setAttr("device", b.getI64IntegerAttr(d));
    int64_t limbs = 0;
    for (Value v : ins)
      limbs += cast<PolyType>(v.getType()).getNumLimbs();
    for (Type t : types)
      limbs += cast<PolyType>(t).getNumLimbs();
    n->setAttr("bytes", b.getI64IntegerAttr(limbs * limbBytes_));
    // The body over d's share: x + 0, x - 0 -> x; 0 - y -> -y.
    Block *block = new Block();
    n.getBody().push_back(block);
    IRMapping map;
    for (auto [in, arg] : llvm::zip(l.getInputs(), old.getArguments()))
      if (!isZero(arg))
        map.map(arg, block->addArgument(piece(in, d).getType(), arg.getLoc()));
    OpBuilder bb = OpBuilder::atBlockEnd(block);
    for (Operation &op : old.without_terminator()) {
      if (isZero(op.getResult(0)))
        continue;
      if (isa<rns::AddOp, rns::SubOp>(op) &&
          llvm::any_of(op.getOperands(), isZero)) {
        Value x = op.getOperand(0), y = op.getOperand(1);
        if (isa<rns::AddOp>(op) || isZero(y)) {
          map.map(op.getResult(0), map.lookup(isZero(x) ? y : x));
        } else {
          auto neg = rns::NegOp::create(bb, op.getLoc(), map.lookup(y));
          map.map(op.getResult(0), neg.getResult());
        }
        continue;
      }
      if (auto mp = dyn_cast<rns::MulPOp>(op);
          mp && !share(cast<PolyType>(mp.getType()), d).hasP()) {
        // No P limb on this device: P x over its Q limbs is x times the
        // integer P.
        auto c = rns::MulConstOp::create(bb, op.getLoc(),
                                         map.lookup(mp.getInput()), pProduct());
        map.map(mp.getResult(), c.getResult());
        continue;
      }
      Operation *c = bb.clone(op, map);
      for (Value r : c->getResults())
        if (auto t = dyn_cast<PolyType>(r.getType()))
          r.setType(share(t, d));
    }
    SmallVector<Value> yielded;
    for (int i : which)
      yielded.push_back(map.lookup(yield.getValues()[i]));
    kernel::YieldOp::create(bb, yield.getLoc(), yielded);
    for (auto [j, i] : llvm::enumerate(which))
      out[i][d] = n.getResult(j);
    return success();
  }

  /// P, the product of the module's P primes, as mul_const's integer (a
  /// signless integer wide enough to read as positive).
  IntegerAttr pProduct() {
    auto params = ckks::ParamsAttr::lookup(f_);
    llvm::APInt prod(64, 1);
    for (uint64_t p : params.getP()) {
      prod = prod.zext(prod.getBitWidth() + 64);
      prod *= llvm::APInt(prod.getBitWidth(), p);
    }
    prod = prod.zextOrTrunc(std::max(64u, prod.getActiveBits() + 1));
    return IntegerAttr::get(
        IntegerType::get(f_.getContext(), prod.getBitWidth()), prod);
  }

  func::FuncOp f_;
  int64_t k_, limbBytes_;
  LimbSplitStats &stats_;
  SmallVector<int64_t> qb_, pb_;
  DenseMap<Value, SmallVector<Value>> pieces_;
  DenseSet<Operation *> free_;
  std::map<std::pair<void *, int64_t>, Value> made_, gathered_;
};

} // namespace

LogicalResult ember::splitLimbs(func::FuncOp f, int64_t k, int64_t limbBytes,
                                LimbSplitStats &stats) {
  return LimbSplit(f, k, limbBytes, stats).run();
}
