//===- SelectKeySwitch.cpp - rns-select-keyswitch -------------------------===//
//
// 1. Find the key-switch groups: a hybrid rns.mod_up, the inner products
//    reading its digits (directly or through one automorphism), the sums of
//    their accumulators and the mod_downs ending them.
// 2. Predict hybrid and KLSS time per group (KeySwitchCost.h); choose.
// 3. Fit the evaluation keys into the memory budget (back to hybrid, least
//    benefit per byte first).
// 4. Rewrite the KLSS groups and annotate every group.
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/SelectKeySwitch/SelectKeySwitch.h"
#include "compiler/Analysis/Cost/KeySwitchCost.h"

#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/RNS/IR/RNSOps.h"
#include "ember/errors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"

#include <map>
#include <set>
#include <vector>

#define DEBUG_TYPE "rns-select-keyswitch"

namespace ember {
#define GEN_PASS_DEF_RNSSELECTKEYSWITCH
#include "compiler/Transforms/SelectKeySwitch/SelectKeySwitch.h.inc"
} // namespace ember

using namespace mlir;

namespace ember {
namespace {

using rns::Form;
using rns::PolyType;

/// A key's identity: relinearisation (-1) or a Galois element.
using KeyId = int64_t;
constexpr KeyId kRelin = -1;

struct Group {
  rns::ModUpOp modUp;
  Operation *anchor = nullptr; ///< mod_up or klss_mod_up: gets ks.* attrs
  int64_t level = 0;
  SmallVector<rns::KSInnerProductOp> products;
  SmallVector<rns::AutomorphismOp> automorphisms;
  /// Accumulators and the sums over them (retyped to coefficient form).
  SetVector<Value> sums;
  SmallVector<rns::ModDownOp> modDowns;
  std::set<KeyId> keys;
  bool convertible = true;
  /// Uses an encapsulation key (hybrid form only; method=klss leaves it).
  bool encapsulation = false;
  double hybridUs = 0, klssUs = 0;
  bool klss = false;
};

KeyId keyIdOf(rns::KSInnerProductOp ip) {
  auto load = ip.getKey().getDefiningOp<rns::LoadKeyOp>();
  if (load && load.getGalois())
    return *load.getGalois();
  return kRelin;
}

std::string keyName(KeyId k) {
  return k == kRelin ? std::string("relin") : "galois " + std::to_string(k);
}

/// Collects the group of `up`; `convertible` is false when something other
/// than the shapes ckks-to-rns makes reads its values.
Group collect(rns::ModUpOp up) {
  Group g;
  g.modUp = up;
  g.anchor = up;
  g.level = cast<PolyType>(up.getResult(0).getType()).getNumQ() - 1;
  SetVector<Operation *> products;
  DenseMap<Value, bool> raised;
  for (Value r : up.getResults())
    raised[r] = true;
  for (Value r : up.getResults())
    for (Operation *user : r.getUsers()) {
      if (auto ip = dyn_cast<rns::KSInnerProductOp>(user)) {
        products.insert(ip);
      } else if (auto a = dyn_cast<rns::AutomorphismOp>(user)) {
        g.automorphisms.push_back(a);
        for (Operation *u : a->getUsers()) {
          if (isa<rns::KSInnerProductOp>(u))
            products.insert(u);
          else
            g.convertible = false;
        }
      } else {
        g.convertible = false;
      }
    }
  for (Operation *op : products) {
    auto ip = cast<rns::KSInnerProductOp>(op);
    g.products.push_back(ip);
    g.keys.insert(keyIdOf(ip));
    // Bootstrapping's encapsulation keys exist in hybrid form only.
    auto load = ip.getKey().getDefiningOp<rns::LoadKeyOp>();
    if (!load || load.getEncapsulation())
      g.convertible = false;
    if (load && load.getEncapsulation())
      g.encapsulation = true;
    for (Value d : ip.getDigits()) {
      auto a = d.getDefiningOp<rns::AutomorphismOp>();
      Value src = a ? a.getInput() : d;
      if (!raised.count(src))
        g.convertible = false;
    }
    g.sums.insert(ip.getAcc0());
    g.sums.insert(ip.getAcc1());
  }
  // Sums of accumulators: adds/subs whose operands are both in the group,
  // to a fixpoint (the use lists come in any order, so a chain
  // ((a0 + a1) + a2) + a3 may be met from a3 first).
  // Products by constants (ckks.hoisted_dot's weights over Q_l u P) are
  // terms too; KLSS does not take them (its accumulators are in
  // coefficient form).
  auto inSums = [&](Value v) { return g.sums.contains(v); };
  auto weighted = [&](Operation *user) {
    auto mul = dyn_cast<rns::MulOp>(user);
    return mul && (inSums(mul.getLhs()) || inSums(mul.getRhs())) &&
           (mul.getLhs().getDefiningOp<rns::EncodeOp>() ||
            mul.getRhs().getDefiningOp<rns::EncodeOp>());
  };
  // Lifted terms (P y over Q_l u P, possibly times a constant) join sums.
  auto lifted = [](Value v) {
    if (auto mul = v.getDefiningOp<rns::MulOp>())
      return (mul.getLhs().getDefiningOp<rns::MulPOp>() &&
              mul.getRhs().getDefiningOp<rns::EncodeOp>()) ||
             (mul.getRhs().getDefiningOp<rns::MulPOp>() &&
              mul.getLhs().getDefiningOp<rns::EncodeOp>());
    return static_cast<bool>(v.getDefiningOp<rns::MulPOp>());
  };
  auto sumOrLifted = [&](Value v) { return inSums(v) || lifted(v); };
  auto liftedSum = [&](Operation *user) {
    return isa<rns::AddOp, rns::SubOp>(user) &&
           llvm::all_of(user->getOperands(), sumOrLifted) &&
           !llvm::all_of(user->getOperands(), inSums);
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < g.sums.size(); ++i)
      for (Operation *user : g.sums[i].getUsers())
        if ((isa<rns::AddOp, rns::SubOp>(user) &&
             llvm::all_of(user->getOperands(), inSums)) ||
            weighted(user) || liftedSum(user))
          grew |= g.sums.insert(user->getResult(0));
  }
  for (size_t i = 0; i < g.sums.size(); ++i)
    for (Operation *user : g.sums[i].getUsers()) {
      if (weighted(user) || liftedSum(user)) {
        g.convertible = false;
      } else if (isa<rns::AddOp, rns::SubOp>(user)) {
        if (!inSums(user->getResult(0)))
          g.convertible = false;
      } else if (auto md = dyn_cast<rns::ModDownOp>(user)) {
        if (!llvm::is_contained(g.modDowns, md))
          g.modDowns.push_back(md);
        if (!llvm::all_of(md.getInputs(),
                          [&](Value v) { return g.sums.contains(v); }))
          g.convertible = false;
      } else {
        g.convertible = false;
      }
    }
  if (g.products.empty())
    g.convertible = false;
  return g;
}

KeySwitchGroup shapeOf(const Group &g) {
  KeySwitchGroup s;
  s.level = g.level;
  s.innerProducts = g.products.size();
  s.automorphisms = g.automorphisms.size();
  s.modDowns = std::max<int64_t>(1, g.modDowns.size());
  return s;
}

/// Rewrites one group to KLSS (see the pass description).
void rewriteToKlss(Group &g, ckks::ParamsAttr params,
                   DenseMap<Operation *, Value> &klssKeys) {
  MLIRContext *ctx = params.getContext();
  const unsigned r = params.getT().size();
  PolyType tPoly = PolyType::getT(ctx, Form::ntt, 0, r);
  OpBuilder b(g.modUp);
  Location loc = g.modUp.getLoc();
  SmallVector<Type> tTypes(g.modUp.getDigits().size(), tPoly);
  auto up = rns::KlssModUpOp::create(b, loc, tTypes, g.modUp.getDigits());
  for (NamedAttribute a : g.modUp->getDiscardableAttrs())
    up->setAttr(a.getName(), a.getValue());
  DenseMap<Value, Value> tOf; // raised digit (or its automorphism) -> T
  for (auto [old, t] : llvm::zip(g.modUp.getResults(), up.getResults()))
    tOf[old] = t;
  for (rns::AutomorphismOp a : g.automorphisms) {
    b.setInsertionPoint(a);
    tOf[a.getResult()] = rns::AutomorphismOp::create(
        b, a.getLoc(), tPoly, tOf.lookup(a.getInput()), a.getGaloisAttr());
  }
  auto keyType =
      rns::KlssKeyType::get(ctx, params.getDigitSizes().size(),
                            params.getKlssGroups(params.getQ().size() - 1), r);
  for (rns::KSInnerProductOp ip : g.products) {
    auto load = ip.getKey().getDefiningOp<rns::LoadKeyOp>();
    Value &key = klssKeys[load];
    if (!key) {
      b.setInsertionPointAfter(load);
      key = rns::LoadKeyOp::create(b, load.getLoc(), keyType,
                                   load.getGaloisAttr(), StringAttr());
    }
    SmallVector<Value> digits;
    for (Value d : ip.getDigits())
      digits.push_back(tOf.lookup(d));
    b.setInsertionPoint(ip);
    PolyType acc = cast<PolyType>(ip.getAcc0().getType()).withForm(Form::coeff);
    auto kip =
        rns::KlssInnerProductOp::create(b, ip.getLoc(), acc, acc, digits, key);
    ip.getAcc0().replaceAllUsesWith(kip.getAcc0());
    ip.getAcc1().replaceAllUsesWith(kip.getAcc1());
  }
  // The sums over the accumulators now add coefficient-form polynomials.
  for (Value v : g.sums)
    if (auto res = dyn_cast<OpResult>(v);
        res && isa<rns::AddOp, rns::SubOp>(res.getOwner()))
      v.setType(cast<PolyType>(v.getType()).withForm(Form::coeff));
  // ModDown in coefficient form, then one NTT per result.
  for (rns::ModDownOp md : g.modDowns) {
    b.setInsertionPoint(md);
    SmallVector<Type> coeffTypes;
    for (Type t : md.getResultTypes())
      coeffTypes.push_back(cast<PolyType>(t).withForm(Form::coeff));
    auto down =
        rns::ModDownOp::create(b, md.getLoc(), coeffTypes, md.getInputs(),
                               md.getLifted(), md.getLiftedGaloisAttr());
    for (auto [old, c] : llvm::zip(md.getResults(), down.getResults()))
      old.replaceAllUsesWith(
          rns::NTTOp::create(b, md.getLoc(), old.getType(), c).getResult());
    md->erase();
  }
  for (rns::KSInnerProductOp ip : g.products) {
    auto load = ip.getKey().getDefiningOp<rns::LoadKeyOp>();
    ip->erase();
    if (load->use_empty())
      load->erase();
  }
  for (rns::AutomorphismOp a : g.automorphisms)
    a->erase();
  g.modUp->erase();
  g.modUp = nullptr;
  g.anchor = up;
}

std::string mib(uint64_t bytes) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.1f MiB", bytes / 1048576.0);
  return s;
}

struct RNSSelectKeySwitchPass
    : impl::RNSSelectKeySwitchBase<RNSSelectKeySwitchPass> {
  using RNSSelectKeySwitchBase::RNSSelectKeySwitchBase;

  /// Bytes of the distinct keys under the current choices.
  uint64_t keyBytes(const std::vector<Group> &groups,
                    ckks::ParamsAttr params) const {
    std::set<KeyId> hybrid, klss;
    for (const Group &g : groups)
      (g.klss ? klss : hybrid).insert(g.keys.begin(), g.keys.end());
    uint64_t bytes = hybrid.size() * params.getHybridKeyBytes();
    if (!klss.empty())
      bytes += klss.size() * params.getKlssKeyBytes();
    return bytes;
  }

  void printPerLevel(ckks::ParamsAttr params, const KeySwitchConstants &c) {
    llvm::raw_ostream &os = llvm::outs();
    os << "rns-select-keyswitch table: N = 2^" << params.getLogN()
       << ", L+1 = " << params.getQ().size() << ", K = " << params.getP().size()
       << ", dnum = " << params.getDnum();
    if (params.hasKlss())
      os << ", gamma = " << params.getGamma()
         << ", r' = " << params.getT().size();
    os << "; predicted us per key switch (relin: 1 product + ModDown; "
          "rotate: + automorphism of c0, c1)\n";
    c.print(os);
    os << "  level  hybrid-relin  klss-relin  hybrid-rot  klss-rot\n";
    // Limb levels (l + 1 Q primes), as the rns types count them.
    for (int64_t l = static_cast<int64_t>(params.getQ().size()) - 1; l >= 0;
         --l) {
      KeySwitchGroup relin{l, 1, 0, 1, 0}, rot{l, 1, 0, 1, 2};
      double hr = hybridWork(params, relin).us(c, params.getLogN());
      double hg = hybridWork(params, rot).us(c, params.getLogN());
      os << llvm::format("  %5lld  %12.1f", (long long)l, hr);
      if (params.hasKlss())
        os << llvm::format("  %10.1f",
                           klssWork(params, relin).us(c, params.getLogN()));
      else
        os << "           -";
      os << llvm::format("  %10.1f", hg);
      if (params.hasKlss())
        os << llvm::format("  %8.1f",
                           klssWork(params, rot).us(c, params.getLogN()));
      else
        os << "         -";
      os << "\n";
    }
  }

  /// The parameters with the KLSS form (gamma, the fewest T primes) that
  /// minimises the groups' predicted time, each group taking the faster
  /// method; `params` itself unless that saves kMinFormGain of all-hybrid's.
  /// Without a key budget, a form whose keys (those loaded in both forms
  /// counted twice) exceed kMaxFormKeyGrowth x the all-hybrid keys is not
  /// a candidate; with one, the budget decides below.
  FailureOr<ckks::ParamsAttr> bestKlssForm(ckks::ParamsAttr params,
                                           const std::vector<Group> &groups,
                                           const KeySwitchConstants &consts) {
    const int64_t logN = params.getLogN();
    double hybrid = 0;
    std::set<KeyId> all;
    for (const Group &g : groups) {
      hybrid += hybridWork(params, shapeOf(g)).us(consts, logN);
      all.insert(g.keys.begin(), g.keys.end());
    }
    const double hybridBytes =
        static_cast<double>(all.size() * params.getHybridKeyBytes());
    ckks::ParamsAttr best = params;
    double bestUs = hybrid;
    const int64_t primes =
        static_cast<int64_t>(params.getQ().size() + params.getP().size());
    for (int64_t gamma = 1; gamma <= std::min<int64_t>(16, primes); ++gamma) {
      std::vector<uint64_t> t;
      try {
        t = ckks::fewestTPrimes(logN, params.getQ(), params.getP(),
                                params.getDnum(), gamma, params.getWord());
      } catch (const ember::Error &) {
        return failure();
      }
      auto trial = ckks::ParamsAttr::get(
          &getContext(), logN, params.getQ(), params.getP(),
          params.getLogScale(), params.getDnum(), params.getSecurity(), t,
          gamma, params.getH(), params.getWord(), params.getScalePrimes(),
          params.getPlain(), params.getBfv());
      double us = 0;
      std::set<KeyId> hybridKeys, klssKeys;
      for (const Group &g : groups) {
        KeySwitchGroup shape = shapeOf(g);
        double h = hybridWork(trial, shape).us(consts, logN);
        double k = g.convertible ? klssWork(trial, shape).us(consts, logN) : h;
        us += std::min(h, k);
        (k < h ? klssKeys : hybridKeys).insert(g.keys.begin(), g.keys.end());
      }
      const double bytes =
          static_cast<double>(hybridKeys.size() * trial.getHybridKeyBytes() +
                              klssKeys.size() * trial.getKlssKeyBytes());
      LLVM_DEBUG(llvm::dbgs()
                 << "klss-form: gamma " << gamma << ", r' " << t.size() << ": "
                 << us << " us (hybrid " << hybrid << "), keys " << bytes
                 << " bytes (" << hybridBytes << ")\n");
      if (!memoryBudgetMiB && bytes > kMaxFormKeyGrowth * hybridBytes)
        continue;
      if (us < bestUs) {
        best = trial;
        bestUs = us;
      }
    }
    return bestUs <= hybrid * (1 - kMinFormGain) ? best : params;
  }

  /// The predicted saving a KLSS form added by klss-form must reach: its
  /// keys come on top of the hybrid ones (poly_net: +5.9 GB for a predicted
  /// 1.3%), and the model's error against measured key switches is -15% to
  /// +13% per operation (bench/RESULTS.md, issue 7).
  static constexpr double kMinFormGain = 0.05;
  /// Without a key budget, the key memory a form added by klss-form may
  /// reach, relative to all-hybrid keys (the training example's best form
  /// would take 36.7 GB of keys instead of 14.2).
  static constexpr double kMaxFormKeyGrowth = 1.5;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto params = ckks::ParamsAttr::lookup(module);
    if (!params) {
      module.emitError("rns-select-keyswitch needs the module's #ckks.params");
      return signalPassFailure();
    }
    KeySwitchConstants consts = KeySwitchConstants::forWord(params.getWord());
    if (std::string err = consts.parse(constants); !err.empty()) {
      module.emitError("rns-select-keyswitch: ") << err;
      return signalPassFailure();
    }
    if (method != "auto" && method != "hybrid" && method != "klss") {
      module.emitError("rns-select-keyswitch: method must be auto, hybrid or "
                       "klss, got '")
          << method << "'";
      return signalPassFailure();
    }
    if (memoryBudgetMiB < 0) {
      module.emitError("rns-select-keyswitch: memory-budget-mib must be "
                       "non-negative");
      return signalPassFailure();
    }
    if (printTable) {
      printPerLevel(params, consts);
      markAllAnalysesPreserved();
      return;
    }

    std::vector<Group> groups;
    module.walk([&](rns::ModUpOp up) { groups.push_back(collect(up)); });
    if (groups.empty())
      return markAllAnalysesPreserved();
    if (method == "klss" && !params.hasKlss()) {
      module.emitError("rns-select-keyswitch: method=klss needs a KLSS form "
                       "in #ckks.params, but the parameters have no ")
          << (params.getT().empty() ? "temporary primes T" : "T")
          << (params.getGamma() ? "" : " and no gamma")
          << " (use a named set, or fhe-to-ckks klss-gamma=...)";
      return signalPassFailure();
    }

    const int64_t logN = params.getLogN();
    ckks::ParamsAttr original = params;
    if (klssForm && method == "auto" && !params.hasKlss()) {
      FailureOr<ckks::ParamsAttr> form = bestKlssForm(params, groups, consts);
      if (failed(form)) {
        module.emitError("rns-select-keyswitch: klss-form: cannot generate "
                         "the temporary primes T");
        return signalPassFailure();
      }
      params = *form;
    }

    // Predict and choose.
    for (Group &g : groups) {
      KeySwitchGroup shape = shapeOf(g);
      g.hybridUs = hybridWork(params, shape).us(consts, logN);
      if (params.hasKlss())
        g.klssUs = klssWork(params, shape).us(consts, logN);
      bool can = params.hasKlss() && g.convertible;
      if (method == "klss" && !g.convertible && !g.encapsulation) {
        g.modUp.emitError("rns-select-keyswitch: method=klss, but this key "
                          "switch's values are used outside the key-switch "
                          "chain, so it cannot be rewritten");
        return signalPassFailure();
      }
      g.klss = can && (method == "klss" ||
                       (method == "auto" && g.klssUs < g.hybridUs));
    }

    // Memory budget.
    const uint64_t budget = static_cast<uint64_t>(memoryBudgetMiB) << 20;
    if (budget && keyBytes(groups, params) > budget && method == "auto") {
      // Units: the keys used in KLSS form. Moving a key back to hybrid saves
      // its KLSS bytes minus the hybrid bytes it adds when no group loads
      // it in hybrid form yet; its cost is the summed benefit of its groups.
      for (;;) {
        if (keyBytes(groups, params) <= budget)
          break;
        std::map<KeyId, double> benefit;
        std::set<KeyId> hybridKeys;
        for (const Group &g : groups) {
          if (!g.klss)
            hybridKeys.insert(g.keys.begin(), g.keys.end());
          else
            for (KeyId k : g.keys)
              benefit[k] += g.hybridUs - g.klssUs;
        }
        if (benefit.empty())
          break;
        KeyId worst = 0;
        double worstRatio = 0;
        bool found = false;
        for (auto [k, b] : benefit) {
          double saved =
              static_cast<double>(params.getKlssKeyBytes()) -
              (hybridKeys.count(k) ? 0.0 : params.getHybridKeyBytes());
          double ratio = saved > 0 ? b / saved : 1e300;
          if (!found || ratio < worstRatio) {
            worst = k;
            worstRatio = ratio;
            found = true;
          }
        }
        LLVM_DEBUG(llvm::dbgs()
                   << "budget: " << keyName(worst) << " back to hybrid\n");
        for (Group &g : groups)
          if (g.klss && g.keys.count(worst))
            g.klss = false;
      }
    }
    // A KLSS form this pass added and no group uses any more is dropped.
    if (params != original &&
        llvm::none_of(groups, [](const Group &g) { return g.klss; }))
      params = original;
    if (params != original)
      module->setAttr(ckks::CKKSDialect::kParamsAttrName, params);
    if (budget && keyBytes(groups, params) > budget) {
      uint64_t need = keyBytes(groups, params);
      module.emitError("rns-select-keyswitch: the evaluation keys need ")
          << need << " bytes (" << mib(need) << ", "
          << (method == "klss" ? "KLSS" : "hybrid")
          << " key switching) but memory-budget-mib = "
          << static_cast<int64_t>(memoryBudgetMiB) << " allows " << budget
          << " bytes";
      return signalPassFailure();
    }

    // Rewrite and annotate.
    DenseMap<Operation *, Value> klssKeys;
    Builder b(&getContext());
    for (Group &g : groups) {
      if (g.klss)
        rewriteToKlss(g, params, klssKeys);
      Operation *a = g.anchor;
      a->setAttr("ks.method", b.getStringAttr(g.klss ? "klss" : "hybrid"));
      a->setAttr("ks.predicted_us",
                 b.getF64FloatAttr(g.klss ? g.klssUs : g.hybridUs));
      a->setAttr("ks.hybrid_us", b.getF64FloatAttr(g.hybridUs));
      if (params.hasKlss())
        a->setAttr("ks.klss_us", b.getF64FloatAttr(g.klssUs));
      std::string kind = g.products.size() > 1
                             ? "hoisted x" + std::to_string(g.products.size())
                         : g.keys.count(kRelin) ? "relin"
                                                : "galois";
      a->setAttr("ks.kind", b.getStringAttr(kind));
    }
    if (print) {
      llvm::raw_ostream &os = llvm::outs();
      consts.print(os);
      for (const Group &g : groups) {
        KeySwitchGroup shape = shapeOf(g);
        os << "rns-select-keyswitch: level " << shape.level << ", "
           << shape.innerProducts << " product(s) (";
        bool first = true;
        for (KeyId k : g.keys) {
          os << (first ? "" : ", ") << keyName(k);
          first = false;
        }
        os << "): " << (g.klss ? "klss" : "hybrid")
           << llvm::format(", hybrid %.1f us", g.hybridUs);
        if (params.hasKlss())
          os << llvm::format(", klss %.1f us", g.klssUs);
        os << "\n";
      }
      uint64_t bytes = keyBytes(groups, params);
      os << "rns-select-keyswitch: evaluation keys " << bytes << " bytes ("
         << mib(bytes) << ")\n";
    }
  }
};

} // namespace
} // namespace ember
