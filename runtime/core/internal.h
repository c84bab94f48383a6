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

/// log2 of the product of the primes q_0..q_level.
double logQ(const Context64 &ctx, int level);

} // namespace ember::internal
