//===- PartitionDevices.cpp - kernel-partition-devices --------------------===//
//
// List scheduling of a kernel-level program over k GPUs (see the .td). The
// schedule decides each operation's device in program order; the
// prediction then replays the final op list as k in-order streams.
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/PartitionDevices/PartitionDevices.h"
#include "compiler/Analysis/Cost/KeySwitchCost.h"
#include "compiler/Transforms/PartitionDevices/PartitionLimbs.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#define DEBUG_TYPE "kernel-partition-devices"

namespace ember {
#define GEN_PASS_DEF_KERNELPARTITIONDEVICES
#include "compiler/Transforms/PartitionDevices/PartitionDevices.h.inc"
} // namespace ember

using namespace mlir;
using namespace ember;

namespace {

constexpr double kLaunchUs = 5.0; // one kernel launch's fixed cost
constexpr int kRedoDepth = 3;     // kernels run again behind one read
// The part of a kernel's work (beyond its launch) that a share of the
// limbs does not shorten: its tail and a GPU it does not fill. On an H200
// the NTT, BConv, product and automorphism over 13 of bootstrap16's 26
// limbs took 0.66-0.76 of the full time (bench/RESULTS.md, "Kernels over
// half the limbs"): 0.71 = s + (1 - s) / 2 past the launch gives s = 1/3.
constexpr double kShareSerial = 1.0 / 3.0;

int64_t limbsOf(Value v) {
  auto p = dyn_cast<rns::PolyType>(v.getType());
  return p ? p.getNumLimbs() : 0;
}

/// The cost model of one operation on one GPU (microseconds).
class OpCost {
public:
  OpCost(ckks::ParamsAttr params)
      : c_(KeySwitchConstants::forWord(params.getWordBytes() * 8)) {
    const double n = std::ldexp(1.0, params.getLogN());
    sN_ = n / 65536.0;
    sNtt_ = sN_ * params.getLogN() / 16.0;
    limbBytes_ = n * params.getWordBytes();
    digitSizes_ = params.getDigitSizes();
  }
  double limbBytes() const { return limbBytes_; }
  double ntt(double limbs) const { return limbs * c_.nttLimbUs * sNtt_; }
  double bconv(double in, double out) const {
    return in * out * c_.bconvMacUs * sN_;
  }
  double dram(double bytes) const { return bytes / c_.dramGBps * 1e-3; }

  /// The model time of one operation on one GPU: its launches plus its
  /// work.
  double of(Operation *op) const { return launches(op) * kLaunchUs + work(op); }

  /// The launches an operation's time counts (kLaunchUs each), which a
  /// split of its limbs over devices would not shorten.
  static double launches(Operation *op) {
    if (isa<kernel::LaunchOp>(op))
      return 1;
    auto c = dyn_cast<kernel::CallOp>(op);
    if (!c)
      return 0; // views
    StringRef callee = c.getCallee();
    if (callee == "mod_up" || callee == "mod_switch_down")
      return 3;
    if (llvm::is_contained({"ntt", "intt", "bconv", "ks_inner_product",
                            "klss_mod_up", "klss_inner_product", "bfv_tensor",
                            "automorphism", "concat", "zero"},
                           callee))
      return 1;
    return 0; // encode, encode_values, load_key: the runtime's caches
  }

  /// An operation's time beyond its launches (what a split of its limbs
  /// over k devices divides by k).
  double work(Operation *op) const {
    if (auto l = dyn_cast<kernel::LaunchOp>(op)) {
      double us = 0;
      if (auto b = l->getAttrOfType<IntegerAttr>("bytes"))
        us += dram(static_cast<double>(b.getInt()));
      l.getBody().walk([&](Operation *inner) {
        if (isa<rns::NTTOp, rns::INTTOp>(inner))
          us += ntt(limbsOf(inner->getResult(0)));
      });
      return us;
    }
    auto c = dyn_cast<kernel::CallOp>(op);
    if (!c)
      return 0; // views
    StringRef callee = c.getCallee();
    auto in = [&](unsigned i) { return double(limbsOf(c.getInputs()[i])); };
    auto out = [&](unsigned i) { return double(limbsOf(c.getResults()[i])); };
    if (callee == "ntt" || callee == "intt")
      return ntt(out(0));
    if (callee == "bconv")
      return bconv(in(0), out(0));
    if (callee == "mod_up") {
      auto digits = c->getAttrOfType<DenseI64ArrayAttr>("digits");
      double us = 0;
      for (auto [j, r] : llvm::enumerate(c.getResults())) {
        double d = digits && digits[j] < int64_t(digitSizes_.size())
                       ? digitSizes_[digits[j]]
                       : 1;
        double raised = limbsOf(r);
        us += ntt(d) + bconv(d, raised - d) + ntt(raised - d);
      }
      return us;
    }
    if (callee == "ks_inner_product") {
      double digits = c.getInputs().size() - 1, limbs = out(0);
      return 2 * digits * limbs * c_.ipMacUs * sN_ +
             dram(2 * digits * limbs * limbBytes_);
    }
    if (callee == "mod_switch_down") {
      double us = 0;
      for (unsigned j = 0; j < c.getResults().size(); ++j) {
        double kept = out(j), dropped = in(j)-out(j);
        us += ntt(dropped) + bconv(dropped, kept) + ntt(kept) +
              dram(2 * in(j)*limbBytes_);
      }
      return us;
    }
    if (callee == "klss_mod_up" || callee == "klss_inner_product" ||
        callee == "bfv_tensor") {
      double limbs = 0;
      for (Value r : c.getResults())
        limbs += limbsOf(r);
      return 3 * ntt(limbs);
    }
    if (callee == "automorphism" || callee == "concat" || callee == "zero") {
      double limbs = 0;
      for (Value v : c.getInputs())
        limbs += limbsOf(v);
      for (Value r : c.getResults())
        limbs += limbsOf(r);
      return dram(limbs * limbBytes_);
    }
    return 0;
  }

private:
  KeySwitchConstants c_;
  double sN_ = 1, sNtt_ = 1, limbBytes_ = 0;
  std::vector<int> digitSizes_;
};

/// Operations cloned onto each device that reads them, never moved.
bool isFree(Operation *op) {
  auto c = dyn_cast_or_null<kernel::CallOp>(op);
  if (!c)
    return false;
  StringRef callee = c.getCallee();
  return callee == "encode" || callee == "encode_values" ||
         callee == "load_key" || callee == "zero";
}

/// Whether `l` is a sum kernel: its body adds every input exactly once
/// and yields the total (a tree of `rns.add`, nothing else). The giant
/// steps' raised products of a matrix-vector product are summed so before
/// their one ModDown; spread over devices, such a sum is split into one
/// partial sum per device (PartitionDevicesPass::placeSum).
bool isSum(kernel::LaunchOp l) {
  Block &body = l.getBody().front();
  auto yield = cast<kernel::YieldOp>(body.getTerminator());
  if (yield.getValues().size() != 1 || body.getNumArguments() < 3)
    return false;
  for (BlockArgument a : body.getArguments())
    if (!a.hasOneUse() || a.getType() != yield.getValues()[0].getType())
      return false;
  for (Operation &op : body.without_terminator())
    if (!isa<rns::AddOp>(op) || !op.getResult(0).hasOneUse())
      return false;
  return true;
}

/// The bytes a sum kernel of `terms` polynomials like `v` moves (each read
/// once, the sum written once).
int64_t sumBytes(size_t terms, Value v, int64_t limbBytes) {
  return static_cast<int64_t>(terms + 1) * limbsOf(v) * limbBytes;
}

/// Rebuilds a sum kernel's body as a chain of adds over its inputs (after
/// they were replaced).
void rebuildSum(kernel::LaunchOp l, int64_t limbBytes) {
  Block &body = l.getBody().front();
  Type type = l.getResult(0).getType();
  body.clear();
  body.eraseArguments(0, body.getNumArguments());
  OpBuilder b = OpBuilder::atBlockEnd(&body);
  Value acc;
  for (Value in : l.getInputs()) {
    Value a = body.addArgument(type, in.getLoc());
    acc = acc ? rns::AddOp::create(b, l.getLoc(), acc, a).getResult() : a;
  }
  kernel::YieldOp::create(b, l.getLoc(), ValueRange{acc});
  l->setAttr("bytes", b.getI64IntegerAttr(sumBytes(l.getInputs().size(),
                                                   l.getResult(0), limbBytes)));
}

int64_t deviceOf(Operation *op) {
  if (auto d = op->getAttrOfType<IntegerAttr>("device"))
    return d.getInt();
  return 0;
}

struct PartitionDevicesPass
    : ember::impl::KernelPartitionDevicesBase<PartitionDevicesPass> {
  using KernelPartitionDevicesBase::KernelPartitionDevicesBase;

  void runOnOperation() override {
    if (devices < 1 || devices > 64) {
      getOperation().emitError("kernel-partition-devices: devices must be "
                               "1..64, got ")
          << static_cast<int64_t>(devices);
      return signalPassFailure();
    }
    if (mode != "operations" && mode != "limbs") {
      getOperation().emitError("kernel-partition-devices: partition must be "
                               "operations or limbs, got '")
          << mode << "'";
      return signalPassFailure();
    }
    if (devices == 1)
      return;
    if (linkGBps <= 0 || linkLatencyUs < 0) {
      getOperation().emitError("kernel-partition-devices: link-gbps must be "
                               "positive and link-latency-us non-negative");
      return signalPassFailure();
    }
    auto params = ckks::ParamsAttr::lookup(getOperation());
    if (!params) {
      getOperation().emitError(
          "kernel-partition-devices needs the module's #ckks.params");
      return signalPassFailure();
    }
    // A plan made for one device is made again after the partition: its
    // ModDowns' `overlap` marks (kernel-plan-memory ks-overlap, one device
    // only) go, since transfers may now come between a switch and its
    // inner product.
    getOperation().walk([](kernel::CallOp c) { c->removeAttr("overlap"); });
    const bool limbs = mode == "limbs";
    OpCost cost(params);
    for (auto f : getOperation().getOps<func::FuncOp>())
      if (!f.isExternal() &&
          failed(limbs ? splitAndPredict(f, cost) : partitionOrKeep(f, cost)))
        return signalPassFailure();
  }

  /// partition=limbs: every polynomial's limbs split over all `devices`
  /// (PartitionLimbs.cpp), then the same prediction as a partition's, each
  /// kernel over a share priced at its share of the work times 1 +
  /// kShareSerial (k - 1) (a kernel over half the limbs took 0.7 of the
  /// whole on an H200, not 0.5).
  LogicalResult splitAndPredict(func::FuncOp f, const OpCost &cost) {
    const std::pair<double, double> model = limbSplitUs(f, cost, devices);
    double one = 0;
    for (Operation &op : f.getBody().front())
      if (isa<kernel::CallOp, kernel::LaunchOp>(op))
        one += cost.of(&op);
    LimbSplitStats stats;
    if (failed(splitLimbs(f, devices, int64_t(cost.limbBytes()), stats)))
      return failure();
    used_ = devices;
    shareScale_ = 1.0 + kShareSerial * double(devices - 1);
    State s(cost);
    s.transfers = stats.transfers;
    s.transferBytes = double(stats.transferBytes);
    LogicalResult r = predict(f, cost, one, s);
    shareScale_ = 1.0;
    if (failed(r))
      return failure();
    Builder b(f.getContext());
    SmallVector<double> run;
    for (Attribute x : f->getAttrOfType<ArrayAttr>("kernel.predicted_us"))
      run.push_back(cast<FloatAttr>(x).getValueAsDouble() + runOverheadUs);
    f->setAttr("kernel.predicted_us", b.getF64ArrayAttr(run));
    f->setAttr("kernel.limb_split_us",
               b.getF64ArrayAttr({std::max(model.first, model.second),
                                  model.first + model.second}));
    f->setAttr("kernel.partition", b.getStringAttr("limbs"));
    SmallVector<int64_t> bounds(stats.qBounds);
    bounds.append(stats.pBounds.begin(), stats.pBounds.end());
    f->setAttr("kernel.limb_bounds", b.getDenseI64ArrayAttr(bounds));
    if (print) {
      llvm::outs() << summary_;
      llvm::outs() << "kernel-partition-devices @" << f.getSymName()
                   << ": limbs split, Q bounds";
      for (int64_t x : stats.qBounds)
        llvm::outs() << " " << x;
      llvm::outs() << ", P bounds";
      for (int64_t x : stats.pBounds)
        llvm::outs() << " " << x;
      llvm::outs() << "\n";
    }
    return success();
  }

  /// The partition of a copy of `f` over k devices for each k of 2, 4, 8,
  /// ... up to `devices` (and `devices` itself), each with comm-weight
  /// times 1, 1/2 and 2 and in two orders (upward rank, and chains
  /// followed: followChains); the fastest predicted kept (the first tried
  /// on a tie within 1%); it is taken if the model predicts it at least
  /// min-gain faster than one device, else `f` stays whole on device 0 (a
  /// chain of dependent operations gains nothing from a second GPU). List
  /// scheduling is greedy, and erratic: given more devices it can spread a
  /// program wider than pays (bootstrap16 predicted 25.9 ms on two, 28.4 on
  /// four), and a small change of weight can turn a 1.3x plan into none
  /// (dense1024_B with hoisted giant steps: 19.1 ms at weight 2, 25.9 at 1).
  LogicalResult partitionOrKeep(func::FuncOp f, const OpCost &cost) {
    const std::pair<double, double> split = limbSplitUs(f, cost, devices);
    struct Try {
      int64_t devices;
      double commWeight;
      bool chains;
    };
    SmallVector<Try> tries;
    for (int64_t k = 2;; k = std::min<int64_t>(2 * k, devices)) {
      for (bool chains : {false, true})
        for (double w : {1.0, 0.5, 2.0})
          if (w == 1.0 || commWeight > 0)
            tries.push_back({k, w * commWeight, chains});
      if (k == devices)
        break;
    }
    func::FuncOp trial;
    double makespan = 0;
    std::string summary;
    for (const Try &x : tries) {
      used_ = x.devices;
      cw_ = x.commWeight;
      chains_ = x.chains;
      auto t = cast<func::FuncOp>(f->clone());
      if (failed(partition(t, cost))) {
        t.erase();
        if (trial)
          trial.erase();
        return failure();
      }
      double m = 0;
      for (Attribute x : t->getAttrOfType<ArrayAttr>("kernel.predicted_us"))
        m = std::max(m, cast<FloatAttr>(x).getValueAsDouble());
      // More devices only for a gain the model can tell (1%).
      if (!trial || m < 0.99 * makespan) {
        if (trial)
          trial.erase();
        trial = t;
        makespan = m;
        summary = summary_;
      } else {
        t.erase();
      }
    }
    summary_ = summary;
    auto predicted = trial->getAttrOfType<ArrayAttr>("kernel.predicted_us");
    const int64_t used = static_cast<int64_t>(predicted.size());
    double one = trial->getAttrOfType<FloatAttr>("kernel.one_device_us")
                     .getValueAsDouble();
    Builder b(f.getContext());
    // A run over several GPUs also starts a host thread per GPU and waits
    // for all of them (run-overhead-us, measured on two H200s).
    makespan += runOverheadUs;
    if (makespan < (1.0 - minGain) * one) {
      if (print)
        llvm::outs() << summary_;
      f.getBody().takeBody(trial.getBody());
      for (NamedAttribute a : trial->getAttrs())
        if (a.getName().getValue().starts_with("kernel."))
          f->setAttr(a.getName(), a.getValue());
      SmallVector<double> run; // each device's time, the run's cost added
      for (Attribute x : predicted)
        run.push_back(cast<FloatAttr>(x).getValueAsDouble() + runOverheadUs);
      f->setAttr("kernel.predicted_us", b.getF64ArrayAttr(run));
      if (used < devices)
        f->setAttr("kernel.devices_requested", b.getI64IntegerAttr(devices));
    } else {
      // One device: the plan of devices=1 (no transfer, no second
      // thread), with what was asked recorded for the manifest.
      f->setAttr("kernel.devices", b.getI64IntegerAttr(1));
      f->setAttr("kernel.devices_requested", b.getI64IntegerAttr(devices));
      f->setAttr("kernel.predicted_us", b.getF64ArrayAttr({one}));
      f->setAttr("kernel.one_device_us", b.getF64FloatAttr(one));
      f->setAttr("kernel.transfer_bytes", b.getI64IntegerAttr(0));
      if (print)
        llvm::outs() << "kernel-partition-devices @" << f.getSymName()
                     << ": kept on device 0 (predicted "
                     << llvm::format("%.1f", makespan) << " us over " << used
                     << " devices, " << llvm::format("%.1f", one)
                     << " us on one)\n";
    }
    trial.erase();
    // Beside the plan: what limb partitioning would give, between the
    // collectives hidden beside the kernels and run after them.
    const double lo = std::max(split.first, split.second),
                 hi = split.first + split.second;
    f->setAttr("kernel.limb_split_us", b.getF64ArrayAttr({lo, hi}));
    if (print)
      llvm::outs() << "kernel-partition-devices @" << f.getSymName()
                   << ": limbs split over " << devices
                   << " devices (model, not built): kernels "
                   << llvm::format("%.1f", split.first) << " us, collectives "
                   << llvm::format("%.1f", split.second)
                   << " us: " << llvm::format("%.1f", lo) << "-"
                   << llvm::format("%.1f", hi) << " us\n";
    return success();
  }

  /// The model's estimate of `f` with every polynomial's limbs split over
  /// k devices (not built: docs/issue18-limb-partition-brief.md), in
  /// microseconds: {the kernels, the collectives}. Of each kernel's work
  /// (past its launches, which do not shrink) the share kShareSerial does
  /// not divide and the rest divides by k (measured at k = 2); each base
  /// conversion first all-gathers its input (ModUp: the input's limbs;
  /// ModDown and rescale: the limbs dropped; BConv: its input), each
  /// device receiving (k - 1) / k of it at link-gbps plus link-latency-us.
  std::pair<double, double> limbSplitUs(func::FuncOp f, const OpCost &cost,
                                        int64_t k) const {
    double compute = 0, comm = 0;
    const double share = double(k - 1) / double(k);
    auto gather = [&](double limbs) {
      if (limbs > 0)
        comm +=
            linkLatencyUs + share * limbs * cost.limbBytes() / linkGBps * 1e-3;
    };
    for (Operation &op : f.getBody().front()) {
      if (!isa<kernel::CallOp, kernel::LaunchOp>(op))
        continue;
      compute += OpCost::launches(&op) * kLaunchUs +
                 cost.work(&op) * (kShareSerial + (1 - kShareSerial) / k);
      auto c = dyn_cast<kernel::CallOp>(op);
      if (!c)
        continue;
      StringRef callee = c.getCallee();
      if (callee == "mod_up" || callee == "bconv")
        gather(limbsOf(c.getInputs()[0]));
      if (callee == "mod_switch_down")
        for (unsigned j = 0; j < c.getResults().size(); ++j)
          gather(limbsOf(c.getInputs()[j]) - limbsOf(c.getResults()[j]));
    }
    return {compute, comm};
  }

  std::string summary_;     // the last prediction, one line
  double shareScale_ = 1.0; // a kernel's work over its share (limbs)
  int64_t used_ = 2;        // the devices of the partition being tried
  double cw_ = 1.0;         // and its comm weight
  bool chains_ = false;     // and its order (rank, or chains followed)

  // --- the schedule ----------------------------------------------------------
  struct State {
    explicit State(const OpCost &c) : cost(c) {}
    const OpCost &cost;
    std::vector<double> ready;      // kernel streams
    std::vector<double> link;       // transfer streams (NCCL), one per device
    DenseMap<Value, int64_t> home;  // where a buffer was made
    DenseMap<Value, double> madeAt; // when (on its home)
    std::map<std::pair<void *, int64_t>, Value> on; // (value, device) -> copy
    std::vector<std::pair<double, Operation *>> starts; // the schedule
    double transferBytes = 0;
    int64_t transfers = 0;
    int64_t recomputed = 0; // ops cloned onto a second device
    int64_t partials = 0;   // partial sums (placeSum)
  };

  double transferUs(const OpCost &c, Value v) const {
    return linkLatencyUs + limbsOf(v) * c.limbBytes() / linkGBps * 1e-3;
  }

  /// `v` on device d without moving it: itself or its copy there, or a
  /// clone (before `at`) of a free op or of a view over its source's copy.
  /// Null if it must move.
  Value local(State &s, Value v, int64_t d, Operation *at) {
    if (auto it = s.on.find({v.getAsOpaquePointer(), d}); it != s.on.end())
      return it->second;
    Operation *def = v.getDefiningOp();
    Value src;
    if (auto view = dyn_cast_or_null<kernel::ViewOp>(def)) {
      src = local(s, view.getSource(), d, at);
      if (!src)
        return Value();
    } else if (!isFree(def)) {
      return Value();
    }
    Operation *clone = def;
    if (def->hasAttr("device")) { // else its first reader: the op goes there
      OpBuilder b(at);
      clone = b.clone(*def);
    }
    if (src)
      clone->setOperand(0, src);
    clone->setAttr(
        "device", IntegerAttr::get(IntegerType::get(def->getContext(), 64), d));
    Value r = clone->getResult(cast<OpResult>(v).getResultNumber());
    s.on[{v.getAsOpaquePointer(), d}] = r;
    s.home[r] = d;
    s.madeAt[r] = src ? s.madeAt.lookup(src) : 0;
    return r;
  }

  /// `v` moved to device d by a transfer created before `at`. Transfers
  /// run on each device's transfer stream, beside its kernels: one starts
  /// once `v` is made and both devices' previous transfers are done; the
  /// receiver's kernels wait for it only where they read it.
  Value move(State &s, Value v, int64_t d, Operation *at) {
    const int64_t from = homeOf(s, v);
    Value src = v;
    if (!s.home.count(v)) // a view not made yet: made with its source first
      src = local(s, v, from, at);
    OpBuilder b(at);
    auto i64 = b.getI64Type();
    auto t =
        kernel::CallOp::create(b, v.getLoc(), TypeRange{v.getType()},
                               b.getStringAttr("transfer"), ValueRange{src});
    t->setAttr("device", IntegerAttr::get(i64, from));
    t->setAttr("to", IntegerAttr::get(i64, d));
    Value r = t.getResult(0);
    const double start =
        std::max({s.link[from], s.link[d], s.madeAt.lookup(src)});
    const double end = start + transferUs(s.cost, v);
    s.link[from] = s.link[d] = end;
    s.on[{v.getAsOpaquePointer(), d}] = r;
    s.home[r] = d;
    s.madeAt[r] = end;
    s.starts.push_back({start, t});
    s.transferBytes += limbsOf(v) * s.cost.limbBytes();
    ++s.transfers;
    return r;
  }

  /// The device of a value; a view not made yet lives with its source.
  int64_t homeOf(State &s, Value v) {
    if (auto it = s.home.find(v); it != s.home.end())
      return it->second;
    if (auto view = v.getDefiningOp<kernel::ViewOp>())
      return homeOf(s, view.getSource());
    return 0;
  }
  double madeOf(State &s, Value v) {
    if (auto it = s.madeAt.find(v); it != s.madeAt.end())
      return it->second;
    if (auto view = v.getDefiningOp<kernel::ViewOp>())
      return madeOf(s, view.getSource());
    return 0;
  }

  /// Whether `v` is on device d, or can be made there without a kernel or
  /// a transfer (a free op, a view over a source on d).
  bool isLocal(State &s, Value v, int64_t d) {
    if (s.on.count({v.getAsOpaquePointer(), d}))
      return true;
    Operation *def = v.getDefiningOp();
    if (auto view = dyn_cast_or_null<kernel::ViewOp>(def))
      return isLocal(s, view.getSource(), d);
    return def && isFree(def);
  }

  /// A kernel of the schedule that may run again on another device.
  bool redoable(Operation *def) const {
    if (!def || !isa<kernel::CallOp, kernel::LaunchOp>(def) ||
        !def->hasAttr("device") || isFree(def))
      return false;
    auto c = dyn_cast<kernel::CallOp>(def);
    return !c || c.getCallee() != "transfer";
  }

  /// Recompute over transfer: the kernels that made a value, run again
  /// on the device that reads it (operands first), and the buffers they
  /// read that must still move there (the leaves).
  struct Redo {
    SmallVector<Operation *> kernels;
    SmallVector<Value> leaves;
    double us = 0;     // the kernels' model time on that device
    double leafUs = 0; // the leaves' transfers, each shared by its readers
  };

  void collect(State &s, Operation *def, int64_t d, Redo &r, int depth) {
    if (llvm::is_contained(r.kernels, def))
      return;
    for (Value o : def->getOperands()) {
      if (isLocal(s, o, d) || llvm::is_contained(r.leaves, o))
        continue;
      Operation *od = o.getDefiningOp();
      if (od && llvm::is_contained(r.kernels, od))
        continue;
      if (depth < kRedoDepth && redoable(od)) {
        collect(s, od, d, r, depth + 1);
        continue;
      }
      r.leaves.push_back(o);
      // A leaf moved once serves every later reader on d (the raised
      // digits of a hoisted rotation, read by each baby step).
      r.leafUs +=
          transferUs(s.cost, o) /
          std::max<double>(1, std::distance(o.use_begin(), o.use_end()));
    }
    r.kernels.push_back(def);
    r.us += s.cost.of(def);
  }

  /// Whether `v` (not on d) is better made on d again than moved there:
  /// the kernels' time plus their leaves' shared transfers against the
  /// transfers of the results of v's kernel that d lacks, those weighted
  /// by 1 + comm-weight as in the device choice. A baby step of a
  /// matrix-vector product read by giant steps on both GPUs is the case.
  bool planRedo(State &s, Value v, int64_t d, Redo &r) {
    Operation *def = v.getDefiningOp();
    if (!recompute || !redoable(def))
      return false;
    collect(s, def, d, r, 0);
    double moves = 0;
    for (Value x : def->getResults())
      if (!x.use_empty() && !s.on.count({x.getAsOpaquePointer(), d}))
        moves += transferUs(s.cost, x);
    return r.us + r.leafUs < (1 + cw_) * moves;
  }

  /// Puts `op` on device d's kernel stream once its operands (made by
  /// `operands`) are there; `op`'s results are d's copies of `of`'s.
  void place(State &s, Operation *op, int64_t d, double us, double operands,
             ValueRange of) {
    op->setAttr("device",
                IntegerAttr::get(IntegerType::get(op->getContext(), 64), d));
    const double start = std::max(s.ready[d], operands);
    s.ready[d] = start + us;
    s.starts.push_back({start, op});
    for (auto [x, r] : llvm::zip(of, op->getResults())) {
      s.on[{x.getAsOpaquePointer(), d}] = r;
      s.home[r] = d;
      s.madeAt[r] = s.ready[d];
    }
  }

  /// Runs `r` on device d before `at`: its leaves moved, its kernels
  /// cloned and scheduled on d's kernel stream, their results d's copies.
  void redoOn(State &s, const Redo &r, int64_t d, Operation *at) {
    for (Value leaf : r.leaves)
      if (!s.on.count({leaf.getAsOpaquePointer(), d}))
        move(s, leaf, d, at);
    for (Operation *def : r.kernels) {
      OpBuilder b(at);
      Operation *clone = b.clone(*def);
      double operands = 0;
      for (OpOperand &o : clone->getOpOperands()) {
        Value l = local(s, o.get(), d, clone);
        o.set(l);
        operands = std::max(operands, s.madeAt.lookup(l));
      }
      clone->setAttr("recomputed", b.getUnitAttr());

      place(s, clone, d, s.cost.of(def), operands, def->getResults());
      ++s.recomputed;
    }
  }

  /// `v` readable on device d by `reader`: local, cloned, recomputed or
  /// moved.
  Value fetch(State &s, Value v, int64_t d, Operation *reader) {
    if (Value l = local(s, v, d, reader))
      return l;
    if (Redo r; planRedo(s, v, d, r)) {
      redoOn(s, r, d, reader);
      return s.on.at({v.getAsOpaquePointer(), d});
    }
    return move(s, v, d, reader);
  }

  /// The device where an op finishes first by `finish(d, &moving)`, each
  /// transfer it needs (`moving`, us) counted once more times comm-weight:
  /// a buffer moved now is often needed back later. The lowest on a tie.
  int64_t earliest(llvm::function_ref<double(int64_t, double *)> finish) {
    int64_t best = 0;
    double bestScore = 0;
    for (int64_t d = 0; d < used_; ++d) {
      double moving = 0;
      double score = finish(d, &moving) + cw_ * moving;
      if (d == 0 || score < bestScore) {
        best = d;
        bestScore = score;
      }
    }
    return best;
  }

  // --- sums over devices (placeSum) ------------------------------------------
  /// When the copy of `v` on device d is made (a view: its source's).
  double madeOn(State &s, Value v, int64_t d) {
    if (auto it = s.on.find({v.getAsOpaquePointer(), d}); it != s.on.end())
      return s.madeAt.lookup(it->second);
    if (auto view = v.getDefiningOp<kernel::ViewOp>())
      return madeOn(s, view.getSource(), d);
    return 0;
  }

  /// A sum kernel's terms for a sum on device d: those d holds, and the
  /// others by the device that holds them.
  struct SumPlan {
    SmallVector<Value> here;
    std::map<int64_t, SmallVector<Value>> from;
  };
  SumPlan planSum(State &s, kernel::LaunchOp l, int64_t d) {
    SumPlan p;
    for (Value v : l.getInputs()) {
      if (isLocal(s, v, d))
        p.here.push_back(v);
      else
        p.from[homeOf(s, v)].push_back(v);
    }
    return p;
  }

  /// The model time of a sum kernel of `terms` polynomials like `v`.
  double sumUs(const OpCost &c, size_t terms, Value v) const {
    const auto limbBytes = static_cast<int64_t>(c.limbBytes());
    return kLaunchUs +
           c.dram(static_cast<double>(sumBytes(terms, v, limbBytes)));
  }

  /// When a sum kernel would finish on device d: each other device adds
  /// the terms it holds into one partial sum on its kernel stream (a lone
  /// term is not summed), which then moves to d.
  double sumFinishOn(State &s, kernel::LaunchOp l, int64_t d, double *moving) {
    SumPlan p = planSum(s, l, d);
    std::vector<double> link = s.link, ready = s.ready;
    double operands = 0;
    for (Value v : p.here)
      operands = std::max(operands, madeOn(s, v, d));
    for (auto &[e, terms] : p.from) {
      double made = 0;
      for (Value v : terms)
        made = std::max(made, madeOn(s, v, e));
      if (terms.size() > 1)
        made = ready[e] =
            std::max(ready[e], made) + sumUs(s.cost, terms.size(), terms[0]);
      const double start = std::max({link[e], link[d], made});
      link[e] = link[d] = start + transferUs(s.cost, terms[0]);
      operands = std::max(operands, link[d]);
      *moving += transferUs(s.cost, terms[0]);
    }
    return std::max(ready[d], operands) +
           sumUs(s.cost, p.here.size() + p.from.size(), l.getResult(0));
  }

  /// Places a sum kernel (isSum) whose terms are spread over devices: on
  /// the device where it finishes first (transfers weighted as for any
  /// op), each other device's terms added there first into one partial
  /// sum (a new sum kernel, `<name>.d<device>`), so one polynomial moves
  /// per device instead of one per term. The giant steps of a matrix-vector
  /// product spread over two GPUs are the case: dense1024_B's 30 raised
  /// products (16.8 MB each) per part became one.
  void placeSum(State &s, kernel::LaunchOp l) {
    const int64_t best = earliest([&](int64_t d, double *moving) {
      return sumFinishOn(s, l, d, moving);
    });
    SumPlan p = planSum(s, l, best);
    SmallVector<Value> inputs;
    double operands = 0;
    for (Value v : p.here)
      inputs.push_back(local(s, v, best, l));
    for (auto &[e, terms] : p.from) {
      Value x = terms[0];
      if (terms.size() > 1) {
        SmallVector<Value> ins;
        double made = 0;
        for (Value v : terms) {
          ins.push_back(local(s, v, e, l));
          made = std::max(made, s.madeAt.lookup(ins.back()));
        }
        OpBuilder b(l);
        auto partial = kernel::LaunchOp::create(
            b, l.getLoc(), l->getResultTypes(),
            b.getStringAttr(l.getName() + ".d" + std::to_string(e)), ins);
        if (Attribute lazy = l->getAttr("lazy_sums"))
          partial->setAttr("lazy_sums", lazy);
        partial.getBody().emplaceBlock();
        rebuildSum(partial, static_cast<int64_t>(s.cost.limbBytes()));
        place(s, partial, e, s.cost.of(partial), made, partial->getResults());
        x = partial.getResult(0);
        ++s.partials;
      }
      inputs.push_back(move(s, x, best, l));
    }
    for (Value v : inputs)
      operands = std::max(operands, s.madeAt.lookup(v));
    l->setOperands(inputs);
    rebuildSum(l, static_cast<int64_t>(s.cost.limbBytes()));
    place(s, l, best, s.cost.of(l), operands, l->getResults());
  }

  /// The poly operands a device must hold for `op` (keys and free values
  /// are local everywhere).
  SmallVector<Value> needed(Operation *op) {
    SmallVector<Value> vs;
    for (Value v : op->getOperands())
      if (isa<rns::PolyType>(v.getType()) && !isFree(v.getDefiningOp()) &&
          !llvm::is_contained(vs, v))
        vs.push_back(v);
    return vs;
  }

  /// When `op` would finish on device d (transfers of its missing operands
  /// first, each appended to both streams).
  double finishOn(State &s, Operation *op, int64_t d, double us,
                  double *moving = nullptr) {
    std::vector<double> link = s.link;
    double ready = s.ready[d];
    double operands = 0;
    // When a transfer of `x` to d, queued on both link streams, arrives.
    auto arrival = [&](Value x) {
      const int64_t from = homeOf(s, x);
      const double start = std::max({link[from], link[d], madeOf(s, x)});
      return link[from] = link[d] = start + transferUs(s.cost, x);
    };
    for (Value v : needed(op)) {
      auto here = s.on.find({v.getAsOpaquePointer(), d});
      if (here != s.on.end()) {
        operands = std::max(operands, s.madeAt.lookup(here->second));
        continue;
      }
      Value src = v;
      if (auto view = v.getDefiningOp<kernel::ViewOp>()) // cloned over a copy
        if (auto c = s.on.find({view.getSource().getAsOpaquePointer(), d});
            c != s.on.end()) {
          operands = std::max(operands, s.madeAt.lookup(c->second));
          continue;
        }
      if (Redo r; planRedo(s, src, d, r)) {
        // On d's kernel stream after its leaves' transfers.
        double made = 0;
        for (Value leaf : r.leaves) {
          if (auto c = s.on.find({leaf.getAsOpaquePointer(), d});
              c != s.on.end()) {
            made = std::max(made, s.madeAt.lookup(c->second));
            continue;
          }
          made = std::max(made, arrival(leaf));
        }
        for (Operation *k : r.kernels)
          for (Value o : k->getOperands())
            if (auto c = s.on.find({o.getAsOpaquePointer(), d});
                c != s.on.end())
              made = std::max(made, s.madeAt.lookup(c->second));
        ready = std::max(ready, made) + r.us;
        continue;
      }
      operands = std::max(operands, arrival(src));
      if (moving)
        *moving += transferUs(s.cost, src);
    }
    return std::max(ready, operands) + us;
  }

  LogicalResult partition(func::FuncOp f, const OpCost &cost) {
    Block &body = f.getBody().front();
    Operation *ret = body.getTerminator();
    State s(cost);
    s.ready.assign(used_, 0.0);
    s.link.assign(used_, 0.0);
    for (BlockArgument a : f.getArguments()) {
      s.home[a] = 0;
      s.madeAt[a] = 0;
      s.on[{Value(a).getAsOpaquePointer(), 0}] = a;
    }
    // Priorities: the longest path (model time) from each op to the end,
    // HEFT's upward rank; sorted by it, ops that start independent chains
    // interleave, so the devices advance together.
    SmallVector<Operation *> ops;
    DenseMap<Operation *, double> rank, us;
    DenseMap<Operation *, int64_t> index;
    for (Operation &op : body.without_terminator()) {
      index[&op] = ops.size();
      ops.push_back(&op);
    }
    for (Operation *op : llvm::reverse(ops)) {
      double below = 0;
      for (Operation *user : op->getUsers())
        if (Operation *top = body.findAncestorOpInBlock(*user))
          below = std::max(below, rank.lookup(top));
      us[op] = (isFree(op) || isa<kernel::ViewOp>(op)) ? 0 : cost.of(op);
      rank[op] = below + us[op];
    }
    SmallVector<Operation *> order;
    double oneDevice = 0;
    for (Operation *op : ops) {
      if (isFree(op) || isa<kernel::ViewOp>(op))
        continue; // placed with their readers
      if (!isa<kernel::CallOp, kernel::LaunchOp>(op))
        return op->emitOpError("kernel-partition-devices: not a kernel op");
      order.push_back(op);
      oneDevice += us[op];
    }
    llvm::stable_sort(order, [&](Operation *a, Operation *b) {
      return rank[a] > rank[b] || (rank[a] == rank[b] && index[a] < index[b]);
    });
    if (chains_)
      order = followChains(order);
    auto i64 = IntegerType::get(f.getContext(), 64);
    for (Operation *op : order) {
      if (auto l = dyn_cast<kernel::LaunchOp>(op);
          l && partialSums && isSum(l)) {
        placeSum(s, l);
        continue;
      }
      const int64_t best = earliest([&](int64_t d, double *moving) {
        return finishOn(s, op, d, us[op], moving);
      });
      double operands = 0;
      for (OpOperand &o : op->getOpOperands()) {
        if (!isa<rns::PolyType, rns::EvalKeyType, rns::KlssKeyType>(
                o.get().getType()))
          continue;
        o.set(fetch(s, o.get(), best, op));
        operands = std::max(operands, s.madeAt.lookup(o.get()));
      }
      place(s, op, best, us[op], operands, op->getResults());
    }
    for (OpOperand &o : ret->getOpOperands()) // results on device 0
      o.set(fetch(s, o.get(), 0, ret));
    // Views never read elsewhere stay with their sources, free ops nobody
    // read on device 0.
    for (Operation *op : ops) {
      if (op->hasAttr("device"))
        continue;
      int64_t d = 0;
      if (auto view = dyn_cast<kernel::ViewOp>(op))
        d = homeOf(s, view.getSource());
      op->setAttr("device", IntegerAttr::get(i64, d));
    }
    // The program in the schedule's order (each device's stream in start
    // order, transfers where both streams meet), free ops and views just
    // before their first reader.
    llvm::stable_sort(s.starts,
                      [](auto &a, auto &b) { return a.first < b.first; });
    DenseSet<Operation *> placed;
    std::function<void(Operation *)> place = [&](Operation *op) {
      if (!placed.insert(op).second)
        return;
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp())
          if (def->getBlock() == &body)
            place(def);
      op->moveBefore(ret);
    };
    for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
      if (op.getNumOperands() == 0 && op.use_empty())
        place(&op); // unread free ops first
    for (auto &[start, op] : s.starts)
      place(op);
    for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
      if (!placed.count(&op))
        place(&op);
    return predict(f, cost, oneDevice, s);
  }

  /// The ops of `byRank` (sorted by upward rank) in a list-scheduling order
  /// that follows chains: of the ops whose producers are all placed, a
  /// consumer of the op just placed first (the highest ranked of them),
  /// else the highest ranked. A giant step's sum, its rotation's ModUp and
  /// inner product are then placed one after the other, where rank order
  /// places every giant step's sum before any rotation (and the greedy
  /// choice splits them into an uneven two-stage pipeline).
  static SmallVector<Operation *> followChains(ArrayRef<Operation *> byRank) {
    DenseMap<Operation *, size_t> pos; // place in byRank: the priority
    for (auto [i, op] : llvm::enumerate(byRank))
      pos[op] = i;
    DenseMap<Operation *, SmallVector<Operation *>> users;
    DenseMap<Operation *, int> pending;
    for (Operation *op : byRank) {
      llvm::SmallPtrSet<Operation *, 8> seen;
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        while (auto view = dyn_cast_or_null<kernel::ViewOp>(def))
          def = view.getSource().getDefiningOp();
        if (!def || !pos.count(def) || !seen.insert(def).second)
          continue;
        users[def].push_back(op);
        ++pending[op];
      }
    }
    std::set<size_t> ready; // by priority
    for (Operation *op : byRank)
      if (!pending.lookup(op))
        ready.insert(pos[op]);
    SmallVector<Operation *> out;
    Operation *last = nullptr;
    while (!ready.empty()) {
      size_t pick = *ready.begin();
      if (last) {
        size_t best = SIZE_MAX;
        for (Operation *u : users.lookup(last))
          if (ready.count(pos[u]))
            best = std::min(best, pos[u]);
        if (best != SIZE_MAX)
          pick = best;
      }
      ready.erase(pick);
      last = byRank[pick];
      out.push_back(last);
      for (Operation *u : users.lookup(last))
        if (--pending[u] == 0)
          ready.insert(pos[u]);
    }
    return out;
  }

  // --- the prediction --------------------------------------------------------
  LogicalResult predict(func::FuncOp f, const OpCost &cost, double oneDevice,
                        State &s) {
    // Each device's kernel stream (t) and transfer stream (link): a
    // transfer starts once its buffer is made (an event after the kernel
    // that made it) and both devices' earlier transfers are done; a kernel
    // waits for the transfers it reads.
    std::vector<double> t(used_, 0.0), link(used_, 0.0), busy(used_, 0.0);
    DenseMap<Value, double> done;
    auto doneOf = [&](Value v) {
      while (auto view = v.getDefiningOp<kernel::ViewOp>())
        v = view.getSource();
      return done.lookup(v);
    };
    for (Operation &op : f.getBody().front()) {
      auto c = dyn_cast<kernel::CallOp>(op);
      if (c && c.getCallee() == "transfer") {
        int64_t from = deviceOf(&op);
        int64_t to = c->getAttrOfType<IntegerAttr>("to").getInt();
        double start =
            std::max({link[from], link[to], doneOf(c.getInputs()[0])});
        link[from] = link[to] = start + transferUs(cost, c.getInputs()[0]);
        done[c.getResult(0)] = link[to];
        continue;
      }
      if (!isa<kernel::CallOp, kernel::LaunchOp>(op))
        continue;
      const int64_t d = deviceOf(&op);
      double start = t[d];
      for (Value v : op.getOperands())
        start = std::max(start, doneOf(v));
      const double us =
          OpCost::launches(&op) * kLaunchUs + cost.work(&op) * shareScale_;
      t[d] = start + us;
      busy[d] += us;
      for (Value r : op.getResults())
        done[r] = t[d];
    }
    for (int64_t d = 0; d < used_; ++d)
      t[d] = std::max(t[d], link[d]);
    Builder b(f.getContext());
    f->setAttr("kernel.devices", b.getI64IntegerAttr(used_));
    f->setAttr("kernel.predicted_us", b.getF64ArrayAttr(t));
    f->setAttr("kernel.one_device_us", b.getF64FloatAttr(oneDevice));
    f->setAttr("kernel.transfer_bytes",
               b.getI64IntegerAttr(static_cast<int64_t>(s.transferBytes)));
    {
      summary_.clear();
      llvm::raw_string_ostream out(summary_);
      double makespan = *std::max_element(t.begin(), t.end());
      out << "kernel-partition-devices @" << f.getSymName() << ": " << used_;
      if (used_ < devices)
        out << " of " << devices;
      out << " devices, predicted " << llvm::format("%.1f", makespan)
          << " us (one device " << llvm::format("%.1f", oneDevice) << " us, "
          << llvm::format("%.2f", oneDevice / makespan) << "x), " << s.transfers
          << " transfers (" << llvm::format("%.1f", s.transferBytes / 1e6)
          << " MB), " << s.recomputed << " kernels run again, " << s.partials
          << " partial sums; finish:";
      for (double x : t)
        out << " " << llvm::format("%.1f", x);
      out << " us, kernels:";
      for (double x : busy)
        out << " " << llvm::format("%.1f", x);
      out << " us; schedule: " << (chains_ ? "chains" : "rank")
          << " order, comm weight " << llvm::format("%.2g", cw_) << "\n";
    }
    return success();
  }
};

} // namespace
