// Shared by the runtime harnesses (fuzz_params, fuzz_objects) and the seed
// generator: the fixed small context the object harness loads into, and the
// "re-seal" step that makes a mutated file pass the SHA-256 checksum.
//
// Re-sealing: a random mutation of a serialized file almost always breaks
// its checksum, so a fuzzer that feeds raw bytes only exercises the header
// checks. In re-seal mode the harness rewrites the payload length, the
// parameter hash (object harness) and the checksum after mutation, so that
// the field validation behind the checksum is what gets fuzzed. The layout
// is serialize.h's: "EMBR" | version u32 | kind u32 | parameter hash (32)
// | payload length u64 | payload | SHA-256 of everything before (32).
#pragma once

#include "ember/context.h"
#include "ember/serialize.h"

#include <openssl/evp.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>

namespace ember::fuzz {

constexpr size_t kHashSize = 32;
constexpr size_t kHeaderSize = 4 + 4 + 4 + kHashSize + 8;

/// The context every object harness loads into: N = 2^4 (insecure test
/// mode, so that a polynomial is 16 words and an input a few hundred
/// bytes), Q = 3 primes, P = 2, dnum 2, and a KLSS form (gamma 2, 4 T
/// primes) so that KLSS keys are exercised too.
inline std::unique_ptr<Context64> makeFuzzContext() {
  ParamSpec spec;
  spec.name = "fuzz";
  spec.log_n = 4;
  spec.q_bits = {50, 40, 40};
  spec.p_bits = {60, 50};
  spec.dnum = 2;
  spec.log_scale = 40;
  spec.klss_gamma = 2;
  spec.t_bits = {61, 61, 61, 61};
  spec.security = Security::kInsecureTestOnly;
  return std::make_unique<Context64>(spec);
}

/// The 32-bit context of the object harness (selector bit 7): N = 2^4,
/// double-prime scaling (q_0 and two pairs carrying 2^40), P = 2 primes
/// of 30 bits, a digit per Q prime; no KLSS form (the 32-bit objects have
/// the same fields with 4-byte residues).
inline std::unique_ptr<Context32> makeFuzzContext32() {
  ParamSpec spec;
  spec.name = "fuzz32";
  spec.log_n = 4;
  spec.q_bits = {30, 20, 20, 20, 20};
  spec.p_bits = {30, 30};
  spec.dnum = 5;
  spec.log_scale = 40;
  spec.scale_primes = 2;
  spec.security = Security::kInsecureTestOnly;
  return std::make_unique<Context32>(spec);
}

/// Rewrites the payload length, optionally the kind and parameter hash, and
/// the checksum of `bytes` in place; leaves inputs shorter than a header and
/// checksum as they are.
inline void reseal(Bytes &bytes, const std::array<uint8_t, 32> *param_hash,
                   const ObjectKind *kind) {
  if (bytes.size() < kHeaderSize + kHashSize)
    return;
  if (kind) {
    uint32_t k = static_cast<uint32_t>(*kind);
    std::memcpy(bytes.data() + 8, &k, 4);
  }
  if (param_hash)
    std::memcpy(bytes.data() + 12, param_hash->data(), kHashSize);
  uint64_t payload = bytes.size() - kHeaderSize - kHashSize;
  std::memcpy(bytes.data() + 12 + kHashSize, &payload, 8);
  unsigned int len = 0;
  EVP_Digest(bytes.data(), kHeaderSize + payload,
             bytes.data() + kHeaderSize + payload, &len, EVP_sha256(), nullptr);
}

} // namespace ember::fuzz
