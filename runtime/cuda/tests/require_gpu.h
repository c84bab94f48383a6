// What the CUDA tests share: skipping where there is no device (CI has
// none; bench/gpu_run.sh runs them on the GPU host), and comparing a
// device ciphertext with the CPU's.
#pragma once

#include "ember/cuda.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

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

} // namespace ember::test

#define REQUIRE_GPU()                                                          \
  do {                                                                         \
    if (!::ember::test::haveGpu())                                             \
      GTEST_SKIP() << "no CUDA device";                                        \
  } while (0)
