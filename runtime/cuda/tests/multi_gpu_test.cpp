// A program partitioned over two GPUs (Plan::devices = 2, issue 18): a
// hand-written plan whose steps alternate between the devices, each
// device run by runCuda from its own thread with NCCL transfers, step by
// step and as one CUDA Graph per device (each a DAG of its steps, the
// kernels its sends follow first), gives the
// residues of the CPU's simulation of the same plan (program::run:
// runDevicesInProcess) and of the plan on one GPU. Needs two GPUs and NCCL
// (skipped otherwise; built by CI, run by bench/gpu_run.sh); the argument
// checks need one GPU, the communicator's own checks none.
#include "ember/cuda.h"
#include "ember/errors.h"
#include "ember/nccl.h"
#include "ember/program.h"
#include "ember/program_cuda.h"
#include "ember/random.h"
#include "require_gpu.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <exception>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

namespace ember {
namespace {

using program::BufferSpec;
using program::Step;
using program::StepKind;

/// N = 2^12, Q = 60 + 2 x 40, P = 60, a digit per limb (toy, insecure: a
/// unit test of the executor).
Context64 smallContext() {
  ParamSpec spec;
  spec.name = "multi_gpu";
  spec.log_n = 12;
  spec.log_scale = 40;
  spec.security = Security::kInsecureTestOnly;
  spec.q_bits = {60, 40, 40};
  spec.p_bits = {60};
  spec.dnum = 3;
  return Context64(spec);
}

/// The plan's tables, in two forms: partitioned over two devices, and the
/// same steps on one device (each transfer a copy, one arena holding both
/// devices' buffers).
struct TwoDevicePlan {
  static constexpr int64_t kGalois = 5;
  std::vector<BufferSpec> buffers, single_buffers;
  std::vector<int32_t> args;
  std::vector<Step> steps, single_steps;
  int64_t arena[2] = {0, 0};
  const char *input_names[1] = {"x"};
  const char *plain_names[1] = {nullptr};

  /// Input x (2 parts over q_0..q_top, NTT form) on device 0; its INTT
  /// there; sent to device 1, NTT and X -> X^5 there; sent back, output on
  /// device 0.
  TwoDevicePlan(int limbs, size_t n, int64_t slots, double scale) {
    const int64_t bytes = int64_t(limbs) * int64_t(n) * 8;
    const int16_t L = static_cast<int16_t>(limbs);
    std::vector<int> device_of;
    auto buffer = [&](int device, bool ntt) {
      buffers.push_back({0, L, 0, 0, uint8_t(ntt), 0, 0, arena[device]});
      arena[device] += bytes;
      device_of.push_back(device);
      return static_cast<int32_t>(buffers.size() - 1);
    };
    auto list = [&](std::initializer_list<int32_t> v) {
      const int32_t at = static_cast<int32_t>(args.size());
      args.insert(args.end(), v);
      return at;
    };
    auto step = [&](StepKind kind, std::initializer_list<int32_t> out,
                    std::initializer_list<int32_t> in,
                    std::array<int64_t, 4> imm, int device, double s = 0) {
      const int32_t o = list(out), i = list(in);
      Step st{kind,
              o,
              static_cast<int32_t>(out.size()),
              i,
              static_cast<int32_t>(in.size()),
              {imm[0], imm[1], imm[2], imm[3]},
              s,
              -1};
      st.device = static_cast<int8_t>(device);
      steps.push_back(st);
    };
    const int64_t top = limbs - 1;
    const int32_t x0 = buffer(0, true), x1 = buffer(0, true);
    step(StepKind::kInput, {x0, x1}, {}, {0, top, slots, 0}, 0, scale);
    const int32_t y0 = buffer(0, false), y1 = buffer(0, false);
    step(StepKind::kIntt, {y0}, {x0}, {0, 0, 0, 0}, 0);
    step(StepKind::kIntt, {y1}, {x1}, {0, 0, 0, 0}, 0);
    const int32_t r0 = buffer(1, false), r1 = buffer(1, false);
    step(StepKind::kTransfer, {r0}, {y0}, {1, 0, 0, 0}, 0);
    step(StepKind::kTransfer, {r1}, {y1}, {1, 0, 0, 0}, 0);
    step(StepKind::kRelease, {}, {y0, y1}, {0, 0, 0, 0}, -1);
    const int32_t z0 = buffer(1, true), z1 = buffer(1, true);
    step(StepKind::kNtt, {z0}, {r0}, {0, 0, 0, 0}, 1);
    step(StepKind::kNtt, {z1}, {r1}, {0, 0, 0, 0}, 1);
    const int32_t w0 = buffer(1, true), w1 = buffer(1, true);
    step(StepKind::kAutomorphism, {w0}, {z0}, {kGalois, 0, 0, 0}, 1);
    step(StepKind::kAutomorphism, {w1}, {z1}, {kGalois, 0, 0, 0}, 1);
    step(StepKind::kRelease, {}, {r0, r1, z0, z1}, {0, 0, 0, 0}, -1);
    const int32_t b0 = buffer(0, true), b1 = buffer(0, true);
    step(StepKind::kTransfer, {b0}, {w0}, {0, 0, 0, 0}, 1);
    step(StepKind::kTransfer, {b1}, {w1}, {0, 0, 0, 0}, 1);
    const int32_t movable = list({1, 1});
    step(StepKind::kOutput, {}, {b0, b1}, {top, slots, movable, 0}, 0, scale);

    // One device: device 1's buffers after device 0's in one arena.
    single_buffers = buffers;
    for (size_t b = 0; b < buffers.size(); ++b)
      if (device_of[b] == 1)
        single_buffers[b].offset += arena[0];
    single_steps = steps;
    for (Step &s : single_steps) {
      if (s.kind == StepKind::kTransfer) {
        s.kind = StepKind::kCopy;
        s.imm[0] = 0;
      }
      s.device = 0;
    }
  }

  template <typename Kernel> program::Plan<Kernel> partitioned() const {
    program::Plan<Kernel> p{buffers.data(),
                            buffers.size(),
                            args.data(),
                            steps.data(),
                            steps.size(),
                            nullptr,
                            0,
                            input_names,
                            plain_names,
                            std::max(arena[0], arena[1]),
                            0,
                            0};
    p.devices = 2;
    p.device_arena_bytes = arena;
    return p;
  }
  template <typename Kernel> program::Plan<Kernel> single() const {
    return {single_buffers.data(),
            single_buffers.size(),
            args.data(),
            single_steps.data(),
            single_steps.size(),
            nullptr,
            0,
            input_names,
            plain_names,
            arena[0] + arena[1],
            0,
            0};
  }
};

Ciphertext randomCiphertext(const Context64 &ctx, Prng &prng, size_t slots,
                            double scale) {
  Ciphertext ct;
  ct.level = ctx.maxLevel();
  ct.scale = scale;
  ct.slots = slots;
  for (int j = 0; j < 2; ++j)
    ct.c.push_back(sampleUniformPoly(ctx, prng, ctx.qBasis(ct.level), true));
  return ct;
}

using test::expectSame;
using test::prioritizedKernels;

int gpuCount() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

TEST(CudaMultiGpu, PartitionedPlanMatchesTheCpuAndOneGpu) {
  REQUIRE_GPU();
  if (!cuda::haveNccl())
    GTEST_SKIP() << "this runtime was built without NCCL";
  if (gpuCount() < 2)
    GTEST_SKIP() << "needs two GPUs";
  const Context64 ctx = smallContext();
  const size_t slots = ctx.n() / 2;
  const double scale = 0x1p40;
  const TwoDevicePlan tables(ctx.maxLevel() + 1, ctx.n(),
                             static_cast<int64_t>(slots), scale);
  const auto cpu_plan = tables.partitioned<program::CpuKernel>();
  const auto cpu_single = tables.single<program::CpuKernel>();
  const auto gpu_plan = tables.partitioned<program::CudaKernel>();
  const auto gpu_single = tables.single<program::CudaKernel>();

  cuda::DeviceContext dev0(ctx, 0), dev1(ctx, 1);
  const cuda::DeviceContext *devs[2] = {&dev0, &dev1};
  cuda::NcclComms comms({0, 1});
  Prng prng(Prng::Seed{18});
  // Per device, kept between runs: constants, graph, arena.
  program::ConstantCache<cuda::DevicePoly> cache[2], single_cache;
  program::CudaGraph graph[2], single_graph;
  program::CudaArena arena[2], single_arena;
  const EvaluationKeys keys;
  // Run 0 step by step; run 1 captures each device's graph (after a run
  // step by step); runs 2 and 3 replay them, on new inputs each run.
  for (int run = 0; run < 4; ++run) {
    const std::string at = "run " + std::to_string(run);
    const std::vector<Ciphertext> inputs = {
        randomCiphertext(ctx, prng, slots, scale)};
    std::vector<Ciphertext> want, want_single;
    program::CpuArgs a;
    a.ctx = &ctx;
    a.keys = &keys;
    a.inputs = &inputs;
    a.outputs = &want;
    program::run(a, cpu_plan); // the CPU's simulation of the two devices
    a.outputs = &want_single;
    program::run(a, cpu_single);
    ASSERT_EQ(want.size(), 1u) << at;
    ASSERT_EQ(want_single.size(), 1u) << at;
    ASSERT_TRUE(want[0].c[0].data == want_single[0].c[0].data &&
                want[0].c[1].data == want_single[0].c[1].data)
        << at << ": the CPU's simulation differs from one device";

    std::vector<cuda::DeviceCiphertext> dinputs;
    dinputs.push_back(cuda::upload(dev0, inputs[0]));
    const std::vector<cuda::DeviceCiphertext> none;
    std::vector<cuda::DeviceCiphertext> got[2], got_single;
    program::CudaArgs g[2];
    for (int d = 0; d < 2; ++d) {
      g[d].ctx = devs[d];
      g[d].inputs = d == 0 ? &dinputs : &none;
      g[d].outputs = &got[d];
      g[d].constants = &cache[d];
      g[d].graph = run ? &graph[d] : nullptr;
      g[d].arena = &arena[d];
      g[d].device_index = d;
      g[d].nccl_comm = comms.comm(d);
    }
    std::exception_ptr errors[2];
    std::thread threads[2];
    for (int d = 0; d < 2; ++d)
      threads[d] = std::thread([&, d] {
        try {
          program::runCuda(g[d], gpu_plan);
          devs[d]->synchronize();
        } catch (...) {
          errors[d] = std::current_exception();
        }
      });
    for (std::thread &t : threads)
      t.join();
    for (const std::exception_ptr &e : errors)
      if (e)
        std::rethrow_exception(e);
    if (run) {
      EXPECT_TRUE(graph[0].captured()) << at;
      EXPECT_TRUE(graph[1].captured()) << at;
      // Each device's graph a DAG (BasicCudaGraph::concurrent): the two
      // parts' steps side by side, so that its longest chain is shorter
      // than the graph.
      EXPECT_GT(graph[0].path_nodes, 0u) << at;
      EXPECT_LT(graph[0].path_nodes, graph[0].nodes) << at;
      EXPECT_GT(graph[1].path_nodes, 0u) << at;
      EXPECT_LT(graph[1].path_nodes, graph[1].nodes) << at;
      // The kernels the sends follow run first: device 0's INTTs, device
      // 1's NTTs and automorphisms.
      EXPECT_GT(prioritizedKernels(graph[0].graph), 0u) << at;
      EXPECT_GT(prioritizedKernels(graph[1].graph), 0u) << at;
    }
    EXPECT_EQ(arena[0].bytes(), size_t(tables.arena[0])) << at;
    EXPECT_EQ(arena[1].bytes(), size_t(tables.arena[1])) << at;
    EXPECT_TRUE(got[1].empty()) << at << ": outputs come from device 0";
    ASSERT_EQ(got[0].size(), 1u) << at;
    expectSame(dev0, want[0], got[0][0], at + ", two GPUs");

    program::CudaArgs s;
    s.ctx = &dev0;
    s.inputs = &dinputs;
    s.outputs = &got_single;
    s.constants = &single_cache;
    s.graph = run ? &single_graph : nullptr;
    s.arena = &single_arena;
    program::runCuda(s, gpu_single);
    dev0.synchronize();
    ASSERT_EQ(got_single.size(), 1u) << at;
    expectSame(dev0, want[0], got_single[0], at + ", one GPU");
    if (run) // one device: its longest chain first
      EXPECT_GT(prioritizedKernels(single_graph.graph), 0u) << at;
  }
  // The graphs before the communicators they captured transfers of.
  graph[0].reset();
  graph[1].reset();
}

TEST(CudaMultiGpu, PartitionedPlanChecksItsArguments) {
  // Device 0 of the two-device plan on one GPU: without a communicator, or
  // with a device index the plan does not have, runCuda refuses before
  // queuing anything.
  REQUIRE_GPU();
  const Context64 ctx = smallContext();
  const size_t slots = ctx.n() / 2;
  const TwoDevicePlan tables(ctx.maxLevel() + 1, ctx.n(),
                             static_cast<int64_t>(slots), 0x1p40);
  const auto gpu_plan = tables.partitioned<program::CudaKernel>();
  cuda::DeviceContext dev0(ctx, 0);
  const std::vector<cuda::DeviceCiphertext> none;
  std::vector<cuda::DeviceCiphertext> out;
  program::CudaArgs g;
  g.ctx = &dev0;
  g.inputs = &none;
  g.outputs = &out;
  try {
    program::runCuda(g, gpu_plan);
    ADD_FAILURE() << "a partitioned plan ran without a communicator";
  } catch (const Error &e) {
    const std::string what = e.what();
    if (cuda::haveNccl())
      EXPECT_NE(what.find("NCCL communicator of 2 ranks"), std::string::npos)
          << what;
    else
      EXPECT_NE(what.find("built without NCCL"), std::string::npos) << what;
  }
  g.device_index = 2;
  EXPECT_THROW(program::runCuda(g, gpu_plan), InvalidArgument);
  // check_only: the arguments of device 0 only (its input is missing).
  if (cuda::haveNccl() && gpuCount() >= 2) {
    cuda::NcclComms comms({0, 1});
    g.device_index = 0;
    g.nccl_comm = comms.comm(0);
    g.check_only = true;
    EXPECT_THROW(program::runCuda(g, gpu_plan), InvalidArgument);
    g.nccl_comm = comms.comm(1); // rank 1 given to device 0
    EXPECT_THROW(program::runCuda(g, gpu_plan), InvalidArgument);
  }
}

TEST(CudaMultiGpu, BuffersLiveOnTheirContextsGpu) {
  // A context's buffers go to its GPU whichever GPU is current: the
  // second GPU's context, made last, leaves its GPU current, and keys or
  // inputs then uploaded for the first must still land on the first.
  REQUIRE_GPU();
  if (gpuCount() < 2)
    GTEST_SKIP() << "needs two GPUs";
  const Context64 ctx = smallContext();
  cuda::DeviceContext dev0(ctx, 0);
  cuda::DeviceContext dev1(ctx, 1); // leaves GPU 1 current
  auto deviceOf = [](const void *p) {
    cudaPointerAttributes a{};
    EXPECT_EQ(cudaPointerGetAttributes(&a, p), cudaSuccess);
    return a.device;
  };
  int current = -1;
  cudaGetDevice(&current);
  EXPECT_EQ(current, 1);
  cuda::DeviceBuffer on0(dev0, 1000), on1(dev1, 1001);
  EXPECT_EQ(deviceOf(on0.data()), 0);
  EXPECT_EQ(deviceOf(on1.data()), 1);
  cudaSetDevice(0);
  cuda::DeviceBuffer again1(dev1, 1002);
  EXPECT_EQ(deviceOf(again1.data()), 1);
  cudaGetDevice(&current);
  EXPECT_EQ(current, 0); // the caller's device comes back
}

TEST(CudaMultiGpu, CommunicatorsRefuseADeviceTwice) {
  // No GPU needed: the list is checked first (or, without NCCL, the
  // runtime says it has none).
  if (cuda::haveNccl())
    EXPECT_THROW(cuda::NcclComms({0, 0}), InvalidArgument);
  else
    EXPECT_THROW(cuda::NcclComms({0, 1}), Error);
  EXPECT_THROW(cuda::ncclSendBytes(nullptr, nullptr, 8, 1, nullptr), Error);
}

} // namespace
} // namespace ember
