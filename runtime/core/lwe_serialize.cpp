// FHEW/TFHE keys and ciphertexts in the container of ember/serialize.h
// (ember/lwe.h). Payloads, little endian:
//   parameter set: name, n, q, log N, Q, Bg, q_ks, Bks, sigma, then P
//                  where the set raises and B_r where it is AP (so that
//                  the other sets' files and hashes are those of before)
//   secret key:    set, n then N coefficients (int8, each -1, 0 or 1)
//   evaluation:    set, RGSW rows, bootstrapping-key words (u32, below Q),
//                  where the set raises the same count below P,
//                  key-switching words (u16, below q_ks; u32 where q_ks
//                  is above 2^16)
//   ciphertexts:   set, count, then per ciphertext n + 1 words (u32, below q)
//   radix blocks:  the same with N + 1 words (u32, below Q) per block, a
//                  kind of its own (kLweBlocks) so that neither is read as
//                  the other

#include "ember/lwe.h"

#include "ember/wipe.h"
#include "lwe_internal.h"
#include "serialize_internal.h"

#include <algorithm>
#include <cstring>

namespace ember::lwe {

namespace {

using serial::Reader;
using serial::Writer;

void putParams(Writer &w, const Params &p) {
  w.putString(p.name);
  w.put<int32_t>(p.n);
  w.put<uint32_t>(p.q);
  w.put<int32_t>(p.log_ring);
  w.put<uint32_t>(p.ring_q);
  w.put<uint32_t>(p.base_g);
  w.put<uint32_t>(p.q_ks);
  w.put<uint32_t>(p.base_ks);
  w.put<double>(p.sigma);
  if (p.raising())
    w.put<uint32_t>(p.ring_p);
  if (p.ap())
    w.put<uint32_t>(p.base_r);
}

/// The set a file names, which must be a named set with every field equal.
Params getParams(Reader &r) {
  const std::string name = r.getString();
  Params p;
  try {
    p = Params::named(name);
  } catch (const InvalidArgument &) {
    r.fail("unknown parameter set '" + name + "'");
  }
  Params f = p;
  f.n = r.get<int32_t>();
  f.q = r.get<uint32_t>();
  f.log_ring = r.get<int32_t>();
  f.ring_q = r.get<uint32_t>();
  f.base_g = r.get<uint32_t>();
  f.q_ks = r.get<uint32_t>();
  f.base_ks = r.get<uint32_t>();
  f.sigma = r.get<double>();
  if (p.raising())
    f.ring_p = r.get<uint32_t>();
  if (p.ap())
    f.base_r = r.get<uint32_t>();
  if (f.ring_p != p.ring_p || f.base_r != p.base_r || f.n != p.n ||
      f.q != p.q || f.log_ring != p.log_ring || f.ring_q != p.ring_q ||
      f.base_g != p.base_g || f.q_ks != p.q_ks || f.base_ks != p.base_ks ||
      f.sigma != p.sigma)
    r.fail("the fields of parameter set '" + name + "' differ from it");
  return p;
}

std::array<uint8_t, 32> paramsHash(const Params &p) {
  Writer w;
  w.putString("ember::lwe");
  putParams(w, p);
  return serial::sha256(w.bytes.data(), w.bytes.size());
}

/// The payload of a file of `kind` made for `expected` (or for the set it
/// names, when expected is null), past its parameter fields.
struct Opened {
  serial::Unwrapped u;
  Reader reader;
  Params params;
};
Opened open(const Bytes &bytes, ObjectKind kind, const Params *expected) {
  serial::Unwrapped u = serial::unwrap(bytes);
  if (u.kind != kind)
    throw SerializationError(std::string("expected ") + objectKindName(kind) +
                             ", the file holds " + objectKindName(u.kind));
  Reader r(u.payload, u.payload_size, objectKindName(kind));
  const Params p = getParams(r);
  if (u.param_hash != paramsHash(p))
    r.fail("the parameter hash does not match its set");
  if (expected && paramsHash(*expected) != u.param_hash)
    throw SerializationError(std::string("these ") + objectKindName(kind) +
                             " were made for parameter set '" + p.name +
                             "', not '" + expected->name + "'");
  return {u, r, p};
}

template <typename T>
void checkBelow(Reader &r, const std::vector<T> &v, uint64_t bound,
                const char *what) {
  if (std::any_of(v.begin(), v.end(), [&](T x) { return x >= bound; }))
    r.fail(std::string("a word of the ") + what + " is not below " +
           std::to_string(bound));
}

} // namespace

Bytes serialize(const SecretKey &sk) {
  Writer w;
  putParams(w, sk.params());
  std::vector<int8_t> coeffs;
  coeffs.reserve(sk.lweKey().size() + sk.ringKey().size());
  coeffs.insert(coeffs.end(), sk.lweKey().begin(), sk.lweKey().end());
  coeffs.insert(coeffs.end(), sk.ringKey().begin(), sk.ringKey().end());
  w.putWords(coeffs.data(), coeffs.size());
  secureWipe(coeffs);
  Bytes out =
      serial::wrap(ObjectKind::kLweSecretKey, paramsHash(sk.params()), w.bytes);
  secureWipe(w.bytes);
  return out;
}

std::unique_ptr<SecretKey> deserializeSecretKey(const Bytes &bytes) {
  Opened f = open(bytes, ObjectKind::kLweSecretKey, nullptr);
  const size_t n = f.params.n, big_n = f.params.ringN();
  std::vector<int8_t> coeffs(n + big_n);
  f.reader.getWords(coeffs.data(), coeffs.size());
  f.reader.expectEnd();
  if (std::any_of(coeffs.begin(), coeffs.end(),
                  [](int8_t c) { return c < -1 || c > 1; }))
    f.reader.fail("a key coefficient outside {-1, 0, 1}");
  std::vector<int32_t> s(coeffs.begin(), coeffs.begin() + n),
      ring_s(coeffs.begin() + n, coeffs.end());
  secureWipe(coeffs);
  return std::make_unique<SecretKey>(f.params, std::move(s), std::move(ring_s));
}

Bytes serialize(const EvaluationKeys &keys) {
  const EvaluationKeys::Impl &k = keys.impl();
  Writer w;
  putParams(w, k.params);
  w.put<uint32_t>(uint32_t(k.rows));
  w.put<uint64_t>(k.bsk.size());
  w.putWords(k.bsk.data(), k.bsk.size());
  if (k.params.raising())
    w.putWords(k.bsk_p.data(), k.bsk_p.size());
  w.put<uint64_t>(k.keySwitchWords());
  if (k.params.wideKeySwitch())
    w.putWords(k.ksk32.data(), k.ksk32.size());
  else
    w.putWords(k.ksk.data(), k.ksk.size());
  return serial::wrap(ObjectKind::kLweEvaluationKeys, paramsHash(k.params),
                      w.bytes);
}

EvaluationKeys deserializeEvaluationKeys(const Bytes &bytes) {
  Opened f = open(bytes, ObjectKind::kLweEvaluationKeys, nullptr);
  Reader &r = f.reader;
  auto k = std::make_unique<EvaluationKeys::Impl>();
  k->setUp(f.params);
  if (r.get<uint32_t>() != uint32_t(k->rows))
    r.fail("an RGSW row count other than the set's " + std::to_string(k->rows));
  const size_t bsk_words = size_t(f.params.n) * k->keysPerCoefficient() *
                           k->rows * 2 * f.params.ringN();
  if (r.get<uint64_t>() != bsk_words)
    r.fail("a bootstrapping key of another size than the set's " +
           std::to_string(bsk_words) + " words");
  k->bsk.resize(bsk_words);
  r.getWords(k->bsk.data(), bsk_words);
  checkBelow(r, k->bsk, f.params.ring_q, "bootstrapping key");
  if (f.params.raising()) {
    k->bsk_p.resize(bsk_words);
    r.getWords(k->bsk_p.data(), bsk_words);
    checkBelow(r, k->bsk_p, f.params.ring_p, "bootstrapping key (mod P)");
  }
  const size_t ksk_words = f.params.ringN() * f.params.digitsKs() *
                           (f.params.base_ks - 1) * (f.params.n + 1);
  if (r.get<uint64_t>() != ksk_words)
    r.fail("a key-switching key of another size than the set's " +
           std::to_string(ksk_words) + " words");
  auto words = [&](auto &v) {
    v.resize(ksk_words);
    r.getWords(v.data(), ksk_words);
    checkBelow(r, v, f.params.q_ks, "key-switching key");
  };
  if (f.params.wideKeySwitch())
    words(k->ksk32);
  else
    words(k->ksk);
  r.expectEnd();
  return EvaluationKeys(std::move(k));
}

Bytes serialize(const Params &params, const std::vector<Ciphertext> &cts) {
  // Bits (at q, dimension n) or blocks (at Q, dimension N), as the first
  // ciphertext is; every other must be the same.
  const bool blocks = !cts.empty() && cts[0].modulus == params.ring_q &&
                      cts[0].a.size() == params.ringN();
  const uint32_t modulus = blocks ? params.ring_q : params.q;
  const size_t dim = blocks ? params.ringN() : size_t(params.n);
  Writer w;
  putParams(w, params);
  w.put<uint64_t>(cts.size());
  for (size_t i = 0; i < cts.size(); ++i) {
    const Ciphertext &ct = cts[i];
    if (ct.modulus != modulus || ct.a.size() != dim)
      throw InvalidArgument(
          "serialize: ciphertext " + std::to_string(i) + " has dimension " +
          std::to_string(ct.a.size()) + " at " + std::to_string(ct.modulus) +
          ", not " + std::to_string(dim) + (blocks ? " at Q = " : " at q = ") +
          std::to_string(modulus) +
          (blocks ? " (a radix block, as the first)"
                  : " (bits; or all radix blocks, dimension N = " +
                        std::to_string(params.ringN()) +
                        " at Q = " + std::to_string(params.ring_q) + ")"));
    if (std::any_of(ct.a.begin(), ct.a.end(),
                    [&](uint32_t x) { return x >= modulus; }) ||
        ct.b >= modulus)
      throw InvalidArgument("serialize: ciphertext " + std::to_string(i) +
                            " has a word not below " + std::to_string(modulus));
    w.putWords(ct.a.data(), ct.a.size());
    w.put<uint32_t>(ct.b);
  }
  return serial::wrap(blocks ? ObjectKind::kLweBlocks
                             : ObjectKind::kLweCiphertexts,
                      paramsHash(params), w.bytes);
}

namespace {

std::vector<Ciphertext> readCiphertexts(const Params &params,
                                        const Bytes &bytes, ObjectKind kind) {
  Opened f = open(bytes, kind, &params);
  Reader &r = f.reader;
  const bool blocks = kind == ObjectKind::kLweBlocks;
  const uint32_t modulus = blocks ? params.ring_q : params.q;
  const size_t dim = blocks ? params.ringN() : size_t(params.n);
  const uint64_t count = r.get<uint64_t>();
  const size_t row = (dim + 1) * sizeof(uint32_t);
  if (count > f.u.payload_size / row)
    r.fail(std::to_string(count) + (blocks ? " blocks" : " ciphertexts") +
           " announced, fewer present");
  std::vector<Ciphertext> out(count);
  const char *what = blocks ? "radix blocks" : "ciphertexts";
  for (Ciphertext &ct : out) {
    ct.modulus = modulus;
    ct.a.resize(dim);
    r.getWords(ct.a.data(), ct.a.size());
    ct.b = r.get<uint32_t>();
    checkBelow(r, ct.a, modulus, what);
    if (ct.b >= modulus)
      r.fail(std::string("a word of the ") + what + " is not below " +
             std::to_string(modulus));
  }
  r.expectEnd();
  return out;
}

} // namespace

std::vector<Ciphertext> deserializeCiphertexts(const Params &params,
                                               const Bytes &bytes) {
  // The kind from the header (open checks it, the checksum and the rest).
  uint32_t kind = 0;
  if (bytes.size() >= 12)
    std::memcpy(&kind, bytes.data() + 8, 4);
  return readCiphertexts(params, bytes,
                         kind == uint32_t(ObjectKind::kLweBlocks)
                             ? ObjectKind::kLweBlocks
                             : ObjectKind::kLweCiphertexts);
}

std::vector<Ciphertext>
deserializeCiphertexts(const Params &params, const Bytes &bytes, bool blocks) {
  return readCiphertexts(params, bytes,
                         blocks ? ObjectKind::kLweBlocks
                                : ObjectKind::kLweCiphertexts);
}

} // namespace ember::lwe
