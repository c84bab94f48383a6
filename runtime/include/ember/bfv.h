// BFV on the RNS runtime (Fan-Vercauteren, scale-invariant): a ciphertext
// at the full modulus Q decrypts to
//   [c_0 + c_1 s (+ c_2 s^2)]_Q = Delta m + v,   Delta = Q / t,
// and m = round(t x / Q) mod t while |v| < Q / (2t). Multiplication scales
// the tensor product by t / Q in RNS with the HPS method (Halevi-Polyakov-
// Shoup, CT-RSA 2019; Phantom III-E; OpenFHE's BFVRNS): an exact extension
// of the inputs from Q to Q u R, the tensor product over Q u R, a scale-and-
// round to R and an exact conversion back to Q. Relinearization and
// rotations are CKKS's hybrid key switching, unchanged (BFV's keys carry
// the plain error e, error factor 1). multiplyBehz is the other full-RNS
// method (Bajard-Eynard-Hasan-Zucca, SAC 2016; SEAL 3.x, Phantom): fast
// conversions corrected by a Montgomery step (m~ = 2^32) and Shenoy-
// Kumaresan's redundant modulus m_sk, all integer, flooring instead of
// rounding (an error below k per coefficient, a bit or two of budget).
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

/// The constants of the BEHZ multiplication (BasicBfvEvaluator::
/// multiplyBehz) over the HPS context Q u R read as Q u B_sk: B = r_0..
/// r_{kr-2} (kb = kr - 1 primes, product M_B), m_sk = r_{kr-1}, m~ = 2^32;
/// k = |Q|, i indexes Q, j indexes R. Each step is one sum of products,
/// reduced once, with the constants of the steps around it folded in (the
/// CUDA kernels read these layouts):
///   extension Q -> R: y_i = [x_i ext_scale_i]_{q_i}, r = sum_i y_i
///     ext_mtilde_i mod m~ centred to [-m~/2, m~/2), x'_j = [sum_i y_i
///     ext_rows_ji + |r| ext_corr_j(sign r)]_{r_j}: x' = x + Q e with x' in
///     [-Q/2, Q/2 + k Q / m~) (Montgomery's step makes it near centred);
///   floor Q u R -> R: z_i = [D_i c_i]_{q_i} (c_i = the encoder's
///     scaleConstants), w_j = [sum_i z_i floor_rows_ji + D_j floor_self_j]
///     _{r_j} = v h_j with v = floor(t D / Q) - a, 0 <= a < k, and h_j =
///     (M_B/b_j)^-1 for j < kb, 1 at m_sk;
///   Shenoy-Kumaresan R -> Q: alpha = [sum_{j<kb} w_j alpha_row_j + w_kb
///     alpha_row_kb]_{m_sk} centred, out_i = [sum_{j<kb} w_j sk_rows_ij +
///     |alpha| sk_corr_i(sign alpha)]_{q_i} = v mod q_i exactly.
/// A signed correction e picks corr[2 j] when e >= 0, corr[2 j + 1] when
/// e < 0, times |e|.
template <typename Word> struct BasicBehzConstants {
  std::vector<Word> ext_scale;      ///< [m~ (Q/q_i)^-1]_{q_i}
  std::vector<uint32_t> ext_mtilde; ///< [-q_i^-1]_{m~}
  std::vector<Word> ext_rows;       ///< [(Q/q_i) m~^-1]_{r_j} at j k + i
  std::vector<Word> ext_corr;       ///< [Q m~^-1]_{r_j}, [-Q m~^-1]_{r_j}
  std::vector<Word> floor_rows;     ///< [-q_i^-1 h_j]_{r_j} at j k + i
  std::vector<Word> floor_self;     ///< [t Q^-1 h_j]_{r_j}
  std::vector<Word> alpha_row;      ///< [b_j^-1]_{m_sk}, then [-M_B^-1]
  std::vector<Word> sk_rows;        ///< [M_B/b_j]_{q_i} at i kb + j
  std::vector<Word> sk_corr;        ///< [-M_B]_{q_i}, [M_B]_{q_i}
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
  /// (|d| < N Q^2 / 2) fits Q R / 2 and t d / Q fits R / 2; at least two
  /// (BEHZ's B and m_sk, whose product R needs the same bound: its inputs
  /// are near centred and t d / Q - a must fit R / 2).
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
  /// BEHZ tensor product (BasicBehzConstants): degree 2, scale Delta; it
  /// decrypts as multiply's does, its residues differ (floor, not round).
  BasicCiphertext<Word> multiplyBehz(const BasicCiphertext<Word> &a,
                                     const BasicCiphertext<Word> &b) const;
  /// relinearize(multiplyBehz(a, b), rk) bit for bit.
  BasicCiphertext<Word> multiplyRelinBehz(const BasicCiphertext<Word> &a,
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
  /// The BEHZ steps, exposed for their tests. extendBehz: coefficient-form
  /// x over Q -> x' = x + Q e over Q u R (Q rows x, R rows x'), x' in
  /// [-Q/2, Q/2 + k Q / 2^32). scaleDownBehz: coefficient-form D over Q u R
  /// -> floor(t D / Q) - a over Q, 0 <= a < k (coefficient form), exact
  /// while |t D / Q| < R / 4.
  Poly<Word> extendBehz(const Poly<Word> &x) const;
  Poly<Word> scaleDownBehz(const Poly<Word> &x) const;
  const BasicBehzConstants<Word> &behzConstants() const { return behz_; }

private:
  void checkFull(const BasicCiphertext<Word> &a, const char *op) const;
  void initBehz();
  /// extendBehz's R rows, written to r_rows (kr rows of N words).
  void extendBehzInto(const Poly<Word> &x, Word *r_rows) const;
  /// multiply's (HPS) or multiplyBehz's three parts in coefficient form
  /// (before their NTT).
  BasicCiphertext<Word> tensorCoeff(const BasicCiphertext<Word> &a,
                                    const BasicCiphertext<Word> &b,
                                    bool behz) const;
  BasicCiphertext<Word> multiplyWith(const BasicCiphertext<Word> &a,
                                     const BasicCiphertext<Word> &b,
                                     bool behz) const;
  BasicCiphertext<Word> multiplyRelinWith(const BasicCiphertext<Word> &a,
                                          const BasicCiphertext<Word> &b,
                                          const BasicRelinKey<Word> &rk,
                                          bool behz) const;
  const Context<Word> &ctx_;
  Modulus<Word> t_;
  BasicBfvEncoder<Word> encoder_;
  std::vector<uint64_t> aux_;
  std::unique_ptr<Context<Word>> qr_; ///< Q u R: q_i at 0..k-1, r_j after
  std::vector<Word> floor_r_;         ///< [-c_i q_i^-1]_{r_j}, j-major
  std::vector<Word> t_q_inv_;         ///< [t Q^-1]_{r_j}
  BasicBehzConstants<Word> behz_;
  BasicEvaluator<Word> base_;
};

using BfvEncoder = BasicBfvEncoder<Word64>;
using BfvEvaluator = BasicBfvEvaluator<Word64>;
using BehzConstants = BasicBehzConstants<Word64>;

} // namespace ember
