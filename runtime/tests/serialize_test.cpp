// Round trips, and every kind of damaged file gives a SerializationError.
#include "ember/serialize.h"

#include <gtest/gtest.h>

#include <cmath>

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

} // namespace
} // namespace ember
