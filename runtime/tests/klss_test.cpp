// KLSS key switching on the CPU: the exact base conversion against __int128
// CRT, the key-group layout, the bound on T, the inner product against the
// hybrid inner product of exactly converted digits (equal residue for
// residue), and relinearization and rotation against hybrid key switching
// after decryption. GPU/CPU agreement is in runtime/cuda/tests.
#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/primes.h"
#include "ember/rns.h"
#include "ember/serialize.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>

namespace ember {
namespace {

using Complex = std::complex<double>;
using i128 = __int128;

/// log N 12, Q = 60 + 6 x 40, P = 3 x 60, dnum 3 (digits of 3 Q primes),
/// gamma 3: the groups are P, q0-q2, q3-q5, q6 and T needs
/// log2 3 + 12 + 140 + 180 + 1 = 334.6 bits: 6 primes of 61 bits.
ParamSpec klssSpec(int t_primes = 6) {
  ParamSpec spec;
  spec.name = "klss-insecure";
  spec.log_n = 12;
  spec.q_bits = {60, 40, 40, 40, 40, 40, 40};
  spec.p_bits = {60, 60, 60};
  spec.dnum = 3;
  spec.log_scale = 40;
  spec.klss_gamma = 3;
  spec.t_bits.assign(t_primes, 61);
  spec.security = Security::kInsecureTestOnly;
  return spec;
}

TEST(Klss, GroupsCoverPFirstThenQ) {
  Context64 ctx(klssSpec());
  const int K = ctx.pCount(), L1 = ctx.qCount();
  ASSERT_EQ(ctx.tCount(), 6);
  EXPECT_EQ(ctx.tBasis().front(), L1 + K);
  EXPECT_EQ(ctx.klssGroupCount(ctx.maxLevel()), 4);
  EXPECT_EQ(ctx.klssGroupLimbs(0, 6), (std::vector<int>{L1, L1 + 1, L1 + 2}));
  EXPECT_EQ(ctx.klssGroupLimbs(1, 6), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(ctx.klssGroupLimbs(3, 6), (std::vector<int>{6}));
  // At level 3 the groups covering P u Q_3 are a prefix, the last one cut.
  EXPECT_EQ(ctx.klssGroupCount(3), 3);
  EXPECT_EQ(ctx.klssGroupLimbs(2, 3), (std::vector<int>{3}));
  EXPECT_THROW(ctx.klssGroupLimbs(3, 3), InvalidArgument);
  EXPECT_NEAR(ctx.klssTBitsNeeded(), std::log2(3.0) + 12 + 140 + 180 + 1, 0.5);
  EXPECT_GE(ctx.klssTBits(), ctx.klssTBitsNeeded());
  EXPECT_EQ(klssKeyBytes(ctx), size_t(3) * 4 * 2 * 6 * 4096 * 8);
  EXPECT_EQ(hybridKeyBytes(ctx), size_t(3) * 2 * 10 * 4096 * 8);
}

TEST(Klss, GammaLargerThanPuQIsOneGroup) {
  // gamma >= K + L + 1 = 10: one group holds all of P u Q (580 bits), which
  // 14 T primes (854 bits) cover. A gamma near INT_MAX (a fuzz_params input)
  // once overflowed int in klssGroupCount and looped up to gamma in
  // klssGroupLimbs.
  for (int gamma : {11, 0x7ffffffe}) {
    ParamSpec spec = klssSpec(14);
    spec.klss_gamma = gamma;
    Context64 ctx(spec);
    EXPECT_EQ(ctx.klssGroupCount(ctx.maxLevel()), 1) << gamma;
    EXPECT_EQ(ctx.klssGroupLimbs(0, ctx.maxLevel()).size(), 10u) << gamma;
    EXPECT_EQ(ctx.klssGroupLimbs(0, 2).size(), 6u) << gamma;
    // The parameter file of such a context loads (a server reads params.bin;
    // fhe-to-ckks picks gamma >= |Q| + |P| for short chains).
    auto loaded = deserializeParams(serializeParams(ctx));
    EXPECT_EQ(loaded->hash(), ctx.hash()) << gamma;
    EXPECT_EQ(loaded->klssGroupCount(loaded->maxLevel()), 1) << gamma;
  }
}

TEST(Klss, ShortTemporaryBasisIsRejectedWithTheBitsNeeded) {
  try {
    Context64 ctx(klssSpec(5));
    FAIL() << "a 305-bit T was accepted";
  } catch (const InvalidArgument &e) {
    EXPECT_NE(std::string(e.what()).find("temporary basis T"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("add T primes"), std::string::npos);
  }
  ParamSpec no_t = klssSpec();
  no_t.t_bits.clear();
  EXPECT_THROW(Context64{no_t}, InvalidArgument);
  ParamSpec plain = klssSpec();
  plain.klss_gamma = 0;
  plain.t_bits.clear();
  Context64 hybrid_only(plain);
  EXPECT_FALSE(hybrid_only.hasKlss());
  EXPECT_THROW(hybrid_only.klssGroupCount(0), InvalidArgument);
}

TEST(Klss, ExactBConvMatchesCrtOverTwoPrimes) {
  // B = q1 q2 (80 bits): the centred CRT value in __int128, reduced mod every
  // target (P and T primes), must equal the conversion; the fast centred
  // conversion may differ by a multiple of B.
  Context64 ctx(klssSpec());
  Prng prng;
  const std::vector<int> from = {1, 2};
  std::vector<int> to = ctx.pBasis();
  for (int t : ctx.tBasis())
    to.push_back(t);
  Poly64 in = test::randomPoly(ctx, prng, from, false);
  // Coefficients at the edges of the centred range, too.
  const uint64_t b0 = ctx.primes()[1], b1 = ctx.primes()[2];
  in.limb(0)[0] = 0, in.limb(1)[0] = 0;
  in.limb(0)[1] = b0 - 1, in.limb(1)[1] = b1 - 1; // -1
  Poly64 out = cpu::bconvExact(ctx, in, to);
  const i128 big = i128(b0) * b1;
  for (size_t k = 0; k < ctx.n(); ++k) {
    // CRT: x = x0 + b0 * ((x1 - x0) * b0^-1 mod b1), then centred.
    const uint64_t x0 = in.limb(0)[k], x1 = in.limb(1)[k];
    const uint64_t inv_b0 = detail::powMod64(b0 % b1, b1 - 2, b1);
    const uint64_t diff = (x1 + b1 - x0 % b1) % b1;
    i128 x = i128(x0) + i128(b0) * detail::mulMod64(diff, inv_b0, b1);
    if (x > big / 2)
      x -= big;
    for (size_t t = 0; t < to.size(); ++t) {
      const i128 q = ctx.primes()[to[t]];
      const uint64_t want = static_cast<uint64_t>(((x % q) + q) % q);
      ASSERT_EQ(out.limb(t)[k], want) << "coefficient " << k << " target " << t;
    }
  }
}

struct Fixture {
  explicit Fixture(const ParamSpec &spec)
      : ctx(spec), keygen(ctx, prng), encoder(ctx), encryptor(ctx, prng),
        decryptor(ctx, keygen.secretKey()), eval(ctx) {
    pk = keygen.publicKey();
  }
  std::vector<Complex> random(size_t slots) {
    std::vector<Complex> v(slots);
    for (auto &x : v)
      x = {double(prng.uniform(1 << 20)) / (1 << 19) - 1,
           double(prng.uniform(1 << 20)) / (1 << 19) - 1};
    return v;
  }
  Ciphertext encrypt(const std::vector<Complex> &v, int level) {
    return encryptor.encrypt(
        encoder.encode(v, level, std::ldexp(1.0, 40), v.size()), pk);
  }
  double bits(const Ciphertext &ct, const std::vector<Complex> &want) {
    auto got = encoder.decode(decryptor.decrypt(ct));
    double err = 0;
    for (size_t i = 0; i < want.size(); ++i)
      err = std::max(err, std::abs(got[i] - want[i]));
    return -std::log2(err);
  }
  Prng prng;
  Context64 ctx;
  KeyGenerator keygen;
  Encoder encoder;
  Encryptor encryptor;
  Decryptor decryptor;
  Evaluator eval;
  PublicKey pk;
};

TEST(Klss, InnerProductEqualsHybridOnExactDigits) {
  // KLSS computes sum_i d_i k_i exactly in T. The hybrid inner product of the
  // same exactly converted digits (the digit's own limbs kept, the rest by
  // bconvExact) must give the same residues over Q_l u P, at every level.
  Fixture f(klssSpec());
  const RelinKey rk = f.keygen.relinKey();
  const KlssKey kk = klssKeyFromHybrid(f.ctx, rk.key);
  EXPECT_EQ(kk.digits, 3);
  EXPECT_EQ(kk.groups, 4);
  for (int level : {6, 4, 2, 0}) {
    const std::vector<int> qp = f.ctx.qpBasis(level);
    Poly64 d = test::randomPoly(f.ctx, f.prng, f.ctx.qBasis(level), true);
    std::vector<Poly64> raised, tdigits;
    for (int i = 0; i < f.ctx.digitCount(level); ++i) {
      const std::vector<int> limbs = f.ctx.digitLimbs(i, level);
      Poly64 digit = cpu::selectLimbs(d, limbs);
      tdigits.push_back(cpu::klssModUp(f.ctx, digit));
      cpu::intt(f.ctx, digit);
      std::vector<int> others;
      for (int idx : qp)
        if (std::find(limbs.begin(), limbs.end(), idx) == limbs.end())
          others.push_back(idx);
      Poly64 rest = cpu::bconvExact(f.ctx, digit, others);
      Poly64 full(qp, f.ctx.n(), false);
      for (size_t j = 0; j < qp.size(); ++j) {
        const Poly64 &src =
            std::find(limbs.begin(), limbs.end(), qp[j]) != limbs.end() ? digit
                                                                        : rest;
        const size_t at = std::find(src.basis.begin(), src.basis.end(), qp[j]) -
                          src.basis.begin();
        std::copy(src.limb(at), src.limb(at) + f.ctx.n(), full.limb(j));
      }
      cpu::ntt(f.ctx, full);
      raised.push_back(std::move(full));
    }
    std::vector<const Poly64 *> rp, tp;
    for (auto &p : raised)
      rp.push_back(&p);
    for (auto &p : tdigits)
      tp.push_back(&p);
    Poly64 h0, h1, k0, k1;
    keySwitchInnerProduct(f.ctx, rk.key, rp, h0, h1);
    { // Digits read permuted (galois) == the permuted digits' product.
      const uint64_t galois =
          galoisElementForRotation(f.ctx, 5, f.ctx.slotsMax());
      std::vector<Poly64> permuted;
      std::vector<const Poly64 *> pp;
      for (const Poly64 &p : raised)
        permuted.push_back(cpu::automorphism(f.ctx, p, galois));
      for (const Poly64 &p : permuted)
        pp.push_back(&p);
      Poly64 g0, g1, w0, w1;
      keySwitchInnerProduct(f.ctx, rk.key, rp, g0, g1, galois);
      keySwitchInnerProduct(f.ctx, rk.key, pp, w0, w1);
      EXPECT_EQ(g0.data, w0.data) << "galois " << galois;
      EXPECT_EQ(g1.data, w1.data) << "galois " << galois;
      EXPECT_NE(g0.data, h0.data); // the permutation is not the identity
    }
    klssInnerProduct(f.ctx, kk, tp, level, k0, k1);
    cpu::intt(f.ctx, h0);
    cpu::intt(f.ctx, h1);
    ASSERT_EQ(k0.basis, qp);
    EXPECT_FALSE(k0.ntt);
    EXPECT_EQ(k0.data, h0.data) << "level " << level;
    EXPECT_EQ(k1.data, h1.data) << "level " << level;
  }
}

TEST(Klss, RelinearizeAndRotateMatchHybridAfterDecryption) {
  Fixture f(klssSpec());
  const RelinKey rk = f.keygen.relinKey();
  const KlssRelinKey krk = f.keygen.klssRelinKey();
  const size_t slots = 2048;
  const std::vector<uint64_t> elements = {
      galoisElementForRotation(f.ctx, 3, slots),
      galoisElementForConjugation(f.ctx)};
  const GaloisKeys gk = f.keygen.galoisKeys(elements);
  const KlssGaloisKeys kgk = f.keygen.klssGaloisKeys(elements);
  for (int level : {6, 3, 1}) {
    auto a = f.random(slots), b = f.random(slots);
    Ciphertext ca = f.encrypt(a, level), cb = f.encrypt(b, level);
    std::vector<Complex> prod(slots), rot(slots), conj(slots);
    for (size_t i = 0; i < slots; ++i) {
      prod[i] = a[i] * b[i];
      rot[i] = a[(i + 3) % slots];
      conj[i] = std::conj(a[i]);
    }
    const Ciphertext hy = f.eval.rescale(f.eval.multiplyRelin(ca, cb, rk));
    const Ciphertext kl = f.eval.rescale(f.eval.multiplyRelin(ca, cb, krk));
    const double hy_bits = f.bits(hy, prod), kl_bits = f.bits(kl, prod);
    EXPECT_GT(kl_bits, 20) << "level " << level;
    EXPECT_GT(kl_bits, hy_bits - 1) << "level " << level;
    EXPECT_GT(f.bits(f.eval.rotate(ca, 3, kgk), rot), 20) << level;
    EXPECT_GT(f.bits(f.eval.conjugate(ca, kgk), conj), 20) << level;
    EXPECT_GT(f.bits(f.eval.rotate(ca, 3, gk), rot), 20) << level;
  }
  // A missing KLSS key is named, like a missing hybrid one.
  Ciphertext c = f.encrypt(f.random(slots), 6);
  EXPECT_THROW(f.eval.rotate(c, 5, kgk), MissingKey);
  EXPECT_THROW(f.eval.relinearize(f.eval.multiply(c, c), KlssRelinKey{}),
               MissingKey);
}

TEST(Klss, KeysNeedAKlssForm) {
  ParamSpec plain = klssSpec();
  plain.klss_gamma = 0;
  plain.t_bits.clear();
  Fixture f(plain);
  EXPECT_THROW(f.keygen.klssRelinKey(), InvalidArgument);
}

} // namespace
} // namespace ember
