// libFuzzer harness: the object deserializers of ember/serialize.h (secret
// key, public key, evaluation keys, ciphertext, plaintext) against a fixed
// small context (fuzz_runtime.h), and a use of what they accept.
//
// Input: one selector byte, then the file. Selector bits 1..3 pick the
// deserializer (value mod 5); bit 0 set: re-seal (set the kind and the
// context's parameter hash, fix the payload length and the SHA-256
// checksum), so that the fields behind the checksum are fuzzed. An accepted
// object is then used (decrypt, encrypt, relinearize, rotate, decode): a
// file that loads must not crash what follows. Only ember::Error may
// escape the deserializers and those uses.
#include "fuzz_runtime.h"

#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/random.h"

#include <vector>

namespace {

struct Fixture {
  std::unique_ptr<ember::Context64> ctx = ember::fuzz::makeFuzzContext();
  ember::Prng prng{ember::Prng::Seed{}};
  ember::KeyGenerator keygen{*ctx, prng};
  ember::Encoder encoder{*ctx};
  ember::Evaluator eval{*ctx};
  ember::Ciphertext product;
  Fixture() {
    ember::Encryptor enc(*ctx, prng);
    ember::PublicKey pk = keygen.publicKey();
    ember::Plaintext pt = encoder.encode(std::vector<double>{0.5, -0.25},
                                         ctx->maxLevel(), 1 << 20, 2);
    ember::Ciphertext ct = enc.encrypt(pt, pk);
    product = eval.multiply(ct, ct);
  }
};

Fixture &fixture() {
  static Fixture f;
  return f;
}

void use(Fixture &f, const ember::SecretKey &sk) {
  ember::Decryptor(*f.ctx, sk).decrypt(f.product);
}

void use(Fixture &f, const ember::PublicKey &pk) {
  ember::Encryptor enc(*f.ctx, f.prng);
  enc.encrypt(f.encoder.encode(std::vector<double>{1.0}, 0, 1 << 20, 1), pk);
}

void use(Fixture &f, const ember::EvaluationKeys &keys) {
  ember::Ciphertext ct = f.product;
  if (keys.has_relin)
    ct = f.eval.relinearize(f.product, keys.relin);
  if (keys.has_klss_relin)
    ct = f.eval.relinearize(f.product, keys.klss_relin);
  if (ct.c.size() != 2)
    return;
  for (const auto &entry : keys.galois.keys)
    f.eval.applyGalois(ct, entry.first, keys.galois);
  for (const auto &entry : keys.klss_galois.keys)
    f.eval.applyGalois(ct, entry.first, keys.klss_galois);
}

void use(Fixture &f, const ember::Ciphertext &ct) {
  ember::Decryptor dec(*f.ctx, f.keygen.secretKey());
  f.encoder.decode(dec.decrypt(ct));
}

void use(Fixture &f, const ember::Plaintext &pt) { f.encoder.decode(pt); }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  Fixture &f = fixture();
  static const ember::ObjectKind kKinds[] = {
      ember::ObjectKind::kSecretKey, ember::ObjectKind::kPublicKey,
      ember::ObjectKind::kEvaluationKeys, ember::ObjectKind::kCiphertext,
      ember::ObjectKind::kPlaintext};
  const ember::ObjectKind kind = kKinds[(data[0] >> 1) % 5];
  ember::Bytes bytes(data + 1, data + size);
  if (data[0] & 1)
    ember::fuzz::reseal(bytes, &f.ctx->hash(), &kind);
  try {
    switch (kind) {
    case ember::ObjectKind::kSecretKey:
      use(f, ember::deserializeSecretKey(*f.ctx, bytes));
      break;
    case ember::ObjectKind::kPublicKey:
      use(f, ember::deserializePublicKey(*f.ctx, bytes));
      break;
    case ember::ObjectKind::kEvaluationKeys:
      use(f, ember::deserializeEvaluationKeys(*f.ctx, bytes));
      break;
    case ember::ObjectKind::kCiphertext:
      use(f, ember::deserializeCiphertext(*f.ctx, bytes));
      break;
    default:
      use(f, ember::deserializePlaintext(*f.ctx, bytes));
      break;
    }
  } catch (const ember::Error &) {
  }
  return 0;
}
