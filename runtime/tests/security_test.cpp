// Security checks of the runtime: the 128-bit bound of a sparse
// (fixed-Hamming-weight) secret and the one bit count of ember/security.h.
#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/primes.h"
#include "ember/random.h"
#include "ember/security.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace ember {
namespace {

ParamSpec specB() {
  ParamSpec spec;
  EXPECT_TRUE(namedParamSpec("B", spec));
  return spec;
}

std::string securityMessage(const ParamSpec &spec) {
  try {
    checkSecurity(spec);
  } catch (const SecurityError &e) {
    return e.what();
  }
  return "";
}

// --- Sparse secrets ----------------------------------------------------------

TEST(SparseSecurity, TableIsMonotoneAndBelowTheDenseBound) {
  for (int log_n = 10; log_n <= 17; ++log_n)
    for (int h = 1; h <= 4096; ++h) {
      const int bound = maxLogQPSparse128(log_n, h);
      EXPECT_LE(bound, maxLogQP128(log_n));
      // A smaller weight never gets more modulus, a smaller ring neither.
      EXPECT_LE(maxLogQPSparse128(log_n, h - 1), bound) << log_n << " " << h;
      EXPECT_LE(maxLogQPSparse128(log_n - 1, h), bound) << log_n << " " << h;
    }
  // The published figures themselves (ember/security.h cites each).
  EXPECT_EQ(maxLogQPSparse128(16, 192), 1553);
  EXPECT_EQ(maxLogQPSparse128(15, 192), 767);
  EXPECT_EQ(maxLogQPSparse128(16, 32), 117);
  EXPECT_EQ(maxLogQPSparse128(17, 192), 3104);
  // Between figures: the one of the next smaller weight, never more.
  EXPECT_EQ(maxLogQPSparse128(16, 64), 117);
  EXPECT_EQ(maxLogQPSparse128(16, 191), 300);
  EXPECT_EQ(maxLogQPSparse128(16, 20000), 1553);
  EXPECT_EQ(maxLogQPSparse128(17, 32), 117); // from N = 2^16
  // Nothing published: no bound.
  EXPECT_EQ(maxLogQPSparse128(16, 31), 0);
  EXPECT_EQ(maxLogQPSparse128(15, 128), 0);
  EXPECT_EQ(maxLogQPSparse128(13, 192), 0);
}

TEST(SparseSecurity, SetBWithASparseSecretIsRefused) {
  ParamSpec spec = specB(); // log QP 1460 at N = 2^16
  EXPECT_NO_THROW(checkSecurity(spec));
  spec.hamming_weight = 192; // 1460 <= 1553
  EXPECT_NO_THROW(checkSecurity(spec));
  spec.hamming_weight = 64; // the h = 32 figure: 117 bits
  const std::string msg = securityMessage(spec);
  for (const char *part :
       {"h = 64", "N = 2^16", "log2(QP) = 1460", "exceeds 117"})
    EXPECT_NE(msg.find(part), std::string::npos) << part << " in: " << msg;
  EXPECT_THROW(Context64{spec}, SecurityError);
  spec.hamming_weight = 16; // below every figure
  EXPECT_NE(securityMessage(spec).find("no published 128-bit bound"),
            std::string::npos);
  EXPECT_NE(securityMessage(spec).find("h = 32"), std::string::npos);
  spec.security = Security::kInsecureTestOnly; // the test mode skips it
  EXPECT_NO_THROW(checkSecurity(spec));
}

TEST(SparseSecurity, SmallSparseChainPasses) {
  // N = 2^16, h = 32: 60 + 50 bits fit the 117-bit figure, 60 + 58 not.
  ParamSpec spec;
  spec.name = "sparse";
  spec.log_n = 16;
  spec.q_bits = {60};
  spec.p_bits = {50};
  spec.hamming_weight = 32;
  EXPECT_NO_THROW(checkSecurity(spec));
  spec.p_bits = {58}; // 118 bits
  EXPECT_THROW(checkSecurity(spec), SecurityError);
}

TEST(SparseSecurity, EncapsulationKeyNeedsTheEphemeralBound) {
  // The key s -> s' is an RLWE sample under the h = 32 secret at q_0 p_0:
  // 50 + 60 bits meet the 117-bit figure at N = 2^16, 60 + 60 do not, and
  // N = 2^15 has no figure for h = 32.
  auto keysFor = [](int log_n, int q0_bits) {
    ParamSpec spec;
    spec.name = "encapsulation";
    spec.log_n = log_n;
    spec.q_bits = {q0_bits, 40};
    spec.p_bits = {60};
    spec.dnum = 2;
    Context64 ctx(spec);
    Prng prng;
    KeyGenerator keygen(ctx, prng);
    try {
      keygen.encapsulationKeys(kEncapsulationHammingWeight);
    } catch (const SecurityError &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(keysFor(16, 50), "");
  const std::string msg = keysFor(16, 60);
  for (const char *part : {"Hamming weight 32", "120.0 bits", "is 117 bits"})
    EXPECT_NE(msg.find(part), std::string::npos) << part << " in: " << msg;
  EXPECT_NE(keysFor(15, 50).find("none is published"), std::string::npos);
}

// --- One bit count -----------------------------------------------------------

/// The first `count` NTT primes (= 1 mod 2^(log_n+1)) above 2^bits.
std::vector<uint64_t> primesAbove(int log_n, int bits, int count) {
  std::vector<uint64_t> out;
  const uint64_t step = uint64_t{2} << log_n;
  for (uint64_t c = (uint64_t{1} << bits) + 1; out.size() < size_t(count);
       c += step)
    if (isPrime(c))
      out.push_back(c);
  return out;
}

TEST(BitCount, LogQPIsTheBitLengthOfTheProduct) {
  EXPECT_EQ(primeBits(1), 1);
  EXPECT_EQ(primeBits((uint64_t{1} << 40) - 1), 40);
  EXPECT_EQ(primeBits((uint64_t{1} << 40) + 1), 41);
  EXPECT_EQ(primeBits(~uint64_t{0}), 64);
  // (2^40 + 1) 3 2^20 lies between 2^61 and 2^62: 62 bits, not the 64 that
  // the summed bit lengths 41 + 2 + 21 would count.
  std::vector<uint64_t> q = {(uint64_t{1} << 40) + 1, 3}, p = {1u << 20};
  EXPECT_EQ(logQP(q, p), 62);
  // Carries across words: (2^64 - 1)^3 < 2^192 has 192 bits, 2^63 2^63
  // 2 = 2^127 has 128.
  std::vector<uint64_t> ones(3, ~uint64_t{0}), none;
  EXPECT_EQ(logQP(ones, none), 192);
  std::vector<uint64_t> powers = {uint64_t{1} << 63, uint64_t{1} << 63};
  EXPECT_EQ(logQP(powers, std::vector<uint64_t>{2}), 128);
  EXPECT_EQ(logQP(none, none), 1); // the empty product, 1
}

TEST(BitCount, PrimesJustAboveAPowerOfTwoCountTheirBitLength) {
  // N = 2^13 allows 218 bits. Three primes just above 2^54 and one just
  // below 2^56: rounding log2 counts 54 + 54 + 54 + 56 = 218 (accepted
  // before), but their product lies just above 2^218 and has 219 bits.
  std::vector<uint64_t> q = primesAbove(13, 54, 3);
  std::vector<uint64_t> p = generateNttPrimes(13, {56});
  for (uint64_t prime : q)
    ASSERT_EQ(std::lround(std::log2(double(prime))), 54);
  ASSERT_EQ(logQP(q, p), 219);
  ParamSpec spec;
  spec.name = "edge";
  spec.log_n = 13;
  spec.dnum = 3;
  try {
    Context64 ctx(spec, q, p);
    FAIL() << "accepted 219 bits at N = 2^13";
  } catch (const SecurityError &e) {
    EXPECT_NE(std::string(e.what()).find("log2(QP) = 219"), std::string::npos)
        << e.what();
  }
  spec.security = Security::kInsecureTestOnly;
  Context64 ctx(spec, q, p);
  EXPECT_EQ(ctx.spec().logQP(), 219);
  EXPECT_EQ(ctx.spec().q_bits, (std::vector<int>{55, 55, 55}));
}

TEST(BitCount, GeneratedChainsCountTheirPrimes) {
  // Scale-tracking primes may lie above 2^40: the context counts them as
  // the primes are, and still passes (set B has 292 bits to spare).
  Context64 ctx(specB());
  std::vector<uint64_t> q(ctx.primes().begin(),
                          ctx.primes().begin() + ctx.qCount());
  std::vector<uint64_t> p(ctx.primes().begin() + ctx.qCount(),
                          ctx.primes().begin() + ctx.moduliCount());
  EXPECT_EQ(ctx.spec().logQP(), logQP(q, p));
  EXPECT_LE(ctx.spec().logQP(), maxLogQP128(16));
}

} // namespace
} // namespace ember
