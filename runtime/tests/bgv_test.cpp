// BGV: batch encoding against naive polynomial arithmetic mod t, the
// t-corrected modulus switch against exact integers, and encrypted programs
// against modular arithmetic on the slot vectors.
#include "ember/bfv.h"
#include "ember/bgv.h"
#include "ember/errors.h"
#include "ember/rns.h"
#include "test_util.h"

#include <gtest/gtest.h>

namespace ember {
namespace {

using Wide = __int128;

std::vector<int64_t> randomValues(Prng &prng, size_t count, uint64_t t) {
  std::vector<int64_t> v(count);
  for (int64_t &x : v)
    x = static_cast<int64_t>(prng.uniform(t));
  return v;
}

/// Negacyclic product of two coefficient vectors mod t, naively.
std::vector<uint64_t> negacyclic(const std::vector<uint64_t> &a,
                                 const std::vector<uint64_t> &b, uint64_t t) {
  const size_t n = a.size();
  std::vector<uint64_t> out(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      const uint64_t p = static_cast<uint64_t>(Wide(a[i]) * b[j] % t);
      const size_t k = (i + j) % n;
      out[k] = (i + j < n) ? (out[k] + p) % t : (out[k] + t - p) % t;
    }
  return out;
}

TEST(BgvEncoder, SlotsAreARingHomomorphismWithRotations) {
  // N = 16, t = 97 = 1 (mod 32): products and X -> X^5 computed on the
  // coefficients (naive, mod t) decode to slot-wise products and a left
  // rotation by one.
  Context64 ctx = test::toyContext(4, {30, 30}, {30}, 2);
  const uint64_t t = 97;
  BgvEncoder enc(ctx, t);
  Prng prng(Prng::Seed{1});
  for (size_t slots : {size_t{8}, size_t{4}, size_t{1}}) {
    std::vector<int64_t> a = randomValues(prng, slots, t);
    std::vector<int64_t> b = randomValues(prng, slots, t);
    std::vector<uint64_t> ma = enc.encodeCoefficients(a, slots);
    std::vector<uint64_t> mb = enc.encodeCoefficients(b, slots);
    std::vector<uint64_t> back = enc.decodeCoefficients(ma, slots);
    std::vector<uint64_t> prod =
        enc.decodeCoefficients(negacyclic(ma, mb, t), slots);
    std::vector<uint64_t> rotated(ctx.n(), 0);
    for (size_t k = 0; k < ctx.n(); ++k) { // X^k -> X^(5k) mod X^N + 1
      const size_t e = 5 * k % (2 * ctx.n());
      rotated[e % ctx.n()] = e < ctx.n() ? ma[k] : (t - ma[k]) % t;
    }
    std::vector<uint64_t> rot = enc.decodeCoefficients(rotated, slots);
    for (size_t i = 0; i < slots; ++i) {
      EXPECT_EQ(back[i], static_cast<uint64_t>(a[i]));
      EXPECT_EQ(prod[i], static_cast<uint64_t>(a[i] * b[i] % t));
      EXPECT_EQ(rot[i], static_cast<uint64_t>(a[(i + 1) % slots]));
    }
  }
  // Negative and large values are taken mod t.
  std::vector<uint64_t> m = enc.encodeCoefficients({-1, 97 + 5}, 2);
  std::vector<uint64_t> v = enc.decodeCoefficients(m, 2);
  EXPECT_EQ(v[0], 96u);
  EXPECT_EQ(v[1], 5u);
}

TEST(BgvEncoder, RejectsModuliThatDoNotBatch) {
  Context64 ctx = test::toyContext(4, {30, 30}, {30}, 2);
  EXPECT_THROW(BgvEncoder(ctx, 65), InvalidArgument); // not prime
  EXPECT_THROW(BgvEncoder(ctx, 67), InvalidArgument); // 67 != 1 mod 32
  EXPECT_THROW(BgvEncoder(ctx, 2), InvalidArgument);  // too small
  EXPECT_THROW(BgvEncoder(ctx, 1u << 31), InvalidArgument);
  BgvEncoder enc(ctx, 97);
  EXPECT_THROW(enc.encodeCoefficients({1, 2, 3}, 3), InvalidArgument);
  EXPECT_THROW(enc.encodeCoefficients({1, 2}, 4), InvalidArgument);
}

/// Centred CRT of coefficient k of p (at most 4 limbs of <= 30 bits).
Wide centredValue(const Context64 &ctx, const Poly64 &p, size_t k) {
  Wide value = 0, product = 1;
  for (size_t i = 0; i < p.limbs(); ++i) { // Garner, in 128-bit integers
    const uint64_t q = ctx.modulus(p.basis[i]).value();
    const uint64_t current = static_cast<uint64_t>(((value % q) + q) % q);
    const uint64_t inv =
        ctx.modulus(p.basis[i]).inv(static_cast<uint64_t>(product % q));
    uint64_t digit = (p.limb(i)[k] + q - current) % q;
    digit = static_cast<uint64_t>(Wide(digit) * inv % q);
    value += Wide(digit) * product;
    product *= q;
  }
  return value > product / 2 ? value - product : value;
}

TEST(BgvModSwitch, SubtractsAMultipleOfTheDroppedModulusThatIsZeroModT) {
  // Q = two 28-bit primes, D = P = two 28-bit primes. For x of 100 bits:
  // x - out D is a multiple of t, at most t D (|D| + 1) / 2, so out = x D^-1
  // (mod t): the BGV message survives with its factor times D^-1.
  Context64 ctx = test::toyContext(4, {28, 28}, {28, 28});
  const uint64_t t = 65537;
  Prng prng(Prng::Seed{2});
  const std::vector<int> qp = ctx.qpBasis(1), q = ctx.qBasis(1);
  Poly64 x(qp, ctx.n(), false);
  std::vector<Wide> values(ctx.n());
  for (size_t k = 0; k < ctx.n(); ++k) {
    Wide v = (Wide(prng.next64() >> 28) << 64) | prng.next64(); // < 2^100
    values[k] = (k % 2) ? -v : v;
    for (size_t i = 0; i < qp.size(); ++i) {
      const uint64_t m = ctx.modulus(qp[i]).value();
      x.limb(i)[k] = static_cast<uint64_t>(((values[k] % m) + m) % m);
    }
  }
  Wide d = 1;
  for (int index : ctx.pBasis())
    d *= ctx.modulus(index).value();
  Poly64 out = cpu::modSwitchDown(ctx, x, q, t);
  for (size_t k = 0; k < ctx.n(); ++k) {
    const Wide y = centredValue(ctx, out, k);
    const Wide diff = values[k] - y * d;
    EXPECT_EQ(diff % Wide(t), 0) << "coefficient " << k;
    EXPECT_LE(diff < 0 ? -diff : diff, Wide(t) * d * 3 / 2) << k;
  }
  // NTT form gives the NTT of the same result.
  Poly64 x_ntt = x;
  cpu::ntt(ctx, x_ntt);
  Poly64 out_ntt = cpu::modSwitchDown(ctx, x_ntt, q, t);
  cpu::ntt(ctx, out);
  EXPECT_EQ(out_ntt.data, out.data);
}

/// N = 2^14, Q = 60 + 6 x 40 bits, P = 2 x 60 (420 bits, 128-bit secure), t
/// = 65537: six multiplicative levels.
ParamSpec bgvSpec() {
  ParamSpec spec;
  spec.name = "bgv14";
  spec.log_n = 14;
  spec.q_bits = {60, 40, 40, 40, 40, 40, 40};
  spec.p_bits = {60, 60};
  spec.dnum = 3;
  return spec;
}

struct BgvFixture : ::testing::Test {
  static constexpr uint64_t kT = 65537;
  Context64 ctx{bgvSpec()};
  Prng prng{Prng::Seed{3}};
  KeyGenerator keygen{ctx, prng, kT};
  BgvEncoder encoder{ctx, kT};
  BgvEvaluator eval{ctx, kT};
  Encryptor encryptor{ctx, prng, kT};
  Decryptor decryptor{ctx, keygen.secretKey()};
  PublicKey pk = keygen.publicKey();
  RelinKey rk = keygen.relinKey();

  Ciphertext encrypt(const std::vector<int64_t> &v, size_t slots) {
    return encryptor.encrypt(encoder.encode(v, ctx.maxLevel(), slots), pk);
  }
  std::vector<uint64_t> decrypt(const Ciphertext &ct) {
    return encoder.decode(decryptor.decrypt(ct));
  }
  int budget(const Ciphertext &ct) {
    return encoder.noiseBudget(decryptor.decrypt(ct));
  }
};

uint64_t mulMod(uint64_t a, uint64_t b, uint64_t t) { return a * b % t; }

TEST_F(BgvFixture, ProgramsDecryptToModularArithmetic) {
  const size_t slots = ctx.slotsMax();
  std::vector<int64_t> a = randomValues(prng, slots, kT);
  std::vector<int64_t> b = randomValues(prng, slots, kT);
  Ciphertext ca = encrypt(a, slots), cb = encrypt(b, slots);
  EXPECT_EQ(decrypt(ca), std::vector<uint64_t>(a.begin(), a.end()));
  const int fresh = budget(ca);
  EXPECT_GT(fresh, 150); // log Q = 300 bits, fresh noise about 2^(17+20)

  // a b (level 5, factor q_6^-1), then + a (level 6, factor 1): aligned.
  Ciphertext ab = eval.multiplyRelin(ca, cb, rk);
  EXPECT_EQ(ab.level, ctx.maxLevel() - 1);
  EXPECT_NE(ab.scale, 1.0);
  Ciphertext sum = eval.add(ab, ca);
  Ciphertext diff = eval.sub(ca, ab);
  // c (a b + a) - 7 a b + 12345 with a plaintext c.
  std::vector<int64_t> c = randomValues(prng, slots, kT);
  Ciphertext prod = eval.mulPlain(sum, encoder.encode(c, sum.level, slots));
  Ciphertext out = eval.addInt(eval.sub(prod, eval.mulInt(ab, -7)), 12345);
  std::vector<uint64_t> got_sum = decrypt(sum), got_diff = decrypt(diff),
                        got = decrypt(out);
  for (size_t i = 0; i < slots; ++i) {
    const uint64_t ua = a[i], ub = b[i], uc = c[i];
    const uint64_t p = mulMod(ua, ub, kT);
    ASSERT_EQ(got_sum[i], (p + ua) % kT) << i;
    ASSERT_EQ(got_diff[i], (ua + kT - p) % kT) << i;
    const uint64_t want = (mulMod(uc, (p + ua) % kT, kT) + 7 * p + 12345) % kT;
    ASSERT_EQ(got[i], want) << i;
  }
  // Plaintext addition at the ciphertext's factor.
  Ciphertext plus = eval.addPlain(
      ab, encoder.encode(c, ab.level, slots, static_cast<uint64_t>(ab.scale)));
  std::vector<uint64_t> got_plus = decrypt(plus);
  for (size_t i = 0; i < slots; ++i)
    ASSERT_EQ(got_plus[i], (mulMod(a[i], b[i], kT) + c[i]) % kT);
  EXPECT_THROW(eval.addPlain(ab, encoder.encode(c, ab.level, slots)),
               ScaleMismatch);
}

TEST_F(BgvFixture, SixSquaringsExhaustTheChainWithBudgetLeft) {
  const size_t slots = 64; // periodic over the rows
  std::vector<int64_t> a = randomValues(prng, slots, kT);
  Ciphertext ct = encrypt(a, slots);
  std::vector<uint64_t> want(a.begin(), a.end());
  int last = budget(ct);
  for (int depth = 1; depth <= ctx.maxLevel(); ++depth) {
    ct = eval.multiplyRelin(ct, ct, rk);
    for (uint64_t &w : want)
      w = mulMod(w, w, kT);
    ASSERT_EQ(decrypt(ct), want) << "depth " << depth;
    const int now = budget(ct);
    EXPECT_GT(now, 0) << "depth " << depth;
    EXPECT_LT(now, last) << "depth " << depth;
    last = now;
  }
  EXPECT_EQ(ct.level, 0);
  EXPECT_THROW(eval.modSwitch(ct), LevelMismatch);
  // The factor can be made 1 for the client.
  Ciphertext plain_factor = eval.normalizeFactor(ct);
  EXPECT_EQ(plain_factor.scale, 1.0);
  EXPECT_EQ(decrypt(plain_factor), want);
}

TEST_F(BgvFixture, RotationsAndKeysWithTheTError) {
  const size_t slots = 256;
  std::vector<uint64_t> galois;
  for (int64_t k : {1, 5, -3})
    galois.push_back(galoisElementForRotation(ctx, k, slots));
  GaloisKeys keys = keygen.galoisKeys(galois);
  std::vector<int64_t> a = randomValues(prng, slots, kT);
  Ciphertext ct = encrypt(a, slots);
  Ciphertext low = eval.modSwitch(ct); // rotations at a lower level too
  for (int64_t k : {1, 5, -3}) {
    for (const Ciphertext *in : {&ct, &low}) {
      std::vector<uint64_t> got = decrypt(eval.rotate(*in, k, keys));
      for (size_t i = 0; i < slots; ++i)
        ASSERT_EQ(got[i],
                  static_cast<uint64_t>(a[((i + k) % slots + slots) % slots]))
            << "k = " << k << ", slot " << i;
    }
  }
  EXPECT_THROW(eval.rotate(ct, 2, keys), MissingKey);
  // A CKKS key generator (error factor 1) does not give BGV keys: the
  // relinearized product no longer decrypts.
  KeyGenerator ckks_keys(ctx, prng);
  Encryptor plain_enc(ctx, prng);
  PublicKey pk1 = ckks_keys.publicKey();
  Decryptor dec1(ctx, ckks_keys.secretKey());
  Ciphertext c1 =
      plain_enc.encrypt(encoder.encode(a, ctx.maxLevel(), slots), pk1);
  EXPECT_NE(encoder.decode(dec1.decrypt(c1)),
            std::vector<uint64_t>(a.begin(), a.end()));
}

/// A coefficient-form polynomial over every prime of `ctx` whose
/// coefficients are `values`: 100-bit integers, every third negative.
Poly64 hundredBitValues(const Context64 &ctx, Prng &prng,
                        std::vector<Wide> &values) {
  Poly64 d(ctx.qBasis(ctx.maxLevel()), ctx.n(), false);
  values.resize(ctx.n());
  for (size_t k = 0; k < ctx.n(); ++k) {
    Wide v = (Wide(prng.next64() >> 28) << 64) | prng.next64();
    values[k] = (k % 3 == 0) ? -v : v;
    for (size_t i = 0; i < d.limbs(); ++i) {
      const uint64_t m = ctx.modulus(d.basis[i]).value();
      d.limb(i)[k] = static_cast<uint64_t>(((values[k] % m) + m) % m);
    }
  }
  return d;
}

TEST(BfvHps, ExtensionIsExactAndScaleDownRounds) {
  // Q = two 28-bit primes, t = 97 (N = 16). extend: the centred x mod each
  // r_j. scaleDown: for D of 100 bits over Q u R, round(t D / Q) over Q
  // (within one: the fractions are summed in doubles).
  Context64 ctx = test::toyContext(4, {28, 28}, {60}, 1);
  const uint64_t t = 97;
  BfvEvaluator eval(ctx, t);
  const Context64 &qr = eval.auxContext();
  ASSERT_GE(eval.auxPrimes().size(), 2u);
  Prng prng(Prng::Seed{4});
  Poly64 x = test::randomPoly(ctx, prng, ctx.qBasis(1), false);
  Poly64 wide = eval.extend(x);
  for (size_t k = 0; k < ctx.n(); ++k) {
    const Wide v = centredValue(ctx, x, k);
    for (size_t j = 0; j < eval.auxPrimes().size(); ++j) {
      const Wide r = eval.auxPrimes()[j];
      ASSERT_EQ(Wide(wide.limb(2 + j)[k]), ((v % r) + r) % r) << k;
    }
  }
  std::vector<Wide> values;
  Poly64 d = hundredBitValues(qr, prng, values);
  const Wide q = Wide(ctx.primes()[0]) * ctx.primes()[1];
  Poly64 y = eval.scaleDown(d);
  for (size_t k = 0; k < ctx.n(); ++k) {
    const Wide num = values[k] * Wide(t);
    Wide want =
        num >= 0 ? (2 * num + q) / (2 * q) : -((-2 * num + q) / (2 * q));
    const Wide got = centredValue(ctx, y, k);
    ASSERT_LE(got > want ? got - want : want - got, 1) << k;
  }
}

Wide floorDiv(Wide num, Wide den) {
  return num >= 0 ? num / den : -((-num + den - 1) / den);
}

TEST(BfvBehz, ExtensionIsNearCentredAndFloorIsExactUpToK) {
  // Q = two 28-bit primes, t = 97 (N = 16), R = B u {m_sk}. extendBehz:
  // x' = x (mod Q) in [-Q/2, Q/2 + 2 Q / 2^32) over R. scaleDownBehz: for D
  // of 100 bits over Q u R, floor(t D / Q) - a over Q with 0 <= a < k = 2.
  Context64 ctx = test::toyContext(4, {28, 28}, {60}, 1);
  const uint64_t t = 97;
  BfvEvaluator eval(ctx, t);
  const Context64 &qr = eval.auxContext();
  const size_t kr = eval.auxPrimes().size();
  ASSERT_EQ(kr, 2u); // B = r_0, m_sk = r_1
  const Wide q = Wide(ctx.primes()[0]) * ctx.primes()[1];
  std::vector<int> r_basis;
  for (size_t j = 0; j < kr; ++j)
    r_basis.push_back(2 + int(j));
  Prng prng(Prng::Seed{4});
  Poly64 x = test::randomPoly(ctx, prng, ctx.qBasis(1), false);
  Poly64 wide = eval.extendBehz(x);
  Poly64 r_rows(r_basis, ctx.n(), false);
  std::copy(wide.data.begin() + 2 * ctx.n(), wide.data.end(),
            r_rows.data.begin());
  for (size_t k = 0; k < ctx.n(); ++k) {
    ASSERT_EQ(wide.limb(0)[k], x.limb(0)[k]);
    ASSERT_EQ(wide.limb(1)[k], x.limb(1)[k]);
    const Wide v = centredValue(ctx, x, k), got = centredValue(qr, r_rows, k);
    ASSERT_EQ(((got - v) % q + q) % q, 0) << k;
    ASSERT_GE(2 * got, -q) << k;
    ASSERT_LT(got, q / 2 + 2 * (q >> 32) + 1) << k;
  }
  std::vector<Wide> values;
  Poly64 d = hundredBitValues(qr, prng, values);
  Poly64 y = eval.scaleDownBehz(d);
  for (size_t k = 0; k < ctx.n(); ++k) {
    const Wide want = floorDiv(values[k] * Wide(t), q);
    const Wide got = centredValue(ctx, y, k);
    ASSERT_LE(got, want) << k;
    ASSERT_GE(got, want - 1) << k;
  }
}

/// BEHZ at `spec` (t = 65537): one product decrypts exactly, with and
/// without relinearization (multiplyRelinBehz is relinearize(multiplyBehz)
/// bit for bit), its budget within two bits of HPS's; then squarings
/// decrypt exactly until fewer than 40 bits are left, losing budget at
/// each, at least `min_depth` of them.
void expectBehzSquaringsExact(const ParamSpec &spec, int min_depth) {
  constexpr uint64_t t = 65537;
  Context64 ctx(spec);
  Prng prng(Prng::Seed{6});
  KeyGenerator keygen(ctx, prng);
  BfvEvaluator eval(ctx, t);
  const BfvEncoder &encoder = eval.encoder();
  Encryptor encryptor(ctx, prng);
  Decryptor decryptor(ctx, keygen.secretKey());
  const RelinKey rk = keygen.relinKey();
  const size_t slots = ctx.slotsMax();
  const std::vector<int64_t> a = randomValues(prng, slots, t);
  const std::vector<int64_t> b = randomValues(prng, slots, t);
  const Ciphertext ca =
      encryptor.encrypt(encoder.encode(a, slots), keygen.publicKey());
  const Ciphertext cb =
      encryptor.encrypt(encoder.encode(b, slots), keygen.publicKey());
  auto decrypt = [&](const Ciphertext &ct) {
    return encoder.decode(decryptor.decrypt(ct));
  };
  auto budget = [&](const Ciphertext &ct) {
    return encoder.noiseBudget(decryptor.decrypt(ct));
  };
  std::vector<uint64_t> ab(slots);
  for (size_t i = 0; i < slots; ++i)
    ab[i] = mulMod(a[i], b[i], t);
  const Ciphertext tensor = eval.multiplyBehz(ca, cb);
  ASSERT_EQ(tensor.degree(), 2);
  EXPECT_EQ(decrypt(tensor), ab) << spec.name << ": BEHZ tensor";
  const Ciphertext prod = eval.multiplyRelinBehz(ca, cb, rk);
  EXPECT_EQ(decrypt(prod), ab) << spec.name << ": BEHZ mul+relin";
  const Ciphertext relin = eval.relinearize(tensor, rk);
  for (size_t p = 0; p < 2; ++p)
    EXPECT_TRUE(prod.c[p].data == relin.c[p].data) << spec.name << " " << p;
  const Ciphertext hps = eval.multiplyRelin(ca, cb, rk);
  EXPECT_EQ(decrypt(hps), ab);
  const int behz_bits = budget(prod), hps_bits = budget(hps);
  EXPECT_LE(std::abs(behz_bits - hps_bits), 2)
      << spec.name << ": BEHZ " << behz_bits << " bits, HPS " << hps_bits;
  Ciphertext ct = ca;
  std::vector<uint64_t> want(a.begin(), a.end());
  int last = budget(ct), depth = 0;
  while (last >= 40) {
    ct = eval.multiplyRelinBehz(ct, ct, rk);
    ++depth;
    for (uint64_t &w : want)
      w = mulMod(w, w, t);
    const int now = budget(ct);
    ASSERT_GT(now, 0) << spec.name << " depth " << depth;
    ASSERT_EQ(decrypt(ct), want) << spec.name << " depth " << depth;
    ASSERT_LT(now, last) << spec.name << " depth " << depth;
    last = now;
  }
  EXPECT_GE(depth, min_depth) << spec.name;
}

TEST(BfvBehz, SquaringsDecryptExactlyAtN14) {
  ParamSpec spec; // N = 2^14, Q = 5 x 60, P = 2 x 60 (BfvFixture's set)
  spec.name = "bfv14";
  spec.log_n = 14;
  spec.q_bits = {60, 60, 60, 60, 60};
  spec.p_bits = {60, 60};
  spec.dnum = 3;
  expectBehzSquaringsExact(spec, 7); // 8 with these seeds
}

TEST(BfvBehz, SquaringsDecryptExactlyAtN15) {
  ParamSpec spec; // N = 2^15, Q = 7 x 60, P = 3 x 60 (bench/cpu_bgv_mul.py)
  spec.name = "bfv15";
  spec.log_n = 15;
  spec.q_bits = std::vector<int>(7, 60);
  spec.p_bits = {60, 60, 60};
  spec.dnum = 3;
  expectBehzSquaringsExact(spec, 11); // 12 with these seeds
}

/// N = 2^14, Q = 5 x 60 bits, P = 2 x 60 (420 bits), t = 65537.
ParamSpec bfvSpec() {
  ParamSpec spec;
  spec.name = "bfv14";
  spec.log_n = 14;
  spec.q_bits = {60, 60, 60, 60, 60};
  spec.p_bits = {60, 60};
  spec.dnum = 3;
  return spec;
}

struct BfvFixture : ::testing::Test {
  static constexpr uint64_t kT = 65537;
  Context64 ctx{bfvSpec()};
  Prng prng{Prng::Seed{5}};
  KeyGenerator keygen{ctx, prng};
  BfvEncoder encoder{ctx, kT};
  BfvEvaluator eval{ctx, kT};
  Encryptor encryptor{ctx, prng};
  Decryptor decryptor{ctx, keygen.secretKey()};
  PublicKey pk = keygen.publicKey();
  RelinKey rk = keygen.relinKey();

  Ciphertext encrypt(const std::vector<int64_t> &v, size_t slots) {
    return encryptor.encrypt(encoder.encode(v, slots), pk);
  }
  std::vector<uint64_t> decrypt(const Ciphertext &ct) {
    return encoder.decode(decryptor.decrypt(ct));
  }
  int budget(const Ciphertext &ct) {
    return encoder.noiseBudget(decryptor.decrypt(ct));
  }
};

TEST_F(BfvFixture, ProgramsDecryptToModularArithmetic) {
  const size_t slots = ctx.slotsMax();
  std::vector<int64_t> a = randomValues(prng, slots, kT);
  std::vector<int64_t> b = randomValues(prng, slots, kT);
  std::vector<int64_t> c = randomValues(prng, slots, kT);
  Ciphertext ca = encrypt(a, slots), cb = encrypt(b, slots);
  EXPECT_EQ(decrypt(ca), std::vector<uint64_t>(a.begin(), a.end()));
  EXPECT_GT(budget(ca), 230); // log Q = 300, fresh noise ~2^(17+20)
  Ciphertext ab = eval.multiplyRelin(ca, cb, rk);
  Ciphertext out =
      eval.addInt(eval.sub(eval.mulPlain(eval.add(ab, ca),
                                         encoder.encodeMultiplier(c, slots)),
                           eval.mulInt(cb, -7)),
                  12345);
  Ciphertext plus = eval.addPlain(ab, encoder.encode(c, slots));
  std::vector<uint64_t> got = decrypt(out), got_plus = decrypt(plus);
  for (size_t i = 0; i < slots; ++i) {
    const uint64_t p = mulMod(a[i], b[i], kT);
    ASSERT_EQ(got[i],
              (mulMod(c[i], (p + a[i]) % kT, kT) + 7 * b[i] + 12345) % kT)
        << i;
    ASSERT_EQ(got_plus[i], (p + c[i]) % kT) << i;
  }
  EXPECT_THROW(eval.addPlain(ab, encoder.encodeMultiplier(c, slots)),
               ScaleMismatch);
  EXPECT_THROW(eval.mulPlain(ab, encoder.encode(c, slots)), ScaleMismatch);
}

TEST_F(BfvFixture, SquaringsLoseBudgetUntilTheModulusIsSpent) {
  const size_t slots = 32;
  std::vector<int64_t> a = randomValues(prng, slots, kT);
  Ciphertext ct = encrypt(a, slots);
  std::vector<uint64_t> want(a.begin(), a.end());
  int last = budget(ct);
  for (int depth = 1; depth <= 6; ++depth) {
    ct = eval.multiplyRelin(ct, ct, rk);
    for (uint64_t &w : want)
      w = mulMod(w, w, kT);
    const int now = budget(ct);
    ASSERT_GT(now, 0) << "depth " << depth;
    ASSERT_EQ(decrypt(ct), want) << "depth " << depth;
    EXPECT_LT(now, last) << "depth " << depth;
    last = now;
  }
  GaloisKeys keys =
      keygen.galoisKeys({galoisElementForRotation(ctx, 3, slots)});
  std::vector<uint64_t> rotated = decrypt(eval.rotate(ct, 3, keys));
  for (size_t i = 0; i < slots; ++i)
    ASSERT_EQ(rotated[i], want[(i + 3) % slots]);
}

} // namespace
} // namespace ember
