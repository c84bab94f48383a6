#include "ember/context.h"
#include "ember/errors.h"
#include "ember/primes.h"
#include "internal.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ember {

void checkSecurity(const ParamSpec &spec) {
  if (spec.security == Security::kInsecureTestOnly)
    return;
  const std::string n = "N = 2^" + std::to_string(spec.log_n);
  const int log_qp = spec.logQP();
  const std::string qp = "log2(QP) = " + std::to_string(log_qp);
  const std::string what = "parameters '" + spec.name + "'";
  const int dense = maxLogQP128(spec.log_n);
  if (dense == 0)
    throw SecurityError("no 128-bit security bound is known for " + n +
                        "; use log N in 10..17 or the insecure test mode");
  if (spec.hamming_weight > 0) {
    const int h = spec.hamming_weight;
    const std::string weight =
        "a sparse secret of Hamming weight h = " + std::to_string(h) + " at " +
        n;
    const int bound = maxLogQPSparse128(spec.log_n, h);
    if (bound == 0) {
      int smallest = 0; // the smallest weight with a figure at this N
      for (const SparseBound &b : kSparseBounds128)
        if (b.log_n <= spec.log_n && (smallest == 0 || b.h < smallest))
          smallest = b.h;
      throw SecurityError(
          what + ": no published 128-bit bound covers " + weight + " (" + qp +
          (smallest ? "; the smallest weight with one is h = " +
                          std::to_string(smallest)
                    : "; none is published for a sparse secret at this N") +
          "): use a larger weight, the uniform ternary secret (hamming_weight "
          "0) or the insecure test mode");
    }
    if (log_qp > bound)
      throw SecurityError(
          what + " are not 128-bit secure with " + weight + ": " + qp +
          " bits exceeds " + std::to_string(bound) +
          ", the largest log QP estimated at 128 bits for that weight "
          "(lattice estimator, SparseLWEkit; see ember/security.h)");
    return;
  }
  if (log_qp > dense)
    throw SecurityError(what + " are not 128-bit secure: " + qp +
                        " bits exceeds " + std::to_string(dense) + " for " + n +
                        " with a ternary secret (HomomorphicEncryption.org "
                        "standard)");
}

namespace {
/// The bit sizes of a spec, as the primes have them (ember::primeBits), and
/// spec.logQP() as ember::logQP of the primes.
void countPrimeBits(ParamSpec &spec, const std::vector<uint64_t> &q,
                    const std::vector<uint64_t> &p,
                    const std::vector<uint64_t> &t) {
  auto bits = [](const std::vector<uint64_t> &primes) {
    std::vector<int> out;
    for (uint64_t prime : primes)
      out.push_back(primeBits(prime));
    return out;
  };
  spec.q_bits = bits(q);
  spec.p_bits = bits(p);
  spec.t_bits = bits(t);
  spec.primes_log_qp = logQP(q, p);
}

void checkShape(const ParamSpec &spec, int max_prime_bits) {
  if (spec.log_n < 1 || spec.log_n > 17)
    throw InvalidArgument("log N = " + std::to_string(spec.log_n) +
                          " is outside 1..17");
  if (spec.q_bits.empty())
    throw InvalidArgument("the Q chain needs at least one prime");
  if (spec.dnum < 1 || spec.dnum > static_cast<int>(spec.q_bits.size()))
    throw InvalidArgument("dnum = " + std::to_string(spec.dnum) +
                          " must be in 1.." +
                          std::to_string(spec.q_bits.size()));
  for (int b : spec.q_bits)
    if (b > max_prime_bits)
      throw InvalidArgument("a " + std::to_string(b) +
                            "-bit prime does not fit the word size (max " +
                            std::to_string(max_prime_bits) + " bits)");
  for (int b : spec.p_bits)
    if (b > max_prime_bits)
      throw InvalidArgument("a " + std::to_string(b) +
                            "-bit special prime does not fit the word size");
  for (int b : spec.t_bits)
    if (b > max_prime_bits)
      throw InvalidArgument("a " + std::to_string(b) +
                            "-bit KLSS temporary prime does not fit the word "
                            "size");
  if (spec.name.size() > kMaxParamNameLength)
    throw InvalidArgument("a parameter-set name has at most " +
                          std::to_string(kMaxParamNameLength) + " bytes");
  for (char c : spec.name)
    if (c < 0x20 || c > 0x7e)
      throw InvalidArgument("a parameter-set name is printable ASCII");
  if (!(spec.log_scale >= 1 && spec.log_scale <= 60))
    throw InvalidArgument("log_scale = " + std::to_string(spec.log_scale) +
                          " is outside 1..60");
  if (spec.scale_primes != 1 && spec.scale_primes != 2)
    throw InvalidArgument(
        "scale_primes = " + std::to_string(spec.scale_primes) +
        " must be 1 or 2 (double-prime scaling)");
  if (spec.scale_primes == 2 && spec.q_bits.size() % 2 == 0)
    throw InvalidArgument("double-prime scaling needs q_0 and pairs of "
                          "primes: an odd number of Q primes, not " +
                          std::to_string(spec.q_bits.size()));
  if (spec.hamming_weight < 0 || spec.hamming_weight > (1 << spec.log_n))
    throw InvalidArgument("Hamming weight " +
                          std::to_string(spec.hamming_weight) +
                          " is outside 0..N");
}
} // namespace

void internal::keepFreedMemory() {
#if defined(__GLIBC__)
  static const bool once = [] {
    const char *tunables = std::getenv("GLIBC_TUNABLES");
    if (tunables && std::strstr(tunables, "glibc.malloc."))
      return false;
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
    return true;
  }();
  (void)once;
#endif
}

template <typename Word> Context<Word>::Context(const ParamSpec &spec) {
  spec_ = spec;
  spec_.primes_log_qp = 0; // nominal sizes first (a copied spec may carry one)
  checkSecurity(spec_);
  checkShape(spec_, WordTraits<Word>::kMaxPrimeBits);
  if (spec.scale_primes == 2 && spec.log_scale != std::round(spec.log_scale))
    throw InvalidArgument("double-prime scaling needs an integral log_scale");
  const int log_scale = static_cast<int>(spec.log_scale);
  std::vector<uint64_t> q =
      spec.scale_primes == 2
          ? generateDoublePrimeChain(spec.log_n, spec.q_bits[0],
                                     static_cast<int>(spec.q_bits.size() - 1) /
                                         2,
                                     log_scale, WordTraits<Word>::kMaxPrimeBits)
          : generateQChain(spec.log_n, spec.q_bits, log_scale);
  std::vector<uint64_t> p = generateNttPrimes(spec.log_n, spec.p_bits, q);
  std::vector<uint64_t> qp = q;
  qp.insert(qp.end(), p.begin(), p.end());
  std::vector<uint64_t> t = generateNttPrimes(spec.log_n, spec.t_bits, qp);
  // A scale prime of generateQChain may lie just above 2^log_scale: the
  // check above saw the nominal sizes, this one the primes' product.
  countPrimeBits(spec_, q, p, t);
  checkSecurity(spec_);
  init(q, p, t);
}

template <typename Word>
Context<Word>::Context(const ParamSpec &spec,
                       const std::vector<uint64_t> &q_primes,
                       const std::vector<uint64_t> &p_primes,
                       const std::vector<uint64_t> &t_primes) {
  spec_ = spec;
  countPrimeBits(spec_, q_primes, p_primes, t_primes);
  for (uint64_t prime : t_primes)
    if (prime >> WordTraits<Word>::kMaxPrimeBits)
      throw InvalidArgument("modulus " + std::to_string(prime) +
                            " does not fit the word size");
  for (uint64_t prime : q_primes)
    if (prime >> WordTraits<Word>::kMaxPrimeBits)
      throw InvalidArgument("modulus " + std::to_string(prime) +
                            " does not fit the word size");
  for (uint64_t prime : p_primes)
    if (prime >> WordTraits<Word>::kMaxPrimeBits)
      throw InvalidArgument("modulus " + std::to_string(prime) +
                            " does not fit the word size");
  checkSecurity(spec_);
  checkShape(spec_, WordTraits<Word>::kMaxPrimeBits);
  const uint64_t two_n = uint64_t{2} << spec_.log_n;
  std::vector<uint64_t> all = q_primes;
  all.insert(all.end(), p_primes.begin(), p_primes.end());
  all.insert(all.end(), t_primes.begin(), t_primes.end());
  for (size_t i = 0; i < all.size(); ++i) {
    if (!isPrime(all[i]) || all[i] % two_n != 1)
      throw InvalidArgument("modulus " + std::to_string(all[i]) +
                            " is not a prime = 1 mod 2N");
    for (size_t j = 0; j < i; ++j)
      if (all[j] == all[i])
        throw InvalidArgument("modulus " + std::to_string(all[i]) +
                              " appears twice");
  }
  init(q_primes, p_primes, t_primes);
}

template <typename Word>
void Context<Word>::init(const std::vector<uint64_t> &q_primes,
                         const std::vector<uint64_t> &p_primes,
                         const std::vector<uint64_t> &t_primes) {
  internal::keepFreedMemory();
  q_count_ = static_cast<int>(q_primes.size());
  p_count_ = static_cast<int>(p_primes.size());
  t_count_ = static_cast<int>(t_primes.size());
  primes_ = q_primes;
  primes_.insert(primes_.end(), p_primes.begin(), p_primes.end());
  primes_.insert(primes_.end(), t_primes.begin(), t_primes.end());
  for (uint64_t prime : primes_) {
    moduli_.emplace_back(static_cast<Word>(prime));
    ntt_.emplace_back(spec_.log_n, moduli_.back());
  }
  digit_sizes_ = digitSizes(q_primes, p_primes, spec_.dnum);
  // Hybrid key switching divides the digit-times-error term by P: a P
  // smaller than a digit would leave that noise above the fresh noise.
  double log_p = 0;
  for (uint64_t p : p_primes)
    log_p += std::log2(static_cast<double>(p));
  int start = 0;
  for (int size : digit_sizes_) {
    double log_digit = 0;
    for (int i = start; i < start + size; ++i)
      log_digit += std::log2(static_cast<double>(q_primes[i]));
    start += size;
    if (p_count_ > 0 && log_p + 1 < log_digit) // a bit of slack: equal sizes
      throw InvalidArgument(
          "the special modulus P (" + std::to_string(int(log_p)) +
          " bits) must be at least as large as every key-switching digit "
          "(one has " +
          std::to_string(int(std::ceil(log_digit))) +
          " bits): add P primes or raise dnum");
  }

  checkKlss();

  // Precomputed ModDown and rescale constants.
  p_inv_.assign(q_count_, 0);
  for (int i = 0; i < q_count_ && p_count_ > 0; ++i) {
    const Modulus<Word> &mod = moduli_[i];
    Word p_mod = 1;
    for (int j = 0; j < p_count_; ++j)
      p_mod = mod.mul(p_mod, mod.reduceWord(static_cast<Word>(
                                 primes_[q_count_ + j] % mod.value())));
    p_inv_[i] = mod.inv(p_mod);
  }
  q_inv_.assign(static_cast<size_t>(q_count_) * q_count_, 0);
  for (int l = 1; l < q_count_; ++l)
    for (int i = 0; i < l; ++i)
      q_inv_[l * q_count_ + i] =
          moduli_[i].inv(static_cast<Word>(primes_[l] % moduli_[i].value()));

  std::ostringstream canon;
  // log_scale with every digit of its double: 6 digits (the default) would
  // give 40 and 40.0000001 the same hash. Integral scales print as before.
  canon << std::setprecision(17);
  canon << "ember-ckks-v1;logn=" << spec_.log_n
        << ";word=" << WordTraits<Word>::kBits << ";dnum=" << spec_.dnum
        << ";logscale=" << spec_.log_scale << ";h=" << spec_.hamming_weight
        << ";q=";
  for (uint64_t q : q_primes)
    canon << q << ",";
  canon << ";p=";
  for (uint64_t p : p_primes)
    canon << p << ",";
  if (spec_.scale_primes != 1) // single-prime sets keep their hash
    canon << ";scaleprimes=" << spec_.scale_primes;
  if (t_count_ > 0) { // sets without KLSS keep their hash
    canon << ";gamma=" << spec_.klss_gamma << ";t=";
    for (uint64_t t : t_primes)
      canon << t << ",";
  }
  std::string text = canon.str();
  unsigned int len = 0;
  EVP_Digest(text.data(), text.size(), hash_.data(), &len, EVP_sha256(),
             nullptr);
}

template <typename Word>
std::vector<int> Context<Word>::qBasis(int level) const {
  if (level < 0 || level > maxLevel())
    throw LevelMismatch("level " + std::to_string(level) + " is outside 0.." +
                        std::to_string(maxLevel()));
  std::vector<int> basis(level + 1);
  for (int i = 0; i <= level; ++i)
    basis[i] = i;
  return basis;
}

template <typename Word> std::vector<int> Context<Word>::pBasis() const {
  std::vector<int> basis(p_count_);
  for (int i = 0; i < p_count_; ++i)
    basis[i] = q_count_ + i;
  return basis;
}

template <typename Word>
std::vector<int> Context<Word>::qpBasis(int level) const {
  std::vector<int> basis = qBasis(level);
  for (int i = 0; i < p_count_; ++i)
    basis.push_back(q_count_ + i);
  return basis;
}

template <typename Word> int Context<Word>::digitCount(int level) const {
  int count = 0, start = 0;
  for (int size : digit_sizes_) {
    if (start <= level)
      ++count;
    start += size;
  }
  return count;
}

template <typename Word>
std::vector<int> Context<Word>::digitLimbs(int digit, int level) const {
  if (digit < 0 || digit >= digitCount(level))
    throw InvalidArgument("digit " + std::to_string(digit) +
                          " does not exist at level " + std::to_string(level));
  int start = 0;
  for (int j = 0; j < digit; ++j)
    start += digit_sizes_[j];
  std::vector<int> limbs;
  for (int i = start; i < start + digit_sizes_[digit] && i <= level; ++i)
    limbs.push_back(i);
  return limbs;
}

template <typename Word> std::vector<int> Context<Word>::tBasis() const {
  std::vector<int> basis(t_count_);
  for (int i = 0; i < t_count_; ++i)
    basis[i] = q_count_ + p_count_ + i;
  return basis;
}

template <typename Word> int Context<Word>::klssGroupCount(int level) const {
  if (!hasKlss())
    throw InvalidArgument("the parameter set " + describe() +
                          " has no KLSS form (no temporary basis T)");
  qBasis(level); // level check
  // In 64 bits: a gamma near INT_MAX (one group) overflowed int (found by
  // fuzz/fuzz_params).
  const int64_t gamma = spec_.klss_gamma;
  return static_cast<int>((int64_t{p_count_} + level + gamma) / gamma);
}

template <typename Word>
std::vector<int> Context<Word>::klssGroupLimbs(int group, int level) const {
  if (group < 0 || group >= klssGroupCount(level))
    throw InvalidArgument("KLSS key group " + std::to_string(group) +
                          " does not exist at level " + std::to_string(level));
  // Position k in the order p_0..p_{K-1}, q_0..q_L.
  // Only positions that exist: a gamma larger than |P u Q| (one group) once
  // looped up to gamma and overflowed (group + 1) * gamma (fuzz_params).
  std::vector<int> limbs;
  const int64_t gamma = spec_.klss_gamma;
  const int64_t end =
      std::min<int64_t>((group + 1) * gamma, int64_t{p_count_} + level + 1);
  for (int64_t k = group * gamma; k < end; ++k) {
    if (k < p_count_)
      limbs.push_back(q_count_ + static_cast<int>(k));
    else
      limbs.push_back(static_cast<int>(k) - p_count_);
  }
  return limbs;
}

template <typename Word> double Context<Word>::klssTBits() const {
  double bits = 0;
  for (int i = 0; i < t_count_; ++i)
    bits += std::log2(static_cast<double>(primes_[q_count_ + p_count_ + i]));
  return bits;
}

template <typename Word> double Context<Word>::klssTBitsNeeded() const {
  if (!hasKlss())
    return 0;
  auto bitsOf = [&](const std::vector<int> &limbs) {
    double bits = 0;
    for (int i : limbs)
      bits += std::log2(static_cast<double>(primes_[i]));
    return bits;
  };
  double digit = 0, group = 0;
  for (int j = 0; j < digitCount(maxLevel()); ++j)
    digit = std::max(digit, bitsOf(digitLimbs(j, maxLevel())));
  for (int j = 0; j < klssGroupCount(maxLevel()); ++j)
    group = std::max(group, bitsOf(klssGroupLimbs(j, maxLevel())));
  return std::log2(static_cast<double>(digitCount(maxLevel()))) + spec_.log_n +
         digit + group + 1;
}

template <typename Word> void Context<Word>::checkKlss() const {
  if (t_count_ == 0 && spec_.klss_gamma == 0)
    return;
  if (spec_.klss_gamma <= 0 || t_count_ == 0)
    throw InvalidArgument("a KLSS form needs both gamma (key group size, got " +
                          std::to_string(spec_.klss_gamma) +
                          ") and temporary primes T (got " +
                          std::to_string(t_count_) + ")");
  if (p_count_ == 0)
    throw InvalidArgument("KLSS key switching needs special primes P");
  const double need = klssTBitsNeeded(), have = klssTBits();
  if (have < need) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "the KLSS temporary basis T has %.1f bits (%d primes) but "
                  "the exact products need %.1f (log2 dnum + log N + largest "
                  "digit + largest key group of %d primes + 1): add T primes "
                  "or lower gamma",
                  have, t_count_, need, spec_.klss_gamma);
    throw InvalidArgument(buf);
  }
}

template <typename Word>
const BConvTable<Word> &
Context<Word>::bconvTable(const std::vector<int> &from,
                          const std::vector<int> &to,
                          uint64_t plain_modulus) const {
  std::lock_guard<std::mutex> lock(bconv_mutex_);
  auto key = std::make_tuple(from, to, plain_modulus);
  auto it = bconv_tables_.find(key);
  if (it != bconv_tables_.end())
    return *it->second;
  auto table = std::make_unique<BConvTable<Word>>();
  const size_t m = from.size();
  for (size_t i = 0; i < m; ++i) {
    const Modulus<Word> &bi = moduli_[from[i]];
    Word hat = 1;
    for (size_t j = 0; j < m; ++j)
      if (j != i)
        hat = bi.mul(hat, bi.reduceWord(moduli_[from[j]].value()));
    table->hat_inv.push_back(bi.inv(hat));
    table->hat_inv_shoup.push_back(bi.shoup(table->hat_inv.back()));
    table->half.push_back(bi.value() >> 1);
  }
  for (int t : to) {
    const Modulus<Word> &mod = moduli_[t];
    Word b_mod = 1;
    for (size_t i = 0; i < m; ++i) {
      b_mod = mod.mul(b_mod, mod.reduceWord(moduli_[from[i]].value()));
      Word hat = 1 % mod.value();
      for (size_t j = 0; j < m; ++j)
        if (j != i)
          hat = mod.mul(hat, mod.reduceWord(moduli_[from[j]].value()));
      table->hat_mod.push_back(hat);
    }
    table->neg_b_mod.push_back(mod.neg(b_mod));
    table->inv_b_mod.push_back(mod.inv(b_mod));
  }
  if (plain_modulus) { // t^-1 into the digits, t into the outputs
    for (size_t i = 0; i < m; ++i) {
      const Modulus<Word> &bi = moduli_[from[i]];
      const Word t_inv = bi.inv(static_cast<Word>(plain_modulus % bi.value()));
      table->hat_inv[i] = bi.mul(table->hat_inv[i], t_inv);
      table->hat_inv_shoup[i] = bi.shoup(table->hat_inv[i]);
    }
    for (size_t r = 0; r < to.size(); ++r) {
      const Modulus<Word> &mod = moduli_[to[r]];
      const Word t = static_cast<Word>(plain_modulus % mod.value());
      for (size_t i = 0; i < m; ++i)
        table->hat_mod[r * m + i] = mod.mul(table->hat_mod[r * m + i], t);
      table->neg_b_mod[r] = mod.mul(table->neg_b_mod[r], t);
    }
  }
  return *bconv_tables_.emplace(key, std::move(table)).first->second;
}

template <typename Word> std::string Context<Word>::describe() const {
  std::ostringstream out;
  out << (spec_.name.empty() ? "custom" : spec_.name) << " (N=2^" << spec_.log_n
      << ", " << q_count_ << " Q + " << p_count_ << " P limbs, dnum "
      << spec_.dnum << ", log QP " << spec_.logQP();
  if (t_count_ > 0)
    out << ", KLSS gamma " << spec_.klss_gamma << " r' " << t_count_;
  if (WordTraits<Word>::kBits != 64)
    out << ", " << WordTraits<Word>::kBits << "-bit words";
  if (spec_.scale_primes != 1)
    out << ", double-prime scaling";
  out << (spec_.security == Security::kInsecureTestOnly ? ", INSECURE" : "")
      << ")";
  return out.str();
}

template class Context<uint32_t>;
template class Context<uint64_t>;

} // namespace ember
