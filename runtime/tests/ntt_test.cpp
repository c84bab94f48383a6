// NTT/INTT against the naive negacyclic convolution and the definition
// out[k] = a(psi^(2 brev(k) + 1)), for both word sizes.
#include "ember/ntt.h"
#include "ember/primes.h"
#include "ember/random.h"

#include <gtest/gtest.h>

namespace ember {
namespace {

template <typename Word>
std::vector<Word> naiveNegacyclic(const std::vector<Word> &a,
                                  const std::vector<Word> &b,
                                  const Modulus<Word> &q) {
  const size_t n = a.size();
  std::vector<Word> c(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      Word prod = q.mul(a[i], b[j]);
      size_t k = i + j;
      if (k < n)
        c[k] = q.add(c[k], prod);
      else
        c[k - n] = q.sub(c[k - n], prod);
    }
  return c;
}

template <typename Word> void checkConvolution(int log_n, int bits) {
  Prng prng;
  Modulus<Word> q(static_cast<Word>(generateNttPrimes(log_n, {bits})[0]));
  NttTables<Word> tables(log_n, q);
  const size_t n = tables.n();
  std::vector<Word> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<Word>(prng.uniform(q.value()));
    b[i] = static_cast<Word>(prng.uniform(q.value()));
  }
  std::vector<Word> expected = naiveNegacyclic(a, b, q);
  std::vector<Word> fa = a, fb = b;
  tables.forward(fa.data());
  tables.forward(fb.data());
  for (size_t i = 0; i < n; ++i)
    fa[i] = q.mul(fa[i], fb[i]);
  tables.inverse(fa.data());
  ASSERT_EQ(fa, expected) << "N=2^" << log_n << ", " << bits << "-bit prime";
}

TEST(Ntt, MatchesNaiveNegacyclicConvolution64) {
  for (int log_n : {1, 2, 4, 7, 10, 12})
    for (int bits : {30, 45, 55, 60, 61})
      checkConvolution<uint64_t>(log_n, bits);
}

TEST(Ntt, MatchesNaiveNegacyclicConvolution32) {
  for (int log_n : {2, 5, 10, 11})
    for (int bits : {20, 28, 30})
      checkConvolution<uint32_t>(log_n, bits);
}

template <typename Word> void checkDefinition(int log_n, int bits) {
  Prng prng;
  Modulus<Word> q(static_cast<Word>(generateNttPrimes(log_n, {bits})[0]));
  NttTables<Word> tables(log_n, q);
  const size_t n = tables.n();
  ASSERT_EQ(q.pow(tables.psi(), n), q.value() - 1); // primitive 2N-th root
  std::vector<Word> a(n);
  for (auto &x : a)
    x = static_cast<Word>(prng.uniform(q.value()));
  std::vector<Word> fa = a;
  tables.forward(fa.data());
  for (int trial = 0; trial < 32; ++trial) {
    size_t k = prng.uniform(n);
    Word point = q.pow(tables.psi(), 2 * bitReverse(uint32_t(k), log_n) + 1);
    Word value = 0; // Horner
    for (size_t i = n; i-- > 0;)
      value = q.add(q.mul(value, point), a[i]);
    ASSERT_EQ(fa[k], value) << "index " << k;
  }
  tables.inverse(fa.data());
  ASSERT_EQ(fa, a);
}

TEST(Ntt, EvaluatesAtBitReversedOddPowersOfPsi) {
  for (int bits : {36, 50, 60})
    checkDefinition<uint64_t>(16, bits);
  checkDefinition<uint64_t>(13, 61);
  checkDefinition<uint32_t>(16, 30);
}

} // namespace
} // namespace ember
