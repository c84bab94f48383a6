//===- PlaceBootstraps.cpp - fhe-place-bootstraps -------------------------===//
//
// The least-cost bootstrap placement as a shortest path over the points
// between the ops of a function body (PlaceBootstraps.td).
//
//===----------------------------------------------------------------------===//
#include "compiler/Transforms/PlaceBootstraps/PlaceBootstraps.h"
#include "compiler/Transforms/Utils/FreeFactors.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <limits>

namespace ember {
#define GEN_PASS_DEF_PLACEBOOTSTRAPS
#include "compiler/Transforms/PlaceBootstraps/PlaceBootstraps.h.inc"
} // namespace ember

using namespace mlir;
namespace fhe = ember::fhe;

namespace {

bool isCiphertext(Value v) { return isa<fhe::CiphertextType>(v.getType()); }

/// "file:line" of the first file location in `loc`, or "?".
std::string sourceLine(Location loc) {
  std::string out = "?";
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      out = f.getFilename().str() + ":" + std::to_string(f.getLine());
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}

/// A ciphertext computed by an op of the body: where it is defined and the
/// last point before its last use (the return counts as op n + 1).
struct Computed {
  Value value;
  int64_t def = 0, last = 0;
  std::string cannot; ///< why it cannot be bootstrapped, or ""
};

} // namespace

FailureOr<ember::BootstrapPlacement>
ember::placeBootstraps(func::FuncOp func,
                       const BootstrapPlacementOptions &opts) {
  const int64_t top = opts.levels;
  if (top < 1 || opts.outputLevels > top)
    return func.emitError("bootstrap placement needs at least one level "
                          "between bootstraps and at most that many left at "
                          "the outputs, got ")
           << top << " and " << opts.outputLevels;
  Block &body = func.getBody().front();
  Operation *ret = body.getTerminator();
  // ops[1..n]; point i lies after ops[i] (point 0 before the first).
  SmallVector<Operation *> ops{nullptr};
  DenseMap<Operation *, int64_t> pos;
  for (Operation &op : body.without_terminator()) {
    pos[&op] = static_cast<int64_t>(ops.size());
    ops.push_back(&op);
  }
  const int64_t n = static_cast<int64_t>(ops.size()) - 1;
  auto position = [&](Operation *user) {
    Operation *inBody = body.findAncestorOpInBlock(*user);
    return inBody == ret ? n + 1 : pos.lookup(inBody);
  };
  SmallVector<Computed> computed;
  DenseMap<Value, int64_t> index;
  for (int64_t i = 1; i <= n; ++i)
    for (Value r : ops[i]->getResults()) {
      if (!isCiphertext(r))
        continue;
      Computed c{r, i, i, opts.cannotBootstrap ? opts.cannotBootstrap(r) : ""};
      for (Operation *user : r.getUsers())
        c.last = std::max(c.last, position(user));
      index[r] = static_cast<int64_t>(computed.size());
      computed.push_back(std::move(c));
    }
  // The computed ciphertexts live at each point.
  std::vector<SmallVector<int64_t>> liveAt(n + 1);
  for (auto [k, c] : llvm::enumerate(computed))
    for (int64_t i = c.def; i < c.last && i <= n; ++i)
      liveAt[i].push_back(static_cast<int64_t>(k));

  // best[i]: the least cost of ops 1..i with a cut at point i (ties go to
  // the later cut: a bootstrap as late as the levels allow); remAt[i]:
  // the levels left, on that path, of the values live at i that were
  // computed in its last segment (the others have `top`).
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> best(n + 1, inf);
  std::vector<int64_t> from(n + 1, -1);
  std::vector<DenseMap<int64_t, int64_t>> remAt(n + 1);
  std::vector<int64_t> rem(computed.size(), top);
  best[0] = 0;
  int64_t reached = 0;    // the furthest op any segment ran
  std::string blockedWhy; // why the last cut before it failed
  // The values a cut at i bootstraps: those live there with fewer than
  // all levels, or at the end, the outputs with fewer than output-levels.
  auto cutValues = [&](int64_t i) {
    SmallVector<int64_t> out;
    for (int64_t k : liveAt[i]) {
      auto it = remAt[i].find(k);
      if (it != remAt[i].end() &&
          it->second < (i == n ? opts.outputLevels : top))
        out.push_back(k);
    }
    return out;
  };
  for (int64_t i = 0; i < n; ++i) {
    if (best[i] == inf)
      continue;
    SmallVector<int64_t> cut = cutValues(i);
    bool feasible = true;
    for (int64_t k : cut)
      if (!computed[k].cannot.empty()) {
        blockedWhy =
            sourceLine(computed[k].value.getLoc()) + ": " + computed[k].cannot;
        feasible = false;
        break;
      }
    if (!feasible)
      continue;
    double cost =
        best[i] + opts.bootstrapCost * static_cast<double>(cut.size());
    for (int64_t j = i + 1; j <= n; ++j) {
      Operation *op = ops[j];
      auto levelOf = [&](Value v) {
        auto it = index.find(v);
        return it == index.end() || computed[it->second].def <= i
                   ? top
                   : rem[it->second];
      };
      int64_t in = top;
      for (Value operand : op->getOperands())
        if (isCiphertext(operand))
          in = std::min(in, levelOf(operand));
      int64_t out = isa<fhe::BootstrapOp>(op) ? top : in - levelsUsed(op);
      if (out < 0)
        break;
      cost +=
          isa<fhe::BootstrapOp>(op) ? opts.bootstrapCost : opts.opCost(op, in);
      for (Value r : op->getResults())
        if (isCiphertext(r))
          rem[index[r]] = out;
      reached = std::max(reached, j);
      double total = cost;
      if (j == n) {
        // Returned values with fewer than output-levels are bootstrapped
        // at the end (a cut at point n).
        bool feasible = true;
        for (Value v : ret->getOperands())
          if (isCiphertext(v) && levelOf(v) < opts.outputLevels) {
            const std::string &why = computed[index[v]].cannot;
            if (!why.empty()) {
              blockedWhy = sourceLine(v.getLoc()) + ": " + why;
              feasible = false;
            }
            total += opts.bootstrapCost;
          }
        if (!feasible)
          continue;
      }
      if (total > best[j])
        continue;
      best[j] = total;
      from[j] = i;
      remAt[j].clear();
      for (int64_t k : liveAt[j])
        if (computed[k].def > i)
          remAt[j][k] = rem[k];
    }
  }
  if (n > 0 && best[n] == inf) {
    Operation *at = reached < n ? ops[reached + 1] : ret;
    auto diag = at->emitError("no bootstrap placement with ")
                << top << " levels between bootstraps reaches this op";
    if (reached == n)
      diag << " with " << opts.outputLevels << " levels left at the outputs";
    if (!blockedWhy.empty())
      diag << ": the value at " << blockedWhy;
    return diag;
  }

  // The cuts of the shortest path, first to last; bootstrap their values.
  SmallVector<int64_t> cuts{n};
  for (int64_t j = n; j > 0; j = from[j])
    cuts.push_back(from[j]);
  std::reverse(cuts.begin(), cuts.end());
  BootstrapPlacement placement;
  placement.opCost = n > 0 ? best[n] : 0;
  if (opts.dryRun) {
    for (int64_t i : cuts)
      placement.bootstraps += i == 0 ? 0 : cutValues(i).size();
    placement.bootstrapCost =
        opts.bootstrapCost * static_cast<double>(placement.bootstraps);
    placement.opCost -= placement.bootstrapCost;
    return placement;
  }
  SmallVector<Attribute> sites;
  OpBuilder b(func.getContext());
  for (int64_t i : cuts) {
    if (i == 0)
      continue;
    b.setInsertionPointAfter(ops[i]);
    for (int64_t k : cutValues(i)) {
      Value v = computed[k].value;
      auto boot = fhe::BootstrapOp::create(b, v.getLoc(), v.getType(), v);
      v.replaceUsesWithIf(boot.getResult(), [&](OpOperand &use) {
        return use.getOwner() != boot && position(use.getOwner()) > i;
      });
      sites.push_back(b.getStringAttr(sourceLine(v.getLoc())));
      ++placement.bootstraps;
    }
  }
  placement.bootstrapCost =
      opts.bootstrapCost * static_cast<double>(placement.bootstraps);
  placement.opCost -= placement.bootstrapCost;
  func->setAttr(
      kBootstrapPlacementAttr,
      b.getDictionaryAttr({
          b.getNamedAttr("levels", b.getI64IntegerAttr(top)),
          b.getNamedAttr("bootstraps",
                         b.getI64IntegerAttr(placement.bootstraps)),
          b.getNamedAttr("bootstrap_cost",
                         b.getF64FloatAttr(opts.bootstrapCost)),
          b.getNamedAttr("op_cost", b.getF64FloatAttr(placement.opCost)),
          b.getNamedAttr("units", b.getStringAttr(opts.units)),
          b.getNamedAttr("sites", b.getArrayAttr(sites)),
      }));
  return placement;
}

namespace {

struct PlaceBootstrapsPass
    : public ember::impl::PlaceBootstrapsBase<PlaceBootstrapsPass> {
  using PlaceBootstrapsBase::PlaceBootstrapsBase;

  void runOnOperation() override {
    ember::BootstrapPlacementOptions opts;
    opts.levels = levels;
    opts.outputLevels = outputLevels;
    opts.bootstrapCost = bootstrapCost;
    opts.units = "relative";
    // Relative units: a key switch grows with the limbs and dominates.
    opts.opCost = [](Operation *op, int64_t level) {
      bool keySwitch = isa<fhe::RotateOp, fhe::ConjugateOp>(op);
      if (auto mul = dyn_cast<fhe::MulOp>(op))
        keySwitch = isCiphertext(mul.getLhs()) && isCiphertext(mul.getRhs());
      return static_cast<double>((level + 1) * (keySwitch ? 10 : 1));
    };
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && failed(ember::placeBootstraps(func, opts)))
        return signalPassFailure();
  }
};

} // namespace
