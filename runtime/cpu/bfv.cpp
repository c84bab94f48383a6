// BFV evaluation on the CPU backend: the HPS multiplication (exact
// extension Q -> Q u R, tensor product over Q u R, scale-and-round to R,
// exact conversion back to Q), the BEHZ one (the same tensor product
// between Montgomery-corrected fast conversions, a fast floor and
// Shenoy-Kumaresan's conversion back) and, for everything else, the CKKS
// evaluator.
#include "ember/bfv.h"
#include "../core/checks.h"
#include "../core/internal.h"
#include "ember/errors.h"
#include "ember/primes.h"
#include "ember/rns.h"

#include <algorithm>
#include <cmath>

namespace ember {

namespace {

/// [-q^-1] mod 2^32 for an odd q (Newton's iteration doubles the correct
/// low bits, from the 3 of q q = 1 mod 8).
uint32_t negInverseMod2To32(uint64_t q) {
  const uint32_t a = static_cast<uint32_t>(q);
  uint32_t inv = a;
  for (int i = 0; i < 4; ++i)
    inv *= 2 - a * inv;
  return 0u - inv;
}

/// Coefficients per block of the BEHZ steps (each block's words stay in
/// the L1/L2 cache from one step to the next).
constexpr size_t kBehzBlock = 256;

/// One BEHZ step (BasicBehzConstants) on a block of coefficients: for
/// target t (modulus first_mod + t), out[t] = [sum_{i<m} y[i] rows[t m + i]
/// + self[t] self_c[t] + |e| corr[2 t + (e < 0)]]. Rows are `*_stride`
/// words apart; self and e may be null. (The CUDA kernel's BehzRowsArgs.)
template <typename Word> struct BehzStep {
  BehzStep(int first_mod, size_t targets, const Word *rows, size_t m,
           const Word *y, size_t y_stride, Word *out, size_t out_stride)
      : first_mod(first_mod), targets(targets), m(m), rows(rows), y(y),
        y_stride(y_stride), out(out), out_stride(out_stride) {}
  int first_mod;
  size_t targets, m;
  const Word *rows; ///< [targets][m]
  const Word *y;
  size_t y_stride;
  Word *out;
  size_t out_stride;
  const Word *self = nullptr, *self_c = nullptr;
  size_t self_stride = 0;
  const int64_t *e = nullptr;
  const Word *corr = nullptr; ///< [targets][2]
};

/// The step on `len` coefficients: 128-bit sums reduced every 32 products
/// (the CUDA kernel reduces once: the same residues).
template <typename Word>
void behzRows(const Context<Word> &ctx, const BehzStep<Word> &s, size_t len) {
  using Double = typename WordTraits<Word>::Double;
  Double acc[kBehzBlock];
  for (size_t t = 0; t < s.targets; ++t) {
    const Modulus<Word> &mod = ctx.modulus(s.first_mod + static_cast<int>(t));
    for (size_t c = 0; c < len; ++c)
      acc[c] = s.self ? static_cast<Double>(s.self[t * s.self_stride + c]) *
                            s.self_c[t]
                      : 0;
    if (s.e)
      for (size_t c = 0; c < len; ++c) {
        const int64_t e = s.e[c];
        const uint64_t mag =
            e < 0 ? 0 - static_cast<uint64_t>(e) : static_cast<uint64_t>(e);
        acc[c] += static_cast<Double>(mag) * s.corr[2 * t + (e < 0)];
      }
    const Word *row = s.rows + t * s.m;
    for (size_t i = 0; i < s.m; ++i) {
      const Word *yi = s.y + i * s.y_stride;
      const Word h = row[i];
      for (size_t c = 0; c < len; ++c)
        acc[c] += static_cast<Double>(yi[c]) * h;
      if ((i + 1) % 32 == 0)
        for (size_t c = 0; c < len; ++c)
          acc[c] = mod.reduce(acc[c]);
    }
    for (size_t c = 0; c < len; ++c)
      s.out[t * s.out_stride + c] = mod.reduce(acc[c]);
  }
}

/// y[i] = [x[i] w_i]_{q_i} for the first m moduli of ctx, on `len`
/// coefficients (x's rows `x_stride` apart, y's `len`).
template <typename Word>
void behzScale(const Context<Word> &ctx, const std::vector<Word> &w,
               const std::vector<Word> &w_shoup, const Word *x, size_t x_stride,
               Word *y, size_t len) {
  for (size_t i = 0; i < w.size(); ++i) {
    const Modulus<Word> &q = ctx.modulus(static_cast<int>(i));
    for (size_t c = 0; c < len; ++c)
      y[i * len + c] = q.mulShoup(x[i * x_stride + c], w[i], w_shoup[i]);
  }
}

} // namespace

template <typename Word>
BasicBfvEvaluator<Word>::BasicBfvEvaluator(const Context<Word> &ctx, uint64_t t)
    : ctx_(ctx), t_(static_cast<Word>(t)), encoder_(ctx, t), base_(ctx) {
  const int k = ctx.maxLevel() + 1;
  double log_q = 0;
  std::vector<uint64_t> q;
  for (int i = 0; i < k; ++i) {
    q.push_back(ctx.primes()[i]);
    log_q += std::log2(static_cast<double>(q.back()));
  }
  const double need =
      log_q + ctx.logN() + std::log2(static_cast<double>(t)) + 3;
  const int count = std::max(2, static_cast<int>(std::ceil(need / 60)));
  aux_ =
      generateNttPrimes(ctx.logN(), std::vector<int>(count, 60), ctx.primes());
  // Q u R as a context of its own (R is never a key or ciphertext modulus:
  // no security bound applies to it).
  ParamSpec spec;
  spec.name = "bfv-hps-aux";
  spec.log_n = ctx.logN();
  spec.dnum = 1;
  spec.security = Security::kInsecureTestOnly;
  std::vector<uint64_t> qr = q;
  qr.insert(qr.end(), aux_.begin(), aux_.end());
  for (uint64_t prime : qr)
    spec.q_bits.push_back(primeBits(prime));
  qr_ = std::make_unique<Context<Word>>(spec, qr, std::vector<uint64_t>{});
  const std::vector<Word> &c = encoder_.scaleConstants();
  for (int j = 0; j < count; ++j) {
    const Modulus<Word> &r = qr_->modulus(k + j);
    Word q_mod_r = 1;
    for (int i = 0; i < k; ++i) {
      const Word qi = static_cast<Word>(q[i] % r.value());
      q_mod_r = r.mul(q_mod_r, qi);
      floor_r_.push_back(
          r.mul(r.neg(static_cast<Word>(c[i] % r.value())), r.inv(qi)));
    }
    t_q_inv_.push_back(r.mul(static_cast<Word>(t % r.value()), r.inv(q_mod_r)));
  }
  initBehz();
}

template <typename Word> void BasicBfvEvaluator<Word>::initBehz() {
  using Double = typename WordTraits<Word>::Double;
  const int k = ctx_.maxLevel() + 1, kr = static_cast<int>(aux_.size());
  const int kb = kr - 1, msk = k + kb; // B = k..k+kb-1 in qr_
  const Context<Word> &qr = *qr_;
  // The product of qr's primes [from, to) but `skip`, mod m.
  auto product = [&](const Modulus<Word> &m, int from, int to, int skip) {
    Word p = 1;
    for (int l = from; l < to; ++l)
      if (l != skip)
        p = m.mul(p, m.reduceWord(static_cast<Word>(qr.primes()[l])));
    return p;
  };
  auto mtilde = [](const Modulus<Word> &m) {
    return m.reduce(Double{1} << 32);
  };
  BasicBehzConstants<Word> &c = behz_;
  for (int i = 0; i < k; ++i) {
    const Modulus<Word> &q = qr.modulus(i);
    c.ext_scale.push_back(q.mul(mtilde(q), q.inv(product(q, 0, k, i))));
    c.ext_mtilde.push_back(negInverseMod2To32(qr.primes()[i]));
  }
  for (int j = 0; j < kr; ++j) {
    const Modulus<Word> &r = qr.modulus(k + j);
    const Word mt_inv = r.inv(mtilde(r));
    const Word h = j < kb ? r.inv(product(r, k, msk, k + j)) : 1;
    for (int i = 0; i < k; ++i) {
      c.ext_rows.push_back(r.mul(product(r, 0, k, i), mt_inv));
      const Word qi = r.reduceWord(static_cast<Word>(qr.primes()[i]));
      c.floor_rows.push_back(r.mul(r.neg(r.inv(qi)), h));
    }
    const Word q_mt = r.mul(product(r, 0, k, -1), mt_inv);
    c.ext_corr.push_back(q_mt);
    c.ext_corr.push_back(r.neg(q_mt));
    c.floor_self.push_back(r.mul(t_q_inv_[j], h));
  }
  const Modulus<Word> &m_sk = qr.modulus(msk);
  for (int j = 0; j < kb; ++j)
    c.alpha_row.push_back(
        m_sk.inv(m_sk.reduceWord(static_cast<Word>(qr.primes()[k + j]))));
  c.alpha_row.push_back(m_sk.neg(m_sk.inv(product(m_sk, k, msk, -1))));
  for (int i = 0; i < k; ++i) {
    const Modulus<Word> &q = qr.modulus(i);
    for (int j = 0; j < kb; ++j)
      c.sk_rows.push_back(product(q, k, msk, k + j));
    const Word m_b = product(q, k, msk, -1);
    c.sk_corr.push_back(q.neg(m_b));
    c.sk_corr.push_back(m_b);
  }
}

template <typename Word>
BasicBfvEvaluator<Word>::~BasicBfvEvaluator() = default;

template <typename Word>
void BasicBfvEvaluator<Word>::checkFull(const BasicCiphertext<Word> &a,
                                        const char *op) const {
  if (a.level != ctx_.maxLevel() || a.c.empty() ||
      a.c[0].limbs() != static_cast<size_t>(ctx_.maxLevel() + 1))
    throw LevelMismatch(std::string(op) +
                        ": BFV ciphertexts stay at the full modulus Q (level " +
                        std::to_string(ctx_.maxLevel()) + "), got level " +
                        std::to_string(a.level));
}

template <typename Word>
Poly<Word> BasicBfvEvaluator<Word>::extend(const Poly<Word> &x) const {
  const int k = ctx_.maxLevel() + 1;
  if (x.ntt || x.limbs() != static_cast<size_t>(k))
    throw InvalidArgument("extend: a coefficient-form polynomial over Q");
  Poly<Word> xq(qr_->qBasis(k - 1), x.n, false);
  xq.data = x.data;
  std::vector<int> r;
  for (size_t j = 0; j < aux_.size(); ++j)
    r.push_back(k + static_cast<int>(j));
  Poly<Word> xr = cpu::bconvExact(*qr_, xq, r);
  Poly<Word> out(qr_->qBasis(qr_->maxLevel()), x.n, false);
  std::copy(xq.data.begin(), xq.data.end(), out.data.begin());
  std::copy(xr.data.begin(), xr.data.end(), out.data.begin() + xq.data.size());
  return out;
}

template <typename Word>
Poly<Word> BasicBfvEvaluator<Word>::scaleDown(const Poly<Word> &x) const {
  const size_t k = static_cast<size_t>(ctx_.maxLevel() + 1);
  const size_t kr = aux_.size(), n = x.n;
  if (x.ntt || x.limbs() != k + kr)
    throw InvalidArgument(
        "scaleDown: a coefficient-form polynomial over Q u R");
  std::vector<int> r;
  for (size_t j = 0; j < kr; ++j)
    r.push_back(static_cast<int>(k + j));
  Poly<Word> y(r, n, false);
  const std::vector<Word> &c = encoder_.scaleConstants();
  std::vector<uint64_t> q(k), cs(c.begin(), c.end()), c_shoup(k);
  for (size_t i = 0; i < k; ++i) {
    q[i] = ctx_.primes()[i];
    c_shoup[i] = ctx_.modulus(static_cast<int>(i)).shoup(c[i]);
  }
  using Wide = unsigned __int128;
  const long coefficients = static_cast<long>(n);
#pragma omp parallel
  {
    std::vector<uint64_t> xs(k), quo(k); // per thread
#pragma omp for schedule(static)
    for (long pos = 0; pos < coefficients; ++pos) {
      for (size_t i = 0; i < k; ++i)
        xs[i] = x.limb(i)[pos];
      const uint64_t alpha = internal::quotientsAndRoundedFraction(
          xs.data(), cs.data(), c_shoup.data(), q.data(), k, quo.data());
      // alpha + sum_i quo_i, common to every r_j (each quo_i < 2^61).
      Wide common = alpha;
      for (size_t i = 0; i < k; ++i)
        common += quo[i];
      for (size_t j = 0; j < kr; ++j) {
        // Sums of products below 2^122, reduced every 32 terms (the CUDA
        // kernel reduces once: the same residue).
        const Modulus<Word> &rj = qr_->modulus(static_cast<int>(k + j));
        const Word *row = floor_r_.data() + j * k;
        Wide acc = rj.reduce(common) +
                   static_cast<Wide>(x.limb(k + j)[pos]) * t_q_inv_[j];
        for (size_t i = 0; i < k; ++i) {
          acc += static_cast<Wide>(xs[i]) * row[i];
          if ((i + 1) % 32 == 0)
            acc = rj.reduce(acc);
        }
        y.limb(j)[pos] = rj.reduce(acc);
      }
    }
  }
  Poly<Word> back =
      cpu::bconvExact(*qr_, y, qr_->qBasis(static_cast<int>(k) - 1));
  Poly<Word> out(ctx_.qBasis(ctx_.maxLevel()), n, false);
  out.data = std::move(back.data);
  return out;
}

template <typename Word>
Poly<Word> BasicBfvEvaluator<Word>::extendBehz(const Poly<Word> &x) const {
  const size_t k = static_cast<size_t>(ctx_.maxLevel() + 1);
  if (x.ntt || x.limbs() != k)
    throw InvalidArgument("extendBehz: a coefficient-form polynomial over Q");
  // Q rows: x itself; R rows: the corrected fast conversion.
  Poly<Word> out(qr_->qBasis(qr_->maxLevel()), x.n, false);
  std::copy(x.data.begin(), x.data.end(), out.data.begin());
  extendBehzInto(x, out.limb(k));
  return out;
}

template <typename Word>
void BasicBfvEvaluator<Word>::extendBehzInto(const Poly<Word> &x,
                                             Word *r_rows) const {
  const size_t k = x.limbs(), kr = aux_.size(), n = x.n;
  const BasicBehzConstants<Word> &c = behz_;
  std::vector<Word> w_shoup;
  for (size_t i = 0; i < k; ++i)
    w_shoup.push_back(qr_->modulus(static_cast<int>(i)).shoup(c.ext_scale[i]));
  const long blocks = static_cast<long>((n + kBehzBlock - 1) / kBehzBlock);
#pragma omp parallel
  {
    std::vector<Word> y(k * kBehzBlock); // per thread
    std::vector<int64_t> e(kBehzBlock);
    std::vector<uint32_t> r(kBehzBlock);
#pragma omp for schedule(static)
    for (long b = 0; b < blocks; ++b) {
      const size_t c0 = static_cast<size_t>(b) * kBehzBlock;
      const size_t len = std::min(kBehzBlock, n - c0);
      behzScale(*qr_, c.ext_scale, w_shoup, x.data.data() + c0, n, y.data(),
                len);
      // r = [-c Q^-1]_{m~} for the fast conversion c of [m~ x]_Q, from
      // its residue mod m~, centred (two's complement).
      std::fill(r.begin(), r.begin() + len, 0u);
      for (size_t i = 0; i < k; ++i)
        for (size_t j = 0; j < len; ++j)
          r[j] += static_cast<uint32_t>(y[i * len + j]) * c.ext_mtilde[i];
      for (size_t j = 0; j < len; ++j)
        e[j] = static_cast<int32_t>(r[j]);
      BehzStep<Word> ext(static_cast<int>(k), kr, c.ext_rows.data(), k,
                         y.data(), len, r_rows + c0, n);
      ext.e = e.data();
      ext.corr = c.ext_corr.data();
      behzRows(*qr_, ext, len);
    }
  }
}

template <typename Word>
Poly<Word> BasicBfvEvaluator<Word>::scaleDownBehz(const Poly<Word> &x) const {
  const size_t k = static_cast<size_t>(ctx_.maxLevel() + 1);
  const size_t kr = aux_.size(), kb = kr - 1, n = x.n;
  if (x.ntt || x.limbs() != k + kr)
    throw InvalidArgument(
        "scaleDownBehz: a coefficient-form polynomial over Q u R");
  const BasicBehzConstants<Word> &c = behz_;
  const std::vector<Word> &cs = encoder_.scaleConstants();
  std::vector<Word> cs_shoup;
  for (size_t i = 0; i < k; ++i)
    cs_shoup.push_back(qr_->modulus(static_cast<int>(i)).shoup(cs[i]));
  const Word m_sk = qr_->modulus(static_cast<int>(k + kb)).value();
  Poly<Word> out(ctx_.qBasis(ctx_.maxLevel()), n, false);
  const long blocks = static_cast<long>((n + kBehzBlock - 1) / kBehzBlock);
#pragma omp parallel
  {
    std::vector<Word> z(k * kBehzBlock), w(kr * kBehzBlock); // per thread
    std::vector<Word> alpha(kBehzBlock);
    std::vector<int64_t> e(kBehzBlock);
#pragma omp for schedule(static)
    for (long b = 0; b < blocks; ++b) {
      const size_t c0 = static_cast<size_t>(b) * kBehzBlock;
      const size_t len = std::min(kBehzBlock, n - c0);
      // Fast floor: w_j = (floor(t D / Q) - a) h_j over R.
      behzScale(*qr_, cs, cs_shoup, x.data.data() + c0, n, z.data(), len);
      BehzStep<Word> fl(static_cast<int>(k), kr, c.floor_rows.data(), k,
                        z.data(), len, w.data(), len);
      fl.self = x.limb(k) + c0;
      fl.self_stride = n;
      fl.self_c = c.floor_self.data();
      behzRows(*qr_, fl, len);
      // Shenoy-Kumaresan: alpha from m_sk (centred), then B -> Q exactly.
      BehzStep<Word> sk_alpha(static_cast<int>(k + kb), 1, c.alpha_row.data(),
                              kb, w.data(), len, alpha.data(), len);
      sk_alpha.self = w.data() + kb * len;
      sk_alpha.self_c = c.alpha_row.data() + kb;
      behzRows(*qr_, sk_alpha, len);
      for (size_t j = 0; j < len; ++j)
        e[j] = alpha[j] > m_sk / 2 ? -static_cast<int64_t>(m_sk - alpha[j])
                                   : static_cast<int64_t>(alpha[j]);
      BehzStep<Word> sk(0, k, c.sk_rows.data(), kb, w.data(), len,
                        out.limb(0) + c0, n);
      sk.e = e.data();
      sk.corr = c.sk_corr.data();
      behzRows(*qr_, sk, len);
    }
  }
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::multiply(const BasicCiphertext<Word> &a,
                                  const BasicCiphertext<Word> &b) const {
  return multiplyWith(a, b, false);
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::multiplyBehz(const BasicCiphertext<Word> &a,
                                      const BasicCiphertext<Word> &b) const {
  return multiplyWith(a, b, true);
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::multiplyWith(const BasicCiphertext<Word> &a,
                                      const BasicCiphertext<Word> &b,
                                      bool behz) const {
  BasicCiphertext<Word> out = tensorCoeff(a, b, behz);
  const size_t kq = out.c[0].limbs();
  const long out_limbs = static_cast<long>(3 * kq);
#pragma omp parallel for schedule(static)
  for (long idx = 0; idx < out_limbs; ++idx) {
    const size_t p = static_cast<size_t>(idx) / kq,
                 i = static_cast<size_t>(idx) % kq;
    ctx_.ntt(out.c[p].basis[i]).forward(out.c[p].limb(i));
  }
  for (Poly<Word> &x : out.c)
    x.ntt = true;
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::tensorCoeff(const BasicCiphertext<Word> &a,
                                     const BasicCiphertext<Word> &b,
                                     bool behz) const {
  checkFull(a, "multiply");
  checkFull(b, "multiply");
  if (a.degree() != 1 || b.degree() != 1)
    throw InvalidArgument("multiply needs degree-1 ciphertexts (relinearize "
                          "first)");
  if (a.slots != b.slots)
    throw InvalidArgument("multiply: the slot counts differ");
  // Each input over Q u R in NTT form: its Q rows are the input itself; only
  // the R rows (the exact extension of its coefficients, or BEHZ's x + Q e)
  // are transformed.
  // (Q's indices are the same in both contexts: the extension reads the
  // coefficient-form input as a polynomial of the Q u R context.) Every
  // transform of the four inputs, then of the three products, runs in one
  // parallel loop over all their limbs (7 limbs on 2 threads leave one
  // idle an eighth of the time; a loop per polynomial also forks and joins
  // more and copies serially between the loops).
  const size_t kq = a.c[0].limbs(), kr = aux_.size(), w = kq + kr;
  const size_t n = a.c[0].n;
  std::vector<int> r_rows;
  for (size_t j = 0; j < kr; ++j)
    r_rows.push_back(static_cast<int>(kq + j));
  const Poly<Word> *in[4] = {&a.c[0], &a.c[1], &b.c[0], &b.c[1]};
  const std::vector<int> q_basis = qr_->qBasis(static_cast<int>(kq) - 1);
  const std::vector<int> qr_basis = qr_->qBasis(qr_->maxLevel());
  Poly<Word> coeff[4], wide[4];
  for (int p = 0; p < 4; ++p) {
    coeff[p] = Poly<Word>(q_basis, n, false);
    wide[p] = Poly<Word>(qr_basis, n, true);
  }
  const long in_limbs = static_cast<long>(4 * kq);
#pragma omp parallel for schedule(static)
  for (long idx = 0; idx < in_limbs; ++idx) {
    const size_t p = static_cast<size_t>(idx) / kq,
                 i = static_cast<size_t>(idx) % kq;
    const Word *src = in[p]->limb(i);
    std::copy(src, src + n, wide[p].limb(i));
    std::copy(src, src + n, coeff[p].limb(i));
    ctx_.ntt(in[p]->basis[i]).inverse(coeff[p].limb(i));
  }
  Poly<Word> ext[4]; // HPS: the extensions (BEHZ writes into wide)
  for (int p = 0; p < 4; ++p) {
    if (behz)
      extendBehzInto(coeff[p], wide[p].limb(kq));
    else
      ext[p] = cpu::bconvExact(*qr_, coeff[p], r_rows);
  }
  const long r_limbs = static_cast<long>(4 * kr);
#pragma omp parallel for schedule(static)
  for (long idx = 0; idx < r_limbs; ++idx) {
    const size_t p = static_cast<size_t>(idx) / kr,
                 j = static_cast<size_t>(idx) % kr;
    Word *dst = wide[p].limb(kq + j);
    if (!behz)
      std::copy(ext[p].limb(j), ext[p].limb(j) + n, dst);
    qr_->ntt(static_cast<int>(kq + j)).forward(dst);
  }
  // The tensor product over Q u R, each limb's three results transformed
  // back while in cache.
  using Double = typename WordTraits<Word>::Double;
  Poly<Word> d[3];
  for (Poly<Word> &x : d)
    x = Poly<Word>(qr_basis, n, false);
  const long wl = static_cast<long>(w);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < wl; ++i) {
    const Modulus<Word> &q = qr_->modulus(static_cast<int>(i));
    const Word *a0 = wide[0].limb(i), *a1 = wide[1].limb(i);
    const Word *b0 = wide[2].limb(i), *b1 = wide[3].limb(i);
    Word *d0 = d[0].limb(i), *d1 = d[1].limb(i), *d2 = d[2].limb(i);
    for (size_t c = 0; c < n; ++c) {
      d0[c] = q.mul(a0[c], b0[c]);
      d1[c] =
          q.reduce(static_cast<Double>(a1[c]) * b0[c] + q.mul(a0[c], b1[c]));
      d2[c] = q.mul(a1[c], b1[c]);
    }
    const NttTables<Word> &t = qr_->ntt(static_cast<int>(i));
    t.inverse(d0);
    t.inverse(d1);
    t.inverse(d2);
  }
  BasicCiphertext<Word> out;
  out.level = a.level;
  out.scale = a.scale;
  out.slots = a.slots;
  for (Poly<Word> &x : d)
    out.c.push_back(behz ? scaleDownBehz(x) : scaleDown(x));
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::relinearize(const BasicCiphertext<Word> &a,
                                     const BasicRelinKey<Word> &rk) const {
  checkFull(a, "relinearize");
  return base_.relinearize(a, rk);
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::multiplyRelin(const BasicCiphertext<Word> &a,
                                       const BasicCiphertext<Word> &b,
                                       const BasicRelinKey<Word> &rk) const {
  return multiplyRelinWith(a, b, rk, false);
}

template <typename Word>
BasicCiphertext<Word> BasicBfvEvaluator<Word>::multiplyRelinBehz(
    const BasicCiphertext<Word> &a, const BasicCiphertext<Word> &b,
    const BasicRelinKey<Word> &rk) const {
  return multiplyRelinWith(a, b, rk, true);
}

template <typename Word>
BasicCiphertext<Word> BasicBfvEvaluator<Word>::multiplyRelinWith(
    const BasicCiphertext<Word> &a, const BasicCiphertext<Word> &b,
    const BasicRelinKey<Word> &rk, bool behz) const {
  // relinearize(multiply(a, b), rk) bit for bit, with c_2's ModUp reading
  // the coefficient form the scale-and-round left (no INTT of its digits)
  // and every digit's conversion in one loop.
  checks::relinearize(2, !rk.key.b.empty());
  BasicCiphertext<Word> out = tensorCoeff(a, b, behz);
  const size_t kq = out.c[0].limbs(), n = out.c[0].n;
  Poly<Word> d2(out.c[2].basis, n, true);
  const long out_limbs = static_cast<long>(3 * kq);
#pragma omp parallel for schedule(static)
  for (long idx = 0; idx < out_limbs; ++idx) {
    const size_t p = static_cast<size_t>(idx) / kq,
                 i = static_cast<size_t>(idx) % kq;
    Word *x = p < 2 ? out.c[p].limb(i) : d2.limb(i);
    if (p == 2)
      std::copy(out.c[2].limb(i), out.c[2].limb(i) + n, x);
    ctx_.ntt(out.c[p].basis[i]).forward(x);
  }
  out.c[0].ntt = out.c[1].ntt = true;
  std::vector<Poly<Word>> ext = cpu::modUpAll(ctx_, d2, out.c[2]);
  std::vector<const Poly<Word> *> ptrs;
  for (const Poly<Word> &e : ext)
    ptrs.push_back(&e);
  Poly<Word> acc0, acc1;
  keySwitchInnerProduct(ctx_, rk.key, ptrs, acc0, acc1);
  const std::vector<int> q = ctx_.qBasis(out.level);
  cpu::addInPlace(ctx_, out.c[0], cpu::modSwitchDown(ctx_, acc0, q));
  cpu::addInPlace(ctx_, out.c[1], cpu::modSwitchDown(ctx_, acc1, q));
  out.c.pop_back();
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::rotate(const BasicCiphertext<Word> &a, int64_t k,
                                const BasicGaloisKeys<Word> &keys) const {
  checkFull(a, "rotate");
  return base_.rotate(a, k, keys);
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::add(const BasicCiphertext<Word> &a,
                             const BasicCiphertext<Word> &b) const {
  checkFull(a, "add");
  return base_.add(a, b);
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::sub(const BasicCiphertext<Word> &a,
                             const BasicCiphertext<Word> &b) const {
  checkFull(a, "sub");
  return base_.sub(a, b);
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::negate(const BasicCiphertext<Word> &a) const {
  return base_.negate(a);
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::addPlain(const BasicCiphertext<Word> &a,
                                  const BasicPlaintext<Word> &p) const {
  checkFull(a, "addPlain");
  bgv::checkBfvPlainForm(p.scale, encoder_.delta(), false, "addPlain");
  return base_.addPlain(a, p);
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::subPlain(const BasicCiphertext<Word> &a,
                                  const BasicPlaintext<Word> &p) const {
  checkFull(a, "subPlain");
  bgv::checkBfvPlainForm(p.scale, encoder_.delta(), false, "subPlain");
  return base_.subPlain(a, p);
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::mulPlain(const BasicCiphertext<Word> &a,
                                  const BasicPlaintext<Word> &p) const {
  checkFull(a, "mulPlain");
  bgv::checkBfvPlainForm(p.scale, encoder_.delta(), true, "mulPlain");
  return base_.mulPlain(a, p);
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::addInt(const BasicCiphertext<Word> &a,
                                int64_t c) const {
  checkFull(a, "addInt");
  BasicCiphertext<Word> out = a;
  cpu::addConstInPlace(ctx_, out.c[0], encoder_.scaledConstant(c));
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::mulInt(const BasicCiphertext<Word> &a,
                                int64_t c) const {
  checkFull(a, "mulInt");
  const int64_t t = static_cast<int64_t>(t_.value());
  int64_t r = c % t;
  if (r < 0)
    r += t;
  if (r > t / 2)
    r -= t; // centred: the noise grows by |r| <= t/2
  std::vector<Word> residues;
  for (int index : a.c[0].basis) {
    const Modulus<Word> &q = ctx_.modulus(index);
    const Word m =
        static_cast<Word>((r < 0 ? -r : r) % static_cast<int64_t>(q.value()));
    residues.push_back(r < 0 ? q.neg(m) : m);
  }
  BasicCiphertext<Word> out = a;
  for (Poly<Word> &p : out.c)
    cpu::mulConstInPlace(ctx_, p, residues);
  return out;
}

template class BasicBfvEvaluator<uint64_t>;

} // namespace ember
