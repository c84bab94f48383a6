//===- RNSToKernel.cpp - rns -> kernel ------------------------------------===//
//
// Walks each function once in program order and replaces every rns op by a
// kernel op with the same result types (buffers keep the rns types), so uses
// need no type conversion.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversions/RNSToKernel/RNSToKernel.h"
#include "dialects/CKKS/IR/CKKSDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

#define DEBUG_TYPE "rns-to-kernel"

namespace ember {
#define GEN_PASS_DEF_RNSTOKERNEL
#include "compiler/Conversions/RNSToKernel/RNSToKernel.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember;

namespace {

rns::PolyType polyTy(Value v) { return dyn_cast<rns::PolyType>(v.getType()); }

/// Index of the first limb of `part` inside `whole` (limb-major, Q then P),
/// or -1 when `part` is not one contiguous range of `whole`.
int64_t limbOffset(rns::PolyType whole, rns::PolyType part) {
  if (part.getNumQ() && part.getNumP() &&
      (part.getQHi() != whole.getQHi() || part.getPLo() != whole.getPLo()))
    return -1;
  if (part.getNumQ())
    return part.getQLo() - whole.getQLo();
  return whole.getNumQ() + part.getPLo() - whole.getPLo();
}

struct RNSToKernelPass : ember::impl::RNSToKernelBase<RNSToKernelPass> {
  unsigned nextKernel = 0;
  uint64_t limbBytes = 0;

  uint64_t bytesOf(TypeRange types) const {
    uint64_t b = 0;
    for (Type t : types)
      if (auto p = dyn_cast<rns::PolyType>(t))
        b += p.getNumLimbs() * limbBytes;
    return b;
  }

  kernel::CallOp call(OpBuilder &b, Operation *op, StringRef callee,
                      ValueRange inputs) {
    auto c = kernel::CallOp::create(b, op->getLoc(), op->getResultTypes(),
                                    b.getStringAttr(callee), inputs);
    for (NamedAttribute a : op->getDiscardableAttrs())
      c->setAttr(a.getName(), a.getValue());
    return c;
  }

  /// A launch around `body` (moved) or around a clone of one op.
  kernel::LaunchOp launch(OpBuilder &b, Operation *op, ValueRange inputs,
                          Region *body) {
    std::string name = "k" + std::to_string(nextKernel++);
    auto l = kernel::LaunchOp::create(b, op->getLoc(), op->getResultTypes(),
                                      b.getStringAttr(name), inputs);
    if (body) {
      l.getBody().takeBody(*body);
      Operation *term = l.getBody().front().getTerminator();
      OpBuilder tb(term);
      kernel::YieldOp::create(tb, term->getLoc(), term->getOperands());
      term->erase();
    } else {
      Block *blk = new Block();
      l.getBody().push_back(blk);
      IRMapping map;
      for (Value in : inputs)
        map.map(in, blk->addArgument(in.getType(), op->getLoc()));
      OpBuilder bb = OpBuilder::atBlockEnd(blk);
      Operation *clone = bb.clone(*op, map);
      kernel::YieldOp::create(bb, op->getLoc(), clone->getResults());
    }
    l->setAttr("bytes",
               b.getI64IntegerAttr(bytesOf(TypeRange(inputs.getTypes())) +
                                   bytesOf(op->getResultTypes())));
    return l;
  }

  LogicalResult convert(Operation *op) {
    if (isa<func::ReturnOp>(op))
      return success();
    if (op->getDialect() && !isa<rns::RNSDialect>(op->getDialect()))
      return op->emitOpError("cannot be lowered to the kernel dialect");
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto view = [&](Value src, Type resTy) -> FailureOr<Value> {
      int64_t first = limbOffset(polyTy(src), cast<rns::PolyType>(resTy));
      if (first < 0)
        return op->emitOpError("result is not a contiguous limb range");
      return kernel::ViewOp::create(
                 b, loc, resTy, src, b.getI64IntegerAttr(first),
                 b.getI64IntegerAttr(cast<rns::PolyType>(resTy).getNumLimbs()))
          .getResult();
    };
    SmallVector<Value> repl;
    if (auto d = dyn_cast<rns::DecomposeOp>(op)) {
      for (Value r : d.getDigits()) {
        FailureOr<Value> v = view(d.getInput(), r.getType());
        if (failed(v))
          return failure();
        repl.push_back(*v);
      }
    } else if (auto d = dyn_cast<rns::DropLimbsOp>(op)) {
      FailureOr<Value> v = view(d.getInput(), d.getType());
      if (failed(v))
        return failure();
      repl.push_back(*v);
    } else if (auto m = dyn_cast<rns::ModUpOp>(op)) {
      // modUp(ctx, x, j) raises digit j of x: recover x from the views.
      Value src;
      SmallVector<int64_t> digits;
      for (auto [j, d] : llvm::enumerate(m.getDigits())) {
        auto v = d.getDefiningOp<kernel::ViewOp>();
        if (!v || (src && v.getSource() != src))
          return op->emitOpError(
              "digits must be views of one polynomial (rns.decompose)");
        src = v.getSource();
        digits.push_back(j);
      }
      auto c = call(b, op, "mod_up", src);
      c->setAttr("digits", b.getDenseI64ArrayAttr(digits));
      repl.append(c->result_begin(), c->result_end());
    } else if (auto k = dyn_cast<rns::KSInnerProductOp>(op)) {
      SmallVector<Value> ins{k.getKey()};
      ins.append(k.getDigits().begin(), k.getDigits().end());
      auto c = call(b, op, "ks_inner_product", ins);
      if (auto g = k.getGaloisAttr())
        c->setAttr("galois", g);
      repl.append(c->result_begin(), c->result_end());
    } else if (auto k = dyn_cast<rns::KlssInnerProductOp>(op)) {
      SmallVector<Value> ins{k.getKey()};
      ins.append(k.getDigits().begin(), k.getDigits().end());
      auto c = call(b, op, "klss_inner_product", ins);
      c->setAttr("level",
                 b.getI64IntegerAttr(polyTy(k.getAcc0()).getNumQ() - 1));
      repl.append(c->result_begin(), c->result_end());
    } else if (isa<rns::KlssModUpOp>(op)) {
      // One runtime klssModUp per digit (the digits stay views).
      auto c = call(b, op, "klss_mod_up", op->getOperands());
      repl.append(c->result_begin(), c->result_end());
    } else if (isa<rns::ModDownOp, rns::RescaleOp>(op)) {
      auto c = call(b, op, "mod_switch_down", op->getOperands());
      // Lifted addends read permuted: sigma_g(y).
      if (auto md = dyn_cast<rns::ModDownOp>(op);
          md && md.getLiftedGaloisAttr())
        c->setAttr("galois", md.getLiftedGaloisAttr());
      repl.append(c->result_begin(), c->result_end());
    } else if (isa<rns::NTTOp, rns::INTTOp, rns::BConvOp, rns::ConcatOp,
                   rns::AutomorphismOp, rns::LoadKeyOp, rns::EncodeOp,
                   rns::EncodeValuesOp, rns::ZeroOp, rns::BfvTensorOp>(op)) {
      auto c = call(b, op, op->getName().stripDialect(), op->getOperands());
      if (auto a = dyn_cast<rns::AutomorphismOp>(op))
        c->setAttr("galois", a.getGaloisAttr());
      if (auto k = dyn_cast<rns::LoadKeyOp>(op); k && k.getGaloisAttr())
        c->setAttr("galois", k.getGaloisAttr());
      if (auto k = dyn_cast<rns::LoadKeyOp>(op); k && k.getEncapsulationAttr())
        c->setAttr("encapsulation", k.getEncapsulationAttr());
      if (auto e = dyn_cast<rns::EncodeOp>(op)) {
        c->setAttr("value", e.getValueAttr());
        c->setAttr("scale", e.getScaleAttr());
      }
      if (auto e = dyn_cast<rns::EncodeValuesOp>(op))
        c->setAttr("scale", e.getScaleAttr());
      if (auto conv = dyn_cast<rns::BConvOp>(op); conv && conv.getExact())
        c->setAttr("exact", b.getUnitAttr());
      if (auto t = dyn_cast<rns::BfvTensorOp>(op); t && t.getBehz())
        c->setAttr("behz", b.getUnitAttr());
      repl.append(c->result_begin(), c->result_end());
    } else if (auto f = dyn_cast<rns::FusedOp>(op)) {
      auto l = launch(b, op, f.getInputs(), &f.getBody());
      if (Attribute lazy = f->getAttr("lazy_sums")) // rns-fuse-elementwise's
        l->setAttr("lazy_sums", lazy);
      repl.append(l->result_begin(), l->result_end());
    } else if (op->hasTrait<rns::OpTrait::RNSElementwise>()) {
      SetVector<Value> ins(op->operand_begin(), op->operand_end());
      auto l = launch(b, op, ins.getArrayRef(), nullptr);
      repl.append(l->result_begin(), l->result_end());
    } else {
      return op->emitOpError("has no kernel lowering");
    }
    op->replaceAllUsesWith(repl);
    op->erase();
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto params = ckks::ParamsAttr::lookup(module);
    if (!params) {
      module.emitError("rns-to-kernel needs the module's #ckks.params");
      return signalPassFailure();
    }
    limbBytes = (uint64_t{1} << params.getLogN()) * params.getWordBytes();
    for (auto f : module.getOps<func::FuncOp>()) {
      if (f.isExternal())
        continue;
      SmallVector<Operation *> ops;
      for (Operation &op : f.getBody().front())
        ops.push_back(&op);
      for (Operation *op : ops)
        if (failed(convert(op)))
          return signalPassFailure();
      // Views nobody reads (digits consumed by mod_up through their source).
      SmallVector<Operation *> dead;
      for (Operation &op : f.getBody().front())
        if (isa<kernel::ViewOp>(op) && op.use_empty())
          dead.push_back(&op);
      for (Operation *op : llvm::reverse(dead))
        op->erase();
    }
  }
};

} // namespace
