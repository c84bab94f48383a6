// CKKS at 32-bit words with double-prime scaling (Cheddar 3.1): the same
// residues as 64-bit words on the same primes, and precision on a 128-bit
// secure chain of 30-bit primes whose pairs carry a scale of 2^50.
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
#include <cstdio>

namespace ember {
namespace {

using Complex = std::complex<double>;

using test::bitsOfPrecision;

std::vector<Complex> randomValues(Prng &prng, size_t slots) {
  std::vector<Complex> v(slots);
  for (auto &x : v)
    x = {double(prng.uniform(1 << 20)) / (1 << 19) - 1,
         double(prng.uniform(1 << 20)) / (1 << 19) - 1};
  return v;
}

Prng::Seed seed(uint8_t b) {
  Prng::Seed s{};
  s.fill(b);
  return s;
}

/// One party at either word: keys, encoder, evaluator.
template <typename Word> struct Party {
  Party(const Context<Word> &c, uint8_t s)
      : ctx(c), prng(seed(s)), keygen(ctx, prng), encoder(ctx),
        encryptor(ctx, prng), decryptor(ctx, keygen.secretKey()), eval(ctx),
        pk(keygen.publicKey()), rk(keygen.relinKey()) {}
  BasicCiphertext<Word> encrypt(const std::vector<Complex> &v, int level) {
    return encryptor.encrypt(
        encoder.encode(v, level, std::ldexp(1.0, ctx.spec().log_scale),
                       v.size()),
        pk);
  }
  std::vector<Complex> decrypt(const BasicCiphertext<Word> &ct) {
    return encoder.decode(decryptor.decrypt(ct));
  }
  const Context<Word> &ctx;
  Prng prng;
  BasicKeyGenerator<Word> keygen;
  BasicEncoder<Word> encoder;
  BasicEncryptor<Word> encryptor;
  BasicDecryptor<Word> decryptor;
  BasicEvaluator<Word> eval;
  BasicPublicKey<Word> pk;
  BasicRelinKey<Word> rk;
};

/// 128-bit secure at N = 2^14 (log QP 290 of 438): q_0 of 30 bits, 4 pairs
/// of 25-bit primes carrying 2^50, P = 2 x 30 bits over digits of at most
/// 55 bits (dnum 5: 2, 2, 2, 2, 1 limbs).
ParamSpec doublePrimeSpec() {
  ParamSpec spec;
  spec.name = "dp14";
  spec.log_n = 14;
  spec.q_bits = {30, 25, 25, 25, 25, 25, 25, 25, 25};
  spec.p_bits = {30, 30};
  spec.dnum = 5;
  spec.log_scale = 50;
  spec.scale_primes = 2;
  return spec;
}

bool sameResidues(const Poly32 &a, const Poly64 &b) {
  return a.basis == b.basis && a.ntt == b.ntt &&
         std::equal(a.data.begin(), a.data.end(), b.data.begin(), b.data.end(),
                    [](uint32_t x, uint64_t y) { return x == y; });
}

bool sameResidues(const Ciphertext32 &a, const Ciphertext &b) {
  if (a.c.size() != b.c.size() || a.level != b.level || a.scale != b.scale)
    return false;
  for (size_t i = 0; i < a.c.size(); ++i)
    if (!sameResidues(a.c[i], b.c[i]))
      return false;
  return true;
}

TEST(Words, SameResiduesAtBothWordsOnTheSamePrimes) {
  // Primes below 2^30 make a Context64 and a Context32 of one chain: keys,
  // encryptions and every operation must give the same residues, so the
  // 32-bit reductions (lazy sums folded every 8 products) are exact.
  ParamSpec spec;
  spec.name = "words-insecure";
  spec.log_n = 12;
  spec.dnum = 3;
  spec.log_scale = 50;
  spec.scale_primes = 2;
  spec.security = Security::kInsecureTestOnly;
  const std::vector<uint64_t> q = generateDoublePrimeChain(12, 30, 3, 50);
  const std::vector<uint64_t> p = generateNttPrimes(12, {30, 30, 30}, q);
  const Context32 c32(spec, q, p);
  const Context64 c64(spec, q, p);
  Party<uint32_t> a(c32, 7);
  Party<uint64_t> b(c64, 7);
  EXPECT_TRUE(sameResidues(a.keygen.secretKey().s, b.keygen.secretKey().s));
  for (size_t j = 0; j < b.rk.key.b.size(); ++j)
    EXPECT_TRUE(sameResidues(a.rk.key.b[j], b.rk.key.b[j])) << j;
  Prng values(seed(1));
  const auto x = randomValues(values, 2048), y = randomValues(values, 2048);
  const int top = c32.maxLevel();
  const Ciphertext32 x32 = a.encrypt(x, top), y32 = a.encrypt(y, top);
  const Ciphertext x64 = b.encrypt(x, top), y64 = b.encrypt(y, top);
  ASSERT_TRUE(sameResidues(x32, x64));
  const Ciphertext32 m32 = a.eval.multiplyRelin(x32, y32, a.rk);
  const Ciphertext m64 = b.eval.multiplyRelin(x64, y64, b.rk);
  EXPECT_TRUE(sameResidues(m32, m64));
  EXPECT_TRUE(sameResidues(a.eval.rescale(m32), b.eval.rescale(m64)));
  const uint64_t g = galoisElementForRotation(c32, 5, 2048);
  const GaloisKeys32 gk32 = a.keygen.galoisKeys({g});
  const GaloisKeys gk64 = b.keygen.galoisKeys({g});
  EXPECT_TRUE(
      sameResidues(a.eval.rotate(x32, 5, gk32), b.eval.rotate(x64, 5, gk64)));
  EXPECT_TRUE(
      sameResidues(a.eval.mulConst(x32, 0.25), b.eval.mulConst(x64, 0.25)));
}

TEST(Ckks32, DoublePrimeChainKeepsTheScaleAndThePrecision) {
  const Context32 ctx(doublePrimeSpec());
  ASSERT_EQ(ctx.qCount(), 9);
  EXPECT_EQ(ctx.scalePrimes(), 2);
  Party<uint32_t> f(ctx, 3);
  Prng values(seed(2));
  const size_t slots = ctx.slotsMax();
  auto v = randomValues(values, slots);
  for (auto &x : v)
    x = {x.real(), 0.0}; // real values: squaring keeps them in [-1, 1]
  Ciphertext32 ct = f.encrypt(v, ctx.maxLevel());
  // A fresh public-key encryption: v e + e_0 + e_1 s has a standard
  // deviation near sqrt(2N/3) sigma = 2^8.4 per coefficient; decoding sums
  // N coefficients per slot (2^15.4), and the largest of 2^13 slots lies
  // near 4 deviations: 2^17.4 / 2^50, about 32.6 bits.
  EXPECT_GT(bitsOfPrecision(f.decrypt(ct), v), 30);
  std::vector<Complex> want = v;
  const double delta = std::ldexp(1.0, 50);
  // Square down the chain: each step multiplies, relinearizes and divides
  // by a pair, landing two levels lower at a scale within 2^-6 of 2^50
  // (the chain's construction; the tests of generateDoublePrimeChain bound
  // it to 2^-10 at N = 2^16).
  while (ct.level >= 2 + ctx.scalePrimes()) {
    const int level = ct.level;
    ct = f.eval.rescale(f.eval.multiplyRelin(ct, ct, f.rk));
    EXPECT_EQ(ct.level, level - 2);
    EXPECT_LT(std::fabs(std::log2(ct.scale / delta)), 1.0 / 64);
    for (auto &x : want)
      x *= x;
  }
  EXPECT_EQ(ct.level, 2);
  // Three squarings of values in [-1, 1]: each at most doubles the error
  // (d(x^2) = 2 x dx), and the rescale's rounding and the relinearization
  // noise stay below the fresh error: about 3 bits off the fresh 30.
  EXPECT_GT(bitsOfPrecision(f.decrypt(ct), want), 27);
  // Dividing by a pair at level 1 would leave only part of q_0.
  Ciphertext32 low = f.eval.modDropTo(ct, 1);
  EXPECT_THROW(f.eval.rescale(low), LevelMismatch);
}

TEST(Ckks32, RotationsAndPlaintextOperations) {
  const Context32 ctx(doublePrimeSpec());
  Party<uint32_t> f(ctx, 4);
  Prng values(seed(5));
  const size_t slots = 1024;
  auto a = randomValues(values, slots), b = randomValues(values, slots);
  const int level = ctx.maxLevel();
  const GaloisKeys32 gk =
      f.keygen.galoisKeys({galoisElementForRotation(ctx, 3, slots),
                           galoisElementForConjugation(ctx)});
  Ciphertext32 ct = f.encrypt(a, level);
  std::vector<Complex> rot(slots), conj(slots), prod(slots);
  for (size_t i = 0; i < slots; ++i) {
    rot[i] = a[(i + 3) % slots];
    conj[i] = std::conj(a[i]);
    prod[i] = a[i] * b[i];
  }
  EXPECT_GT(bitsOfPrecision(f.decrypt(f.eval.rotate(ct, 3, gk)), rot), 30);
  EXPECT_GT(bitsOfPrecision(f.decrypt(f.eval.conjugate(ct, gk)), conj), 30);
  EXPECT_THROW(f.eval.rotate(ct, 1, gk), MissingKey);
  const Plaintext32 pb = f.encoder.encode(b, level, ct.scale, slots);
  EXPECT_GT(
      bitsOfPrecision(f.decrypt(f.eval.rescale(f.eval.mulPlain(ct, pb))), prod),
      30);
  // mulConst's default scale is the pair the rescale divides by: exactly
  // back to the input's scale.
  Ciphertext32 scaled = f.eval.rescale(f.eval.mulConst(ct, 0.5));
  EXPECT_NEAR(scaled.scale, ct.scale, ct.scale * 1e-12);
}

TEST(Ckks32, CheddarShapeIsSecureAndKeepsItsScale) {
  ParamSpec spec;
  ASSERT_TRUE(namedParamSpec("cheddar32", spec));
  const Context32 ctx(spec);
  EXPECT_EQ(ctx.qCount(), 47);
  EXPECT_EQ(ctx.pCount(), 12);
  EXPECT_EQ(ctx.digitCount(ctx.maxLevel()), 4);
  EXPECT_LE(ctx.spec().logQP(), maxLogQP128(16));
  // From the top, every pair brings the square of the scale back to 2^58.
  double scale = std::ldexp(1.0, 58);
  for (int level = ctx.maxLevel(); level >= 2; level -= 2) {
    scale = scale * scale /
            (double(ctx.primes()[level]) * double(ctx.primes()[level - 1]));
    EXPECT_LT(std::fabs(std::log2(scale) - 58), 1.0 / 64) << level;
  }
  // 64-bit words do not take double-prime chains from a parameter file.
  const Context64 wide(spec);
  EXPECT_THROW(serializeParams(wide), InvalidArgument);
}

TEST(Ckks32, KlssKeySwitchingAtThirtyTwoBits) {
  // KLSS on the CPU at 32-bit words: T of five 30-bit primes holds the
  // exact products (log2 3 + 12 + 55-bit digits + 60-bit key groups + 1 =
  // 129.6 of 150 bits); KLSS and hybrid relinearisation and rotation
  // decrypt to the same values within the scheme's error.
  ParamSpec spec;
  spec.name = "klss32-insecure";
  spec.log_n = 12;
  spec.q_bits = {30, 25, 25, 25, 25};
  spec.p_bits = {30, 30};
  spec.dnum = 3;
  spec.log_scale = 50;
  spec.scale_primes = 2;
  spec.klss_gamma = 2;
  spec.t_bits.assign(5, 30);
  spec.security = Security::kInsecureTestOnly;
  const Context32 ctx(spec);
  ASSERT_TRUE(ctx.hasKlss());
  EXPECT_LE(ctx.klssTBitsNeeded(), ctx.klssTBits());
  Party<uint32_t> f(ctx, 9);
  const KlssRelinKey32 krk = f.keygen.klssRelinKey();
  const uint64_t g = galoisElementForRotation(ctx, 1, 2048);
  const GaloisKeys32 gk = f.keygen.galoisKeys({g});
  const KlssGaloisKeys32 kgk = f.keygen.klssGaloisKeys({g});
  Prng values(seed(6));
  const auto x = randomValues(values, 2048), y = randomValues(values, 2048);
  const int top = ctx.maxLevel();
  const Ciphertext32 cx = f.encrypt(x, top), cy = f.encrypt(y, top);
  std::vector<Complex> prod(2048), rot(2048);
  for (size_t i = 0; i < 2048; ++i) {
    prod[i] = x[i] * y[i];
    rot[i] = x[(i + 1) % 2048];
  }
  // Fresh error about 2^-32 at N = 2^12 (2^15.4 / 2^50 at the worst slot,
  // as in the 2^14 chain above, less sqrt(4)); a key switch adds less.
  EXPECT_GT(
      bitsOfPrecision(
          f.decrypt(f.eval.rescale(f.eval.multiplyRelin(cx, cy, krk))), prod),
      30);
  EXPECT_GT(bitsOfPrecision(f.decrypt(f.eval.rotate(cx, 1, kgk)), rot), 30);
  std::printf("[ klss32   ] %.1f bits (KLSS rotate), %.1f (hybrid)\n",
              bitsOfPrecision(f.decrypt(f.eval.rotate(cx, 1, kgk)), rot),
              bitsOfPrecision(f.decrypt(f.eval.rotate(cx, 1, gk)), rot));
  EXPECT_GT(bitsOfPrecision(f.decrypt(f.eval.rotate(cx, 1, gk)), rot), 30);
}

TEST(Ckks32, SmallKKlssSetAtThirtyTwoBits) {
  // cheddar32k1: Athena's small-K shape on cheddar32's chain. 128-bit
  // secure (T is no key modulus), a digit per Q limb under the one special
  // prime, 16 key groups of 3 primes at the top, and five 30-bit T primes
  // that hold the exact products (142.6 of 150 bits).
  ParamSpec spec;
  ASSERT_TRUE(namedParamSpec("cheddar32k1", spec));
  EXPECT_NO_THROW(checkSecurity(spec));
  const Context32 ctx(spec);
  ASSERT_TRUE(ctx.hasKlss());
  EXPECT_EQ(ctx.maxLevel(), 46);
  EXPECT_EQ(ctx.digitCount(ctx.maxLevel()), 47);
  EXPECT_EQ(ctx.klssGroupCount(ctx.maxLevel()), 16);
  EXPECT_LE(ctx.klssTBitsNeeded(), ctx.klssTBits());
  EXPECT_GT(ctx.klssTBitsNeeded(), ctx.klssTBits() - 30); // the fewest
  for (int t : ctx.tBasis())
    EXPECT_LT(ctx.primes()[t], uint64_t{1} << 30);
}

TEST(Ckks32, EncapsulationKeysHaveADigitPerBaseLimb) {
  // Bootstrapping's encapsulation at 32-bit words: level 0 is Q_0 = q_0
  // and the base pair, so to_sparse has one digit per limb of Q_0 (each
  // below p_0) over Q_0 u {p_0}. A level-0 ciphertext switched s -> s' the
  // way the compiled program does it (each limb lifted exactly to the
  // others and p_0; inner product; ModDown by p_0), then s' -> s, decrypts
  // to the message again.
  ParamSpec spec = doublePrimeSpec();
  spec.security = Security::kInsecureTestOnly; // no h = 32 bound at 2^14
  const Context32 ctx(spec);
  ASSERT_EQ(ctx.baseLimbs(), 3);
  Party<uint32_t> f(ctx, 11);
  const int p0 = ctx.qCount();
  const size_t n = ctx.n();
  const EncapsulationKeys32 keys = f.keygen.encapsulationKeys(32);
  ASSERT_EQ(keys.to_sparse.b.size(), 3u);
  EXPECT_EQ(keys.from_sparse.b.size(), size_t(ctx.digitCount(ctx.maxLevel())));
  for (size_t j = 0; j < 3; ++j)
    for (const Poly32 *k : {&keys.to_sparse.b[j], &keys.to_sparse.a[j]})
      for (size_t i = 0; i < k->limbs(); ++i) {
        const bool used = k->basis[i] < 3 || k->basis[i] == p0;
        const bool zero = std::all_of(k->limb(i), k->limb(i) + n,
                                      [](uint32_t w) { return !w; });
        EXPECT_EQ(zero, !used) << "digit " << j << ", limb " << k->basis[i];
      }
  Prng values(seed(12));
  const auto v = randomValues(values, 4096);
  const Ciphertext32 ct = f.encrypt(v, 2); // q_0 and the base pair
  Poly32 coeff = ct.c[1];
  cpu::intt(ctx, coeff);
  std::vector<Poly32> digits;
  for (int j = 0; j < 3; ++j) {
    Poly32 own = cpu::selectLimbs(coeff, {j});
    std::vector<int> others;
    for (int i : {0, 1, 2, p0})
      if (i != j)
        others.push_back(i);
    Poly32 up = cpu::bconv(ctx, own, others);
    cpu::ntt(ctx, up);
    Poly32 digit({0, 1, 2, p0}, n, true);
    for (int t = 0; t < 4; ++t) {
      const int m = digit.basis[t];
      const Poly32 &src = m == j ? ct.c[1] : up;
      const size_t at =
          m == j ? size_t(j)
                 : size_t(std::find(others.begin(), others.end(), m) -
                          others.begin());
      std::copy(src.limb(at), src.limb(at) + n, digit.limb(t));
    }
    digits.push_back(std::move(digit));
  }
  Poly32 acc0, acc1;
  keySwitchInnerProduct(ctx, keys.to_sparse,
                        {&digits[0], &digits[1], &digits[2]}, acc0, acc1);
  Ciphertext32 sparse = ct;
  cpu::addInPlace(ctx, sparse.c[0], cpu::modSwitchDown(ctx, acc0, {0, 1, 2}));
  sparse.c[1] = cpu::modSwitchDown(ctx, acc1, {0, 1, 2});
  EXPECT_LT(bitsOfPrecision(f.decrypt(sparse), v), 1); // under s' now
  auto [k0, k1] = f.eval.keySwitch(sparse.c[1], keys.from_sparse);
  Ciphertext32 back = sparse;
  cpu::addInPlace(ctx, back.c[0], k0);
  back.c[1] = k1;
  // Each digit's key noise is divided by p_0 (2^30) against a limb below
  // 2^30: the two switches add less than a bit to the fresh error.
  const double fresh = bitsOfPrecision(f.decrypt(ct), v);
  EXPECT_GT(fresh, 25);
  EXPECT_GT(bitsOfPrecision(f.decrypt(back), v), fresh - 1);
  // cheddar32's Q_0 p_0 (30 + 29 + 29 + 30 bits) is above the h = 32
  // bound at N = 2^16 (117 bits): its encapsulation key is refused.
  ParamSpec cheddar;
  ASSERT_TRUE(namedParamSpec("cheddar32", cheddar));
  const Context32 big(cheddar);
  Prng prng(seed(13));
  KeyGenerator32 kg(big, prng);
  EXPECT_THROW(kg.encapsulationKeys(32), SecurityError);
}

TEST(Ckks32, DoublePrimeShapesAreChecked) {
  ParamSpec spec = doublePrimeSpec();
  spec.q_bits.pop_back(); // q_0 and 3.5 pairs
  EXPECT_THROW(Context32{spec}, InvalidArgument);
  spec = doublePrimeSpec();
  spec.scale_primes = 3;
  EXPECT_THROW(Context32{spec}, InvalidArgument);
  spec = doublePrimeSpec();
  spec.log_scale = 50.5;
  EXPECT_THROW(Context32{spec}, InvalidArgument);
}

} // namespace
} // namespace ember
