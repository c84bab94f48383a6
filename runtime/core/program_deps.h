// The order a compiled program's steps must keep: for each step, the earlier
// steps it reads from, writes over or must not overwrite before they have
// read (by the memory each touches: arena byte ranges from the memory plan,
// views aliasing their buffer's, and a place of its own for each buffer
// outside the arena). Every other pair of steps may run side by side: the
// CUDA graph of a program is captured as this DAG (runtime/cuda/program.cu,
// BasicCudaGraph::concurrent) instead of one chain in program order.
#pragma once

#include "ember/program_plan.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ember::program {

/// preds[i]: the earlier steps step i must follow, none of them implied by
/// another (the transitive reduction). Steps whose kind is not modelled
/// here (kBfvTensor: the BFV evaluator's own temporaries; any unknown kind)
/// are barriers: they follow every earlier step and every later step
/// follows them. `limb_bytes` is N times the word's bytes, `t_limbs` the
/// KLSS T primes' count (buffers over_t).
///
/// A program of several devices (plan.devices > 1) is ordered per device,
/// each in its own arena: `device`'s steps only (the others have no
/// predecessors and precede nothing). A kTransfer reads its buffer on the
/// sender and writes its result on the receiver; what orders the two
/// devices is the transfer itself (runtime/cuda/program.cu waits for it
/// inside the step when it captures the DAG).
template <typename Kernel>
std::vector<std::vector<int32_t>>
stepDependencies(const Plan<Kernel> &plan, int64_t limb_bytes, int t_limbs,
                 int device = 0) {
  struct Range {
    int64_t lo, hi;
  };
  struct Access {
    Range r;
    int32_t step;
    bool write;
  };
  const size_t n = plan.step_count;
  // Buffers outside the arena (keys, constants, unplanned results) each get
  // a place of their own past every arena offset.
  constexpr int64_t kApart = int64_t{1} << 60;
  auto arg = [&](int32_t list, int32_t i) { return plan.args[list + i]; };
  std::vector<std::vector<Range>> at(plan.buffer_count);
  auto rangesOf = [&](int32_t b) -> const std::vector<Range> & {
    std::vector<Range> &r = at[b];
    if (r.empty()) {
      const BufferSpec &s = plan.buffers[b];
      const int64_t limbs =
          s.over_t ? t_limbs : (s.q_hi - s.q_lo) + (s.p_hi - s.p_lo);
      if (s.offset >= 0)
        r.push_back({s.offset, s.offset + limbs * limb_bytes});
      else
        r.push_back({kApart + b, kApart + b + 1});
    }
    return r;
  };
  std::vector<Access> live; // accesses not yet covered by a later write
  std::vector<std::vector<int32_t>> direct(n);
  int32_t barrier = -1;
  for (size_t i = 0; i < n; ++i) {
    const Step &s = plan.steps[i];
    const int32_t me = static_cast<int32_t>(i);
    std::vector<Access> acc;
    auto reads = [&](int32_t b) {
      for (const Range &r : rangesOf(b))
        acc.push_back({r, me, false});
    };
    auto writes = [&](int32_t b) {
      for (const Range &r : rangesOf(b))
        acc.push_back({r, me, true});
    };
    if (!onDevice(plan, s, device))
      continue; // another device's step
    bool is_barrier = false;
    switch (s.kind) {
    case StepKind::kConstant:   // encoded before the run
    case StepKind::kLoadKey:    // a key the context holds
    case StepKind::kPlainInput: // checks on the host
    case StepKind::kRelease:    // bookkeeping
      break;
    case StepKind::kView: // an alias of its operand's memory
      at[arg(s.out, 0)] = rangesOf(arg(s.in, 0));
      break;
    case StepKind::kInput:
    case StepKind::kEncodeValues:
    case StepKind::kZero:
    case StepKind::kNtt:
    case StepKind::kIntt:
    case StepKind::kBConv:
    case StepKind::kModUp:
    case StepKind::kKsInnerProduct:
    case StepKind::kKlssModUp:
    case StepKind::kKlssInnerProduct:
    case StepKind::kModSwitchDown:
    case StepKind::kAutomorphism:
    case StepKind::kConcat:
    case StepKind::kCopy:
    case StepKind::kLaunch:
    case StepKind::kOutput:
      for (int32_t j = 0; j < s.nin; ++j)
        if (plan.buffers[arg(s.in, j)].key == 0)
          reads(arg(s.in, j));
      // A switch that overlaps the inner product before it (imm[1]) runs
      // that inner product too: it reads its digits.
      if (const Step *ip = overlappedInnerProduct(plan, i))
        for (int32_t j = 0; j < ip->nin; ++j)
          if (plan.buffers[arg(ip->in, j)].key == 0)
            reads(arg(ip->in, j));
      for (int32_t j = 0; j < s.nout; ++j)
        writes(arg(s.out, j));
      if (s.scratch >= 0) {
        const BufferSpec &o = plan.buffers[s.scratch];
        acc.push_back(
            {{o.offset, o.offset + int64_t{o.q_hi} * limb_bytes}, me, true});
      }
      break;
    case StepKind::kTransfer:
      if (plan.devices <= 1) {
        is_barrier = true;
        break;
      }
      if (s.device == device)
        reads(arg(s.in, 0));
      else
        writes(arg(s.out, 0));
      break;
    default:
      is_barrier = true;
    }
    std::vector<int32_t> &d = direct[i];
    if (is_barrier) {
      for (int32_t j = std::max(barrier, 0); j < me; ++j)
        d.push_back(j);
      barrier = me;
      live.clear();
      continue;
    }
    if (barrier >= 0)
      d.push_back(barrier);
    for (const Access &a : acc)
      for (const Access &l : live)
        if ((a.write || l.write) && a.r.lo < l.r.hi && l.r.lo < a.r.hi)
          d.push_back(l.step);
    // The bytes of an access that this step writes over are implied from
    // now on (a later step that conflicts with them conflicts with the
    // write too): each earlier access keeps only its bytes outside the
    // write.
    for (const Access &a : acc) {
      if (!a.write)
        continue;
      std::vector<Access> kept;
      for (const Access &l : live) {
        if (l.r.hi <= a.r.lo || a.r.hi <= l.r.lo) {
          kept.push_back(l);
          continue;
        }
        if (l.r.lo < a.r.lo)
          kept.push_back({{l.r.lo, a.r.lo}, l.step, l.write});
        if (a.r.hi < l.r.hi)
          kept.push_back({{a.r.hi, l.r.hi}, l.step, l.write});
      }
      live.swap(kept);
    }
    live.insert(live.end(), acc.begin(), acc.end());
  }
  for (std::vector<int32_t> &d : direct) {
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
  }
  // Transitive reduction: drop a predecessor that another one follows
  // (n^2 bits: above 2^15 steps the direct predecessors stay).
  if (n > (size_t{1} << 15))
    return direct;
  const size_t words = (n + 63) / 64;
  std::vector<uint64_t> above(n * words, 0); // above[i]: i's ancestors
  std::vector<std::vector<int32_t>> preds(n);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<int32_t> &d = direct[i];
    uint64_t *mine = &above[i * words];
    for (int32_t p : d) {
      const uint64_t *theirs = &above[size_t(p) * words];
      for (size_t w = 0; w < words; ++w)
        mine[w] |= theirs[w];
    }
    // d's members that are ancestors of another member are implied.
    for (int32_t p : d)
      if (!(mine[p / 64] >> (p % 64) & 1))
        preds[i].push_back(p);
    for (int32_t p : d)
      mine[p / 64] |= uint64_t{1} << (p % 64);
  }
  return preds;
}

} // namespace ember::program
