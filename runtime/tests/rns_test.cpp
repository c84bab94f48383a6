// BConv, ModUp, ModDown, rescale and automorphism against exact integer
// arithmetic: bases small enough (<= 120 bits) that the CRT value fits an
// unsigned __int128. Python big-integer tests (tests/runtime) cover wide
// bases; these pin the primitives down in the C++ suite as well.
#include "ember/errors.h"
#include "ember/rns.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

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

using i128 = __int128;

/// The exact integer sum_i y~_i * (B/b_i) of centred fast base conversion
/// (rns.h) of coefficient k of p over the limbs `which`.
i128 centredBConv(const Ctx &ctx, const Poly<uint64_t> &p,
                  const std::vector<size_t> &which, size_t k) {
  u128 modulus = 1;
  for (size_t i : which)
    modulus *= ctx.modulus(p.basis[i]).value();
  i128 sum = 0;
  for (size_t i : which) {
    const Modulus<uint64_t> &mod = ctx.modulus(p.basis[i]);
    const uint64_t b = mod.value();
    u128 hat = modulus / b;
    uint64_t y = mod.mul(p.limb(i)[k], mod.inv(static_cast<uint64_t>(hat % b)));
    i128 centred = y > b / 2 ? i128(y) - i128(b) : i128(y);
    sum += centred * i128(hat);
  }
  return sum;
}

uint64_t modOf(i128 v, uint64_t q) {
  i128 r = v % i128(q);
  return static_cast<uint64_t>(r < 0 ? r + q : r);
}

std::vector<size_t> allLimbs(const Poly<uint64_t> &p) {
  std::vector<size_t> v(p.limbs());
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = i;
  return v;
}

TEST(Rns, BConvIsExactUpToASmallCentredMultipleOfTheSourceModulus) {
  Ctx ctx = test::toyContext(10, {30, 30, 31, 31}, {31, 31}, 4);
  Prng prng;
  Poly<uint64_t> in = test::randomPoly(ctx, prng, {0, 1, 2}, false);
  Poly<uint64_t> out = cpu::bconv(ctx, in, {3, 4, 5});
  int histogram[3] = {0, 0, 0};
  for (size_t k = 0; k < ctx.n(); ++k) {
    u128 big_b;
    u128 x = crt(ctx, in, allLimbs(in), k, &big_b);
    i128 v = centredBConv(ctx, in, allLimbs(in), k);
    // v = x + u B, x the centred representative, |u| <= |B|/2 = 1.5
    i128 centred = x > big_b / 2 ? i128(x) - i128(big_b) : i128(x);
    i128 diff = v - centred;
    ASSERT_EQ(diff % i128(big_b), 0);
    i128 u = diff / i128(big_b);
    ASSERT_LE(u < 0 ? -u : u, 1);
    histogram[int(u) + 1]++;
    for (size_t t = 0; t < out.limbs(); ++t)
      ASSERT_EQ(out.limb(t)[k], modOf(v, ctx.modulus(out.basis[t]).value()))
          << "coefficient " << k;
  }
  // Centred: u takes both signs (a floor-style BConv would only give u >= 0).
  EXPECT_GT(histogram[0], 0);
  EXPECT_GT(histogram[1], 0);
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
        i128 v = centredBConv(ctx, part, which, k);
        for (size_t t = 0; t < up.limbs(); ++t) {
          const uint64_t q = ctx.modulus(up.basis[t]).value();
          auto it = std::find(limbs.begin(), limbs.end(), up.basis[t]);
          uint64_t expected = it != limbs.end()
                                  ? part.limb(it - limbs.begin())[k]
                                  : modOf(v, q);
          ASSERT_EQ(up.limb(t)[k], expected)
              << "level " << level << " digit " << digit;
        }
      }
    }
  }
}

TEST(Rns, ModDownRoundsXOverPAsSpecified) {
  Ctx ctx = test::toyContext(10, {30, 30}, {29, 29}, 2);
  Prng prng;
  Poly<uint64_t> in = test::randomPoly(ctx, prng, ctx.qpBasis(1), true);
  Poly<uint64_t> out = cpu::modDown(ctx, in);
  Poly<uint64_t> x = in;
  cpu::intt(ctx, x);
  cpu::intt(ctx, out);
  const u128 big_p = u128(ctx.primes()[2]) * ctx.primes()[3];
  double error_sum = 0;
  for (size_t k = 0; k < ctx.n(); ++k) {
    u128 qp;
    u128 value = crt(ctx, x, {0, 1, 2, 3}, k, &qp);
    // conv = the centred BConv integer of [X]_P = [X]_P centred + u P.
    i128 conv = centredBConv(ctx, x, {2, 3}, k);
    i128 x_p = i128(value % big_p);
    i128 x_p_centred = x_p > i128(big_p / 2) ? x_p - i128(big_p) : x_p;
    i128 u = (conv - x_p_centred) / i128(big_p);
    ASSERT_EQ((conv - x_p_centred) % i128(big_p), 0);
    ASSERT_LE(u < 0 ? -u : u, 1); // |u| <= K/2
    // (X - conv) / P, computed modulo QP.
    u128 diff =
        static_cast<u128>((i128(value) - conv) % i128(qp) + i128(qp)) % qp;
    ASSERT_EQ(diff % big_p, 0u);
    u128 quotient = diff / big_p;
    for (size_t i = 0; i < 2; ++i)
      ASSERT_EQ(out.limb(i)[k],
                static_cast<uint64_t>(quotient % ctx.primes()[i]));
    long double err = static_cast<long double>(quotient) -
                      static_cast<long double>(value) / big_p;
    if (err > -4 && err < 4) // skip the rare wrap-around at 0 / Q
      error_sum += static_cast<double>(err);
  }
  // Rounding plus a centred u: no systematic bias (floor would give ~+1/2).
  EXPECT_LT(std::fabs(error_sum / ctx.n()), 0.15);
}

TEST(Rns, MergedModDownAndRescaleIsOneModulusSwitch) {
  // Drop P and q_2 at once (Cheddar 5.2): divide by D = q_2 p_0.
  Ctx ctx = test::toyContext(10, {30, 30, 30}, {31}, 3);
  Prng prng;
  Poly<uint64_t> in = test::randomPoly(ctx, prng, ctx.qpBasis(2), true);
  Poly<uint64_t> out = cpu::modSwitchDown(ctx, in, ctx.qBasis(1));
  ASSERT_EQ(out.basis, ctx.qBasis(1));
  Poly<uint64_t> x = in;
  cpu::intt(ctx, x);
  cpu::intt(ctx, out);
  const u128 big_d = u128(ctx.primes()[2]) * ctx.primes()[3];
  for (size_t k = 0; k < ctx.n(); ++k) {
    u128 qd;
    u128 value = crt(ctx, x, {0, 1, 2, 3}, k, &qd);
    i128 conv = centredBConv(ctx, x, {2, 3}, k);
    u128 diff =
        static_cast<u128>((i128(value) - conv) % i128(qd) + i128(qd)) % qd;
    ASSERT_EQ(diff % big_d, 0u);
    for (size_t i = 0; i < 2; ++i)
      ASSERT_EQ(out.limb(i)[k],
                static_cast<uint64_t>((diff / big_d) % ctx.primes()[i]));
  }
  EXPECT_THROW(cpu::modSwitchDown(ctx, in, ctx.qpBasis(2)), InvalidArgument);
  EXPECT_THROW(cpu::modSwitchDown(ctx, in, {}), InvalidArgument);
}

TEST(Rns, RescaleRoundsXOverTheLastPrime) {
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
    // round(X / q_l) = floor((X + h) / q_l), taken modulo Q / q_l.
    u128 quotient = ((value + q_last / 2) / q_last) % (big_q / q_last);
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
