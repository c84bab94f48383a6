// BFV on the RNS runtime (Fan-Vercauteren, scale-invariant): a ciphertext
// at the full modulus Q decrypts to
//   [c_0 + c_1 s (+ c_2 s^2)]_Q = Delta m + v,   Delta = Q / t,
// and m = round(t x / Q) mod t while |v| < Q / (2t). Multiplication scales
// the tensor product by t / Q in RNS with the HPS method (Halevi-Polyakov-
// Shoup, CT-RSA 2019; Phantom III-E; OpenFHE's BFVRNS): an exact extension
// of the inputs from Q to Q u R, the tensor product over Q u R, a scale-and-
// round to R and an exact conversion back to Q. Relinearization and
// rotations are CKKS's hybrid key switching, unchanged (BFV's keys carry
// the plain error e, error factor 1).
//
// Ciphertexts and plaintexts are the CKKS objects (NTT form over Q; the
// ciphertext's `scale` is Delta as a double). Plaintexts come in two forms,
// told apart by `scale`: Delta m (scale Delta: encryption and addition) and
// m itself, centred (scale 1: multiplication).
#pragma once

#include "ember/bgv.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ember {

/// BFV's encoding (the batching of BasicBgvEncoder), its decryption by
/// scale-and-round and its noise budget.
template <typename Word> class BasicBfvEncoder {
public:
  /// The same conditions on t as BasicBgvEncoder.
  BasicBfvEncoder(const Context<Word> &ctx, uint64_t t);
  uint64_t plainModulus() const { return slots_.plainModulus(); }
  /// Delta = Q / t as a double (the scale of ciphertexts and of encode()).
  double delta() const { return delta_; }
  const BasicBgvEncoder<Word> &batching() const { return slots_; }

  /// ceil(Q m / t) over Q (NTT form) for `values` in `slots` slots: what
  /// encryption and addPlain add. pt.scale = delta().
  BasicPlaintext<Word> encode(const std::vector<int64_t> &values,
                              size_t slots) const;
  /// m with coefficients centred in (-t/2, t/2] over Q (NTT form), for
  /// mulPlain. pt.scale = 1.
  BasicPlaintext<Word> encodeMultiplier(const std::vector<int64_t> &values,
                                        size_t slots) const;
  /// The slot values in [0, t) of a decryption x (BasicDecryptor's exact
  /// result): m = round(t x / Q) mod t, computed exactly from the residues
  /// (each x_i [t (Q/q_i)^-1]_{q_i} / q_i split into its integer quotient
  /// and a remainder fraction; the fractions summed in doubles).
  std::vector<uint64_t> decode(const BasicPlaintext<Word> &pt) const;
  /// The plaintext coefficients round(t x / Q) mod t of a decryption.
  std::vector<uint64_t> scaleAndRound(const BasicPlaintext<Word> &pt) const;
  /// Invariant noise budget (SEAL's definition for BFV): log2(Q) -
  /// log2(||[t x]_Q||_inf) - 1 bits, rounded down, at least 0.
  int noiseBudget(const BasicPlaintext<Word> &pt) const;
  /// [t (Q/q_i)^-1]_{q_i}, the constants of the scale-and-round.
  const std::vector<Word> &scaleConstants() const { return c_; }
  /// Residues over Q of ceil(Q [c]_t / t): the constant polynomial Delta c
  /// (what addInt adds to c_0, in either form).
  std::vector<Word> scaledConstant(int64_t c) const;

private:
  const Context<Word> &ctx_;
  BasicBgvEncoder<Word> slots_;
  Modulus<Word> t_;
  double delta_ = 0;
  std::vector<Word> c_;       ///< [t (Q/q_i)^-1]_{q_i}
  std::vector<Word> floor_t_; ///< floor(t (Q/q_i)^-1 / q_i) mod t
  std::vector<Word> delta_q_; ///< [t^-1]_{q_i}
  Word neg_q_mod_t_ = 0;      ///< [-Q]_t
};

/// BFV evaluation at the full modulus Q. Binary operations need equal
/// slot counts; ciphertexts never change level.
template <typename Word> class BasicBfvEvaluator {
public:
  BasicBfvEvaluator(const Context<Word> &ctx, uint64_t t);
  ~BasicBfvEvaluator();
  uint64_t plainModulus() const { return t_.value(); }
  /// R, the auxiliary base of the HPS multiplication: 60-bit primes with
  /// log2 R >= log2 Q + log2 N + log2 t + 3, so that the tensor product
  /// (|d| < N Q^2 / 2) fits Q R / 2 and t d / Q fits R / 2.
  const std::vector<uint64_t> &auxPrimes() const { return aux_; }

  BasicCiphertext<Word> add(const BasicCiphertext<Word> &a,
                            const BasicCiphertext<Word> &b) const;
  BasicCiphertext<Word> sub(const BasicCiphertext<Word> &a,
                            const BasicCiphertext<Word> &b) const;
  BasicCiphertext<Word> negate(const BasicCiphertext<Word> &a) const;
  /// p from BasicBfvEncoder::encode (scale Delta).
  BasicCiphertext<Word> addPlain(const BasicCiphertext<Word> &a,
                                 const BasicPlaintext<Word> &p) const;
  BasicCiphertext<Word> subPlain(const BasicCiphertext<Word> &a,
                                 const BasicPlaintext<Word> &p) const;
  /// p from BasicBfvEncoder::encodeMultiplier (scale 1).
  BasicCiphertext<Word> mulPlain(const BasicCiphertext<Word> &a,
                                 const BasicPlaintext<Word> &p) const;
  BasicCiphertext<Word> addInt(const BasicCiphertext<Word> &a, int64_t c) const;
  BasicCiphertext<Word> mulInt(const BasicCiphertext<Word> &a, int64_t c) const;
  /// HPS tensor product: degree 2, scale Delta.
  BasicCiphertext<Word> multiply(const BasicCiphertext<Word> &a,
                                 const BasicCiphertext<Word> &b) const;
  BasicCiphertext<Word> relinearize(const BasicCiphertext<Word> &a,
                                    const BasicRelinKey<Word> &rk) const;
  BasicCiphertext<Word> multiplyRelin(const BasicCiphertext<Word> &a,
                                      const BasicCiphertext<Word> &b,
                                      const BasicRelinKey<Word> &rk) const;
  BasicCiphertext<Word> rotate(const BasicCiphertext<Word> &a, int64_t k,
                               const BasicGaloisKeys<Word> &keys) const;

  /// The HPS steps, exposed for their tests. extend: coefficient-form x
  /// over Q -> x's centred representative over Q u R (coefficient form, in
  /// the Q u R context). scaleDown: coefficient-form x over Q u R ->
  /// round(t x / Q) over R, up to a small additive error (the fractions are
  /// summed in doubles), then exactly back to Q (coefficient form over Q).
  Poly<Word> extend(const Poly<Word> &x) const;
  Poly<Word> scaleDown(const Poly<Word> &x) const;
  const Context<Word> &auxContext() const { return *qr_; }
  const BasicBfvEncoder<Word> &encoder() const { return encoder_; }
  /// scaleDown's constants: [-c_i q_i^-1]_{r_j} at j k + i, and
  /// [t Q^-1]_{r_j}.
  const std::vector<Word> &floorConstants() const { return floor_r_; }
  const std::vector<Word> &tQInverse() const { return t_q_inv_; }

private:
  void checkFull(const BasicCiphertext<Word> &a, const char *op) const;
  /// multiply's three parts in coefficient form (before their NTT).
  BasicCiphertext<Word> tensorCoeff(const BasicCiphertext<Word> &a,
                                    const BasicCiphertext<Word> &b) const;
  const Context<Word> &ctx_;
  Modulus<Word> t_;
  BasicBfvEncoder<Word> encoder_;
  std::vector<uint64_t> aux_;
  std::unique_ptr<Context<Word>> qr_; ///< Q u R: q_i at 0..k-1, r_j after
  std::vector<Word> floor_r_;         ///< [-c_i q_i^-1]_{r_j}, j-major
  std::vector<Word> t_q_inv_;         ///< [t Q^-1]_{r_j}
  BasicEvaluator<Word> base_;
};

using BfvEncoder = BasicBfvEncoder<Word64>;
using BfvEvaluator = BasicBfvEvaluator<Word64>;

} // namespace ember
