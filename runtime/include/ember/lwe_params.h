// FHEW/TFHE parameter sets and their noise model (ember/lwe.h), header-only
// so that the compiler (fhe-to-lwe, the manifest) reads the same sets as
// the runtime without linking it.
#pragma once

#include "ember/errors.h"
#include "ember/primes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace ember::lwe {

/// A FHEW/TFHE parameter set (ternary keys). The blind rotation is GINX
/// (base_r 0: per LWE coefficient two CMux-like products, for s_i = 1 and
/// s_i = -1) or AP/DM (base_r = B_r: per digit v of a_i in base B_r one
/// product by RGSW(X^(s_i v B_r^k 2N/q)), OpenFHE's AP). Its external
/// product is by gadget decomposition (ring_p 0: the accumulator's digits
/// in base Bg times RGSW rows) or, with GINX, by modulus raising (ring_p =
/// P: the accumulator times a key at P Q, then divided by P and rounded,
/// VeloFHE's Algorithm 3; no digits, base_g 0).
struct Params {
  std::string name;
  int n = 0;             ///< LWE dimension
  uint32_t q = 0;        ///< modulus of gate inputs and outputs; q | 2N
  int log_ring = 0;      ///< log2 N, the RLWE ring degree
  uint32_t ring_q = 0;   ///< Q: prime, 1 mod 2N, below 2^30
  uint32_t base_g = 0;   ///< Bg, a power of two (0 when raising)
  uint32_t ring_p = 0;   ///< P: prime, 1 mod 2N (0: gadget decomposition)
  uint32_t base_r = 0;   ///< B_r, a power of two: AP/DM (0: GINX)
  uint32_t q_ks = 0;     ///< key-switching modulus, a power of two <= 2^31
  uint32_t base_ks = 0;  ///< Bks, a power of two
  double sigma = 3.19;   ///< error standard deviation (all encryptions)
  bool insecure = false; ///< a test set below 128-bit security

  size_t ringN() const { return size_t{1} << log_ring; }
  /// The external product by modulus raising (ring_p set).
  bool raising() const { return ring_p != 0; }
  /// AP/DM blind rotation (base_r set).
  bool ap() const { return base_r != 0; }
  /// AP: digits of a_i (mod q) in base B_r, the values digit k takes
  /// (B_r, or fewer for the top one), the RGSW keys per LWE coefficient
  /// (one per digit and nonzero value) and the index of (k, v) among them.
  int digitsR() const;
  int logBaseR() const;
  uint32_t valuesR(int k) const;
  int apKeys() const;
  int apKeyIndex(int k, uint32_t v) const;
  /// d: digits of Q in base Bg; digits 1 .. d-1 are used (0 when raising).
  int digitsG() const;
  int digitsKs() const;
  int logBaseG() const;
  int logBaseKs() const;
  /// Key-switching key words of 32 bits (q_ks above 2^16), else 16.
  bool wideKeySwitch() const { return q_ks > (1u << 16); }

  /// "STD128" (OpenFHE's STD128: n 556, q 2048, N 1024, Q 2^27 - 2^11 + 1,
  /// Bg 128, q_ks 2^15, Bks 32), "STD128Q" (post-quantum: n 601, Q below
  /// 2^25, Bg 16), "STD128_4BIT" (tables over Z_16, 4-bit messages: n 740,
  /// q 4096, N 2048, Q 2^28 - 2^16 + 1, Bg 16, q_ks 2^19, Bks 4), "TOY"
  /// (insecure, for fast tests: n 64, N 512, q 512); "STD128_AP" and
  /// "TOY_AP" (those with AP/DM blind rotation, B_r 64 and 8);
  /// "STD128_4BIT_MR"
  /// (STD128_4BIT's LWE side with the external product by modulus raising:
  /// Q 2^27 - 106495, P 2^27 - 40959, P Q below 2^54), "TOY_MR", and
  /// "TOY_4BIT_MR" (insecure: n 64, q 2048, N 1024, STD128_4BIT_MR's
  /// primes, q_ks 2^19, Bks 4: tables over Z_16 for fast tests of radix
  /// blocks).
  static Params named(const std::string &name);
  static std::vector<std::string> names();
  /// Throws InvalidArgument naming the first inconsistent field.
  void validate() const;
};

/// Variances of the phase of a bootstrapped ciphertext at q, by step, and
/// the failure probability of a two-input gate on two such ciphertexts
/// (the phase leaves its window of q/8).
struct NoiseEstimate {
  double q = 0;              ///< the modulus the variances are at
  double blind_rotation = 0; ///< the accumulator's noise, scaled to q
  double key_switch = 0;     ///< key switching at q_ks, scaled to q
  double mod_switch = 0;     ///< the two modulus switches' rounding
  double total = 0;          ///< variance of one output's phase at q
  double log2_gate_failure = 0;
  /// log2 of the probability that a lookup table over Z_t misreads a
  /// bootstrapped input (the window is q/(4t)).
  double log2LutFailure(uint32_t t) const;
  /// The same for a radix block (the key-switch-first order: blocks are
  /// sample-extracted LWE ciphertexts at Q under s', switched to q_ks, to
  /// s and to q only at the start of the next table) whose phase is a
  /// linear combination sum w_i x_i of bootstrapped blocks with nu2 = sum
  /// w_i^2: the blind rotation's variance nu2 times, the key and modulus
  /// switches' once. (A fresh encryption at Q, variance sigma^2 (q/Q)^2 at
  /// q, is counted as one bootstrapped block: it is far smaller.)
  double log2BlockFailure(uint32_t t, double nu2) const;
};
NoiseEstimate estimateNoise(const Params &params);

namespace detail {

inline bool powerOfTwo(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }
inline int log2Exact(uint64_t x) {
  int l = 0;
  while ((uint64_t{1} << l) < x)
    ++l;
  return l;
}

/// log2 erfc(x) for x >= 0, also where erfc underflows (asymptotic series).
inline double log2Erfc(double x) {
  if (x < 20)
    return std::log2(std::erfc(x));
  const double pi = 3.14159265358979323846;
  return (-x * x - std::log(x * std::sqrt(pi)) + std::log1p(-1 / (2 * x * x))) /
         std::log(2.0);
}

} // namespace detail

inline int Params::digitsG() const {
  if (raising())
    return 0;
  const int log_q = detail::log2Exact(ring_q);
  return (log_q + logBaseG() - 1) / logBaseG();
}
inline int Params::digitsKs() const {
  return (detail::log2Exact(q_ks) + logBaseKs() - 1) / logBaseKs();
}
inline int Params::logBaseG() const {
  return raising() ? 0 : detail::log2Exact(base_g);
}
inline int Params::logBaseKs() const { return detail::log2Exact(base_ks); }
inline int Params::logBaseR() const {
  return ap() ? detail::log2Exact(base_r) : 0;
}
inline int Params::digitsR() const {
  if (!ap())
    return 0;
  const int log_br = detail::log2Exact(base_r);
  return (detail::log2Exact(q) + log_br - 1) / log_br;
}
inline uint32_t Params::valuesR(int k) const {
  const uint32_t rest = q >> (k * detail::log2Exact(base_r));
  return std::min(base_r, rest);
}
inline int Params::apKeys() const {
  int keys = 0;
  for (int k = 0; k < digitsR(); ++k)
    keys += int(valuesR(k)) - 1;
  return keys;
}
inline int Params::apKeyIndex(int k, uint32_t v) const {
  int base = 0;
  for (int j = 0; j < k; ++j)
    base += int(valuesR(j)) - 1;
  return base + int(v) - 1;
}

inline Params Params::named(const std::string &name) {
  Params p;
  p.name = name;
  if (name == "STD128") {
    // OpenFHE STD128 (GINX): Q = LastPrime(27, 2N) = 2^27 - 2^11 + 1.
    p.n = 556, p.q = 2048, p.log_ring = 10, p.ring_q = 134215681;
    p.base_g = 128, p.q_ks = 1 << 15, p.base_ks = 32;
  } else if (name == "STD128Q") {
    // OpenFHE STD128Q: 128 bits against quantum attacks; Q below 2^25.
    p.n = 601, p.q = 2048, p.log_ring = 10, p.ring_q = 33550337;
    p.base_g = 16, p.q_ks = 1 << 15, p.base_ks = 32;
  } else if (name == "STD128_4BIT") {
    // Lookup tables over Z_16 with a padding bit (tfhe-rs's 4-bit message
    // shape: N 2048, n in the 700s): q = 2N = 4096 halves the modulus
    // switch's share of the window, Bg 16 keeps the blind rotation's noise
    // small at Q = 2^28 - 2^16 + 1, and q_ks = 2^19 (32-bit key words) the
    // key switch's. Security: n / log2(q_ks / sigma) = 740 / 17.33 = 42.7,
    // at least OpenFHE's own 128-bit sets' 41.7 (STD128, 556 at 2^15) and
    // 39.2 (its 54-bit large-precision context, 1305 at 2^35); the RLWE
    // side (N 2048, 28 bits) is far inside the HE standard's 54.
    p.n = 740, p.q = 4096, p.log_ring = 11, p.ring_q = 268369921;
    p.base_g = 16, p.q_ks = 1 << 19, p.base_ks = 4;
  } else if (name == "STD128_AP") {
    // STD128 with OpenFHE's AP/DM blind rotation (its STD128_AP: the same
    // LWE side). B_r 64: a_i < 2048 has 2 digits (OpenFHE's B_r 128 too;
    // B_r 16 or 32 would take 3 products per coefficient), 63 + 31 keys
    // per coefficient: 2.5 GB of bootstrapping key.
    p.n = 556, p.q = 2048, p.log_ring = 10, p.ring_q = 134215681;
    p.base_g = 128, p.q_ks = 1 << 15, p.base_ks = 32, p.base_r = 64;
  } else if (name == "TOY_AP") {
    p.n = 64, p.q = 512, p.log_ring = 9, p.ring_q = 134215681;
    p.base_g = 512, p.q_ks = 1 << 14, p.base_ks = 32, p.base_r = 8;
    p.insecure = true;
  } else if (name == "STD128_4BIT_MR") {
    // STD128_4BIT's LWE side (n 740, q 4096, q_ks 2^19, Bks 4) with the
    // blind rotation's external product by modulus raising (VeloFHE): the
    // key is an RLWE sample at P Q, the accumulator stays at Q. P and Q are
    // the two largest primes below 2^27 that are 1 mod 4096, so log2(P Q) =
    // 53.9999, within the HomomorphicEncryption.org bound of 54 bits for N
    // = 2048 (ternary, 128-bit). The blind rotation's noise is (Q/P)^2
    // times a product's: about 0.01 at q (STD128_4BIT: 3.7).
    p.n = 740, p.q = 4096, p.log_ring = 11, p.ring_q = 134111233;
    p.ring_p = 134176769, p.q_ks = 1 << 19, p.base_ks = 4;
  } else if (name == "TOY_MR") {
    // TOY's sizes with modulus raising: far below any security.
    p.n = 64, p.q = 512, p.log_ring = 9, p.ring_q = 134210561;
    p.ring_p = 134215681, p.q_ks = 1 << 14, p.base_ks = 32;
    p.insecure = true;
  } else if (name == "TOY_4BIT_MR") {
    // Radix blocks (tables over Z_16) in fast tests: TOY's LWE dimension,
    // q = 2N = 2048 and STD128_4BIT_MR's primes and key switch. Far below
    // any security; a table misreads about 2^-150 of the time.
    p.n = 64, p.q = 2048, p.log_ring = 10, p.ring_q = 134111233;
    p.ring_p = 134176769, p.q_ks = 1 << 19, p.base_ks = 4;
    p.insecure = true;
  } else if (name == "TOY") {
    // OpenFHE TOY's sizes (n 64, N 512, q 512): far below any security.
    p.n = 64, p.q = 512, p.log_ring = 9, p.ring_q = 134215681;
    p.base_g = 512, p.q_ks = 1 << 14, p.base_ks = 32;
    p.insecure = true;
  } else {
    std::string known;
    for (const std::string &k : names())
      known += (known.empty() ? "" : ", ") + k;
    throw InvalidArgument("unknown FHEW/TFHE parameter set '" + name +
                          "' (known: " + known + ")");
  }
  p.validate();
  return p;
}

inline std::vector<std::string> Params::names() {
  return {"STD128", "STD128Q", "STD128_AP", "STD128_4BIT", "STD128_4BIT_MR",
          "TOY",    "TOY_AP",  "TOY_MR",    "TOY_4BIT_MR"};
}

inline void Params::validate() const {
  auto bad = [&](const std::string &what) {
    throw InvalidArgument("FHEW/TFHE parameters '" + name + "': " + what);
  };
  if (n < 1)
    bad("the LWE dimension n must be positive");
  if (log_ring < 4 || log_ring > 13)
    bad("log2 N = " + std::to_string(log_ring) + " is outside 4..13");
  const uint64_t two_n = uint64_t{2} << log_ring;
  if (!detail::powerOfTwo(q) || q < 16 || two_n % q != 0)
    bad("q = " + std::to_string(q) +
        " must be a power of two, at least 16, dividing 2N = " +
        std::to_string(two_n));
  // Products of two residues summed over the RGSW rows in 64 bits: Q below
  // 2^28 leaves room for 256 of them.
  if (ring_q >= (1u << 28) || !isPrime(ring_q) || ring_q % two_n != 1)
    bad("Q = " + std::to_string(ring_q) +
        " must be a prime below 2^28 that is 1 mod 2N");
  if (raising()) {
    // Modulus raising: the products' sums are 2 terms of (4P)P, and the
    // lifted accumulator (centred, below Q/2) must be below P.
    if (ring_p >= (1u << 28) || !isPrime(ring_p) || ring_p % two_n != 1 ||
        ring_p == ring_q)
      bad("P = " + std::to_string(ring_p) +
          " must be a prime below 2^28 that is 1 mod 2N, other than Q");
    if (ring_p >= 2ull * ring_q || ring_q >= 2ull * ring_p)
      bad("P and Q must be within a factor of two of each other");
    if (base_g != 0)
      bad("a gadget base with modulus raising (Bg must be 0)");
  } else {
    if (!detail::powerOfTwo(base_g) || base_g < 2 || base_g >= ring_q)
      bad("the gadget base Bg = " + std::to_string(base_g) +
          " must be a power of two below Q");
    if (digitsG() < 2)
      bad("Bg leaves no digit after the dropped lowest one");
  }
  if (!detail::powerOfTwo(q_ks) || q_ks < q || q_ks > (1u << 31))
    bad("q_ks = " + std::to_string(q_ks) +
        " must be a power of two between q and 2^31");
  if (!detail::powerOfTwo(base_ks) || base_ks < 2 || base_ks > q_ks)
    bad("the key-switching base Bks = " + std::to_string(base_ks) +
        " must be a power of two up to q_ks");
  if (!(sigma > 0))
    bad("sigma must be positive");
  if (ap()) {
    if (!detail::powerOfTwo(base_r) || base_r < 2 || base_r > q)
      bad("the AP digit base B_r = " + std::to_string(base_r) +
          " must be a power of two from 2 to q");
    if (digitsR() > 8)
      bad("B_r = " + std::to_string(base_r) + " gives " +
          std::to_string(digitsR()) + " digits of q; at most 8");
    if (raising())
      bad("AP/DM with modulus raising (only GINX raises the modulus)");
  }
}

// ---------------------------------------------------------------------------
// Noise

inline NoiseEstimate estimateNoise(const Params &p) {
  p.validate();
  const double n = p.n, big_n = static_cast<double>(p.ringN());
  const double var_s = 2.0 / 3.0, s2 = p.sigma * p.sigma;
  const double bg = p.base_g, q = p.q, big_q = p.ring_q, q_ks = p.q_ks;
  double per_step = 0;
  if (p.ap()) {
    const int d = p.digitsG();
    const double top = std::min(bg, big_q / std::pow(bg, d - 1));
    const double range2 = (d - 2) * bg * bg + top * top;
    // Per digit of a_i (d_r of them, a "step" here covering all): one
    // external product by RGSW(X^e) (2 polynomials of digits times key
    // errors; the dropped digit r_0 times the monomial, norm 1).
    per_step = p.digitsR() * (2 * big_n * s2 * range2 / 12 +
                              (var_s * big_n + 1) * bg * bg / 12);
  } else if (p.raising()) {
    // Per step: two products of the accumulator (2 polynomials, centred
    // at Q: variance Q^2 / 12) with a key's errors at P Q, each times X^m -
    // 1 (twice the variance), divided by P; then rounding (the a-part's
    // error times s', plus b's).
    const double ratio = big_q / p.ring_p;
    per_step = 8 * big_n * s2 * ratio * ratio / 12 + (var_s * big_n + 1) / 12;
  } else {
    const int d = p.digitsG();
    // The used digits' ranges: d - 2 full ones, the top one at most Q /
    // Bg^(d-1).
    const double top = std::min(bg, big_q / std::pow(bg, d - 1));
    const double range2 = (d - 2) * bg * bg + top * top;
    // Per step: two external products (each 2 polynomials of digits,
    // uniform of variance range^2 / 12, times key errors), each multiplied
    // by X^m - 1 (twice the variance); and the dropped digit r_0 (variance
    // Bg^2 / 12) times the key's message where s_i != 0 (probability 2/3).
    per_step = 8 * big_n * s2 * range2 / 12 +
               2 * var_s * (var_s * big_n + 1) * bg * bg / 12;
  }
  NoiseEstimate e;
  e.q = q;
  e.blind_rotation = n * per_step * (q / big_q) * (q / big_q);
  const int dks = p.digitsKs();
  e.key_switch =
      big_n * dks * (1 - 1.0 / p.base_ks) * s2 * (q / q_ks) * (q / q_ks);
  // Rounding the N + 1 words at Q to q_ks, then the n + 1 words to q.
  e.mod_switch =
      (var_s * big_n + 1) / 12 * (q / q_ks) * (q / q_ks) + (var_s * n + 1) / 12;
  e.total = e.blind_rotation + e.key_switch + e.mod_switch;
  // A gate adds two outputs: the phase must stay within q/8 of its centre.
  e.log2_gate_failure = detail::log2Erfc((q / 8) / std::sqrt(2 * 2 * e.total));
  return e;
}

inline double NoiseEstimate::log2LutFailure(uint32_t t) const {
  return detail::log2Erfc((q / (4.0 * t)) / std::sqrt(2 * total));
}

inline double NoiseEstimate::log2BlockFailure(uint32_t t, double nu2) const {
  const double var = nu2 * blind_rotation + key_switch + mod_switch;
  return detail::log2Erfc((q / (4.0 * t)) / std::sqrt(2 * var));
}

} // namespace ember::lwe
