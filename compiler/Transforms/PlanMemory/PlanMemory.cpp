//===- PlanMemory.cpp - kernel-plan-memory --------------------------------===//
#include "compiler/Transforms/PlanMemory/PlanMemory.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Kernel/IR/KernelLiveness.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

#define DEBUG_TYPE "kernel-plan-memory"

namespace ember {
#define GEN_PASS_DEF_KERNELPLANMEMORY
#include "compiler/Transforms/PlanMemory/PlanMemory.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember;

namespace {

/// First-fit placement in one arena.
class Arena {
public:
  explicit Arena(bool reuse) : reuse_(reuse) {}
  int64_t place(int64_t size) {
    int64_t at = 0;
    if (reuse_) {
      for (auto [off, sz] : live_) {
        if (off - at >= size)
          break;
        at = std::max(at, off + sz);
      }
    } else {
      at = bump_;
      bump_ += size;
    }
    live_.emplace(at, size);
    liveBytes_ += size;
    peakLive_ = std::max(peakLive_, liveBytes_);
    top_ = std::max(top_, at + size);
    return at;
  }
  void free(int64_t at) {
    auto it = live_.find(at);
    liveBytes_ -= it->second;
    live_.erase(it);
  }
  int64_t top() const { return top_; }
  int64_t peakLive() const { return peakLive_; }

private:
  bool reuse_;
  std::multimap<int64_t, int64_t> live_;
  int64_t bump_ = 0, top_ = 0, liveBytes_ = 0, peakLive_ = 0;
};

struct PlanMemoryPass : ember::impl::KernelPlanMemoryBase<PlanMemoryPass> {
  using KernelPlanMemoryBase::KernelPlanMemoryBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto params = ckks::ParamsAttr::lookup(module);
    if (!params) {
      module.emitError("kernel-plan-memory needs the module's #ckks.params");
      return signalPassFailure();
    }
    const int64_t limbBytes =
        (int64_t{1} << params.getLogN()) * params.getWordBytes();
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal())
        plan(f, limbBytes);
  }

  void plan(func::FuncOp f, int64_t limbBytes) {
    Block &body = f.getBody().front();
    kernel::BufferLiveness live(f);
    auto size = [&](Value v) {
      return cast<rns::PolyType>(v.getType()).getNumLimbs() * limbBytes;
    };

    Arena arena(reuse);
    DenseMap<Value, int64_t> offset;
    std::map<int64_t, SmallVector<Value>> dies; // op index -> buffers
    auto define = [&](Value v, int64_t at) {
      offset[v] = arena.place(size(v));
      dies[live.deathOf(v, at)].push_back(v);
    };
    SmallVector<int64_t> argOffsets;
    for (BlockArgument a : f.getArguments())
      if (isa<rns::PolyType>(a.getType())) {
        define(a, -1);
        argOffsets.push_back(offset[a]);
      }
    for (Value v : dies[-1])
      arena.free(offset[v]);
    unsigned buffers = argOffsets.size();
    Builder b(f.getContext());
    for (Operation &op : body) {
      auto call = dyn_cast<kernel::CallOp>(op);
      // Constants are encoded once, into the runtime's constant cache.
      bool constant = call && call.getCallee() == "encode";
      if ((call && !constant) || isa<kernel::LaunchOp>(op)) {
        SmallVector<int64_t> offs;
        for (Value r : op.getResults())
          if (isa<rns::PolyType>(r.getType())) {
            define(r, live.index.lookup(&op));
            offs.push_back(offset[r]);
            ++buffers;
          }
        if (!offs.empty())
          op.setAttr("offsets", b.getDenseI64ArrayAttr(offs));
        // The primitive's temporaries: live while its operands and results
        // are, freed when it returns.
        auto launch = dyn_cast<kernel::LaunchOp>(op);
        if (int64_t limbs =
                call ? call.scratchLimbs() : launch.scratchLimbs()) {
          int64_t at = arena.place(limbs * limbBytes);
          op.setAttr("scratch", b.getI64IntegerAttr(at));
          arena.free(at);
        }
      }
      for (Value v : dies[live.index.lookup(&op)])
        arena.free(offset[v]);
    }
    f->setAttr(kernel::KernelDialect::kArgOffsetsAttrName,
               b.getDenseI64ArrayAttr(argOffsets));
    f->setAttr(kernel::KernelDialect::kArenaBytesAttrName,
               b.getI64IntegerAttr(arena.top()));
    f->setAttr(kernel::KernelDialect::kPeakLiveBytesAttrName,
               b.getI64IntegerAttr(arena.peakLive()));
    if (print)
      llvm::outs() << "kernel-plan-memory @" << f.getSymName() << ": arena "
                   << arena.top() << " bytes, peak live " << arena.peakLive()
                   << " bytes, " << buffers << " buffers\n";
  }
};

} // namespace
