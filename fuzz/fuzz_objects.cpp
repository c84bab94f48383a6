// libFuzzer harness: the object deserializers of ember/serialize.h (secret
// key, public key, evaluation keys, ciphertext, plaintext) against a fixed
// small context (fuzz_runtime.h), and a use of what they accept.
//
// Input: one selector byte, then the file. Selector bits 1..6 pick the
// deserializer (value mod 5); bit 7 set: the 32-bit context
// (makeFuzzContext32: 4-byte residues); bit 0 set: re-seal (set the kind and
// the context's parameter hash, fix the payload length and the SHA-256
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

template <typename W> std::unique_ptr<ember::Context<W>> makeContext() {
  if constexpr (sizeof(W) == 8)
    return ember::fuzz::makeFuzzContext();
  else
    return ember::fuzz::makeFuzzContext32();
}

template <typename W> struct Fixture {
  std::unique_ptr<ember::Context<W>> ctx = makeContext<W>();
  ember::Prng prng{ember::Prng::Seed{}};
  ember::BasicKeyGenerator<W> keygen{*ctx, prng};
  ember::BasicEncoder<W> encoder{*ctx};
  ember::BasicEvaluator<W> eval{*ctx};
  ember::BasicCiphertext<W> product;
  Fixture() {
    ember::BasicEncryptor<W> enc(*ctx, prng);
    ember::BasicPublicKey<W> pk = keygen.publicKey();
    ember::BasicPlaintext<W> pt = encoder.encode(
        std::vector<double>{0.5, -0.25}, ctx->maxLevel(), 1 << 20, 2);
    ember::BasicCiphertext<W> ct = enc.encrypt(pt, pk);
    product = eval.multiply(ct, ct);
  }
};

template <typename W> Fixture<W> &fixture() {
  static Fixture<W> f;
  return f;
}

template <typename W>
void use(Fixture<W> &f, const ember::BasicSecretKey<W> &sk) {
  ember::BasicDecryptor<W>(*f.ctx, sk).decrypt(f.product);
}

template <typename W>
void use(Fixture<W> &f, const ember::BasicPublicKey<W> &pk) {
  ember::BasicEncryptor<W> enc(*f.ctx, f.prng);
  enc.encrypt(f.encoder.encode(std::vector<double>{1.0}, 0, 1 << 20, 1), pk);
}

template <typename W>
void use(Fixture<W> &f, const ember::BasicEvaluationKeys<W> &keys) {
  ember::BasicCiphertext<W> ct = f.product;
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

template <typename W>
void use(Fixture<W> &f, const ember::BasicCiphertext<W> &ct) {
  ember::BasicDecryptor<W> dec(*f.ctx, f.keygen.secretKey());
  f.encoder.decode(dec.decrypt(ct));
}

template <typename W>
void use(Fixture<W> &f, const ember::BasicPlaintext<W> &pt) {
  f.encoder.decode(pt);
}

/// Deserializes `bytes` as `kind` into word W's context and uses it.
template <typename W>
void load(ember::ObjectKind kind, ember::Bytes &bytes, bool reseal) {
  Fixture<W> &f = fixture<W>();
  if (reseal)
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
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  static const ember::ObjectKind kKinds[] = {
      ember::ObjectKind::kSecretKey, ember::ObjectKind::kPublicKey,
      ember::ObjectKind::kEvaluationKeys, ember::ObjectKind::kCiphertext,
      ember::ObjectKind::kPlaintext};
  const ember::ObjectKind kind = kKinds[((data[0] & 0x7f) >> 1) % 5];
  ember::Bytes bytes(data + 1, data + size);
  if (data[0] & 0x80)
    load<uint32_t>(kind, bytes, data[0] & 1);
  else
    load<uint64_t>(kind, bytes, data[0] & 1);
  return 0;
}
