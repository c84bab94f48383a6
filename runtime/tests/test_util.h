// Shared helpers of the runtime's C++ tests.
#pragma once

#include "ember/context.h"
#include "ember/random.h"

#include <algorithm>
#include <cmath>
#include <complex>
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

/// Bits of precision: -log2 of the largest slot error.
inline double bitsOfPrecision(const std::vector<std::complex<double>> &got,
                              const std::vector<std::complex<double>> &want) {
  double err = 0;
  for (size_t i = 0; i < want.size(); ++i)
    err = std::max(err, std::abs(got[i] - want[i]));
  return -std::log2(err);
}

} // namespace ember::test
