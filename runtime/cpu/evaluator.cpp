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
checks::Operand operand(const Ciphertext &c) {
  return {c.level, c.scale, c.slots, c.degree()};
}
checks::Operand operand(const Plaintext &p) {
  return {p.level, p.scale, p.slots, 0};
}
} // namespace

Ciphertext Evaluator::add(const Ciphertext &a, const Ciphertext &b) const {
  checks::binary(operand(a), operand(b), "add");
  const Ciphertext &big = a.c.size() >= b.c.size() ? a : b;
  const Ciphertext &small = a.c.size() >= b.c.size() ? b : a;
  Ciphertext out = big;
  for (size_t i = 0; i < small.c.size(); ++i)
    cpu::addInPlace(ctx_, out.c[i], small.c[i]);
  return out;
}

Ciphertext Evaluator::sub(const Ciphertext &a, const Ciphertext &b) const {
  checks::binary(operand(a), operand(b), "sub");
  Ciphertext out = a;
  if (out.c.size() < b.c.size())
    out.c.push_back(Poly64(b.c.back().basis, b.c.back().n, true));
  for (size_t i = 0; i < b.c.size(); ++i)
    cpu::subInPlace(ctx_, out.c[i], b.c[i]);
  return out;
}

Ciphertext Evaluator::negate(const Ciphertext &a) const {
  Ciphertext out = a;
  for (Poly64 &p : out.c)
    cpu::negInPlace(ctx_, p);
  return out;
}

Ciphertext Evaluator::addPlain(const Ciphertext &a, const Plaintext &p) const {
  checks::plain(operand(a), operand(p), "add_plain", true);
  Ciphertext out = a;
  cpu::addInPlace(ctx_, out.c[0], p.poly);
  return out;
}

Ciphertext Evaluator::subPlain(const Ciphertext &a, const Plaintext &p) const {
  checks::plain(operand(a), operand(p), "sub_plain", true);
  Ciphertext out = a;
  cpu::subInPlace(ctx_, out.c[0], p.poly);
  return out;
}

Ciphertext Evaluator::mulPlain(const Ciphertext &a, const Plaintext &p) const {
  checks::plain(operand(a), operand(p), "mul_plain", false);
  Ciphertext out = a;
  for (Poly64 &c : out.c)
    cpu::mulInPlace(ctx_, c, p.poly);
  out.scale = a.scale * p.scale;
  return out;
}

Ciphertext Evaluator::addConst(const Ciphertext &a, double c) const {
  Ciphertext out = a;
  // The constant polynomial round(c * scale) is the same value in every NTT
  // slot, so adding it is one constant per limb.
  cpu::addConstInPlace(
      ctx_, out.c[0],
      internal::integerResidues(ctx_, std::round(c * a.scale), out.c[0].basis));
  return out;
}

Ciphertext Evaluator::mulConst(const Ciphertext &a, double c,
                               double const_scale) const {
  if (const_scale == 0)
    const_scale = static_cast<double>(ctx_.primes()[a.level]);
  checks::mulConstScale(const_scale);
  Ciphertext out = a;
  const std::vector<Word64> residues = internal::integerResidues(
      ctx_, std::round(c * const_scale), out.c[0].basis);
  for (Poly64 &p : out.c)
    cpu::mulConstInPlace(ctx_, p, residues);
  out.scale = a.scale * const_scale;
  return out;
}

Ciphertext Evaluator::multiply(const Ciphertext &a, const Ciphertext &b) const {
  checks::multiply(operand(a), operand(b));
  Ciphertext out;
  out.level = a.level;
  out.slots = a.slots;
  out.scale = a.scale * b.scale;
  Poly64 d0 = a.c[0], d1 = a.c[0], d2 = a.c[1];
  cpu::mulInPlace(ctx_, d0, b.c[0]);
  cpu::mulInPlace(ctx_, d1, b.c[1]);
  cpu::mulAddInPlace(ctx_, d1, a.c[1], b.c[0]);
  cpu::mulInPlace(ctx_, d2, b.c[1]);
  out.c = internal::polys(std::move(d0), std::move(d1), std::move(d2));
  return out;
}

void keySwitchInnerProduct(const Context64 &ctx, const SwitchingKey &key,
                           const std::vector<const Poly64 *> &digits,
                           Poly64 &acc0, Poly64 &acc1, uint64_t galois) {
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
  acc0 = Poly64(qp, n, true);
  acc1 = Poly64(qp, n, true);
  using Double = WordTraits<Word64>::Double;
  const long limbs = static_cast<long>(qp.size());
  const size_t count = digits.size();
#pragma omp parallel for schedule(static)
  for (long t = 0; t < limbs; ++t) {
    const Modulus<Word64> &q = ctx.modulus(qp[t]);
    Word64 *o0 = acc0.limb(t), *o1 = acc1.limb(t);
    for (size_t k = 0; k < n; ++k) {
      Double s0 = 0, s1 = 0;
      const size_t src = galois ? index[k] : k;
      for (size_t j = 0; j < count; ++j) {
        const Word64 x = digits[j]->limb(t)[src];
        s0 += static_cast<Double>(x) * key.b[j].limb(qp[t])[k];
        s1 += static_cast<Double>(x) * key.a[j].limb(qp[t])[k];
      }
      o0[k] = q.reduce(s0);
      o1[k] = q.reduce(s1);
    }
  }
}

std::pair<Poly64, Poly64> Evaluator::keySwitch(const Poly64 &d,
                                               const SwitchingKey &key) const {
  if (!d.ntt)
    throw InvalidArgument("keySwitch needs an NTT-form polynomial");
  const int level = static_cast<int>(d.limbs()) - 1;
  const int digits = ctx_.digitCount(level);
  std::vector<Poly64> ext;
  std::vector<const Poly64 *> ptrs;
  ext.reserve(digits);
  for (int j = 0; j < digits; ++j) {
    ext.push_back(cpu::modUp(ctx_, d, j));
    ptrs.push_back(&ext.back());
  }
  Poly64 acc0, acc1;
  keySwitchInnerProduct(ctx_, key, ptrs, acc0, acc1);
  return {cpu::modDown(ctx_, acc0), cpu::modDown(ctx_, acc1)};
}

void klssInnerProduct(const Context64 &ctx, const KlssKey &key,
                      const std::vector<const Poly64 *> &tdigits, int level,
                      Poly64 &acc0, Poly64 &acc1) {
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
  for (const Poly64 *d : tdigits)
    if (d->basis != t || !d->ntt)
      throw InvalidArgument("klssInnerProduct: a digit is not in NTT form "
                            "over T");
  const size_t n = ctx.n();
  const std::vector<int> qp = ctx.qpBasis(level);
  acc0 = Poly64(qp, n, false);
  acc1 = Poly64(qp, n, false);
  auto position = [&](int global) {
    return global <= level ? global : level + 1 + (global - ctx.qCount());
  };
  using Double = WordTraits<Word64>::Double;
  constexpr int kLazy = 32; // 2^128 / (2^61)^2 products fit before a reduce
  const long r = static_cast<long>(t.size());
  for (int j = 0; j < groups; ++j) {
    Poly64 s0(t, n, true), s1(t, n, true);
#pragma omp parallel for schedule(static)
    for (long l = 0; l < r; ++l) {
      const Modulus<Word64> &q = ctx.modulus(t[l]);
      Word64 *o0 = s0.limb(l), *o1 = s1.limb(l);
      for (size_t k = 0; k < n; ++k) {
        Double x0 = 0, x1 = 0;
        for (int i = 0; i < digits; ++i) {
          const Word64 x = tdigits[i]->limb(l)[k];
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
    const Poly64 c0 = cpu::bconvExact(ctx, s0, targets);
    const Poly64 c1 = cpu::bconvExact(ctx, s1, targets);
    for (size_t i = 0; i < targets.size(); ++i) {
      const int at = position(targets[i]);
      std::copy(c0.limb(i), c0.limb(i) + n, acc0.limb(at));
      std::copy(c1.limb(i), c1.limb(i) + n, acc1.limb(at));
    }
  }
}

std::pair<Poly64, Poly64> Evaluator::keySwitch(const Poly64 &d,
                                               const KlssKey &key) const {
  if (!d.ntt)
    throw InvalidArgument("keySwitch needs an NTT-form polynomial");
  const int level = static_cast<int>(d.limbs()) - 1;
  const int digits = ctx_.digitCount(level);
  std::vector<Poly64> tdigits;
  std::vector<const Poly64 *> ptrs;
  tdigits.reserve(digits);
  for (int i = 0; i < digits; ++i) {
    tdigits.push_back(
        cpu::klssModUp(ctx_, cpu::selectLimbs(d, ctx_.digitLimbs(i, level))));
    ptrs.push_back(&tdigits.back());
  }
  Poly64 acc0, acc1;
  klssInnerProduct(ctx_, key, ptrs, level, acc0, acc1);
  const std::vector<int> q = ctx_.qBasis(level);
  Poly64 k0 = cpu::modSwitchDown(ctx_, acc0, q);
  Poly64 k1 = cpu::modSwitchDown(ctx_, acc1, q);
  cpu::ntt(ctx_, k0);
  cpu::ntt(ctx_, k1);
  return {std::move(k0), std::move(k1)};
}

Ciphertext Evaluator::relinearize(const Ciphertext &a,
                                  const RelinKey &rk) const {
  return relinearizeWith(a, rk.key);
}

Ciphertext Evaluator::relinearize(const Ciphertext &a,
                                  const KlssRelinKey &rk) const {
  return relinearizeWith(a, rk.key);
}

template <typename Key>
Ciphertext Evaluator::relinearizeWith(const Ciphertext &a,
                                      const Key &key) const {
  checks::relinearize(a.degree(), !key.b.empty());
  if (a.degree() == 1)
    return a;
  auto [k0, k1] = keySwitch(a.c[2], key);
  Ciphertext out;
  out.level = a.level;
  out.scale = a.scale;
  out.slots = a.slots;
  out.c = internal::polys(a.c[0], a.c[1]);
  cpu::addInPlace(ctx_, out.c[0], k0);
  cpu::addInPlace(ctx_, out.c[1], k1);
  return out;
}

Ciphertext Evaluator::multiplyRelin(const Ciphertext &a, const Ciphertext &b,
                                    const RelinKey &rk) const {
  return relinearize(multiply(a, b), rk);
}

Ciphertext Evaluator::multiplyRelin(const Ciphertext &a, const Ciphertext &b,
                                    const KlssRelinKey &rk) const {
  return relinearize(multiply(a, b), rk);
}

Ciphertext Evaluator::rescale(const Ciphertext &a) const {
  checks::rescale(a.level);
  Ciphertext out;
  out.level = a.level - 1;
  out.scale = a.scale / static_cast<double>(ctx_.primes()[a.level]);
  out.slots = a.slots;
  for (const Poly64 &p : a.c) // straight from the input: no copy of it
    out.c.push_back(cpu::modSwitchDown(ctx_, p, ctx_.qBasis(out.level)));
  return out;
}

Ciphertext Evaluator::modDropTo(const Ciphertext &a, int level) const {
  checks::modDrop(a.level, level);
  Ciphertext out = a;
  for (Poly64 &p : out.c)
    cpu::dropToLevel(p, level);
  out.level = level;
  return out;
}

Ciphertext Evaluator::applyGalois(const Ciphertext &a, uint64_t galois,
                                  const GaloisKeys &keys) const {
  return galoisOp(a, galois, keys, "");
}

Ciphertext Evaluator::applyGalois(const Ciphertext &a, uint64_t galois,
                                  const KlssGaloisKeys &keys) const {
  return galoisOp(a, galois, keys, "");
}

template <typename Keys>
Ciphertext Evaluator::galoisOp(const Ciphertext &a, uint64_t galois,
                               const Keys &keys,
                               const std::string &what) const {
  if (galois == 1)
    return a;
  checks::galois(a.degree(), keys.has(galois), galois, what);
  Poly64 c0 = cpu::automorphism(ctx_, a.c[0], galois);
  Poly64 c1 = cpu::automorphism(ctx_, a.c[1], galois);
  auto [k0, k1] = keySwitch(c1, keys.keys.at(galois));
  cpu::addInPlace(ctx_, c0, k0);
  Ciphertext out;
  out.level = a.level;
  out.scale = a.scale;
  out.slots = a.slots;
  out.c = internal::polys(std::move(c0), std::move(k1));
  return out;
}

Ciphertext Evaluator::rotate(const Ciphertext &a, int64_t k,
                             const GaloisKeys &keys) const {
  return galoisOp(a, galoisElementForRotation(ctx_, k, a.slots), keys,
                  "a rotation by " + std::to_string(k));
}

Ciphertext Evaluator::rotate(const Ciphertext &a, int64_t k,
                             const KlssGaloisKeys &keys) const {
  return galoisOp(a, galoisElementForRotation(ctx_, k, a.slots), keys,
                  "a rotation by " + std::to_string(k));
}

Ciphertext Evaluator::conjugate(const Ciphertext &a,
                                const GaloisKeys &keys) const {
  return galoisOp(a, galoisElementForConjugation(ctx_), keys, "conjugation");
}

Ciphertext Evaluator::conjugate(const Ciphertext &a,
                                const KlssGaloisKeys &keys) const {
  return galoisOp(a, galoisElementForConjugation(ctx_), keys, "conjugation");
}

} // namespace ember
