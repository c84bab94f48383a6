// BFV evaluation on the CPU backend: the HPS multiplication (exact
// extension Q -> Q u R, tensor product over Q u R, scale-and-round to R,
// exact conversion back to Q) and, for everything else, the CKKS evaluator.
#include "ember/bfv.h"
#include "../core/checks.h"
#include "../core/internal.h"
#include "ember/errors.h"
#include "ember/primes.h"
#include "ember/rns.h"

#include <algorithm>
#include <cmath>

namespace ember {

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
  const int count = static_cast<int>(std::ceil(need / 60));
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
BasicCiphertext<Word>
BasicBfvEvaluator<Word>::multiply(const BasicCiphertext<Word> &a,
                                  const BasicCiphertext<Word> &b) const {
  BasicCiphertext<Word> out = tensorCoeff(a, b);
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
                                     const BasicCiphertext<Word> &b) const {
  checkFull(a, "multiply");
  checkFull(b, "multiply");
  if (a.degree() != 1 || b.degree() != 1)
    throw InvalidArgument("multiply needs degree-1 ciphertexts (relinearize "
                          "first)");
  if (a.slots != b.slots)
    throw InvalidArgument("multiply: the slot counts differ");
  // Each input over Q u R in NTT form: its Q rows are the input itself; only
  // the R rows (the exact extension of its coefficients) are transformed.
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
  Poly<Word> ext[4];
  for (int p = 0; p < 4; ++p)
    ext[p] = cpu::bconvExact(*qr_, coeff[p], r_rows);
  const long r_limbs = static_cast<long>(4 * kr);
#pragma omp parallel for schedule(static)
  for (long idx = 0; idx < r_limbs; ++idx) {
    const size_t p = static_cast<size_t>(idx) / kr,
                 j = static_cast<size_t>(idx) % kr;
    Word *dst = wide[p].limb(kq + j);
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
    out.c.push_back(scaleDown(x));
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
  // relinearize(multiply(a, b), rk) bit for bit, with c_2's ModUp reading
  // the coefficient form the scale-and-round left (no INTT of its digits)
  // and every digit's conversion in one loop.
  checks::relinearize(2, !rk.key.b.empty());
  BasicCiphertext<Word> out = tensorCoeff(a, b);
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
