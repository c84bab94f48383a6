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
    // One arena per device (kernel-partition-devices): a transfer's result
    // lives on its `to` device, every other result on its op's device.
    auto deviceAttr = [](Operation *op, StringRef name) -> int64_t {
      auto a = op->getAttrOfType<IntegerAttr>(name);
      return a ? a.getInt() : 0;
    };
    auto resultDevice = [&](Operation *op) {
      auto call = dyn_cast<kernel::CallOp>(op);
      return call && call.getCallee() == "transfer" ? deviceAttr(op, "to")
                                                    : deviceAttr(op, "device");
    };
    int64_t devices = 1;
    if (auto k = f->getAttrOfType<IntegerAttr>("kernel.devices"))
      devices = std::max<int64_t>(1, k.getInt());
    for (Operation &op : body)
      devices = std::max(devices, resultDevice(&op) + 1);
    std::vector<Arena> arenas(devices, Arena(reuse));
    // Transfers run beside the kernels: a received buffer is written while
    // the receiver's kernels run on, a sent one read while the sender's
    // do. Each gets bytes no other buffer ever has (after the device's
    // reused arena), so that no kernel waits for a transfer it does not
    // read: a kernel waiting to overwrite a buffer still being sent would
    // wait for every transfer queued before that send, the other
    // device's included.
    std::vector<Arena> apartArena(devices, Arena(false));
    DenseSet<Value> sent;
    for (Operation &op : body)
      if (auto call = dyn_cast<kernel::CallOp>(op);
          call && call.getCallee() == "transfer")
        sent.insert(kernel::bufferOf(call.getInputs()[0]));
    DenseMap<Value, int64_t> offset, device;
    std::map<int64_t, SmallVector<Value>> dies; // op index -> buffers
    DenseSet<Value> unshared;                   // buffers of the unshared part
    auto define = [&](Value v, int64_t at, int64_t d) {
      device[v] = d;
      if (sent.contains(v)) {
        offset[v] = apartArena[d].place(size(v));
        unshared.insert(v);
        return;
      }
      offset[v] = arenas[d].place(size(v));
      dies[live.deathOf(v, at)].push_back(v);
    };
    auto release = [&](Value v) {
      if (!unshared.contains(v))
        arenas[device[v]].free(offset[v]);
    };
    SmallVector<int64_t> argOffsets;
    for (BlockArgument a : f.getArguments())
      if (isa<rns::PolyType>(a.getType())) {
        define(a, -1, 0); // inputs arrive on device 0
        argOffsets.push_back(offset[a]);
      }
    for (Value v : dies[-1])
      release(v);
    unsigned buffers = argOffsets.size();
    Builder b(f.getContext());
    for (Operation &op : body) {
      auto call = dyn_cast<kernel::CallOp>(op);
      // Constants are encoded once, into the runtime's constant cache.
      bool constant = call && call.getCallee() == "encode";
      if (call && call.getCallee() == "transfer") {
        const int64_t d = resultDevice(&op);
        Value r = call.getResult(0);
        device[r] = d;
        if (sent.contains(r)) { // sent on: its own bytes already
          define(r, live.index.lookup(&op), d);
        } else {
          offset[r] = apartArena[d].place(size(r));
          unshared.insert(r);
        }
        ++buffers;
      } else if ((call && !constant) || isa<kernel::LaunchOp>(op)) {
        const int64_t d = resultDevice(&op);
        SmallVector<int64_t> offs;
        for (Value r : op.getResults())
          if (isa<rns::PolyType>(r.getType())) {
            define(r, live.index.lookup(&op), d);
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
          int64_t at = arenas[d].place(limbs * limbBytes);
          op.setAttr("scratch", b.getI64IntegerAttr(at));
          arenas[d].free(at);
        }
      }
      for (Value v : dies[live.index.lookup(&op)])
        release(v);
    }
    // The unshared part follows each device's reused arena: its buffers'
    // offsets move by that arena's size (the offsets recorded above).
    if (!unshared.empty()) {
      for (Value v : unshared)
        offset[v] += arenas[device[v]].top();
      size_t i = 0;
      for (BlockArgument a : f.getArguments())
        if (isa<rns::PolyType>(a.getType()))
          argOffsets[i++] = offset[a];
      for (Operation &op : body) {
        bool any = false;
        for (Value r : op.getResults())
          any |= unshared.contains(r);
        if (!any)
          continue;
        SmallVector<int64_t> now;
        for (Value r : op.getResults())
          if (isa<rns::PolyType>(r.getType()))
            now.push_back(offset[r]);
        op.setAttr("offsets", b.getDenseI64ArrayAttr(now));
      }
    }
    SmallVector<int64_t> tops;
    for (int64_t d = 0; d < devices; ++d)
      tops.push_back(arenas[d].top() + apartArena[d].top());
    f->setAttr(kernel::KernelDialect::kArgOffsetsAttrName,
               b.getDenseI64ArrayAttr(argOffsets));
    f->setAttr(kernel::KernelDialect::kArenaBytesAttrName,
               b.getI64IntegerAttr(tops[0]));
    f->setAttr(kernel::KernelDialect::kPeakLiveBytesAttrName,
               b.getI64IntegerAttr(arenas[0].peakLive()));
    if (devices > 1)
      f->setAttr("kernel.device_arena_bytes", b.getDenseI64ArrayAttr(tops));
    if (print) {
      llvm::outs() << "kernel-plan-memory @" << f.getSymName() << ": arena "
                   << tops[0] << " bytes, peak live " << arenas[0].peakLive()
                   << " bytes, " << buffers << " buffers";
      if (devices > 1) {
        llvm::outs() << "; device arenas:";
        for (int64_t t : tops)
          llvm::outs() << " " << t;
      }
      llvm::outs() << "\n";
    }
  }
};

} // namespace
