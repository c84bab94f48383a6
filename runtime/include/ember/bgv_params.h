// Parameters for BGV and BFV from a program's multiplicative depth, its
// slot count and the plaintext modulus t, at 128-bit security: the ring
// degree, the Q chain, the special primes P and dnum; and the arithmetic
// mod t both sides need. Header-only, so that the compiler (fhe-to-bgv,
// the bgv dialect) and the runtime choose the same sets.
//
// The noise models are worst-case bounds in the style of OpenFHE's
// parameter generation
// (src/pke/lib/scheme/{bfvrns,bgvrns}/*-parametergeneration.cpp): B_err = 6
// sigma (Ember's sampler cuts the Gaussian at 6 sigma), a ternary secret (B_key
// = 1), an expansion factor delta = 2 sqrt(N) for a product of two polynomials
// and delta_ms = 4 sqrt(N) for a rounding times the secret.
//
// BFV (OpenFHE's HPS bound, iterated to its fixed point):
//   V = B_err (1 + 2 delta B_key), the fresh invariant noise;
//   C1 = delta delta_ms t B_key, C2 = delta delta_ms B_key^2 / 2 + KS,
//   KS = dnum (delta B_err + delta_ms B_key + 1), a key switch's noise;
//   log2 Q >= log2(4 t) + (d - 1) log2 C1 + log2(C1 V + d C2).
// BGV (a noise bound B on |[c_0 + c_1 s]_{Q_l}|, in which the message and t
// e both count): a fresh ciphertext has B_f = t (B_err (1 + 2 delta B_key)
// + 1/2); a modulus switch by q adds B_ms = t (1 + delta_ms B_key) / 2 and a
// key switch adds t KS; a product of two ciphertexts at B has delta B^2.
// Every level prime q_l of size 2 delta B_0 (B_0 = max(B_f, 2 (B_ms + t KS)))
// brings a product back under B_0: delta B_0^2 / q_l + B_ms + t KS <= B_0.
// q_0 holds 2 B_0 with kBgvMarginBits to spare.
#pragma once

#include "ember/errors.h"
#include "ember/primes.h"
#include "ember/security.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace ember::bgv {

/// a b mod t (t < 2^63).
inline uint64_t mulMod(uint64_t a, uint64_t b, uint64_t t) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(a) * b % t);
}

/// a^-1 mod t for a prime t (Fermat: a^(t-2)); a not a multiple of t.
inline uint64_t invMod(uint64_t a, uint64_t t) {
  uint64_t result = 1, base = a % t;
  for (uint64_t e = t - 2; e; e >>= 1, base = mulMod(base, base, t))
    if (e & 1)
      result = mulMod(result, base, t);
  return result;
}

/// c mod t, centred in (-t/2, t/2] (t < 2^63).
inline int64_t centred(int64_t c, uint64_t t) {
  const int64_t m = static_cast<int64_t>(t);
  int64_t r = c % m;
  if (r < 0)
    r += m;
  return r > m / 2 ? r - m : r;
}

/// The factor after a modulus switch by the prime q: mu q^-1 (mod t).
inline uint64_t switchedFactor(uint64_t mu, uint64_t q, uint64_t t) {
  return mulMod(mu, invMod(q % t, t), t);
}

/// BFV's Delta = Q / t as a double: the scale of BFV ciphertexts and of
/// their Delta m plaintexts (BasicBfvEncoder::delta), computed from the Q
/// primes `q` in order. The compiler writes it into a BFV program's
/// interface and the runtime compares it exactly, so both call this.
inline double bfvDelta(const std::vector<uint64_t> &q, uint64_t t) {
  double log_q = 0;
  for (uint64_t prime : q)
    log_q += std::log2(static_cast<double>(prime));
  return std::exp2(log_q - std::log2(static_cast<double>(t)));
}

enum class Scheme { kBgv, kBfv };

/// Bits of headroom in BGV's q_0 and BFV's Q beyond the worst-case bound.
constexpr int kBgvMarginBits = 10;
/// The size of BFV's Q primes, and of every special prime (61 bits: one
/// covers a 60-bit digit).
constexpr int kBfvPrimeBits = 60;
constexpr int kSpecialPrimeBits = 61;

struct NoiseTerms {
  double b_err, delta, delta_ms;
};

inline NoiseTerms noiseTerms(int log_n) {
  const double n = std::ldexp(1.0, log_n);
  return {6 * 3.2, 2 * std::sqrt(n), 4 * std::sqrt(n)};
}

/// BGV's worst-case bounds on |[c_0 + c_1 s]_{Q_l}| (the header comment):
/// a fresh encryption, the rounding a modulus switch adds, a key switch
/// over `dnum` digits; `base` is what every level prime returns a product
/// to, max(fresh, 2 (ms + ks)) with OpenFHE's 3 digits.
struct BgvNoise {
  double fresh, ms, ks, base;
};

inline BgvNoise bgvNoise(uint64_t t, int log_n, int dnum) {
  const NoiseTerms nt = noiseTerms(log_n);
  const double tt = static_cast<double>(t);
  auto ksFor = [&](int digits) {
    return tt * digits * (nt.delta * nt.b_err + nt.delta_ms + 1);
  };
  BgvNoise n;
  n.fresh = tt * (nt.b_err * (1 + 2 * nt.delta) + 0.5);
  n.ms = tt * (1 + nt.delta_ms) / 2;
  n.ks = ksFor(dnum);
  n.base = std::max(n.fresh, 2 * (n.ms + ksFor(3)));
  return n;
}

/// BFV's worst-case bounds in the same units as BgvNoise (t times the
/// invariant noise v of c_0 + c_1 s = Delta m + v, so that decryption is
/// right while a bound stays below Q / 2): a fresh encryption t V; a key
/// switch over `dnum` digits t KS; a product of two ciphertexts at B_1 and
/// B_2 (HPS, relinearized) has c1 / 2 (B_1 + B_2) + c2 with c1 = C1 and
/// c2 = t C2 (the header comment).
struct BfvNoise {
  double fresh, ks, c1, c2;
};

inline BfvNoise bfvNoise(uint64_t t, int log_n, int dnum) {
  const NoiseTerms nt = noiseTerms(log_n);
  const double tt = static_cast<double>(t);
  const double ks = dnum * (nt.delta * nt.b_err + nt.delta_ms + 1);
  BfvNoise n;
  n.fresh = tt * nt.b_err * (1 + 2 * nt.delta);
  n.ks = tt * ks;
  n.c1 = nt.delta * nt.delta_ms * tt;
  n.c2 = tt * (nt.delta * nt.delta_ms / 2 + ks);
  return n;
}

/// dnum as OpenFHE picks it (3 digits beyond depth 3, 2 beyond 0), capped
/// by the number of Q primes.
inline int defaultDnum(int depth, int q_primes) {
  const int d = depth > 3 ? 3 : depth > 0 ? 2 : 1;
  return d < q_primes ? d : q_primes;
}

/// The Q prime sizes for `depth` at ring degree 2^log_n (BFV: 60-bit primes
/// enough for the bound; BGV: q_0 then depth level primes).
inline std::vector<int> qBitsFor(Scheme scheme, int depth, uint64_t t,
                                 int log_n) {
  const NoiseTerms nt = noiseTerms(log_n);
  const double lt = std::log2(static_cast<double>(t));
  if (scheme == Scheme::kBfv) {
    double log_q = 60;
    for (int it = 0; it < 8; ++it) { // KS depends on the digit count
      const int primes = static_cast<int>(std::ceil(log_q / kBfvPrimeBits));
      const double ks =
          defaultDnum(depth, primes) * (nt.delta * nt.b_err + nt.delta_ms + 1);
      const double c1 = nt.delta * nt.delta_ms * static_cast<double>(t);
      const double c2 = nt.delta * nt.delta_ms / 2 + ks;
      const double v = nt.b_err * (1 + 2 * nt.delta);
      const double d = depth > 0 ? depth : 1;
      log_q = std::log2(4.0) + lt + (d - 1) * std::log2(c1) +
              std::log2(c1 * v + d * c2) + kBgvMarginBits;
    }
    const int primes = static_cast<int>(std::ceil(log_q / kBfvPrimeBits));
    return std::vector<int>(primes, kBfvPrimeBits);
  }
  const double b0 = bgvNoise(t, log_n, 3).base;
  const int level_bits =
      static_cast<int>(std::ceil(std::log2(2 * nt.delta * b0)));
  const int q0_bits =
      static_cast<int>(std::ceil(std::log2(2 * b0))) + kBgvMarginBits;
  if (level_bits > 60 || q0_bits > 60)
    throw InvalidArgument("BGV with t = " + std::to_string(t) +
                          " needs primes above 60 bits at N = 2^" +
                          std::to_string(log_n));
  std::vector<int> bits(1, q0_bits);
  bits.insert(bits.end(), depth, level_bits);
  return bits;
}

/// The parameters of a BGV or BFV program: the smallest N = 2^log_n (13..17)
/// with t = 1 (mod 2N) and N/2 >= slots whose Q (qBitsFor) and P (the fewest
/// 61-bit primes covering the largest of dnum digits, dnum from OpenFHE's
/// default up to one digit per prime) fit the 128-bit bound
/// (maxLogQP128). InvalidArgument names what fails: t not batching at any
/// such N, or a depth too large for every N.
inline ParamSpec chooseParams(Scheme scheme, int depth, uint64_t t,
                              size_t slots) {
  if (depth < 0)
    throw InvalidArgument("multiplicative depth must be >= 0");
  std::string why_bound, why_batch; // the last of each
  for (int log_n = 13; log_n <= 17; ++log_n) {
    const uint64_t two_n = uint64_t{2} << log_n;
    if (slots > two_n / 4)
      continue;
    if (t % two_n != 1) {
      why_batch = "plaintext modulus " + std::to_string(t) +
                  " is not 1 mod 2N at N = 2^" + std::to_string(log_n) +
                  " (it does not batch there)";
      continue;
    }
    ParamSpec spec;
    spec.name = scheme == Scheme::kBfv ? "bfv-auto" : "bgv-auto";
    spec.log_n = log_n;
    spec.q_bits = qBitsFor(scheme, depth, t, log_n);
    spec.log_scale = spec.q_bits.back();
    const int q = static_cast<int>(spec.q_bits.size());
    // dnum from OpenFHE's choice up: more digits need fewer special primes.
    for (int dnum = defaultDnum(depth, q); dnum <= q; ++dnum) {
      const std::vector<int> digits = balancedDigitSizes(spec.q_bits, dnum);
      int largest = 0, start = 0;
      for (int size : digits) {
        int b = 0;
        for (int i = start; i < start + size; ++i)
          b += spec.q_bits[i];
        largest = std::max(largest, b);
        start += size;
      }
      spec.dnum = static_cast<int>(digits.size());
      // P above the largest digit, whose primes may lie just above 2^b.
      spec.p_bits.assign((largest + 1 + kSpecialPrimeBits - 1) /
                             kSpecialPrimeBits,
                         kSpecialPrimeBits);
      if (spec.logQP() + 1 <= maxLogQP128(log_n))
        return spec;
    }
    why_bound = "depth " + std::to_string(depth) + " needs log QP " +
                std::to_string(spec.logQP()) + " at N = 2^" +
                std::to_string(log_n) + ", above the 128-bit bound " +
                std::to_string(maxLogQP128(log_n));
  }
  throw InvalidArgument(
      "no 128-bit " + std::string(scheme == Scheme::kBfv ? "BFV" : "BGV") +
      " parameters for depth " + std::to_string(depth) +
      ", t = " + std::to_string(t) + " and " + std::to_string(slots) +
      " slots: " + why_bound +
      (why_bound.empty() || why_batch.empty() ? "" : "; ") + why_batch);
}

} // namespace ember::bgv
