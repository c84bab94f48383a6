// What the CUDA tests share: skipping where there is no device (CI has
// none; bench/gpu_run.sh runs them on the GPU host), comparing a device
// ciphertext with the CPU's, and counting a graph's prioritized kernels.
#pragma once

#include "ember/cuda.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ember::test {

inline bool haveGpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

/// Asserts that the device ciphertext `got` is `want`, residue for residue.
inline void expectSame(const cuda::DeviceContext &dctx, const Ciphertext &want,
                       const cuda::DeviceCiphertext &got,
                       const std::string &what) {
  const Ciphertext g = cuda::download(dctx, got);
  ASSERT_EQ(g.level, want.level) << what;
  ASSERT_EQ(g.scale, want.scale) << what;
  ASSERT_EQ(g.c.size(), want.c.size()) << what;
  for (size_t i = 0; i < want.c.size(); ++i)
    ASSERT_TRUE(g.c[i].data == want.c[i].data)
        << what << ": part " << i << " differs from the CPU";
}

/// Kernel nodes of a graph set to run above the default priority
/// (program::BasicCudaGraph::prioritized).
inline size_t prioritizedKernels(cudaGraph_t graph) {
  size_t n = 0;
  EXPECT_EQ(cudaGraphGetNodes(graph, nullptr, &n), cudaSuccess);
  std::vector<cudaGraphNode_t> nodes(n);
  EXPECT_EQ(cudaGraphGetNodes(graph, nodes.data(), &n), cudaSuccess);
  size_t k = 0;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    cudaLaunchAttributeValue v{};
    if (cudaGraphNodeGetType(node, &type) == cudaSuccess &&
        type == cudaGraphNodeTypeKernel &&
        cudaGraphKernelNodeGetAttribute(node, cudaLaunchAttributePriority,
                                        &v) == cudaSuccess &&
        v.priority != 0)
      ++k;
  }
  return k;
}

} // namespace ember::test

#define REQUIRE_GPU()                                                          \
  do {                                                                         \
    if (!::ember::test::haveGpu())                                             \
      GTEST_SKIP() << "no CUDA device";                                        \
  } while (0)
