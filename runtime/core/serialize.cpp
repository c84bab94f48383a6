// Binary serialization with version, kind, parameter hash and a SHA-256
// checksum; every field is validated on load (see serialize.h).
#include "ember/serialize.h"
#include "ember/errors.h"

#include <openssl/evp.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

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
  }
  return "unknown object";
}

namespace {

constexpr char kMagic[4] = {'E', 'M', 'B', 'R'};
constexpr size_t kHashSize = 32;
constexpr size_t kHeaderSize = 4 + 4 + 4 + kHashSize + 8;

std::array<uint8_t, kHashSize> sha256(const uint8_t *data, size_t size) {
  std::array<uint8_t, kHashSize> digest{};
  unsigned int len = 0;
  if (EVP_Digest(data, size, digest.data(), &len, EVP_sha256(), nullptr) != 1)
    throw Error("OpenSSL SHA-256 failed");
  return digest;
}

class Writer {
public:
  template <typename T> void put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto *p = reinterpret_cast<const uint8_t *>(&value);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  void putString(const std::string &s) {
    put<uint32_t>(static_cast<uint32_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  void putPoly(const Poly64 &p) {
    put<uint64_t>(p.n);
    put<uint8_t>(p.ntt ? 1 : 0);
    put<uint32_t>(static_cast<uint32_t>(p.basis.size()));
    for (int b : p.basis)
      put<int32_t>(b);
    const auto *raw = reinterpret_cast<const uint8_t *>(p.data.data());
    bytes.insert(bytes.end(), raw, raw + p.data.size() * sizeof(Word64));
  }
  Bytes bytes;
};

class Reader {
public:
  Reader(const uint8_t *data, size_t size, const char *what)
      : data_(data), size_(size), what_(what) {}
  template <typename T> T get() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, data_ + pos_, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }
  std::string getString() {
    uint32_t len = get<uint32_t>();
    need(len);
    std::string s(reinterpret_cast<const char *>(data_ + pos_), len);
    pos_ += len;
    return s;
  }
  Poly64 getPoly(const Context64 &ctx) {
    uint64_t n = get<uint64_t>();
    if (n != ctx.n())
      fail("a polynomial of degree " + std::to_string(n) + ", expected " +
           std::to_string(ctx.n()));
    uint8_t ntt = get<uint8_t>();
    uint32_t limbs = get<uint32_t>();
    if (limbs == 0 || limbs > static_cast<uint32_t>(ctx.allModuliCount()))
      fail("a polynomial with " + std::to_string(limbs) + " limbs");
    std::vector<int> basis(limbs);
    for (uint32_t i = 0; i < limbs; ++i) {
      basis[i] = get<int32_t>();
      if (basis[i] < 0 || basis[i] >= ctx.allModuliCount())
        fail("modulus index " + std::to_string(basis[i]) + " out of range");
    }
    Poly64 p(basis, n, ntt != 0);
    need(p.data.size() * sizeof(Word64));
    std::memcpy(p.data.data(), data_ + pos_, p.data.size() * sizeof(Word64));
    pos_ += p.data.size() * sizeof(Word64);
    for (uint32_t i = 0; i < limbs; ++i) {
      const Word64 q = ctx.modulus(basis[i]).value();
      const Word64 *limb = p.limb(i);
      for (size_t k = 0; k < n; ++k)
        if (limb[k] >= q)
          fail("a residue not reduced modulo its prime");
    }
    return p;
  }
  void expectEnd() {
    if (pos_ != size_)
      fail(std::to_string(size_ - pos_) + " trailing bytes");
  }
  [[noreturn]] void fail(const std::string &why) const {
    throw SerializationError(std::string("malformed ") + what_ + ": " + why);
  }

private:
  void need(size_t count) const {
    if (size_ - pos_ < count)
      fail("truncated payload");
  }
  const uint8_t *data_;
  size_t size_;
  size_t pos_ = 0;
  const char *what_;
};

Bytes wrap(ObjectKind kind, const std::array<uint8_t, 32> &param_hash,
           const Bytes &payload) {
  Writer w;
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

struct Unwrapped {
  ObjectKind kind;
  std::array<uint8_t, 32> param_hash;
  const uint8_t *payload;
  size_t payload_size;
};

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
  if (kind < 1 || kind > 6)
    throw SerializationError("unknown object kind " + std::to_string(kind));
  Unwrapped u;
  u.kind = static_cast<ObjectKind>(kind);
  std::memcpy(u.param_hash.data(), bytes.data() + 12, kHashSize);
  u.payload = bytes.data() + kHeaderSize;
  u.payload_size = payload_size;
  return u;
}

Unwrapped unwrapFor(const Context64 &ctx, const Bytes &bytes,
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

void putSwitchingKey(Writer &w, const SwitchingKey &key) {
  w.put<uint32_t>(static_cast<uint32_t>(key.b.size()));
  for (size_t j = 0; j < key.b.size(); ++j) {
    w.putPoly(key.b[j]);
    w.putPoly(key.a[j]);
  }
}

SwitchingKey getSwitchingKey(Reader &r, const Context64 &ctx) {
  SwitchingKey key;
  uint32_t digits = r.get<uint32_t>();
  if (digits != static_cast<uint32_t>(ctx.digitCount(ctx.maxLevel())))
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

void putKlssKey(Writer &w, const KlssKey &key) {
  w.put<uint32_t>(static_cast<uint32_t>(key.digits));
  w.put<uint32_t>(static_cast<uint32_t>(key.groups));
  for (size_t j = 0; j < key.b.size(); ++j) {
    w.putPoly(key.b[j]);
    w.putPoly(key.a[j]);
  }
}

KlssKey getKlssKey(Reader &r, const Context64 &ctx) {
  if (!ctx.hasKlss())
    r.fail("a KLSS key for parameters without a KLSS form");
  KlssKey key;
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

void checkSlots(Reader &r, const Context64 &ctx, uint64_t slots) {
  if (slots == 0 || (slots & (slots - 1)) != 0 || slots > ctx.slotsMax())
    r.fail("slot count " + std::to_string(slots));
}

} // namespace

Bytes serializeParams(const Context64 &ctx) {
  Writer w;
  const ParamSpec &s = ctx.spec();
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
  s.log_n = r.get<int32_t>();
  s.dnum = r.get<int32_t>();
  s.log_scale = r.get<double>();
  s.hamming_weight = r.get<int32_t>();
  s.security = r.get<uint8_t>() ? Security::kInsecureTestOnly : Security::k128;
  uint32_t q_count = r.get<uint32_t>(), p_count = r.get<uint32_t>();
  uint32_t t_count = r.get<uint32_t>();
  s.klss_gamma = r.get<int32_t>();
  if (q_count == 0 || q_count > 256 || p_count > 256 || t_count > 256)
    r.fail("a chain of " + std::to_string(q_count) + " + " +
           std::to_string(p_count) + " + " + std::to_string(t_count) +
           " primes");
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

Bytes serialize(const Context64 &ctx, const SecretKey &sk) {
  Writer w;
  w.putPoly(sk.s);
  return wrap(ObjectKind::kSecretKey, ctx.hash(), w.bytes);
}

Bytes serialize(const Context64 &ctx, const PublicKey &pk) {
  Writer w;
  w.putPoly(pk.b);
  w.putPoly(pk.a);
  return wrap(ObjectKind::kPublicKey, ctx.hash(), w.bytes);
}

Bytes serialize(const Context64 &ctx, const EvaluationKeys &keys) {
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
  return wrap(ObjectKind::kEvaluationKeys, ctx.hash(), w.bytes);
}

Bytes serialize(const Context64 &ctx, const Ciphertext &ct) {
  Writer w;
  w.put<int32_t>(ct.level);
  w.put<double>(ct.scale);
  w.put<uint64_t>(ct.slots);
  w.put<uint32_t>(static_cast<uint32_t>(ct.c.size()));
  for (const Poly64 &p : ct.c)
    w.putPoly(p);
  return wrap(ObjectKind::kCiphertext, ctx.hash(), w.bytes);
}

Bytes serialize(const Context64 &ctx, const Plaintext &pt) {
  Writer w;
  w.put<int32_t>(pt.level);
  w.put<double>(pt.scale);
  w.put<uint64_t>(pt.slots);
  w.putPoly(pt.poly);
  return wrap(ObjectKind::kPlaintext, ctx.hash(), w.bytes);
}

SecretKey deserializeSecretKey(const Context64 &ctx, const Bytes &bytes) {
  Unwrapped u = unwrapFor(ctx, bytes, ObjectKind::kSecretKey);
  Reader r(u.payload, u.payload_size, "secret key");
  SecretKey sk{r.getPoly(ctx)};
  if (sk.s.basis != ctx.qpBasis(ctx.maxLevel()) || !sk.s.ntt)
    r.fail("the key is not in NTT form over Q u P");
  r.expectEnd();
  return sk;
}

PublicKey deserializePublicKey(const Context64 &ctx, const Bytes &bytes) {
  Unwrapped u = unwrapFor(ctx, bytes, ObjectKind::kPublicKey);
  Reader r(u.payload, u.payload_size, "public key");
  PublicKey pk;
  pk.b = r.getPoly(ctx);
  pk.a = r.getPoly(ctx);
  const std::vector<int> q = ctx.qBasis(ctx.maxLevel());
  if (pk.b.basis != q || pk.a.basis != q || !pk.b.ntt || !pk.a.ntt)
    r.fail("the key is not in NTT form over Q");
  r.expectEnd();
  return pk;
}

EvaluationKeys deserializeEvaluationKeys(const Context64 &ctx,
                                         const Bytes &bytes) {
  Unwrapped u = unwrapFor(ctx, bytes, ObjectKind::kEvaluationKeys);
  Reader r(u.payload, u.payload_size, "evaluation keys");
  EvaluationKeys keys;
  keys.has_relin = r.get<uint8_t>() != 0;
  if (keys.has_relin)
    keys.relin.key = getSwitchingKey(r, ctx);
  uint32_t count = r.get<uint32_t>();
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t g = r.get<uint64_t>();
    if (g % 2 == 0 || g >= 2 * ctx.n())
      r.fail("Galois element " + std::to_string(g));
    keys.galois.keys.emplace(g, getSwitchingKey(r, ctx));
  }
  keys.has_klss_relin = r.get<uint8_t>() != 0;
  if (keys.has_klss_relin)
    keys.klss_relin.key = getKlssKey(r, ctx);
  count = r.get<uint32_t>();
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t g = r.get<uint64_t>();
    if (g % 2 == 0 || g >= 2 * ctx.n())
      r.fail("Galois element " + std::to_string(g));
    keys.klss_galois.keys.emplace(g, getKlssKey(r, ctx));
  }
  r.expectEnd();
  return keys;
}

Ciphertext deserializeCiphertext(const Context64 &ctx, const Bytes &bytes) {
  Unwrapped u = unwrapFor(ctx, bytes, ObjectKind::kCiphertext);
  Reader r(u.payload, u.payload_size, "ciphertext");
  Ciphertext ct;
  ct.level = r.get<int32_t>();
  ct.scale = r.get<double>();
  ct.slots = r.get<uint64_t>();
  if (ct.level < 0 || ct.level > ctx.maxLevel())
    r.fail("level " + std::to_string(ct.level));
  if (!(ct.scale > 0) || !std::isfinite(ct.scale))
    r.fail("scale");
  checkSlots(r, ctx, ct.slots);
  uint32_t count = r.get<uint32_t>();
  if (count < 2 || count > 3)
    r.fail(std::to_string(count) + " polynomials");
  for (uint32_t i = 0; i < count; ++i) {
    ct.c.push_back(r.getPoly(ctx));
    if (ct.c.back().basis != ctx.qBasis(ct.level) || !ct.c.back().ntt)
      r.fail("a polynomial not in NTT form over q_0..q_level");
  }
  r.expectEnd();
  return ct;
}

Plaintext deserializePlaintext(const Context64 &ctx, const Bytes &bytes) {
  Unwrapped u = unwrapFor(ctx, bytes, ObjectKind::kPlaintext);
  Reader r(u.payload, u.payload_size, "plaintext");
  Plaintext pt;
  pt.level = r.get<int32_t>();
  pt.scale = r.get<double>();
  pt.slots = r.get<uint64_t>();
  if (pt.level < 0 || pt.level > ctx.maxLevel())
    r.fail("level " + std::to_string(pt.level));
  if (!(pt.scale > 0) || !std::isfinite(pt.scale))
    r.fail("scale");
  checkSlots(r, ctx, pt.slots);
  pt.poly = r.getPoly(ctx);
  if (pt.poly.basis != ctx.qBasis(pt.level) || !pt.poly.ntt)
    r.fail("a polynomial not in NTT form over q_0..q_level");
  r.expectEnd();
  return pt;
}

ObjectKind peekKind(const Bytes &bytes) { return unwrap(bytes).kind; }

void writeFile(const std::string &path, const Bytes &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw SerializationError("cannot open '" + path + "' for writing");
  out.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out)
    throw SerializationError("cannot write '" + path + "'");
}

Bytes readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw SerializationError("cannot open '" + path + "' for reading");
  return Bytes(std::istreambuf_iterator<char>(in),
               std::istreambuf_iterator<char>());
}

} // namespace ember
