// Negacyclic number-theoretic transform over Z_q[X]/(X^N + 1).
//
// The forward transform takes coefficients in natural order to evaluations
// in bit-reversed order: out[k] = a(psi^(2*brev(k)+1)), psi a primitive 2N-th
// root of unity (Cheddar 3.3: keeps automorphisms coalesced). Harvey's lazy
// butterflies with Shoup twiddles (Cooley-Tukey forward, Gentleman-Sande
// inverse); the inverse folds N^-1 into its last stage.
#pragma once

#include "ember/modarith.h"

#include <cstddef>
#include <vector>

namespace ember {

inline uint32_t bitReverse(uint32_t x, int bits) {
  uint32_t r = 0;
  for (int i = 0; i < bits; ++i) {
    r = (r << 1) | (x & 1);
    x >>= 1;
  }
  return r;
}

template <typename Word> class NttTables {
public:
  NttTables() = default;
  /// Tables for modulus q = 1 (mod 2N). Picks the smallest primitive 2N-th
  /// root psi (deterministic, so every backend agrees).
  NttTables(int log_n, const Modulus<Word> &q);

  int logN() const { return log_n_; }
  size_t n() const { return size_t{1} << log_n_; }
  const Modulus<Word> &modulus() const { return q_; }
  Word psi() const { return psi_; }

  /// In place on one limb of n() words; input and output in [0, q).
  void forward(Word *a) const;
  void inverse(Word *a) const;

  // Twiddles: roots_[i] = psi^brev(i) and inv_roots_[i] = psi^-brev(i) with
  // their Shoup quotients; exposed for the CUDA backend to copy.
  const std::vector<Word> &roots() const { return roots_; }
  const std::vector<Word> &rootsShoup() const { return roots_shoup_; }
  const std::vector<Word> &invRoots() const { return inv_roots_; }
  const std::vector<Word> &invRootsShoup() const { return inv_roots_shoup_; }
  Word nInv() const { return n_inv_; }
  Word nInvShoup() const { return n_inv_shoup_; }

private:
  int log_n_ = 0;
  Modulus<Word> q_;
  Word psi_ = 0;
  std::vector<Word> roots_, roots_shoup_, inv_roots_, inv_roots_shoup_;
  Word n_inv_ = 0, n_inv_shoup_ = 0;
  // inv_roots_[1] * n^-1, used by the fused last inverse stage.
  Word last_inv_root_n_ = 0, last_inv_root_n_shoup_ = 0;
};

extern template class NttTables<uint32_t>;
extern template class NttTables<uint64_t>;

} // namespace ember
