// OpenSSL-backed randomness: AES-256-CTR keystream (EVP) keyed from
// RAND_bytes, or from an explicit seed for reproducible tests.
#include "ember/random.h"
#include "ember/errors.h"
#include "ember/wipe.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cmath>
#include <cstring>

namespace ember {

struct Prng::Impl {
  EVP_CIPHER_CTX *ctx = nullptr;
  uint8_t buffer[4096];
  size_t used = sizeof(buffer);

  explicit Impl(const Seed &seed) {
    ctx = EVP_CIPHER_CTX_new();
    uint8_t iv[16] = {0};
    if (!ctx || EVP_EncryptInit_ex(ctx, EVP_aes_256_ctr(), nullptr, seed.data(),
                                   iv) != 1)
      throw Error("OpenSSL: cannot initialise AES-256-CTR");
  }
  ~Impl() {
    EVP_CIPHER_CTX_free(ctx);
    secureWipe(buffer, sizeof(buffer)); // keystream that made secrets
  }

  void refill() {
    static const uint8_t zeros[sizeof(buffer)] = {0};
    int len = 0;
    if (EVP_EncryptUpdate(ctx, buffer, &len, zeros, sizeof(buffer)) != 1 ||
        len != static_cast<int>(sizeof(buffer)))
      throw Error("OpenSSL: AES-256-CTR keystream failed");
    used = 0;
  }
};

namespace {
Prng::Seed osSeed() {
  Prng::Seed seed;
  if (RAND_bytes(seed.data(), static_cast<int>(seed.size())) != 1)
    throw Error("OpenSSL RAND_bytes failed: no entropy for key material");
  return seed;
}
} // namespace

Prng::Prng() {
  Seed seed = osSeed();
  impl_ = std::make_unique<Impl>(seed);
  secureWipe(seed.data(), seed.size());
}
Prng::Prng(const Seed &seed) : impl_(std::make_unique<Impl>(seed)) {}
Prng::~Prng() = default;

void Prng::fill(void *out, size_t bytes) {
  auto *dst = static_cast<uint8_t *>(out);
  while (bytes > 0) {
    if (impl_->used == sizeof(impl_->buffer))
      impl_->refill();
    size_t take = std::min(bytes, sizeof(impl_->buffer) - impl_->used);
    std::memcpy(dst, impl_->buffer + impl_->used, take);
    impl_->used += take;
    dst += take;
    bytes -= take;
  }
}

uint64_t Prng::next64() {
  uint64_t v;
  fill(&v, sizeof(v));
  return v;
}

uint64_t Prng::uniform(uint64_t bound) {
  if (bound == 0)
    throw InvalidArgument("uniform: empty range");
  if ((bound & (bound - 1)) == 0)
    return next64() & (bound - 1);
  int bits = 64 - __builtin_clzll(bound - 1);
  uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  for (;;) {
    uint64_t v = next64() & mask;
    if (v < bound)
      return v;
  }
}

std::vector<int64_t> sampleTernary(Prng &prng, size_t n) {
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n;) {
    uint8_t bytes[256];
    prng.fill(bytes, sizeof(bytes));
    for (size_t k = 0; k < sizeof(bytes) && i < n; ++k) {
      if (bytes[k] >= 255) // 255 = 3 * 85: reject to stay unbiased
        continue;
      out[i++] = static_cast<int64_t>(bytes[k] % 3) - 1;
    }
    secureWipe(bytes, sizeof(bytes));
  }
  return out;
}

std::vector<int64_t> sampleTernaryHamming(Prng &prng, size_t n, int weight) {
  if (weight < 0 || static_cast<size_t>(weight) > n)
    throw InvalidArgument("Hamming weight " + std::to_string(weight) +
                          " is outside 0..N");
  std::vector<int64_t> out(n, 0);
  // Partial Fisher-Yates over positions: the first `weight` picks are
  // uniform without replacement.
  std::vector<uint32_t> positions(n);
  for (size_t i = 0; i < n; ++i)
    positions[i] = static_cast<uint32_t>(i);
  for (int i = 0; i < weight; ++i) {
    size_t j = i + prng.uniform(n - i);
    std::swap(positions[i], positions[j]);
    out[positions[i]] = (prng.next64() & 1) ? 1 : -1;
  }
  secureWipe(positions); // the first `weight` entries are the support of s
  return out;
}

std::vector<int64_t> sampleGaussian(Prng &prng, size_t n, double sigma) {
  // Cumulative distribution table over |x| <= ceil(6 sigma), 64-bit
  // fixed-point probabilities; sampling is a scan of the table.
  const int bound = static_cast<int>(std::ceil(6 * sigma));
  std::vector<long double> weights(2 * bound + 1);
  long double total = 0;
  for (int x = -bound; x <= bound; ++x) {
    weights[x + bound] =
        std::exp(-static_cast<long double>(x) * x / (2.0L * sigma * sigma));
    total += weights[x + bound];
  }
  std::vector<uint64_t> cdf(weights.size());
  long double running = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    running += weights[i] / total;
    long double scaled = running * 18446744073709551616.0L;
    cdf[i] = scaled >= 18446744073709551615.0L ? ~uint64_t{0}
                                               : static_cast<uint64_t>(scaled);
  }
  cdf.back() = ~uint64_t{0};
  // Constant time in the sample: every table entry is compared.
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t u = prng.next64();
    int64_t value = -bound;
    for (size_t k = 0; k + 1 < cdf.size(); ++k)
      value += u >= cdf[k];
    out[i] = value;
  }
  return out;
}

std::vector<int64_t> sampleWideGaussian(Prng &prng, size_t n, double sigma) {
  if (!(sigma >= 1) || sigma > 0x1p59) // |values| < 9.5 * 2^59 < 2^63
    throw InvalidArgument("sampleWideGaussian: sigma must be in [1, 2^59]");
  // Box-Muller: u1 in (0, 1] and u2 in [0, 1) with 64 random bits each, so
  // r = sqrt(-2 ln u1) <= sqrt(128 ln 2) = 9.42.
  const long double two_pi = 6.283185307179586476925286766559L;
  const long double scale = 0x1p-64L;
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; i += 2) {
    const long double u1 =
        (static_cast<long double>(prng.next64()) + 1) * scale;
    const long double u2 = static_cast<long double>(prng.next64()) * scale;
    const long double r = sigma * std::sqrt(-2 * std::log(u1));
    out[i] = std::llround(r * std::cos(two_pi * u2));
    if (i + 1 < n)
      out[i + 1] = std::llround(r * std::sin(two_pi * u2));
  }
  return out;
}

template <typename Word>
Poly<Word> polyFromSigned(const Context<Word> &ctx,
                          const std::vector<int64_t> &coeffs,
                          const std::vector<int> &basis) {
  if (coeffs.size() != ctx.n())
    throw InvalidArgument("polyFromSigned: " + std::to_string(coeffs.size()) +
                          " coefficients for N = " + std::to_string(ctx.n()));
  Poly<Word> p(basis, ctx.n(), false);
  for (size_t i = 0; i < basis.size(); ++i) {
    const uint64_t q = ctx.modulus(basis[i]).value();
    Word *dst = p.limb(i);
    for (size_t k = 0; k < ctx.n(); ++k) {
      int64_t c = coeffs[k];
      uint64_t mag = static_cast<uint64_t>(c < 0 ? -c : c) % q;
      dst[k] = static_cast<Word>(c < 0 && mag ? q - mag : mag);
    }
  }
  return p;
}

template <typename Word>
Poly<Word> sampleUniformPoly(const Context<Word> &ctx, Prng &prng,
                             const std::vector<int> &basis, bool ntt) {
  Poly<Word> p(basis, ctx.n(), ntt);
  for (size_t i = 0; i < basis.size(); ++i) {
    const uint64_t q = ctx.modulus(basis[i]).value();
    Word *dst = p.limb(i);
    for (size_t k = 0; k < ctx.n(); ++k)
      dst[k] = static_cast<Word>(prng.uniform(q));
  }
  return p;
}

template Poly<uint32_t> polyFromSigned(const Context<uint32_t> &,
                                       const std::vector<int64_t> &,
                                       const std::vector<int> &);
template Poly<uint64_t> polyFromSigned(const Context<uint64_t> &,
                                       const std::vector<int64_t> &,
                                       const std::vector<int> &);
template Poly<uint32_t> sampleUniformPoly(const Context<uint32_t> &, Prng &,
                                          const std::vector<int> &, bool);
template Poly<uint64_t> sampleUniformPoly(const Context<uint64_t> &, Prng &,
                                          const std::vector<int> &, bool);

} // namespace ember
