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

BufferLiveness::BufferLiveness(func::FuncOp f) {
  Block &body = f.getBody().front();
  for (Operation &op : body)
    index[&op] = end++;
  for (Operation &op : body) {
    bool ret = isa<func::ReturnOp>(op);
    for (Value v : op.getOperands()) {
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
