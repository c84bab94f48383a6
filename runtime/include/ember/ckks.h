// CKKS on the RNS runtime: encoding through the canonical embedding, keys in
// hybrid form (dnum digits over the special primes P), encryption,
// decryption and the evaluation operations, at either word: 64-bit words
// (primes up to 61 bits; the names without a suffix) or 32-bit words
// (primes below 2^30, the *32 names), usually with double-prime scaling
// (ParamSpec::scale_primes = 2: a rescale divides by two primes).
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
/// 32-bit words (primes below 2^30).
using Context32 = Context<uint32_t>;
using Poly32 = Poly<uint32_t>;

/// An encoded message: one NTT-form polynomial over q_0..q_level.
/// Every object and class below is a template on the word (Basic*<Word>);
/// the unsuffixed names are the 64-bit ones, the *32 names the 32-bit ones.
template <typename Word> struct BasicPlaintext {
  Poly<Word> poly;
  int level = 0;
  double scale = 1;
  size_t slots = 0;
};

/// Degree-1 (2 polynomials) or degree-2 (3, after a multiply) ciphertext,
/// NTT form over q_0..q_level, decrypting to sum_i c_i s^i.
template <typename Word> struct BasicCiphertext {
  std::vector<Poly<Word>> c;
  int level = 0;
  double scale = 1;
  size_t slots = 0;
  int degree() const { return static_cast<int>(c.size()) - 1; }
};

/// Secret s (ternary), NTT form over all of Q u P. Stays with the client.
/// Its residues are wiped (secureWipe) when the key is destroyed or
/// overwritten, so no copy of s is left in freed memory.
template <typename Word> struct BasicSecretKey {
  Poly<Word> s;

  BasicSecretKey() = default;
  explicit BasicSecretKey(Poly<Word> s_) : s(std::move(s_)) {}
  BasicSecretKey(const BasicSecretKey<Word> &) = default;
  BasicSecretKey(BasicSecretKey<Word> &&) noexcept = default;
  BasicSecretKey<Word> &operator=(const BasicSecretKey<Word> &other);
  BasicSecretKey<Word> &operator=(BasicSecretKey<Word> &&other) noexcept;
  ~BasicSecretKey();
};
/// (b, a) = (-a s + e, a) over Q, NTT form.
template <typename Word> struct BasicPublicKey { Poly<Word> b, a; };
/// Hybrid key-switching key from s' to s: for each digit j,
///   (b_j, a_j) = (-a_j s + e_j + P [q_i in digit j] s', a_j) over Q u P.
template <typename Word> struct BasicSwitchingKey {
  std::vector<Poly<Word>> b, a;
};
template <typename Word> struct BasicRelinKey {
  BasicSwitchingKey<Word> key; ///< s' = s^2
};
template <typename Word> struct BasicGaloisKeys {
  std::map<uint64_t, BasicSwitchingKey<Word>> keys; ///< by Galois element
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
template <typename Word> struct BasicKlssKey {
  int digits = 0;
  int groups = 0;
  std::vector<Poly<Word>> b, a;
  bool empty() const { return b.empty(); }
};
template <typename Word> struct BasicKlssRelinKey {
  BasicKlssKey<Word> key; ///< s' = s^2
};
template <typename Word> struct BasicKlssGaloisKeys {
  std::map<uint64_t, BasicKlssKey<Word>> keys; ///< by Galois element
  bool has(uint64_t galois) const { return keys.count(galois) != 0; }
};

/// Sparse-secret encapsulation (Bossuat, Troncoso-Pastoriza, Hubaux, ACNS
/// 2022, eprint 2022/024): bootstrapping switches its level-0 input from the
/// dense secret s to an ephemeral sparse secret s' (Hamming weight h', 32
/// by default), raises the modulus under s' (so that the multiples of q_0
/// that ModRaise adds stay small, as with a sparse main secret) and switches
/// straight back to s at the top of the chain. The main secret stays dense
/// (the uniform-ternary security bound, 1747 bits of log QP at N = 2^16,
/// not the sparse 1553), and the sparse key is only ever exposed at a small
/// modulus:
///   to_sparse    s -> s' at modulus Q_0 p_0, Q_0 the lowest level's limbs
///                (Context::baseLimbs: q_0, or q_0 and the base pair under
///                double-prime scaling) and the first special prime alone:
///                log2(Q_0 p_0) must meet the published h' bound, 117 bits
///                at N = 2^16 and h' = 32. One digit per limb of Q_0 (each
///                below p_0, so that ModDown by p_0 keeps the noise small).
///                Its polynomials span Q u P like every switching key, zero
///                outside the limbs of Q_0 and p_0 (nothing is published
///                there).
///   from_sparse  s' -> s, an ordinary hybrid key over Q u P (an encryption
///                under the dense s).
template <typename Word> struct BasicEncapsulationKeys {
  BasicSwitchingKey<Word> to_sparse;
  BasicSwitchingKey<Word> from_sparse;
};

using Plaintext = BasicPlaintext<Word64>;
using Ciphertext = BasicCiphertext<Word64>;
using SecretKey = BasicSecretKey<Word64>;
using PublicKey = BasicPublicKey<Word64>;
using SwitchingKey = BasicSwitchingKey<Word64>;
using RelinKey = BasicRelinKey<Word64>;
using GaloisKeys = BasicGaloisKeys<Word64>;
using KlssKey = BasicKlssKey<Word64>;
using KlssRelinKey = BasicKlssRelinKey<Word64>;
using KlssGaloisKeys = BasicKlssGaloisKeys<Word64>;
using EncapsulationKeys = BasicEncapsulationKeys<Word64>;
/// The same objects at 32-bit words (a Context32).
using Plaintext32 = BasicPlaintext<uint32_t>;
using Ciphertext32 = BasicCiphertext<uint32_t>;
using SecretKey32 = BasicSecretKey<uint32_t>;
using PublicKey32 = BasicPublicKey<uint32_t>;
using SwitchingKey32 = BasicSwitchingKey<uint32_t>;
using RelinKey32 = BasicRelinKey<uint32_t>;
using GaloisKeys32 = BasicGaloisKeys<uint32_t>;
using KlssKey32 = BasicKlssKey<uint32_t>;
using KlssRelinKey32 = BasicKlssRelinKey<uint32_t>;
using KlssGaloisKeys32 = BasicKlssGaloisKeys<uint32_t>;
using EncapsulationKeys32 = BasicEncapsulationKeys<uint32_t>;

/// The public material a server needs: relinearization and Galois keys, in
/// hybrid form, KLSS form or both (a compiled program says which it uses),
/// and a bootstrapping program's encapsulation keys.
template <typename Word> struct BasicEvaluationKeys {
  bool has_relin = false;
  BasicRelinKey<Word> relin;
  BasicGaloisKeys<Word> galois;
  bool has_klss_relin = false;
  BasicKlssRelinKey<Word> klss_relin;
  BasicKlssGaloisKeys<Word> klss_galois;
  bool has_encapsulation = false;
  BasicEncapsulationKeys<Word> encapsulation;
};
using EvaluationKeys = BasicEvaluationKeys<Word64>;
using EvaluationKeys32 = BasicEvaluationKeys<uint32_t>;

/// The KLSS form of `key`: InvalidArgument when the context has no KLSS
/// form or the key does not span Q u P.
template <typename Word>
BasicKlssKey<Word> klssKeyFromHybrid(const Context<Word> &ctx,
                                     const BasicSwitchingKey<Word> &key);

/// Bytes of one switching key in memory: hybrid dnum x 2 x (L+1+K) x N
/// words, KLSS dnum x groups x 2 x r' x N words (Cheddar 5.5: the size that
/// decides whether a GPU can hold a program's keys).
template <typename Word> size_t hybridKeyBytes(const Context<Word> &ctx);
template <typename Word> size_t klssKeyBytes(const Context<Word> &ctx);

/// Galois element of a left rotation by k slots for vectors of `slots`
/// slots: 5^(k mod slots) mod 2N.
template <typename Word>
uint64_t galoisElementForRotation(const Context<Word> &ctx, int64_t k,
                                  size_t slots);
/// Galois element of complex conjugation: 2N - 1.
template <typename Word>
uint64_t galoisElementForConjugation(const Context<Word> &ctx);

/// The hybrid key-switch inner product: (acc0, acc1) = sum_j digit_j *
/// (key.b_j, key.a_j) over the digits' common basis (Q_l u P, NTT form),
/// reduced once per residue. The key polynomials span all of Q u P, so a
/// limb's global modulus index is its position in them. galois != 0: each
/// digit is read permuted by the NTT-form automorphism X -> X^galois (a
/// hoisted rotation's automorphism folded into the indexing), the same
/// residues as permuting the digits first.
template <typename Word>
void keySwitchInnerProduct(const Context<Word> &ctx,
                           const BasicSwitchingKey<Word> &key,
                           const std::vector<const Poly<Word> *> &digits,
                           Poly<Word> &acc0, Poly<Word> &acc1,
                           uint64_t galois = 0);

/// The KLSS inner product and the way back to Q_l u P (Athena Fig. 2): for
/// each key group j < klssGroupCount(level),
///   acc_j = sum_i tdigits[i] * (key.b, key.a)[i, j]  (NTT form over T,
///   reduced once per residue), INTT over T, exact BConv T -> group j's
///   limbs restricted to P u Q_level.
/// Results: (acc0, acc1) in coefficient form over qpBasis(level), equal to
/// the hybrid inner product's (up to the digits' representatives). tdigits
/// are klssModUp results (possibly permuted by one automorphism, when
/// hoisted), one per digit at that level.
template <typename Word>
void klssInnerProduct(const Context<Word> &ctx, const BasicKlssKey<Word> &key,
                      const std::vector<const Poly<Word> *> &tdigits, int level,
                      Poly<Word> &acc0, Poly<Word> &acc1);

template <typename Word> class BasicEncoder {
public:
  explicit BasicEncoder(const Context<Word> &ctx);
  /// Encodes `values` (length `slots`, a power of two <= N/2) at `level` and
  /// `scale`. Throws InvalidArgument on a wrong length or slot count, or a
  /// value too large for the modulus at that scale.
  BasicPlaintext<Word> encode(const std::vector<std::complex<double>> &values,
                              int level, double scale, size_t slots) const;
  BasicPlaintext<Word> encode(const std::vector<double> &values, int level,
                              double scale, size_t slots) const;
  /// The same over `basis`: the primes of Q_level, then any of P (a weight
  /// of products taken over Q_l u P before a ModDown: the compiler's
  /// ckks.hoisted_dot). The value bound is Q_level's.
  BasicPlaintext<Word> encode(const std::vector<std::complex<double>> &values,
                              int level, double scale, size_t slots,
                              const std::vector<int> &basis) const;
  /// Decodes to `slots` complex values (exact CRT reconstruction, centred).
  std::vector<std::complex<double>>
  decode(const BasicPlaintext<Word> &pt) const;

private:
  /// The rotation group and the 2N-th roots of unity: built once per ring
  /// degree and shared by every encoder of that degree (a program encodes
  /// hundreds of constants, each with its own Encoder).
  struct Tables;
  const Context<Word> &ctx_;
  std::shared_ptr<const Tables> tables_;
  void fftSpecial(std::vector<std::complex<double>> &vals) const;
  void fftSpecialInv(std::vector<std::complex<double>> &vals) const;
};

template <typename Word> class BasicKeyGenerator {
public:
  /// Samples a fresh secret key with `prng`. error_factor t' multiplies
  /// every error of the public and switching keys: 1 for CKKS and BFV, the
  /// plaintext modulus t for BGV (b = -a s + t e).
  BasicKeyGenerator(const Context<Word> &ctx, Prng &prng,
                    uint64_t error_factor = 1);
  const BasicSecretKey<Word> &secretKey() const { return sk_; }
  BasicPublicKey<Word> publicKey();
  BasicRelinKey<Word> relinKey();
  BasicSwitchingKey<Word> galoisKey(uint64_t galois);
  BasicGaloisKeys<Word> galoisKeys(const std::vector<uint64_t> &elements);
  /// KLSS forms of fresh relinearization and Galois keys.
  BasicKlssRelinKey<Word> klssRelinKey();
  BasicKlssGaloisKeys<Word>
  klssGaloisKeys(const std::vector<uint64_t> &elements);
  /// Key switching from an arbitrary s' (NTT form over Q u P) to s.
  BasicSwitchingKey<Word> switchingKey(const Poly<Word> &s_prime);
  /// The encapsulation keys of a fresh ephemeral secret of Hamming weight
  /// h' (see EncapsulationKeys); the ephemeral secret is wiped. Throws
  /// InvalidArgument without special primes or for h' outside 1..N, and
  /// SecurityError (128-bit parameters) when log2(q_0 p_0) exceeds the
  /// published bound for weight h' (maxLogQPSparse128).
  BasicEncapsulationKeys<Word> encapsulationKeys(int hamming_weight);

private:
  /// NTT form of a fresh Gaussian error times error_factor_ over `basis`.
  Poly<Word> error(const std::vector<int> &basis);
  const Context<Word> &ctx_;
  Prng &prng_;
  uint64_t error_factor_ = 1;
  BasicSecretKey<Word> sk_;
};

template <typename Word> class BasicEncryptor {
public:
  /// error_factor: as for BasicKeyGenerator (t for BGV: c = u pk + t e + m).
  BasicEncryptor(const Context<Word> &ctx, Prng &prng,
                 uint64_t error_factor = 1)
      : ctx_(ctx), prng_(prng), error_factor_(error_factor) {}
  BasicCiphertext<Word> encrypt(const BasicPlaintext<Word> &pt,
                                const BasicPublicKey<Word> &pk) const;
  BasicCiphertext<Word> encryptSymmetric(const BasicPlaintext<Word> &pt,
                                         const BasicSecretKey<Word> &sk) const;

private:
  const Context<Word> &ctx_;
  Prng &prng_;
  uint64_t error_factor_ = 1;
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

template <typename Word> class BasicDecryptor {
public:
  BasicDecryptor(const Context<Word> &ctx, const BasicSecretKey<Word> &sk)
      : ctx_(ctx), sk_(sk) {}
  /// Exact decryption: c_0 + c_1 s (+ c_2 s^2). Keep it with the key holder:
  /// shared, it leaks the key (see floodingBits).
  BasicPlaintext<Word> decrypt(const BasicCiphertext<Word> &ct) const;
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
  BasicPlaintext<Word> decrypt(const BasicCiphertext<Word> &ct,
                               double flooding_bits, Prng &prng) const;

private:
  const Context<Word> &ctx_;
  const BasicSecretKey<Word> &sk_;
};

/// The homomorphic operations. Binary operations require equal levels and
/// scales (LevelMismatch, ScaleMismatch); rotations need the Galois key
/// (MissingKey).
template <typename Word> class BasicEvaluator {
public:
  /// plain_modulus t != 0: BGV's key switching, whose ModDown subtracts a
  /// multiple of t (modSwitchDown with t), so that messages mod t survive;
  /// everything else is the same (BasicBgvEvaluator builds on this).
  explicit BasicEvaluator(const Context<Word> &ctx, uint64_t plain_modulus = 0)
      : ctx_(ctx), plain_modulus_(plain_modulus) {}

  BasicCiphertext<Word> add(const BasicCiphertext<Word> &a,
                            const BasicCiphertext<Word> &b) const;
  BasicCiphertext<Word> sub(const BasicCiphertext<Word> &a,
                            const BasicCiphertext<Word> &b) const;
  BasicCiphertext<Word> negate(const BasicCiphertext<Word> &a) const;
  BasicCiphertext<Word> addPlain(const BasicCiphertext<Word> &a,
                                 const BasicPlaintext<Word> &p) const;
  BasicCiphertext<Word> subPlain(const BasicCiphertext<Word> &a,
                                 const BasicPlaintext<Word> &p) const;
  /// Scale becomes a.scale * p.scale.
  BasicCiphertext<Word> mulPlain(const BasicCiphertext<Word> &a,
                                 const BasicPlaintext<Word> &p) const;
  /// Adds the real constant c (encoded at a.scale).
  BasicCiphertext<Word> addConst(const BasicCiphertext<Word> &a,
                                 double c) const;
  /// Multiplies by round(c * const_scale); scale becomes a.scale *
  /// const_scale. const_scale 0 means the primes the next rescale divides by
  /// (q_level, or q_level q_{level-1} with double-prime scaling), so that
  /// it returns exactly to a.scale.
  BasicCiphertext<Word> mulConst(const BasicCiphertext<Word> &a, double c,
                                 double const_scale = 0) const;
  /// Tensor product: degree-2 result (3 polynomials), scale product.
  BasicCiphertext<Word> multiply(const BasicCiphertext<Word> &a,
                                 const BasicCiphertext<Word> &b) const;
  BasicCiphertext<Word> relinearize(const BasicCiphertext<Word> &a,
                                    const BasicRelinKey<Word> &rk) const;
  BasicCiphertext<Word> relinearize(const BasicCiphertext<Word> &a,
                                    const BasicKlssRelinKey<Word> &rk) const;
  BasicCiphertext<Word> multiplyRelin(const BasicCiphertext<Word> &a,
                                      const BasicCiphertext<Word> &b,
                                      const BasicRelinKey<Word> &rk) const;
  BasicCiphertext<Word> multiplyRelin(const BasicCiphertext<Word> &a,
                                      const BasicCiphertext<Word> &b,
                                      const BasicKlssRelinKey<Word> &rk) const;
  /// Divides by the top Context::scalePrimes() primes: by q_level (level -
  /// 1, scale / q_level), or with double-prime scaling by q_level
  /// q_{level-1} at once (level - 2). LevelMismatch below level
  /// scalePrimes().
  BasicCiphertext<Word> rescale(const BasicCiphertext<Word> &a) const;
  /// Drops limbs down to `level` (scale unchanged).
  BasicCiphertext<Word> modDropTo(const BasicCiphertext<Word> &a,
                                  int level) const;
  /// Cyclic left rotation by k slots (k may be negative or >= slots).
  BasicCiphertext<Word> rotate(const BasicCiphertext<Word> &a, int64_t k,
                               const BasicGaloisKeys<Word> &keys) const;
  BasicCiphertext<Word> rotate(const BasicCiphertext<Word> &a, int64_t k,
                               const BasicKlssGaloisKeys<Word> &keys) const;
  BasicCiphertext<Word> conjugate(const BasicCiphertext<Word> &a,
                                  const BasicGaloisKeys<Word> &keys) const;
  BasicCiphertext<Word> conjugate(const BasicCiphertext<Word> &a,
                                  const BasicKlssGaloisKeys<Word> &keys) const;
  /// X -> X^galois on both parts, then key switching back to s.
  BasicCiphertext<Word> applyGalois(const BasicCiphertext<Word> &a,
                                    uint64_t galois,
                                    const BasicGaloisKeys<Word> &keys) const;
  BasicCiphertext<Word>
  applyGalois(const BasicCiphertext<Word> &a, uint64_t galois,
              const BasicKlssGaloisKeys<Word> &keys) const;
  /// Hybrid key switching of d (NTT over Q_l): returns (k0, k1) over Q_l with
  /// k0 + k1 s = d s' (plus noise).
  std::pair<Poly<Word>, Poly<Word>>
  keySwitch(const Poly<Word> &d, const BasicSwitchingKey<Word> &key) const;
  /// KLSS key switching of d (NTT over Q_l), same contract: INTT, per digit
  /// klssModUp, klssInnerProduct, ModDown in coefficient form, NTT.
  std::pair<Poly<Word>, Poly<Word>>
  keySwitch(const Poly<Word> &d, const BasicKlssKey<Word> &key) const;

private:
  template <typename Keys>
  BasicCiphertext<Word> galoisOp(const BasicCiphertext<Word> &a,
                                 uint64_t galois, const Keys &keys,
                                 const std::string &what) const;
  template <typename Key>
  BasicCiphertext<Word> relinearizeWith(const BasicCiphertext<Word> &a,
                                        const Key &key) const;
  const Context<Word> &ctx_;
  uint64_t plain_modulus_ = 0;
};

using Encoder = BasicEncoder<Word64>;
using KeyGenerator = BasicKeyGenerator<Word64>;
using Encryptor = BasicEncryptor<Word64>;
using Decryptor = BasicDecryptor<Word64>;
using Evaluator = BasicEvaluator<Word64>;
using Encoder32 = BasicEncoder<uint32_t>;
using KeyGenerator32 = BasicKeyGenerator<uint32_t>;
using Encryptor32 = BasicEncryptor<uint32_t>;
using Decryptor32 = BasicDecryptor<uint32_t>;
using Evaluator32 = BasicEvaluator<uint32_t>;

} // namespace ember
