//===- KernelLiveness.cpp - buffer liveness of a kernel-level function ----===//
#include "dialects/Kernel/IR/KernelLiveness.h"
#include "dialects/Kernel/IR/KernelDialect.h"
#include "dialects/RNS/IR/RNSTypes.h"

using namespace mlir;
using namespace ember::kernel;

Value ember::kernel::bufferOf(Value v) {
  while (auto view = v.getDefiningOp<ViewOp>())
    v = view.getSource();
  return v;
}

Operation *ember::kernel::overlappedInnerProduct(Operation *op) {
  auto call = dyn_cast<CallOp>(op);
  if (!call || call.getCallee() != "mod_switch_down" ||
      !call->hasAttr("overlap"))
    return nullptr;
  auto ip = dyn_cast_or_null<CallOp>(op->getPrevNode());
  if (!ip || ip.getCallee() != "ks_inner_product" ||
      call.getInputs().size() < 2 || call.getInputs()[0] != ip.getResult(0) ||
      call.getInputs()[1] != ip.getResult(1))
    return nullptr;
  return ip;
}

BufferLiveness::BufferLiveness(func::FuncOp f) {
  Block &body = f.getBody().front();
  for (Operation &op : body)
    index[&op] = end++;
  for (Operation &op : body) {
    bool ret = isa<func::ReturnOp>(op);
    SmallVector<Value> reads(op.getOperands());
    if (Operation *ip = overlappedInnerProduct(&op))
      reads.append(ip->operand_begin(), ip->operand_end());
    for (Value v : reads) {
      if (!isa<ember::rns::PolyType>(v.getType()))
        continue;
      Value buf = bufferOf(v);
      int64_t at = ret ? end : index[&op];
      if (ret)
        returned.insert(buf);
      auto [it, fresh] = lastUse.try_emplace(buf, at);
      if (!fresh)
        it->second = std::max(it->second, at);
    }
  }
}
