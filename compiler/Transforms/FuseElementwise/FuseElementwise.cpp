//===- FuseElementwise.cpp - vertical fusion into rns.fused
//----------------===//

#include "compiler/Transforms/FuseElementwise/FuseElementwise.h"

#include "dialects/RNS/IR/RNSOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#include <memory>

#define DEBUG_TYPE "rns-fuse-elementwise"

namespace ember {
#define GEN_PASS_DEF_RNSFUSEELEMENTWISE
#include "compiler/Transforms/FuseElementwise/FuseElementwise.h.inc"
} // namespace ember

using namespace mlir;

namespace ember {
namespace {

using rns::PolyType;

bool isTransform(Operation *op) { return isa<rns::NTTOp, rns::INTTOp>(op); }

/// An NTT-form automorphism: a permutation of each limb's residues, which a
/// generated kernel does as a permuted load of an input it reads from
/// memory (never of a value computed in the kernel: another thread has it).
bool isPermutedLoad(Operation *op) {
  auto a = dyn_cast<rns::AutomorphismOp>(op);
  return a && cast<PolyType>(a.getType()).isNTT();
}

/// The basis an op works over, when it can join a fusion group: that of
/// the result of an elementwise op (mul_p reads a smaller basis, which a
/// kernel over the result's limbs covers) or of an (I)NTT.
std::optional<PolyType> fusableBasis(Operation *op, bool transforms,
                                     bool permutedLoads) {
  if (isTransform(op) && !transforms)
    return std::nullopt;
  if (!isTransform(op) && !op->hasTrait<rns::OpTrait::RNSElementwise>() &&
      !(permutedLoads && isPermutedLoad(op)))
    return std::nullopt;
  if (op->getNumResults() != 1)
    return std::nullopt;
  auto basis = cast<PolyType>(op->getResultTypes()[0]);
  // KLSS's temporary primes T: a generated kernel's KernelBasis has no T
  // range, so work over T stays with the runtime's operations (two
  // automorphisms of one T digit, hoisted into one kernel, read it wrong:
  // tests/e2e/test_frontend.py::test_keyswitch_klss_end_to_end).
  if (basis.hasT())
    return std::nullopt;
  return basis;
}

struct Group {
  SmallVector<Operation *> ops; // in program order
  llvm::SmallPtrSet<Operation *, 8> members;
  llvm::SmallPtrSet<Operation *, 8> afterTransform; // transform + epilogue
  Operation *transform = nullptr;
  PolyType basis; // the limbs the kernel covers (form not compared)
  /// Where the fused op goes (after it): the last op, or an earlier op
  /// when a later sibling was hoisted up to this group (hoist-siblings).
  Operation *anchor = nullptr;
  Operation *at() const { return anchor ? anchor : ops.back(); }

  void add(Operation *op, bool post) {
    ops.push_back(op);
    members.insert(op);
    if (post || isTransform(op)) {
      afterTransform.insert(op);
      if (isTransform(op))
        transform = op;
    }
  }
};

/// True when no automorphism of `a` or `b` permutes a value computed in
/// either (the kernel of both together could not load it permuted).
bool permutedLoadsExternal(const Group &a, const Group &b) {
  for (const Group *g : {&a, &b})
    for (Operation *op : g->ops)
      if (isPermutedLoad(op)) {
        Operation *def = op->getOperand(0).getDefiningOp();
        if (def && (a.members.contains(def) || b.members.contains(def)))
          return false;
      }
  return true;
}

/// True when every use of a group value outside the group (other than by
/// `next`) comes after `next`, so the fused op can sit at `next`.
bool usesFollow(const Group &g, Operation *next) {
  Block *block = next->getBlock();
  for (Operation *op : g.ops)
    for (Operation *user : op->getUsers()) {
      Operation *anc = block->findAncestorOpInBlock(*user);
      if (!anc || g.members.contains(anc) || anc == next)
        continue;
      if (anc->isBeforeInBlock(next))
        return false;
    }
  return true;
}

/// Whether `op` can join `g`; sets `post` when it joins after the transform.
bool canJoin(const Group &g, Operation *op, PolyType basis, bool &post) {
  if (!g.basis.sameBasis(basis))
    return false;
  bool anyPre = false, anyPost = false;
  for (Value v : op->getOperands()) {
    Operation *def = v.getDefiningOp();
    if (!def || !g.members.contains(def))
      continue;
    (g.afterTransform.contains(def) ? anyPost : anyPre) = true;
  }
  if (isPermutedLoad(op) && (anyPre || anyPost))
    return false; // its operand is in the group: not a load
  if (isTransform(op)) {
    if (g.transform)
      return false;
    post = true;
  } else {
    if (g.transform && anyPre)
      return false; // an NTT redistributes data: no pre values after it
    post = anyPost;
  }
  return usesFollow(g, op);
}

/// Moves all ops of `from` into `to`, keeping program order.
void mergeInto(Group &from, Group &to,
               DenseMap<Operation *, Group *> &groupOf) {
  for (Operation *op : from.ops) {
    to.add(op, to.transform != nullptr);
    groupOf[op] = &to;
  }
  from.ops.clear();
  from.members.clear();
  llvm::sort(to.ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
}

/// Moves all ops of `from` (a sibling hoisted up to `to`: neither reads
/// the other) into `to`, interleaved: each op at its relative place in
/// its own sequence, so that the two sums' products of one shared input
/// come together and the generated kernel keeps each loaded value live
/// briefly. (Appended whole, the first sum's loads of every shared input
/// stay live until the second sum's: 64 words for a giant-step pair of
/// dense1024_B, which spilled and ran slower than two kernels.)
void mergeInterleaved(Group &from, Group &to,
                      DenseMap<Operation *, Group *> &groupOf) {
  SmallVector<Operation *> a = to.ops, b = from.ops, merged;
  for (Operation *op : b) {
    to.members.insert(op);
    groupOf[op] = &to;
  }
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    // Take from a while its next op's place (i / |a|) is not after b's.
    if (j == b.size() || (i < a.size() && i * b.size() <= j * a.size()))
      merged.push_back(a[i++]);
    else
      merged.push_back(b[j++]);
  }
  to.ops = std::move(merged);
  from.ops.clear();
  from.members.clear();
}

/// The values a group reads from outside it.
llvm::SetVector<Value> externalInputs(const Group &g) {
  llvm::SetVector<Value> in;
  for (Operation *op : g.ops)
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (!def || !g.members.contains(def))
        in.insert(v);
    }
  return in;
}

/// The values of a group used outside it (its kernel's outputs).
size_t outputCount(const Group &g) {
  size_t n = 0;
  for (Operation *op : g.ops)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *u) { return !g.members.contains(u); }))
        ++n;
  return n;
}

/// Whether every use of a value of `g` outside `a` and `b` comes after `at`.
bool usedOnlyAfter(const Group &g, const Group &a, const Group &b,
                   Operation *at) {
  Block *block = at->getBlock();
  for (Operation *op : g.ops)
    for (Operation *user : op->getUsers()) {
      Operation *anc = block->findAncestorOpInBlock(*user);
      if (!anc || a.members.contains(anc) || b.members.contains(anc))
        continue;
      if (anc->isBeforeInBlock(at))
        return false;
    }
  return true;
}

/// Horizontal fusion of siblings: `a` (earlier) can merge with `b` when
/// both are transform-free groups over one basis that read a common input
/// (each shared input is then loaded once for both). Capped so that one
/// kernel's buffer lists stay small, unless they share most of their
/// inputs (the two parts of a ciphertext summed over the same plaintexts:
/// ckks.hoisted_dot's sums, the giant steps of a matrix-vector product),
/// where merging cuts what the pair reads.
///
/// Without `hoist`, the merged kernel sits at the later last op, when
/// nothing outside the two uses their values before it (which also keeps
/// any input of theirs that depends on one of them out). With `hoist`, it
/// sits at `a`'s place, when everything `b` reads is made before `a`'s
/// first op and nothing outside uses `b`'s values before that place: a
/// giant step whose sum feeds its rotation right away then shares the
/// loads of its baby steps with the next giant step's sum.
bool canMergeSiblings(const Group &a, const Group &b, bool hoist) {
  constexpr size_t kMaxInputs = 12, kMaxOutputs = 6, kMaxSharedInputs = 128,
                   kMaxSharedOutputs = 16;
  if (a.transform || b.transform || !a.basis.sameBasis(b.basis) ||
      a.ops.empty() || b.ops.empty())
    return false;
  llvm::SetVector<Value> ina = externalInputs(a), inb = externalInputs(b);
  if (!llvm::any_of(ina, [&](Value v) { return inb.contains(v); }) ||
      !permutedLoadsExternal(a, b))
    return false;
  llvm::SetVector<Value> all = ina;
  all.insert(inb.begin(), inb.end());
  const size_t shared = ina.size() + inb.size() - all.size();
  const bool mostlyShared = all.size() <= kMaxSharedInputs &&
                            2 * shared >= std::min(ina.size(), inb.size());
  const size_t outputs = outputCount(a) + outputCount(b);
  if (!mostlyShared && (all.size() > kMaxInputs || outputs > kMaxOutputs))
    return false;
  if (mostlyShared && outputs > kMaxSharedOutputs)
    return false;
  if (!hoist) {
    if (a.anchor || b.anchor)
      return false;
    Operation *last = a.ops.back()->isBeforeInBlock(b.ops.back())
                          ? b.ops.back()
                          : a.ops.back();
    return usedOnlyAfter(a, a, b, last) && usedOnlyAfter(b, a, b, last);
  }
  // A hoisted merge makes a kernel of several sums, each summed lazily in
  // registers: at most four results (two giant steps' two parts). With
  // twelve (six giant steps of dense256_B) the kernels took 207-222
  // registers and ran slower than the unmerged ones.
  constexpr size_t kMaxHoistedOutputs = 4;
  if (b.anchor || outputs > kMaxHoistedOutputs ||
      !a.at()->isBeforeInBlock(b.ops.front()))
    return false;
  Operation *first = a.ops.front();
  for (Value v : inb) {
    Operation *def = v.getDefiningOp();
    if (def && def->getBlock() == first->getBlock() &&
        !def->isBeforeInBlock(first))
      return false; // made at or after a's start
  }
  return usedOnlyAfter(b, a, b, a.at());
}

/// Replaces the group's ops by one rns.fused op at the group's place (its
/// last op, or the op a hoisted sibling joined it at).
void materialize(Group &g) {
  Operation *last = g.at();
  llvm::SetVector<Value> inputs;
  SmallVector<Value> outputs;
  for (Operation *op : g.ops) {
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (!def || !g.members.contains(def))
        inputs.insert(v);
    }
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *u) { return !g.members.contains(u); }))
        outputs.push_back(r);
  }
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  auto fused = rns::FusedOp::create(
      b, last->getLoc(), ValueRange(outputs).getTypes(), inputs.getArrayRef());
  Block *body = b.createBlock(&fused.getBody());
  IRMapping map;
  for (Value in : inputs)
    map.map(in, body->addArgument(in.getType(), in.getLoc()));
  for (Operation *op : g.ops)
    b.clone(*op, map);
  SmallVector<Value> yielded;
  for (Value out : outputs)
    yielded.push_back(map.lookup(out));
  rns::YieldOp::create(b, last->getLoc(), yielded);
  for (auto [out, res] : llvm::zip(outputs, fused.getResults()))
    out.replaceUsesWithIf(res, [&](OpOperand &use) {
      return !g.members.contains(use.getOwner());
    });
  for (Operation *op : llvm::reverse(g.ops))
    op->erase();
}

/// ks_inner_product(key, sigma(d_0), .., sigma(d_k)) with one automorphism
/// sigma of every digit, each used only there -> ks_inner_product(key, d_0,
/// .., d_k) {galois}: the inner product reads the digits permuted, and the
/// permuted digits (a hoisted rotation's dnum polynomials over Q_l u P)
/// are never written.
void foldAutomorphismsIntoInnerProducts(Operation *root) {
  SmallVector<rns::KSInnerProductOp> ips;
  root->walk([&](rns::KSInnerProductOp ip) { ips.push_back(ip); });
  for (rns::KSInnerProductOp ip : ips) {
    if (ip.getGaloisAttr())
      continue;
    std::optional<int64_t> galois;
    SmallVector<rns::AutomorphismOp> autos;
    for (Value d : ip.getDigits()) {
      auto a = d.getDefiningOp<rns::AutomorphismOp>();
      if (!a || !a->hasOneUse() || !isPermutedLoad(a) ||
          (galois && *galois != static_cast<int64_t>(a.getGalois())))
        break;
      galois = a.getGalois();
      autos.push_back(a);
    }
    if (autos.size() != ip.getDigits().size())
      continue;
    LLVM_DEBUG(llvm::dbgs() << "folding " << autos.size()
                            << " automorphisms into " << ip << "\n");
    OpBuilder b(ip);
    ip.getDigitsMutable().assign(llvm::to_vector(llvm::map_range(
        autos, [](rns::AutomorphismOp a) { return a.getInput(); })));
    ip.setGaloisAttr(b.getI64IntegerAttr(*galois));
    for (rns::AutomorphismOp a : autos)
      a->erase();
  }
}

struct RNSFuseElementwisePass
    : impl::RNSFuseElementwiseBase<RNSFuseElementwisePass> {
  using RNSFuseElementwiseBase::RNSFuseElementwiseBase;

  void runOnOperation() override {
    if (lanes != 0) {
      if (lanes != 1 && lanes != 2 && lanes != 4) {
        getOperation()->emitError("rns-fuse-elementwise lanes=")
            << static_cast<int64_t>(lanes)
            << ": generated kernels take 1, 2 or 4 coefficients "
            << "per thread";
        return signalPassFailure();
      }
      auto mark = [&](func::FuncOp f) {
        f->setAttr("kernel.lanes",
                   IntegerAttr::get(IntegerType::get(f.getContext(), 64),
                                    static_cast<int64_t>(lanes)));
      };
      if (auto f = dyn_cast<func::FuncOp>(getOperation()))
        mark(f);
      else
        getOperation()->walk(mark);
    }
    if (!enabled)
      return;
    if (permutedLoads)
      foldAutomorphismsIntoInnerProducts(getOperation());
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<rns::FusedOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks)
      fuseBlock(*block);
    if (!lazySums)
      getOperation()->walk([](rns::FusedOp f) {
        f->setAttr("lazy_sums", BoolAttr::get(f->getContext(), false));
      });
  }

  void fuseBlock(Block &block) {
    SmallVector<std::unique_ptr<Group>> groups;
    DenseMap<Operation *, Group *> groupOf;
    for (Operation &op : block) {
      std::optional<PolyType> basis =
          fusableBasis(&op, fuseTransforms, permutedLoads);
      if (!basis)
        continue;
      // The groups of the operands, in operand order.
      SmallVector<Group *> candidates;
      for (Value v : op.getOperands())
        if (Operation *def = v.getDefiningOp())
          if (Group *g = groupOf.lookup(def);
              g && !llvm::is_contained(candidates, g))
            candidates.push_back(g);
      Group *joined = nullptr;
      bool post = false;
      for (Group *g : candidates)
        if (canJoin(*g, &op, *basis, post)) {
          joined = g;
          break;
        }
      if (joined) {
        // Other operand groups without a transform join too: their ops are
        // independent elementwise work of the same kernel (in the epilogue
        // when `joined` holds a transform).
        for (Group *g : candidates)
          if (g != joined && !g->transform && g->basis.sameBasis(*basis) &&
              usesFollow(*g, &op) && !(joined->transform && isTransform(&op)) &&
              permutedLoadsExternal(*g, *joined))
            mergeInto(*g, *joined, groupOf);
      } else {
        groups.push_back(std::make_unique<Group>());
        joined = groups.back().get();
        joined->basis = *basis;
        post = false;
      }
      joined->add(&op, post);
      groupOf[&op] = joined;
    }
    // Horizontal: independent siblings reading a common input (the three
    // products of a tensor product) become one kernel. First in place (at
    // the later of the two), then, with hoist-siblings, a later group
    // hoisted up to an earlier one: after the first round, so that each
    // giant step's two sums are one group before giant steps pair up.
    if (horizontal)
      for (bool hoist : {false, true}) {
        if (hoist && !hoistSiblings)
          break;
        for (size_t j = 1; j < groups.size(); ++j)
          for (size_t i = 0; i < j && !groups[j]->ops.empty(); ++i) {
            if (!canMergeSiblings(*groups[i], *groups[j], hoist))
              continue;
            if (!hoist) {
              LLVM_DEBUG(llvm::dbgs() << "merging sibling groups\n");
              mergeInto(*groups[i], *groups[j], groupOf);
              continue;
            }
            LLVM_DEBUG(llvm::dbgs() << "hoisting a sibling group\n");
            Operation *at = groups[i]->at();
            mergeInterleaved(*groups[j], *groups[i], groupOf);
            groups[i]->anchor = at;
          }
      }
    for (auto &g : groups)
      if (g->ops.size() > 1) {
        LLVM_DEBUG(llvm::dbgs() << "fusing " << g->ops.size() << " ops\n");
        materialize(*g);
      }
  }
};

} // namespace
} // namespace ember
