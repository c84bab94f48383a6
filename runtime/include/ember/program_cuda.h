// The ABI between code emitted by `ember-translate --emit-cuda` and the CUDA
// runtime (ember/cuda.h): the entry point every generated .cu exports and
// the small host helpers its body calls (buffers from the context's pool,
// device-to-device copies on the context's stream). Include only from .cu
// files compiled with nvcc.
#pragma once

#include "ember/cuda.h"
#include "ember/errors.h"
#include "ember/program.h"

#include <cuda_runtime.h>

#include <initializer_list>
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
};
/// Every generated .cu exports `extern "C" void ember_program_run_cuda(const
/// CudaArgs &)`; all work is queued on the context's stream.
inline constexpr const char *kCudaEntry = "ember_program_run_cuda";
using CudaEntry = void (*)(const CudaArgs &);

inline void cudaCheck(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw Error(std::string(what) + ": " + cudaGetErrorString(e));
}

#ifdef EMBER_DEBUG_LAUNCHES
#define EMBER_CHECK_LAUNCH()                                                   \
  ::ember::program::cudaCheck(cudaGetLastError(), "generated kernel launch")
#else
#define EMBER_CHECK_LAUNCH() ((void)0)
#endif

/// A poly buffer from the context's pool (optionally zeroed).
inline cuda::DevicePoly cudaAlloc(const cuda::DeviceContext &ctx,
                                  const std::vector<int> &basis, bool ntt,
                                  bool zero = false) {
  cuda::DevicePoly p;
  p.basis = basis;
  p.n = ctx.host().n();
  p.ntt = ntt;
  p.buf = cuda::DeviceBuffer(ctx, basis.size() * p.n);
  if (zero)
    cudaCheck(
        cudaMemsetAsync(p.data(), 0, basis.size() * p.n * 8, ctx.stream()),
        "cudaMemsetAsync");
  return p;
}

inline void cudaCopyWords(const cuda::DeviceContext &ctx, uint64_t *dst,
                          const uint64_t *src, size_t words) {
  cudaCheck(cudaMemcpyAsync(dst, src, words * 8, cudaMemcpyDeviceToDevice,
                            ctx.stream()),
            "cudaMemcpyAsync");
}

inline cuda::DevicePoly cudaCopy(const cuda::DeviceContext &ctx,
                                 const cuda::DevicePoly &src) {
  cuda::DevicePoly p = cudaAlloc(ctx, src.basis, src.ntt);
  cudaCopyWords(ctx, p.data(), src.data(), src.basis.size() * src.n);
  return p;
}

/// Limbs first..first+count-1 of `src` (a copy).
inline cuda::DevicePoly cudaView(const cuda::DeviceContext &ctx,
                                 const cuda::DevicePoly &src, size_t first,
                                 size_t count) {
  cuda::DevicePoly p =
      cudaAlloc(ctx,
                std::vector<int>(src.basis.begin() + first,
                                 src.basis.begin() + first + count),
                src.ntt);
  cudaCopyWords(ctx, p.data(), src.limb(first), count * src.n);
  return p;
}

inline cuda::DevicePoly
cudaConcat(const cuda::DeviceContext &ctx,
           std::initializer_list<const cuda::DevicePoly *> parts) {
  std::vector<int> basis;
  for (const cuda::DevicePoly *p : parts)
    basis.insert(basis.end(), p->basis.begin(), p->basis.end());
  cuda::DevicePoly out = cudaAlloc(ctx, basis, (*parts.begin())->ntt);
  size_t at = 0;
  for (const cuda::DevicePoly *p : parts) {
    cudaCopyWords(ctx, out.data() + at, p->data(), p->basis.size() * p->n);
    at += p->basis.size() * p->n;
  }
  return out;
}

/// The CUDA form of checkInput: parts, level and slots (InvalidArgument),
/// then exactly the manifest's scale (ScaleMismatch, checkInputScale).
inline void cudaCheckInput(const std::vector<cuda::DeviceCiphertext> &in,
                           size_t index, const char *name, int parts, int level,
                           size_t slots, double scale) {
  std::string what = "program input '" + std::string(name) + "'";
  if (index >= in.size())
    throw InvalidArgument(what + " is missing");
  if (in[index].parts != parts || in[index].level != level ||
      in[index].slots != slots)
    throw InvalidArgument(what + " does not match the manifest (parts " +
                          std::to_string(parts) + ", level " +
                          std::to_string(level) + ", slots " +
                          std::to_string(slots) + ")");
  checkInputScale(name, in[index].scale, scale);
}

/// Polynomial `part` of a device ciphertext as its own buffer (a copy).
inline cuda::DevicePoly cudaPart(const cuda::DeviceContext &ctx,
                                 const cuda::DeviceCiphertext &ct, int part) {
  cuda::DevicePoly p = cudaAlloc(ctx, ctx.host().qBasis(ct.level), true);
  cudaCopyWords(ctx, p.data(), ct.part(part), ct.limbs() * ct.n);
  return p;
}

inline cuda::DeviceCiphertext
cudaCiphertext(const cuda::DeviceContext &ctx,
               std::initializer_list<const cuda::DevicePoly *> polys, int level,
               double scale, size_t slots) {
  cuda::DeviceCiphertext ct;
  ct.parts = static_cast<int>(polys.size());
  ct.level = level;
  ct.scale = scale;
  ct.slots = slots;
  ct.n = ctx.host().n();
  ct.buf = cuda::DeviceBuffer(ctx, ct.parts * ct.limbs() * ct.n);
  int i = 0;
  for (const cuda::DevicePoly *p : polys)
    cudaCopyWords(ctx, ct.part(i++), p->data(), ct.limbs() * ct.n);
  return ct;
}

inline const cuda::DeviceSwitchingKey &cudaRelinKey(const CudaArgs &args) {
  if (!args.relin)
    throw MissingKey("the program needs the relinearization key (see its "
                     "manifest)");
  return args.relin->key;
}

inline const cuda::DeviceSwitchingKey &cudaGaloisKey(const CudaArgs &args,
                                                     uint64_t galois) {
  if (!args.galois || !args.galois->has(galois))
    throw MissingKey("the program needs the Galois key of element " +
                     std::to_string(galois) + " (see its manifest)");
  return args.galois->keys.at(galois);
}

inline const cuda::DeviceKlssKey &cudaKlssRelinKey(const CudaArgs &args) {
  if (!args.klss_relin)
    throw MissingKey("the program needs the relinearization key in KLSS form "
                     "(see its manifest)");
  return args.klss_relin->key;
}

inline const cuda::DeviceKlssKey &cudaKlssGaloisKey(const CudaArgs &args,
                                                    uint64_t galois) {
  if (!args.klss_galois || !args.klss_galois->has(galois))
    throw MissingKey("the program needs the Galois key of element " +
                     std::to_string(galois) +
                     " in KLSS form (see its manifest)");
  return args.klss_galois->keys.at(galois);
}

/// Gives a dead buffer back to the pool.
inline void cudaRelease(cuda::DevicePoly &p) { p = cuda::DevicePoly(); }

} // namespace ember::program
