// The ABI between code emitted by `ember-translate --emit-cuda` and the CUDA
// runtime (ember/cuda.h): the entry point every generated .cu exports, the
// arguments it receives and the plan executor its tables run on
// (runtime/cuda/program.cu). Include only from .cu files compiled with nvcc.
#pragma once

#include "ember/cuda.h"
#include "ember/errors.h"
#include "ember/program.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace ember::program {

/// What the host entry of a generated CUDA program receives.
struct CudaArgs {
  const cuda::DeviceContext *ctx = nullptr;
  const cuda::DeviceRelinKey *relin = nullptr;    ///< null: none generated
  const cuda::DeviceGaloisKeys *galois = nullptr; ///< null: none generated
  const cuda::DeviceKlssRelinKey *klss_relin = nullptr;    ///< KLSS forms
  const cuda::DeviceKlssGaloisKeys *klss_galois = nullptr; ///< (null: none)
  const std::vector<cuda::DeviceCiphertext> *inputs = nullptr;
  std::vector<cuda::DeviceCiphertext> *outputs = nullptr;
  /// Kept by the caller between runs (destroy it before the context);
  /// null: encode and upload the constants every run.
  ConstantCache<cuda::DevicePoly> *constants = nullptr;
  /// The program's data file (null: the program has no vector constants).
  const ConstantData *data = nullptr;
  /// The values of the plaintext inputs, in interface order (host memory;
  /// encoded on the host and uploaded each run).
  const std::vector<std::vector<std::complex<double>>> *plain = nullptr;
};
/// Every generated .cu exports `extern "C" void ember_program_run_cuda(const
/// CudaArgs &)`; all work is queued on the context's stream.
inline constexpr const char *kCudaEntry = "ember_program_run_cuda";
using CudaEntry = void (*)(const CudaArgs &);

inline void cudaCheck(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw Error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// The CUDA form of checkInput: the input's parts, level and slots, then
/// exactly the manifest's scale (ScaleMismatch, checkInputScale).
void cudaCheckInput(const std::vector<cuda::DeviceCiphertext> &in, size_t index,
                    const char *name, int parts, int level, size_t slots,
                    double scale);

} // namespace ember::program
