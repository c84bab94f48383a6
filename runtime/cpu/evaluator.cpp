// CKKS evaluation on the CPU backend, built from the RNS primitives.
// Key switching is hybrid (Phantom III-D): dnum digits, each ModUp-ed to
// Q_l u P, one inner product with the key accumulated lazily over the digits,
// one ModDown per output polynomial.
#include "../core/internal.h"
#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/rns.h"

#include <cmath>

namespace ember {

namespace {
bool sameScale(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

std::string levelText(int level) { return "level " + std::to_string(level); }
} // namespace

void Evaluator::checkBinary(const Ciphertext &a, const Ciphertext &b,
                            const char *op) const {
  if (a.level != b.level)
    throw LevelMismatch(std::string(op) + ": operands at " +
                        levelText(a.level) + " and " + levelText(b.level) +
                        " (mod_drop the higher one first)");
  if (!sameScale(a.scale, b.scale))
    throw ScaleMismatch(std::string(op) + ": operand scales 2^" +
                        std::to_string(std::log2(a.scale)) + " and 2^" +
                        std::to_string(std::log2(b.scale)) + " differ");
  if (a.slots != b.slots)
    throw InvalidArgument(std::string(op) + ": operands have " +
                          std::to_string(a.slots) + " and " +
                          std::to_string(b.slots) + " slots");
}

namespace {
void checkPlain(const Ciphertext &a, const Plaintext &p, const char *op,
                bool need_scale) {
  if (a.level != p.level)
    throw LevelMismatch(std::string(op) + ": ciphertext at " +
                        levelText(a.level) + ", plaintext at " +
                        levelText(p.level));
  if (need_scale && !sameScale(a.scale, p.scale))
    throw ScaleMismatch(std::string(op) + ": ciphertext scale 2^" +
                        std::to_string(std::log2(a.scale)) +
                        " and plaintext scale 2^" +
                        std::to_string(std::log2(p.scale)) + " differ");
  if (a.slots != p.slots)
    throw InvalidArgument(std::string(op) + ": ciphertext has " +
                          std::to_string(a.slots) + " slots, plaintext " +
                          std::to_string(p.slots));
}
} // namespace

Ciphertext Evaluator::add(const Ciphertext &a, const Ciphertext &b) const {
  checkBinary(a, b, "add");
  const Ciphertext &big = a.c.size() >= b.c.size() ? a : b;
  const Ciphertext &small = a.c.size() >= b.c.size() ? b : a;
  Ciphertext out = big;
  for (size_t i = 0; i < small.c.size(); ++i)
    cpu::addInPlace(ctx_, out.c[i], small.c[i]);
  return out;
}

Ciphertext Evaluator::sub(const Ciphertext &a, const Ciphertext &b) const {
  checkBinary(a, b, "sub");
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
  checkPlain(a, p, "add_plain", true);
  Ciphertext out = a;
  cpu::addInPlace(ctx_, out.c[0], p.poly);
  return out;
}

Ciphertext Evaluator::subPlain(const Ciphertext &a, const Plaintext &p) const {
  checkPlain(a, p, "sub_plain", true);
  Ciphertext out = a;
  cpu::subInPlace(ctx_, out.c[0], p.poly);
  return out;
}

Ciphertext Evaluator::mulPlain(const Ciphertext &a, const Plaintext &p) const {
  checkPlain(a, p, "mul_plain", false);
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
  if (!(const_scale > 0) || !std::isfinite(const_scale))
    throw InvalidArgument("mul_const: the constant's scale must be positive");
  Ciphertext out = a;
  const std::vector<Word64> residues = internal::integerResidues(
      ctx_, std::round(c * const_scale), out.c[0].basis);
  for (Poly64 &p : out.c)
    cpu::mulConstInPlace(ctx_, p, residues);
  out.scale = a.scale * const_scale;
  return out;
}

Ciphertext Evaluator::multiply(const Ciphertext &a, const Ciphertext &b) const {
  if (a.level != b.level)
    throw LevelMismatch("multiply: operands at " + levelText(a.level) +
                        " and " + levelText(b.level));
  if (a.slots != b.slots)
    throw InvalidArgument("multiply: operands have different slot counts");
  if (a.c.size() != 2 || b.c.size() != 2)
    throw InvalidArgument("multiply needs degree-1 ciphertexts (relinearize "
                          "the degree-2 operand first)");
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

std::pair<Poly64, Poly64> Evaluator::keySwitch(const Poly64 &d,
                                               const SwitchingKey &key) const {
  if (!d.ntt)
    throw InvalidArgument("keySwitch needs an NTT-form polynomial");
  const int level = static_cast<int>(d.limbs()) - 1;
  const int digits = ctx_.digitCount(level);
  if (static_cast<int>(key.b.size()) < digits)
    throw InvalidArgument("keySwitch: the key has " +
                          std::to_string(key.b.size()) + " digits, " +
                          std::to_string(digits) + " needed");
  std::vector<Poly64> ext;
  ext.reserve(digits);
  for (int j = 0; j < digits; ++j)
    ext.push_back(cpu::modUp(ctx_, d, j));

  // Inner product over the digits, reduced once per output residue. The key
  // polynomials cover all of Q u P, so limb index == global modulus index.
  const std::vector<int> qp = ctx_.qpBasis(level);
  Poly64 acc0(qp, ctx_.n(), true), acc1(qp, ctx_.n(), true);
  using Double = WordTraits<Word64>::Double;
  const long limbs = static_cast<long>(qp.size());
  const size_t n = ctx_.n();
#pragma omp parallel for schedule(static)
  for (long t = 0; t < limbs; ++t) {
    const Modulus<Word64> &q = ctx_.modulus(qp[t]);
    Word64 *o0 = acc0.limb(t), *o1 = acc1.limb(t);
    for (size_t k = 0; k < n; ++k) {
      Double s0 = 0, s1 = 0;
      for (int j = 0; j < digits; ++j) {
        const Word64 x = ext[j].limb(t)[k];
        s0 += static_cast<Double>(x) * key.b[j].limb(qp[t])[k];
        s1 += static_cast<Double>(x) * key.a[j].limb(qp[t])[k];
      }
      o0[k] = q.reduce(s0);
      o1[k] = q.reduce(s1);
    }
  }
  return {cpu::modDown(ctx_, acc0), cpu::modDown(ctx_, acc1)};
}

Ciphertext Evaluator::relinearize(const Ciphertext &a,
                                  const RelinKey &rk) const {
  if (a.c.size() == 2)
    return a;
  if (a.c.size() != 3)
    throw InvalidArgument("relinearize needs a degree-2 ciphertext");
  if (rk.key.b.empty())
    throw MissingKey("relinearize: no relinearization key was generated");
  auto [k0, k1] = keySwitch(a.c[2], rk.key);
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

Ciphertext Evaluator::rescale(const Ciphertext &a) const {
  if (a.level < 1)
    throw LevelMismatch("rescale: the ciphertext is at level 0; the program "
                        "is deeper than its parameters allow");
  Ciphertext out = a;
  for (Poly64 &p : out.c)
    cpu::rescale(ctx_, p);
  out.scale = a.scale / static_cast<double>(ctx_.primes()[a.level]);
  out.level = a.level - 1;
  return out;
}

Ciphertext Evaluator::modDropTo(const Ciphertext &a, int level) const {
  if (level > a.level || level < 0)
    throw LevelMismatch("mod_drop: cannot go from " + levelText(a.level) +
                        " to " + levelText(level));
  Ciphertext out = a;
  for (Poly64 &p : out.c)
    cpu::dropToLevel(p, level);
  out.level = level;
  return out;
}

Ciphertext Evaluator::applyGalois(const Ciphertext &a, uint64_t galois,
                                  const GaloisKeys &keys) const {
  if (galois == 1)
    return a;
  if (a.c.size() != 2)
    throw InvalidArgument("rotations need a degree-1 ciphertext (relinearize "
                          "first)");
  auto it = keys.keys.find(galois);
  if (it == keys.keys.end())
    throw MissingKey("no Galois key for element " + std::to_string(galois) +
                     "; generate it with the client's keys");
  Poly64 c0 = cpu::automorphism(ctx_, a.c[0], galois);
  Poly64 c1 = cpu::automorphism(ctx_, a.c[1], galois);
  auto [k0, k1] = keySwitch(c1, it->second);
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
  const uint64_t g = galoisElementForRotation(ctx_, k, a.slots);
  if (g != 1 && !keys.has(g))
    throw MissingKey("no Galois key for a rotation by " + std::to_string(k) +
                     " (element " + std::to_string(g) + ")");
  return applyGalois(a, g, keys);
}

Ciphertext Evaluator::conjugate(const Ciphertext &a,
                                const GaloisKeys &keys) const {
  const uint64_t g = galoisElementForConjugation(ctx_);
  if (!keys.has(g))
    throw MissingKey("no Galois key for conjugation (element " +
                     std::to_string(g) + ")");
  return applyGalois(a, g, keys);
}

} // namespace ember
