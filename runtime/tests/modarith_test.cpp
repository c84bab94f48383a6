#include "ember/modarith.h"
#include "ember/primes.h"
#include "ember/random.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace ember {
namespace {

template <typename Word> void checkModulus(Word q, Prng &prng) {
  using Double = typename WordTraits<Word>::Double;
  Modulus<Word> mod(q);
  const Double q2 = static_cast<Double>(q) * q;
  std::vector<Double> inputs = {
      0, 1, q - 1, q, q + 1, q2 - 1, static_cast<Double>(q) << 20, ~Double{0}};
  for (int i = 0; i < 2000; ++i) {
    Double x = prng.next64();
    if constexpr (sizeof(Word) == 8)
      x = (x << 64) | prng.next64();
    inputs.push_back(x);
  }
  for (Double x : inputs)
    ASSERT_EQ(mod.reduce(x), static_cast<Word>(x % q));
  for (int i = 0; i < 2000; ++i) {
    Word a = static_cast<Word>(prng.uniform(q));
    Word b = static_cast<Word>(prng.uniform(q));
    Word expected = static_cast<Word>(static_cast<Double>(a) * b % q);
    ASSERT_EQ(mod.mul(a, b), expected);
    ASSERT_EQ(mod.mulShoup(a, b, mod.shoup(b)), expected);
    Word any = static_cast<Word>(prng.next64()); // lazy input, any word
    Word lazy = mod.mulShoupLazy(any, b, mod.shoup(b));
    ASSERT_LT(lazy, 2 * q);
    ASSERT_EQ(lazy % q, static_cast<Word>(static_cast<Double>(any) * b % q));
    ASSERT_EQ(mod.add(a, b), static_cast<Word>((Double{a} + b) % q));
    ASSERT_EQ(mod.sub(a, b), static_cast<Word>((Double{a} + q - b) % q));
    if (a != 0)
      ASSERT_EQ(mod.mul(a, mod.inv(a)), Word{1});
  }
}

TEST(ModArith, Word64MatchesExactArithmetic) {
  Prng prng;
  for (int bits : {30, 40, 50, 55, 60, 61})
    checkModulus<uint64_t>(generateNttPrimes(12, {bits})[0], prng);
}

TEST(ModArith, Word32MatchesExactArithmetic) {
  Prng prng;
  for (int bits : {20, 25, 28, 30})
    checkModulus<uint32_t>(
        static_cast<uint32_t>(generateNttPrimes(10, {bits})[0]), prng);
}

TEST(Primes, GeneratedPrimesAreNttFriendlyDistinctAndSized) {
  const int log_n = 16;
  std::vector<int> bits(24, 40);
  bits[0] = 60;
  std::vector<uint64_t> q = generateNttPrimes(log_n, bits);
  std::vector<uint64_t> p = generateNttPrimes(log_n, {60, 60, 60}, q);
  std::vector<uint64_t> all = q;
  all.insert(all.end(), p.begin(), p.end());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_TRUE(isPrime(all[i]));
    EXPECT_EQ(all[i] % (uint64_t{2} << log_n), 1u);
    for (size_t j = 0; j < i; ++j)
      EXPECT_NE(all[i], all[j]);
  }
  for (size_t i = 0; i < q.size(); ++i) {
    EXPECT_LT(q[i], uint64_t{1} << bits[i]);
    EXPECT_GT(q[i], uint64_t{1} << (bits[i] - 1));
  }
  // Deterministic: the compiler and the runtime derive the same chain.
  EXPECT_EQ(q, generateNttPrimes(log_n, bits));
}

TEST(Primes, ScaleTrackingChainKeepsTheScaleNearItsTarget) {
  // 38 squarings at N = 2^16 with 40-bit scale primes (set B's shape, deeper).
  std::vector<int> bits(39, 40);
  bits[0] = 60;
  std::vector<uint64_t> chain = generateQChain(16, bits, 40);
  ASSERT_EQ(chain.size(), bits.size());
  long double scale = std::ldexp(1.0L, 40);
  for (size_t l = chain.size(); l-- > 1;) {
    EXPECT_TRUE(isPrime(chain[l]));
    EXPECT_EQ(chain[l] % (uint64_t{2} << 16), 1u);
    for (size_t j = 0; j < l; ++j)
      EXPECT_NE(chain[l], chain[j]);
    scale = scale * scale / chain[l]; // square, rescale by q_l
  }
  // Below-2^40 primes would have squared the drift to inf by now.
  EXPECT_LT(std::fabs(std::log2(static_cast<double>(scale)) - 40), 1e-3);
  EXPECT_EQ(chain, generateQChain(16, bits, 40)); // deterministic
  EXPECT_EQ(chain[0], generateNttPrimes(16, {60})[0]);
}

TEST(Primes, MillerRabinAgreesWithTrialDivision) {
  for (uint64_t n = 0; n < 5000; ++n) {
    bool prime = n >= 2;
    for (uint64_t d = 2; d * d <= n && prime; ++d)
      prime = n % d != 0;
    ASSERT_EQ(isPrime(n), prime) << n;
  }
  EXPECT_FALSE(isPrime(3215031751ull)); // strong pseudoprime to 2, 3, 5, 7
  EXPECT_TRUE(isPrime(2305843009213693951ull)); // 2^61 - 1
}

TEST(Primes, RejectsImpossibleSizes) {
  EXPECT_THROW(generateNttPrimes(16, {62}), InvalidArgument);
  EXPECT_THROW(generateNttPrimes(16, {17}), InvalidArgument);
}

TEST(Random, SamplersHaveTheRightSupportAndMoments) {
  Prng prng;
  const size_t n = 1 << 16;
  auto ternary = sampleTernary(prng, n);
  std::array<int, 3> counts{};
  for (int64_t v : ternary) {
    ASSERT_GE(v, -1);
    ASSERT_LE(v, 1);
    counts[v + 1]++;
  }
  for (int c : counts) // each value about n/3
    EXPECT_NEAR(c, n / 3.0, 5 * std::sqrt(n * 2.0 / 9));
  auto hamming = sampleTernaryHamming(prng, n, 192);
  int weight = 0;
  for (int64_t v : hamming)
    weight += v != 0;
  EXPECT_EQ(weight, 192);
  auto gauss = sampleGaussian(prng, n);
  double sum = 0, sq = 0;
  for (int64_t v : gauss) {
    ASSERT_LE(std::abs(v), 20);
    sum += v;
    sq += double(v) * v;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.1);
  EXPECT_NEAR(std::sqrt(sq / n), kErrorSigma, 0.1);
}

TEST(Random, SeededStreamsReplayAndDiffer) {
  Prng::Seed seed{};
  seed[0] = 7;
  Prng a(seed), b(seed), c;
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(a.next64(), b.next64());
  Prng d(seed);
  int equal = 0;
  for (int i = 0; i < 100; ++i)
    equal += d.next64() == c.next64();
  EXPECT_LT(equal, 2);
}

} // namespace
} // namespace ember
