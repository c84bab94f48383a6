// BGV on the RNS runtime: exact arithmetic on vectors of integers modulo a
// plaintext modulus t (Brakerski-Gentry-Vaikuntanathan, in the RNS form of
// Phantom II-C and OpenFHE's BGVRNS). A ciphertext decrypts to
//   [c_0 + c_1 s (+ c_2 s^2)]_{Q_l} = mu m + t e
// with m the plaintext polynomial mod t, e the noise and mu in Z_t^* the
// correction factor that modulus switching introduces (mu -> mu q_l^-1).
//
// BGV shares everything but its encoding and its factor bookkeeping with
// CKKS: ciphertexts and plaintexts are the CKKS objects (NTT form over
// q_0..q_l) whose `scale` holds mu, an integer in [1, t) (OpenFHE's
// ScalingFactorInt); keys come from BasicKeyGenerator with error factor t;
// encryption from BasicEncryptor with error factor t; decryption from
// BasicDecryptor; key switching from BasicEvaluator with plain modulus t,
// whose ModDown keeps messages mod t (modSwitchDown with t).
#pragma once

#include "ember/bgv_params.h"
#include "ember/ckks.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ember {

/// Largest plaintext modulus: the factor mu < t rides in a double (exact
/// below 2^53), and t must sit below every prime of Q.
constexpr uint64_t kMaxPlainModulus = uint64_t{1} << 50;

/// Batch encoding over t (a prime, t = 1 mod 2N): the plaintext ring
/// Z_t[X]/(X^N + 1) is Z_t^N through evaluation at the 2N-th roots of unity
/// mod t, arranged as two rows of N/2 slots: row 0 slot i at zeta^(5^i), row
/// 1 slot i at zeta^(-5^i) (SEAL's and Phantom's layout). X -> X^(5^k)
/// rotates both rows left by k, X -> X^(2N-1) swaps them. A vector of
/// `slots` values (a power of two, at most N/2) fills both rows periodically,
/// so a rotation by k of the vector is the Galois element 5^k, as in CKKS
/// (galoisElementForRotation).
template <typename Word> class BasicBgvEncoder {
public:
  /// InvalidArgument unless t is a prime with t = 1 (mod 2N), 2 < t <=
  /// kMaxPlainModulus and t below every prime of Q u P.
  BasicBgvEncoder(const Context<Word> &ctx, uint64_t t);
  uint64_t plainModulus() const { return t_.value(); }

  /// The plaintext of `values` (length `slots`, entries taken mod t, signed
  /// allowed) with factor mu, at `level`: the coefficients of [mu m]_t,
  /// centred in (-t/2, t/2], as an NTT-form polynomial over q_0..q_level;
  /// pt.scale = mu.
  BasicPlaintext<Word> encode(const std::vector<int64_t> &values, int level,
                              size_t slots, uint64_t factor = 1) const;
  /// The plaintext coefficients of `values` in [0, t) (the polynomial m).
  std::vector<uint64_t> encodeCoefficients(const std::vector<int64_t> &values,
                                           size_t slots) const;
  /// The slot values in [0, t) of coefficients m in [0, t).
  std::vector<uint64_t>
  decodeCoefficients(const std::vector<uint64_t> &coefficients,
                     size_t slots) const;

  /// The values in [0, t) of a decryption x = mu m + t e (BasicDecryptor's
  /// exact result, NTT or coefficient form; pt.scale = mu): m = mu^-1 [x]_t
  /// with x's centred representative. Correct while the noise budget is
  /// positive.
  std::vector<uint64_t> decode(const BasicPlaintext<Word> &pt) const;

  /// Invariant noise budget of a decryption x (SEAL's definition for BGV):
  /// log2(Q_l) - log2(||x||_inf) - 1 bits, with x centred mod Q_l,
  /// rounded down and clamped at 0. Decryption is correct while it is
  /// positive. The client's view only: it needs the secret key.
  int noiseBudget(const BasicPlaintext<Word> &pt) const;

  /// [x]_t of the centred representative of each coefficient of a
  /// decryption (Garner's mixed-radix CRT), and log2 of the largest |x|.
  std::vector<uint64_t> reduceCentred(const Poly<Word> &x,
                                      double *log2_max = nullptr) const;

private:
  struct Tables;
  const Context<Word> &ctx_;
  Modulus<Word> t_;
  std::shared_ptr<const Tables> tables_;
};

/// The factor arithmetic that the CPU and CUDA BGV evaluators share.
namespace bgv {
/// mu of a BGV ciphertext or plaintext from its scale: InvalidArgument
/// unless an integer in [1, t).
uint64_t factorOf(double scale, uint64_t t);
/// c mod t in [0, t) for any signed c.
uint64_t reduceSigned(int64_t c, uint64_t t);
// mulMod, invMod (a b and a^-1 mod a prime t): ember/bgv_params.h.
/// c (in [0, t)) centred in (-t/2, t/2], as residues of each limb of
/// `basis`: the constant whose multiple keeps the noise smallest.
template <typename Word>
std::vector<Word> centredResidues(const Context<Word> &ctx, uint64_t t,
                                  uint64_t c, const std::vector<int> &basis);
/// The factor after a modulus switch from `level`: mu q_level^-1 mod t.
template <typename Word>
uint64_t switchedFactor(const Context<Word> &ctx, uint64_t mu, int level,
                        uint64_t t);
/// ScaleMismatch naming `op` unless a plaintext added to or subtracted from
/// a BGV ciphertext carries the ciphertext's factor.
void checkAddedFactor(double ct_factor, double pt_factor, const char *op);
/// ScaleMismatch naming `op` unless a BFV plaintext is in the form the
/// operation takes: Delta m (scale delta) to add or subtract, the centred m
/// (scale 1) to multiply.
void checkBfvPlainForm(double pt_scale, double delta, bool multiplier,
                       const char *op);
/// Checks a plaintext modulus for evaluation: 2 < t <= kMaxPlainModulus,
/// t coprime to every prime of the context.
template <typename Word>
void checkPlainModulus(const Context<Word> &ctx, uint64_t t);
} // namespace bgv

/// BGV evaluation. Operands may differ in level (the higher one is switched
/// down first) and in factor (one side is multiplied by the ratio of the
/// factors mod t first, as Phantom's and OpenFHE's evaluators do); plaintexts
/// must be at the ciphertext's level and, when added, carry its factor.
/// The results decrypt to the exact modular results while the noise budget
/// lasts.
template <typename Word> class BasicBgvEvaluator {
public:
  BasicBgvEvaluator(const Context<Word> &ctx, uint64_t t);
  uint64_t plainModulus() const { return t_.value(); }

  BasicCiphertext<Word> add(const BasicCiphertext<Word> &a,
                            const BasicCiphertext<Word> &b) const;
  BasicCiphertext<Word> sub(const BasicCiphertext<Word> &a,
                            const BasicCiphertext<Word> &b) const;
  BasicCiphertext<Word> negate(const BasicCiphertext<Word> &a) const;
  BasicCiphertext<Word> addPlain(const BasicCiphertext<Word> &a,
                                 const BasicPlaintext<Word> &p) const;
  BasicCiphertext<Word> subPlain(const BasicCiphertext<Word> &a,
                                 const BasicPlaintext<Word> &p) const;
  /// Factor becomes the product of the two.
  BasicCiphertext<Word> mulPlain(const BasicCiphertext<Word> &a,
                                 const BasicPlaintext<Word> &p) const;
  /// Adds the integer c to every slot.
  BasicCiphertext<Word> addInt(const BasicCiphertext<Word> &a, int64_t c) const;
  /// Multiplies every slot by the integer c (its centred residue mod t).
  BasicCiphertext<Word> mulInt(const BasicCiphertext<Word> &a, int64_t c) const;
  /// Tensor product (degree 2), factor product.
  BasicCiphertext<Word> multiply(const BasicCiphertext<Word> &a,
                                 const BasicCiphertext<Word> &b) const;
  BasicCiphertext<Word> relinearize(const BasicCiphertext<Word> &a,
                                    const BasicRelinKey<Word> &rk) const;
  /// Tensor, relinearization and a modulus switch (the usual BGV multiply):
  /// the result is one level lower. The key switch's ModDown and the
  /// modulus switch are one division by P q_l (Cheddar 5.2's merged
  /// ModDown, with t): (acc + P (d_0, d_1)) / (P q_l), t-corrected.
  BasicCiphertext<Word> multiplyRelin(const BasicCiphertext<Word> &a,
                                      const BasicCiphertext<Word> &b,
                                      const BasicRelinKey<Word> &rk) const;
  /// Modulus switch by q_l (BGV's rescale): level - 1, noise divided by
  /// q_l, factor times q_l^-1 mod t. LevelMismatch at level 0.
  BasicCiphertext<Word> modSwitch(const BasicCiphertext<Word> &a) const;
  /// Modulus switches down to `level`.
  BasicCiphertext<Word> modSwitchTo(const BasicCiphertext<Word> &a,
                                    int level) const;
  /// Cyclic left rotation of the slot vector by k.
  BasicCiphertext<Word> rotate(const BasicCiphertext<Word> &a, int64_t k,
                               const BasicGaloisKeys<Word> &keys) const;
  /// The factor made 1 (a multiplication by mu^-1 mod t), for outputs that
  /// leave the server without their factor.
  BasicCiphertext<Word> normalizeFactor(const BasicCiphertext<Word> &a) const;

private:
  /// a and b at a common level and, with `factors`, a common factor (b
  /// times mu_a / mu_b).
  void align(BasicCiphertext<Word> &a, BasicCiphertext<Word> &b,
             bool factors) const;
  uint64_t factorOf(const BasicCiphertext<Word> &a) const;
  const Context<Word> &ctx_;
  Modulus<Word> t_;
  BasicEvaluator<Word> base_;
};

using BgvEncoder = BasicBgvEncoder<Word64>;
using BgvEvaluator = BasicBgvEvaluator<Word64>;
using BgvEncoder32 = BasicBgvEncoder<uint32_t>;
using BgvEvaluator32 = BasicBgvEvaluator<uint32_t>;

} // namespace ember
