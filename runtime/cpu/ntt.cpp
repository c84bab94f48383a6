// Negacyclic NTT with Harvey's lazy butterflies (values kept in [0, 4q)
// between stages) and Shoup twiddles. Cost per limb: (N/2) log N butterflies,
// each one Shoup multiply (2 word multiplies + 1 mulhi) and 3-4 adds.
#include "ember/ntt.h"
#include "clones.h"
#include "ember/errors.h"

#include <string>

namespace ember {

namespace {
template <typename Word>
Word findPrimitiveRoot(const Modulus<Word> &q, uint64_t order) {
  // psi has order exactly 2N iff psi^N = -1. Try g^((q-1)/2N) for g = 2, 3...
  const uint64_t qv = q.value();
  if ((qv - 1) % order != 0)
    throw InvalidArgument("prime " + std::to_string(qv) + " is not 1 mod " +
                          std::to_string(order));
  for (uint64_t g = 2; g < qv; ++g) {
    Word candidate = q.pow(static_cast<Word>(g), (qv - 1) / order);
    if (q.pow(candidate, order / 2) == qv - 1) {
      // Smallest primitive root among the powers, for determinism across
      // backends regardless of g.
      Word best = candidate, power = candidate;
      Word square = q.mul(candidate, candidate);
      for (uint64_t k = 3; k < order; k += 2) {
        power = q.mul(power, square);
        if (power < best)
          best = power;
      }
      return best;
    }
  }
  throw InvalidArgument("no primitive root for " + std::to_string(qv));
}
} // namespace

template <typename Word>
NttTables<Word>::NttTables(int log_n, const Modulus<Word> &q)
    : log_n_(log_n), q_(q) {
  const size_t n = size_t{1} << log_n;
  psi_ = findPrimitiveRoot(q, 2 * n);
  Word psi_inv = q.inv(psi_);
  roots_.resize(n);
  inv_roots_.resize(n);
  roots_shoup_.resize(n);
  inv_roots_shoup_.resize(n);
  Word power = 1, inv_power = 1;
  for (size_t i = 0; i < n; ++i) {
    size_t r = bitReverse(static_cast<uint32_t>(i), log_n);
    roots_[r] = power;
    inv_roots_[r] = inv_power;
    power = q.mul(power, psi_);
    inv_power = q.mul(inv_power, psi_inv);
  }
  for (size_t i = 0; i < n; ++i) {
    roots_shoup_[i] = q.shoup(roots_[i]);
    inv_roots_shoup_[i] = q.shoup(inv_roots_[i]);
  }
  n_inv_ = q.inv(static_cast<Word>(n % q.value()));
  n_inv_shoup_ = q.shoup(n_inv_);
  last_inv_root_n_ = q.mul(inv_roots_[1], n_inv_);
  last_inv_root_n_shoup_ = q.shoup(last_inv_root_n_);
}

namespace {

// The loops, inlined into each entry below. At 32-bit words the entries
// are compiled for AVX2 and the baseline (clones.h): the butterflies'
// products vectorize at twice the width.

template <typename Word>
[[gnu::always_inline]] inline void
forwardLoops(Word *a, size_t n, const Modulus<Word> &mq, const Word *roots,
             const Word *roots_shoup) {
  const Word q = mq.value(), two_q = 2 * q;
  size_t t = n;
  for (size_t m = 1; m < n; m <<= 1) {
    t >>= 1;
    for (size_t i = 0; i < m; ++i) {
      const Word w = roots[m + i], w_shoup = roots_shoup[m + i];
      Word *x = a + 2 * i * t;
      Word *y = x + t;
      for (size_t j = 0; j < t; ++j) {
        Word u = x[j];
        u = u >= two_q ? u - two_q : u;             // [0, 2q)
        Word v = mq.mulShoupLazy(y[j], w, w_shoup); // [0, 2q)
        x[j] = u + v;                               // [0, 4q)
        y[j] = u - v + two_q;                       // (0, 4q)
      }
    }
  }
  for (size_t j = 0; j < n; ++j) {
    Word u = a[j];
    u = u >= two_q ? u - two_q : u;
    a[j] = u >= q ? u - q : u;
  }
}

template <typename Word>
[[gnu::always_inline]] inline void
inverseLoops(Word *a, size_t n, const Modulus<Word> &mq, const Word *inv_roots,
             const Word *inv_roots_shoup, Word n_inv, Word n_inv_shoup,
             Word last, Word last_shoup) {
  const Word q = mq.value(), two_q = 2 * q;
  size_t t = 1;
  for (size_t m = n >> 1; m > 1; m >>= 1) {
    for (size_t i = 0; i < m; ++i) {
      const Word w = inv_roots[m + i], w_shoup = inv_roots_shoup[m + i];
      Word *x = a + 2 * i * t;
      Word *y = x + t;
      for (size_t j = 0; j < t; ++j) {
        Word u = x[j], v = y[j]; // [0, 2q)
        Word s = u + v;
        x[j] = s >= two_q ? s - two_q : s;
        y[j] = mq.mulShoupLazy(u - v + two_q, w, w_shoup);
      }
    }
    t <<= 1;
  }
  // Last stage (m = 1) with N^-1 folded in: x' = (u + v)/N, y' = (u - v)w/N.
  Word *x = a, *y = a + t;
  for (size_t j = 0; j < t; ++j) {
    Word u = x[j], v = y[j];
    Word s = u + v;
    s = s >= two_q ? s - two_q : s;
    x[j] = mq.mulShoup(s, n_inv, n_inv_shoup);
    y[j] = mq.mulShoup(u - v + two_q, last, last_shoup);
  }
}

EMBER_WIDE_CLONES void forward32(uint32_t *a, size_t n,
                                 const Modulus<uint32_t> &mq,
                                 const uint32_t *roots,
                                 const uint32_t *roots_shoup) {
  forwardLoops(a, n, mq, roots, roots_shoup);
}

EMBER_WIDE_CLONES void inverse32(uint32_t *a, size_t n,
                                 const Modulus<uint32_t> &mq,
                                 const uint32_t *inv_roots,
                                 const uint32_t *inv_roots_shoup,
                                 uint32_t n_inv, uint32_t n_inv_shoup,
                                 uint32_t last, uint32_t last_shoup) {
  inverseLoops(a, n, mq, inv_roots, inv_roots_shoup, n_inv, n_inv_shoup, last,
               last_shoup);
}

} // namespace

template <typename Word> void NttTables<Word>::forward(Word *a) const {
  if constexpr (sizeof(Word) == 4)
    forward32(a, n(), q_, roots_.data(), roots_shoup_.data());
  else
    forwardLoops(a, n(), q_, roots_.data(), roots_shoup_.data());
}

template <typename Word> void NttTables<Word>::inverse(Word *a) const {
  if constexpr (sizeof(Word) == 4)
    inverse32(a, n(), q_, inv_roots_.data(), inv_roots_shoup_.data(), n_inv_,
              n_inv_shoup_, last_inv_root_n_, last_inv_root_n_shoup_);
  else
    inverseLoops(a, n(), q_, inv_roots_.data(), inv_roots_shoup_.data(), n_inv_,
                 n_inv_shoup_, last_inv_root_n_, last_inv_root_n_shoup_);
}

template class NttTables<uint32_t>;
template class NttTables<uint64_t>;

} // namespace ember
