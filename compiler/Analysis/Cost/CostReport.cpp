//===- CostReport.cpp - static cost model of rns IR
//------------------------===//

#include "compiler/Analysis/Cost/CostReport.h"

#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

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
          for (size_t i = 0; i < md.getInputs().size(); ++i)
            modSwitch(out, in - out);
        })
        .Case<rns::RescaleOp>([&](rns::RescaleOp r) {
          ++c.rescale;
          int64_t out = limbs(r.getResults()[0]);
          for (size_t i = 0; i < r.getInputs().size(); ++i)
            modSwitch(out, 1);
        })
        .Case<rns::KSInnerProductOp>([&](rns::KSInnerProductOp ip) {
          ++c.innerProducts;
          int64_t d = limbs(ip.getDigits()[0]);
          int64_t k = ip.getDigits().size();
          c.limbsMoved += k * d + 2 * k * d + 2 * d; // digits, key, results
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
  Counter counter{cost, int64_t{1} << logN};
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

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t log = logN;
    if (auto params = ckks::ParamsAttr::lookup(module))
      log = params.getLogN();
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

    int64_t limbBytes = (int64_t{1} << log) * 8;
    llvm::raw_ostream &os = llvm::outs();
    module.walk([&](FunctionOpInterface func) {
      RNSCost c = computeRNSCost(func, log);
      os << "ember-cost-report @" << func.getName() << " (N = 2^" << log
         << ", one limb = N x 8 B = " << limbBytes
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
    });
    markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace ember
