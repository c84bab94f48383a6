//===- RecordInterface.cpp - ckks-record-interface ------------------------===//
#include "compiler/Transforms/RecordInterface/RecordInterface.h"
#include "dialects/BGV/IR/BGVDialect.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/FHE/IR/FHEDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#define DEBUG_TYPE "ckks-record-interface"

namespace ember {
#define GEN_PASS_DEF_CKKSRECORDINTERFACE
#include "compiler/Transforms/RecordInterface/RecordInterface.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember;

namespace {

struct RecordInterfacePass
    : ember::impl::CKKSRecordInterfaceBase<RecordInterfacePass> {
  void runOnOperation() override {
    auto params = ckks::ParamsAttr::lookup(getOperation());
    for (auto f : getOperation().getOps<func::FuncOp>()) {
      Builder b(f.getContext());
      const bool bgv = params && params.isBgv();
      auto entry = [&](StringRef name, Type t, Attribute range = {},
                       Attribute budget = {}) -> FailureOr<Attribute> {
        // A plaintext argument: slot values the server gets at run time.
        if (auto v = dyn_cast<RankedTensorType>(t);
            v && v.getRank() == 1 && isa<ComplexType>(v.getElementType())) {
          SmallVector<NamedAttribute> fields{
              b.getNamedAttr("name", b.getStringAttr(name)),
              b.getNamedAttr("slots", b.getI64IntegerAttr(v.getDimSize(0))),
              b.getNamedAttr("plain", b.getUnitAttr())};
          if (range)
            fields.push_back(b.getNamedAttr("range", range));
          return Attribute(b.getDictionaryAttr(fields));
        }
        // BGV: the factor rides where CKKS's scale does (an exact double);
        // BFV: Delta = Q / t, as the runtime's BfvEncoder computes it.
        // Results carry fhe-to-bgv's noise budget estimate.
        if (auto bct = dyn_cast<bgv::CiphertextType>(t)) {
          const double scale = params.isBfv()
                                   ? params.getBfvDelta()
                                   : static_cast<double>(bct.getFactor());
          SmallVector<NamedAttribute> fields{
              b.getNamedAttr("name", b.getStringAttr(name)),
              b.getNamedAttr("slots", b.getI64IntegerAttr(bct.getSlots())),
              b.getNamedAttr("level", b.getI64IntegerAttr(bct.getLevel())),
              b.getNamedAttr("scale", b.getF64FloatAttr(scale)),
              b.getNamedAttr("degree", b.getI64IntegerAttr(bct.getDegree()))};
          if (budget)
            fields.push_back(b.getNamedAttr("noise_budget", budget));
          return Attribute(b.getDictionaryAttr(fields));
        }
        auto ct = dyn_cast<ckks::CiphertextType>(t);
        if (!ct)
          return f.emitError("the interface supports ciphertext arguments "
                             "and results and plaintext arguments only, "
                             "not ")
                 << t;
        SmallVector<NamedAttribute> fields{
            b.getNamedAttr("name", b.getStringAttr(name)),
            b.getNamedAttr("slots", b.getI64IntegerAttr(ct.getSlots())),
            // The runtime's level: the index of the top Q prime (two per
            // ckks level under double-prime scaling).
            b.getNamedAttr(
                "level",
                b.getI64IntegerAttr(params ? params.getLimbs(ct.getLevel()) - 1
                                           : ct.getLevel())),
            b.getNamedAttr("scale", b.getF64FloatAttr(ct.getScale())),
            b.getNamedAttr("degree", b.getI64IntegerAttr(ct.getDegree()))};
        if (range)
          fields.push_back(b.getNamedAttr("range", range));
        return Attribute(b.getDictionaryAttr(fields));
      };
      SmallVector<Attribute> ins, outs;
      for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
        auto name = f.getArgAttrOfType<StringAttr>(i, "ember.name");
        // The range the parameters were chosen for (fhe-to-ckks): the
        // declared one, else the default; the client refuses values
        // outside it.
        Attribute range = f.getArgAttr(i, fhe::kRangeAttrName);
        if (!range && !bgv)
          range = fhe::getRangeAttr(f.getContext(), fhe::defaultRange());
        if (range &&
            failed(fhe::parseRange(range, [&] { return f.emitError(); })))
          return signalPassFailure();
        FailureOr<Attribute> e = entry(
            name ? name.getValue().str() : "in" + std::to_string(i), t, range);
        if (failed(e))
          return signalPassFailure();
        ins.push_back(*e);
      }
      auto names = f->getAttrOfType<ArrayAttr>("ember.result_names");
      for (auto [i, t] : llvm::enumerate(f.getResultTypes())) {
        std::string name = "out" + std::to_string(i);
        if (names && i < names.size())
          if (auto s = dyn_cast<StringAttr>(names[i]))
            name = s.getValue().str();
        FailureOr<Attribute> e =
            entry(name, t, {},
                  f.getResultAttr(i, bgv::BGVDialect::kNoiseBudgetAttrName));
        if (failed(e))
          return signalPassFailure();
        outs.push_back(*e);
      }
      f->setAttr("ember.interface",
                 b.getDictionaryAttr(
                     {b.getNamedAttr("inputs", b.getArrayAttr(ins)),
                      b.getNamedAttr("outputs", b.getArrayAttr(outs))}));
    }
  }
};

} // namespace
