// BGV batch encoding over the plaintext modulus t, decoding of exact
// decryptions (reduction of the centred value mod t) and the noise budget.
#include "ember/bgv.h"
#include "ember/errors.h"
#include "ember/ntt.h"
#include "ember/primes.h"
#include "ember/rns.h"
#include "internal.h"

#include <cmath>
#include <limits>
#include <unordered_map>

namespace ember {

template <typename Word> struct BasicBgvEncoder<Word>::Tables {
  NttTables<Word> ntt;
  /// NTT-output position of row 0's slot i (row0[i]) and row 1's (row1[i]).
  std::vector<uint32_t> row0, row1;
};

namespace {
void checkSlotCount(size_t slots, size_t n) {
  if (slots == 0 || (slots & (slots - 1)) != 0 || slots > n / 2)
    throw InvalidArgument(
        "slot count " + std::to_string(slots) +
        " must be a power of two <= N/2 = " + std::to_string(n / 2));
}
} // namespace

template <typename Word>
BasicBgvEncoder<Word>::BasicBgvEncoder(const Context<Word> &ctx, uint64_t t)
    : ctx_(ctx) {
  const uint64_t two_n = 2 * ctx.n();
  if (t <= 2 || t > kMaxPlainModulus || !isPrime(t) || t % two_n != 1)
    throw InvalidArgument(
        "plaintext modulus " + std::to_string(t) +
        " must be a prime with t = 1 (mod 2N = " + std::to_string(two_n) +
        ") for batching, at most 2^50 (65537 batches up to N = 2^15)");
  for (uint64_t prime : ctx.primes())
    if (t >= prime)
      throw InvalidArgument("plaintext modulus " + std::to_string(t) +
                            " must be below every prime of the context (" +
                            std::to_string(prime) + ")");
  t_ = Modulus<Word>(static_cast<Word>(t));
  auto tables = std::make_shared<Tables>();
  tables->ntt = NttTables<Word>(ctx.logN(), t_);
  // The transform of X lists each position's evaluation point.
  const size_t n = ctx.n();
  std::vector<Word> x(n, 0);
  x[1] = 1;
  tables->ntt.forward(x.data());
  std::unordered_map<uint64_t, uint32_t> position;
  for (size_t j = 0; j < n; ++j)
    position[x[j]] = static_cast<uint32_t>(j);
  const Word psi = tables->ntt.psi();
  uint64_t e = 1; // 5^i mod 2N
  for (size_t i = 0; i < n / 2; ++i) {
    tables->row0.push_back(position.at(t_.pow(psi, static_cast<Word>(e))));
    tables->row1.push_back(
        position.at(t_.pow(psi, static_cast<Word>(two_n - e))));
    e = e * 5 % two_n;
  }
  tables_ = std::move(tables);
}

template <typename Word>
std::vector<uint64_t>
BasicBgvEncoder<Word>::encodeCoefficients(const std::vector<int64_t> &values,
                                          size_t slots) const {
  const size_t n = ctx_.n();
  checkSlotCount(slots, n);
  if (values.size() != slots)
    throw InvalidArgument("encode: " + std::to_string(values.size()) +
                          " values for " + std::to_string(slots) + " slots");
  const int64_t t = static_cast<int64_t>(t_.value());
  std::vector<Word> y(n);
  for (size_t i = 0; i < n / 2; ++i) {
    int64_t v = values[i % slots] % t;
    const Word w = static_cast<Word>(v < 0 ? v + t : v);
    y[tables_->row0[i]] = w;
    y[tables_->row1[i]] = w;
  }
  tables_->ntt.inverse(y.data());
  return std::vector<uint64_t>(y.begin(), y.end());
}

template <typename Word>
std::vector<uint64_t> BasicBgvEncoder<Word>::decodeCoefficients(
    const std::vector<uint64_t> &coefficients, size_t slots) const {
  const size_t n = ctx_.n();
  checkSlotCount(slots, n);
  if (coefficients.size() != n)
    throw InvalidArgument("decode: " + std::to_string(coefficients.size()) +
                          " coefficients for N = " + std::to_string(n));
  std::vector<Word> y(n);
  for (size_t k = 0; k < n; ++k) {
    if (coefficients[k] >= t_.value())
      throw InvalidArgument("decode: a coefficient is not reduced mod t");
    y[k] = static_cast<Word>(coefficients[k]);
  }
  tables_->ntt.forward(y.data());
  std::vector<uint64_t> out(slots);
  for (size_t i = 0; i < slots; ++i)
    out[i] = y[tables_->row0[i]];
  return out;
}

template <typename Word>
BasicPlaintext<Word>
BasicBgvEncoder<Word>::encode(const std::vector<int64_t> &values, int level,
                              size_t slots, uint64_t factor) const {
  if (level < 0 || level > ctx_.maxLevel())
    throw LevelMismatch("encode: level " + std::to_string(level) +
                        " is outside 0.." + std::to_string(ctx_.maxLevel()));
  if (factor == 0 || factor >= t_.value())
    throw InvalidArgument("encode: the factor must be in 1..t-1");
  const std::vector<uint64_t> m = encodeCoefficients(values, slots);
  const Word mu = static_cast<Word>(factor);
  const int64_t t = static_cast<int64_t>(t_.value());
  std::vector<int64_t> centred(m.size());
  for (size_t k = 0; k < m.size(); ++k) {
    const int64_t c = t_.mul(static_cast<Word>(m[k]), mu);
    centred[k] = c > t / 2 ? c - t : c;
  }
  BasicPlaintext<Word> pt;
  pt.poly = polyFromSigned(ctx_, centred, ctx_.qBasis(level));
  cpu::ntt(ctx_, pt.poly);
  pt.level = level;
  pt.scale = static_cast<double>(factor);
  pt.slots = slots;
  return pt;
}

template <typename Word>
std::vector<uint64_t>
BasicBgvEncoder<Word>::reduceCentred(const Poly<Word> &x,
                                     double *log2_max) const {
  Poly<Word> p = x;
  if (p.ntt)
    cpu::intt(ctx_, p);
  const internal::MixedRadix<Word> radix(ctx_, p.basis);
  const size_t limbs = p.limbs();
  // weight[k] = b_0 ... b_{k-1} mod t; prefix[k] = log2 of that product.
  std::vector<Word> weight(limbs);
  std::vector<double> prefix(limbs + 1, 0);
  Word w = 1;
  for (size_t k = 0; k < limbs; ++k) {
    weight[k] = w;
    w = t_.mul(w, static_cast<Word>(radix.radix(k) % t_.value()));
    prefix[k + 1] = prefix[k] + std::log2(static_cast<double>(radix.radix(k)));
  }
  double largest = -std::numeric_limits<double>::infinity();
  std::vector<uint64_t> out(p.n);
  std::vector<Word> digits;
  for (size_t k = 0; k < p.n; ++k) {
    const bool negative = radix.centredDigits(p, k, digits);
    Word r = 0;
    for (size_t i = 0; i < limbs; ++i)
      r = t_.add(r,
                 t_.mul(static_cast<Word>(digits[i] % t_.value()), weight[i]));
    out[k] = negative ? t_.neg(r) : r;
    if (log2_max) { // log2 |x| from the top two digits
      size_t top = limbs;
      while (top > 0 && digits[top - 1] == 0)
        --top;
      if (top > 0) {
        double lead = static_cast<double>(digits[top - 1]);
        if (top > 1)
          lead += static_cast<double>(digits[top - 2]) /
                  static_cast<double>(radix.radix(top - 2));
        largest = std::max(largest, prefix[top - 1] + std::log2(lead));
      }
    }
  }
  if (log2_max)
    *log2_max = largest;
  return out;
}

template <typename Word>
std::vector<uint64_t>
BasicBgvEncoder<Word>::decode(const BasicPlaintext<Word> &pt) const {
  const uint64_t mu = bgv::factorOf(pt.scale, t_.value());
  std::vector<uint64_t> m = reduceCentred(pt.poly);
  const Word inv = t_.inv(static_cast<Word>(mu));
  for (uint64_t &c : m)
    c = t_.mul(static_cast<Word>(c), inv);
  return decodeCoefficients(m, pt.slots);
}

template <typename Word>
int BasicBgvEncoder<Word>::noiseBudget(const BasicPlaintext<Word> &pt) const {
  double log2_max = 0;
  reduceCentred(pt.poly, &log2_max);
  double log2_q = 0;
  for (int index : pt.poly.basis)
    log2_q += std::log2(static_cast<double>(ctx_.modulus(index).value()));
  const double budget = std::floor(log2_q - log2_max - 1);
  return budget > 0 ? static_cast<int>(budget) : 0;
}

template class BasicBgvEncoder<uint32_t>;
template class BasicBgvEncoder<uint64_t>;

namespace bgv {

uint64_t factorOf(double scale, uint64_t t) {
  if (!(scale >= 1 && scale < static_cast<double>(t)) ||
      scale != std::floor(scale))
    throw InvalidArgument("a BGV factor (the scale of a BGV ciphertext or "
                          "plaintext) must be an integer in 1..t-1, got " +
                          std::to_string(scale));
  return static_cast<uint64_t>(scale);
}

uint64_t reduceSigned(int64_t c, uint64_t t) {
  const int64_t m = static_cast<int64_t>(t);
  const int64_t r = c % m;
  return static_cast<uint64_t>(r < 0 ? r + m : r);
}

void checkAddedFactor(double ct_factor, double pt_factor, const char *op) {
  if (pt_factor != ct_factor)
    throw ScaleMismatch(std::string(op) + ": the plaintext's factor " +
                        std::to_string(pt_factor) +
                        " differs from the ciphertext's " +
                        std::to_string(ct_factor) +
                        " (encode it with the ciphertext's factor)");
}

void checkBfvPlainForm(double pt_scale, double delta, bool multiplier,
                       const char *op) {
  if (multiplier && pt_scale != 1)
    throw ScaleMismatch(std::string(op) +
                        ": the plaintext is not in the multiplier form "
                        "(encode it with encodeMultiplier())");
  if (!multiplier && pt_scale != delta)
    throw ScaleMismatch(std::string(op) +
                        ": the plaintext is not in the Delta m form (encode "
                        "it with encode(), not encodeMultiplier())");
}

template <typename Word>
std::vector<Word> centredResidues(const Context<Word> &ctx, uint64_t t,
                                  uint64_t c, const std::vector<int> &basis) {
  const bool negative = c > t / 2;
  const uint64_t magnitude = negative ? t - c : c;
  std::vector<Word> out;
  for (int index : basis) {
    const Modulus<Word> &q = ctx.modulus(index);
    const Word r = static_cast<Word>(magnitude % q.value());
    out.push_back(negative ? q.neg(r) : r);
  }
  return out;
}

template <typename Word>
uint64_t switchedFactor(const Context<Word> &ctx, uint64_t mu, int level,
                        uint64_t t) {
  return switchedFactor(mu, ctx.primes()[level], t);
}

template <typename Word>
void checkPlainModulus(const Context<Word> &ctx, uint64_t t) {
  if (t <= 2 || t > kMaxPlainModulus)
    throw InvalidArgument("plaintext modulus " + std::to_string(t) +
                          " is outside 3..2^50");
  for (uint64_t prime : ctx.primes())
    if (prime % t == 0)
      throw InvalidArgument("the plaintext modulus divides a prime of the "
                            "context");
}

#define EMBER_BGV_HELPERS(Word)                                                \
  template std::vector<Word> centredResidues(                                  \
      const Context<Word> &, uint64_t, uint64_t, const std::vector<int> &);    \
  template uint64_t switchedFactor(const Context<Word> &, uint64_t, int,       \
                                   uint64_t);                                  \
  template void checkPlainModulus(const Context<Word> &, uint64_t);
EMBER_BGV_HELPERS(uint32_t)
EMBER_BGV_HELPERS(uint64_t)
#undef EMBER_BGV_HELPERS

} // namespace bgv

} // namespace ember
