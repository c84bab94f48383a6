// BConv, ModUp, ModDown, rescale and automorphism against exact integer
// arithmetic: bases small enough (<= 120 bits) that the CRT value fits an
// unsigned __int128. Python big-integer tests (tests/runtime) cover wide
// bases; these pin the primitives down in the C++ suite as well.
#include "ember/errors.h"
#include "ember/rns.h"
#include "test_util.h"

#include <gtest/gtest.h>

namespace ember {
namespace {

using u128 = unsigned __int128;
using Ctx = Context<uint64_t>;

/// CRT value of coefficient k of p restricted to the limbs `which`.
u128 crt(const Ctx &ctx, const Poly<uint64_t> &p,
         const std::vector<size_t> &which, size_t k, u128 *modulus_out) {
  u128 modulus = 1;
  for (size_t i : which)
    modulus *= ctx.modulus(p.basis[i]).value();
  u128 value = 0;
  for (size_t i : which) {
    const uint64_t q = ctx.modulus(p.basis[i]).value();
    const Modulus<uint64_t> &mod = ctx.modulus(p.basis[i]);
    u128 hat = modulus / q;
    uint64_t hat_inv = mod.inv(static_cast<uint64_t>(hat % q));
    uint64_t term = mod.mul(p.limb(i)[k], hat_inv);
    value = (value + static_cast<u128>(term) * hat) % modulus;
  }
  if (modulus_out)
    *modulus_out = modulus;
  return value;
}

std::vector<size_t> allLimbs(const Poly<uint64_t> &p) {
  std::vector<size_t> v(p.limbs());
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = i;
  return v;
}

TEST(Rns, BConvIsExactUpToASmallMultipleOfTheSourceModulus) {
  Ctx ctx = test::toyContext(10, {30, 30, 31, 31}, {31, 31}, 4);
  Prng prng;
  Poly<uint64_t> in = test::randomPoly(ctx, prng, {0, 1, 2}, false);
  Poly<uint64_t> out = cpu::bconv(ctx, in, {3, 4, 5});
  for (size_t k = 0; k < ctx.n(); ++k) {
    u128 big_b;
    u128 x = crt(ctx, in, allLimbs(in), k, &big_b);
    // the same u for every target prime, 0 <= u < |B|
    int found = -1;
    for (int u = 0; u < 3 && found < 0; ++u) {
      bool all = true;
      for (size_t t = 0; t < out.limbs(); ++t) {
        const uint64_t q = ctx.modulus(out.basis[t]).value();
        all &= out.limb(t)[k] == static_cast<uint64_t>((x + u * big_b) % q);
      }
      if (all)
        found = u;
    }
    ASSERT_GE(found, 0) << "coefficient " << k;
  }
}

TEST(Rns, ModUpKeepsTheDigitAndConvertsTheRest) {
  // Uneven digits: 5 Q limbs, dnum 2 -> digits of 3 and 2 limbs.
  Ctx ctx = test::toyContext(10, {30, 30, 30, 30, 30}, {31, 31, 31}, 2);
  Prng prng;
  for (int level : {4, 3, 1}) {
    Poly<uint64_t> in = test::randomPoly(ctx, prng, ctx.qBasis(level), true);
    for (int digit = 0; digit < ctx.digitCount(level); ++digit) {
      Poly<uint64_t> up = cpu::modUp(ctx, in, digit);
      ASSERT_EQ(up.basis, ctx.qpBasis(level));
      std::vector<int> limbs = ctx.digitLimbs(digit, level);
      Poly<uint64_t> part = cpu::selectLimbs(in, limbs);
      cpu::intt(ctx, part);
      cpu::intt(ctx, up);
      std::vector<size_t> which(limbs.size());
      for (size_t i = 0; i < limbs.size(); ++i)
        which[i] = i;
      for (size_t k = 0; k < ctx.n(); k += 7) {
        u128 big_d;
        u128 x = crt(ctx, part, which, k, &big_d);
        for (size_t t = 0; t < up.limbs(); ++t) {
          const uint64_t q = ctx.modulus(up.basis[t]).value();
          bool ok = false;
          for (u128 u = 0; u < limbs.size() && !ok; ++u)
            ok = up.limb(t)[k] == static_cast<uint64_t>((x + u * big_d) % q);
          ASSERT_TRUE(ok) << "level " << level << " digit " << digit;
        }
      }
    }
  }
}

TEST(Rns, ModDownDividesByPExactlyAsSpecified) {
  Ctx ctx = test::toyContext(10, {30, 30}, {29, 29}, 2);
  Prng prng;
  Poly<uint64_t> in = test::randomPoly(ctx, prng, ctx.qpBasis(1), true);
  Poly<uint64_t> out = cpu::modDown(ctx, in);
  Poly<uint64_t> x = in;
  cpu::intt(ctx, x);
  cpu::intt(ctx, out);
  const uint64_t p0 = ctx.primes()[2], p1 = ctx.primes()[3];
  const u128 big_p = static_cast<u128>(p0) * p1;
  for (size_t k = 0; k < ctx.n(); ++k) {
    u128 qp;
    u128 value = crt(ctx, x, {0, 1, 2, 3}, k, &qp);
    // The exact BConv integer of [X]_P (not reduced mod P).
    const Modulus<uint64_t> &m0 = ctx.modulus(2), &m1 = ctx.modulus(3);
    u128 conv = static_cast<u128>(m0.mul(x.limb(2)[k], m0.inv(p1 % p0))) * p1 +
                static_cast<u128>(m1.mul(x.limb(3)[k], m1.inv(p0 % p1))) * p0;
    // (X - conv) / P, computed modulo QP (conv = [X]_P + u P).
    u128 diff = (value + 2 * qp - conv) % qp;
    ASSERT_EQ(diff % big_p, 0u);
    u128 quotient = diff / big_p;
    for (size_t i = 0; i < 2; ++i)
      ASSERT_EQ(out.limb(i)[k],
                static_cast<uint64_t>(quotient % ctx.primes()[i]));
  }
}

TEST(Rns, RescaleIsExactDivisionByTheLastPrime) {
  Ctx ctx = test::toyContext(10, {30, 30, 30, 30}, {31}, 4);
  Prng prng;
  Poly<uint64_t> in = test::randomPoly(ctx, prng, ctx.qBasis(3), true);
  Poly<uint64_t> out = in;
  cpu::rescale(ctx, out);
  ASSERT_EQ(out.basis, ctx.qBasis(2));
  cpu::intt(ctx, in);
  cpu::intt(ctx, out);
  const uint64_t q_last = ctx.primes()[3];
  for (size_t k = 0; k < ctx.n(); ++k) {
    u128 big_q;
    u128 value = crt(ctx, in, {0, 1, 2, 3}, k, &big_q);
    u128 quotient = (value - value % q_last) / q_last;
    for (size_t i = 0; i < 3; ++i)
      ASSERT_EQ(out.limb(i)[k],
                static_cast<uint64_t>(quotient % ctx.primes()[i]));
  }
}

TEST(Rns, AutomorphismMatchesTheDefinitionInBothForms) {
  for (int log_n : {4, 10, 16}) {
    Ctx ctx = test::toyContext(log_n, {50, 55}, {});
    Prng prng;
    const uint64_t n = ctx.n(), two_n = 2 * n;
    Poly<uint64_t> coeff = test::randomPoly(ctx, prng, {0, 1}, false);
    for (uint64_t g : {uint64_t{5}, uint64_t{25}, two_n - 1, uint64_t{3}}) {
      Poly<uint64_t> by_def(coeff.basis, n, false);
      for (size_t i = 0; i < 2; ++i) {
        const uint64_t q = ctx.modulus(i).value();
        for (uint64_t k = 0; k < n; ++k) {
          uint64_t e = k * g % two_n;
          uint64_t v = coeff.limb(i)[k];
          if (e < n)
            by_def.limb(i)[e] = v;
          else
            by_def.limb(i)[e - n] = v ? q - v : 0;
        }
      }
      Poly<uint64_t> got = cpu::automorphism(ctx, coeff, g);
      ASSERT_EQ(got.data, by_def.data) << "coefficient form, g=" << g;
      Poly<uint64_t> in_ntt = coeff;
      cpu::ntt(ctx, in_ntt);
      Poly<uint64_t> got_ntt = cpu::automorphism(ctx, in_ntt, g);
      cpu::ntt(ctx, by_def);
      ASSERT_EQ(got_ntt.data, by_def.data) << "NTT form, g=" << g;
    }
  }
}

TEST(Rns, ElementwiseOpsAndBasisChecks) {
  Ctx ctx = test::toyContext(8, {40, 40}, {50}, 2);
  Prng prng;
  Poly<uint64_t> a = test::randomPoly(ctx, prng, {0, 1}, true);
  Poly<uint64_t> b = test::randomPoly(ctx, prng, {0, 1}, true);
  Poly<uint64_t> sum = a, prod = a, fused = a;
  cpu::addInPlace(ctx, sum, b);
  cpu::mulInPlace(ctx, prod, b);
  cpu::mulAddInPlace(ctx, fused, a, b);
  for (size_t i = 0; i < 2; ++i) {
    const auto &q = ctx.modulus(i);
    for (size_t k = 0; k < ctx.n(); ++k) {
      ASSERT_EQ(sum.limb(i)[k], q.add(a.limb(i)[k], b.limb(i)[k]));
      ASSERT_EQ(prod.limb(i)[k], q.mul(a.limb(i)[k], b.limb(i)[k]));
      ASSERT_EQ(fused.limb(i)[k], q.add(a.limb(i)[k], prod.limb(i)[k]));
    }
  }
  Poly<uint64_t> other = test::randomPoly(ctx, prng, {0, 2}, true);
  EXPECT_THROW(cpu::addInPlace(ctx, a, other), InvalidArgument);
  Poly<uint64_t> coeff = test::randomPoly(ctx, prng, {0, 1}, false);
  EXPECT_THROW(cpu::mulInPlace(ctx, a, coeff), InvalidArgument);
  EXPECT_THROW(cpu::intt(ctx, coeff), InvalidArgument);
  Poly<uint64_t> one = test::randomPoly(ctx, prng, {0}, true);
  EXPECT_THROW(cpu::rescale(ctx, one), LevelMismatch);
}

} // namespace
} // namespace ember
