// CPU backend of the RNS primitives. Limbs are independent, so every
// primitive parallelises over limbs with OpenMP; within a limb the loops are
// plain and branch-light. Costs (per limb of N words): NTT (N/2) log N
// Shoup butterflies; BConv |from| multiply-adds per output residue with one
// Barrett reduction per 32 terms (lazy reduction); elementwise ops one pass.
#include "ember/rns.h"
#include "ember/errors.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ember::cpu {

namespace {

template <typename Word>
void checkSameShape(const Poly<Word> &a, const Poly<Word> &b, const char *op) {
  if (a.basis != b.basis || a.n != b.n)
    throw InvalidArgument(std::string(op) + ": operands have different bases");
  if (a.ntt != b.ntt)
    throw InvalidArgument(std::string(op) +
                          ": operands are in different forms (NTT/coeff)");
}

template <typename Word>
void checkForm(const Poly<Word> &p, bool ntt, const char *op) {
  if (p.ntt != ntt)
    throw InvalidArgument(std::string(op) + " needs a polynomial in " +
                          (ntt ? "NTT" : "coefficient") + " form");
}

template <typename Word>
void checkBasisIs(const Poly<Word> &p, const std::vector<int> &basis,
                  const char *op) {
  if (p.basis != basis)
    throw InvalidArgument(std::string(op) +
                          ": the polynomial is not over the expected basis");
}

/// Largest number of double-word products of two primes that can be summed
/// without overflow before a reduction.
template <typename Word> constexpr int lazyTerms() {
  constexpr int slack =
      2 * WordTraits<Word>::kBits - 2 * WordTraits<Word>::kMaxPrimeBits - 1;
  return 1 << (slack > 5 ? 5 : slack);
}

} // namespace

template <typename Word> void ntt(const Context<Word> &ctx, Poly<Word> &p) {
  checkForm(p, false, "ntt");
  const long limbs = static_cast<long>(p.limbs());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i)
    ctx.ntt(p.basis[i]).forward(p.limb(i));
  p.ntt = true;
}

template <typename Word> void intt(const Context<Word> &ctx, Poly<Word> &p) {
  checkForm(p, true, "intt");
  const long limbs = static_cast<long>(p.limbs());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i)
    ctx.ntt(p.basis[i]).inverse(p.limb(i));
  p.ntt = false;
}

namespace {

/// Step 1 of a base conversion (fused into INTT on the GPU):
/// y_i = x_i * (B/b_i)^-1 mod b_i, and per coefficient the number of digits
/// above b_i/2 (the centring count). Step 2 (row) then produces any target
/// limb on its own, so callers can run it limb by limb, fused with what
/// follows while the limb is in cache.
template <typename Word> struct BConvPrepared {
  const BConvTable<Word> *table;
  size_t m, n;
  std::vector<Word> y;
  std::vector<uint8_t> above;

  /// exact = false: the centred fast conversion (above = digits over b/2);
  /// exact = true: above = v = round(sum_i y_i / b_i) (bconvExact).
  /// plain_modulus t != 0: t BConv(x t^-1) (Context::bconvTable with t).
  BConvPrepared(const Context<Word> &ctx, const Poly<Word> &in,
                const std::vector<int> &to, bool exact = false,
                uint64_t plain_modulus = 0)
      : table(&ctx.bconvTable(in.basis, to, plain_modulus)), m(in.limbs()),
        n(in.n), y(m * n), above(n, 0) {
    checkForm(in, false, "bconv");
    for (int t : to)
      if (std::find(in.basis.begin(), in.basis.end(), t) != in.basis.end())
        throw InvalidArgument("bconv: source and target bases overlap");
    if (m > 255)
      throw InvalidArgument("bconv: more than 255 source limbs");
    // Blocks of coefficients over the threads (each coefficient's digits
    // and quotient depend on that coefficient alone: the same words as one
    // thread computes).
    constexpr size_t kBlock = 2048;
    const long blocks = static_cast<long>((n + kBlock - 1) / kBlock);
#pragma omp parallel for schedule(static)
    for (long b = 0; b < blocks; ++b) {
      const size_t k0 = static_cast<size_t>(b) * kBlock;
      const size_t k1 = std::min(n, k0 + kBlock);
      for (size_t i = 0; i < m; ++i) {
        const Modulus<Word> &bi = ctx.modulus(in.basis[i]);
        const Word w = table->hat_inv[i], w_shoup = table->hat_inv_shoup[i];
        const Word half = table->half[i];
        const Word *x = in.limb(i);
        Word *yi = y.data() + i * n;
        for (size_t k = k0; k < k1; ++k) {
          yi[k] = bi.mulShoup(x[k], w, w_shoup);
          above[k] += yi[k] > half;
        }
      }
      if (exact)
        for (size_t k = k0; k < k1; ++k)
          above[k] = exactQuotient(ctx, in.basis, k);
    }
  }

  /// v = round(sum_i y_i / b_i): IEEE double division and addition in basis
  /// order, then floor(s + 0.5); the CUDA kernel does exactly these
  /// operations (with __ddiv_rn / __dadd_rn, so nothing is contracted).
  uint8_t exactQuotient(const Context<Word> &ctx, const std::vector<int> &basis,
                        size_t k) const {
    double sum = 0;
    for (size_t i = 0; i < m; ++i)
      sum = sum + static_cast<double>(y[i * n + k]) /
                      static_cast<double>(ctx.modulus(basis[i]).value());
    return static_cast<uint8_t>(std::floor(sum + 0.5));
  }

  /// Step 2 for target row t (modulus `mod`): a row of the (|T| x m) by
  /// (m x N) matrix product with lazy reduction, plus the centring
  /// correction above_k * [-B]_t. Cost: m multiply-adds per coefficient.
  void row(size_t t, const Modulus<Word> &mod, Word *dst) const {
    using Double = typename WordTraits<Word>::Double;
    const Word *hat_mod_t = table->hat_mod.data() + t * m;
    const Word neg_b = table->neg_b_mod[t];
    if (m == 1 && hat_mod_t[0] == 1) { // one source limb (rescale): B/b_0 = 1
      for (size_t k = 0; k < n; ++k)
        dst[k] = mod.add(mod.reduceWord(y[k]), above[k] ? neg_b : 0);
      return;
    }
    constexpr size_t kBlock = 256;
    Double acc[kBlock];
    for (size_t k0 = 0; k0 < n; k0 += kBlock) {
      const size_t len = std::min(kBlock, n - k0);
      for (size_t k = 0; k < len; ++k) // at most 255 * t
        acc[k] = static_cast<Double>(above[k0 + k]) * neg_b;
      for (size_t i = 0; i < m; ++i) {
        const Word *yi = y.data() + i * n + k0;
        const Word c = hat_mod_t[i];
        for (size_t k = 0; k < len; ++k)
          acc[k] += static_cast<Double>(yi[k]) * c;
        if ((i + 1) % lazyTerms<Word>() == 0)
          for (size_t k = 0; k < len; ++k)
            acc[k] = mod.reduce(acc[k]);
      }
      for (size_t k = 0; k < len; ++k)
        dst[k0 + k] = mod.reduce(acc[k]);
    }
  }
};

/// Every target row of a prepared conversion, as a coefficient-form poly.
template <typename Word>
Poly<Word> convertRows(const Context<Word> &ctx,
                       const BConvPrepared<Word> &prepared,
                       const std::vector<int> &to) {
  Poly<Word> out(to, prepared.n, false);
  const long targets = static_cast<long>(to.size());
#pragma omp parallel for schedule(static)
  for (long t = 0; t < targets; ++t)
    prepared.row(t, ctx.modulus(to[t]), out.limb(t));
  return out;
}

} // namespace

template <typename Word>
Poly<Word> bconv(const Context<Word> &ctx, const Poly<Word> &in,
                 const std::vector<int> &to) {
  return convertRows(ctx, BConvPrepared<Word>(ctx, in, to), to);
}

template <typename Word>
Poly<Word> bconvExact(const Context<Word> &ctx, const Poly<Word> &in,
                      const std::vector<int> &to) {
  return convertRows(ctx, BConvPrepared<Word>(ctx, in, to, /*exact=*/true), to);
}

template <typename Word>
Poly<Word> klssModUp(const Context<Word> &ctx, const Poly<Word> &digit) {
  if (!ctx.hasKlss())
    throw InvalidArgument("klssModUp: the parameter set " + ctx.describe() +
                          " has no KLSS form");
  checkForm(digit, true, "klssModUp");
  Poly<Word> coeff = digit;
  intt(ctx, coeff);
  Poly<Word> out = bconvExact(ctx, coeff, ctx.tBasis());
  ntt(ctx, out);
  return out;
}

template <typename Word>
Poly<Word> modUp(const Context<Word> &ctx, const Poly<Word> &in, int digit) {
  checkForm(in, true, "modUp");
  const int level = static_cast<int>(in.limbs()) - 1;
  checkBasisIs(in, ctx.qBasis(level), "modUp");
  const std::vector<int> digit_limbs = ctx.digitLimbs(digit, level);
  const std::vector<int> qp = ctx.qpBasis(level);

  Poly<Word> part = selectLimbs(in, digit_limbs);
  intt(ctx, part);
  // Output position of every limb not in the digit.
  std::vector<int> others;
  std::vector<size_t> other_pos;
  for (size_t i = 0; i < qp.size(); ++i)
    if (std::find(digit_limbs.begin(), digit_limbs.end(), qp[i]) ==
        digit_limbs.end()) {
      others.push_back(qp[i]);
      other_pos.push_back(i);
    }
  const BConvPrepared<Word> prepared(ctx, part, others);

  Poly<Word> out(qp, in.n, true);
  for (int idx : digit_limbs) // the digit's own limbs are kept as they are
    std::copy(in.limb(idx), in.limb(idx) + in.n, out.limb(idx));
  const long count = static_cast<long>(others.size());
#pragma omp parallel for schedule(static)
  for (long t = 0; t < count; ++t) { // BConv row, then its NTT, in cache
    Word *dst = out.limb(other_pos[t]);
    prepared.row(t, ctx.modulus(others[t]), dst);
    ctx.ntt(others[t]).forward(dst);
  }
  return out;
}

template <typename Word>
std::vector<Poly<Word>> modUpAll(const Context<Word> &ctx, const Poly<Word> &in,
                                 const Poly<Word> &coeff) {
  checkForm(in, true, "modUpAll");
  checkForm(coeff, false, "modUpAll");
  const int level = static_cast<int>(in.limbs()) - 1;
  checkBasisIs(in, ctx.qBasis(level), "modUpAll");
  checkBasisIs(coeff, ctx.qBasis(level), "modUpAll");
  const std::vector<int> qp = ctx.qpBasis(level);
  const int digits = ctx.digitCount(level);
  std::vector<Poly<Word>> out;
  std::vector<BConvPrepared<Word>> prepared;
  std::vector<std::vector<int>> others(digits);
  std::vector<std::vector<size_t>> other_pos(digits);
  // (digit, target) pairs of the one loop below.
  std::vector<std::pair<int, size_t>> rows;
  out.reserve(digits);
  prepared.reserve(digits);
  for (int j = 0; j < digits; ++j) {
    const std::vector<int> digit_limbs = ctx.digitLimbs(j, level);
    for (size_t i = 0; i < qp.size(); ++i)
      if (std::find(digit_limbs.begin(), digit_limbs.end(), qp[i]) ==
          digit_limbs.end()) {
        others[j].push_back(qp[i]);
        other_pos[j].push_back(i);
        rows.emplace_back(j, others[j].size() - 1);
      }
    prepared.emplace_back(ctx, selectLimbs(coeff, digit_limbs), others[j]);
    out.emplace_back(qp, in.n, true);
    for (int idx : digit_limbs) // the digit's own limbs are kept as they are
      std::copy(in.limb(idx), in.limb(idx) + in.n, out.back().limb(idx));
  }
  const long count = static_cast<long>(rows.size());
#pragma omp parallel for schedule(static)
  for (long r = 0; r < count; ++r) { // BConv row, then its NTT, in cache
    const auto [j, t] = rows[static_cast<size_t>(r)];
    Word *dst = out[j].limb(other_pos[j][t]);
    prepared[j].row(t, ctx.modulus(others[j][t]), dst);
    ctx.ntt(others[j][t]).forward(dst);
  }
  return out;
}

template <typename Word>
Poly<Word> modSwitchDown(const Context<Word> &ctx, const Poly<Word> &in,
                         const std::vector<int> &keep, uint64_t plain_modulus) {
  std::vector<int> drop;
  for (int idx : in.basis)
    if (std::find(keep.begin(), keep.end(), idx) == keep.end())
      drop.push_back(idx);
  if (keep.empty() || drop.empty() ||
      drop.size() + keep.size() != in.basis.size())
    throw InvalidArgument("modSwitchDown: the kept limbs must be a proper "
                          "subset of the polynomial's basis");
  // The centred BConv converts the centred representative of [x]_D, so
  // x - conv is x minus its centred remainder (plus a zero-mean u D): the
  // division rounds, with no bias. For one dropped limb, u = 0 and this is
  // exactly round(x / q).
  Poly<Word> dropped = selectLimbs(in, drop);
  if (in.ntt)
    intt(ctx, dropped);
  // With t, the table's constants make the conversion t BConv(x t^-1).
  const BConvPrepared<Word> prepared(ctx, dropped, keep, false, plain_modulus);
  const BConvTable<Word> &table = *prepared.table;

  Poly<Word> out(keep, in.n, in.ntt);
  const long limbs = static_cast<long>(keep.size());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i) { // per kept limb: BConv row, NTT, combine
    const Modulus<Word> &q = ctx.modulus(keep[i]);
    const Word inv = table.inv_b_mod[i], inv_shoup = q.shoup(inv);
    const Word *x =
        in.limb(std::find(in.basis.begin(), in.basis.end(), keep[i]) -
                in.basis.begin());
    Word *dst = out.limb(i);
    prepared.row(i, q, dst);
    if (in.ntt)
      ctx.ntt(keep[i]).forward(dst);
    for (size_t k = 0; k < in.n; ++k)
      dst[k] = q.mulShoup(q.sub(x[k], dst[k]), inv, inv_shoup);
  }
  return out;
}

template <typename Word>
Poly<Word> modDown(const Context<Word> &ctx, const Poly<Word> &in) {
  const int level = static_cast<int>(in.limbs()) - ctx.pCount() - 1;
  if (level < 0)
    throw InvalidArgument("modDown: the polynomial has no Q limbs");
  checkBasisIs(in, ctx.qpBasis(level), "modDown");
  return modSwitchDown(ctx, in, ctx.qBasis(level));
}

template <typename Word> void rescale(const Context<Word> &ctx, Poly<Word> &p) {
  checkForm(p, true, "rescale");
  const int level = static_cast<int>(p.limbs()) - 1;
  if (level < 1)
    throw LevelMismatch("rescale needs level >= 1 (the polynomial is at "
                        "level " +
                        std::to_string(level) + ")");
  checkBasisIs(p, ctx.qBasis(level), "rescale");
  p = modSwitchDown(ctx, p, ctx.qBasis(level - 1));
}

std::vector<uint32_t> automorphismNttIndex(int log_n, uint64_t galois) {
  const uint64_t n = uint64_t{1} << log_n, two_n = 2 * n;
  if (galois % 2 == 0 || galois >= two_n)
    throw InvalidArgument(
        "Galois element " + std::to_string(galois) +
        " must be odd and below 2N = " + std::to_string(two_n));
  std::vector<uint32_t> index(n);
  for (uint64_t j = 0; j < n; ++j) {
    uint64_t e = 2 * bitReverse(static_cast<uint32_t>(j), log_n) + 1;
    uint64_t image = (e * galois) % two_n;
    index[j] = bitReverse(static_cast<uint32_t>((image - 1) / 2), log_n);
  }
  return index;
}

template <typename Word>
Poly<Word> automorphism(const Context<Word> &ctx, const Poly<Word> &in,
                        uint64_t galois) {
  Poly<Word> out(in.basis, in.n, in.ntt);
  const long limbs = static_cast<long>(in.limbs());
  if (in.ntt) {
    const std::vector<uint32_t> index =
        automorphismNttIndex(ctx.logN(), galois);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < limbs; ++i) {
      const Word *src = in.limb(i);
      Word *dst = out.limb(i);
      for (size_t j = 0; j < in.n; ++j)
        dst[j] = src[index[j]];
    }
    return out;
  }
  const uint64_t two_n = 2 * in.n;
  if (galois % 2 == 0 || galois >= two_n)
    throw InvalidArgument("Galois element " + std::to_string(galois) +
                          " must be odd and below 2N");
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i) {
    const Modulus<Word> &q = ctx.modulus(in.basis[i]);
    const Word *src = in.limb(i);
    Word *dst = out.limb(i);
    for (uint64_t k = 0; k < in.n; ++k) {
      uint64_t image = (k * galois) % two_n;
      if (image < in.n)
        dst[image] = src[k];
      else
        dst[image - in.n] = q.neg(src[k]);
    }
  }
  return out;
}

template <typename Word>
void addInPlace(const Context<Word> &ctx, Poly<Word> &a, const Poly<Word> &b) {
  checkSameShape(a, b, "add");
  const long limbs = static_cast<long>(a.limbs());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i) {
    const Modulus<Word> &q = ctx.modulus(a.basis[i]);
    Word *x = a.limb(i);
    const Word *y = b.limb(i);
    for (size_t k = 0; k < a.n; ++k)
      x[k] = q.add(x[k], y[k]);
  }
}

template <typename Word>
void subInPlace(const Context<Word> &ctx, Poly<Word> &a, const Poly<Word> &b) {
  checkSameShape(a, b, "sub");
  const long limbs = static_cast<long>(a.limbs());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i) {
    const Modulus<Word> &q = ctx.modulus(a.basis[i]);
    Word *x = a.limb(i);
    const Word *y = b.limb(i);
    for (size_t k = 0; k < a.n; ++k)
      x[k] = q.sub(x[k], y[k]);
  }
}

template <typename Word>
void negInPlace(const Context<Word> &ctx, Poly<Word> &a) {
  const long limbs = static_cast<long>(a.limbs());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i) {
    const Modulus<Word> &q = ctx.modulus(a.basis[i]);
    Word *x = a.limb(i);
    for (size_t k = 0; k < a.n; ++k)
      x[k] = q.neg(x[k]);
  }
}

template <typename Word>
void mulInPlace(const Context<Word> &ctx, Poly<Word> &a, const Poly<Word> &b) {
  checkSameShape(a, b, "mul");
  checkForm(a, true, "mul");
  const long limbs = static_cast<long>(a.limbs());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i) {
    const Modulus<Word> &q = ctx.modulus(a.basis[i]);
    Word *x = a.limb(i);
    const Word *y = b.limb(i);
    for (size_t k = 0; k < a.n; ++k)
      x[k] = q.mul(x[k], y[k]);
  }
}

template <typename Word>
void mulConstInPlace(const Context<Word> &ctx, Poly<Word> &a,
                     const std::vector<Word> &c) {
  if (c.size() != a.limbs())
    throw InvalidArgument("mulConst: one constant per limb is needed");
  const long limbs = static_cast<long>(a.limbs());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i) {
    const Modulus<Word> &q = ctx.modulus(a.basis[i]);
    const Word w = q.reduceWord(c[i]), w_shoup = q.shoup(w);
    Word *x = a.limb(i);
    for (size_t k = 0; k < a.n; ++k)
      x[k] = q.mulShoup(x[k], w, w_shoup);
  }
}

template <typename Word>
void addConstInPlace(const Context<Word> &ctx, Poly<Word> &a,
                     const std::vector<Word> &c) {
  if (c.size() != a.limbs())
    throw InvalidArgument("addConst: one constant per limb is needed");
  const long limbs = static_cast<long>(a.limbs());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i) {
    const Modulus<Word> &q = ctx.modulus(a.basis[i]);
    const Word w = q.reduceWord(c[i]);
    Word *x = a.limb(i);
    for (size_t k = 0; k < a.n; ++k)
      x[k] = q.add(x[k], w);
  }
}

template <typename Word>
void mulAddInPlace(const Context<Word> &ctx, Poly<Word> &acc,
                   const Poly<Word> &a, const Poly<Word> &b) {
  checkSameShape(acc, a, "mulAdd");
  checkSameShape(a, b, "mulAdd");
  checkForm(a, true, "mulAdd");
  using Double = typename WordTraits<Word>::Double;
  const long limbs = static_cast<long>(a.limbs());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < limbs; ++i) {
    const Modulus<Word> &q = ctx.modulus(a.basis[i]);
    Word *z = acc.limb(i);
    const Word *x = a.limb(i), *y = b.limb(i);
    for (size_t k = 0; k < a.n; ++k)
      z[k] = q.reduce(static_cast<Double>(x[k]) * y[k] + z[k]);
  }
}

template <typename Word>
Poly<Word> selectLimbs(const Poly<Word> &p, const std::vector<int> &keep) {
  Poly<Word> out(keep, p.n, p.ntt);
  for (size_t i = 0; i < keep.size(); ++i) {
    auto it = std::find(p.basis.begin(), p.basis.end(), keep[i]);
    if (it == p.basis.end())
      throw InvalidArgument("selectLimbs: modulus index " +
                            std::to_string(keep[i]) +
                            " is not in the polynomial's basis");
    const Word *src = p.limb(static_cast<size_t>(it - p.basis.begin()));
    std::copy(src, src + p.n, out.limb(i));
  }
  return out;
}

template <typename Word> void dropToLevel(Poly<Word> &p, int level) {
  if (level < 0 || level + 1 > static_cast<int>(p.limbs()))
    throw LevelMismatch("cannot drop a polynomial with " +
                        std::to_string(p.limbs()) + " limbs to level " +
                        std::to_string(level));
  for (int i = 0; i <= level; ++i)
    if (p.basis[i] != i)
      throw InvalidArgument("dropToLevel needs a polynomial over q_0..q_m");
  p.basis.resize(level + 1);
  p.data.resize(p.basis.size() * p.n);
}

#define EMBER_INSTANTIATE(Word)                                                \
  template void ntt(const Context<Word> &, Poly<Word> &);                      \
  template void intt(const Context<Word> &, Poly<Word> &);                     \
  template Poly<Word> bconv(const Context<Word> &, const Poly<Word> &,         \
                            const std::vector<int> &);                         \
  template Poly<Word> bconvExact(const Context<Word> &, const Poly<Word> &,    \
                                 const std::vector<int> &);                    \
  template Poly<Word> klssModUp(const Context<Word> &, const Poly<Word> &);    \
  template Poly<Word> modUp(const Context<Word> &, const Poly<Word> &, int);   \
  template std::vector<Poly<Word>> modUpAll(                                   \
      const Context<Word> &, const Poly<Word> &, const Poly<Word> &);          \
  template Poly<Word> modDown(const Context<Word> &, const Poly<Word> &);      \
  template Poly<Word> modSwitchDown(const Context<Word> &, const Poly<Word> &, \
                                    const std::vector<int> &, uint64_t);       \
  template void rescale(const Context<Word> &, Poly<Word> &);                  \
  template Poly<Word> automorphism(const Context<Word> &, const Poly<Word> &,  \
                                   uint64_t);                                  \
  template void addInPlace(const Context<Word> &, Poly<Word> &,                \
                           const Poly<Word> &);                                \
  template void subInPlace(const Context<Word> &, Poly<Word> &,                \
                           const Poly<Word> &);                                \
  template void negInPlace(const Context<Word> &, Poly<Word> &);               \
  template void mulInPlace(const Context<Word> &, Poly<Word> &,                \
                           const Poly<Word> &);                                \
  template void mulConstInPlace(const Context<Word> &, Poly<Word> &,           \
                                const std::vector<Word> &);                    \
  template void addConstInPlace(const Context<Word> &, Poly<Word> &,           \
                                const std::vector<Word> &);                    \
  template void mulAddInPlace(const Context<Word> &, Poly<Word> &,             \
                              const Poly<Word> &, const Poly<Word> &);         \
  template Poly<Word> selectLimbs(const Poly<Word> &,                          \
                                  const std::vector<int> &);                   \
  template void dropToLevel(Poly<Word> &, int);

EMBER_INSTANTIATE(uint32_t)
EMBER_INSTANTIATE(uint64_t)

} // namespace ember::cpu
