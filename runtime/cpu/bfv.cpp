// BFV evaluation on the CPU backend: the HPS multiplication (exact
// extension Q -> Q u R, tensor product over Q u R, scale-and-round to R,
// exact conversion back to Q) and, for everything else, the CKKS evaluator.
#include "ember/bfv.h"
#include "../core/internal.h"
#include "ember/errors.h"
#include "ember/primes.h"
#include "ember/rns.h"

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
  // coefficient-form input as a polynomial of the Q u R context.)
  const size_t kq = a.c[0].limbs(), kr = aux_.size();
  std::vector<int> r_rows;
  for (size_t j = 0; j < kr; ++j)
    r_rows.push_back(static_cast<int>(kq + j));
  auto lift = [&](const Poly<Word> &p) {
    Poly<Word> coeff = p;
    cpu::intt(ctx_, coeff);
    Poly<Word> ext = cpu::bconvExact(*qr_, coeff, r_rows);
    cpu::ntt(*qr_, ext);
    Poly<Word> wide;
    wide.basis = qr_->qBasis(qr_->maxLevel());
    wide.n = p.n;
    wide.ntt = true;
    wide.data.reserve(wide.basis.size() * p.n);
    wide.data.insert(wide.data.end(), p.data.begin(), p.data.end());
    wide.data.insert(wide.data.end(), ext.data.begin(), ext.data.end());
    return wide;
  };
  Poly<Word> a0 = lift(a.c[0]), a1 = lift(a.c[1]);
  Poly<Word> b0 = lift(b.c[0]), b1 = lift(b.c[1]);
  Poly<Word> d0 = a0, d1 = a0, d2 = a1;
  cpu::mulInPlace(*qr_, d0, b0);
  cpu::mulInPlace(*qr_, d1, b1);
  cpu::mulAddInPlace(*qr_, d1, a1, b0);
  cpu::mulInPlace(*qr_, d2, b1);
  BasicCiphertext<Word> out;
  out.level = a.level;
  out.scale = a.scale;
  out.slots = a.slots;
  for (Poly<Word> *d : {&d0, &d1, &d2}) {
    cpu::intt(*qr_, *d);
    Poly<Word> back = scaleDown(*d);
    cpu::ntt(ctx_, back);
    out.c.push_back(std::move(back));
  }
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
  return relinearize(multiply(a, b), rk);
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
