// The order of a plan's steps for a concurrent CUDA graph
// (runtime/core/program_deps.h): read-after-write, write-after-read and
// write-after-write over the memory plan's arena ranges, views aliasing
// their buffer, scratch ranges, keys and constants read-only, barriers,
// and the transitive reduction; checked on hand-built plans against the
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
              const std::vector<int32_t> &in, int32_t scratch = -1) {
    Step s{};
    s.kind = kind;
    s.out = list(out);
    s.nout = int32_t(out.size());
    s.in = list(in);
    s.nin = int32_t(in.size());
    s.scratch = scratch;
    steps.push_back(s);
    return steps.size() - 1;
  }
  Preds preds() const {
    Plan<CudaKernel> plan{
        buffers.data(), buffers.size(), args.data(), steps.data(),
        steps.size(),   nullptr,        0,           nullptr,
        nullptr,        1 << 20,        0,           0};
    return stepDependencies(plan, kLimb, 3);
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
