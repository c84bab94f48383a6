// BGV evaluation on the CPU backend: the CKKS evaluator's tensor product,
// key switching (with BGV's t-corrected ModDown) and rotations, plus BGV's
// own modulus switching and correction-factor bookkeeping.
#include "ember/bgv.h"
#include "../core/checks.h"
#include "ember/errors.h"
#include "ember/rns.h"

#include <cmath>

namespace ember {

template <typename Word>
BasicBgvEvaluator<Word>::BasicBgvEvaluator(const Context<Word> &ctx, uint64_t t)
    : ctx_(ctx), t_(static_cast<Word>(t)), base_(ctx, t) {
  // The encoder's checks (prime, t = 1 mod 2N, below Q's primes) hold for
  // every t a program is compiled for; here only what the arithmetic needs.
  bgv::checkPlainModulus(ctx, t);
}

template <typename Word>
uint64_t
BasicBgvEvaluator<Word>::factorOf(const BasicCiphertext<Word> &a) const {
  return bgv::factorOf(a.scale, t_.value());
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::modSwitch(const BasicCiphertext<Word> &a) const {
  const uint64_t mu = factorOf(a);
  checks::rescale(a.level, 1);
  BasicCiphertext<Word> out;
  out.level = a.level - 1;
  out.slots = a.slots;
  const std::vector<int> keep = ctx_.qBasis(out.level);
  for (const Poly<Word> &p : a.c)
    out.c.push_back(cpu::modSwitchDown(ctx_, p, keep, t_.value()));
  out.scale =
      static_cast<double>(bgv::switchedFactor(ctx_, mu, a.level, t_.value()));
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::modSwitchTo(const BasicCiphertext<Word> &a,
                                     int level) const {
  checks::modDrop(a.level, level);
  BasicCiphertext<Word> out = a;
  while (out.level > level)
    out = modSwitch(out);
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::mulInt(const BasicCiphertext<Word> &a,
                                int64_t c) const {
  factorOf(a);
  BasicCiphertext<Word> out = a;
  const std::vector<Word> residues = bgv::centredResidues(
      ctx_, t_.value(), bgv::reduceSigned(c, t_.value()), ctx_.qBasis(a.level));
  for (Poly<Word> &p : out.c)
    cpu::mulConstInPlace(ctx_, p, residues);
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::addInt(const BasicCiphertext<Word> &a,
                                int64_t c) const {
  // The constant vector c is the constant polynomial c: add [mu c]_t to c_0
  // (in NTT form a constant adds to every evaluation).
  const uint64_t t = t_.value();
  const uint64_t mu = factorOf(a);
  BasicCiphertext<Word> out = a;
  cpu::addConstInPlace(
      ctx_, out.c[0],
      bgv::centredResidues(ctx_, t, bgv::mulMod(bgv::reduceSigned(c, t), mu, t),
                           ctx_.qBasis(a.level)));
  return out;
}

template <typename Word>
void BasicBgvEvaluator<Word>::align(BasicCiphertext<Word> &a,
                                    BasicCiphertext<Word> &b,
                                    bool factors) const {
  if (a.level > b.level)
    a = modSwitchTo(a, b.level);
  else if (b.level > a.level)
    b = modSwitchTo(b, a.level);
  const Word fa = static_cast<Word>(factorOf(a));
  const Word fb = static_cast<Word>(factorOf(b));
  if (factors && fa != fb) { // b times fa / fb (mod t)
    const Word ratio = t_.mul(fa, t_.inv(fb));
    const std::vector<Word> residues =
        bgv::centredResidues(ctx_, t_.value(), ratio, ctx_.qBasis(b.level));
    for (Poly<Word> &p : b.c)
      cpu::mulConstInPlace(ctx_, p, residues);
    b.scale = a.scale;
  }
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::add(const BasicCiphertext<Word> &a,
                             const BasicCiphertext<Word> &b) const {
  BasicCiphertext<Word> x = a, y = b;
  align(x, y, true);
  return base_.add(x, y);
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::sub(const BasicCiphertext<Word> &a,
                             const BasicCiphertext<Word> &b) const {
  BasicCiphertext<Word> x = a, y = b;
  align(x, y, true);
  return base_.sub(x, y);
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::negate(const BasicCiphertext<Word> &a) const {
  factorOf(a);
  return base_.negate(a);
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::addPlain(const BasicCiphertext<Word> &a,
                                  const BasicPlaintext<Word> &p) const {
  factorOf(a);
  bgv::checkAddedFactor(a.scale, p.scale, "addPlain");
  return base_.addPlain(a, p);
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::subPlain(const BasicCiphertext<Word> &a,
                                  const BasicPlaintext<Word> &p) const {
  factorOf(a);
  bgv::checkAddedFactor(a.scale, p.scale, "subPlain");
  return base_.subPlain(a, p);
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::mulPlain(const BasicCiphertext<Word> &a,
                                  const BasicPlaintext<Word> &p) const {
  const Word fa = static_cast<Word>(factorOf(a));
  if (!(p.scale >= 1 && p.scale < static_cast<double>(t_.value())))
    throw InvalidArgument("mulPlain: the plaintext's factor is not in 1..t-1");
  BasicCiphertext<Word> out = base_.mulPlain(a, p);
  out.scale = static_cast<double>(t_.mul(fa, static_cast<Word>(p.scale)));
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::multiply(const BasicCiphertext<Word> &a,
                                  const BasicCiphertext<Word> &b) const {
  BasicCiphertext<Word> x = a, y = b;
  align(x, y, false);
  const Word fx = static_cast<Word>(factorOf(x));
  const Word fy = static_cast<Word>(factorOf(y));
  BasicCiphertext<Word> out = base_.multiply(x, y);
  out.scale = static_cast<double>(t_.mul(fx, fy));
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::relinearize(const BasicCiphertext<Word> &a,
                                     const BasicRelinKey<Word> &rk) const {
  factorOf(a);
  return base_.relinearize(a, rk);
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::multiplyRelin(const BasicCiphertext<Word> &a,
                                       const BasicCiphertext<Word> &b,
                                       const BasicRelinKey<Word> &rk) const {
  const BasicCiphertext<Word> d = multiply(a, b);
  const uint64_t mu = factorOf(d);
  checks::rescale(d.level, 1);
  checks::relinearize(d.degree(), !rk.key.b.empty());
  const int level = d.level;
  // The inner product of d_2's digits with the key, over Q_l u P: P d_2 s^2
  // plus the key's noise, before any ModDown.
  std::vector<Poly<Word>> ext;
  std::vector<const Poly<Word> *> ptrs;
  for (int j = 0; j < ctx_.digitCount(level); ++j)
    ext.push_back(cpu::modUp(ctx_, d.c[2], j));
  for (const Poly<Word> &e : ext)
    ptrs.push_back(&e);
  Poly<Word> acc[2];
  keySwitchInnerProduct(ctx_, rk.key, ptrs, acc[0], acc[1]);
  // acc_i + P d_i over Q_l u P (P d_i is 0 on P's limbs), then one
  // t-corrected switch down by D = P q_l.
  std::vector<Word> p_mod;
  for (int i = 0; i <= level; ++i) // P mod q_i = (P^-1)^-1
    p_mod.push_back(ctx_.modulus(i).inv(ctx_.pInv(i)));
  BasicCiphertext<Word> out;
  out.level = level - 1;
  out.slots = d.slots;
  const std::vector<int> keep = ctx_.qBasis(level - 1);
  for (int i = 0; i < 2; ++i) {
    Poly<Word> lifted = d.c[i];
    cpu::mulConstInPlace(ctx_, lifted, p_mod);
    for (int q = 0; q <= level; ++q) {
      const Modulus<Word> &m = ctx_.modulus(q);
      Word *dst = acc[i].limb(q);
      const Word *src = lifted.limb(q);
      for (size_t k = 0; k < ctx_.n(); ++k)
        dst[k] = m.add(dst[k], src[k]);
    }
    out.c.push_back(cpu::modSwitchDown(ctx_, acc[i], keep, t_.value()));
  }
  out.scale =
      static_cast<double>(bgv::switchedFactor(ctx_, mu, level, t_.value()));
  return out;
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::rotate(const BasicCiphertext<Word> &a, int64_t k,
                                const BasicGaloisKeys<Word> &keys) const {
  factorOf(a);
  return base_.rotate(a, k, keys);
}

template <typename Word>
BasicCiphertext<Word>
BasicBgvEvaluator<Word>::normalizeFactor(const BasicCiphertext<Word> &a) const {
  const Word mu = static_cast<Word>(factorOf(a));
  BasicCiphertext<Word> out = a;
  if (mu == 1)
    return out;
  const std::vector<Word> residues =
      bgv::centredResidues(ctx_, t_.value(), t_.inv(mu), ctx_.qBasis(a.level));
  for (Poly<Word> &p : out.c)
    cpu::mulConstInPlace(ctx_, p, residues);
  out.scale = 1;
  return out;
}

template class BasicBgvEvaluator<uint32_t>;
template class BasicBgvEvaluator<uint64_t>;

} // namespace ember
