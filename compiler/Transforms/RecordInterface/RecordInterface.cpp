//===- RecordInterface.cpp - ckks-record-interface ------------------------===//
#include "compiler/Transforms/RecordInterface/RecordInterface.h"
#include "dialects/CKKS/IR/CKKSDialect.h"

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
    for (auto f : getOperation().getOps<func::FuncOp>()) {
      Builder b(f.getContext());
      auto entry = [&](StringRef name, Type t) -> FailureOr<Attribute> {
        // A plaintext argument: slot values the server gets at run time.
        if (auto v = dyn_cast<RankedTensorType>(t);
            v && v.getRank() == 1 && isa<ComplexType>(v.getElementType()))
          return Attribute(b.getDictionaryAttr(
              {b.getNamedAttr("name", b.getStringAttr(name)),
               b.getNamedAttr("slots", b.getI64IntegerAttr(v.getDimSize(0))),
               b.getNamedAttr("plain", b.getUnitAttr())}));
        auto ct = dyn_cast<ckks::CiphertextType>(t);
        if (!ct)
          return f.emitError("the interface supports ciphertext arguments "
                             "and results and plaintext arguments only, "
                             "not ")
                 << t;
        return Attribute(b.getDictionaryAttr(
            {b.getNamedAttr("name", b.getStringAttr(name)),
             b.getNamedAttr("slots", b.getI64IntegerAttr(ct.getSlots())),
             b.getNamedAttr("level", b.getI64IntegerAttr(ct.getLevel())),
             b.getNamedAttr("scale", b.getF64FloatAttr(ct.getScale())),
             b.getNamedAttr("degree", b.getI64IntegerAttr(ct.getDegree()))}));
      };
      SmallVector<Attribute> ins, outs;
      for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
        auto name = f.getArgAttrOfType<StringAttr>(i, "ember.name");
        FailureOr<Attribute> e =
            entry(name ? name.getValue().str() : "in" + std::to_string(i), t);
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
        FailureOr<Attribute> e = entry(name, t);
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
