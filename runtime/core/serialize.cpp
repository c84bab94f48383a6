// Binary serialization with version, kind, parameter hash and a SHA-256
// checksum; every field is validated on load (see serialize.h).
#include "ember/serialize.h"
#include "ember/errors.h"
#include "ember/wipe.h"
#include "internal.h"
#include "serialize_internal.h"

#include <openssl/evp.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace ember {

const char *objectKindName(ObjectKind kind) {
  switch (kind) {
  case ObjectKind::kParams:
    return "parameters";
  case ObjectKind::kSecretKey:
    return "secret key";
  case ObjectKind::kPublicKey:
    return "public key";
  case ObjectKind::kEvaluationKeys:
    return "evaluation keys";
  case ObjectKind::kCiphertext:
    return "ciphertext";
  case ObjectKind::kPlaintext:
    return "plaintext";
  case ObjectKind::kLweSecretKey:
    return "FHEW/TFHE secret key";
  case ObjectKind::kLweEvaluationKeys:
    return "FHEW/TFHE evaluation keys";
  case ObjectKind::kLweCiphertexts:
    return "FHEW/TFHE ciphertexts";
  case ObjectKind::kLweBlocks:
    return "FHEW/TFHE radix blocks";
  }
  return "unknown object";
}

namespace serial {

std::array<uint8_t, kHashSize> sha256(const uint8_t *data, size_t size) {
  std::array<uint8_t, kHashSize> digest{};
  unsigned int len = 0;
  if (EVP_Digest(data, size, digest.data(), &len, EVP_sha256(), nullptr) != 1)
    throw Error("OpenSSL SHA-256 failed");
  return digest;
}

Bytes wrap(ObjectKind kind, const std::array<uint8_t, 32> &param_hash,
           const Bytes &payload) {
  Writer w;
  // One allocation: a growing vector would leave copies of a secret key's
  // residues in freed memory.
  w.bytes.reserve(kHeaderSize + payload.size() + kHashSize);
  w.bytes.insert(w.bytes.end(), kMagic, kMagic + 4);
  w.put<uint32_t>(kFormatVersion);
  w.put<uint32_t>(static_cast<uint32_t>(kind));
  w.bytes.insert(w.bytes.end(), param_hash.begin(), param_hash.end());
  w.put<uint64_t>(payload.size());
  w.bytes.insert(w.bytes.end(), payload.begin(), payload.end());
  auto digest = sha256(w.bytes.data(), w.bytes.size());
  w.bytes.insert(w.bytes.end(), digest.begin(), digest.end());
  return std::move(w.bytes);
}

Unwrapped unwrap(const Bytes &bytes) {
  if (bytes.size() < kHeaderSize + kHashSize)
    throw SerializationError("truncated file: " + std::to_string(bytes.size()) +
                             " bytes is shorter than the header");
  if (std::memcmp(bytes.data(), kMagic, 4) != 0)
    throw SerializationError("not an Ember file (bad magic number)");
  uint32_t version, kind;
  std::memcpy(&version, bytes.data() + 4, 4);
  std::memcpy(&kind, bytes.data() + 8, 4);
  if (version != kFormatVersion)
    throw SerializationError("format version " + std::to_string(version) +
                             " is not supported (this runtime reads " +
                             std::to_string(kFormatVersion) + ")");
  uint64_t payload_size;
  std::memcpy(&payload_size, bytes.data() + 12 + kHashSize, 8);
  if (payload_size > bytes.size() - kHeaderSize - kHashSize)
    throw SerializationError("truncated file: the header announces " +
                             std::to_string(payload_size) +
                             " payload bytes, fewer are present");
  if (payload_size != bytes.size() - kHeaderSize - kHashSize)
    throw SerializationError("corrupt file: trailing bytes after the checksum");
  auto digest = sha256(bytes.data(), kHeaderSize + payload_size);
  if (std::memcmp(digest.data(), bytes.data() + kHeaderSize + payload_size,
                  kHashSize) != 0)
    throw SerializationError("corrupt file: checksum mismatch");
  if (kind < 1 || kind > uint32_t(ObjectKind::kLweBlocks))
    throw SerializationError("unknown object kind " + std::to_string(kind));
  Unwrapped u;
  u.kind = static_cast<ObjectKind>(kind);
  std::memcpy(u.param_hash.data(), bytes.data() + 12, kHashSize);
  u.payload = bytes.data() + kHeaderSize;
  u.payload_size = payload_size;
  return u;
}

} // namespace serial

namespace {

using namespace serial;

template <typename W>
Unwrapped unwrapFor(const Context<W> &ctx, const Bytes &bytes,
                    ObjectKind expected) {
  Unwrapped u = unwrap(bytes);
  if (u.kind != expected)
    throw SerializationError(std::string("expected a ") +
                             objectKindName(expected) + ", the file holds a " +
                             objectKindName(u.kind));
  if (u.param_hash != ctx.hash())
    throw SerializationError(std::string("this ") + objectKindName(expected) +
                             " was made for other parameters than " +
                             ctx.describe());
  return u;
}

template <typename W>
void putSwitchingKey(Writer &w, const BasicSwitchingKey<W> &key) {
  w.put<uint32_t>(static_cast<uint32_t>(key.b.size()));
  for (size_t j = 0; j < key.b.size(); ++j) {
    w.putPoly(key.b[j]);
    w.putPoly(key.a[j]);
  }
}

/// A switching key of `expected` digits (0: the chain's digit count).
template <typename W>
BasicSwitchingKey<W> getSwitchingKey(Reader &r, const Context<W> &ctx,
                                     int expected = 0) {
  BasicSwitchingKey<W> key;
  uint32_t digits = r.get<uint32_t>();
  if (digits != static_cast<uint32_t>(
                    expected ? expected : ctx.digitCount(ctx.maxLevel())))
    r.fail("a switching key with " + std::to_string(digits) + " digits");
  const std::vector<int> qp = ctx.qpBasis(ctx.maxLevel());
  for (uint32_t j = 0; j < digits; ++j) {
    key.b.push_back(r.getPoly(ctx));
    key.a.push_back(r.getPoly(ctx));
    if (key.b.back().basis != qp || key.a.back().basis != qp ||
        !key.b.back().ntt || !key.a.back().ntt)
      r.fail("a switching key not in NTT form over Q u P");
  }
  return key;
}

template <typename W> void putKlssKey(Writer &w, const BasicKlssKey<W> &key) {
  w.put<uint32_t>(static_cast<uint32_t>(key.digits));
  w.put<uint32_t>(static_cast<uint32_t>(key.groups));
  for (size_t j = 0; j < key.b.size(); ++j) {
    w.putPoly(key.b[j]);
    w.putPoly(key.a[j]);
  }
}

template <typename W>
BasicKlssKey<W> getKlssKey(Reader &r, const Context<W> &ctx) {
  if (!ctx.hasKlss())
    r.fail("a KLSS key for parameters without a KLSS form");
  BasicKlssKey<W> key;
  key.digits = static_cast<int>(r.get<uint32_t>());
  key.groups = static_cast<int>(r.get<uint32_t>());
  if (key.digits != ctx.digitCount(ctx.maxLevel()) ||
      key.groups != ctx.klssGroupCount(ctx.maxLevel()))
    r.fail("a KLSS key with " + std::to_string(key.digits) + " digits x " +
           std::to_string(key.groups) + " groups");
  const std::vector<int> t = ctx.tBasis();
  for (int j = 0; j < key.digits * key.groups; ++j) {
    key.b.push_back(r.getPoly(ctx));
    key.a.push_back(r.getPoly(ctx));
    if (key.b.back().basis != t || key.a.back().basis != t ||
        !key.b.back().ntt || !key.a.back().ntt)
      r.fail("a KLSS key not in NTT form over T");
  }
  return key;
}

template <typename W>
void checkSlots(Reader &r, const Context<W> &ctx, uint64_t slots) {
  if (slots == 0 || (slots & (slots - 1)) != 0 || slots > ctx.slotsMax())
    r.fail("slot count " + std::to_string(slots) +
           " is not a power of two in 1.." + std::to_string(ctx.slotsMax()) +
           " (N/2)");
}

template <typename W>
void checkLevel(Reader &r, const Context<W> &ctx, int level) {
  if (level < 0 || level > ctx.maxLevel())
    r.fail("level " + std::to_string(level) + " is outside 0.." +
           std::to_string(ctx.maxLevel()));
}

/// The scale of a ciphertext or plaintext at `level`: at least 1 and below
/// Q_level / 2, so that a message of magnitude 1 fits (|m| scale < Q_l / 2).
/// A degree-2 product before its rescale carries about q_l times the scale
/// of its factors, which Q_level holds with q_0 to spare; a scale of 1e300
/// does not fit any chain.
template <typename W>
void checkScale(Reader &r, const Context<W> &ctx, int level, double scale) {
  const double limit = internal::logQ(ctx, level) - 1;
  if (!(scale >= 1) || !std::isfinite(scale) || !(std::log2(scale) < limit)) {
    char buf[192];
    std::snprintf(buf, sizeof buf,
                  "scale %.17g (2^%.3f) is outside [1, Q_%d / 2 = 2^%.3f)",
                  scale, std::log2(scale), level, limit);
    r.fail(buf);
  }
}

} // namespace

Bytes serializeParams(const Context64 &ctx) {
  Writer w;
  const ParamSpec &s = ctx.spec();
  if (s.scale_primes != 1)
    throw InvalidArgument("parameter files do not hold double-prime scaling "
                          "yet (scale_primes = " +
                          std::to_string(s.scale_primes) + ")");
  w.putString(s.name);
  w.put<int32_t>(s.log_n);
  w.put<int32_t>(s.dnum);
  w.put<double>(s.log_scale);
  w.put<int32_t>(s.hamming_weight);
  w.put<uint8_t>(s.security == Security::kInsecureTestOnly ? 1 : 0);
  w.put<uint32_t>(static_cast<uint32_t>(ctx.qCount()));
  w.put<uint32_t>(static_cast<uint32_t>(ctx.pCount()));
  w.put<uint32_t>(static_cast<uint32_t>(ctx.tCount()));
  w.put<int32_t>(s.klss_gamma);
  for (uint64_t p : ctx.primes())
    w.put<uint64_t>(p);
  return wrap(ObjectKind::kParams, ctx.hash(), w.bytes);
}

std::unique_ptr<Context64> deserializeParams(const Bytes &bytes) {
  Unwrapped u = unwrap(bytes);
  if (u.kind != ObjectKind::kParams)
    throw SerializationError(std::string("expected parameters, the file "
                                         "holds a ") +
                             objectKindName(u.kind));
  Reader r(u.payload, u.payload_size, "parameters");
  ParamSpec s;
  s.name = r.getString();
  if (s.name.size() > kMaxParamNameLength)
    r.fail("a name of " + std::to_string(s.name.size()) + " bytes (at most " +
           std::to_string(kMaxParamNameLength) + ")");
  for (char c : s.name)
    if (c < 0x20 || c > 0x7e)
      r.fail("a name with a byte outside printable ASCII");
  s.log_n = r.get<int32_t>();
  if (s.log_n < 1 || s.log_n > 17)
    r.fail("log N = " + std::to_string(s.log_n) + " is outside 1..17");
  s.dnum = r.get<int32_t>();
  s.log_scale = r.get<double>();
  if (!(s.log_scale >= 1 && s.log_scale <= 60)) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "log_scale %.17g is outside 1..60",
                  s.log_scale);
    r.fail(buf);
  }
  s.hamming_weight = r.get<int32_t>();
  if (s.hamming_weight < 0 || s.hamming_weight > (1 << s.log_n))
    r.fail("Hamming weight " + std::to_string(s.hamming_weight) +
           " is outside 0..N = " + std::to_string(1 << s.log_n));
  s.security =
      r.getFlag("insecure") ? Security::kInsecureTestOnly : Security::k128;
  uint32_t q_count = r.get<uint32_t>(), p_count = r.get<uint32_t>();
  uint32_t t_count = r.get<uint32_t>();
  s.klss_gamma = r.get<int32_t>();
  if (q_count == 0 || q_count > 256 || p_count > 256 || t_count > 256)
    r.fail("a chain of " + std::to_string(q_count) + " + " +
           std::to_string(p_count) + " + " + std::to_string(t_count) +
           " primes");
  if (s.dnum < 1 || s.dnum > static_cast<int>(q_count))
    r.fail("dnum = " + std::to_string(s.dnum) + " is outside 1.." +
           std::to_string(q_count) + " (the number of Q primes)");
  // A gamma of |Q| + |P| or more is one group (what fhe-to-ckks picks for
  // short chains); the context computes group bounds in 64 bits.
  if (t_count == 0 ? s.klss_gamma != 0 : s.klss_gamma < 1)
    r.fail("KLSS gamma = " + std::to_string(s.klss_gamma) + " with " +
           std::to_string(t_count) + " T primes (0 without T, else >= 1)");
  std::vector<uint64_t> q(q_count), p(p_count), t(t_count);
  for (auto &v : q)
    v = r.get<uint64_t>();
  for (auto &v : p)
    v = r.get<uint64_t>();
  for (auto &v : t)
    v = r.get<uint64_t>();
  r.expectEnd();
  std::unique_ptr<Context64> ctx;
  try {
    ctx = std::make_unique<Context64>(s, q, p, t);
  } catch (const SecurityError &) {
    throw;
  } catch (const Error &e) {
    throw SerializationError(std::string("invalid parameters: ") + e.what());
  }
  if (ctx->hash() != u.param_hash)
    throw SerializationError("parameter file hash does not match its content");
  return ctx;
}

namespace {

template <typename W>
Bytes serializeSecret(const Context<W> &ctx, const BasicSecretKey<W> &sk) {
  Writer w;
  w.bytes.reserve(8 + 1 + 4 + 4 * sk.s.basis.size() +
                  sizeof(W) * sk.s.data.size());
  w.putPoly(sk.s);
  Bytes out = wrap(ObjectKind::kSecretKey, ctx.hash(), w.bytes);
  secureWipe(w.bytes);
  return out;
}

template <typename W>
Bytes serializePublic(const Context<W> &ctx, const BasicPublicKey<W> &pk) {
  Writer w;
  w.putPoly(pk.b);
  w.putPoly(pk.a);
  return wrap(ObjectKind::kPublicKey, ctx.hash(), w.bytes);
}

template <typename W>
Bytes serializeEvaluation(const Context<W> &ctx,
                          const BasicEvaluationKeys<W> &keys) {
  Writer w;
  w.put<uint8_t>(keys.has_relin ? 1 : 0);
  if (keys.has_relin)
    putSwitchingKey(w, keys.relin.key);
  w.put<uint32_t>(static_cast<uint32_t>(keys.galois.keys.size()));
  for (const auto &[g, key] : keys.galois.keys) {
    w.put<uint64_t>(g);
    putSwitchingKey(w, key);
  }
  w.put<uint8_t>(keys.has_klss_relin ? 1 : 0);
  if (keys.has_klss_relin)
    putKlssKey(w, keys.klss_relin.key);
  w.put<uint32_t>(static_cast<uint32_t>(keys.klss_galois.keys.size()));
  for (const auto &[g, key] : keys.klss_galois.keys) {
    w.put<uint64_t>(g);
    putKlssKey(w, key);
  }
  w.put<uint8_t>(keys.has_encapsulation ? 1 : 0);
  if (keys.has_encapsulation) {
    putSwitchingKey(w, keys.encapsulation.to_sparse);
    putSwitchingKey(w, keys.encapsulation.from_sparse);
  }
  return wrap(ObjectKind::kEvaluationKeys, ctx.hash(), w.bytes);
}

template <typename W>
Bytes serializeCt(const Context<W> &ctx, const BasicCiphertext<W> &ct) {
  Writer w;
  w.put<int32_t>(ct.level);
  w.put<double>(ct.scale);
  w.put<uint64_t>(ct.slots);
  w.put<uint32_t>(static_cast<uint32_t>(ct.c.size()));
  for (const Poly<W> &p : ct.c)
    w.putPoly(p);
  return wrap(ObjectKind::kCiphertext, ctx.hash(), w.bytes);
}

template <typename W>
Bytes serializePt(const Context<W> &ctx, const BasicPlaintext<W> &pt) {
  Writer w;
  w.put<int32_t>(pt.level);
  w.put<double>(pt.scale);
  w.put<uint64_t>(pt.slots);
  w.putPoly(pt.poly);
  return wrap(ObjectKind::kPlaintext, ctx.hash(), w.bytes);
}

template <typename W>
BasicSecretKey<W> readSecretKey(const Context<W> &ctx, const Bytes &bytes) {
  Unwrapped u = unwrapFor(ctx, bytes, ObjectKind::kSecretKey);
  Reader r(u.payload, u.payload_size, "secret key");
  BasicSecretKey<W> sk(r.getPoly(ctx));
  if (sk.s.basis != ctx.qpBasis(ctx.maxLevel()) || !sk.s.ntt)
    r.fail("the key is not in NTT form over Q u P");
  r.expectEnd();
  return sk;
}

template <typename W>
BasicPublicKey<W> readPublicKey(const Context<W> &ctx, const Bytes &bytes) {
  Unwrapped u = unwrapFor(ctx, bytes, ObjectKind::kPublicKey);
  Reader r(u.payload, u.payload_size, "public key");
  BasicPublicKey<W> pk;
  pk.b = r.getPoly(ctx);
  pk.a = r.getPoly(ctx);
  const std::vector<int> q = ctx.qBasis(ctx.maxLevel());
  if (pk.b.basis != q || pk.a.basis != q || !pk.b.ntt || !pk.a.ntt)
    r.fail("the key is not in NTT form over Q");
  r.expectEnd();
  return pk;
}

template <typename W>
BasicEvaluationKeys<W> readEvaluationKeys(const Context<W> &ctx,
                                          const Bytes &bytes) {
  Unwrapped u = unwrapFor(ctx, bytes, ObjectKind::kEvaluationKeys);
  Reader r(u.payload, u.payload_size, "evaluation keys");
  BasicEvaluationKeys<W> keys;
  // A Galois key count and element: odd, below 2N, each at most once.
  auto galoisCount = [&](const char *what) {
    uint32_t count = r.get<uint32_t>();
    if (count > ctx.n())
      r.fail(std::to_string(count) + " " + what +
             " Galois keys (there are N = " + std::to_string(ctx.n()) +
             " Galois elements)");
    return count;
  };
  auto galoisElement = [&](const auto &map, const char *what) {
    uint64_t g = r.get<uint64_t>();
    if (g % 2 == 0 || g >= 2 * ctx.n())
      r.fail(std::string(what) + "Galois element " + std::to_string(g) +
             " (must be odd and below 2N = " + std::to_string(2 * ctx.n()) +
             ")");
    if (map.count(g))
      r.fail(std::string("duplicate ") + what + "Galois element " +
             std::to_string(g));
    return g;
  };
  keys.has_relin = r.getFlag("relinearization key");
  if (keys.has_relin)
    keys.relin.key = getSwitchingKey(r, ctx);
  uint32_t count = galoisCount("hybrid");
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t g = galoisElement(keys.galois.keys, "");
    keys.galois.keys.emplace(g, getSwitchingKey(r, ctx));
  }
  keys.has_klss_relin = r.getFlag("KLSS relinearization key");
  if (keys.has_klss_relin)
    keys.klss_relin.key = getKlssKey(r, ctx);
  count = galoisCount("KLSS");
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t g = galoisElement(keys.klss_galois.keys, "KLSS ");
    keys.klss_galois.keys.emplace(g, getKlssKey(r, ctx));
  }
  keys.has_encapsulation = r.getFlag("encapsulation keys");
  if (keys.has_encapsulation) {
    keys.encapsulation.to_sparse = getSwitchingKey(r, ctx, ctx.baseLimbs());
    keys.encapsulation.from_sparse = getSwitchingKey(r, ctx);
  }
  r.expectEnd();
  return keys;
}

template <typename W>
BasicCiphertext<W> readCiphertext(const Context<W> &ctx, const Bytes &bytes) {
  Unwrapped u = unwrapFor(ctx, bytes, ObjectKind::kCiphertext);
  Reader r(u.payload, u.payload_size, "ciphertext");
  BasicCiphertext<W> ct;
  ct.level = r.get<int32_t>();
  ct.scale = r.get<double>();
  ct.slots = r.get<uint64_t>();
  checkLevel(r, ctx, ct.level);
  checkScale(r, ctx, ct.level, ct.scale);
  checkSlots(r, ctx, ct.slots);
  uint32_t count = r.get<uint32_t>();
  if (count < 2 || count > 3)
    r.fail(std::to_string(count) + " polynomials (a ciphertext has 2, or 3 "
                                   "before relinearization)");
  for (uint32_t i = 0; i < count; ++i) {
    ct.c.push_back(r.getPoly(ctx));
    if (ct.c.back().basis != ctx.qBasis(ct.level) || !ct.c.back().ntt)
      r.fail("a polynomial not in NTT form over q_0..q_level");
  }
  r.expectEnd();
  return ct;
}

template <typename W>
BasicPlaintext<W> readPlaintext(const Context<W> &ctx, const Bytes &bytes) {
  Unwrapped u = unwrapFor(ctx, bytes, ObjectKind::kPlaintext);
  Reader r(u.payload, u.payload_size, "plaintext");
  BasicPlaintext<W> pt;
  pt.level = r.get<int32_t>();
  pt.scale = r.get<double>();
  pt.slots = r.get<uint64_t>();
  checkLevel(r, ctx, pt.level);
  checkScale(r, ctx, pt.level, pt.scale);
  checkSlots(r, ctx, pt.slots);
  pt.poly = r.getPoly(ctx);
  if (pt.poly.basis != ctx.qBasis(pt.level) || !pt.poly.ntt)
    r.fail("a polynomial not in NTT form over q_0..q_level");
  r.expectEnd();
  return pt;
}

} // namespace

// The public forms at both words (the word's context: its hash names the
// word, so a file of one word is refused by a context of the other).
#define EMBER_SERIALIZE_WORD(Ctx, Sk, Pk, Evk, Ct, Pt)                         \
  Bytes serialize(const Ctx &ctx, const Sk &sk) {                              \
    return serializeSecret(ctx, sk);                                           \
  }                                                                            \
  Bytes serialize(const Ctx &ctx, const Pk &pk) {                              \
    return serializePublic(ctx, pk);                                           \
  }                                                                            \
  Bytes serialize(const Ctx &ctx, const Evk &keys) {                           \
    return serializeEvaluation(ctx, keys);                                     \
  }                                                                            \
  Bytes serialize(const Ctx &ctx, const Ct &ct) {                              \
    return serializeCt(ctx, ct);                                               \
  }                                                                            \
  Bytes serialize(const Ctx &ctx, const Pt &pt) {                              \
    return serializePt(ctx, pt);                                               \
  }                                                                            \
  Sk deserializeSecretKey(const Ctx &ctx, const Bytes &bytes) {                \
    return readSecretKey(ctx, bytes);                                          \
  }                                                                            \
  Pk deserializePublicKey(const Ctx &ctx, const Bytes &bytes) {                \
    return readPublicKey(ctx, bytes);                                          \
  }                                                                            \
  Evk deserializeEvaluationKeys(const Ctx &ctx, const Bytes &bytes) {          \
    return readEvaluationKeys(ctx, bytes);                                     \
  }                                                                            \
  Ct deserializeCiphertext(const Ctx &ctx, const Bytes &bytes) {               \
    return readCiphertext(ctx, bytes);                                         \
  }                                                                            \
  Pt deserializePlaintext(const Ctx &ctx, const Bytes &bytes) {                \
    return readPlaintext(ctx, bytes);                                          \
  }
EMBER_SERIALIZE_WORD(Context64, SecretKey, PublicKey, EvaluationKeys,
                     Ciphertext, Plaintext)
EMBER_SERIALIZE_WORD(Context32, SecretKey32, PublicKey32, EvaluationKeys32,
                     Ciphertext32, Plaintext32)
#undef EMBER_SERIALIZE_WORD

ObjectKind peekKind(const Bytes &bytes) { return unwrap(bytes).kind; }

bool holdsSecretKey(const Bytes &bytes) {
  uint32_t kind = 0;
  if (bytes.size() < 12 || std::memcmp(bytes.data(), kMagic, 4) != 0)
    return false;
  std::memcpy(&kind, bytes.data() + 8, 4);
  return kind == static_cast<uint32_t>(ObjectKind::kSecretKey) ||
         kind == static_cast<uint32_t>(ObjectKind::kLweSecretKey);
}

namespace {
[[noreturn]] void fileError(const std::string &what, const std::string &path) {
  throw SerializationError("cannot " + what + " '" + path +
                           "': " + std::strerror(errno));
}

/// Writes a secret key so that no one else can read it at any moment: a
/// fresh file (mkstemp, mode 0600, fchmod 0600 whatever the umask) in the
/// target's directory, renamed over the target once written. A file already
/// there, or a descriptor someone holds open on it, never sees the key; a
/// symbolic link at `path` is replaced, not followed.
void writeSecretFile(const std::string &path, const Bytes &bytes) {
  std::string tmp = path + ".XXXXXX";
  int fd = mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0)
    fileError("create a temporary file next to", path);
  auto fail = [&](const char *what) {
    int saved = errno;
    close(fd);
    unlink(tmp.c_str());
    errno = saved;
    fileError(what, path);
  };
  if (fchmod(fd, S_IRUSR | S_IWUSR) != 0)
    fail("set mode 0600 on the secret key file");
  for (size_t done = 0; done < bytes.size();) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      fail("write");
    done += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0)
    fail("flush");
  if (close(fd) != 0) {
    unlink(tmp.c_str());
    fileError("write", path);
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    int saved = errno;
    unlink(tmp.c_str());
    errno = saved;
    fileError("write", path);
  }
}
} // namespace

void writeFile(const std::string &path, const Bytes &bytes) {
  if (holdsSecretKey(bytes))
    return writeSecretFile(path, bytes);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw SerializationError("cannot open '" + path + "' for writing");
  out.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out)
    throw SerializationError("cannot write '" + path + "'");
}

Bytes readFile(const std::string &path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    fileError("open for reading", path);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    throw SerializationError("cannot read '" + path + "': not a regular file");
  }
  // One allocation of the file's size: no stray copies of a secret key.
  Bytes bytes(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int saved = errno;
      close(fd);
      errno = saved;
      fileError("read", path);
    }
    if (n == 0)
      break; // shrank while reading: the checks report a truncated file
    done += static_cast<size_t>(n);
  }
  close(fd);
  bytes.resize(done);
  return bytes;
}

} // namespace ember
