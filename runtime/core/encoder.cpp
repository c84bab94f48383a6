// CKKS encoding through the canonical embedding with HEAAN's "special FFT"
// over the rotation group <5> (O(N log N), never an O(N^2) DFT). Slot j of a
// vector of n slots sits at the root zeta^(5^j), so X -> X^(5^k) rotates the
// slots left by k; sparse vectors (n < N/2) use every (N/2n)-th coefficient.
#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/rns.h"
#include "internal.h"

#include <cmath>
#include <map>
#include <mutex>

namespace ember {

namespace internal {

namespace {
/// x mod q for a 64-bit x at either word.
template <typename Word> Word reduce64(const Modulus<Word> &q, uint64_t x) {
  if constexpr (sizeof(Word) == sizeof(uint64_t))
    return q.reduceWord(x);
  else
    return q.reduce(x);
}
} // namespace

template <typename Word>
std::vector<Word> integerResidues(const Context<Word> &ctx, double value,
                                  const std::vector<int> &basis) {
  std::vector<Word> out(basis.size());
  if (!std::isfinite(value))
    throw InvalidArgument("cannot encode a non-finite value");
  integerResiduesTo(ctx, value, basis, out.data(), 1);
  return out;
}

template <typename Word>
void integerResiduesTo(const Context<Word> &ctx, double value,
                       const std::vector<int> &basis, Word *out,
                       size_t stride) {
  const bool negative = value < 0;
  double magnitude = std::fabs(value);
  for (size_t i = 0; i < basis.size(); ++i) {
    const Modulus<Word> &q = ctx.modulus(basis[i]);
    Word r;
    if (magnitude < 18446744073709551616.0) {
      r = reduce64(q, static_cast<uint64_t>(magnitude));
    } else {
      int exponent = 0;
      double mantissa = std::frexp(magnitude, &exponent); // [0.5, 1)
      uint64_t m = static_cast<uint64_t>(std::ldexp(mantissa, 53));
      r = q.mul(reduce64(q, m), q.pow(2, static_cast<uint64_t>(exponent - 53)));
    }
    out[i * stride] = negative ? q.neg(r) : r;
  }
}

template <typename Word> double logQ(const Context<Word> &ctx, int level) {
  double bits = 0;
  for (int i = 0; i <= level; ++i)
    bits += std::log2(static_cast<double>(ctx.primes()[i]));
  return bits;
}

#define EMBER_INTERNAL_FUNCTIONS(W)                                            \
  template std::vector<W> integerResidues(const Context<W> &, double,          \
                                          const std::vector<int> &);           \
  template void integerResiduesTo(const Context<W> &, double,                  \
                                  const std::vector<int> &, W *, size_t);      \
  template double logQ(const Context<W> &, int);
EMBER_INTERNAL_FUNCTIONS(uint32_t)
EMBER_INTERNAL_FUNCTIONS(uint64_t)
#undef EMBER_INTERNAL_FUNCTIONS

} // namespace internal

namespace {
template <typename Word>
void checkSlots(const Context<Word> &ctx, size_t slots) {
  if (slots == 0 || (slots & (slots - 1)) != 0 || slots > ctx.slotsMax())
    throw InvalidArgument("slot count " + std::to_string(slots) +
                          " must be a power of two in 1.." +
                          std::to_string(ctx.slotsMax()) + " (N/2)");
}

void bitReverseInPlace(std::vector<std::complex<double>> &v) {
  const size_t n = v.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j ^= bit;
    if (i < j)
      std::swap(v[i], v[j]);
  }
}

/// LevelMismatch unless `level` is one of the context's levels.
template <typename Word> void checkLevel(const Context<Word> &ctx, int level) {
  if (level < 0 || level > ctx.maxLevel())
    throw LevelMismatch("cannot encode at level " + std::to_string(level) +
                        " (parameters have levels 0.." +
                        std::to_string(ctx.maxLevel()) + ")");
}
} // namespace

template <typename Word> struct BasicEncoder<Word>::Tables {
  std::vector<uint64_t> group;             // 5^j mod 2N, j < N/2
  std::vector<std::complex<double>> roots; // exp(2 pi i k / 2N), k <= 2N

  explicit Tables(size_t n) : group(n / 2), roots(2 * n + 1) {
    const size_t m = 2 * n;
    uint64_t power = 1;
    for (uint64_t &g : group) {
      g = power;
      power = power * 5 % m;
    }
    for (size_t k = 0; k <= m; ++k) {
      double angle =
          2.0 * M_PI * static_cast<double>(k) / static_cast<double>(m);
      roots[k] = {std::cos(angle), std::sin(angle)};
    }
  }
};

template <typename Word>
BasicEncoder<Word>::BasicEncoder(const Context<Word> &ctx) : ctx_(ctx) {
  // 2N + 1 sines and cosines (5 ms at N = 2^16) per degree, not per
  // encoder: the tables live as long as the process (3 MB at N = 2^16).
  static std::mutex mutex;
  static std::map<size_t, std::shared_ptr<const Tables>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<const Tables> &tables = cache[ctx.n()];
  if (!tables)
    tables = std::make_shared<const Tables>(ctx.n());
  tables_ = tables;
}

template <typename Word>
void BasicEncoder<Word>::fftSpecial(
    std::vector<std::complex<double>> &vals) const {
  const size_t size = vals.size(), m = 2 * ctx_.n();
  bitReverseInPlace(vals);
  for (size_t len = 2; len <= size; len <<= 1) {
    const size_t lenh = len >> 1, lenq = len << 2;
    for (size_t i = 0; i < size; i += len) {
      for (size_t j = 0; j < lenh; ++j) {
        size_t idx = (tables_->group[j] % lenq) * (m / lenq);
        std::complex<double> u = vals[i + j];
        std::complex<double> v = vals[i + j + lenh] * tables_->roots[idx];
        vals[i + j] = u + v;
        vals[i + j + lenh] = u - v;
      }
    }
  }
}

template <typename Word>
void BasicEncoder<Word>::fftSpecialInv(
    std::vector<std::complex<double>> &vals) const {
  const size_t size = vals.size(), m = 2 * ctx_.n();
  for (size_t len = size; len >= 2; len >>= 1) {
    const size_t lenh = len >> 1, lenq = len << 2;
    for (size_t i = 0; i < size; i += len) {
      for (size_t j = 0; j < lenh; ++j) {
        size_t idx = (lenq - (tables_->group[j] % lenq)) * (m / lenq);
        std::complex<double> u = vals[i + j] + vals[i + j + lenh];
        std::complex<double> v =
            (vals[i + j] - vals[i + j + lenh]) * tables_->roots[idx];
        vals[i + j] = u;
        vals[i + j + lenh] = v;
      }
    }
  }
  bitReverseInPlace(vals);
  for (auto &v : vals)
    v /= static_cast<double>(size);
}

template <typename Word>
BasicPlaintext<Word>
BasicEncoder<Word>::encode(const std::vector<std::complex<double>> &values,
                           int level, double scale, size_t slots) const {
  checkLevel(ctx_, level);
  return encode(values, level, scale, slots, ctx_.qBasis(level));
}

template <typename Word>
BasicPlaintext<Word>
BasicEncoder<Word>::encode(const std::vector<std::complex<double>> &values,
                           int level, double scale, size_t slots,
                           const std::vector<int> &basis) const {
  checkSlots(ctx_, slots);
  if (values.size() != slots)
    throw InvalidArgument("expected " + std::to_string(slots) +
                          " values, got " + std::to_string(values.size()));
  checkLevel(ctx_, level);
  if (!(scale > 0) || !std::isfinite(scale))
    throw InvalidArgument("the scale must be a positive finite number");

  std::vector<std::complex<double>> u = values;
  fftSpecialInv(u);
  const size_t n = ctx_.n(), half = n / 2, gap = half / slots;
  const double limit = internal::logQ(ctx_, level) - 1;
  std::vector<double> coeffs(n, 0.0);
  for (size_t i = 0; i < slots; ++i) {
    coeffs[i * gap] = std::round(u[i].real() * scale);
    coeffs[half + i * gap] = std::round(u[i].imag() * scale);
  }
  double max_abs = 0;
  for (double c : coeffs) {
    if (std::isnan(c)) // infinities fail the size check below
      throw InvalidArgument("cannot encode a non-finite value");
    max_abs = std::max(max_abs, std::fabs(c));
  }
  if (max_abs > 0 && std::log2(max_abs) >= limit)
    throw InvalidArgument("values too large to encode: a coefficient needs " +
                          std::to_string(std::log2(max_abs)) +
                          " bits but q_0..q_" + std::to_string(level) +
                          " holds " + std::to_string(limit));

  BasicPlaintext<Word> pt;
  pt.level = level;
  pt.scale = scale;
  pt.slots = slots;
  const std::vector<int> q = ctx_.qBasis(level);
  if (basis.size() < q.size() || !std::equal(q.begin(), q.end(), basis.begin()))
    throw InvalidArgument("encode: the basis must begin with the primes of "
                          "Q_" +
                          std::to_string(level));
  for (size_t i = q.size(); i < basis.size(); ++i)
    if (basis[i] < ctx_.qCount() || basis[i] >= ctx_.qCount() + ctx_.pCount() ||
        (i > q.size() && basis[i] <= basis[i - 1]))
      throw InvalidArgument("encode: after Q_" + std::to_string(level) +
                            " the basis may hold only primes of P, in order");
  pt.poly = Poly<Word>(basis, n, false);
  // Each coefficient's residues, a column of the limbs (coefficients are
  // independent: split over the cores, like the NTTs that follow; a
  // program's first run encodes hundreds of constants this way).
  const long count = static_cast<long>(n);
  Word *column = pt.poly.limb(0);
#pragma omp parallel for schedule(static)
  for (long k = 0; k < count; ++k)
    if (coeffs[k] != 0)
      internal::integerResiduesTo(ctx_, coeffs[k], pt.poly.basis, column + k,
                                  n);
  cpu::ntt(ctx_, pt.poly);
  return pt;
}

template <typename Word>
BasicPlaintext<Word>
BasicEncoder<Word>::encode(const std::vector<double> &values, int level,
                           double scale, size_t slots) const {
  std::vector<std::complex<double>> complex_values(values.begin(),
                                                   values.end());
  return encode(complex_values, level, scale, slots);
}

template <typename Word>
std::vector<std::complex<double>>
BasicEncoder<Word>::decode(const BasicPlaintext<Word> &pt) const {
  checkSlots(ctx_, pt.slots);
  Poly<Word> p = pt.poly;
  if (p.ntt)
    cpu::intt(ctx_, p);
  const size_t n = ctx_.n(), half = n / 2, gap = half / pt.slots;

  // Exact CRT reconstruction of each coefficient's centred value.
  const internal::MixedRadix<Word> radix(ctx_, p.basis);
  std::vector<Word> digits;
  auto centred = [&](size_t position) {
    const bool negative = radix.centredDigits(p, position, digits);
    const double value = radix.value(digits);
    return negative ? -value : value;
  };

  std::vector<std::complex<double>> u(pt.slots);
  for (size_t i = 0; i < pt.slots; ++i)
    u[i] = {centred(i * gap) / pt.scale, centred(half + i * gap) / pt.scale};
  fftSpecial(u);
  return u;
}

template class BasicEncoder<uint32_t>;
template class BasicEncoder<uint64_t>;

} // namespace ember
