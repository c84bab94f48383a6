// NTT-friendly primes: q = 1 (mod 2N), so that Z_q holds a primitive 2N-th
// root of unity and the negacyclic NTT of length N exists. Header-only and
// deterministic, so the compiler (which records the moduli in #ckks.params)
// and the runtime derive the same chain from the same bit sizes.
#pragma once

#include "ember/errors.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
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

/// The `count` primes = 1 (mod 2^(log_n+1)) nearest `target` (nearest
/// first), below 2^max_bits and not in `used`; fewer when the range runs
/// out.
inline std::vector<uint64_t> nearestNttPrimes(int log_n, long double target,
                                              size_t count,
                                              const std::vector<uint64_t> &used,
                                              int max_bits) {
  const uint64_t step = uint64_t{2} << log_n;
  const uint64_t top = uint64_t{1} << max_bits;
  const uint64_t t = target < 2      ? 1
                     : target >= top ? top - 1
                                     : static_cast<uint64_t>(target);
  uint64_t down = t - (t - 1) % step, up = down + step;
  auto contains = [](const std::vector<uint64_t> &v, uint64_t x) {
    for (uint64_t y : v)
      if (y == x)
        return true;
    return false;
  };
  std::vector<uint64_t> out;
  while (out.size() < count && (down > step || up < top)) {
    const bool take_down =
        down > step && (up >= top || target - down <= up - target);
    const uint64_t c = take_down ? down : up;
    if (take_down)
      down -= step;
    else
      up += step;
    if (!contains(used, c) && !contains(out, c) && isPrime(c))
      out.push_back(c);
  }
  return out;
}

/// The Q chain of double-prime scaling (Cheddar 2.3, after Agrawal et al.
/// and SHARP): q_0 of `q0_bits` bits, then `pairs` pairs of primes = 1
/// (mod 2N) below 2^max_bits (30 for 32-bit words), each pair's product
/// carrying the scale, so that a rescale divides by a pair:
/// [q_0, a_1, b_1, ..., a_pairs, b_pairs], the top pair last. From the top
/// down, with s_top = delta = 2^log_scale and s_{l-1} = s_l^2 / (a_l b_l)
/// (the scale of a product of two level-l values after the pair rescales
/// it), pair l is the one whose product is nearest s_l^2 / delta, which
/// brings s_{l-1} back to delta. A pair's product misses its target by a
/// prime gap relative to a 30-bit prime (at N = 2^16, 2^-7 for one prime
/// and the nearest partner); the best of `window` first primes near the
/// square root, each with the partner nearest target / a, gets about
/// 2^-12, and the correction keeps that from accumulating over the levels
/// (tracking s_l alone, as generateQChain does with 60-bit primes whose
/// gaps are 2^-18, lets it walk: 2^-7.5 over 23 pairs). Throws
/// InvalidArgument when the primes near the scale run out, i.e. when the
/// best pair misses its target by more than 2^-6 (at N = 2^16 there are
/// about 200 NTT primes between 2^29 and 2^30).
///
/// Runs of pairs may carry different scales (bootstrapping's procedure
/// levels above a program's, as generateQChain's runs of larger primes):
/// pair_log_scales[i] is the scale of pair i + 1 (the base pair first), and
/// at the top of each run the tracked scale starts again at the run's
/// 2^scale, as ckks::levelScales reads the chain.
inline std::vector<uint64_t>
generateDoublePrimeChain(int log_n, int q0_bits,
                         const std::vector<int> &pair_log_scales,
                         int max_bits = 30, size_t window = 64) {
  for (int log_scale : pair_log_scales)
    if (log_scale < 2 * (log_n + 2) || log_scale > 2 * max_bits)
      throw InvalidArgument(
          "double-prime scale 2^" + std::to_string(log_scale) +
          " is outside [2^" + std::to_string(2 * (log_n + 2)) + ", 2^" +
          std::to_string(2 * max_bits) + "] for pairs of " +
          std::to_string(max_bits) + "-bit NTT primes at N = 2^" +
          std::to_string(log_n));
  const int pairs = static_cast<int>(pair_log_scales.size());
  std::vector<uint64_t> chain = generateNttPrimes(log_n, {q0_bits});
  std::vector<uint64_t> used = chain;
  std::vector<std::pair<uint64_t, uint64_t>> top_down;
  long double scale = 0;
  for (int l = pairs; l >= 1; --l) {
    const int log_scale = pair_log_scales[l - 1];
    const long double delta = std::ldexp(1.0L, log_scale);
    if (l == pairs || pair_log_scales[l] != log_scale)
      scale = delta; // a run's top
    // The product that brings the next scale back to delta.
    const long double target = scale * scale / delta;
    uint64_t best_a = 0, best_b = 0;
    long double best_err = 0;
    for (uint64_t a :
         nearestNttPrimes(log_n, std::sqrt(target), window, used, max_bits)) {
      std::vector<uint64_t> with_a = used;
      with_a.push_back(a);
      for (uint64_t b :
           nearestNttPrimes(log_n, target / a, 1, with_a, max_bits)) {
        const long double err =
            std::fabs(static_cast<long double>(a) * b / target - 1);
        if (!best_a || err < best_err) {
          best_a = a;
          best_b = b;
          best_err = err;
        }
      }
    }
    // A pair more than 2^-6 off its target: the primes near the scale's
    // square root are used up (the next scales would drift away).
    if (!best_a || best_err > 1.0L / 64)
      throw InvalidArgument(
          "no unused pair of NTT primes below 2^" + std::to_string(max_bits) +
          " within 2^-6 of the scale 2^" + std::to_string(log_scale) +
          " at N = 2^" + std::to_string(log_n) + " (" +
          std::to_string(pairs - l) + " of " + std::to_string(pairs) +
          " pairs found)");
    used.push_back(best_a);
    used.push_back(best_b);
    top_down.emplace_back(best_a, best_b);
    scale =
        scale * scale /
        (static_cast<long double>(best_a) * static_cast<long double>(best_b));
  }
  for (size_t i = top_down.size(); i-- > 0;) {
    chain.push_back(top_down[i].first);
    chain.push_back(top_down[i].second);
  }
  return chain;
}

/// The chain above with every pair carrying 2^log_scale.
inline std::vector<uint64_t> generateDoublePrimeChain(int log_n, int q0_bits,
                                                      int pairs, int log_scale,
                                                      int max_bits = 30,
                                                      size_t window = 64) {
  if (pairs < 0)
    throw InvalidArgument("a double-prime chain cannot have " +
                          std::to_string(pairs) + " pairs");
  // One scale checked even without pairs.
  std::vector<int> scales(static_cast<size_t>(std::max(pairs, 1)), log_scale);
  std::vector<uint64_t> chain =
      generateDoublePrimeChain(log_n, q0_bits, scales, max_bits, window);
  chain.resize(1 + 2 * static_cast<size_t>(pairs));
  return chain;
}

} // namespace ember
