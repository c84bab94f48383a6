// Modular arithmetic on machine words. The word type is a template parameter:
// uint64_t (primes up to 61 bits) now; uint32_t (primes up to 31 bits, for
// Cheddar-style double-prime scaling) already works for every primitive.
//
// Multiplication by a known constant uses Shoup's method (one precomputed
// quotient per constant); a general product uses Barrett reduction of the
// double-word product. "Lazy" variants return values in [0, 2q) so that
// chains such as NTT butterflies (Harvey) skip most corrections; the inputs
// of lazy routines may be in [0, 4q), which needs q < 2^(W-2).
#pragma once

#include <cstdint>
#include <type_traits>

namespace ember {

template <typename Word> struct WordTraits;
template <> struct WordTraits<uint64_t> {
  using Double = unsigned __int128;
  static constexpr int kBits = 64;
  static constexpr int kMaxPrimeBits = 61;
};
template <> struct WordTraits<uint32_t> {
  using Double = uint64_t;
  static constexpr int kBits = 32;
  static constexpr int kMaxPrimeBits = 30;
};

template <typename Word> inline Word mulHi(Word a, Word b) {
  using D = typename WordTraits<Word>::Double;
  return static_cast<Word>((static_cast<D>(a) * b) >> WordTraits<Word>::kBits);
}

/// A prime modulus q with its Barrett constant floor(2^(2W) / q).
template <typename Word> class Modulus {
public:
  using Double = typename WordTraits<Word>::Double;
  static constexpr int kBits = WordTraits<Word>::kBits;

  Modulus() = default;
  explicit Modulus(Word q) : q_(q) {
    // floor((2^(2W) - 1) / q) equals floor(2^(2W) / q) since q is not a
    // power of two; split into high and low words.
    Double all_ones = ~Double{0};
    Double ratio = all_ones / q;
    ratio_hi_ = static_cast<Word>(ratio >> kBits);
    ratio_lo_ = static_cast<Word>(ratio);
  }

  Word value() const { return q_; }

  Word add(Word a, Word b) const {
    Word s = a + b;
    return s >= q_ ? s - q_ : s;
  }
  Word sub(Word a, Word b) const { return a >= b ? a - b : a + q_ - b; }
  Word neg(Word a) const { return a == 0 ? 0 : q_ - a; }

  /// x mod q for any double-word x (Barrett; at most two corrections).
  Word reduce(Double x) const {
    Word x_lo = static_cast<Word>(x);
    Word x_hi = static_cast<Word>(x >> kBits);
    // quotient estimate = floor(x * ratio / 2^(2W)), dropping the lowest
    // partial product, which is off by at most 2 in total.
    Double lo_hi = static_cast<Double>(x_lo) * ratio_hi_;
    Double hi_lo = static_cast<Double>(x_hi) * ratio_lo_;
    Double mid =
        (lo_hi & mask()) + (hi_lo & mask()) + mulHi<Word>(x_lo, ratio_lo_);
    Word quotient = x_hi * ratio_hi_ + static_cast<Word>(lo_hi >> kBits) +
                    static_cast<Word>(hi_lo >> kBits) +
                    static_cast<Word>(mid >> kBits);
    Word r = x_lo - quotient * q_;
    while (r >= q_)
      r -= q_;
    return r;
  }
  Word reduceWord(Word x) const {
    return x >= q_ ? reduce(static_cast<Double>(x)) : x;
  }

  Word mul(Word a, Word b) const { return reduce(static_cast<Double>(a) * b); }
  Word pow(Word base, uint64_t exp) const {
    Word result = 1 % q_;
    while (exp) {
      if (exp & 1)
        result = mul(result, base);
      base = mul(base, base);
      exp >>= 1;
    }
    return result;
  }
  /// Inverse by Fermat (q prime); a must be non-zero mod q.
  Word inv(Word a) const { return pow(reduceWord(a), q_ - 2); }

  /// Shoup quotient floor(w * 2^W / q) of a constant w < q.
  Word shoup(Word w) const {
    return static_cast<Word>((static_cast<Double>(w) << kBits) / q_);
  }
  /// a * w mod q in [0, 2q), for any word a.
  Word mulShoupLazy(Word a, Word w, Word w_shoup) const {
    Word quotient = mulHi<Word>(a, w_shoup);
    return a * w - quotient * q_;
  }
  Word mulShoup(Word a, Word w, Word w_shoup) const {
    Word r = mulShoupLazy(a, w, w_shoup);
    return r >= q_ ? r - q_ : r;
  }

private:
  static constexpr Double mask() { return (Double{1} << kBits) - 1; }
  Word q_ = 0;
  Word ratio_hi_ = 0, ratio_lo_ = 0;
};

} // namespace ember
