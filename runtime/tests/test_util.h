// Shared helpers of the runtime's C++ tests.
#pragma once

#include "ember/context.h"
#include "ember/random.h"

#include <vector>

namespace ember::test {

/// An insecure context over explicit primes of the given sizes (unit tests
/// of primitives only).
inline Context<uint64_t> toyContext(int log_n, std::vector<int> q_bits,
                                    std::vector<int> p_bits, int dnum = 1) {
  ParamSpec spec;
  spec.name = "toy";
  spec.log_n = log_n;
  spec.q_bits = std::move(q_bits);
  spec.p_bits = std::move(p_bits);
  spec.dnum = dnum;
  spec.security = Security::kInsecureTestOnly;
  return Context<uint64_t>(spec);
}

template <typename Word>
Poly<Word> randomPoly(const Context<Word> &ctx, Prng &prng,
                      const std::vector<int> &basis, bool ntt) {
  return sampleUniformPoly(ctx, prng, basis, ntt);
}

} // namespace ember::test
