// CKKS on the RNS runtime: encoding through the canonical embedding, keys in
// hybrid form (dnum digits over the special primes P), encryption,
// decryption and the evaluation operations. Words are 64-bit here; the
// primitives below it are word-generic.
#pragma once

#include "ember/context.h"
#include "ember/errors.h"
#include "ember/poly.h"
#include "ember/random.h"

#include <complex>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ember {

using Word64 = uint64_t;
using Context64 = Context<Word64>;
using Poly64 = Poly<Word64>;
/// 32-bit words (primes below 2^30): the RNS primitives so far.
using Context32 = Context<uint32_t>;
using Poly32 = Poly<uint32_t>;

/// An encoded message: one NTT-form polynomial over q_0..q_level.
struct Plaintext {
  Poly64 poly;
  int level = 0;
  double scale = 1;
  size_t slots = 0;
};

/// Degree-1 (2 polynomials) or degree-2 (3, after a multiply) ciphertext,
/// NTT form over q_0..q_level, decrypting to sum_i c_i s^i.
struct Ciphertext {
  std::vector<Poly64> c;
  int level = 0;
  double scale = 1;
  size_t slots = 0;
  int degree() const { return static_cast<int>(c.size()) - 1; }
};

/// Secret s (ternary), NTT form over all of Q u P. Stays with the client.
/// Its residues are wiped (secureWipe) when the key is destroyed or
/// overwritten, so no copy of s is left in freed memory.
struct SecretKey {
  Poly64 s;

  SecretKey() = default;
  explicit SecretKey(Poly64 s_) : s(std::move(s_)) {}
  SecretKey(const SecretKey &) = default;
  SecretKey(SecretKey &&) noexcept = default;
  SecretKey &operator=(const SecretKey &other);
  SecretKey &operator=(SecretKey &&other) noexcept;
  ~SecretKey();
};
/// (b, a) = (-a s + e, a) over Q, NTT form.
struct PublicKey {
  Poly64 b, a;
};
/// Hybrid key-switching key from s' to s: for each digit j,
///   (b_j, a_j) = (-a_j s + e_j + P [q_i in digit j] s', a_j) over Q u P.
struct SwitchingKey {
  std::vector<Poly64> b, a;
};
struct RelinKey {
  SwitchingKey key; ///< s' = s^2
};
struct GaloisKeys {
  std::map<uint64_t, SwitchingKey> keys; ///< by Galois element
  bool has(uint64_t galois) const { return keys.count(galois) != 0; }
};

/// KLSS form of a hybrid switching key (Kim, Lee, Seo, Song, CRYPTO 2023;
/// Athena 2.3): digit i's (b_i, a_i) over P u Q_L cut into the key groups
/// R_j of Context::klssGroupLimbs, each group's residues converted exactly
/// to the temporary basis T (the centred integer polynomial [b_i]_{R_j}) and
/// stored in NTT form over T: b[i * groups + j]. Then
///   sum_i digit_i * [b_i]_{R_j}
/// computed in T is the exact integer product, whose residues mod R_j are
/// those of the hybrid inner product: KLSS trades the ModUp NTTs over
/// Q_l u P for NTTs over T, at the price of more BConv and inner-product
/// work and a key of digits x groups x r' limbs (against digits x (L+1+K)).
/// It is a public function of the hybrid key (klssKeyFromHybrid).
struct KlssKey {
  int digits = 0;
  int groups = 0;
  std::vector<Poly64> b, a;
  bool empty() const { return b.empty(); }
};
struct KlssRelinKey {
  KlssKey key; ///< s' = s^2
};
struct KlssGaloisKeys {
  std::map<uint64_t, KlssKey> keys; ///< by Galois element
  bool has(uint64_t galois) const { return keys.count(galois) != 0; }
};

/// Sparse-secret encapsulation (Bossuat, Troncoso-Pastoriza, Hubaux, ACNS
/// 2022, eprint 2022/024): bootstrapping switches its level-0 input from the
/// dense secret s to an ephemeral sparse secret s' (Hamming weight h', 32
/// by default), raises the modulus under s' (so that the multiples of q_0
/// that ModRaise adds stay small, as with a sparse main secret) and switches
/// straight back to s at the top of the chain. The main secret stays dense
/// (the uniform-ternary security bound, 1772 bits of log QP at N = 2^16,
/// not the sparse 1553), and the sparse key is only ever exposed at a small
/// modulus:
///   to_sparse    s -> s', one digit at modulus q_0 p_0 (the first special
///                prime alone: log2(q_0 p_0) must meet the published h'
///                bound, 117 bits at N = 2^16 and h' = 32). Its polynomials
///                span Q u P like every switching key, zero outside the
///                limbs of q_0 and p_0 (nothing is published there).
///   from_sparse  s' -> s, an ordinary hybrid key over Q u P (an encryption
///                under the dense s).
struct EncapsulationKeys {
  SwitchingKey to_sparse;
  SwitchingKey from_sparse;
};

/// The public material a server needs: relinearization and Galois keys, in
/// hybrid form, KLSS form or both (a compiled program says which it uses),
/// and a bootstrapping program's encapsulation keys.
struct EvaluationKeys {
  bool has_relin = false;
  RelinKey relin;
  GaloisKeys galois;
  bool has_klss_relin = false;
  KlssRelinKey klss_relin;
  KlssGaloisKeys klss_galois;
  bool has_encapsulation = false;
  EncapsulationKeys encapsulation;
};

/// The KLSS form of `key`: InvalidArgument when the context has no KLSS
/// form or the key does not span Q u P.
KlssKey klssKeyFromHybrid(const Context64 &ctx, const SwitchingKey &key);

/// Bytes of one switching key in memory: hybrid dnum x 2 x (L+1+K) x N
/// words, KLSS dnum x groups x 2 x r' x N words (Cheddar 5.5: the size that
/// decides whether a GPU can hold a program's keys).
size_t hybridKeyBytes(const Context64 &ctx);
size_t klssKeyBytes(const Context64 &ctx);

/// Galois element of a left rotation by k slots for vectors of `slots`
/// slots: 5^(k mod slots) mod 2N.
uint64_t galoisElementForRotation(const Context64 &ctx, int64_t k,
                                  size_t slots);
/// Galois element of complex conjugation: 2N - 1.
uint64_t galoisElementForConjugation(const Context64 &ctx);

/// The hybrid key-switch inner product: (acc0, acc1) = sum_j digit_j *
/// (key.b_j, key.a_j) over the digits' common basis (Q_l u P, NTT form),
/// reduced once per residue. The key polynomials span all of Q u P, so a
/// limb's global modulus index is its position in them. galois != 0: each
/// digit is read permuted by the NTT-form automorphism X -> X^galois (a
/// hoisted rotation's automorphism folded into the indexing), the same
/// residues as permuting the digits first.
void keySwitchInnerProduct(const Context64 &ctx, const SwitchingKey &key,
                           const std::vector<const Poly64 *> &digits,
                           Poly64 &acc0, Poly64 &acc1, uint64_t galois = 0);

/// The KLSS inner product and the way back to Q_l u P (Athena Fig. 2): for
/// each key group j < klssGroupCount(level),
///   acc_j = sum_i tdigits[i] * (key.b, key.a)[i, j]  (NTT form over T,
///   reduced once per residue), INTT over T, exact BConv T -> group j's
///   limbs restricted to P u Q_level.
/// Results: (acc0, acc1) in coefficient form over qpBasis(level), equal to
/// the hybrid inner product's (up to the digits' representatives). tdigits
/// are klssModUp results (possibly permuted by one automorphism, when
/// hoisted), one per digit at that level.
void klssInnerProduct(const Context64 &ctx, const KlssKey &key,
                      const std::vector<const Poly64 *> &tdigits, int level,
                      Poly64 &acc0, Poly64 &acc1);

class Encoder {
public:
  explicit Encoder(const Context64 &ctx);
  /// Encodes `values` (length `slots`, a power of two <= N/2) at `level` and
  /// `scale`. Throws InvalidArgument on a wrong length or slot count, or a
  /// value too large for the modulus at that scale.
  Plaintext encode(const std::vector<std::complex<double>> &values, int level,
                   double scale, size_t slots) const;
  Plaintext encode(const std::vector<double> &values, int level, double scale,
                   size_t slots) const;
  /// Decodes to `slots` complex values (exact CRT reconstruction, centred).
  std::vector<std::complex<double>> decode(const Plaintext &pt) const;

private:
  /// The rotation group and the 2N-th roots of unity: built once per ring
  /// degree and shared by every encoder of that degree (a program encodes
  /// hundreds of constants, each with its own Encoder).
  struct Tables;
  const Context64 &ctx_;
  std::shared_ptr<const Tables> tables_;
  void fftSpecial(std::vector<std::complex<double>> &vals) const;
  void fftSpecialInv(std::vector<std::complex<double>> &vals) const;
};

class KeyGenerator {
public:
  /// Samples a fresh secret key with `prng`.
  KeyGenerator(const Context64 &ctx, Prng &prng);
  const SecretKey &secretKey() const { return sk_; }
  PublicKey publicKey();
  RelinKey relinKey();
  SwitchingKey galoisKey(uint64_t galois);
  GaloisKeys galoisKeys(const std::vector<uint64_t> &elements);
  /// KLSS forms of fresh relinearization and Galois keys.
  KlssRelinKey klssRelinKey();
  KlssGaloisKeys klssGaloisKeys(const std::vector<uint64_t> &elements);
  /// Key switching from an arbitrary s' (NTT form over Q u P) to s.
  SwitchingKey switchingKey(const Poly64 &s_prime);
  /// The encapsulation keys of a fresh ephemeral secret of Hamming weight
  /// h' (see EncapsulationKeys); the ephemeral secret is wiped. Throws
  /// InvalidArgument without special primes or for h' outside 1..N, and
  /// SecurityError (128-bit parameters) when log2(q_0 p_0) exceeds the
  /// published bound for weight h' (maxLogQPSparse128).
  EncapsulationKeys encapsulationKeys(int hamming_weight);

private:
  const Context64 &ctx_;
  Prng &prng_;
  SecretKey sk_;
};

class Encryptor {
public:
  Encryptor(const Context64 &ctx, Prng &prng) : ctx_(ctx), prng_(prng) {}
  Ciphertext encrypt(const Plaintext &pt, const PublicKey &pk) const;
  Ciphertext encryptSymmetric(const Plaintext &pt, const SecretKey &sk) const;

private:
  const Context64 &ctx_;
  Prng &prng_;
};

/// Noise flooding for decryptions that are shared (IND-CPA^D, Li-Micciancio
/// EUROCRYPT 2021): an exact CKKS decryption m + e reveals the error e, and
/// with it the secret key. Adding fresh Gaussian noise of standard deviation
///   sigma = sqrt(12 queries) 2^(s/2) t
/// to the decrypted coefficients bounds any adversary's advantage by 2^-s
/// over `queries` decryptions of ciphertexts whose coefficient error is at
/// most t = 2^noise_bits (Li-Micciancio-Schultz-Sorrell, CRYPTO 2022,
/// Corollary 2 with the sqrt(2n) factor removed, as OpenFHE's
/// CKKS_NOISE_FLOODING.md states; the same sigma as OpenFHE's
/// NOISE_FLOODING_DECRYPT). Returns log2(sigma), the flooding bits. The
/// defaults are OpenFHE's: s = 30 bits (success probability 2^-30) and one
/// query. Flooding costs log2(sigma / t) = s/2 + log2 sqrt(12 queries) bits
/// of precision, 16.8 at the defaults.
constexpr double kFloodingStatisticalSecurity = 30;
double floodingBits(double noise_bits,
                    double statistical_security = kFloodingStatisticalSecurity,
                    double queries = 1);

class Decryptor {
public:
  Decryptor(const Context64 &ctx, const SecretKey &sk) : ctx_(ctx), sk_(sk) {}
  /// Exact decryption: c_0 + c_1 s (+ c_2 s^2). Keep it with the key holder:
  /// shared, it leaks the key (see floodingBits).
  Plaintext decrypt(const Ciphertext &ct) const;
  /// Noise-flooded decryption, for results that leave the key holder: the
  /// exact decryption plus z, each coefficient of z drawn independently from
  /// a Gaussian of standard deviation 2^flooding_bits (rounded to an
  /// integer; Box-Muller on 64-bit uniforms of `prng`, tail cut at 9.4
  /// sigma). Choose flooding_bits with floodingBits(). Each decoded slot
  /// then carries an extra error of standard deviation
  /// 2^flooding_bits sqrt(slots) / scale in its real and in its imaginary
  /// part. InvalidArgument when flooding_bits is negative, not finite, above
  /// 59, or so large that this error reaches 1 (nothing of the message would
  /// survive).
  Plaintext decrypt(const Ciphertext &ct, double flooding_bits,
                    Prng &prng) const;

private:
  const Context64 &ctx_;
  const SecretKey &sk_;
};

/// The homomorphic operations. Binary operations require equal levels and
/// scales (LevelMismatch, ScaleMismatch); rotations need the Galois key
/// (MissingKey).
class Evaluator {
public:
  explicit Evaluator(const Context64 &ctx) : ctx_(ctx) {}

  Ciphertext add(const Ciphertext &a, const Ciphertext &b) const;
  Ciphertext sub(const Ciphertext &a, const Ciphertext &b) const;
  Ciphertext negate(const Ciphertext &a) const;
  Ciphertext addPlain(const Ciphertext &a, const Plaintext &p) const;
  Ciphertext subPlain(const Ciphertext &a, const Plaintext &p) const;
  /// Scale becomes a.scale * p.scale.
  Ciphertext mulPlain(const Ciphertext &a, const Plaintext &p) const;
  /// Adds the real constant c (encoded at a.scale).
  Ciphertext addConst(const Ciphertext &a, double c) const;
  /// Multiplies by round(c * const_scale); scale becomes a.scale *
  /// const_scale. const_scale 0 means q_level, so that a following rescale
  /// returns exactly to a.scale.
  Ciphertext mulConst(const Ciphertext &a, double c,
                      double const_scale = 0) const;
  /// Tensor product: degree-2 result (3 polynomials), scale product.
  Ciphertext multiply(const Ciphertext &a, const Ciphertext &b) const;
  Ciphertext relinearize(const Ciphertext &a, const RelinKey &rk) const;
  Ciphertext relinearize(const Ciphertext &a, const KlssRelinKey &rk) const;
  Ciphertext multiplyRelin(const Ciphertext &a, const Ciphertext &b,
                           const RelinKey &rk) const;
  Ciphertext multiplyRelin(const Ciphertext &a, const Ciphertext &b,
                           const KlssRelinKey &rk) const;
  /// Divides by q_level: level - 1, scale / q_level.
  Ciphertext rescale(const Ciphertext &a) const;
  /// Drops limbs down to `level` (scale unchanged).
  Ciphertext modDropTo(const Ciphertext &a, int level) const;
  /// Cyclic left rotation by k slots (k may be negative or >= slots).
  Ciphertext rotate(const Ciphertext &a, int64_t k,
                    const GaloisKeys &keys) const;
  Ciphertext rotate(const Ciphertext &a, int64_t k,
                    const KlssGaloisKeys &keys) const;
  Ciphertext conjugate(const Ciphertext &a, const GaloisKeys &keys) const;
  Ciphertext conjugate(const Ciphertext &a, const KlssGaloisKeys &keys) const;
  /// X -> X^galois on both parts, then key switching back to s.
  Ciphertext applyGalois(const Ciphertext &a, uint64_t galois,
                         const GaloisKeys &keys) const;
  Ciphertext applyGalois(const Ciphertext &a, uint64_t galois,
                         const KlssGaloisKeys &keys) const;
  /// Hybrid key switching of d (NTT over Q_l): returns (k0, k1) over Q_l with
  /// k0 + k1 s = d s' (plus noise).
  std::pair<Poly64, Poly64> keySwitch(const Poly64 &d,
                                      const SwitchingKey &key) const;
  /// KLSS key switching of d (NTT over Q_l), same contract: INTT, per digit
  /// klssModUp, klssInnerProduct, ModDown in coefficient form, NTT.
  std::pair<Poly64, Poly64> keySwitch(const Poly64 &d,
                                      const KlssKey &key) const;

private:
  template <typename Keys>
  Ciphertext galoisOp(const Ciphertext &a, uint64_t galois, const Keys &keys,
                      const std::string &what) const;
  template <typename Key>
  Ciphertext relinearizeWith(const Ciphertext &a, const Key &key) const;
  const Context64 &ctx_;
};

} // namespace ember
