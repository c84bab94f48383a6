// Randomness for key material, errors and encryption. All of it comes from
// OpenSSL: the default Prng seeds an AES-256-CTR keystream from RAND_bytes
// (the OS CSPRNG); a Prng built from an explicit seed replays the same stream,
// which tests use to compare backends bit for bit. No std:: random engine is
// ever used for key material.
#pragma once

#include "ember/context.h"
#include "ember/poly.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace ember {

class Prng {
public:
  using Seed = std::array<uint8_t, 32>;
  /// Seeded from OpenSSL's RAND_bytes.
  Prng();
  /// Deterministic stream from `seed` (tests and reproducible runs only).
  explicit Prng(const Seed &seed);
  ~Prng();
  Prng(const Prng &) = delete;
  Prng &operator=(const Prng &) = delete;

  void fill(void *out, size_t bytes);
  uint64_t next64();
  /// Uniform in [0, bound) by rejection (no modulo bias).
  uint64_t uniform(uint64_t bound);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Error distribution: discrete Gaussian with this standard deviation,
/// tail-cut at 6 sigma (the HomomorphicEncryption.org standard's choice).
constexpr double kErrorSigma = 3.2;

/// Integer samplers (coefficients as signed values, length n).
std::vector<int64_t> sampleTernary(Prng &prng, size_t n);
std::vector<int64_t> sampleTernaryHamming(Prng &prng, size_t n, int weight);
std::vector<int64_t> sampleGaussian(Prng &prng, size_t n,
                                    double sigma = kErrorSigma);

/// Integers round(sigma * g), g standard normal (Box-Muller in long double
/// on 64-bit uniforms, so |g| <= 9.4), for the wide Gaussians of noise
/// flooding (sigma in [1, 2^59]); sampleGaussian's table is for sigma = 3.2.
std::vector<int64_t> sampleWideGaussian(Prng &prng, size_t n, double sigma);

/// Small signed coefficients -> coefficient-form polynomial over `basis`.
template <typename Word>
Poly<Word> polyFromSigned(const Context<Word> &ctx,
                          const std::vector<int64_t> &coeffs,
                          const std::vector<int> &basis);
/// Uniform polynomial over `basis` (uniform per limb = uniform mod the
/// product). The form flag is set as asked; the values are uniform either way.
template <typename Word>
Poly<Word> sampleUniformPoly(const Context<Word> &ctx, Prng &prng,
                             const std::vector<int> &basis, bool ntt);

} // namespace ember
