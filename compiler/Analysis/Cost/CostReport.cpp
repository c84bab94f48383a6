//===- CostReport.cpp - static cost model of rns IR
//------------------------===//

#include "compiler/Analysis/Cost/CostReport.h"

#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "compiler/Analysis/Cost/KeySwitchCost.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>
#include <set>

#define DEBUG_TYPE "ember-cost-report"

namespace ember {
#define GEN_PASS_DEF_EMBERCOSTREPORT
#include "compiler/Analysis/Cost/CostReport.h.inc"
} // namespace ember

using namespace mlir;

namespace ember {
namespace {

using rns::PolyType;

int64_t limbs(Value v) { return cast<PolyType>(v.getType()).getNumLimbs(); }
int64_t limbs(ValueRange vs) {
  int64_t n = 0;
  for (Value v : vs)
    n += limbs(v);
  return n;
}

struct Counter {
  RNSCost &c;
  int64_t n; // ring degree
  /// KLSS key groups covering `limbs` limbs of Q_l u P (null: the key's).
  std::function<int64_t(int64_t)> groupsAt;

  void transform(int64_t &count, int64_t k) {
    count += k;
    c.limbsMoved += 2 * k;
  }
  void bconv(int64_t from, int64_t to) {
    ++c.bconv;
    c.bconvMacs += from * to * n;
    c.limbsMoved += from + to;
  }
  /// One polynomial's ModSwitch from `kept + dropped` limbs to `kept`:
  /// INTT(dropped), BConv dropped -> kept, NTT(kept), then the subtract
  /// and scale (reads x and the converted part, writes the result).
  void modSwitch(int64_t kept, int64_t dropped) {
    transform(c.intt, dropped);
    bconv(dropped, kept);
    transform(c.ntt, kept);
    ++c.elementwiseKernels;
    c.limbsMoved += 3 * kept;
  }

  void visit(Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case<rns::NTTOp>(
            [&](auto t) { transform(c.ntt, limbs(t.getInput())); })
        .Case<rns::INTTOp>(
            [&](auto t) { transform(c.intt, limbs(t.getInput())); })
        .Case<rns::BConvOp>(
            [&](auto t) { bconv(limbs(t.getInput()), limbs(t.getResult())); })
        .Case<rns::ModUpOp>([&](rns::ModUpOp up) {
          ++c.modUp;
          int64_t total = limbs(up.getResults()[0]);
          for (Value d : up.getDigits()) {
            int64_t own = limbs(d);
            transform(c.intt, own);
            bconv(own, total - own);
            transform(c.ntt, total - own);
            c.limbsMoved += 2 * own; // copy of the digit's own limbs
          }
        })
        .Case<rns::ModDownOp>([&](rns::ModDownOp md) {
          ++c.modDown;
          int64_t in = limbs(md.getInputs()[0]);
          int64_t out = limbs(md.getResults()[0]);
          bool ntt = cast<PolyType>(md.getInputs()[0].getType()).isNTT();
          for (size_t i = 0; i < md.getInputs().size(); ++i) {
            if (ntt) {
              modSwitch(out, in - out);
              // A lifted y: read by the epilogue (kept limbs) and the
              // pre-pass (dropped Q limbs, read and written once more).
              if (i < md.getLifted().size()) {
                int64_t yq = limbs(md.getLifted()[i]);
                c.limbsMoved += yq + 2 * (yq - out);
              }
              continue;
            }
            // Coefficient form (KLSS): BConv and subtract/scale only; the
            // NTT that follows is its own rns.ntt.
            bconv(in - out, out);
            ++c.elementwiseKernels;
            c.limbsMoved += 3 * out;
          }
        })
        .Case<rns::KlssModUpOp>([&](rns::KlssModUpOp up) {
          ++c.modUp;
          int64_t r = limbs(up.getResults()[0]);
          for (Value d : up.getDigits()) {
            int64_t own = limbs(d);
            transform(c.intt, own);
            bconv(own, r); // exact BConv to T
            transform(c.ntt, r);
          }
        })
        .Case<rns::KlssInnerProductOp>([&](rns::KlssInnerProductOp ip) {
          ++c.innerProducts;
          auto key = cast<rns::KlssKeyType>(ip.getKey().getType());
          int64_t r = key.getT(), out = limbs(ip.getAcc0());
          int64_t k = ip.getDigits().size();
          // Groups covering Q_l u P at this level: from the key's groups at
          // the top level, scaled down (the report has no gamma here).
          int64_t groups = groupsAt ? groupsAt(out) : key.getGroups();
          c.limbsMoved += k * r + 2 * k * groups * r + 2 * out;
          transform(c.intt, 2 * groups * r);
          for (int i = 0; i < 2; ++i)
            bconv(r, out); // exact BConv T -> every group's limbs
        })
        .Case<rns::RescaleOp>([&](rns::RescaleOp r) {
          ++c.rescale;
          // The limbs it drops (one, or a pair with double-prime scaling).
          int64_t out = limbs(r.getResults()[0]);
          int64_t dropped = limbs(r.getInputs()[0]) - out;
          for (size_t i = 0; i < r.getInputs().size(); ++i)
            modSwitch(out, dropped);
        })
        .Case<rns::KSInnerProductOp>([&](rns::KSInnerProductOp ip) {
          ++c.innerProducts;
          int64_t d = limbs(ip.getDigits()[0]);
          int64_t k = ip.getDigits().size();
          c.limbsMoved += k * d + 2 * k * d + 2 * d; // digits, key, results
        })
        .Case<rns::BfvTensorOp>([&](rns::BfvTensorOp h) {
          // BFV's HPS product: R has about one prime more than Q (60-bit
          // primes covering log Q + log N + log t + 3 bits).
          const int64_t k = limbs(h.getA0()), r = k + 1;
          transform(c.intt, 4 * k);
          for (int i = 0; i < 4; ++i)
            bconv(k, r); // exact extension Q -> R
          transform(c.ntt, 4 * r);
          transform(c.intt, 3 * (k + r));
          for (int i = 0; i < 3; ++i) {
            bconv(k, r); // scale-and-round to R
            bconv(r, k); // exact R -> Q
          }
          transform(c.ntt, 3 * k);
          c.elementwiseKernels += 2; // tensor, scale-and-round
          c.limbsMoved += 7 * (k + r) + 6 * k;
        })
        .Case<rns::AutomorphismOp>([&](rns::AutomorphismOp a) {
          ++c.automorphisms;
          c.limbsMoved += 2 * limbs(a.getInput());
        })
        .Case<rns::FusedOp>([&](rns::FusedOp f) {
          ++c.fusedRegions;
          bool hasTransform = false;
          f.getBody().walk([&](Operation *inner) {
            if (isa<rns::NTTOp>(inner))
              c.ntt += limbs(inner->getOperand(0));
            else if (isa<rns::INTTOp>(inner))
              c.intt += limbs(inner->getOperand(0));
            else
              return;
            hasTransform = true;
          });
          if (!hasTransform)
            ++c.elementwiseKernels;
          c.limbsMoved += limbs(f.getInputs()) + limbs(f.getResults());
        })
        .Default([&](Operation *other) {
          if (!other->hasTrait<rns::OpTrait::RNSElementwise>())
            return; // views, constants, key loads: no kernel of their own
          ++c.elementwiseKernels;
          c.limbsMoved +=
              limbs(other->getOperands()) + limbs(other->getResults());
        });
  }
};

} // namespace

RNSCost computeRNSCost(Operation *func, int64_t logN) {
  RNSCost cost;
  Counter counter{cost, int64_t{1} << logN, nullptr};
  if (auto params = ckks::ParamsAttr::lookup(func); params && params.hasKlss())
    counter.groupsAt = [params](int64_t qpLimbs) {
      return params.getKlssGroups(qpLimbs - params.getP().size() - 1);
    };
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != func && isa<rns::FusedOp>(op->getParentOp()))
      return WalkResult::skip();
    counter.visit(op);
    return isa<rns::FusedOp>(op) ? WalkResult::skip() : WalkResult::advance();
  });
  return cost;
}

namespace {

struct EmberCostReportPass : impl::EmberCostReportBase<EmberCostReportPass> {
  using EmberCostReportBase::EmberCostReportBase;

  /// The choices of rns-select-keyswitch (the ks.* attributes of each
  /// key-switch group's anchor), by level and kind, and key memory by form.
  static void reportKeySwitching(FunctionOpInterface func,
                                 llvm::raw_ostream &os) {
    struct Row {
      int64_t count = 0;
      double predicted = 0, hybrid = 0, klss = 0;
      bool hasKlss = false;
    };
    // (level desc, kind, method) -> totals.
    std::map<std::tuple<int64_t, std::string, std::string>, Row> rows;
    func.walk([&](Operation *op) {
      if (!isa<rns::ModUpOp, rns::KlssModUpOp>(op))
        return;
      auto method = op->getAttrOfType<StringAttr>("ks.method");
      if (!method)
        return;
      auto f = [&](StringRef name) {
        auto a = op->getAttrOfType<FloatAttr>(name);
        return a ? a.getValueAsDouble() : 0.0;
      };
      auto kind = op->getAttrOfType<StringAttr>("ks.kind");
      int64_t level = 0;
      if (auto up = dyn_cast<rns::ModUpOp>(op))
        level = cast<PolyType>(up.getResult(0).getType()).getNumQ() - 1;
      else
        for (Value d : op->getOperands())
          level = std::max<int64_t>(level,
                                    cast<PolyType>(d.getType()).getQHi() - 1);
      Row &r = rows[{-level, kind ? kind.str() : "?", method.str()}];
      ++r.count;
      r.predicted += f("ks.predicted_us");
      r.hybrid += f("ks.hybrid_us");
      r.klss += f("ks.klss_us");
      r.hasKlss |= op->hasAttr("ks.klss_us");
    });
    if (rows.empty())
      return;
    os << "  key switching (rns-select-keyswitch; predicted us, the other "
          "method in brackets):\n";
    double total = 0;
    for (auto &[key, r] : rows) {
      auto &[negLevel, kind, method] = key;
      total += r.predicted;
      double other = method == "klss" ? r.hybrid : r.klss;
      os << llvm::format("    level %2lld %-12s x%-3lld %-6s %9.1f us",
                         (long long)-negLevel, kind.c_str(), (long long)r.count,
                         method.c_str(), r.predicted);
      if (r.hasKlss)
        os << llvm::format("  (%s %.1f us)",
                           method == "klss" ? "hybrid" : "klss", other);
      os << "\n";
    }
    os << llvm::format("    total predicted:       %.1f us\n", total);
    // Key memory by form.
    auto params = ckks::ParamsAttr::lookup(func);
    // By Galois element; -1 relinearization, -2 and -3 bootstrapping's
    // encapsulation keys (to_sparse has one digit).
    std::set<std::pair<bool, int64_t>> keys;
    func.walk([&](rns::LoadKeyOp k) {
      int64_t id = k.getGalois() ? int64_t(*k.getGalois()) : -1;
      if (auto e = k.getEncapsulation())
        id = *e == "to_sparse" ? -2 : -3;
      keys.insert({isa<rns::KlssKeyType>(k.getType()), id});
    });
    int64_t hybrid = 0, klss = 0;
    bool toSparse = false;
    for (auto [isKlss, g] : keys) {
      ++(isKlss ? klss : hybrid);
      toSparse |= g == -2;
    }
    if (params) {
      uint64_t hb = (hybrid - (toSparse ? 1 : 0)) * params.getHybridKeyBytes() +
                    (toSparse ? params.getToSparseKeyBytes() : 0);
      uint64_t kb = klss ? klss * params.getKlssKeyBytes() : 0;
      os << "  key memory: hybrid " << hybrid << " key(s) " << hb
         << " bytes, klss " << klss << " key(s) " << kb << " bytes, total "
         << hb + kb << " bytes\n";
    }
  }

  /// The automatic bootstrap placement fhe-to-ckks recorded
  /// (ember.bootstrap_placement, PlaceBootstraps.h), if any.
  static void reportPlacement(FunctionOpInterface func, llvm::raw_ostream &os) {
    auto placement =
        func->getAttrOfType<DictionaryAttr>("ember.bootstrap_placement");
    if (!placement)
      return;
    auto i64 = [&](StringRef name) {
      auto a = placement.getAs<IntegerAttr>(name);
      return a ? a.getInt() : int64_t{0};
    };
    auto f64 = [&](StringRef name) {
      auto a = placement.getAs<FloatAttr>(name);
      return a ? a.getValueAsDouble() : 0.0;
    };
    auto units = placement.getAs<StringAttr>("units");
    std::string u = units ? units.str() : "";
    const int64_t count = i64("bootstraps");
    const double each = f64("bootstrap_cost"), ops = f64("op_cost");
    os << "  bootstrap placement (bootstrap=auto, " << i64("levels")
       << " levels between bootstraps; predicted " << u << "):\n";
    os << llvm::format("    %lld bootstrap(s) x %.1f = %.1f, ops %.1f, "
                       "total %.1f\n",
                       (long long)count, each, each * count, ops,
                       each * count + ops);
    if (auto sites = placement.getAs<ArrayAttr>("sites"))
      for (auto [k, site] : llvm::enumerate(sites))
        os << "    bootstrap " << k + 1 << " of the value at "
           << cast<StringAttr>(site).getValue()
           << llvm::format(": %.1f\n", each);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t log = logN, wordBytes = 8;
    if (auto params = ckks::ParamsAttr::lookup(module)) {
      log = params.getLogN();
      wordBytes = params.getWordBytes();
    }
    if (log <= 0) {
      module.emitError("ember-cost-report needs #ckks.params on the module "
                       "or the log-n option");
      return signalPassFailure();
    }
    bool hasCkks = false;
    module.walk([&](Operation *op) {
      hasCkks |= isa<ckks::CKKSDialect>(op->getDialect());
    });
    if (hasCkks)
      module.emitWarning("ember-cost-report counts rns ops only; run "
                         "ckks-to-rns first to cost the ckks ops");

    int64_t limbBytes = (int64_t{1} << log) * wordBytes;
    llvm::raw_ostream &os = llvm::outs();
    module.walk([&](FunctionOpInterface func) {
      RNSCost c = computeRNSCost(func, log);
      os << "ember-cost-report @" << func.getName() << " (N = 2^" << log
         << ", one limb = N x " << wordBytes << " B = " << limbBytes
         << " B, every kernel reads its inputs and writes its outputs once)\n";
      os << "  ntt limb-transforms:    " << c.ntt << "\n";
      os << "  intt limb-transforms:   " << c.intt << "\n";
      os << "  bconv:                  " << c.bconv << " (" << c.bconvMacs
         << " multiply-adds)\n";
      os << "  mod_up:                 " << c.modUp << "\n";
      os << "  mod_down:               " << c.modDown << "\n";
      os << "  rescale:                " << c.rescale << "\n";
      os << "  modulus switches:       " << c.modulusSwitches() << "\n";
      os << "  ks_inner_product:       " << c.innerProducts << "\n";
      os << "  automorphism:           " << c.automorphisms << "\n";
      os << "  elementwise kernels:    " << c.elementwiseKernels << "\n";
      os << "  fusion regions:         " << c.fusedRegions << "\n";
      os << "  bytes moved:            " << c.limbsMoved * limbBytes << "\n";
      reportKeySwitching(func, os);
      reportPlacement(func, os);
    });
    markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace ember
