// CKKS end to end on small insecure parameters (fast; the set-B tests with
// numpy are in tests/runtime). Precision is asserted in bits: -log2 of the
// largest slot error.
#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/rns.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>

namespace ember {
namespace {

using Complex = std::complex<double>;

ParamSpec smallSpec(int dnum = 3, std::vector<int> q = {},
                    std::vector<int> p = {60, 60, 60}) {
  // P must exceed the largest digit (60 + 40 + 40 bits) to keep the
  // key-switching noise below the scale.
  ParamSpec spec;
  spec.name = "small-insecure";
  spec.log_n = 12;
  spec.q_bits = q.empty() ? std::vector<int>{60, 40, 40, 40, 40, 40, 40} : q;
  spec.p_bits = p;
  spec.dnum = dnum;
  spec.log_scale = 40;
  spec.security = Security::kInsecureTestOnly;
  return spec;
}

using test::bitsOfPrecision;

struct Fixture {
  explicit Fixture(const ParamSpec &spec)
      : ctx(spec), keygen(ctx, prng), encoder(ctx), encryptor(ctx, prng),
        decryptor(ctx, keygen.secretKey()), eval(ctx) {
    pk = keygen.publicKey();
    rk = keygen.relinKey();
  }
  std::vector<Complex> random(size_t slots, bool complex_values = true) {
    std::vector<Complex> v(slots);
    for (auto &x : v) {
      double re = double(prng.uniform(1 << 20)) / (1 << 19) - 1;
      double im = double(prng.uniform(1 << 20)) / (1 << 19) - 1;
      x = {re, complex_values ? im : 0.0};
    }
    return v;
  }
  Ciphertext encrypt(const std::vector<Complex> &v, int level = -1) {
    if (level < 0)
      level = ctx.maxLevel();
    return encryptor.encrypt(
        encoder.encode(v, level, std::ldexp(1.0, 40), v.size()), pk);
  }
  std::vector<Complex> decrypt(const Ciphertext &ct) {
    return encoder.decode(decryptor.decrypt(ct));
  }
  Prng prng;
  Context64 ctx;
  KeyGenerator keygen;
  Encoder encoder;
  Encryptor encryptor;
  Decryptor decryptor;
  Evaluator eval;
  PublicKey pk;
  RelinKey rk;
};

TEST(Ckks, EncodeDecodeRoundTripsAtEverySlotCount) {
  Fixture f(smallSpec());
  for (size_t slots : {size_t{1}, size_t{8}, size_t{512}, size_t{2048}}) {
    auto v = f.random(slots);
    auto pt = f.encoder.encode(v, 3, std::ldexp(1.0, 40), slots);
    EXPECT_GT(bitsOfPrecision(f.encoder.decode(pt), v), 30) << slots;
  }
}

TEST(Ckks, EncryptDecryptPublicAndSymmetric) {
  Fixture f(smallSpec());
  auto v = f.random(2048);
  EXPECT_GT(bitsOfPrecision(f.decrypt(f.encrypt(v)), v), 20);
  auto sym = f.encryptor.encryptSymmetric(
      f.encoder.encode(v, 2, std::ldexp(1.0, 40), 2048), f.keygen.secretKey());
  EXPECT_GT(bitsOfPrecision(f.decrypt(sym), v), 20);
}

TEST(Ckks, MultiplyRelinearizeRescale) {
  Fixture f(smallSpec());
  auto a = f.random(2048), b = f.random(2048);
  Ciphertext prod =
      f.eval.rescale(f.eval.multiplyRelin(f.encrypt(a), f.encrypt(b), f.rk));
  EXPECT_EQ(prod.level, f.ctx.maxLevel() - 1);
  std::vector<Complex> want(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    want[i] = a[i] * b[i];
  EXPECT_GT(bitsOfPrecision(f.decrypt(prod), want), 20);
}

TEST(Ckks, RotationsAndConjugation) {
  Fixture f(smallSpec());
  const size_t slots = 2048;
  std::vector<uint64_t> elements;
  const std::vector<int64_t> steps = {1, 3, -1, -5, 1027};
  for (int64_t k : steps)
    elements.push_back(galoisElementForRotation(f.ctx, k, slots));
  elements.push_back(galoisElementForConjugation(f.ctx));
  GaloisKeys gk = f.keygen.galoisKeys(elements);
  auto v = f.random(slots);
  Ciphertext ct = f.encrypt(v, 4);
  for (int64_t k : steps) {
    std::vector<Complex> want(slots);
    for (size_t i = 0; i < slots; ++i)
      want[i] = v[(i + slots + k % int64_t(slots)) % slots];
    EXPECT_GT(bitsOfPrecision(f.decrypt(f.eval.rotate(ct, k, gk)), want), 20)
        << "rotation by " << k;
  }
  std::vector<Complex> conj(slots);
  for (size_t i = 0; i < slots; ++i)
    conj[i] = std::conj(v[i]);
  EXPECT_GT(bitsOfPrecision(f.decrypt(f.eval.conjugate(ct, gk)), conj), 20);
  EXPECT_THROW(f.eval.rotate(ct, 2, gk), MissingKey);
}

TEST(Ckks, SparseSlotsRotateCyclically) {
  Fixture f(smallSpec());
  const size_t slots = 64;
  GaloisKeys gk =
      f.keygen.galoisKeys({galoisElementForRotation(f.ctx, -3, slots)});
  auto v = f.random(slots);
  std::vector<Complex> want(slots);
  for (size_t i = 0; i < slots; ++i)
    want[i] = v[(i + slots - 3) % slots];
  EXPECT_GT(
      bitsOfPrecision(f.decrypt(f.eval.rotate(f.encrypt(v), -3, gk)), want),
      20);
}

TEST(Ckks, PlaintextAndConstantOperations) {
  Fixture f(smallSpec());
  auto a = f.random(2048), b = f.random(2048);
  Ciphertext ct = f.encrypt(a);
  const double scale = std::ldexp(1.0, 40);
  Plaintext pb = f.encoder.encode(b, ct.level, scale, 2048);
  std::vector<Complex> sum(a.size()), prod(a.size()), affine(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    sum[i] = a[i] + b[i];
    prod[i] = a[i] * b[i];
    affine[i] = a[i] * 0.75 + 0.5;
  }
  EXPECT_GT(bitsOfPrecision(f.decrypt(f.eval.addPlain(ct, pb)), sum), 20);
  EXPECT_GT(
      bitsOfPrecision(f.decrypt(f.eval.rescale(f.eval.mulPlain(ct, pb))), prod),
      20);
  Ciphertext scaled = f.eval.rescale(f.eval.mulConst(ct, 0.75));
  EXPECT_NEAR(scaled.scale, ct.scale, ct.scale * 1e-12); // exact round trip
  EXPECT_GT(bitsOfPrecision(f.decrypt(f.eval.addConst(scaled, 0.5)), affine),
            20);
}

TEST(Ckks, DepthChainUsesEveryLevel) {
  Fixture f(smallSpec());
  auto v = f.random(2048, false);
  Ciphertext ct = f.encrypt(v);
  std::vector<Complex> want = v;
  while (ct.level > 0) {
    ct = f.eval.rescale(f.eval.multiplyRelin(ct, ct, f.rk));
    for (auto &x : want)
      x *= x;
  }
  EXPECT_GT(bitsOfPrecision(f.decrypt(ct), want), 15);
  EXPECT_THROW(f.eval.rescale(ct), LevelMismatch);
}

TEST(Ckks, UnevenDigitsAndFixedHammingWeight) {
  // The set-C shape at small N: 10 Q limbs, dnum 4 -> digits 3, 3, 3, 1.
  ParamSpec spec =
      smallSpec(4, {55, 48, 48, 48, 48, 48, 48, 48, 48, 48}, {56, 56, 56});
  spec.hamming_weight = 64;
  spec.log_scale = 48;
  Fixture f(spec);
  EXPECT_EQ(f.ctx.digitCount(f.ctx.maxLevel()), 4);
  auto a = f.random(2048), b = f.random(2048);
  const double scale = std::ldexp(1.0, 48);
  auto enc = [&](const std::vector<Complex> &v, int level) {
    return f.encryptor.encrypt(f.encoder.encode(v, level, scale, 2048), f.pk);
  };
  std::vector<Complex> want(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    want[i] = a[i] * b[i];
  for (int level : {9, 6, 2}) { // 4, 3 and 1 active digits
    Ciphertext prod = f.eval.rescale(
        f.eval.multiplyRelin(enc(a, level), enc(b, level), f.rk));
    EXPECT_GT(bitsOfPrecision(f.decrypt(prod), want), 20) << level;
  }
}

TEST(Ckks, EncapsulationSwitchesToTheEphemeralSecretAndBack) {
  // Bootstrapping's encapsulation keys (EncapsulationKeys): a level-0
  // ciphertext switched s -> s' over {q_0, p_0} (the compiled program's
  // rns ops, written with the runtime's primitives), then s' -> s with an
  // ordinary key switch, decrypts under s to the message again.
  Fixture f(smallSpec(2, {50, 40, 40}, {60, 60}));
  const Context64 &ctx = f.ctx;
  const int p0 = ctx.qCount();
  const size_t n = ctx.n();
  EncapsulationKeys keys = f.keygen.encapsulationKeys(32);
  ASSERT_EQ(keys.to_sparse.b.size(), 1u);
  EXPECT_EQ(keys.from_sparse.b.size(), size_t(ctx.digitCount(ctx.maxLevel())));
  // to_sparse is published at q_0 p_0 only: zero on every other limb.
  for (const Poly64 *k : {&keys.to_sparse.b[0], &keys.to_sparse.a[0]})
    for (size_t i = 0; i < k->limbs(); ++i) {
      const bool used = k->basis[i] == 0 || k->basis[i] == p0;
      const bool zero =
          std::all_of(k->limb(i), k->limb(i) + n, [](Word64 w) { return !w; });
      EXPECT_EQ(zero, !used) << "limb " << k->basis[i];
    }
  auto v = f.random(2048);
  const double scale = std::ldexp(1.0, 30);
  Ciphertext ct =
      f.encryptor.encrypt(f.encoder.encode(v, 0, scale, 2048), f.pk);
  // c_1 raised exactly to {q_0, p_0}, inner product, ModDown by p_0.
  Poly64 coeff = ct.c[1];
  cpu::intt(ctx, coeff);
  Poly64 up = cpu::bconv(ctx, coeff, {p0});
  cpu::ntt(ctx, up);
  Poly64 digit({0, p0}, n, true);
  std::copy(ct.c[1].limb(0), ct.c[1].limb(0) + n, digit.limb(0));
  std::copy(up.limb(0), up.limb(0) + n, digit.limb(1));
  Poly64 acc0, acc1;
  keySwitchInnerProduct(ctx, keys.to_sparse, {&digit}, acc0, acc1);
  Ciphertext sparse = ct;
  sparse.c[0] = ct.c[0];
  cpu::addInPlace(ctx, sparse.c[0], cpu::modSwitchDown(ctx, acc0, {0}));
  sparse.c[1] = cpu::modSwitchDown(ctx, acc1, {0});
  // Under s' now: s no longer decrypts it.
  EXPECT_LT(bitsOfPrecision(f.decrypt(sparse), v), 1);
  auto [k0, k1] = f.eval.keySwitch(sparse.c[1], keys.from_sparse);
  Ciphertext back = sparse;
  cpu::addInPlace(ctx, back.c[0], k0);
  back.c[1] = k1;
  // The fresh encryption's noise at 2^30 (public key, dense s) leaves
  // about 14 bits; the two switches add less than a bit (ModDown by p_0
  // divides the key's noise by 2^60 against a 50-bit digit).
  const double fresh = bitsOfPrecision(f.decrypt(ct), v);
  EXPECT_GT(fresh, 12);
  EXPECT_GT(bitsOfPrecision(f.decrypt(back), v), fresh - 1);
}

TEST(Ckks, MismatchedOperandsRaiseNamedErrors) {
  Fixture f(smallSpec());
  auto v = f.random(2048);
  Ciphertext a = f.encrypt(v), b = f.encrypt(v, 3);
  EXPECT_THROW(f.eval.add(a, b), LevelMismatch);
  Ciphertext c = f.eval.mulConst(a, 2.0);
  EXPECT_THROW(f.eval.add(a, c), ScaleMismatch);
  EXPECT_THROW(f.encoder.encode(f.random(100), 2, 1e12, 2048), InvalidArgument);
  EXPECT_THROW(f.encoder.encode(f.random(96), 2, 1e12, 96), InvalidArgument);
  EXPECT_THROW(f.eval.modDropTo(b, 5), LevelMismatch);
  EXPECT_THROW(f.eval.relinearize(f.eval.multiply(a, a), RelinKey{}),
               MissingKey);
  EXPECT_EQ(f.eval.modDropTo(a, 3).level, 3);
}

TEST(Security, NamedSetsPassAndOversizedChainsFail) {
  for (const char *name : {"A", "B", "C"}) {
    ParamSpec spec;
    ASSERT_TRUE(namedParamSpec(name, spec));
    EXPECT_NO_THROW(checkSecurity(spec)) << name;
  }
  ParamSpec spec;
  spec.log_n = 13;
  spec.q_bits.assign(6, 50);
  spec.p_bits = {60};
  EXPECT_THROW(checkSecurity(spec), SecurityError); // 360 > 218 bits
  EXPECT_THROW(Context64{spec}, SecurityError);
  spec.security = Security::kInsecureTestOnly;
  EXPECT_NO_THROW(checkSecurity(spec));
  ParamSpec b;
  namedParamSpec("B", b);
  b.log_n = 15; // 1460 bits at N = 2^15
  EXPECT_THROW(checkSecurity(b), SecurityError);
}

TEST(Params, SpecialModulusMustCoverEveryDigit) {
  ParamSpec spec = smallSpec(1, {60, 40, 40}, {60}); // one 140-bit digit
  try {
    Context64 ctx(spec);
    FAIL() << "no error";
  } catch (const InvalidArgument &e) {
    EXPECT_NE(std::string(e.what()).find("special modulus P"),
              std::string::npos);
  }
  EXPECT_NO_THROW(Context64(smallSpec(3, {60, 40, 40}, {60})));
}

// Noise-flooded decryption (Decryptor::decrypt with flooding bits).

TEST(Flooding, FloodingBitsFollowTheStatedFormula) {
  // sigma = sqrt(12 queries) 2^(s/2) t (OpenFHE, LMSS 2022).
  EXPECT_NEAR(floodingBits(10), 10 + 15 + 0.5 * std::log2(12.0), 1e-12);
  EXPECT_NEAR(floodingBits(10, 40, 1024), 10 + 20 + 0.5 * std::log2(12288.0),
              1e-12);
  EXPECT_THROW(floodingBits(10, 0), InvalidArgument);
  EXPECT_THROW(floodingBits(10, 30, 0), InvalidArgument);
}

TEST(Flooding, FloodedDecryptionIsWithinTheStatedBoundAndFresh) {
  Context64 ctx(smallSpec(2, {60, 50}, {60, 60}));
  Prng prng;
  KeyGenerator keygen(ctx, prng);
  Encoder encoder(ctx);
  Encryptor encryptor(ctx, prng);
  Decryptor decryptor(ctx, keygen.secretKey());
  const size_t slots = ctx.slotsMax();
  const double scale = std::ldexp(1.0, 50);
  std::vector<double> x(slots);
  for (size_t i = 0; i < slots; ++i)
    x[i] = std::sin(0.01 * double(i));
  Ciphertext ct =
      encryptor.encrypt(encoder.encode(x, 1, scale, slots), keygen.publicKey());
  const auto exact = encoder.decode(decryptor.decrypt(ct));
  const double bits = 30;
  // Per real and imaginary part of a slot: standard deviation
  // 2^bits sqrt(slots) / scale (ckks.h).
  const double sd = std::ldexp(std::sqrt(double(slots)), int(bits)) / scale;
  const auto one = encoder.decode(decryptor.decrypt(ct, bits, prng));
  const auto two = encoder.decode(decryptor.decrypt(ct, bits, prng));
  double sum2 = 0, worst = 0;
  size_t differ = 0;
  for (size_t i = 0; i < slots; ++i) {
    const Complex d = one[i] - exact[i];
    worst = std::max({worst, std::abs(d.real()), std::abs(d.imag())});
    sum2 += std::norm(d);
    differ += one[i] != two[i];
  }
  EXPECT_LT(worst, 8 * sd); // 8 standard deviations: p < 2^-45 per part
  const double measured = std::sqrt(sum2 / (2 * slots));
  EXPECT_GT(measured, 0.8 * sd) << "the noise is not of the stated size";
  EXPECT_LT(measured, 1.2 * sd);
  EXPECT_GT(differ, slots - 2) << "two flooded decryptions agree";
  // Out of range: negative, NaN, or a slot error of 1 or more.
  EXPECT_THROW(decryptor.decrypt(ct, -1, prng), InvalidArgument);
  EXPECT_THROW(decryptor.decrypt(ct, std::nan(""), prng), InvalidArgument);
  EXPECT_THROW(decryptor.decrypt(ct, 45, prng), InvalidArgument);
}

} // namespace
} // namespace ember
