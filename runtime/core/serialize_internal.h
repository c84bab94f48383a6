// The container of serialize.h (header, payload, checksum) and the field
// readers and writers, shared by the CKKS objects (serialize.cpp) and the
// FHEW/TFHE ones (lwe_serialize.cpp); not public API.
#pragma once

#include "ember/errors.h"
#include "ember/serialize.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace ember::serial {

inline constexpr char kMagic[4] = {'E', 'M', 'B', 'R'};
inline constexpr size_t kHashSize = 32;
inline constexpr size_t kHeaderSize = 4 + 4 + 4 + kHashSize + 8;

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
  /// n, form, basis, then the residues as words of the context's size
  /// (the parameter hash says which: it names the word).
  template <typename W> void putPoly(const Poly<W> &p) {
    put<uint64_t>(p.n);
    put<uint8_t>(p.ntt ? 1 : 0);
    put<uint32_t>(static_cast<uint32_t>(p.basis.size()));
    for (int b : p.basis)
      put<int32_t>(b);
    const auto *raw = reinterpret_cast<const uint8_t *>(p.data.data());
    bytes.insert(bytes.end(), raw, raw + p.data.size() * sizeof(W));
  }
  /// `count` plain words (their size is the type's).
  template <typename T> void putWords(const T *data, size_t count) {
    const auto *raw = reinterpret_cast<const uint8_t *>(data);
    bytes.insert(bytes.end(), raw, raw + count * sizeof(T));
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
  template <typename W> Poly<W> getPoly(const Context<W> &ctx) {
    uint64_t n = get<uint64_t>();
    if (n != ctx.n())
      fail("a polynomial of degree " + std::to_string(n) + ", expected " +
           std::to_string(ctx.n()));
    uint8_t ntt = get<uint8_t>();
    if (ntt > 1)
      fail("a polynomial with form flag " + std::to_string(ntt) +
           " (0: coefficients, 1: NTT)");
    uint32_t limbs = get<uint32_t>();
    if (limbs == 0 || limbs > static_cast<uint32_t>(ctx.allModuliCount()))
      fail("a polynomial with " + std::to_string(limbs) + " limbs");
    std::vector<int> basis(limbs);
    for (uint32_t i = 0; i < limbs; ++i) {
      basis[i] = get<int32_t>();
      if (basis[i] < 0 || basis[i] >= ctx.allModuliCount())
        fail("modulus index " + std::to_string(basis[i]) + " out of range");
    }
    Poly<W> p(basis, n, ntt != 0);
    need(p.data.size() * sizeof(W));
    std::memcpy(p.data.data(), data_ + pos_, p.data.size() * sizeof(W));
    pos_ += p.data.size() * sizeof(W);
    for (uint32_t i = 0; i < limbs; ++i) {
      const W q = ctx.modulus(basis[i]).value();
      const W *limb = p.limb(i);
      for (size_t k = 0; k < n; ++k)
        if (limb[k] >= q)
          fail("a residue not reduced modulo its prime");
    }
    return p;
  }
  /// `count` plain words into `out`.
  template <typename T> void getWords(T *out, size_t count) {
    need(count * sizeof(T));
    std::memcpy(out, data_ + pos_, count * sizeof(T));
    pos_ += count * sizeof(T);
  }
  /// A flag byte: 0 or 1, anything else names `field`.
  bool getFlag(const char *field) {
    uint8_t v = get<uint8_t>();
    if (v > 1)
      fail(std::string(field) + " flag " + std::to_string(v) +
           " (expected 0 or 1)");
    return v != 0;
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

struct Unwrapped {
  ObjectKind kind;
  std::array<uint8_t, 32> param_hash;
  const uint8_t *payload;
  size_t payload_size;
};

/// SHA-256 of `size` bytes (OpenSSL).
std::array<uint8_t, kHashSize> sha256(const uint8_t *data, size_t size);
/// Header, payload and checksum.
Bytes wrap(ObjectKind kind, const std::array<uint8_t, 32> &param_hash,
           const Bytes &payload);
/// Checks header and checksum; the payload's place in `bytes`.
Unwrapped unwrap(const Bytes &bytes);

} // namespace ember::serial
