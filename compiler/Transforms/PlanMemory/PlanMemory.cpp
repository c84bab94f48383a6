//===- PlanMemory.cpp - kernel-plan-memory --------------------------------===//
#include "compiler/Transforms/PlanMemory/PlanMemory.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Kernel/IR/KernelLiveness.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <vector>

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
    take(at, size);
    return at;
  }
  /// The lowest free place of `size` bytes ending at or below `budget`
  /// where safe(at) holds, trying each free gap's start and the starts and
  /// ends of `marks` inside it (the last end: bytes never used); -1 if
  /// none.
  template <typename Marks>
  int64_t placeWhere(int64_t size, int64_t budget, const Marks &marks,
                     llvm::function_ref<bool(int64_t)> safe) {
    auto tryGap = [&](int64_t lo, int64_t hi) -> int64_t {
      hi = std::min(hi, budget);
      if (hi - lo < size)
        return -1;
      if (safe(lo))
        return lo;
      auto it = marks.upper_bound(lo);
      if (it != marks.begin())
        --it;
      for (; it != marks.end() && it->first + size <= hi; ++it)
        for (int64_t x : {it->first, it->second.hi})
          if (x > lo && x + size <= hi && safe(x))
            return x;
      return -1;
    };
    int64_t at = -1, end = 0;
    for (auto [off, sz] : live_) {
      if (off > end && (at = tryGap(end, off)) >= 0)
        break;
      end = std::max(end, off + sz);
    }
    if (at < 0)
      at = tryGap(end, budget);
    if (at >= 0)
      take(at, size);
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
  void take(int64_t at, int64_t size) {
    live_.emplace(at, size);
    liveBytes_ += size;
    peakLive_ = std::max(peakLive_, liveBytes_);
    top_ = std::max(top_, at + size);
  }

  bool reuse_;
  std::multimap<int64_t, int64_t> live_;
  int64_t bump_ = 0, top_ = 0, liveBytes_ = 0, peakLive_ = 0;
};

/// Each op's ancestors in a straight-line body: the ops whose results it
/// reads, through views, transitively (one bit row per op, numbered in
/// order as kernel::BufferLiveness numbers them).
class Ancestors {
public:
  /// Bodies above this many ops are not ordered (n^2 bits).
  static constexpr int64_t kMaxOps = int64_t{1} << 15;

  explicit Ancestors(Block &body) {
    for (Operation &op : body)
      index_[&op] = n_++;
    words_ = (n_ + 63) / 64;
    above_.assign(size_t(n_) * words_, 0);
    for (Operation &op : body) {
      uint64_t *mine = &above_[size_t(index_[&op]) * words_];
      for (Value v : op.getOperands()) {
        Operation *def = kernel::bufferOf(v).getDefiningOp();
        if (!def || !index_.count(def))
          continue;
        const int64_t d = index_[def];
        const uint64_t *theirs = row(d);
        for (int64_t w = 0; w < words_; ++w)
          mine[w] |= theirs[w];
        mine[d / 64] |= uint64_t{1} << (d % 64);
      }
    }
  }
  int64_t indexOf(Operation *op) const { return index_.lookup(op); }
  /// Op i's ancestors.
  const uint64_t *row(int64_t i) const { return &above_[size_t(i) * words_]; }
  /// Whether op j is an ancestor of op i.
  bool above(int64_t i, int64_t j) const {
    return (row(i)[j / 64] >> (j % 64)) & 1;
  }

private:
  DenseMap<Operation *, int64_t> index_;
  int64_t n_ = 0, words_ = 0;
  std::vector<uint64_t> above_;
};

/// What keeps independent ops unordered on the GPU (the `concurrency`
/// option): each op's ancestors (the ops whose results it reads, through
/// views, transitively), each buffer's users, and for every byte range of
/// the arena the ops that last used it (its last occupant's users, or the
/// op of a scratch). A buffer placed over bytes whose last users are all
/// ancestors of its op adds no order between ops (the runtime's graph
/// orders a step after the last users of the bytes it writes).
class Order {
public:
  Order(Block &body, const kernel::BufferLiveness &live) : ancestors_(body) {
    for (Operation &op : body) {
      const int64_t i = live.index.lookup(&op);
      SmallVector<Value> reads(op.getOperands());
      // An overlapped ModDown reads its inner product's digits too.
      if (Operation *ip = kernel::overlappedInnerProduct(&op))
        reads.append(ip->operand_begin(), ip->operand_end());
      for (Value v : reads)
        if (Value buf = kernel::bufferOf(v); isa<rns::PolyType>(buf.getType()))
          users_[buf].push_back(i);
    }
  }
  /// Ops above this many are not ordered (n^2 bits): no concurrency.
  static constexpr int64_t kMaxOps = Ancestors::kMaxOps;

  /// Bytes [at, at + size) now last used by `buffer`'s users (and its op
  /// `def`, when it has no users).
  void occupy(int64_t at, int64_t size, Value buffer, int64_t def) {
    std::vector<int64_t> who = users_.lookup(buffer);
    if (who.empty() && def >= 0)
      who.push_back(def);
    mark(at, size, std::move(who));
  }
  /// Bytes [at, at + size) last used by op `op` (its scratch).
  void scratch(int64_t at, int64_t size, int64_t op) { mark(at, size, {op}); }
  /// Whether bytes [at, at + size) were last used only by ancestors of op
  /// `op` (or never).
  bool safe(int64_t at, int64_t size, int64_t op) const {
    const uint64_t *anc = ancestors_.row(op);
    auto it = marks_.upper_bound(at);
    if (it != marks_.begin())
      --it;
    for (; it != marks_.end() && it->first < at + size; ++it) {
      if (it->second.hi <= at)
        continue;
      for (int64_t u : it->second.who)
        if (u != op && !(anc[u / 64] >> (u % 64) & 1))
          return false;
    }
    return true;
  }
  struct Mark {
    int64_t hi;
    std::vector<int64_t> who;
  };
  const std::map<int64_t, Mark> &marks() const { return marks_; }

private:
  /// Marks [at, at + size) as last used by `who`, trimming the marks it
  /// overlaps.
  void mark(int64_t at, int64_t size, std::vector<int64_t> who) {
    const int64_t hi = at + size;
    auto it = marks_.upper_bound(at);
    if (it != marks_.begin())
      --it;
    std::vector<std::pair<int64_t, Mark>> keep;
    while (it != marks_.end() && it->first < hi) {
      if (it->second.hi <= at) {
        ++it;
        continue;
      }
      if (it->first < at)
        keep.push_back({it->first, {at, it->second.who}});
      if (it->second.hi > hi)
        keep.push_back({hi, {it->second.hi, it->second.who}});
      it = marks_.erase(it);
    }
    for (auto &k : keep)
      marks_.insert(std::move(k));
    marks_[at] = {hi, std::move(who)};
  }

  Ancestors ancestors_;
  llvm::DenseMap<Value, std::vector<int64_t>> users_;
  std::map<int64_t, Mark> marks_;
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
    if (concurrency < 0) {
      module.emitError("kernel-plan-memory concurrency=")
          << static_cast<int64_t>(concurrency) << ": a percentage, 0 or more";
      return signalPassFailure();
    }
    for (auto f : module.getOps<func::FuncOp>()) {
      if (f.isExternal())
        continue;
      markOverlaps(f);
      if (concurrency == 0 || !reuse) {
        plan(f, limbBytes, -1, print);
        continue;
      }
      // The minimal arena first, then the placements that keep
      // independent ops unordered within the budget over it.
      const int64_t minimal = plan(f, limbBytes, -1, false);
      plan(f, limbBytes, minimal + minimal / 100 * concurrency, print);
    }
  }

  /// ks-overlap: marks `overlap` each two-part mod_switch_down right after
  /// the ks_inner_product whose results it switches down (one device
  /// only), so that liveness keeps that inner product's digits alive
  /// through it (kernel::overlappedInnerProduct), at N >=
  /// 2^ks-overlap-min-log-n and where that key switch is alone: every other
  /// inner product is its ancestor or descendant (through the values they
  /// read). Independent key switches already run side by side in the GPU's
  /// graph: the split has nothing to add there, while the digits kept alive
  /// grow the plan and move its placements (bench/RESULTS.md, "A key
  /// switch's ModDown beside its inner product"). ks-overlap=false removes
  /// the marks.
  void markOverlaps(func::FuncOp f) {
    Block &body = f.getBody().front();
    const bool several = [&] {
      if (auto k = f->getAttrOfType<IntegerAttr>("kernel.devices"))
        if (k.getInt() > 1)
          return true;
      for (Operation &op : body)
        if (op.hasAttr("device"))
          return true;
      return false;
    }();
    // Below 2^ks-overlap-min-log-n the switch's first half is a few
    // microseconds: no gain to take, and the plan's changed placements
    // alone moved the examples at N = 2^14 by -5% to +24%.
    auto params = ckks::ParamsAttr::lookup(f);
    const bool large = params && int64_t(params.getLogN()) >= ksOverlapMinLogN;
    SmallVector<kernel::CallOp> candidates, products;
    for (Operation &op : body) {
      auto call = dyn_cast<kernel::CallOp>(op);
      if (!call)
        continue;
      if (call.getCallee() == "ks_inner_product")
        products.push_back(call);
      if (call.getCallee() != "mod_switch_down")
        continue;
      call->removeAttr("overlap");
      if (!ksOverlap || !large || several || call.getResults().size() != 2)
        continue;
      call->setAttr("overlap", UnitAttr::get(f.getContext()));
      if (kernel::overlappedInnerProduct(call))
        candidates.push_back(call);
      else
        call->removeAttr("overlap");
    }
    if (candidates.empty())
      return;
    if (int64_t(body.getOperations().size()) > Ancestors::kMaxOps) {
      for (kernel::CallOp c : candidates) // unmarked above that
        c->removeAttr("overlap");
      return;
    }
    const Ancestors ancestors(body);
    for (kernel::CallOp c : candidates) {
      const int64_t m = ancestors.indexOf(c);
      Operation *own = kernel::overlappedInnerProduct(c);
      for (kernel::CallOp ip : products) {
        const int64_t j = ancestors.indexOf(ip);
        if (ip != own && !ancestors.above(m, j) && !ancestors.above(j, m)) {
          c->removeAttr("overlap");
          break;
        }
      }
    }
  }

  /// Places f's buffers (budget < 0: first-fit; else see `concurrency`)
  /// and records them; returns device 0's arena bytes.
  int64_t plan(func::FuncOp f, int64_t limbBytes, int64_t budget, bool print) {
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
    // Concurrency: one device, ops within the ordering's size. (Each
    // device of a partitioned program runs a DAG too, but placements by
    // this in each device's arena were measured slower there: bench/
    // RESULTS.md, "Several GPUs against one GPU's DAG".)
    std::unique_ptr<Order> order;
    if (budget >= 0 && devices == 1 && live.end <= Order::kMaxOps)
      order = std::make_unique<Order>(body, live);
    // A place of `bytes` for op `op`'s result or scratch: where it orders
    // nothing new within the budget, else first-fit.
    auto placeFor = [&](int64_t d, int64_t bytes, int64_t op) {
      if (order && op >= 0) {
        int64_t at =
            arenas[d].placeWhere(bytes, budget, order->marks(), [&](int64_t x) {
              return order->safe(x, bytes, op);
            });
        if (at >= 0)
          return at;
      }
      return arenas[d].place(bytes);
    };
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
      offset[v] = placeFor(d, size(v), at);
      if (order)
        order->occupy(offset[v], size(v), v, at);
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
          const int64_t i = live.index.lookup(&op);
          int64_t at = placeFor(d, limbs * limbBytes, i);
          if (order)
            order->scratch(at, limbs * limbBytes, i);
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
    return tops[0];
  }
};

} // namespace
