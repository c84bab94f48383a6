// An RNS polynomial: one contiguous limb-major buffer (limbs x N words) over
// a basis of global modulus indices, in coefficient or NTT (evaluation,
// bit-reversed) form.
#pragma once

#include <cstddef>
#include <vector>

namespace ember {

template <typename Word> struct Poly {
  std::vector<int> basis; ///< global modulus index of each limb
  size_t n = 0;           ///< ring degree N
  bool ntt = false;       ///< evaluation (NTT) form
  std::vector<Word> data; ///< basis.size() * n residues, limb-major

  Poly() = default;
  Poly(std::vector<int> basis_, size_t n_, bool ntt_)
      : basis(std::move(basis_)), n(n_), ntt(ntt_), data(basis.size() * n) {}

  size_t limbs() const { return basis.size(); }
  Word *limb(size_t i) { return data.data() + i * n; }
  const Word *limb(size_t i) const { return data.data() + i * n; }
};

} // namespace ember
