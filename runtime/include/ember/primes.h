// NTT-friendly primes: q = 1 (mod 2N), so that Z_q holds a primitive 2N-th
// root of unity and the negacyclic NTT of length N exists. Header-only and
// deterministic, so the compiler (which records the moduli in #ckks.params)
// and the runtime derive the same chain from the same bit sizes.
#pragma once

#include "ember/errors.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace ember {

namespace detail {
inline uint64_t mulMod64(uint64_t a, uint64_t b, uint64_t m) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(a) * b % m);
}
inline uint64_t powMod64(uint64_t base, uint64_t exp, uint64_t m) {
  uint64_t result = 1 % m;
  base %= m;
  while (exp) {
    if (exp & 1)
      result = mulMod64(result, base, m);
    base = mulMod64(base, base, m);
    exp >>= 1;
  }
  return result;
}
} // namespace detail

/// Deterministic Miller-Rabin for all 64-bit integers (the first 12 prime
/// bases suffice below 3.3e24).
inline bool isPrime(uint64_t n) {
  if (n < 2)
    return false;
  static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  for (uint64_t p : bases) {
    if (n % p == 0)
      return n == p;
  }
  uint64_t d = n - 1;
  int r = 0;
  while ((d & 1) == 0) {
    d >>= 1;
    ++r;
  }
  for (uint64_t a : bases) {
    uint64_t x = detail::powMod64(a, d, n);
    if (x == 1 || x == n - 1)
      continue;
    bool composite = true;
    for (int i = 1; i < r; ++i) {
      x = detail::mulMod64(x, x, n);
      if (x == n - 1) {
        composite = false;
        break;
      }
    }
    if (composite)
      return false;
  }
  return true;
}

/// One distinct prime q = 1 (mod 2^(log_n+1)) per entry of `bits`, each with
/// exactly that many bits (2^(b-1) < q < 2^b), searched downwards from 2^b and
/// never repeating a prime already chosen, in this call or in `exclude`. The
/// order is fixed, so a chain is reproducible from its bit sizes alone.
/// Throws InvalidArgument when a size is outside [log_n + 2, 61] or no
/// unused prime of that size exists.
inline std::vector<uint64_t>
generateNttPrimes(int log_n, const std::vector<int> &bits,
                  const std::vector<uint64_t> &exclude = {}) {
  std::vector<uint64_t> chosen;
  const uint64_t step = uint64_t{1} << (log_n + 1);
  for (int b : bits) {
    if (b < log_n + 2 || b > 61)
      throw InvalidArgument("prime size " + std::to_string(b) +
                            " bits is outside [" + std::to_string(log_n + 2) +
                            ", 61] for N = 2^" + std::to_string(log_n));
    const uint64_t top = uint64_t{1} << b;
    const uint64_t bottom = uint64_t{1} << (b - 1);
    uint64_t candidate = top - step + 1; // largest value = 1 mod 2N below 2^b
    bool found = false;
    for (; candidate > bottom; candidate -= step) {
      bool used = false;
      for (uint64_t q : chosen)
        used |= q == candidate;
      for (uint64_t q : exclude)
        used |= q == candidate;
      if (!used && isPrime(candidate)) {
        found = true;
        break;
      }
    }
    if (!found)
      throw InvalidArgument("no unused " + std::to_string(b) +
                            "-bit prime = 1 mod 2^" +
                            std::to_string(log_n + 1));
    chosen.push_back(candidate);
  }
  return chosen;
}

/// The Q chain of a CKKS parameter set. q_0 and every prime whose size is
/// not `log_scale` come from generateNttPrimes. The scale primes track the
/// scale instead of sitting just below 2^log_scale: from the top level down,
/// q_l is the unused prime = 1 (mod 2N) closest to the scale s_l that a
/// product carries when it is rescaled at level l, with s_top = 2^log_scale
/// and s_{l-1} = s_l^2 / q_l. Primes all below 2^log_scale would make the
/// scale drift by a factor that squares at every level (a chain of squarings
/// overflows after about 20 levels); tracking keeps s_l within a prime gap
/// (about 2^-18 relative) of 2^log_scale. Such a prime may lie just above
/// 2^log_scale; it still counts as log_scale bits.
inline std::vector<uint64_t>
generateQChain(int log_n, const std::vector<int> &q_bits, int log_scale) {
  std::vector<int> other_bits;
  for (size_t i = 0; i < q_bits.size(); ++i)
    if (i == 0 || q_bits[i] != log_scale)
      other_bits.push_back(q_bits[i]);
  std::vector<uint64_t> others = generateNttPrimes(log_n, other_bits);
  std::vector<uint64_t> chain(q_bits.size());
  std::vector<uint64_t> used = others;
  for (size_t i = 0, k = 0; i < q_bits.size(); ++i)
    if (i == 0 || q_bits[i] != log_scale)
      chain[i] = others[k++];
  if (log_scale < log_n + 3 || log_scale > 60)
    for (size_t i = 1; i < q_bits.size(); ++i)
      if (q_bits[i] == log_scale)
        throw InvalidArgument("scale 2^" + std::to_string(log_scale) +
                              " is outside the range of NTT primes");
  const uint64_t step = uint64_t{2} << log_n;
  long double scale = std::ldexp(1.0L, log_scale);
  for (size_t l = q_bits.size(); l-- > 1;) {
    if (q_bits[l] != log_scale)
      continue;
    // Candidates = 1 mod 2N on both sides of the target, nearest first.
    const uint64_t target = static_cast<uint64_t>(scale);
    uint64_t down = target - (target - 1) % step, up = down + step;
    uint64_t found = 0;
    for (int tries = 0; tries < (1 << 22) && !found; ++tries) {
      const bool take_down = target - down <= up - target;
      const uint64_t candidate = take_down ? down : up;
      if (take_down)
        down -= step;
      else
        up += step;
      bool taken = false;
      for (uint64_t q : used)
        taken |= q == candidate;
      if (!taken && isPrime(candidate))
        found = candidate;
    }
    if (!found)
      throw InvalidArgument("no NTT prime near the scale 2^" +
                            std::to_string(log_scale));
    chain[l] = found;
    used.push_back(found);
    scale = scale * scale / static_cast<long double>(found);
  }
  return chain;
}

} // namespace ember
