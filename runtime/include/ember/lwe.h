// FHEW/TFHE on the CPU: LWE ciphertexts of bits and small integers, gate
// bootstrapping and programmable bootstrapping (issue 16).
//
// The scheme is OpenFHE's GINX ("CGGI") variant with ternary keys, or its
// AP ("DM") variant in sets named *_AP (Params::base_r: one product by
// RGSW(X^(s_i v B_r^k 2N/q)) per nonzero digit v of a_i in base B_r):
//
//   LWE     (a, b) in Z_q^(n+1), phase b - <a, s> mod q, s ternary of n.
//   RLWE    (a, b) in R_Q^2, R_Q = Z_Q[X]/(X^N + 1), phase b - a s', s'
//           ternary of N; Q a prime = 1 mod 2N below 2^30 (32-bit words).
//   RGSW    2(d-1) RLWE rows: the gadget (Bg, Bg^2, ..., Bg^(d-1)) times the
//           message added to the a-part (even rows) or the b-part (odd);
//           the lowest digit is dropped (OpenFHE's approximate gadget).
//
// A bootstrap takes an LWE ciphertext at q (q | 2N), rotates a test vector
// by X^(-phase * 2N / q) (blind rotation: two RGSW keys per LWE key
// coefficient, for s_i = 1 and s_i = -1), extracts the constant
// coefficient (an LWE ciphertext of dimension N at Q), switches its modulus
// to q_ks, its key to s (dimension n) and its modulus to q. A bit m is
// encrypted as m q / 4; a gate adds its inputs (twice for XOR and XNOR),
// shifts the phase so that the output bit is its sign, and bootstraps with
// the constant test vector Q/8 (the sign is negacyclic). A lookup table of
// t entries uses one padding bit: m in Z_t is encrypted as m q / (2t).
//
// The external product is OpenFHE's gadget decomposition, or (sets named
// *_MR) VeloFHE's modulus raising: the bootstrapping key is two RLWE
// samples at P Q per key, with P [s_i = +-1] in component r of row r; a
// step multiplies the accumulator (coefficient form at Q, lifted centred)
// by them at both primes and adds round(product / P) back at Q (VeloFHE's
// Algorithm 3): 4 forward and 4 inverse NTTs per step, no digits.
//
// Parameter sets follow OpenFHE's (binfhecontext.cpp, the sets regenerated
// in 2026): their security is OpenFHE's lattice-estimator figure for the
// LWE (n, q_ks) and RLWE (N, Q) instances with ternary secrets and sigma
// 3.19. The failure probability per gate is computed from the parameters
// by estimateNoise (the variance model of OpenFHE's noise-model notes).
#pragma once

#include "ember/lwe_params.h"
#include "ember/random.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ember::lwe {

/// An LWE ciphertext: phase b - <a, s> mod `modulus`.
struct Ciphertext {
  std::vector<uint32_t> a;
  uint32_t b = 0;
  uint32_t modulus = 0;
};

/// The client's keys: s (dimension n) and s' (dimension N), both ternary.
class SecretKey {
public:
  SecretKey(const Params &params, Prng &prng);
  /// From its coefficients (each -1, 0 or 1; n and N of them).
  SecretKey(const Params &params, std::vector<int32_t> s,
            std::vector<int32_t> ring_s);
  ~SecretKey();
  SecretKey(const SecretKey &) = delete;
  SecretKey &operator=(const SecretKey &) = delete;

  const Params &params() const { return params_; }
  const std::vector<int32_t> &lweKey() const { return s_; }
  const std::vector<int32_t> &ringKey() const { return ring_s_; }

  /// LWE encryption of m at q with plaintext space p (m q / p, p | q).
  Ciphertext encrypt(uint32_t m, uint32_t p, Prng &prng) const;
  /// round(phase p / q) mod p.
  uint32_t decrypt(const Ciphertext &ct, uint32_t p) const;
  /// The centred phase b - <a, s> in (-modulus/2, modulus/2]; the key must
  /// match the ciphertext's dimension (n for s, N for s').
  int64_t phase(const Ciphertext &ct) const;

  /// A radix block (the key-switch-first order): an LWE ciphertext at Q
  /// (modulus ring_q) of dimension N under s', phase m round(Q / 2t) + e,
  /// e Gaussian of sigma. t is a power of two with 2t <= q (a table over
  /// Z_t reads it; m in [t, 2t) lies in the negacyclic half); m < 2t.
  Ciphertext encryptBlock(uint32_t m, uint32_t t, Prng &prng) const;
  /// round(phase 2t / Q) mod 2t, the phase taken in [0, Q); the ciphertext
  /// must be a block (modulus Q, dimension N).
  uint32_t decryptBlock(const Ciphertext &ct, uint32_t t) const;

private:
  Params params_;
  std::vector<int32_t> s_, ring_s_;
};

/// What the server holds: the bootstrapping key (RGSW encryptions of the
/// LWE key under s', in NTT form) and the key-switching key (s' to s).
class EvaluationKeys {
public:
  EvaluationKeys(const SecretKey &sk, Prng &prng);
  struct Impl;
  explicit EvaluationKeys(std::unique_ptr<Impl> impl);
  ~EvaluationKeys();
  EvaluationKeys(EvaluationKeys &&) noexcept;
  EvaluationKeys &operator=(EvaluationKeys &&) noexcept;

  const Params &params() const;
  size_t bootstrapKeyBytes() const;
  size_t keySwitchKeyBytes() const;

  const Impl &impl() const { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

enum class Gate { And, Or, Nand, Nor, Xor, Xnor };
Gate gateFromName(const std::string &name);
const char *gateName(Gate gate);

/// Gate and programmable bootstrapping on the CPU. One evaluator may be
/// used from one thread at a time (it owns its scratch).
class Evaluator {
public:
  explicit Evaluator(const EvaluationKeys &keys);
  ~Evaluator();

  const Params &params() const;

  /// gate(a, b) on bits encrypted as m q / 4: one bootstrap.
  Ciphertext gate(Gate gate, const Ciphertext &a, const Ciphertext &b);
  /// NOT: no bootstrap (q/4 - ct).
  Ciphertext notGate(const Ciphertext &a) const;
  /// sel ? t : f in two bootstraps and one key switch.
  Ciphertext mux(const Ciphertext &sel, const Ciphertext &t,
                 const Ciphertext &f);
  /// A fresh encryption of the same bit (noise reset).
  Ciphertext bootstrap(const Ciphertext &a);
  /// table[m] for m in Z_t encrypted with a padding bit (m q / (2t)); the
  /// output has the same encoding. t is a power of two with 2t <= q and
  /// every entry below t.
  Ciphertext lut(const Ciphertext &a, const std::vector<uint32_t> &table);
  /// A programmable bootstrap of a radix block (SecretKey::encryptBlock)
  /// in the key-switch-first order: sampleExtract(blindRotate(finish(block),
  /// lutTestVector(table))). The output is a block again (at Q, dimension
  /// N) of phase round(Q / 2t) table[m] plus the blind rotation's noise
  /// only, m = the block's value in Z_t (t = table.size()).
  Ciphertext pbs(const Ciphertext &block, const std::vector<uint32_t> &table);

  // The steps, exposed for tests (each is also checked against a naive
  // reference there).
  /// The RLWE accumulator X^(-phase(a) 2N/q) tv under s', coefficient form:
  /// [a-part, b-part], each N words mod Q.
  std::vector<uint32_t> blindRotate(const Ciphertext &a,
                                    const std::vector<uint32_t> &tv);
  /// Constant coefficient of an accumulator as an LWE ciphertext at Q of
  /// dimension N under s'.
  Ciphertext sampleExtract(const std::vector<uint32_t> &acc) const;
  /// s' (dimension N) to s (dimension n), both at q_ks.
  Ciphertext keySwitch(const Ciphertext &a) const;

private:
  struct Scratch;
  const EvaluationKeys &keys_;
  std::unique_ptr<Scratch> scratch_;
  /// An extracted ciphertext (at Q, dimension N) to q_ks, key-switched to
  /// s, to q: a gate's output, or a block's bootstrap input.
  Ciphertext finish(Ciphertext extracted) const;
  /// blindRotate by modulus raising; the accumulator's start in place.
  std::vector<uint32_t> blindRotateRaising(const Ciphertext &ct);
  Ciphertext signBootstrap(const Ciphertext &shifted);
};

/// A compiled FHEW/TFHE program (fhe-to-lwe, then ember-translate
/// --emit-tfhe-circuit): wires 0 .. input_bits-1 are the inputs; op k
/// writes wire input_bits + k. An op is {code, out, a, b, c}. A circuit
/// holds one encoding:
///
///   bits (radix false): wires are LWE ciphertexts at q of dimension n
///   (bits at m q / 4). Codes 0-5 the gates in Gate's order (a, b), 6 NOT
///   (a), 7 MUX (a ? b : c), 8 the known bit a (a noiseless ciphertext).
///
///   radix (radix true): wires are blocks (SecretKey::encryptBlock: at Q,
///   dimension N, value v at v Delta, Delta = round(Q / 2t), t =
///   block_modulus). Code 9 kLinear {9, out, a, b, f}: x w[a] + y w[b] + c
///   Delta mod Q on every word, (x, y, c) = forms[f] (signed; b = -1: one
///   operand, y unused); 10 kLut {10, out, a, T, -1}: Evaluator::pbs(w[a],
///   tables[T]); 11 kBlock {11, out, v, -1, -1}: the noiseless block v
///   Delta (a = 0), 0 <= v < 2t.
struct Circuit {
  enum Code {
    kNot = 6,
    kMux = 7,
    kTrivial = 8,
    kLinear = 9,
    kLut = 10,
    kBlock = 11
  };
  /// How many wires an op of `code` reads at most (a gate 2, NOT 1, MUX 3,
  /// kLinear 2, kLut 1, a known bit or block 0).
  static int reads(int code) {
    switch (code) {
    case kNot:
    case kLut:
      return 1;
    case kMux:
      return 3;
    case kTrivial:
    case kBlock:
      return 0;
    default:
      return code < 6 || code == kLinear ? 2 : 0;
    }
  }
  /// How many wires `op` reads, from op[2] on (kLinear: 1 where b = -1).
  static int reads(const std::array<int32_t, 5> &op) {
    return op[0] == kLinear && op[3] < 0 ? 1 : reads(op[0]);
  }
  /// Input wires: bits, or blocks when radix.
  int input_bits = 0;
  int wires = 0;
  std::vector<std::array<int32_t, 5>> ops;
  std::vector<int32_t> outputs;
  /// Wires are blocks at Q (dimension N); ops 9-11 only.
  bool radix = false;
  /// t of the blocks' encoding (Delta = round(Q / 2t)): a power of two.
  uint32_t block_modulus = 16;
  /// kLut's tables: t entries each, each below t.
  std::vector<std::vector<uint32_t>> tables;
  /// kLinear's (x, y, c).
  std::vector<std::array<int32_t, 3>> forms;
  /// Throws InvalidArgument naming the first malformed op (a code of the
  /// other encoding or unknown, a wire out of order or used before it is
  /// written, a table or form index out of range, a block value) or table.
  void validate() const;
};
/// Runs a circuit on the CPU: one Evaluator call per op, in order. The
/// inputs are bits, or blocks for a radix circuit.
std::vector<Ciphertext> runCircuit(Evaluator &ev, const Circuit &circuit,
                                   const std::vector<Ciphertext> &inputs);

/// Serialization in the container of ember/serialize.h (kind, a hash of
/// the parameter set, SHA-256 of the whole): loading checks the header,
/// the checksum, the parameter set (a named one, every field equal) and
/// every word (ternary key coefficients, residues below their moduli,
/// sizes the set implies), raising SerializationError naming what is
/// wrong. Secret keys are wiped from temporaries and refused by
/// writeServerFile (holdsSecretKey).
using Bytes = std::vector<uint8_t>;
Bytes serialize(const SecretKey &sk);
Bytes serialize(const EvaluationKeys &keys);
/// LWE ciphertexts: all at the set's q of dimension n (bits; inputs and
/// outputs of gates and bit circuits), or all radix blocks (at Q, dimension
/// N; a file of its own kind, ObjectKind::kLweBlocks). An empty vector is
/// a file of bits.
Bytes serialize(const Params &params, const std::vector<Ciphertext> &cts);
std::unique_ptr<SecretKey> deserializeSecretKey(const Bytes &bytes);
EvaluationKeys deserializeEvaluationKeys(const Bytes &bytes);
/// Bits or blocks, as the file holds.
std::vector<Ciphertext> deserializeCiphertexts(const Params &params,
                                               const Bytes &bytes);
/// The same, refusing a file of the other kind (blocks: radix blocks only;
/// else bits only).
std::vector<Ciphertext> deserializeCiphertexts(const Params &params,
                                               const Bytes &bytes, bool blocks);

/// The test vector of a lookup table over Z_t with a padding bit (round(Q /
/// 2t) table[m] around rotation m N / t); checks the table.
std::vector<uint32_t> lutTestVector(const Params &params,
                                    const std::vector<uint32_t> &table);
/// round(x to) / from on every word: the modulus switch.
Ciphertext modSwitch(const Ciphertext &ct, uint32_t to);
/// Signed digits of x (mod Q) in base Bg, digits 1 .. d-1 (digit 0, the
/// lowest, dropped): each in [-Bg/2, Bg/2), the top one at most Bg/2 + 1 in
/// magnitude, so that sum_k digit_k Bg^k = x - digit_0 exactly (centred).
std::vector<int32_t> signedDigits(uint32_t x, const Params &params);

} // namespace ember::lwe
