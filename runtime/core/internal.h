// Helpers shared by the runtime's .cpp files; not part of the public API.
#pragma once

#include "ember/ckks.h"

#include <string>
#include <vector>

namespace ember::internal {

/// Residues of the integer-valued double `value` modulo each prime of
/// `basis`, exact for any magnitude (the double is m * 2^e, m an integer).
std::vector<Word64> integerResidues(const Context64 &ctx, double value,
                                    const std::vector<int> &basis);
/// The same residues written to out[i * stride] (a column of a polynomial's
/// limbs); `value` must be finite.
void integerResiduesTo(const Context64 &ctx, double value,
                       const std::vector<int> &basis, Word64 *out,
                       size_t stride);

/// A vector of polynomials built by moving (an initializer list would copy
/// every multi-megabyte polynomial).
template <typename... P> std::vector<Poly64> polys(P &&...p) {
  std::vector<Poly64> v;
  v.reserve(sizeof...(p));
  (v.push_back(std::forward<P>(p)), ...);
  return v;
}

/// log2 of the product of the primes q_0..q_level.
double logQ(const Context64 &ctx, int level);

} // namespace ember::internal
