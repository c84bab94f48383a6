// Helpers shared by the runtime's .cpp files; not part of the public API.
#pragma once

#include "ember/ckks.h"

#include <string>
#include <type_traits>
#include <vector>

namespace ember::internal {

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

} // namespace ember::internal
