// BGV on the CUDA backend against the CPU backend: the t-corrected modulus
// switch and every BGV operation give identical residues, and the results
// decrypt to the modular arithmetic on the slots; the BGV and BFV program
// plans (BFV: runtime/tests/bfv_plan.h) give the CPU's residues step by
// step and as CUDA Graphs. Needs a GPU (built by CI, run by
// bench/gpu_run.sh).
#include "../../tests/bfv_plan.h"
#include "ember/bfv_cuda.h"
#include "ember/bgv.h"
#include "ember/bgv_cuda.h"
#include "ember/bgv_params.h"
#include "ember/cuda.h"
#include "ember/errors.h"
#include "ember/program.h"
#include "ember/program_cuda.h"
#include "ember/rns.h"
#include "require_gpu.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ember {
namespace {

std::vector<int64_t> randomValues(Prng &prng, size_t count, uint64_t t) {
  std::vector<int64_t> v(count);
  for (int64_t &x : v)
    x = static_cast<int64_t>(prng.uniform(t));
  return v;
}

/// N = 2^14, Q = 60 + 6 x 40, P = 2 x 60, t = 65537 (the CPU test's set).
ParamSpec bgvSpec() {
  ParamSpec spec;
  spec.name = "bgv14";
  spec.log_n = 14;
  spec.q_bits = {60, 40, 40, 40, 40, 40, 40};
  spec.p_bits = {60, 60};
  spec.dnum = 3;
  return spec;
}

using test::expectSame;

TEST(CudaBgv, ModSwitchDownWithTMatchesTheCpu) {
  REQUIRE_GPU();
  Context64 ctx(bgvSpec());
  cuda::DeviceContext dctx(ctx);
  Prng prng(Prng::Seed{7});
  const uint64_t t = 65537;
  const int top = ctx.maxLevel();
  for (bool ntt : {true, false}) {
    // ModDown (drop P) and a modulus switch (drop q_top).
    Poly64 x = sampleUniformPoly(ctx, prng, ctx.qpBasis(top), ntt);
    Poly64 want = cpu::modSwitchDown(ctx, x, ctx.qBasis(top), t);
    Poly64 got =
        cuda::download(dctx, cuda::modSwitchDown(dctx, cuda::upload(dctx, x),
                                                 ctx.qBasis(top), t));
    EXPECT_TRUE(got.data == want.data) << "ModDown, ntt " << ntt;
    Poly64 y = sampleUniformPoly(ctx, prng, ctx.qBasis(top), ntt);
    want = cpu::modSwitchDown(ctx, y, ctx.qBasis(top - 1), t);
    got = cuda::download(dctx, cuda::modSwitchDown(dctx, cuda::upload(dctx, y),
                                                   ctx.qBasis(top - 1), t));
    EXPECT_TRUE(got.data == want.data) << "switch by q_top, ntt " << ntt;
    // And t = 0 is still the CKKS switch.
    EXPECT_FALSE(cpu::modSwitchDown(ctx, y, ctx.qBasis(top - 1)).data ==
                 want.data);
  }
}

/// Plans run on the CPU, the reference, and on the GPU: step by step (run
/// 0), then as a CUDA Graph (run 1 captures, later runs replay), over an
/// arena of the plan's arena_bytes when nonzero. `plain(run)` gives each
/// run's plaintext input; `keys` and `relin` the relinearization key, if
/// any. Expects the same residues every run; returns the CPU's outputs of
/// run 0.
using PlainValues = std::vector<std::vector<std::complex<double>>>;
std::vector<Ciphertext>
expectRunsMatch(const Context64 &ctx, const cuda::DeviceContext &dctx,
                const program::Plan<program::CpuKernel> &cpu_plan,
                const program::Plan<program::CudaKernel> &gpu_plan,
                const EvaluationKeys &keys, const cuda::DeviceRelinKey *relin,
                const std::vector<Ciphertext> &inputs,
                const program::ConstantData *data,
                const std::function<PlainValues(int)> &plain, int runs) {
  std::vector<cuda::DeviceCiphertext> dinputs;
  for (const Ciphertext &ct : inputs)
    dinputs.push_back(cuda::upload(dctx, ct));
  program::ConstantCache<cuda::DevicePoly> cache;
  program::CudaGraph graph;
  program::CudaArena arena;
  std::vector<Ciphertext> first;
  for (int run = 0; run < runs; ++run) {
    const PlainValues values = plain(run);
    std::vector<Ciphertext> want;
    program::CpuArgs a;
    a.ctx = &ctx;
    a.keys = &keys;
    a.inputs = &inputs;
    a.outputs = &want;
    a.data = data;
    a.plain = &values;
    program::run(a, cpu_plan);
    std::vector<cuda::DeviceCiphertext> got;
    program::CudaArgs g;
    g.ctx = &dctx;
    g.relin = relin;
    g.inputs = &dinputs;
    g.outputs = &got;
    g.constants = &cache;
    g.data = data;
    g.plain = &values;
    g.arena = gpu_plan.arena_bytes ? &arena : nullptr;
    g.graph = run ? &graph : nullptr;
    program::runCuda(g, gpu_plan);
    dctx.synchronize();
    if (run)
      EXPECT_TRUE(graph.captured()) << "run " << run;
    EXPECT_EQ(got.size(), want.size()) << "run " << run;
    for (size_t j = 0; j < want.size() && j < got.size(); ++j)
      expectSame(dctx, want[j], got[j],
                 "output " + std::to_string(j) + ", run " +
                     std::to_string(run));
    if (run == 0)
      first = std::move(want);
  }
  return first;
}

/// expectRunsMatch of a hand-written BGV plan (Plan::plain_modulus = t;
/// input "x", plaintext input "w") without kernels or keys.
template <size_t B, size_t A, size_t S>
std::vector<Ciphertext> expectPlanRunsMatch(
    const Context64 &ctx, const cuda::DeviceContext &dctx, uint64_t t,
    const program::BufferSpec (&buffers)[B], const int32_t (&args)[A],
    const program::Step (&steps)[S], size_t constants, int64_t arena_bytes,
    const std::vector<Ciphertext> &inputs, const program::ConstantData *data,
    const std::function<PlainValues(int)> &plain, int runs) {
  const char *input_names[] = {"x"};
  const char *plain_names[] = {"w"};
  const program::Plan<program::CpuKernel> cpu_plan{
      buffers,   B,           args,        steps,       S, nullptr,
      constants, input_names, plain_names, arena_bytes, t};
  const program::Plan<program::CudaKernel> gpu_plan{
      buffers,   B,           args,        steps,       S, nullptr,
      constants, input_names, plain_names, arena_bytes, t};
  return expectRunsMatch(ctx, dctx, cpu_plan, gpu_plan, EvaluationKeys{},
                         nullptr, inputs, data, plain, runs);
}

TEST(CudaBgv, ProgramPlanMatchesTheCpu) {
  // A BGV plan (Plan::plain_modulus = t) without generated kernels: an
  // input switched down by q_top (t-corrected), a constant (factor 5) and
  // a plaintext input encoded twice, at the top level with factor 3 and
  // one level lower with factor 7 (a graph keeps one slot per encoding),
  // as outputs. runCuda step by step and as a CUDA Graph (captured, then
  // replayed: the replay encodes the plaintext input itself) give the
  // CPU's residues.
  REQUIRE_GPU();
  const uint64_t t = 65537;
  Context64 ctx(bgvSpec());
  cuda::DeviceContext dctx(ctx);
  Prng prng(Prng::Seed{9});
  KeyGenerator keygen(ctx, prng, t);
  BgvEncoder encoder(ctx, t);
  Encryptor encryptor(ctx, prng, t);
  Decryptor decryptor(ctx, keygen.secretKey());
  const size_t slots = 256;
  const int top = ctx.maxLevel();
  const std::vector<int64_t> x = randomValues(prng, slots, t);
  std::vector<double> c(slots), w(slots);
  for (size_t i = 0; i < slots; ++i) {
    c[i] = static_cast<double>(static_cast<int64_t>(prng.uniform(t)) - 30000);
    w[i] = static_cast<double>(prng.uniform(t));
  }
  const double switched =
      static_cast<double>(bgv::switchedFactor(ctx, uint64_t{1}, top, t));

  using program::BufferSpec;
  using program::Step;
  using program::StepKind;
  const int16_t L = static_cast<int16_t>(top + 1), below = L - 1;
  const BufferSpec buffers[] = {
      {0, L, 0, 0, 1, 0, 0, -1},     // 0, 1: x
      {0, L, 0, 0, 1, 0, 0, -1},     //
      {0, below, 0, 0, 1, 0, 0, -1}, // 2, 3: x switched down
      {0, below, 0, 0, 1, 0, 0, -1}, //
      {0, L, 0, 0, 1, 0, 0, -1},     // 4: c
      {0, L, 0, 0, 1, 0, 0, -1},     // 5: w
      {0, below, 0, 0, 1, 0, 0, -1}, // 6: w one level lower
  };
  const int32_t args[] = {0, 1, 2, 3, 1, 1, 4, 5, 0, 6};
  const int64_t n = static_cast<int64_t>(slots);
  const Step steps[] = {
      {StepKind::kInput, 0, 2, 0, 0, {0, top, n, 0}, 1.0, -1},
      {StepKind::kModSwitchDown, 2, 2, 0, 2, {0, 0, 0, 0}, 0, -1},
      {StepKind::kOutput, 0, 0, 2, 2, {top - 1, n, 4, 0}, switched, -1},
      {StepKind::kConstant, 6, 1, 0, 0, {0, 0, n, 0}, 5.0, -1},
      {StepKind::kOutput, 0, 0, 6, 1, {top, n, 8, 0}, 5.0, -1},
      {StepKind::kPlainInput, 0, 0, 0, 0, {0, n, 0, 0}, 0, -1},
      {StepKind::kEncodeValues, 7, 1, 0, 0, {0, 0, 0, 0}, 3.0, -1},
      {StepKind::kOutput, 0, 0, 7, 1, {top, n, 8, 0}, 3.0, -1},
      {StepKind::kEncodeValues, 9, 1, 0, 0, {0, 0, 0, 0}, 7.0, -1},
      {StepKind::kOutput, 0, 0, 9, 1, {top - 1, n, 8, 0}, 7.0, -1},
  };
  program::ConstantData data;
  data.values = c;
  const std::vector<Ciphertext> inputs = {
      encryptor.encrypt(encoder.encode(x, top, slots), keygen.publicKey())};
  const PlainValues plain = {
      std::vector<std::complex<double>>(w.begin(), w.end())};
  // Run 0: enqueued; 1: run, then captured; 2: the graph replayed.
  const std::vector<Ciphertext> want = expectPlanRunsMatch(
      ctx, dctx, t, buffers, args, steps, 1, 0, inputs, &data,
      [&](int) { return plain; }, 3);
  ASSERT_EQ(want.size(), 4u);
  const std::vector<uint64_t> got_x =
      encoder.decode(decryptor.decrypt(want[0]));
  for (size_t i = 0; i < slots; ++i)
    EXPECT_EQ(got_x[i], static_cast<uint64_t>(x[i])) << i;
}

TEST(CudaBgv, GraphEncodesAPlainInputAtItsStep) {
  // The memory plan may give a plaintext input's buffer to an earlier
  // value: here a copy of x lives at arena offset 0 until the plaintext is
  // encoded there. A graph replay must encode it at its step (a captured
  // copy from pinned host memory), not write the buffer before the launch,
  // where the copy of x would overwrite it. Runs: step by step, the
  // capture, two replays (the second with other values).
  REQUIRE_GPU();
  const uint64_t t = 65537;
  Context64 ctx(bgvSpec());
  cuda::DeviceContext dctx(ctx);
  Prng prng(Prng::Seed{10});
  KeyGenerator keygen(ctx, prng, t);
  BgvEncoder encoder(ctx, t);
  Encryptor encryptor(ctx, prng, t);
  const size_t slots = 256;
  const int top = ctx.maxLevel();
  const int16_t L = static_cast<int16_t>(top + 1);
  const int64_t n = static_cast<int64_t>(slots);

  using program::BufferSpec;
  using program::Step;
  using program::StepKind;
  const BufferSpec buffers[] = {
      {0, L, 0, 0, 1, 0, 0, -1}, // 0, 1: x
      {0, L, 0, 0, 1, 0, 0, -1}, //
      {0, L, 0, 0, 1, 0, 0, 0},  // 2: a copy of x's c0, at offset 0
      {0, L, 0, 0, 1, 0, 0, 0},  // 3: w, at offset 0 once 2 is dead
  };
  const int32_t args[] = {0, 1, 2, 0, 2, 3, 0};
  const Step steps[] = {
      {StepKind::kInput, 0, 2, 0, 0, {0, top, n, 0}, 1.0, -1},
      {StepKind::kCopy, 2, 1, 3, 1, {0, 0, 0, 0}, 0, -1},
      {StepKind::kRelease, 0, 0, 4, 1, {0, 0, 0, 0}, 0, -1},
      {StepKind::kPlainInput, 0, 0, 0, 0, {0, n, 0, 0}, 0, -1},
      {StepKind::kEncodeValues, 5, 1, 0, 0, {0, 0, 0, 0}, 3.0, -1},
      {StepKind::kOutput, 0, 0, 5, 1, {top, n, 6, 0}, 3.0, -1},
  };
  const int64_t arena_bytes = int64_t{L} * int64_t(ctx.n()) * 8;
  const std::vector<Ciphertext> inputs = {encryptor.encrypt(
      encoder.encode(randomValues(prng, slots, t), top, slots),
      keygen.publicKey())};
  const std::vector<Ciphertext> want = expectPlanRunsMatch(
      ctx, dctx, t, buffers, args, steps, 0, arena_bytes, inputs, nullptr,
      [&](int) {
        std::vector<std::complex<double>> w(slots);
        for (auto &v : w)
          v = static_cast<double>(prng.uniform(t));
        return PlainValues{w};
      },
      4);
  EXPECT_EQ(want.size(), 1u);
}

/// The setting of the CudaProgramGraph tests: BGV at bgvSpec with t =
/// 65537, a plan's sizes (L limbs at the top, `below` after a modulus
/// switch, `limb` bytes), the factor after a switch, and encryptions of
/// random slots.
struct GraphSetting {
  explicit GraphSetting(uint64_t seed)
      : ctx(bgvSpec()), dctx(ctx), prng(Prng::Seed{seed}), keygen(ctx, prng, t),
        encoder(ctx, t), encryptor(ctx, prng, t) {}
  const uint64_t t = 65537;
  Context64 ctx;
  cuda::DeviceContext dctx;
  Prng prng;
  KeyGenerator keygen;
  BgvEncoder encoder;
  Encryptor encryptor;
  const size_t slots = 256;
  const int top = ctx.maxLevel();
  const int16_t L = static_cast<int16_t>(top + 1), below = L - 1;
  const int64_t n = static_cast<int64_t>(slots);
  const int64_t limb = int64_t(ctx.n()) * 8;
  const double switched =
      static_cast<double>(bgv::switchedFactor(ctx, uint64_t{1}, top, t));
  /// A plan of these buffers, arguments and steps with one input, "x",
  /// for the CPU (K = CpuKernel) or the GPU (CudaKernel).
  template <typename K, size_t B, size_t S>
  program::Plan<K> plan(const program::BufferSpec (&buffers)[B],
                        const int32_t *args, const program::Step (&steps)[S],
                        int64_t arena_bytes) const {
    static const char *const names[] = {"x"};
    return {buffers, B,     args,    steps,       S, nullptr,
            0,       names, nullptr, arena_bytes, t};
  }
  /// Two inputs of one ciphertext each (an encryption of random slots), on
  /// the host and uploaded.
  std::vector<std::vector<Ciphertext>> inputs{2};
  std::vector<std::vector<cuda::DeviceCiphertext>> dinputs{2};
  void encryptInputs() {
    for (int i = 0; i < 2; ++i) {
      inputs[i] = {encryptor.encrypt(
          encoder.encode(randomValues(prng, slots, t), top, slots),
          keygen.publicKey())};
      dinputs[i].push_back(cuda::upload(dctx, inputs[i][0]));
    }
  }
};

TEST(CudaProgramGraph, RunsIndependentStepsSideBySide) {
  // Two copies of an input's parts are independent of each other, the
  // modulus switch reads both, and a third copy reuses the first copy's
  // arena bytes once the switch has read them (a write after read). A
  // concurrent graph (BasicCudaGraph::concurrent) puts the two copies side
  // by side (fewer nodes on its longest chain than nodes) and keeps the
  // third after the switch, the switch's kernels (on the longest chain)
  // at the greatest priority unless it is unprioritized; as one chain its
  // longest path is every node. All give the CPU's residues on every
  // replay, with other inputs too.
  REQUIRE_GPU();
  GraphSetting s(12);
  s.encryptInputs();

  using program::BufferSpec;
  using program::Step;
  using program::StepKind;
  const BufferSpec buffers[] = {
      {0, s.L, 0, 0, 1, 0, 0, 0},                    // 0, 1: x
      {0, s.L, 0, 0, 1, 0, 0, s.L * s.limb},         //
      {0, s.L, 0, 0, 1, 0, 0, 2 * s.L * s.limb},     // 2: a copy of x's c0
      {0, s.L, 0, 0, 1, 0, 0, 3 * s.L * s.limb},     // 3: a copy of x's c1
      {0, s.below, 0, 0, 1, 0, 0, 4 * s.L * s.limb}, // 4, 5: 2, 3 switched
      {0, s.below, 0, 0, 1, 0, 0, (5 * s.L - 1) * s.limb}, //
      {0, s.L, 0, 0, 1, 0, 0, 2 * s.L * s.limb},           // 6: c1 again, on 2
  };
  const int32_t args[] = {0, 1, 2, 0, 3, 1, 2, 3, 4, 5, 6, 1, 1, 1, 1};
  const Step steps[] = {
      {StepKind::kInput, 0, 2, 0, 0, {0, s.top, s.n, 0}, 1.0, -1},
      {StepKind::kCopy, 2, 1, 3, 1, {0, 0, 0, 0}, 0, -1},
      {StepKind::kCopy, 4, 1, 5, 1, {0, 0, 0, 0}, 0, -1},
      {StepKind::kModSwitchDown, 8, 2, 6, 2, {0, 0, 0, 0}, 0, -1},
      {StepKind::kCopy, 10, 1, 11, 1, {0, 0, 0, 0}, 0, -1},
      {StepKind::kOutput, 0, 0, 8, 2, {s.top - 1, s.n, 12, 0}, s.switched, -1},
      {StepKind::kOutput, 0, 0, 10, 1, {s.top, s.n, 13, 0}, 1.0, -1},
  };
  const int64_t arena_bytes = (6 * s.L - 2) * s.limb;
  const auto cpu_plan =
      s.plan<program::CpuKernel>(buffers, args, steps, arena_bytes);
  const auto gpu_plan =
      s.plan<program::CudaKernel>(buffers, args, steps, arena_bytes);
  const PlainValues none;
  for (auto [concurrent, prioritized] :
       {std::pair{true, true}, {true, false}, {false, true}}) {
    program::ConstantCache<cuda::DevicePoly> cache;
    program::CudaGraph graph;
    graph.concurrent = concurrent;
    graph.prioritized = prioritized;
    program::CudaArena arena;
    // Run 0 step by step, 1 captures, 2 and 3 replay (3 on other inputs).
    for (int run = 0; run < 4; ++run) {
      const int input = run == 3 ? 1 : 0;
      const std::string what =
          "run " + std::to_string(run) +
          (concurrent ? prioritized ? ", concurrent" : ", unprioritized"
                      : ", one chain");
      std::vector<Ciphertext> want;
      program::CpuArgs a;
      a.ctx = &s.ctx;
      a.inputs = &s.inputs[input];
      a.outputs = &want;
      a.plain = &none;
      program::run(a, cpu_plan);
      std::vector<cuda::DeviceCiphertext> got;
      program::CudaArgs g;
      g.ctx = &s.dctx;
      g.inputs = &s.dinputs[input];
      g.outputs = &got;
      g.constants = &cache;
      g.plain = &none;
      g.arena = &arena;
      g.graph = run ? &graph : nullptr;
      program::runCuda(g, gpu_plan);
      s.dctx.synchronize();
      ASSERT_EQ(got.size(), 2u) << what;
      for (size_t j = 0; j < 2; ++j)
        expectSame(s.dctx, want[j], got[j],
                   "output " + std::to_string(j) + ", " + what);
    }
    ASSERT_TRUE(graph.captured());
    if (concurrent)
      EXPECT_LT(graph.path_nodes, graph.nodes);
    else
      EXPECT_EQ(graph.path_nodes, graph.nodes);
    EXPECT_EQ(test::prioritizedKernels(graph.graph) > 0,
              concurrent && prioritized);
  }
}

TEST(CudaProgramGraph, RunsInPlace) {
  // A graph reads its input where the caller's ciphertext is and writes
  // its outputs into new ciphertexts: a kernel (the modulus switch) and a
  // copy node read the input, and the modulus switch and the copy write
  // the outputs; a replay points them at each run's input and outputs
  // (BasicCudaGraph::in_place). Runs: step by step; the capture; a
  // replay; a replay on another encryption, elsewhere in device memory
  // (the arena still holds the first: a node left on it gives the first
  // input's residues); back to the first; and with in_place off (copied).
  // Each gives the CPU's residues of its own input, no run writes into an
  // input, and every run's outputs keep their residues through the later
  // runs.
  REQUIRE_GPU();
  GraphSetting s(11);
  s.encryptInputs();

  using program::BufferSpec;
  using program::Step;
  using program::StepKind;
  const BufferSpec buffers[] = {
      {0, s.L, 0, 0, 1, 0, 0, 0},                    // 0, 1: x (the slots)
      {0, s.L, 0, 0, 1, 0, 0, s.L * s.limb},         //
      {0, s.below, 0, 0, 1, 0, 0, 2 * s.L * s.limb}, // 2, 3: x switched
      {0, s.below, 0, 0, 1, 0, 0, (3 * s.L - 1) * s.limb}, //
      {0, s.L, 0, 0, 1, 0, 0, (4 * s.L - 2) * s.limb}, // 4: a copy of x's c1
  };
  const int32_t args[] = {0, 1, 2, 3, 4, 1, 1, 1, 1};
  const Step steps[] = {
      {StepKind::kInput, 0, 2, 0, 0, {0, s.top, s.n, 0}, 1.0, -1},
      {StepKind::kModSwitchDown, 2, 2, 0, 2, {0, 0, 0, 0}, 0, -1},
      {StepKind::kCopy, 4, 1, 5, 1, {0, 0, 0, 0}, 0, -1},
      {StepKind::kOutput, 0, 0, 2, 2, {s.top - 1, s.n, 6, 0}, s.switched, -1},
      {StepKind::kOutput, 0, 0, 4, 1, {s.top, s.n, 8, 0}, 1.0, -1},
  };
  const int64_t arena_bytes = (5 * s.L - 2) * s.limb;
  const auto cpu_plan =
      s.plan<program::CpuKernel>(buffers, args, steps, arena_bytes);
  const auto gpu_plan =
      s.plan<program::CudaKernel>(buffers, args, steps, arena_bytes);
  program::ConstantCache<cuda::DevicePoly> cache;
  program::CudaGraph graph;
  program::CudaArena arena;
  const PlainValues none;
  // (input, graph, in place) of each run.
  const struct {
    int input;
    bool graph, in_place;
  } runs[] = {{0, false, true}, {0, true, true}, {0, true, true},
              {1, true, true},  {0, true, true}, {1, true, false},
              {0, true, false}};
  std::vector<
      std::pair<std::vector<Ciphertext>, std::vector<cuda::DeviceCiphertext>>>
      kept;
  int at = 0;
  for (const auto &r : runs) {
    const std::string what = "run " + std::to_string(at++);
    std::vector<Ciphertext> want;
    program::CpuArgs a;
    a.ctx = &s.ctx;
    a.inputs = &s.inputs[r.input];
    a.outputs = &want;
    a.plain = &none;
    program::run(a, cpu_plan);
    if (graph.in_place != r.in_place) {
      graph.reset();
      graph.in_place = r.in_place;
    }
    std::vector<cuda::DeviceCiphertext> got;
    program::CudaArgs g;
    g.ctx = &s.dctx;
    g.inputs = &s.dinputs[r.input];
    g.outputs = &got;
    g.constants = &cache;
    g.plain = &none;
    g.arena = &arena;
    g.graph = r.graph ? &graph : nullptr;
    program::runCuda(g, gpu_plan);
    s.dctx.synchronize();
    if (r.graph)
      EXPECT_EQ(graph.inPlace(), r.in_place)
          << what << ": " << graph.copies_because;
    ASSERT_EQ(got.size(), 2u) << what;
    for (size_t j = 0; j < 2; ++j)
      expectSame(s.dctx, want[j], got[j],
                 "output " + std::to_string(j) + ", " + what);
    for (int i = 0; i < 2; ++i)
      expectSame(s.dctx, s.inputs[i][0], s.dinputs[i][0],
                 "input " + std::to_string(i) + " after " + what);
    kept.push_back({std::move(want), std::move(got)});
  }
  for (size_t r = 0; r < kept.size(); ++r)
    for (size_t j = 0; j < 2; ++j)
      expectSame(s.dctx, kept[r].first[j], kept[r].second[j],
                 "output " + std::to_string(j) + " of run " +
                     std::to_string(r) + " after the last run");
}

TEST(CudaBgv, OperationsMatchTheCpuAndDecrypt) {
  REQUIRE_GPU();
  const uint64_t t = 65537;
  Context64 ctx(bgvSpec());
  cuda::DeviceContext dctx(ctx);
  Prng prng(Prng::Seed{8});
  KeyGenerator keygen(ctx, prng, t);
  BgvEncoder encoder(ctx, t);
  Encryptor encryptor(ctx, prng, t);
  Decryptor decryptor(ctx, keygen.secretKey());
  BgvEvaluator cpu_eval(ctx, t);
  cuda::BgvEvaluator gpu_eval(dctx, t);
  const size_t slots = 512;
  PublicKey pk = keygen.publicKey();
  RelinKey rk = keygen.relinKey();
  GaloisKeys gk = keygen.galoisKeys({galoisElementForRotation(ctx, 3, slots)});
  cuda::DeviceRelinKey drk = cuda::upload(dctx, rk);
  cuda::DeviceGaloisKeys dgk = cuda::upload(dctx, gk);
  std::vector<int64_t> a = randomValues(prng, slots, t);
  std::vector<int64_t> b = randomValues(prng, slots, t);
  std::vector<int64_t> c = randomValues(prng, slots, t);
  Ciphertext ca =
      encryptor.encrypt(encoder.encode(a, ctx.maxLevel(), slots), pk);
  Ciphertext cb =
      encryptor.encrypt(encoder.encode(b, ctx.maxLevel(), slots), pk);
  cuda::DeviceCiphertext da = cuda::upload(dctx, ca),
                         db = cuda::upload(dctx, cb);

  Ciphertext ab = cpu_eval.multiplyRelin(ca, cb, rk);
  cuda::DeviceCiphertext dab = gpu_eval.multiplyRelin(da, db, drk);
  expectSame(dctx, ab, dab, "multiplyRelin");
  Ciphertext sum = cpu_eval.add(ab, ca); // levels and factors differ
  cuda::DeviceCiphertext dsum = gpu_eval.add(dab, da);
  expectSame(dctx, sum, dsum, "add (aligned)");
  Plaintext pc = encoder.encode(c, sum.level, slots);
  Ciphertext prod = cpu_eval.mulPlain(sum, pc);
  cuda::DeviceCiphertext dprod =
      gpu_eval.mulPlain(dsum, cuda::upload(dctx, pc));
  expectSame(dctx, prod, dprod, "mulPlain");
  Ciphertext out =
      cpu_eval.addInt(cpu_eval.sub(prod, cpu_eval.mulInt(ab, -7)), 12345);
  cuda::DeviceCiphertext dout =
      gpu_eval.addInt(gpu_eval.sub(dprod, gpu_eval.mulInt(dab, -7)), 12345);
  expectSame(dctx, out, dout, "sub, mulInt, addInt");
  Ciphertext rot = cpu_eval.rotate(out, 3, gk);
  cuda::DeviceCiphertext drot = gpu_eval.rotate(dout, 3, dgk);
  expectSame(dctx, rot, drot, "rotate");
  Ciphertext norm = cpu_eval.normalizeFactor(rot);
  cuda::DeviceCiphertext dnorm = gpu_eval.normalizeFactor(drot);
  expectSame(dctx, norm, dnorm, "normalizeFactor");
  Ciphertext low = cpu_eval.modSwitchTo(norm, 1);
  cuda::DeviceCiphertext dlow = gpu_eval.modSwitchTo(dnorm, 1);
  expectSame(dctx, low, dlow, "modSwitchTo");

  std::vector<uint64_t> got =
      encoder.decode(decryptor.decrypt(cuda::download(dctx, dlow)));
  for (size_t i = 0; i < slots; ++i) {
    const size_t j = (i + 3) % slots;
    const uint64_t p = uint64_t(a[j]) * uint64_t(b[j]) % t;
    const uint64_t want =
        ((p + uint64_t(a[j])) % t * uint64_t(c[j]) + 7 * p + 12345) % t;
    ASSERT_EQ(got[i], want) << "slot " << i;
  }
}

TEST(CudaBfv, OperationsMatchTheCpuAndDecrypt) {
  REQUIRE_GPU();
  // N = 2^14, Q = 5 x 60, P = 2 x 60, t = 65537 (the CPU test's set).
  ParamSpec spec;
  spec.name = "bfv14";
  spec.log_n = 14;
  spec.q_bits = {60, 60, 60, 60, 60};
  spec.p_bits = {60, 60};
  spec.dnum = 3;
  const uint64_t t = 65537;
  Context64 ctx(spec);
  cuda::DeviceContext dctx(ctx);
  Prng prng(Prng::Seed{9});
  KeyGenerator keygen(ctx, prng);
  Encryptor encryptor(ctx, prng);
  Decryptor decryptor(ctx, keygen.secretKey());
  BfvEvaluator cpu_eval(ctx, t);
  cuda::BfvEvaluator gpu_eval(dctx, t);
  const BfvEncoder &encoder = cpu_eval.encoder();
  const size_t slots = 1024;
  PublicKey pk = keygen.publicKey();
  RelinKey rk = keygen.relinKey();
  GaloisKeys gk = keygen.galoisKeys({galoisElementForRotation(ctx, -5, slots)});
  cuda::DeviceRelinKey drk = cuda::upload(dctx, rk);
  cuda::DeviceGaloisKeys dgk = cuda::upload(dctx, gk);
  std::vector<int64_t> a = randomValues(prng, slots, t);
  std::vector<int64_t> b = randomValues(prng, slots, t);
  std::vector<int64_t> c = randomValues(prng, slots, t);
  Ciphertext ca = encryptor.encrypt(encoder.encode(a, slots), pk);
  Ciphertext cb = encryptor.encrypt(encoder.encode(b, slots), pk);
  cuda::DeviceCiphertext da = cuda::upload(dctx, ca),
                         db = cuda::upload(dctx, cb);

  Ciphertext tensor = cpu_eval.multiply(ca, cb);
  expectSame(dctx, tensor, gpu_eval.multiply(da, db), "HPS multiply");
  Ciphertext ab = cpu_eval.multiplyRelin(ca, cb, rk);
  cuda::DeviceCiphertext dab = gpu_eval.multiplyRelin(da, db, drk);
  expectSame(dctx, ab, dab, "multiplyRelin");
  Ciphertext sq = cpu_eval.multiplyRelin(ab, ab, rk); // depth 2
  cuda::DeviceCiphertext dsq = gpu_eval.multiplyRelin(dab, dab, drk);
  expectSame(dctx, sq, dsq, "depth 2");
  Plaintext pc = encoder.encodeMultiplier(c, slots);
  Ciphertext out = cpu_eval.addInt(
      cpu_eval.sub(cpu_eval.mulPlain(sq, pc), cpu_eval.mulInt(ca, -7)), 99);
  cuda::DeviceCiphertext dout = gpu_eval.addInt(
      gpu_eval.sub(gpu_eval.mulPlain(dsq, cuda::upload(dctx, pc)),
                   gpu_eval.mulInt(da, -7)),
      99);
  expectSame(dctx, out, dout, "mulPlain, sub, mulInt, addInt");
  Ciphertext rot = cpu_eval.rotate(out, -5, gk);
  cuda::DeviceCiphertext drot = gpu_eval.rotate(dout, -5, dgk);
  expectSame(dctx, rot, drot, "rotate");
  std::vector<uint64_t> got =
      encoder.decode(decryptor.decrypt(cuda::download(dctx, drot)));
  for (size_t i = 0; i < slots; ++i) {
    const size_t j = (i + slots - 5) % slots;
    const uint64_t p = uint64_t(a[j]) * uint64_t(b[j]) % t;
    const uint64_t want =
        (p * p % t * uint64_t(c[j]) + 7 * uint64_t(a[j]) + 99) % t;
    ASSERT_EQ(got[i], want) << "slot " << i;
  }
}

/// BEHZ (multiplyBehz, multiplyRelinBehz) on the GPU against the CPU at the
/// CPU tests' shapes (bgv_test.cpp BfvBehz): the tensor product, then
/// squarings until fewer than 40 bits of budget are left, the same
/// residues at every depth and each decrypting to x^(2^d) mod t.
TEST(CudaBfv, BehzMatchesTheCpuAndDecrypts) {
  REQUIRE_GPU();
  const uint64_t t = 65537;
  for (int log_n : {14, 15}) {
    ParamSpec spec;
    spec.name = "bfv" + std::to_string(log_n);
    spec.log_n = log_n;
    spec.q_bits = std::vector<int>(log_n == 14 ? 5 : 7, 60);
    spec.p_bits = std::vector<int>(log_n == 14 ? 2 : 3, 60);
    spec.dnum = 3;
    Context64 ctx(spec);
    cuda::DeviceContext dctx(ctx);
    Prng prng(Prng::Seed{12});
    KeyGenerator keygen(ctx, prng);
    Encryptor encryptor(ctx, prng);
    Decryptor decryptor(ctx, keygen.secretKey());
    BfvEvaluator cpu_eval(ctx, t);
    cuda::BfvEvaluator gpu_eval(dctx, t);
    const BfvEncoder &encoder = cpu_eval.encoder();
    const RelinKey rk = keygen.relinKey();
    const cuda::DeviceRelinKey drk = cuda::upload(dctx, rk);
    const size_t slots = ctx.slotsMax();
    std::vector<int64_t> a = randomValues(prng, slots, t);
    std::vector<int64_t> b = randomValues(prng, slots, t);
    Ciphertext ca =
        encryptor.encrypt(encoder.encode(a, slots), keygen.publicKey());
    Ciphertext cb =
        encryptor.encrypt(encoder.encode(b, slots), keygen.publicKey());
    cuda::DeviceCiphertext da = cuda::upload(dctx, ca),
                           db = cuda::upload(dctx, cb);
    expectSame(dctx, cpu_eval.multiplyBehz(ca, cb),
               gpu_eval.multiplyBehz(da, db), spec.name + " BEHZ multiply");
    Ciphertext ct = cpu_eval.multiplyRelinBehz(ca, cb, rk);
    cuda::DeviceCiphertext dct = gpu_eval.multiplyRelinBehz(da, db, drk);
    expectSame(dctx, ct, dct, spec.name + " BEHZ multiplyRelin");
    std::vector<uint64_t> want(slots);
    for (size_t i = 0; i < slots; ++i)
      want[i] = uint64_t(a[i]) * uint64_t(b[i]) % t;
    int depth = 1;
    for (;; ++depth) {
      const Plaintext pt = decryptor.decrypt(ct);
      ASSERT_EQ(encoder.decode(pt), want) << spec.name << " depth " << depth;
      if (encoder.noiseBudget(pt) < 40)
        break;
      ct = cpu_eval.multiplyRelinBehz(ct, ct, rk);
      dct = gpu_eval.multiplyRelinBehz(dct, dct, drk);
      expectSame(dctx, ct, dct,
                 spec.name + " BEHZ depth " + std::to_string(depth + 1));
      for (uint64_t &w : want)
        w = w * w % t;
    }
    EXPECT_GE(depth, log_n == 14 ? 7 : 11) << spec.name;
  }
}

/// Squarings down the whole chain of parameters chosen for depth 10
/// (bgv::chooseParams, N = 2^15): the GPU's residues equal the CPU's at
/// every depth, and each decrypts to x^(2^d) mod t.
TEST(CudaBgv, DepthOneToTenMatchesTheCpu) {
  REQUIRE_GPU();
  const uint64_t t = 65537;
  for (bgv::Scheme scheme : {bgv::Scheme::kBgv, bgv::Scheme::kBfv}) {
    const bool is_bgv = scheme == bgv::Scheme::kBgv;
    Context64 ctx(bgv::chooseParams(scheme, 10, t, 64));
    cuda::DeviceContext dctx(ctx);
    Prng prng(Prng::Seed{10});
    KeyGenerator keygen(ctx, prng, is_bgv ? t : 1);
    Encryptor encryptor(ctx, prng, is_bgv ? t : 1);
    Decryptor decryptor(ctx, keygen.secretKey());
    RelinKey rk = keygen.relinKey();
    cuda::DeviceRelinKey drk = cuda::upload(dctx, rk);
    const size_t slots = 64;
    std::vector<int64_t> x = randomValues(prng, slots, t);
    std::vector<uint64_t> want(x.begin(), x.end());
    BgvEncoder bgv_encoder(ctx, t);
    BfvEvaluator bfv_cpu(ctx, t);
    Ciphertext ct =
        encryptor.encrypt(is_bgv ? bgv_encoder.encode(x, ctx.maxLevel(), slots)
                                 : bfv_cpu.encoder().encode(x, slots),
                          keygen.publicKey());
    cuda::DeviceCiphertext dct = cuda::upload(dctx, ct);
    BgvEvaluator bgv_cpu(ctx, t);
    cuda::BgvEvaluator bgv_gpu(dctx, t);
    cuda::BfvEvaluator bfv_gpu(dctx, t);
    for (int depth = 1; depth <= 10; ++depth) {
      if (is_bgv) {
        ct = bgv_cpu.multiplyRelin(ct, ct, rk);
        dct = bgv_gpu.multiplyRelin(dct, dct, drk);
      } else {
        ct = bfv_cpu.multiplyRelin(ct, ct, rk);
        dct = bfv_gpu.multiplyRelin(dct, dct, drk);
      }
      expectSame(dctx, ct, dct,
                 std::string(is_bgv ? "BGV" : "BFV") + " depth " +
                     std::to_string(depth));
      for (uint64_t &w : want)
        w = w * w % t;
      const Plaintext pt = decryptor.decrypt(ct);
      ASSERT_EQ(is_bgv ? bgv_encoder.decode(pt) : bfv_cpu.encoder().decode(pt),
                want)
          << (is_bgv ? "BGV" : "BFV") << " depth " << depth;
    }
  }
}

/// The kernels of bfv_plan.h on the GPU (the CPU's are in program_test.cpp):
/// host functions queueing the context's elementwise operations on the
/// stream they are given, over the full Q of g_dctx.
const cuda::DeviceContext *g_dctx = nullptr;
cuda::DevicePoly fullQ(const void *words) {
  cuda::DevicePoly p;
  p.n = g_dctx->host().n();
  p.ntt = true;
  p.basis = g_dctx->host().qBasis(g_dctx->host().maxLevel());
  p.buf = cuda::DeviceBuffer::borrow(
      static_cast<uint64_t *>(const_cast<void *>(words)), p.limbs() * p.n);
  return p;
}
void copyFullQ(void *to, const void *from, CUstream_st *stream) {
  const Context64 &h = g_dctx->host();
  program::cudaCheck(cudaMemcpyAsync(to, from,
                                     h.qCount() * h.n() * sizeof(uint64_t),
                                     cudaMemcpyDeviceToDevice, stream),
                     "cudaMemcpyAsync");
}
/// Kernel 0: out[j] = in[j] * in[2] (j = 0, 1).
void gpuMultiplyKernel(const program::KernelLoop &, const program::KernelIO &io,
                       CUstream_st *stream) {
  for (int j = 0; j < 2; ++j) {
    copyFullQ(io.out[j], io.in[j], stream);
    cuda::DevicePoly out = fullQ(io.out[j]);
    cuda::mulInPlace(*g_dctx, out, fullQ(io.in[2]));
  }
}
/// Kernel 1: out[0] = in[0] + in[2], out[1] = in[1].
void gpuAddKernel(const program::KernelLoop &, const program::KernelIO &io,
                  CUstream_st *stream) {
  copyFullQ(io.out[0], io.in[0], stream);
  copyFullQ(io.out[1], io.in[1], stream);
  cuda::DevicePoly out = fullQ(io.out[0]);
  cuda::addInPlace(*g_dctx, out, fullQ(io.in[2]));
}

TEST(CudaBfv, ProgramPlanMatchesTheCpu) {
  // The BFV plan of bfv_plan.h (Plan::bfv_plain_modulus = t: the HPS
  // tensor product, its relinearization by CKKS's key switch, constants and
  // a plaintext input in both encodings), step by step, captured into a
  // CUDA Graph and replayed with other plaintext inputs: the CPU's residues
  // each run (program_test.cpp checks the CPU's against BfvEvaluator and
  // the slots' arithmetic).
  REQUIRE_GPU();
  ParamSpec spec; // N = 2^12, Q = 3 x 60, P = 60 (the CPU test's set)
  spec.name = "bfv12";
  spec.log_n = 12;
  spec.q_bits = {60, 60, 60};
  spec.p_bits = {60};
  spec.dnum = 3;
  spec.security = Security::kInsecureTestOnly;
  const uint64_t t = 65537;
  Context64 ctx(spec);
  cuda::DeviceContext dctx(ctx);
  g_dctx = &dctx;
  Prng prng(Prng::Seed{11});
  KeyGenerator keygen(ctx, prng);
  Encryptor encryptor(ctx, prng);
  Decryptor decryptor(ctx, keygen.secretKey());
  BfvEncoder encoder(ctx, t);
  const size_t slots = 256;
  const int top = ctx.maxLevel();
  const test::BfvPlan bfv =
      test::makeBfvPlan(top + 1, ctx.pCount(), ctx.digitCount(top),
                        int64_t(slots), encoder.delta(), t);
  const program::CpuKernel cpu_kernels[] = {test::multiplyKernel,
                                            test::addKernel};
  const program::CudaKernel gpu_kernels[] = {gpuMultiplyKernel, gpuAddKernel};
  test::kernelContext() = &ctx;
  auto integers = [&] {
    std::vector<double> v(slots);
    for (double &x : v)
      x = static_cast<double>(static_cast<int64_t>(prng.uniform(2 * t)) -
                              static_cast<int64_t>(t));
    return v;
  };
  const std::vector<double> x = integers();
  program::ConstantData data;
  data.values = integers(); // c0, then c1
  const std::vector<double> c1 = integers();
  data.values.insert(data.values.end(), c1.begin(), c1.end());
  const std::vector<Ciphertext> inputs = {encryptor.encrypt(
      encoder.encode(std::vector<int64_t>(x.begin(), x.end()), slots),
      keygen.publicKey())};
  EvaluationKeys keys;
  keys.has_relin = true;
  keys.relin = keygen.relinKey();
  const cuda::DeviceRelinKey drelin = cuda::upload(dctx, keys.relin);
  const std::vector<Ciphertext> want = expectRunsMatch(
      ctx, dctx, bfv.plan(cpu_kernels), bfv.plan(gpu_kernels), keys, &drelin,
      inputs, &data,
      [&](int) {
        const std::vector<double> w = integers();
        return PlainValues{
            std::vector<std::complex<double>>(w.begin(), w.end())};
      },
      4);
  ASSERT_EQ(want.size(), 4u);
  // The tensor product decrypts to x^2 mod t.
  const std::vector<uint64_t> got = encoder.decode(decryptor.decrypt(want[0]));
  for (size_t i = 0; i < slots; ++i) {
    const uint64_t xi = static_cast<uint64_t>(
        (static_cast<int64_t>(x[i]) % int64_t(t) + int64_t(t)) % int64_t(t));
    EXPECT_EQ(got[i], xi * xi % t) << i;
  }
  g_dctx = nullptr;
  test::kernelContext() = nullptr;
}

} // namespace
} // namespace ember
