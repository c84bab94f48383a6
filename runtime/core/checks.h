// Operand checks shared by the CPU and CUDA evaluators, so both backends
// reject the same inputs with the same named errors and messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ember::checks {

/// What the checks need to know of a ciphertext or plaintext.
struct Operand {
  int level;
  double scale;
  size_t slots;
  int degree; ///< 1 or 2 for ciphertexts; 0 for plaintexts
};

/// Ciphertext-ciphertext add/sub: equal levels, scales and slot counts.
void binary(const Operand &a, const Operand &b, const char *op);
/// Ciphertext-plaintext: equal levels and slot counts (and scales when the
/// plaintext is added).
void plain(const Operand &ct, const Operand &pt, const char *op,
           bool need_scale);
/// Tensor product: equal levels and slot counts, degree-1 operands.
void multiply(const Operand &a, const Operand &b);
/// Relinearization: a degree-2 operand (degree 1 passes through) and a key.
void relinearize(int degree, bool has_key);
/// Rescale by `primes` primes (Context::scalePrimes): level >= primes.
void rescale(int level, int primes = 1);
void modDrop(int from, int to);
void mulConstScale(double const_scale);
/// Galois element application: degree-1 operand and a key for `galois`;
/// `what` names the operation for the message ("a rotation by 3",
/// "conjugation"), or is empty for a raw element.
void galois(int degree, bool has_key, uint64_t galois, const std::string &what);

} // namespace ember::checks
