// The CUDA backend of the plan executor (runtime/core/program_exec.h):
// runCuda runs the tables of a program emitted by `ember-translate
// --emit-cuda`. Buffers come from the context's pool, copies and kernels are
// queued on the context's stream; nothing synchronises the host.
#include "ember/program_cuda.h"

#include "../core/program_exec.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ember::program {

namespace {

/// A poly buffer from the context's pool (optionally zeroed).
cuda::DevicePoly alloc(const cuda::DeviceContext &ctx, std::vector<int> basis,
                       bool ntt, bool zero) {
  cuda::DevicePoly p;
  p.n = ctx.host().n();
  p.ntt = ntt;
  p.buf = cuda::DeviceBuffer(ctx, basis.size() * p.n);
  p.basis = std::move(basis);
  if (zero)
    cudaCheck(
        cudaMemsetAsync(p.data(), 0, p.basis.size() * p.n * 8, ctx.stream()),
        "cudaMemsetAsync");
  return p;
}

void copyWords(const cuda::DeviceContext &ctx, uint64_t *dst,
               const uint64_t *src, size_t words) {
  if (words)
    cudaCheck(cudaMemcpyAsync(dst, src, words * 8, cudaMemcpyDeviceToDevice,
                              ctx.stream()),
              "cudaMemcpyAsync");
}

struct CudaBackend {
  using Poly = cuda::DevicePoly;
  using Args = CudaArgs;
  using Kernel = CudaKernel;
  using HybridKey = cuda::DeviceSwitchingKey;
  using KlssKey = cuda::DeviceKlssKey;

  static const Context64 &host(const Args &a) { return a.ctx->host(); }
  static ConstantCache<Poly> *cache(const Args &a) { return a.constants; }
  static uint64_t *words(const Poly &p) { return p.data(); }
  static Poly alloc(const Args &a, std::vector<int> b, bool ntt, bool zero) {
    return program::alloc(*a.ctx, std::move(b), ntt, zero);
  }
  static Poly copy(const Args &a, const Poly &p) {
    Poly out = alloc(a, p.basis, p.ntt, false);
    copyWords(*a.ctx, out.data(), p.data(), p.basis.size() * p.n);
    return out;
  }
  static void ntt(const Args &a, Poly &p) { cuda::ntt(*a.ctx, p); }
  static void intt(const Args &a, Poly &p) { cuda::intt(*a.ctx, p); }
  static Poly bconv(const Args &a, const Poly &p, const std::vector<int> &to) {
    return cuda::bconv(*a.ctx, p, to);
  }
  static Poly modUp(const Args &a, const Poly &p, int digit) {
    return cuda::modUp(*a.ctx, p, digit);
  }
  static void ksInnerProduct(const Args &a, const HybridKey &key,
                             const std::vector<const Poly *> &digits,
                             Poly &acc0, Poly &acc1) {
    cuda::keySwitchInnerProduct(*a.ctx, key, digits, acc0, acc1);
  }
  static Poly klssModUp(const Args &a, const Poly &p) {
    return cuda::klssModUp(*a.ctx, p);
  }
  static void klssInnerProduct(const Args &a, const KlssKey &key,
                               const std::vector<const Poly *> &digits,
                               int level, Poly &acc0, Poly &acc1) {
    cuda::klssInnerProduct(*a.ctx, key, digits, level, acc0, acc1);
  }
  static Poly modSwitchDown(const Args &a, const Poly &p,
                            const std::vector<int> &keep) {
    return cuda::modSwitchDown(*a.ctx, p, keep);
  }
  static Poly automorphism(const Args &a, const Poly &p, uint64_t g) {
    return cuda::automorphism(*a.ctx, p, g);
  }
  /// Limbs first..first+count-1 (a copy).
  static Poly view(const Args &a, const Poly &p, size_t first, size_t count) {
    Poly out = alloc(a,
                     std::vector<int>(p.basis.begin() + first,
                                      p.basis.begin() + first + count),
                     p.ntt, false);
    copyWords(*a.ctx, out.data(), p.limb(first), count * p.n);
    return out;
  }
  static Poly concat(const Args &a, const std::vector<const Poly *> &parts) {
    std::vector<int> basis;
    for (const Poly *p : parts)
      basis.insert(basis.end(), p->basis.begin(), p->basis.end());
    Poly out = alloc(a, basis, parts.front()->ntt, false);
    size_t at = 0;
    for (const Poly *p : parts) {
      copyWords(*a.ctx, out.data() + at, p->data(), p->basis.size() * p->n);
      at += p->basis.size() * p->n;
    }
    return out;
  }
  static const HybridKey *hybridKey(const Args &a, uint64_t g) {
    if (!g) {
      if (!a.relin)
        throw MissingKey("the program needs the relinearization key (see "
                         "its manifest)");
      return &a.relin->key;
    }
    if (!a.galois || !a.galois->has(g))
      throw MissingKey("the program needs the Galois key of element " +
                       std::to_string(g) + " (see its manifest)");
    return &a.galois->keys.at(g);
  }
  static const KlssKey *klssKey(const Args &a, uint64_t g) {
    if (!g) {
      if (!a.klss_relin)
        throw MissingKey("the program needs the relinearization key in KLSS "
                         "form (see its manifest)");
      return &a.klss_relin->key;
    }
    if (!a.klss_galois || !a.klss_galois->has(g))
      throw MissingKey("the program needs the Galois key of element " +
                       std::to_string(g) + " in KLSS form (see its manifest)");
    return &a.klss_galois->keys.at(g);
  }
  static Poly constant(const Args &a, int64_t offset, int64_t count,
                       bool complex, double scale,
                       const std::vector<int> &basis, bool ntt) {
    return cuda::upload(*a.ctx,
                        encodeConstant(a.ctx->host(), a.data, offset, count,
                                       complex, scale, basis, ntt));
  }
  /// Encoded on the host (the canonical embedding's FFT), then uploaded.
  static Poly encodeValues(const Args &a,
                           const std::vector<std::complex<double>> &values,
                           double scale, const std::vector<int> &basis,
                           bool ntt) {
    return cuda::upload(*a.ctx, program::encodeValues(a.ctx->host(), values,
                                                      scale, basis, ntt));
  }
  static const std::vector<std::vector<std::complex<double>>> *
  plain(const Args &a) {
    return a.plain;
  }
  static void launch(const Args &a, CudaKernel k, const KernelLoop &loop,
                     const KernelIO &io) {
    k(loop, io, a.ctx->stream());
  }
  static void checkInput(const Args &a, size_t index, const char *name,
                         int parts, int level, size_t slots, double scale) {
    cudaCheckInput(*a.inputs, index, name, parts, level, slots, scale);
  }
  /// A device ciphertext's parts share one buffer: each part is copied
  /// into its own (an arena-backed plan will point at them instead).
  static const Poly *inputPart(const Args &a, size_t index, int part,
                               Poly &storage) {
    const cuda::DeviceCiphertext &ct = (*a.inputs)[index];
    storage = alloc(a, a.ctx->host().qBasis(ct.level), true, false);
    copyWords(*a.ctx, storage.data(), ct.part(part), ct.limbs() * ct.n);
    return &storage;
  }
  static void output(const Args &a, std::vector<Poly> polys, int level,
                     double scale, size_t slots) {
    cuda::DeviceCiphertext ct;
    ct.parts = static_cast<int>(polys.size());
    ct.level = level;
    ct.scale = scale;
    ct.slots = slots;
    ct.n = a.ctx->host().n();
    ct.buf = cuda::DeviceBuffer(*a.ctx, ct.parts * ct.limbs() * ct.n);
    for (int i = 0; i < ct.parts; ++i)
      copyWords(*a.ctx, ct.part(i), polys[i].data(), ct.limbs() * ct.n);
    a.outputs->push_back(std::move(ct));
  }
};

} // namespace

void cudaCheckInput(const std::vector<cuda::DeviceCiphertext> &in, size_t index,
                    const char *name, int parts, int level, size_t slots,
                    double scale) {
  std::string what = "program input '" + std::string(name) + "'";
  if (index >= in.size())
    throw InvalidArgument(what + " is missing: " + std::to_string(in.size()) +
                          " ciphertexts given");
  const cuda::DeviceCiphertext &ct = in[index];
  if (ct.parts != parts)
    throw InvalidArgument(what + " has " + std::to_string(ct.parts) +
                          " polynomials, " + std::to_string(parts) +
                          " expected");
  if (ct.level != level)
    throw LevelMismatch(what + " is at level " + std::to_string(ct.level) +
                        ", the program expects level " + std::to_string(level));
  if (ct.slots != slots)
    throw InvalidArgument(what + " has " + std::to_string(ct.slots) +
                          " slots, " + std::to_string(slots) + " expected");
  checkInputScale(name, ct.scale, scale);
}

void checkLaunch(cudaError_t e) { cudaCheck(e, "generated kernel launch"); }

void runCuda(const CudaArgs &args, const Plan<CudaKernel> &plan) {
  args.outputs->clear();
  Executor<CudaBackend>(args, plan).run();
}

} // namespace ember::program
