// What the CUDA tests share: skipping where there is no device (CI has
// none; bench/gpu_run.sh runs them on the GPU host).
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

namespace ember::test {

inline bool haveGpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

} // namespace ember::test

#define REQUIRE_GPU()                                                          \
  do {                                                                         \
    if (!::ember::test::haveGpu())                                             \
      GTEST_SKIP() << "no CUDA device";                                        \
  } while (0)
