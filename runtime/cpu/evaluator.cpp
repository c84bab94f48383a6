// CKKS evaluation on the CPU backend, built from the RNS primitives.
// Key switching is hybrid (Phantom III-D): dnum digits, each ModUp-ed to
// Q_l u P, one inner product with the key accumulated lazily over the digits,
// one ModDown per output polynomial; or KLSS (Athena 2.3): digits converted
// exactly to T, inner product over T per key group, exact conversion back to
// Q_l u P and a coefficient-form ModDown.
#include "../core/checks.h"
#include "../core/internal.h"
#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/rns.h"

#include <cmath>

namespace ember {

namespace {
/// Products of two residues a double word holds before it must be reduced
/// (with a reduced partial sum): 32 of 2^122 in 128 bits, 8 of 2^60 in 64.
template <typename Word> constexpr int lazyProducts() {
  return WordTraits<Word>::kBits == 64 ? 32 : 8;
}

template <typename Word>
checks::Operand operand(const BasicCiphertext<Word> &c) {
  return {c.level, c.scale, c.slots, c.degree()};
}
template <typename Word>
checks::Operand operand(const BasicPlaintext<Word> &p) {
  return {p.level, p.scale, p.slots, 0};
}
} // namespace

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::add(const BasicCiphertext<Word> &a,
                          const BasicCiphertext<Word> &b) const {
  checks::binary(operand(a), operand(b), "add");
  const BasicCiphertext<Word> &big = a.c.size() >= b.c.size() ? a : b;
  const BasicCiphertext<Word> &small = a.c.size() >= b.c.size() ? b : a;
  BasicCiphertext<Word> out = big;
  for (size_t i = 0; i < small.c.size(); ++i)
    cpu::addInPlace(ctx_, out.c[i], small.c[i]);
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::sub(const BasicCiphertext<Word> &a,
                          const BasicCiphertext<Word> &b) const {
  checks::binary(operand(a), operand(b), "sub");
  BasicCiphertext<Word> out = a;
  if (out.c.size() < b.c.size())
    out.c.push_back(Poly<Word>(b.c.back().basis, b.c.back().n, true));
  for (size_t i = 0; i < b.c.size(); ++i)
    cpu::subInPlace(ctx_, out.c[i], b.c[i]);
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::negate(const BasicCiphertext<Word> &a) const {
  BasicCiphertext<Word> out = a;
  for (Poly<Word> &p : out.c)
    cpu::negInPlace(ctx_, p);
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::addPlain(const BasicCiphertext<Word> &a,
                               const BasicPlaintext<Word> &p) const {
  checks::plain(operand(a), operand(p), "add_plain", true);
  BasicCiphertext<Word> out = a;
  cpu::addInPlace(ctx_, out.c[0], p.poly);
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::subPlain(const BasicCiphertext<Word> &a,
                               const BasicPlaintext<Word> &p) const {
  checks::plain(operand(a), operand(p), "sub_plain", true);
  BasicCiphertext<Word> out = a;
  cpu::subInPlace(ctx_, out.c[0], p.poly);
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::mulPlain(const BasicCiphertext<Word> &a,
                               const BasicPlaintext<Word> &p) const {
  checks::plain(operand(a), operand(p), "mul_plain", false);
  BasicCiphertext<Word> out = a;
  for (Poly<Word> &c : out.c)
    cpu::mulInPlace(ctx_, c, p.poly);
  out.scale = a.scale * p.scale;
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::addConst(const BasicCiphertext<Word> &a, double c) const {
  BasicCiphertext<Word> out = a;
  // The constant polynomial round(c * scale) is the same value in every NTT
  // slot, so adding it is one constant per limb.
  cpu::addConstInPlace(
      ctx_, out.c[0],
      internal::integerResidues(ctx_, std::round(c * a.scale), out.c[0].basis));
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::mulConst(const BasicCiphertext<Word> &a, double c,
                               double const_scale) const {
  if (const_scale == 0)
    const_scale = internal::rescaleDivisor(ctx_, a.level);
  checks::mulConstScale(const_scale);
  BasicCiphertext<Word> out = a;
  const std::vector<Word> residues = internal::integerResidues(
      ctx_, std::round(c * const_scale), out.c[0].basis);
  for (Poly<Word> &p : out.c)
    cpu::mulConstInPlace(ctx_, p, residues);
  out.scale = a.scale * const_scale;
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::multiply(const BasicCiphertext<Word> &a,
                               const BasicCiphertext<Word> &b) const {
  checks::multiply(operand(a), operand(b));
  BasicCiphertext<Word> out;
  out.level = a.level;
  out.slots = a.slots;
  out.scale = a.scale * b.scale;
  Poly<Word> d0 = a.c[0], d1 = a.c[0], d2 = a.c[1];
  cpu::mulInPlace(ctx_, d0, b.c[0]);
  cpu::mulInPlace(ctx_, d1, b.c[1]);
  cpu::mulAddInPlace(ctx_, d1, a.c[1], b.c[0]);
  cpu::mulInPlace(ctx_, d2, b.c[1]);
  out.c = internal::polys(std::move(d0), std::move(d1), std::move(d2));
  return out;
}

template <typename Word>
void keySwitchInnerProduct(const Context<Word> &ctx,
                           const BasicSwitchingKey<Word> &key,
                           const std::vector<const Poly<Word> *> &digits,
                           Poly<Word> &acc0, Poly<Word> &acc1,
                           uint64_t galois) {
  if (digits.empty())
    throw InvalidArgument("key switching needs at least one digit");
  if (galois && !digits.front()->ntt)
    throw InvalidArgument("key switching: permuted digits must be in NTT "
                          "form");
  const std::vector<uint32_t> index =
      galois ? cpu::automorphismNttIndex(ctx.logN(), galois)
             : std::vector<uint32_t>();
  if (key.b.size() < digits.size())
    throw InvalidArgument("key switching: the key has " +
                          std::to_string(key.b.size()) + " digits, " +
                          std::to_string(digits.size()) + " needed");
  const std::vector<int> &qp = digits.front()->basis;
  const size_t n = ctx.n();
  acc0 = Poly<Word>(qp, n, true);
  acc1 = Poly<Word>(qp, n, true);
  using Double = typename WordTraits<Word>::Double;
  const long limbs = static_cast<long>(qp.size());
  const size_t count = digits.size();
  constexpr size_t kLazy = lazyProducts<Word>();
#pragma omp parallel for schedule(static)
  for (long t = 0; t < limbs; ++t) {
    const Modulus<Word> &q = ctx.modulus(qp[t]);
    Word *o0 = acc0.limb(t), *o1 = acc1.limb(t);
    for (size_t k = 0; k < n; ++k) {
      Double s0 = 0, s1 = 0;
      const size_t src = galois ? index[k] : k;
      for (size_t j = 0; j < count; ++j) {
        const Word x = digits[j]->limb(t)[src];
        s0 += static_cast<Double>(x) * key.b[j].limb(qp[t])[k];
        s1 += static_cast<Double>(x) * key.a[j].limb(qp[t])[k];
        if ((j + 1) % kLazy == 0) {
          s0 = q.reduce(s0);
          s1 = q.reduce(s1);
        }
      }
      o0[k] = q.reduce(s0);
      o1[k] = q.reduce(s1);
    }
  }
}

template <typename Word>
std::pair<Poly<Word>, Poly<Word>>
BasicEvaluator<Word>::keySwitch(const Poly<Word> &d,
                                const BasicSwitchingKey<Word> &key) const {
  if (!d.ntt)
    throw InvalidArgument("keySwitch needs an NTT-form polynomial");
  const int level = static_cast<int>(d.limbs()) - 1;
  const int digits = ctx_.digitCount(level);
  std::vector<Poly<Word>> ext;
  std::vector<const Poly<Word> *> ptrs;
  ext.reserve(digits);
  for (int j = 0; j < digits; ++j) {
    ext.push_back(cpu::modUp(ctx_, d, j));
    ptrs.push_back(&ext.back());
  }
  Poly<Word> acc0, acc1;
  keySwitchInnerProduct(ctx_, key, ptrs, acc0, acc1);
  const std::vector<int> q = ctx_.qBasis(level);
  return {cpu::modSwitchDown(ctx_, acc0, q, plain_modulus_),
          cpu::modSwitchDown(ctx_, acc1, q, plain_modulus_)};
}

template <typename Word>
void klssInnerProduct(const Context<Word> &ctx, const BasicKlssKey<Word> &key,
                      const std::vector<const Poly<Word> *> &tdigits, int level,
                      Poly<Word> &acc0, Poly<Word> &acc1) {
  if (!ctx.hasKlss())
    throw InvalidArgument("klssInnerProduct: the parameter set " +
                          ctx.describe() + " has no KLSS form");
  const int digits = ctx.digitCount(level);
  const int groups = ctx.klssGroupCount(level);
  if (static_cast<int>(tdigits.size()) != digits)
    throw InvalidArgument(
        "klssInnerProduct: " + std::to_string(tdigits.size()) +
        " digits given, " + std::to_string(digits) + " at level " +
        std::to_string(level));
  if (key.digits < digits || key.groups < groups ||
      key.b.size() != size_t(key.digits) * key.groups ||
      key.a.size() != key.b.size())
    throw InvalidArgument(
        "klssInnerProduct: the KLSS key has " + std::to_string(key.digits) +
        " digits x " + std::to_string(key.groups) + " groups, " +
        std::to_string(digits) + " x " + std::to_string(groups) + " needed");
  const std::vector<int> t = ctx.tBasis();
  for (const Poly<Word> *d : tdigits)
    if (d->basis != t || !d->ntt)
      throw InvalidArgument("klssInnerProduct: a digit is not in NTT form "
                            "over T");
  const size_t n = ctx.n();
  const std::vector<int> qp = ctx.qpBasis(level);
  acc0 = Poly<Word>(qp, n, false);
  acc1 = Poly<Word>(qp, n, false);
  auto position = [&](int global) {
    return global <= level ? global : level + 1 + (global - ctx.qCount());
  };
  using Double = typename WordTraits<Word>::Double;
  constexpr int kLazy = lazyProducts<Word>();
  const long r = static_cast<long>(t.size());
  for (int j = 0; j < groups; ++j) {
    Poly<Word> s0(t, n, true), s1(t, n, true);
#pragma omp parallel for schedule(static)
    for (long l = 0; l < r; ++l) {
      const Modulus<Word> &q = ctx.modulus(t[l]);
      Word *o0 = s0.limb(l), *o1 = s1.limb(l);
      for (size_t k = 0; k < n; ++k) {
        Double x0 = 0, x1 = 0;
        for (int i = 0; i < digits; ++i) {
          const Word x = tdigits[i]->limb(l)[k];
          const size_t at = size_t(i) * key.groups + j;
          x0 += static_cast<Double>(x) * key.b[at].limb(l)[k];
          x1 += static_cast<Double>(x) * key.a[at].limb(l)[k];
          if ((i + 1) % kLazy == 0) {
            x0 = q.reduce(x0);
            x1 = q.reduce(x1);
          }
        }
        o0[k] = q.reduce(x0);
        o1[k] = q.reduce(x1);
      }
    }
    cpu::intt(ctx, s0);
    cpu::intt(ctx, s1);
    const std::vector<int> targets = ctx.klssGroupLimbs(j, level);
    const Poly<Word> c0 = cpu::bconvExact(ctx, s0, targets);
    const Poly<Word> c1 = cpu::bconvExact(ctx, s1, targets);
    for (size_t i = 0; i < targets.size(); ++i) {
      const int at = position(targets[i]);
      std::copy(c0.limb(i), c0.limb(i) + n, acc0.limb(at));
      std::copy(c1.limb(i), c1.limb(i) + n, acc1.limb(at));
    }
  }
}

template <typename Word>
std::pair<Poly<Word>, Poly<Word>>
BasicEvaluator<Word>::keySwitch(const Poly<Word> &d,
                                const BasicKlssKey<Word> &key) const {
  if (!d.ntt)
    throw InvalidArgument("keySwitch needs an NTT-form polynomial");
  const int level = static_cast<int>(d.limbs()) - 1;
  const int digits = ctx_.digitCount(level);
  std::vector<Poly<Word>> tdigits;
  std::vector<const Poly<Word> *> ptrs;
  tdigits.reserve(digits);
  for (int i = 0; i < digits; ++i) {
    tdigits.push_back(
        cpu::klssModUp(ctx_, cpu::selectLimbs(d, ctx_.digitLimbs(i, level))));
    ptrs.push_back(&tdigits.back());
  }
  Poly<Word> acc0, acc1;
  klssInnerProduct(ctx_, key, ptrs, level, acc0, acc1);
  const std::vector<int> q = ctx_.qBasis(level);
  Poly<Word> k0 = cpu::modSwitchDown(ctx_, acc0, q, plain_modulus_);
  Poly<Word> k1 = cpu::modSwitchDown(ctx_, acc1, q, plain_modulus_);
  cpu::ntt(ctx_, k0);
  cpu::ntt(ctx_, k1);
  return {std::move(k0), std::move(k1)};
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::relinearize(const BasicCiphertext<Word> &a,
                                  const BasicRelinKey<Word> &rk) const {
  return relinearizeWith(a, rk.key);
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::relinearize(const BasicCiphertext<Word> &a,
                                  const BasicKlssRelinKey<Word> &rk) const {
  return relinearizeWith(a, rk.key);
}

template <typename Word>
template <typename Key>
BasicCiphertext<Word>
BasicEvaluator<Word>::relinearizeWith(const BasicCiphertext<Word> &a,
                                      const Key &key) const {
  checks::relinearize(a.degree(), !key.b.empty());
  if (a.degree() == 1)
    return a;
  auto [k0, k1] = keySwitch(a.c[2], key);
  BasicCiphertext<Word> out;
  out.level = a.level;
  out.scale = a.scale;
  out.slots = a.slots;
  out.c = internal::polys(a.c[0], a.c[1]);
  cpu::addInPlace(ctx_, out.c[0], k0);
  cpu::addInPlace(ctx_, out.c[1], k1);
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::multiplyRelin(const BasicCiphertext<Word> &a,
                                    const BasicCiphertext<Word> &b,
                                    const BasicRelinKey<Word> &rk) const {
  return relinearize(multiply(a, b), rk);
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::multiplyRelin(const BasicCiphertext<Word> &a,
                                    const BasicCiphertext<Word> &b,
                                    const BasicKlssRelinKey<Word> &rk) const {
  return relinearize(multiply(a, b), rk);
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::rescale(const BasicCiphertext<Word> &a) const {
  checks::rescale(a.level, ctx_.scalePrimes());
  BasicCiphertext<Word> out;
  out.level = a.level - ctx_.scalePrimes();
  out.scale = a.scale / internal::rescaleDivisor(ctx_, a.level);
  out.slots = a.slots;
  for (const Poly<Word> &p : a.c) // straight from the input: no copy of it
    out.c.push_back(cpu::modSwitchDown(ctx_, p, ctx_.qBasis(out.level)));
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::modDropTo(const BasicCiphertext<Word> &a,
                                int level) const {
  checks::modDrop(a.level, level);
  BasicCiphertext<Word> out = a;
  for (Poly<Word> &p : out.c)
    cpu::dropToLevel(p, level);
  out.level = level;
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::applyGalois(const BasicCiphertext<Word> &a,
                                  uint64_t galois,
                                  const BasicGaloisKeys<Word> &keys) const {
  return galoisOp(a, galois, keys, "");
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::applyGalois(const BasicCiphertext<Word> &a,
                                  uint64_t galois,
                                  const BasicKlssGaloisKeys<Word> &keys) const {
  return galoisOp(a, galois, keys, "");
}

template <typename Word>
template <typename Keys>
BasicCiphertext<Word>
BasicEvaluator<Word>::galoisOp(const BasicCiphertext<Word> &a, uint64_t galois,
                               const Keys &keys,
                               const std::string &what) const {
  if (galois == 1)
    return a;
  checks::galois(a.degree(), keys.has(galois), galois, what);
  Poly<Word> c0 = cpu::automorphism(ctx_, a.c[0], galois);
  Poly<Word> c1 = cpu::automorphism(ctx_, a.c[1], galois);
  auto [k0, k1] = keySwitch(c1, keys.keys.at(galois));
  cpu::addInPlace(ctx_, c0, k0);
  BasicCiphertext<Word> out;
  out.level = a.level;
  out.scale = a.scale;
  out.slots = a.slots;
  out.c = internal::polys(std::move(c0), std::move(k1));
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::rotate(const BasicCiphertext<Word> &a, int64_t k,
                             const BasicGaloisKeys<Word> &keys) const {
  return galoisOp(a, galoisElementForRotation(ctx_, k, a.slots), keys,
                  "a rotation by " + std::to_string(k));
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::rotate(const BasicCiphertext<Word> &a, int64_t k,
                             const BasicKlssGaloisKeys<Word> &keys) const {
  return galoisOp(a, galoisElementForRotation(ctx_, k, a.slots), keys,
                  "a rotation by " + std::to_string(k));
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::conjugate(const BasicCiphertext<Word> &a,
                                const BasicGaloisKeys<Word> &keys) const {
  return galoisOp(a, galoisElementForConjugation(ctx_), keys, "conjugation");
}

template <typename Word>
BasicCiphertext<Word>
BasicEvaluator<Word>::conjugate(const BasicCiphertext<Word> &a,
                                const BasicKlssGaloisKeys<Word> &keys) const {
  return galoisOp(a, galoisElementForConjugation(ctx_), keys, "conjugation");
}

template class BasicEvaluator<uint32_t>;
template class BasicEvaluator<uint64_t>;
#define EMBER_EVALUATOR_FUNCTIONS(W)                                           \
  template void keySwitchInnerProduct(                                         \
      const Context<W> &, const BasicSwitchingKey<W> &,                        \
      const std::vector<const Poly<W> *> &, Poly<W> &, Poly<W> &, uint64_t);   \
  template void klssInnerProduct(const Context<W> &, const BasicKlssKey<W> &,  \
                                 const std::vector<const Poly<W> *> &, int,    \
                                 Poly<W> &, Poly<W> &);
EMBER_EVALUATOR_FUNCTIONS(uint32_t)
EMBER_EVALUATOR_FUNCTIONS(uint64_t)
#undef EMBER_EVALUATOR_FUNCTIONS

} // namespace ember
