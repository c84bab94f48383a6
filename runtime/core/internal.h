// Helpers shared by the runtime's .cpp files; not part of the public API.
#pragma once

#include "ember/ckks.h"

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

namespace ember::internal {

/// The CPU backend allocates each result (std::vector, tens of MB at
/// N = 2^16) and frees it at its last use. glibc serves blocks above its
/// mmap threshold with fresh mappings and trims the heap's free top, so
/// every operation would fault in and zero the same memory again. Once per
/// process (the first Context built, or the first program run), unless the
/// user tunes malloc (GLIBC_TUNABLES): blocks up to 32 MiB (glibc's largest
/// threshold) come from the heap and freed memory stays there for the next
/// operation. bootstrap at N = 2^16: 6.61 -> 6.40 s on two cores; BFV's
/// HPS multiply at N = 2^15, Q 7 x 60: 50.4 -> 33.5 ms (bench/RESULTS.md).
void keepFreedMemory();

/// Residues of the integer-valued double `value` modulo each prime of
/// `basis`, exact for any magnitude (the double is m * 2^e, m an integer).
template <typename Word>
std::vector<Word> integerResidues(const Context<Word> &ctx, double value,
                                  const std::vector<int> &basis);
/// The same residues written to out[i * stride] (a column of a polynomial's
/// limbs); `value` must be finite.
template <typename Word>
void integerResiduesTo(const Context<Word> &ctx, double value,
                       const std::vector<int> &basis, Word *out, size_t stride);

/// A vector of polynomials built by moving (an initializer list would copy
/// every multi-megabyte polynomial).
template <typename First, typename... P>
std::vector<std::decay_t<First>> polys(First &&first, P &&...p) {
  std::vector<std::decay_t<First>> v;
  v.reserve(1 + sizeof...(p));
  v.push_back(std::forward<First>(first));
  (v.push_back(std::forward<P>(p)), ...);
  return v;
}

/// The product of the primes a rescale at `level` divides by: q_level, or
/// q_level q_{level-1} with double-prime scaling (Context::scalePrimes).
template <typename Word>
double rescaleDivisor(const Context<Word> &ctx, int level) {
  double d = 1;
  for (int i = 0; i < ctx.scalePrimes() && level - i >= 0; ++i)
    d *= static_cast<double>(ctx.primes()[level - i]);
  return d;
}

/// log2 of the product of the primes q_0..q_level.
template <typename Word> double logQ(const Context<Word> &ctx, int level);

/// Garner's mixed-radix CRT over a polynomial's basis b_0..b_{k-1}: the
/// centred representative x in (-B/2, B/2] of a coefficient's residues is
/// written as sign and digits a_i in [0, b_i) of its magnitude,
///   |x| = a_0 + a_1 b_0 + a_2 b_0 b_1 + ...
/// exactly, in modular arithmetic (client-side decoding: CKKS's exact
/// decode, BGV's reduction mod t and its noise budget).
template <typename Word> class MixedRadix {
public:
  MixedRadix(const Context<Word> &ctx, const std::vector<int> &basis)
      : ctx_(ctx), basis_(basis), inv_(basis.size()), half_(basis.size()) {
    const size_t limbs = basis.size();
    for (size_t k = 0; k < limbs; ++k) { // inv_[k][j] = b_j^-1 mod b_k
      const Modulus<Word> &bk = ctx.modulus(basis[k]);
      for (size_t j = 0; j < k; ++j)
        inv_[k].push_back(bk.inv(bk.reduceWord(ctx.modulus(basis[j]).value())));
    }
    uint64_t rem = 0; // digits of floor(B / 2), to decide the sign
    for (size_t k = limbs; k-- > 0;) {
      const uint64_t b = ctx.modulus(basis[k]).value();
      unsigned __int128 cur = static_cast<unsigned __int128>(rem) * b + (b - 1);
      half_[k] = static_cast<Word>(cur / 2);
      rem = static_cast<uint64_t>(cur % 2);
    }
  }
  size_t limbs() const { return basis_.size(); }
  uint64_t radix(size_t k) const { return ctx_.modulus(basis_[k]).value(); }

  /// The digits of |x| for coefficient `position` of p (coefficient form,
  /// over this basis) into a; true when x < 0.
  bool centredDigits(const Poly<Word> &p, size_t position,
                     std::vector<Word> &a) const {
    const size_t limbs = basis_.size();
    a.resize(limbs);
    for (size_t k = 0; k < limbs; ++k) {
      const Modulus<Word> &bk = ctx_.modulus(basis_[k]);
      Word t = p.limb(k)[position];
      for (size_t j = 0; j < k; ++j)
        t = bk.mul(bk.sub(t, bk.reduceWord(a[j])), inv_[k][j]);
      a[k] = t;
    }
    bool negative = false;
    for (size_t k = limbs; k-- > 0;) {
      if (a[k] != half_[k]) {
        negative = a[k] > half_[k];
        break;
      }
    }
    if (negative) { // B - x = (B - 1 - x) + 1: complement, then add one
      for (size_t k = 0; k < limbs; ++k)
        a[k] = static_cast<Word>(radix(k) - 1 - a[k]);
      for (size_t k = 0; k < limbs; ++k) {
        if (a[k] + uint64_t{1} < radix(k)) {
          ++a[k];
          break;
        }
        a[k] = 0;
      }
    }
    return negative;
  }

  /// |x| as a double from its digits (Horner from the top digit).
  double value(const std::vector<Word> &a) const {
    double v = 0;
    for (size_t k = a.size(); k-- > 0;)
      v = v * static_cast<double>(radix(k)) + static_cast<double>(a[k]);
    return v;
  }

private:
  const Context<Word> &ctx_;
  std::vector<int> basis_;
  std::vector<std::vector<Word>> inv_;
  std::vector<Word> half_;
};

/// HPS's exact step (BFV decryption and multiplication): for residues x_i
/// < q_i of one coefficient over q_0..q_{k-1} and constants c_i < q_i (with
/// their Shoup words c_shoup_i = floor(c_i 2^64 / q_i)), the quotients
/// quo_i = floor(x_i c_i / q_i) (written to quo; Shoup's estimate,
/// corrected once, as the CUDA kernel) and round(sum_i (x_i c_i mod q_i) /
/// q_i), the fractions summed in doubles in index order (an error below
/// k 2^-53 before rounding).
inline uint64_t quotientsAndRoundedFraction(const uint64_t *x,
                                            const uint64_t *c,
                                            const uint64_t *c_shoup,
                                            const uint64_t *q, size_t k,
                                            uint64_t *quo) {
  double fraction = 0;
  for (size_t i = 0; i < k; ++i) {
    uint64_t qt = static_cast<uint64_t>(
        (static_cast<unsigned __int128>(x[i]) * c_shoup[i]) >> 64);
    uint64_t rem = x[i] * c[i] - qt * q[i];
    if (rem >= q[i]) {
      rem -= q[i];
      ++qt;
    }
    quo[i] = qt;
    fraction += static_cast<double>(rem) / static_cast<double>(q[i]);
  }
  return static_cast<uint64_t>(std::floor(fraction + 0.5));
}

} // namespace ember::internal
