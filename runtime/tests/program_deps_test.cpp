// The order of a plan's steps for a concurrent CUDA graph
// (runtime/core/program_deps.h): read-after-write, write-after-read and
// write-after-write over the memory plan's arena ranges, views aliasing
// their buffer, scratch ranges, keys and constants read-only, barriers,
// one device's order of a program of several (transfers), and the
// transitive reduction; checked on hand-built plans against the
// orders they must have.
#include "../core/program_deps.h"
#include "ember/program_abi.h"

#include <gtest/gtest.h>

#include <vector>

namespace ember::program {
namespace {

using Preds = std::vector<std::vector<int32_t>>;
constexpr int64_t kLimb = 1024; // bytes of one limb in these plans

/// A hand-built plan: buffers of `limbs` Q limbs at byte offsets (-1: not
/// in the arena), steps reading and writing them.
struct Builder {
  std::vector<BufferSpec> buffers;
  std::vector<int32_t> args;
  std::vector<Step> steps;

  int32_t buffer(int64_t offset, int limbs = 1, uint8_t key = 0) {
    buffers.push_back({0, int16_t(limbs), 0, 0, 1, 0, key, offset});
    return int32_t(buffers.size() - 1);
  }
  int32_t list(const std::vector<int32_t> &v) {
    const int32_t at = int32_t(args.size());
    args.insert(args.end(), v.begin(), v.end());
    return at;
  }
  size_t step(StepKind kind, const std::vector<int32_t> &out,
              const std::vector<int32_t> &in, int32_t scratch = -1,
              int8_t device = 0) {
    Step s{};
    s.kind = kind;
    s.device = device;
    s.out = list(out);
    s.nout = int32_t(out.size());
    s.in = list(in);
    s.nin = int32_t(in.size());
    s.scratch = scratch;
    steps.push_back(s);
    return steps.size() - 1;
  }
  /// A kTransfer of `from` (on device `sender`) into `to` (on `receiver`).
  size_t transfer(int32_t to, int32_t from, int8_t sender, int8_t receiver) {
    const size_t i = step(StepKind::kTransfer, {to}, {from}, -1, sender);
    steps[i].imm[0] = receiver;
    return i;
  }
  /// Device `device`'s order of a plan over `devices` devices.
  Preds preds(int32_t devices = 0, int device = 0) const {
    Plan<CudaKernel> plan{
        buffers.data(), buffers.size(), args.data(), steps.data(),
        steps.size(),   nullptr,        0,           nullptr,
        nullptr,        1 << 20,        0,           0};
    plan.devices = devices;
    return stepDependencies(plan, kLimb, 3, device);
  }
};

TEST(ProgramDeps, IndependentChainsStayApart) {
  Builder b;
  const int32_t x = b.buffer(0), y = b.buffer(kLimb), xa = b.buffer(2 * kLimb),
                ya = b.buffer(3 * kLimb), sum = b.buffer(4 * kLimb);
  b.step(StepKind::kInput, {x}, {});          // 0
  b.step(StepKind::kInput, {y}, {});          // 1
  b.step(StepKind::kNtt, {xa}, {x});          // 2
  b.step(StepKind::kNtt, {ya}, {y});          // 3
  b.step(StepKind::kLaunch, {sum}, {xa, ya}); // 4
  b.step(StepKind::kOutput, {}, {sum});       // 5
  EXPECT_EQ(b.preds(), (Preds{{}, {}, {0}, {1}, {2, 3}, {4}}));
}

TEST(ProgramDeps, ReusedBytesWaitForTheirReaders) {
  Builder b;
  // t at [0, 2 limbs) is read by steps 1 and 2; u reuses its bytes.
  const int32_t t = b.buffer(0, 2), r1 = b.buffer(2 * kLimb),
                r2 = b.buffer(3 * kLimb), u = b.buffer(kLimb, 1);
  b.step(StepKind::kZero, {t}, {});   // 0
  b.step(StepKind::kIntt, {r1}, {t}); // 1
  b.step(StepKind::kIntt, {r2}, {t}); // 2
  b.step(StepKind::kZero, {u}, {});   // 3: overlaps t's second limb
  b.step(StepKind::kCopy, {r1}, {u}); // 4: overwrites r1 (WAW) after u
  EXPECT_EQ(b.preds(), (Preds{{}, {0}, {0}, {1, 2}, {3}}));
}

TEST(ProgramDeps, APartialWriteLeavesTheRestToItsWriter) {
  Builder b;
  // x at [0, 2 limbs); y overwrites its first limb; readers of either
  // limb follow the step that last wrote that limb only.
  const int32_t x = b.buffer(0, 2), y = b.buffer(0, 1), lo = b.buffer(0, 1),
                hi = b.buffer(kLimb, 1), r1 = b.buffer(2 * kLimb),
                r2 = b.buffer(3 * kLimb);
  b.step(StepKind::kZero, {x}, {});    // 0
  b.step(StepKind::kZero, {y}, {});    // 1: over x's first limb
  b.step(StepKind::kCopy, {r1}, {hi}); // 2: x's second limb
  b.step(StepKind::kCopy, {r2}, {lo}); // 3: y
  EXPECT_EQ(b.preds(), (Preds{{}, {0}, {0}, {1}}));
}

TEST(ProgramDeps, ViewsAliasTheirBufferAndScratchIsWritten) {
  Builder b;
  const int32_t x = b.buffer(0, 4), v = b.buffer(-1, 2),
                a = b.buffer(4 * kLimb), c = b.buffer(5 * kLimb),
                scratch = b.buffer(8 * kLimb, 2);
  b.step(StepKind::kZero, {x}, {});            // 0
  b.step(StepKind::kView, {v}, {x});           // 1: no work
  b.step(StepKind::kBConv, {a}, {v}, scratch); // 2: reads x's bytes
  b.step(StepKind::kBConv, {c}, {v}, scratch); // 3: same scratch
  b.step(StepKind::kZero, {x}, {});            // 4: x written again
  EXPECT_EQ(b.preds(), (Preds{{}, {}, {0}, {2}, {3}}));
}

TEST(ProgramDeps, AnOverlappedSwitchReadsItsInnerProductsDigits) {
  // A mod_switch_down marked imm[1] = 1 right after the inner product of
  // its inputs runs that inner product too (overlappedInnerProduct): a
  // step that writes over the digits afterwards follows the switch, not
  // only the inner product. Unmarked, it follows the inner product alone.
  for (const int64_t overlap : {1, 0}) {
    Builder b;
    const int32_t d = b.buffer(0), key = b.buffer(-1, 1, 1),
                  a0 = b.buffer(kLimb), a1 = b.buffer(2 * kLimb),
                  out0 = b.buffer(3 * kLimb), out1 = b.buffer(4 * kLimb),
                  later = b.buffer(0);
    b.step(StepKind::kZero, {d}, {});                      // 0
    b.step(StepKind::kKsInnerProduct, {a0, a1}, {key, d}); // 1
    const size_t down =
        b.step(StepKind::kModSwitchDown, {out0, out1}, {a0, a1}); // 2
    b.steps[down].imm[1] = overlap;
    b.step(StepKind::kZero, {later}, {}); // 3
    Plan<CudaKernel> plan{b.buffers.data(),
                          b.buffers.size(),
                          b.args.data(),
                          b.steps.data(),
                          b.steps.size(),
                          nullptr,
                          0,
                          nullptr,
                          nullptr,
                          1 << 20,
                          0,
                          0};
    EXPECT_EQ(overlappedInnerProduct(plan, 2) != nullptr, overlap != 0);
    EXPECT_EQ(overlappedInnerProduct(plan, 1), nullptr);
    EXPECT_EQ(b.preds(),
              overlap ? (Preds{{}, {0}, {1}, {2}}) : (Preds{{}, {0}, {1}, {1}}))
        << "imm[1] = " << overlap;
  }
}

TEST(ProgramDeps, KeysAndConstantsAreOnlyRead) {
  Builder b;
  const int32_t key = b.buffer(-1, 1, 1), k = b.buffer(-1), x = b.buffer(0),
                a0 = b.buffer(kLimb), a1 = b.buffer(2 * kLimb),
                c0 = b.buffer(3 * kLimb), c1 = b.buffer(4 * kLimb);
  b.step(StepKind::kLoadKey, {key}, {});                 // 0
  b.step(StepKind::kConstant, {k}, {});                  // 1
  b.step(StepKind::kInput, {x}, {});                     // 2
  b.step(StepKind::kKsInnerProduct, {a0, a1}, {key, x}); // 3
  b.step(StepKind::kLaunch, {c0}, {k});                  // 4
  b.step(StepKind::kLaunch, {c1}, {k, a1});              // 5
  EXPECT_EQ(b.preds(), (Preds{{}, {}, {}, {2}, {}, {3}}));
}

TEST(ProgramDeps, BarriersOrderEverything) {
  Builder b;
  const int32_t x = b.buffer(0), y = b.buffer(kLimb), z = b.buffer(2 * kLimb),
                w = b.buffer(3 * kLimb);
  b.step(StepKind::kZero, {x}, {});      // 0
  b.step(StepKind::kZero, {y}, {});      // 1
  b.step(StepKind::kBfvTensor, {z}, {}); // 2: a barrier
  b.step(StepKind::kZero, {w}, {});      // 3
  EXPECT_EQ(b.preds(), (Preds{{}, {}, {0, 1}, {2}}));
}

TEST(ProgramDeps, TransfersOrderOneDeviceOnlyAcrossSeveral) {
  Builder b;
  // Each device's arena starts at 0: device 0's x and device 1's r share
  // offsets and must not order each other.
  const int32_t x = b.buffer(0), x2 = b.buffer(kLimb), r = b.buffer(0),
                s = b.buffer(kLimb), y = b.buffer(2 * kLimb);
  b.step(StepKind::kInput, {x}, {});             // 0: device 0
  b.step(StepKind::kNtt, {x2}, {x});             // 1: device 0
  b.transfer(r, x2, 0, 1);                       // 2: 0 -> 1
  b.step(StepKind::kZero, {y}, {}, -1, 1);       // 3: device 1
  b.step(StepKind::kLaunch, {s}, {r, y}, -1, 1); // 4: device 1
  b.step(StepKind::kZero, {x2}, {}, -1, 0);      // 5: device 0
  b.step(StepKind::kZero, {x}, {}, -1, 0);       // 6: device 0
  // Device 0: the send reads x2 (after 1), x2's overwrite follows the
  // send, x's overwrite its reader 1 only; device 1's steps are none of
  // its business.
  EXPECT_EQ(b.preds(2, 0), (Preds{{}, {0}, {1}, {}, {}, {2}, {1}}));
  // Device 1: the receive writes r, 4 reads it and y; device 0's steps
  // (x at r's offset included) order nothing.
  EXPECT_EQ(b.preds(2, 1), (Preds{{}, {}, {}, {}, {2, 3}, {}, {}}));
  // One device: a transfer is a barrier.
  EXPECT_EQ(b.preds(1, 0)[2], (std::vector<int32_t>{1}));
  EXPECT_EQ(b.preds(1, 0)[3], (std::vector<int32_t>{2}));
}

TEST(ProgramDeps, ImpliedPredecessorsAreDropped) {
  Builder b;
  const int32_t x = b.buffer(0), y = b.buffer(kLimb), z = b.buffer(2 * kLimb);
  b.step(StepKind::kZero, {x}, {});       // 0
  b.step(StepKind::kNtt, {y}, {x});       // 1
  b.step(StepKind::kLaunch, {z}, {x, y}); // 2: follows 0 through 1
  EXPECT_EQ(b.preds(), (Preds{{}, {0}, {1}}));
}

} // namespace
} // namespace ember::program
