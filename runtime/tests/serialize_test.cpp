// Round trips, and every kind of damaged file gives a SerializationError.
#include "ember/lwe.h"
#include "ember/serialize.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace ember {
namespace {

ParamSpec toySpec(int q_limbs = 3) {
  ParamSpec spec;
  spec.name = "toy";
  spec.log_n = 10;
  spec.q_bits.assign(q_limbs, 40);
  spec.p_bits = {50};
  spec.dnum = q_limbs;
  spec.security = Security::kInsecureTestOnly;
  return spec;
}

struct Material {
  Material() : ctx(toySpec()), keygen(ctx, prng), encoder(ctx) {
    Encryptor enc(ctx, prng);
    std::vector<double> v(8, 0.25);
    ct = enc.encryptSymmetric(encoder.encode(v, 2, std::ldexp(1.0, 30), 8),
                              keygen.secretKey());
    keys.has_relin = true;
    keys.relin = keygen.relinKey();
    keys.galois = keygen.galoisKeys({5, 25});
    keys.has_encapsulation = true;
    keys.encapsulation = keygen.encapsulationKeys(32);
  }
  Prng prng;
  Context64 ctx;
  KeyGenerator keygen;
  Encoder encoder;
  Ciphertext ct;
  EvaluationKeys keys;
};

TEST(Serialize, RoundTripsAreIdentical) {
  Material m;
  Bytes bytes = serialize(m.ctx, m.ct);
  Ciphertext back = deserializeCiphertext(m.ctx, bytes);
  EXPECT_EQ(back.level, m.ct.level);
  EXPECT_EQ(back.scale, m.ct.scale);
  EXPECT_EQ(back.slots, m.ct.slots);
  ASSERT_EQ(back.c.size(), 2u);
  EXPECT_EQ(back.c[1].data, m.ct.c[1].data);

  EvaluationKeys keys =
      deserializeEvaluationKeys(m.ctx, serialize(m.ctx, m.keys));
  EXPECT_TRUE(keys.has_relin);
  EXPECT_TRUE(keys.galois.has(25));
  EXPECT_EQ(keys.relin.key.b[0].data, m.keys.relin.key.b[0].data);
  ASSERT_TRUE(keys.has_encapsulation);
  EXPECT_EQ(keys.encapsulation.to_sparse.b.size(), 1u);
  EXPECT_EQ(keys.encapsulation.to_sparse.a[0].data,
            m.keys.encapsulation.to_sparse.a[0].data);
  EXPECT_EQ(keys.encapsulation.from_sparse.b.back().data,
            m.keys.encapsulation.from_sparse.b.back().data);

  SecretKey sk =
      deserializeSecretKey(m.ctx, serialize(m.ctx, m.keygen.secretKey()));
  EXPECT_EQ(sk.s.data, m.keygen.secretKey().s.data);

  auto ctx2 = deserializeParams(serializeParams(m.ctx));
  EXPECT_EQ(ctx2->primes(), m.ctx.primes());
  EXPECT_EQ(ctx2->hash(), m.ctx.hash());
}

TEST(Serialize, DamagedFilesAreNamedErrors) {
  Material m;
  Bytes good = serialize(m.ctx, m.ct);
  for (size_t cut : {size_t{0}, size_t{10}, size_t{60}, good.size() - 1}) {
    Bytes truncated(good.begin(), good.begin() + cut);
    EXPECT_THROW(deserializeCiphertext(m.ctx, truncated), SerializationError)
        << "cut at " << cut;
  }
  for (size_t pos :
       {size_t{1}, size_t{5}, size_t{100}, good.size() / 2, good.size() - 3}) {
    Bytes corrupt = good;
    corrupt[pos] ^= 0x40;
    EXPECT_THROW(deserializeCiphertext(m.ctx, corrupt), SerializationError)
        << "byte " << pos;
  }
  // A key file where a ciphertext is expected.
  EXPECT_THROW(deserializeCiphertext(m.ctx, serialize(m.ctx, m.keys)),
               SerializationError);
  // Other parameters (one more limb: another hash).
  Context64 other(toySpec(4));
  EXPECT_THROW(deserializeCiphertext(other, good), SerializationError);
  try {
    deserializeEvaluationKeys(other, serialize(m.ctx, m.keys));
    FAIL() << "no error";
  } catch (const SerializationError &e) {
    EXPECT_NE(std::string(e.what()).find("other parameters"),
              std::string::npos);
  }
  EXPECT_THROW(readFile("/nonexistent/ember.key"), SerializationError);
}

/// 32-bit words with double-prime scaling (q_0 and three pairs carrying
/// 2^40 at N = 2^12): keys and ciphertexts round-trip with 4-byte residues,
/// and a file of one word is refused by a context of the other.
TEST(Serialize, ThirtyTwoBitObjectsRoundTrip) {
  ParamSpec spec;
  spec.name = "toy32";
  spec.log_n = 12;
  spec.q_bits.assign(7, 20);
  spec.q_bits[0] = 30;
  spec.p_bits = {30, 30};
  spec.dnum = 7;
  spec.log_scale = 40;
  spec.scale_primes = 2;
  spec.security = Security::kInsecureTestOnly;
  Context32 ctx(spec);
  Prng prng;
  KeyGenerator32 keygen(ctx, prng);
  Encoder32 encoder(ctx);
  Encryptor32 enc(ctx, prng);
  const Plaintext32 pt = encoder.encode(std::vector<double>(8, 0.25),
                                        ctx.maxLevel(), std::ldexp(1.0, 40), 8);
  const Ciphertext32 ct = enc.encrypt(pt, keygen.publicKey());
  EvaluationKeys32 keys;
  keys.has_relin = true;
  keys.relin = keygen.relinKey();
  keys.galois = keygen.galoisKeys({5, 25});

  const Bytes ct_bytes = serialize(ctx, ct);
  const Ciphertext32 ct2 = deserializeCiphertext(ctx, ct_bytes);
  EXPECT_EQ(ct2.level, ct.level);
  EXPECT_EQ(ct2.scale, ct.scale);
  ASSERT_EQ(ct2.c.size(), 2u);
  EXPECT_EQ(ct2.c[0].data, ct.c[0].data);
  EXPECT_EQ(ct2.c[1].data, ct.c[1].data);
  // 4-byte residues: about half a 64-bit file of the same limbs.
  EXPECT_LT(ct_bytes.size(), 2 * ct.c[0].data.size() * 4 + 1024);
  const EvaluationKeys32 keys2 =
      deserializeEvaluationKeys(ctx, serialize(ctx, keys));
  EXPECT_TRUE(keys2.has_relin);
  EXPECT_EQ(keys2.relin.key.b.back().data, keys.relin.key.b.back().data);
  ASSERT_TRUE(keys2.galois.has(25));
  EXPECT_EQ(keys2.galois.keys.at(25).a[0].data,
            keys.galois.keys.at(25).a[0].data);
  EXPECT_EQ(
      deserializeSecretKey(ctx, serialize(ctx, keygen.secretKey())).s.data,
      keygen.secretKey().s.data);
  const PublicKey32 pk = keygen.publicKey(); // fresh randomness per call
  EXPECT_EQ(deserializePublicKey(ctx, serialize(ctx, pk)).b.data, pk.b.data);
  EXPECT_EQ(deserializePlaintext(ctx, serialize(ctx, pt)).poly.data,
            pt.poly.data);

  // The same primes in a 64-bit context: another hash (it names the word).
  const std::vector<uint64_t> &all = ctx.primes();
  Context64 wide(spec, std::vector<uint64_t>(all.begin(), all.begin() + 7),
                 std::vector<uint64_t>(all.begin() + 7, all.end()));
  try {
    deserializeCiphertext(wide, ct_bytes);
    FAIL() << "no error";
  } catch (const SerializationError &e) {
    EXPECT_NE(std::string(e.what()).find("other parameters"), std::string::npos)
        << e.what();
  }
  // A damaged 32-bit file: truncated, or a residue at or above its prime.
  EXPECT_THROW(
      deserializeCiphertext(ctx, Bytes(ct_bytes.begin(), ct_bytes.end() - 40)),
      SerializationError);
}

// --- Forged files: valid checksum, field out of range ------------------------
// The SHA-256 is unkeyed: anyone can change a field and re-seal the file.
// Each case below does exactly that and expects the SerializationError to
// name the field.

constexpr size_t kHeader = 4 + 4 + 4 + 32 + 8;

/// Recomputes the trailing checksum after a field was changed.
Bytes reseal(Bytes b) {
  unsigned int len = 0;
  EVP_Digest(b.data(), b.size() - 32, b.data() + b.size() - 32, &len,
             EVP_sha256(), nullptr);
  return b;
}

template <typename T> Bytes patched(const Bytes &good, size_t at, T value) {
  Bytes b = good;
  std::memcpy(b.data() + at, &value, sizeof(T));
  return reseal(b);
}

/// A complete file around `payload` (what serialize.cpp's wrap writes).
Bytes sealed(ObjectKind kind, const std::array<uint8_t, 32> &hash,
             const Bytes &payload) {
  Bytes b = {'E', 'M', 'B', 'R'};
  auto put = [&](auto v) {
    const auto *p = reinterpret_cast<const uint8_t *>(&v);
    b.insert(b.end(), p, p + sizeof(v));
  };
  put(kFormatVersion);
  put(static_cast<uint32_t>(kind));
  b.insert(b.end(), hash.begin(), hash.end());
  put(static_cast<uint64_t>(payload.size()));
  b.insert(b.end(), payload.begin(), payload.end());
  b.resize(b.size() + 32);
  return reseal(b);
}

template <typename F> std::string errorOf(F &&load) {
  try {
    load();
  } catch (const SerializationError &e) {
    return e.what();
  }
  return "(no SerializationError)";
}

#define EXPECT_FIELD(expr, field)                                              \
  EXPECT_NE(errorOf([&] { (void)(expr); }).find(field), std::string::npos)     \
      << errorOf([&] { (void)(expr); })

TEST(ForgedFiles, CiphertextFields) {
  Material m;
  const Bytes good = serialize(m.ctx, m.ct); // level 2, scale 2^30, 8 slots
  ASSERT_NO_THROW(deserializeCiphertext(m.ctx, good));
  const size_t level = kHeader, scale = level + 4, slots = scale + 8,
               count = slots + 8, n = count + 4, form = n + 8;
  auto load = [&](const Bytes &b) { return deserializeCiphertext(m.ctx, b); };
  // The case: a scale of 1e300 decrypted to nonsense.
  EXPECT_FIELD(load(patched(good, scale, 1e300)),
               "scale 1.0000000000000001e+300");
  EXPECT_FIELD(load(patched(good, scale, 0.5)), "scale");
  EXPECT_FIELD(load(patched(good, scale, -1.0)), "scale");
  EXPECT_FIELD(load(patched(good, scale, std::nan(""))), "scale");
  EXPECT_FIELD(load(patched(good, scale, std::ldexp(1.0, 120))), "scale");
  EXPECT_NO_THROW(load(patched(good, scale, std::ldexp(1.0, 100)))); // < Q_2/2
  EXPECT_FIELD(load(patched(good, level, int32_t{-1})), "level -1");
  EXPECT_FIELD(load(patched(good, level, int32_t{3})), "level 3");
  EXPECT_FIELD(load(patched(good, slots, uint64_t{3})), "slot count 3");
  EXPECT_FIELD(load(patched(good, slots, uint64_t{1024})), "slot count 1024");
  EXPECT_FIELD(load(patched(good, count, uint32_t{1})), "1 polynomials");
  EXPECT_FIELD(load(patched(good, count, uint32_t{4})), "4 polynomials");
  EXPECT_FIELD(load(patched(good, n, uint64_t{512})), "degree 512");
  EXPECT_FIELD(load(patched(good, form, uint8_t{2})), "form flag 2");
  EXPECT_FIELD(load(patched(good, form, uint8_t{0})), "NTT form");
}

TEST(ForgedFiles, ProductScaleBeforeRescaleIsAccepted) {
  // A degree-2 product at the top level carries scale^2 = 2^60 over
  // Q_2 = 2^120: legitimate, loaded as it was saved.
  Material m;
  Evaluator eval(m.ctx);
  Encryptor enc(m.ctx, m.prng);
  std::vector<double> v(8, 0.5);
  Ciphertext a = enc.encryptSymmetric(
      m.encoder.encode(v, 2, std::ldexp(1.0, 40), 8), m.keygen.secretKey());
  Ciphertext prod = eval.multiply(a, a);
  Ciphertext back = deserializeCiphertext(m.ctx, serialize(m.ctx, prod));
  EXPECT_EQ(back.scale, std::ldexp(1.0, 80));
  EXPECT_EQ(back.c.size(), 3u);
}

TEST(ForgedFiles, PlaintextFields) {
  Material m;
  const Bytes good =
      serialize(m.ctx, m.encoder.encode(std::vector<double>(8, 0.25), 1,
                                        std::ldexp(1.0, 30), 8));
  ASSERT_NO_THROW(deserializePlaintext(m.ctx, good));
  const size_t level = kHeader, scale = level + 4, slots = scale + 8;
  auto load = [&](const Bytes &b) { return deserializePlaintext(m.ctx, b); };
  EXPECT_FIELD(load(patched(good, scale, 1e300)), "scale");
  EXPECT_FIELD(load(patched(good, scale, 0.0)), "scale");
  EXPECT_FIELD(load(patched(good, level, int32_t{7})), "level 7");
  EXPECT_FIELD(load(patched(good, slots, uint64_t{0})), "slot count 0");
}

/// A parameter payload with every field given (serializeParams's layout).
struct ParamFields {
  std::string name = "toy";
  int32_t log_n = 10, dnum = 3;
  double log_scale = 40;
  int32_t h = 0;
  uint8_t insecure = 1;
  uint32_t q = 3, p = 1, t = 0;
  int32_t gamma = 0;
  std::vector<uint64_t> primes;

  Bytes payload() const {
    Bytes b;
    auto put = [&](auto v) {
      const auto *ptr = reinterpret_cast<const uint8_t *>(&v);
      b.insert(b.end(), ptr, ptr + sizeof(v));
    };
    put(static_cast<uint32_t>(name.size()));
    b.insert(b.end(), name.begin(), name.end());
    put(log_n), put(dnum), put(log_scale), put(h), put(insecure);
    put(q), put(p), put(t), put(gamma);
    for (uint64_t prime : primes)
      put(prime);
    return b;
  }
};

TEST(ForgedFiles, ParameterFields) {
  Material m;
  ParamFields f;
  f.primes = m.ctx.primes();
  auto load = [&](const ParamFields &g) {
    return deserializeParams(
        sealed(ObjectKind::kParams, m.ctx.hash(), g.payload()));
  };
  ASSERT_NO_THROW(load(f)); // the same file serializeParams writes
  EXPECT_EQ(sealed(ObjectKind::kParams, m.ctx.hash(), f.payload()),
            serializeParams(m.ctx));
  auto with = [&](auto change) {
    ParamFields g = f;
    change(g);
    return g;
  };
  EXPECT_FIELD(load(with([](ParamFields &g) { g.name.assign(300, 'x'); })),
               "a name of 300 bytes");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.name = "to\x1b[2Jy"; })),
               "printable ASCII");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.log_n = 40; })), "log N = 40");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.log_n = 0; })), "log N = 0");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.log_scale = 1e300; })),
               "log_scale");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.log_scale = 0.5; })),
               "log_scale");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.log_scale = std::nan(""); })),
               "log_scale");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.h = -1; })),
               "Hamming weight -1");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.h = 1025; })),
               "Hamming weight 1025");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.insecure = 2; })),
               "insecure flag 2");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.dnum = 0; })), "dnum = 0");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.dnum = 4; })), "dnum = 4");
  EXPECT_FIELD(load(with([](ParamFields &g) { g.gamma = 2; })),
               "KLSS gamma = 2");
  EXPECT_FIELD(load(with([](ParamFields &g) {
                 g.q = 300;
                 g.primes.assign(301, 1);
               })),
               "a chain of 300");
  // A log_scale that differs in the 8th digit is another parameter set.
  EXPECT_FIELD(load(with([](ParamFields &g) { g.log_scale = 40.0000001; })),
               "hash does not match");
}

TEST(ForgedFiles, EvaluationKeyFields) {
  Material m;
  EvaluationKeys keys;
  keys.galois = m.keys.galois; // elements 5 and 25, no relinearization key
  const Bytes good = serialize(m.ctx, keys);
  ASSERT_NO_THROW(deserializeEvaluationKeys(m.ctx, good));
  const size_t limbs = m.ctx.moduliCount(), n = m.ctx.n();
  const size_t digits = m.ctx.digitCount(m.ctx.maxLevel());
  const size_t key_bytes = 4 + digits * 2 * (13 + 4 * limbs + 8 * limbs * n);
  const size_t relin = kHeader, count = relin + 1, first = count + 4,
               first_digits = first + 8, second = first + 8 + key_bytes;
  // ... KLSS relinearization flag, KLSS count, encapsulation flag, SHA-256.
  ASSERT_EQ(good.size(), second + 8 + key_bytes + 1 + 4 + 1 + 32);
  const size_t encapsulation = good.size() - 32 - 1;
  auto load = [&](const Bytes &b) {
    return deserializeEvaluationKeys(m.ctx, b);
  };
  EXPECT_FIELD(load(patched(good, relin, uint8_t{2})),
               "relinearization key flag 2");
  EXPECT_FIELD(load(patched(good, first, uint64_t{4})), "Galois element 4");
  EXPECT_FIELD(load(patched(good, first, uint64_t{2049})),
               "Galois element 2049");
  EXPECT_FIELD(load(patched(good, second, uint64_t{5})),
               "duplicate Galois element 5");
  EXPECT_FIELD(load(patched(good, first_digits, uint32_t{2})),
               "a switching key with 2 digits");
  EXPECT_FIELD(load(patched(good, count, uint32_t{5000})),
               "5000 hybrid Galois keys");
  EXPECT_FIELD(load(patched(good, encapsulation, uint8_t{2})),
               "encapsulation keys flag 2");
}

// FHEW/TFHE keys and ciphertexts: round trips (the loaded keys give the
// same gate outputs, word for word) and forged files naming the field.
TEST(LweFiles, RoundTripsAndForgedFields) {
  Prng prng;
  const lwe::Params toy = lwe::Params::named("TOY");
  const lwe::SecretKey sk(toy, prng);
  const lwe::EvaluationKeys ek(sk, prng);
  const std::vector<lwe::Ciphertext> cts = {sk.encrypt(1, 4, prng),
                                            sk.encrypt(0, 4, prng)};
  const Bytes sk_bytes = lwe::serialize(sk), ek_bytes = lwe::serialize(ek),
              ct_bytes = lwe::serialize(toy, cts);
  EXPECT_TRUE(holdsSecretKey(sk_bytes));
  EXPECT_FALSE(holdsSecretKey(ek_bytes));
  EXPECT_EQ(peekKind(ek_bytes), ObjectKind::kLweEvaluationKeys);

  const auto sk2 = lwe::deserializeSecretKey(sk_bytes);
  EXPECT_EQ(sk2->lweKey(), sk.lweKey());
  EXPECT_EQ(sk2->ringKey(), sk.ringKey());
  const lwe::EvaluationKeys ek2 = lwe::deserializeEvaluationKeys(ek_bytes);
  const std::vector<lwe::Ciphertext> cts2 =
      lwe::deserializeCiphertexts(toy, ct_bytes);
  ASSERT_EQ(cts2.size(), 2u);
  lwe::Evaluator ev(ek), ev2(ek2);
  const lwe::Ciphertext a = ev.gate(lwe::Gate::Nand, cts[0], cts[1]);
  const lwe::Ciphertext b = ev2.gate(lwe::Gate::Nand, cts2[0], cts2[1]);
  EXPECT_EQ(a.a, b.a);
  EXPECT_EQ(a.b, b.b);
  EXPECT_EQ(sk2->decrypt(b, 4), 1u);

  // The payload starts with the set: name (4-byte length, "TOY"), n, q,
  // log N, Q, Bg, q_ks, Bks (4 bytes each), sigma (8); then the fields.
  const size_t fields = kHeader + 4 + 3 + 7 * 4 + 8;
  EXPECT_FIELD(lwe::deserializeEvaluationKeys(sk_bytes),
               "expected FHEW/TFHE evaluation keys");
  EXPECT_FIELD(
      lwe::deserializeCiphertexts(lwe::Params::named("STD128"), ct_bytes),
      "made for parameter set 'TOY', not 'STD128'");
  EXPECT_FIELD(lwe::deserializeSecretKey(patched(sk_bytes, fields, int8_t(2))),
               "a key coefficient outside {-1, 0, 1}");
  EXPECT_FIELD(lwe::deserializeSecretKey(
                   patched(sk_bytes, kHeader + 4 + 3, int32_t(65))),
               "differ from it");
  // The first bootstrapping-key word (past the row count and the size).
  EXPECT_FIELD(lwe::deserializeEvaluationKeys(
                   patched(ek_bytes, fields + 4 + 8, uint32_t(0xFFFFFFFF))),
               "a word of the bootstrapping key is not below 134215681");
  EXPECT_FIELD(
      lwe::deserializeEvaluationKeys(patched(ek_bytes, fields, uint32_t(3))),
      "an RGSW row count other than the set's 4");
  EXPECT_FIELD(lwe::deserializeCiphertexts(
                   toy, patched(ct_bytes, fields + 8, uint32_t(512))),
               "a word of the ciphertexts is not below 512");
  EXPECT_FIELD(lwe::deserializeCiphertexts(
                   toy, patched(ct_bytes, fields, uint64_t(1) << 40)),
               "ciphertexts announced, fewer present");
  Bytes flipped = ek_bytes;
  flipped[kHeader + 100] ^= 1;
  EXPECT_FIELD(lwe::deserializeEvaluationKeys(flipped), "checksum mismatch");
}

// Radix blocks (at Q, dimension N) are a kind of their own: they round
// trip, are not read as bits (nor bits as blocks) where a kind is asked
// for, and every word is checked against Q; a vector mixing bits and blocks
// is refused.
TEST(LweFiles, RadixBlocks) {
  Prng prng;
  const lwe::Params toy = lwe::Params::named("TOY");
  const lwe::SecretKey sk(toy, prng);
  const std::vector<lwe::Ciphertext> blocks = {sk.encryptBlock(3, 16, prng),
                                               sk.encryptBlock(17, 16, prng)};
  const std::vector<lwe::Ciphertext> bits = {sk.encrypt(1, 4, prng)};
  const Bytes block_bytes = lwe::serialize(toy, blocks),
              bit_bytes = lwe::serialize(toy, bits);
  EXPECT_EQ(peekKind(block_bytes), ObjectKind::kLweBlocks);
  EXPECT_EQ(peekKind(bit_bytes), ObjectKind::kLweCiphertexts);
  EXPECT_EQ(peekKind(lwe::serialize(toy, {})), ObjectKind::kLweCiphertexts);
  for (const std::vector<lwe::Ciphertext> &back :
       {lwe::deserializeCiphertexts(toy, block_bytes),
        lwe::deserializeCiphertexts(toy, block_bytes, true)}) {
    ASSERT_EQ(back.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(back[i].a, blocks[i].a);
      EXPECT_EQ(back[i].b, blocks[i].b);
      EXPECT_EQ(back[i].modulus, toy.ring_q);
    }
    EXPECT_EQ(sk.decryptBlock(back[0], 16), 3u);
    EXPECT_EQ(sk.decryptBlock(back[1], 16), 17u);
  }
  EXPECT_EQ(lwe::deserializeCiphertexts(toy, bit_bytes, false)[0].a, bits[0].a);
  EXPECT_FIELD(lwe::deserializeCiphertexts(toy, block_bytes, false),
               "expected FHEW/TFHE ciphertexts, the file holds FHEW/TFHE "
               "radix blocks");
  EXPECT_FIELD(lwe::deserializeCiphertexts(toy, bit_bytes, true),
               "expected FHEW/TFHE radix blocks, the file holds FHEW/TFHE "
               "ciphertexts");
  const size_t fields = kHeader + 4 + 3 + 7 * 4 + 8;
  EXPECT_FIELD(lwe::deserializeCiphertexts(
                   toy, patched(block_bytes, fields + 8, toy.ring_q)),
               "a word of the radix blocks is not below 134215681");
  // The second block's b: past the count and 2 N + 1 words.
  EXPECT_FIELD(
      lwe::deserializeCiphertexts(
          toy, patched(block_bytes, fields + 8 + 4 * (2 * toy.ringN() + 1),
                       uint32_t(0xFFFFFFFF))),
      "a word of the radix blocks is not below 134215681");
  EXPECT_FIELD(lwe::deserializeCiphertexts(
                   toy, patched(block_bytes, fields, uint64_t(3))),
               "3 blocks announced, fewer present");
  EXPECT_THROW(lwe::serialize(toy, {blocks[0], bits[0]}), InvalidArgument);
  EXPECT_THROW(lwe::serialize(toy, {bits[0], blocks[0]}), InvalidArgument);
  lwe::Ciphertext big = blocks[0];
  big.a[5] = toy.ring_q;
  EXPECT_THROW(lwe::serialize(toy, {big}), InvalidArgument);
}

TEST(LweFiles, RaisingAndApSetsCarryTheirFields) {
  // TOY_MR's set ends with P (after sigma), its keys with the residues mod
  // P; TOY_AP's set ends with B_r, its key holds 21 RGSW per coefficient.
  Prng prng;
  for (const char *name : {"TOY_MR", "TOY_AP"}) {
    const lwe::Params p = lwe::Params::named(name);
    const lwe::SecretKey sk(p, prng);
    const lwe::EvaluationKeys ek(sk, prng);
    const Bytes bytes = lwe::serialize(ek);
    const lwe::EvaluationKeys back = lwe::deserializeEvaluationKeys(bytes);
    EXPECT_EQ(back.bootstrapKeyBytes(), ek.bootstrapKeyBytes()) << name;
    const lwe::Ciphertext a = sk.encrypt(1, 4, prng),
                          b = sk.encrypt(1, 4, prng);
    lwe::Evaluator ev(ek), ev2(back);
    const lwe::Ciphertext x = ev.gate(lwe::Gate::Xor, a, b);
    EXPECT_EQ(x.a, ev2.gate(lwe::Gate::Xor, a, b).a) << name;
    EXPECT_EQ(sk.decrypt(x, 4), 0u) << name;
    const size_t extra = kHeader + 4 + 6 + 7 * 4 + 8; // P or B_r
    EXPECT_FIELD(lwe::deserializeEvaluationKeys(
                     patched(bytes, extra, uint32_t(p.raising() ? 12289 : 4))),
                 "differ from it");
    // Past the set (its extra field), the row count and the size.
    const size_t words = extra + 4 + 4 + 8;
    const size_t q_words = ek.bootstrapKeyBytes() / 4 / (p.raising() ? 2 : 1);
    if (p.raising())
      EXPECT_FIELD(lwe::deserializeEvaluationKeys(patched(
                       bytes, words + 4 * q_words, uint32_t(0xFFFFFFFF))),
                   "bootstrapping key (mod P) is not below 134215681");
    else
      EXPECT_FIELD(lwe::deserializeEvaluationKeys(
                       patched(bytes, extra + 4 + 4, uint64_t(q_words / 21))),
                   "a bootstrapping key of another size");
  }
}

} // namespace
} // namespace ember
