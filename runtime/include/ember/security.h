// The 128-bit security bounds on log2(QP) (uniform ternary and sparse
// fixed-weight secrets), the one way a prime's bits are counted against them,
// and the named parameter sets of BENCHMARKS.md. Header-only, so that the
// compiler picks and verifies parameters with the same tables and the same
// bit count as the runtime.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ember {

/// Bits of a prime as every security check counts them: its bit length,
/// floor(log2 q) + 1, SEAL's Modulus::bit_count. A prime just above 2^40
/// counts 41 bits (rounding log2 q to the nearest integer would count 40 and
/// under-state log QP at the bound).
constexpr int primeBits(uint64_t q) {
  int bits = 0;
  for (; q != 0; q >>= 1)
    ++bits;
  return bits;
}

/// log2(QP) as the security checks count it: the bit length of the product
/// QP, floor(log2 QP) + 1, which is what the bounds below bound (QP <
/// 2^bound) and what SEAL's total_coeff_modulus_bit_count and OpenFHE's
/// GetMSB of the modulus give. Summing the primes' bit lengths instead would
/// overstate it by up to a bit per prime (a 36-bit scale prime just above
/// 2^36 has 37 bits but adds log2 q = 36.00002). Exact, in multi-word integer
/// arithmetic, so that every host counts the same. Q and P are any ranges of
/// uint64_t (std::vector, llvm::ArrayRef); a zero entry counts nothing.
template <typename QRange, typename PRange>
int logQP(const QRange &q_primes, const PRange &p_primes) {
  __extension__ typedef unsigned __int128 Wide;
  std::vector<uint64_t> product{1}; // little-endian 64-bit words
  auto multiply = [&product](uint64_t m) {
    if (m == 0)
      return;
    uint64_t carry = 0;
    for (uint64_t &word : product) {
      Wide t = static_cast<Wide>(word) * m + carry;
      word = static_cast<uint64_t>(t);
      carry = static_cast<uint64_t>(t >> 64);
    }
    if (carry)
      product.push_back(carry);
  };
  for (uint64_t q : q_primes)
    multiply(q);
  for (uint64_t p : p_primes)
    multiply(p);
  return 64 * static_cast<int>(product.size() - 1) + primeBits(product.back());
}

/// Largest log2(QP) with 128-bit classical security for a uniform ternary
/// secret, or 0 when log_n is outside the table. N = 2^10..2^15 come from the
/// HomomorphicEncryption.org standard; 2^16 and 2^17 take the smaller of
/// OpenFHE's table (1747, 3523: src/core/lib/lattice/stdlatticeparms.cpp,
/// HEStd_ternary, since OpenFHE 1.2; it was 1772, 3524 before) and the
/// LWE-estimator values of Phantom's Table III (1777, 3576).
inline int maxLogQP128(int log_n) {
  switch (log_n) {
  case 10:
    return 27;
  case 11:
    return 54;
  case 12:
    return 109;
  case 13:
    return 218;
  case 14:
    return 438;
  case 15:
    return 881;
  case 16:
    return 1747;
  case 17:
    return 3523;
  default:
    return 0;
  }
}

/// A published lattice-estimator figure for a fixed-Hamming-weight (sparse
/// ternary) secret: at ring degree 2^log_n, weight h and log2(QP) <=
/// max_log_qp, every attack the estimator models costs at least 2^128.
struct SparseBound {
  int log_n;
  int h;
  int max_log_qp;
};

/// Sparse-secret figures, each the smallest log QP that a library ships as
/// 128-bit secure at that (N, h) and that the lattice estimator (commit
/// 6019056, BDGL16 cost model, including the hybrid attacks on sparse
/// secrets: bdd_mitm_hybrid of Howgrave-Graham 2007 / Son-Cheon WAHC 2019 and
/// the hybrid dual of Cheon-Hhan-Hong-Son, IEEE Access 2019) puts at 128 bits
/// or more. The estimates are those published by HomomorphicEncryption.org's
/// SparseLWEkit (github.com/HomomorphicEncryption/SparseLWEkit,
/// src/data/lattice_estimator_estimates.csv and lattice_estimator.csv; the
/// smallest attack cost is given, sigma = 3.19 or 3.2):
///   N = 2^14, h = 192, log QP  300: 166.7 bits (SparseLWEkit README, set 1)
///   N = 2^15, h = 192, log QP  767: 134.1 bits (OpenFHE's sparse set); the
///     same h at 768 is Lattigo's N15QP768H192H32 and 777 HEaaN's (132.1)
///   N = 2^16, h =  32, log QP  117: 164.6 bits (HEaaN; Lattigo's h = 32
///     ephemeral-key modulus of 121 bits: 171.9, Bossuat-Troncoso-Hubaux,
///     ACNS 2022, eprint 2022/024)
///   N = 2^16, h = 128, log QP  300: 322.0 bits (DESILO)
///   N = 2^16, h = 192, log QP 1553: 134.0 bits (Lattigo N16QP1553H192H32,
///     and "SET V" of Lattigo v2.1, Bossuat et al. EUROCRYPT 2021, and
///     OpenFHE; HEaaN's 1555: 133.8)
///   N = 2^17, h = 128, log QP 2341: 157.2 bits (HEaaN)
///   N = 2^17, h = 192, log QP 3104: 135.3 bits (OpenFHE)
/// OpenFHE itself checks its h = 192 SPARSE_TERNARY secret against the
/// uniform-ternary table (1747 bits at N = 2^16), which the figures above do
/// not support; Ember does not. SparseLWEkit warns that attacks outside the
/// estimator (May 2021, the machine-learning attacks of 2023-24) may cost
/// less: these are the best published figures, not a proof.
inline constexpr SparseBound kSparseBounds128[] = {
    {14, 192, 300},  {15, 192, 767},  {16, 32, 117},   {16, 128, 300},
    {16, 192, 1553}, {17, 128, 2341}, {17, 192, 3104},
};

/// The Hamming weight of bootstrapping's ephemeral secret under sparse-
/// secret encapsulation (EncapsulationKeys): 32, Lattigo's and the ACNS 2022
/// paper's choice. Its key s -> s' lives at q_0 p_0, which the h = 32
/// figure above bounds at 117 bits at N = 2^16 (a 50-bit q_0 and a 60-bit
/// p_0 give 110).
inline constexpr int kEncapsulationHammingWeight = 32;

/// Largest log2(QP) with 128-bit security for a secret of fixed Hamming
/// weight h at N = 2^log_n, or 0 when no published figure covers it. Only
/// the safe direction is inferred: a figure for (N', h') with N' <= N and
/// h' <= h also holds at (N, h), since a larger weight never makes the
/// secret easier to find (every attack the estimator models gets dearer with
/// h) and an instance of dimension N' embeds in one of dimension N with the
/// same h and q (pad the secret with zeros). So a smaller h never gets more
/// modulus than a larger one, nothing is interpolated upwards, and no
/// fixed weight gets more than the uniform ternary bound.
inline int maxLogQPSparse128(int log_n, int h) {
  int best = 0;
  for (const SparseBound &b : kSparseBounds128)
    if (b.log_n <= log_n && b.h <= h)
      best = std::max(best, b.max_log_qp);
  return std::min(best, maxLogQP128(log_n));
}

/// Security a parameter set must meet. kInsecureTestOnly skips the check and
/// must be named explicitly (only unit tests of primitives use it).
enum class Security { k128, kInsecureTestOnly };

/// Longest parameter-set name (printable ASCII only): it is shown in
/// messages and stored in parameter files.
constexpr size_t kMaxParamNameLength = 256;

/// What a user asks for; Context turns it into primes and tables.
struct ParamSpec {
  std::string name;        ///< "A", "B", "C" or "custom"
  int log_n = 16;          ///< ring degree N = 2^log_n
  std::vector<int> q_bits; ///< bit size of each Q prime, q_0 first
  std::vector<int> p_bits; ///< bit size of each special prime of P
  int dnum = 1;            ///< number of key-switching digits
  /// KLSS key switching (Kim-Lee-Seo-Song, CRYPTO 2023; Athena 2.3): the
  /// number gamma of P u Q primes per key group, 0 when the set has no KLSS
  /// form. The temporary basis T has one prime per entry of t_bits (r' of
  /// them). T is never a ciphertext or key modulus, so it does not count
  /// towards log QP or security.
  int klss_gamma = 0;
  std::vector<int> t_bits;
  double log_scale = 40; ///< default encoding scale 2^log_scale, 1..60
  /// Primes per rescale: 1, or 2 for double-prime scaling (Cheddar 3.1;
  /// 32-bit words carry a scale of 2^40..2^60 in a pair of primes below
  /// 2^30). With 2, q_bits is q_0 then the pairs (an odd count), and a
  /// Context built from the sizes takes its Q chain from
  /// generateDoublePrimeChain (the pairs' nominal sizes are not used).
  int scale_primes = 1;
  int hamming_weight = 0; ///< 0: uniform ternary secret; else fixed weight
  Security security = Security::k128;

  /// ember::logQP of the primes, which a Context stores once it has them
  /// (0 while the spec holds nominal sizes only).
  int primes_log_qp = 0;

  /// log2(QP) as the security check counts it: ember::logQP of the primes
  /// once a Context has them, else the sum of the nominal sizes (an upper
  /// bound on the primes' logQP up to one bit: a scale prime may lie just
  /// above 2^bits, so a Context checks again with its primes).
  int logQP() const {
    if (primes_log_qp > 0)
      return primes_log_qp;
    int total = 0;
    for (int b : q_bits)
      total += b;
    for (int b : p_bits)
      total += b;
    return total;
  }
  int maxLevel() const { return static_cast<int>(q_bits.size()) - 1; }
};

/// Named parameter sets of BENCHMARKS.md (all 128-bit secure, log N = 16).
/// A: 36 Q limbs (60 + 35 x 40), 4 x 60 P, dnum 9 (Phantom's table row).
/// B: 24 Q limbs (60 + 23 x 40), 8 x 60 P, dnum 3 (the headline set).
/// C: 26 Q limbs (55 + 25 x 48), 7 x 56 P, dnum 4, digits 7,7,7,5 (Cheddar's
///    64-bit shape).
/// athena40, athena24: the log N = 16 shapes (L+1, K, gamma, r') = (40, 8,
///    8, 10) and (24, 8, 8, 10) of Athena's Table 5, with Q = 40 + 36-bit
///    scale primes and 8 x 37-bit P, so that 10 primes of 61 bits hold the
///    exact KLSS products (Context::klssTBitsNeeded).
/// athena47: Athena's small-K shape (L+1, K, gamma, r') = (47, 1, 3, 3):
///    q_0 of 40 bits and 46 x 36-bit scale primes, one 40-bit special prime
///    (so hybrid key switching needs a digit per Q prime: dnum 47), KLSS
///    groups of 3 primes and 3 T primes of 61 bits (178.6 of the 183 bits
///    its exact products need); log QP 1736.
/// cheddar32: the shape of Cheddar's 32-bit default set, for 32-bit words
///    (Context32) with double-prime scaling: 47 Q limbs (q_0 of 30 bits and
///    23 pairs of 29-bit primes carrying 2^58), 12 x 30-bit P (Cheddar's P
///    primes have 31 bits; Ember's 32-bit words take primes below 2^30),
///    dnum 4; log QP about 1720 of the 1747 allowed.
/// cheddar32k1: Athena's small-K shape at 32-bit words: cheddar32's Q with
///    one 30-bit special prime, so hybrid key switching needs a digit per Q
///    prime (dnum 47), KLSS groups of 3 primes (gamma 3) and 5 T primes of
///    30 bits (142.6 of the 150 bits its exact products need: log2 47 +
///    16 + 30 + 90 + 1); log QP about 1400.
/// A, B and C carry a KLSS form too: gamma 4 with 8, 10 and 10 T primes, the
/// fewest 61-bit primes their products need. Returns false for an unknown
/// name.
inline bool namedParamSpec(const std::string &name, ParamSpec &out) {
  ParamSpec s;
  s.name = name;
  s.log_n = 16;
  if (name == "A") {
    s.q_bits.assign(36, 40);
    s.q_bits[0] = 60;
    s.p_bits.assign(4, 60);
    s.dnum = 9;
    s.log_scale = 40;
    s.klss_gamma = 4;
    s.t_bits.assign(8, 61);
  } else if (name == "B") {
    s.q_bits.assign(24, 40);
    s.q_bits[0] = 60;
    s.p_bits.assign(8, 60);
    s.dnum = 3;
    s.log_scale = 40;
    s.klss_gamma = 4;
    s.t_bits.assign(10, 61);
  } else if (name == "C") {
    s.q_bits.assign(26, 48);
    s.q_bits[0] = 55;
    s.p_bits.assign(7, 56);
    s.dnum = 4;
    s.log_scale = 48;
    s.klss_gamma = 4;
    s.t_bits.assign(10, 61);
  } else if (name == "cheddar32" || name == "cheddar32k1") {
    s.q_bits.assign(47, 29);
    s.q_bits[0] = 30;
    s.log_scale = 58;
    s.scale_primes = 2;
    if (name == "cheddar32") {
      s.p_bits.assign(12, 30);
      s.dnum = 4;
    } else { // one special prime: a digit per Q prime, and a KLSS form
      s.p_bits.assign(1, 30);
      s.dnum = 47;
      s.klss_gamma = 3;
      s.t_bits.assign(5, 30);
    }
  } else if (name == "athena47") {
    s.q_bits.assign(47, 36);
    s.q_bits[0] = 40;
    s.p_bits.assign(1, 40);
    s.dnum = 47;
    s.log_scale = 36;
    s.klss_gamma = 3;
    s.t_bits.assign(3, 61);
  } else if (name == "athena40" || name == "athena24") {
    const int q_limbs = name == "athena40" ? 40 : 24;
    s.q_bits.assign(q_limbs, 36);
    s.q_bits[0] = 40;
    s.p_bits.assign(8, 37);
    s.dnum = q_limbs / 8;
    s.log_scale = 36;
    s.klss_gamma = 8;
    s.t_bits.assign(10, 61);
  } else {
    return false;
  }
  out = s;
  return true;
}

/// A prime's size to the nearest bit, round(log2 q), in integer arithmetic
/// (the same on every host): the unit in which key-switching digits are
/// balanced, so that a prime just above 2^60 and one just below are both
/// 60-bit primes there.
constexpr int nominalBits(uint64_t q) {
  int bits = primeBits(q); // 2^(bits-1) <= q < 2^bits
  if (bits == 0)
    return 0;
  // log2 q >= bits - 1/2 exactly when q^2 >= 2^(2 bits - 1).
  __extension__ typedef unsigned __int128 Wide;
  Wide square = static_cast<Wide>(q) * q;
  return square >= (static_cast<Wide>(1) << (2 * bits - 1)) ? bits : bits - 1;
}

/// Number of Q limbs in each key-switching digit by equal counts:
/// ceil((L+1)/dnum) each, the last one taking the remainder (set C: 7, 7, 7,
/// 5).
inline std::vector<int> equalDigitSizes(int q_limbs, int dnum) {
  std::vector<int> sizes;
  int alpha = (q_limbs + std::max(dnum, 1) - 1) / std::max(dnum, 1);
  for (int start = 0; start < q_limbs; start += alpha)
    sizes.push_back(start + alpha <= q_limbs ? alpha : q_limbs - start);
  return sizes;
}

/// Number of Q limbs in each key-switching digit balanced by bits, for Q
/// primes of `q_bits` (nominalBits) bits from q_0 up: consecutive limbs, each
/// digit as many as fit under the smallest cap that dnum digits allow, so
/// the largest digit, which P must cover, is as small as it can be. Packing
/// from q_0 up gives the fewest digits at every level for that cap. A chain
/// of 40-bit program primes under 60-bit bootstrapping primes packs more of
/// the small ones into a digit (50 + 9 x 40 + 16 x 60 at dnum 4: 8, 6, 6, 6,
/// none above 360 bits, where equal counts reach 420).
inline std::vector<int> balancedDigitSizes(const std::vector<int> &q_bits,
                                           int dnum) {
  auto pack = [&](int cap) {
    std::vector<int> sizes;
    int sum = 0;
    for (int b : q_bits) {
      if (sizes.empty() || sum + b > cap) {
        sizes.push_back(1);
        sum = b;
      } else {
        ++sizes.back();
        sum += b;
      }
    }
    return sizes;
  };
  if (q_bits.empty())
    return {};
  int lo = *std::max_element(q_bits.begin(), q_bits.end()), hi = 0;
  for (int b : q_bits)
    hi += b;
  size_t digits = static_cast<size_t>(std::max(dnum, 1));
  while (lo < hi) { // the smallest cap that packs into dnum digits
    int mid = lo + (hi - lo) / 2;
    if (pack(mid).size() <= digits)
      hi = mid;
    else
      lo = mid + 1;
  }
  return pack(lo);
}

/// The bits (nominalBits) of the largest digit of `sizes` over `q_bits`.
inline int largestDigitBits(const std::vector<int> &q_bits,
                            const std::vector<int> &sizes) {
  int largest = 0;
  size_t start = 0;
  for (int size : sizes) {
    int sum = 0;
    for (size_t i = start; i < start + size && i < q_bits.size(); ++i)
      sum += q_bits[i];
    largest = std::max(largest, sum);
    start += size;
  }
  return largest;
}

/// The key-switching digits of a chain: equal counts (equalDigitSizes) where
/// P's `p_bits` (sum of nominalBits; 0 for no P) cover every such digit, as
/// in every named set, else balanced by bits (balancedDigitSizes), which the
/// compiler's parameter choice sizes P for.
inline std::vector<int> digitSizesOfBits(const std::vector<int> &q_bits,
                                         int p_bits, int dnum) {
  std::vector<int> equal =
      equalDigitSizes(static_cast<int>(q_bits.size()), dnum);
  if (p_bits == 0 || largestDigitBits(q_bits, equal) <= p_bits)
    return equal;
  return balancedDigitSizes(q_bits, dnum);
}

/// digitSizesOfBits of the primes q_0..q_L and P (any ranges of uint64_t).
template <typename QRange, typename PRange>
std::vector<int> digitSizes(const QRange &q_primes, const PRange &p_primes,
                            int dnum) {
  std::vector<int> q_bits;
  for (uint64_t q : q_primes)
    q_bits.push_back(nominalBits(q));
  int p_bits = 0;
  for (uint64_t p : p_primes)
    p_bits += nominalBits(p);
  return digitSizesOfBits(q_bits, p_bits, dnum);
}

} // namespace ember
