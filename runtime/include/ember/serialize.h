// Serialization of parameters, keys, plaintexts and ciphertexts.
//
// Layout (little endian):
//   "EMBR" | version u32 | kind u32 | parameter hash (32 bytes)
//   | payload length u64 | payload | SHA-256 of everything before (32 bytes)
// Loading checks each field and every residue against its modulus, so a
// truncated, corrupt, other-version, other-kind or other-parameter file
// raises SerializationError naming what is wrong; it never crashes or yields
// a wrong answer. The SHA-256 is unkeyed (anyone can re-seal a file), so
// every field is also checked against what the parameters allow: levels,
// scales (1 <= scale < Q_level / 2), slot counts, polynomial counts, forms
// and bases; parameter names, log N, log_scale, Hamming weight, dnum,
// gamma and flags; key digit and group counts, Galois elements (odd, below
// 2N, no duplicates).
#pragma once

#include "ember/ckks.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ember {

/// 2: parameters carry the KLSS temporary primes and gamma; evaluation keys
/// their KLSS forms. 3: evaluation keys end with the encapsulation keys
/// (a flag, then to_sparse and from_sparse). 4: key-switching digits balanced
/// by the primes' bits (ember::digitSizes), which moves the digit
/// boundaries of chains that mix prime sizes.
constexpr uint32_t kFormatVersion = 4;

enum class ObjectKind : uint32_t {
  kParams = 1,
  kSecretKey = 2,
  kPublicKey = 3,
  kEvaluationKeys = 4,
  kCiphertext = 5,
  kPlaintext = 6,
  // FHEW/TFHE (ember/lwe.h): their parameter hash is the set's.
  kLweSecretKey = 7,
  kLweEvaluationKeys = 8,
  kLweCiphertexts = 9,
  /// Radix blocks (LWE ciphertexts at Q of dimension N).
  kLweBlocks = 10,
};
const char *objectKindName(ObjectKind kind);

using Bytes = std::vector<uint8_t>;

Bytes serializeParams(const Context64 &ctx);
/// Rebuilds the context (primes included) and re-checks its security.
std::unique_ptr<Context64> deserializeParams(const Bytes &bytes);

Bytes serialize(const Context64 &ctx, const SecretKey &sk);
Bytes serialize(const Context64 &ctx, const PublicKey &pk);
Bytes serialize(const Context64 &ctx, const EvaluationKeys &keys);
Bytes serialize(const Context64 &ctx, const Ciphertext &ct);
Bytes serialize(const Context64 &ctx, const Plaintext &pt);

SecretKey deserializeSecretKey(const Context64 &ctx, const Bytes &bytes);
PublicKey deserializePublicKey(const Context64 &ctx, const Bytes &bytes);
EvaluationKeys deserializeEvaluationKeys(const Context64 &ctx,
                                         const Bytes &bytes);
Ciphertext deserializeCiphertext(const Context64 &ctx, const Bytes &bytes);
Plaintext deserializePlaintext(const Context64 &ctx, const Bytes &bytes);

/// The same at 32-bit words: the layout above with 4-byte residues. The
/// parameter hash names the word, so a file of one word is refused by a
/// context of the other (SerializationError, "other parameters"). Parameter
/// files themselves are 64-bit only (a 32-bit program's parameters travel
/// in its manifest).
Bytes serialize(const Context32 &ctx, const SecretKey32 &sk);
Bytes serialize(const Context32 &ctx, const PublicKey32 &pk);
Bytes serialize(const Context32 &ctx, const EvaluationKeys32 &keys);
Bytes serialize(const Context32 &ctx, const Ciphertext32 &ct);
Bytes serialize(const Context32 &ctx, const Plaintext32 &pt);
SecretKey32 deserializeSecretKey(const Context32 &ctx, const Bytes &bytes);
PublicKey32 deserializePublicKey(const Context32 &ctx, const Bytes &bytes);
EvaluationKeys32 deserializeEvaluationKeys(const Context32 &ctx,
                                           const Bytes &bytes);
Ciphertext32 deserializeCiphertext(const Context32 &ctx, const Bytes &bytes);
Plaintext32 deserializePlaintext(const Context32 &ctx, const Bytes &bytes);

/// What kind of object a buffer holds (after checking header and checksum).
ObjectKind peekKind(const Bytes &bytes);

/// Writes `bytes` to `path`. A secret key (holdsSecretKey) is written
/// readable by its owner only (mode 0600 whatever the umask, through a fresh
/// file renamed over `path`); anything else as std::ofstream does.
void writeFile(const std::string &path, const Bytes &bytes);
/// Throws SerializationError when the file cannot be read.
Bytes readFile(const std::string &path);
/// Whether a buffer's header says it holds a secret key (the kind field
/// only; no checksum: writeFile errs on the side of 0600).
bool holdsSecretKey(const Bytes &bytes);

} // namespace ember
