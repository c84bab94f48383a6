// Key generation, encryption and decryption (host side).
#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/rns.h"
#include "ember/security.h"
#include "ember/wipe.h"
#include "internal.h"

#include <cmath>
#include <cstdio>

namespace ember {

template <typename Word>
uint64_t galoisElementForRotation(const Context<Word> &ctx, int64_t k,
                                  size_t slots) {
  if (slots == 0 || (slots & (slots - 1)) != 0 || slots > ctx.slotsMax())
    throw InvalidArgument("slot count " + std::to_string(slots) +
                          " must be a power of two <= N/2");
  const int64_t n_slots = static_cast<int64_t>(slots);
  const uint64_t steps =
      static_cast<uint64_t>(((k % n_slots) + n_slots) % n_slots);
  const uint64_t two_n = 2 * ctx.n();
  uint64_t g = 1, base = 5, e = steps;
  while (e) {
    if (e & 1)
      g = g * base % two_n;
    base = base * base % two_n;
    e >>= 1;
  }
  return g;
}

template <typename Word>
uint64_t galoisElementForConjugation(const Context<Word> &ctx) {
  return 2 * ctx.n() - 1;
}

template <typename Word>
BasicSecretKey<Word> &
BasicSecretKey<Word>::operator=(const BasicSecretKey<Word> &other) {
  if (this != &other) {
    secureWipe(s.data); // the old buffer may be freed or reused
    s = other.s;
  }
  return *this;
}

template <typename Word>
BasicSecretKey<Word> &
BasicSecretKey<Word>::operator=(BasicSecretKey<Word> &&other) noexcept {
  if (this != &other) {
    secureWipe(s.data);
    s = std::move(other.s);
  }
  return *this;
}

template <typename Word> BasicSecretKey<Word>::~BasicSecretKey() {
  secureWipe(s.data);
}

namespace {
/// A temporary that holds s-dependent data (s itself, s^2, s(X^g), a s):
/// wiped when it goes out of scope.
template <typename Word> struct Wiped {
  Poly<Word> p;
  ~Wiped() { secureWipe(p.data); }
};

/// NTT form of small signed coefficients over `basis`. The coefficients
/// (a secret, an error that with the public part gives the secret, the
/// encryption randomness, flooding noise) are wiped once converted.
template <typename Word>
Poly<Word> nttOfSigned(const Context<Word> &ctx, std::vector<int64_t> coeffs,
                       const std::vector<int> &basis) {
  Poly<Word> p = polyFromSigned(ctx, coeffs, basis);
  secureWipe(coeffs);
  cpu::ntt(ctx, p);
  return p;
}
} // namespace

/// p *= t on every limb (the BGV error factor); nothing for t = 1.
template <typename Word>
void scaleByFactor(const Context<Word> &ctx, Poly<Word> &p, uint64_t t) {
  if (t == 1)
    return;
  std::vector<Word> residues;
  for (int index : p.basis)
    residues.push_back(static_cast<Word>(t % ctx.modulus(index).value()));
  cpu::mulConstInPlace(ctx, p, residues);
}

template <typename Word>
BasicKeyGenerator<Word>::BasicKeyGenerator(const Context<Word> &ctx, Prng &prng,
                                           uint64_t error_factor)
    : ctx_(ctx), prng_(prng), error_factor_(error_factor) {
  if (error_factor == 0)
    throw InvalidArgument("the key generator's error factor must be nonzero");
  const int h = ctx.spec().hamming_weight;
  std::vector<int64_t> s = h > 0 ? sampleTernaryHamming(prng, ctx.n(), h)
                                 : sampleTernary(prng, ctx.n());
  sk_.s = nttOfSigned(ctx, std::move(s), ctx.qpBasis(ctx.maxLevel()));
}

template <typename Word>
Poly<Word> BasicKeyGenerator<Word>::error(const std::vector<int> &basis) {
  Poly<Word> e = nttOfSigned(ctx_, sampleGaussian(prng_, ctx_.n()), basis);
  scaleByFactor(ctx_, e, error_factor_);
  return e;
}

template <typename Word>
BasicPublicKey<Word> BasicKeyGenerator<Word>::publicKey() {
  const std::vector<int> basis = ctx_.qBasis(ctx_.maxLevel());
  BasicPublicKey<Word> pk;
  pk.a = sampleUniformPoly(ctx_, prng_, basis, true);
  pk.b = error(basis);
  Wiped<Word> s{cpu::selectLimbs(sk_.s, basis)}, as{pk.a};
  cpu::mulInPlace(ctx_, as.p, s.p);
  cpu::subInPlace(ctx_, pk.b, as.p); // b = e - a s
  return pk;
}

template <typename Word>
BasicSwitchingKey<Word>
BasicKeyGenerator<Word>::switchingKey(const Poly<Word> &s_prime) {
  const int top = ctx_.maxLevel();
  const std::vector<int> qp = ctx_.qpBasis(top);
  if (ctx_.pCount() == 0)
    throw InvalidArgument("key switching needs special primes P; the "
                          "parameters have none");
  if (s_prime.basis != qp || !s_prime.ntt)
    throw InvalidArgument("switchingKey: s' must be in NTT form over Q u P");
  // P mod q_i for the gadget term P * s' on the digit's own limbs.
  std::vector<Word> p_mod(ctx_.qCount());
  for (int i = 0; i < ctx_.qCount(); ++i)
    p_mod[i] = ctx_.modulus(i).inv(ctx_.pInv(i));
  BasicSwitchingKey<Word> key;
  for (int j = 0; j < ctx_.digitCount(top); ++j) {
    Poly<Word> a = sampleUniformPoly(ctx_, prng_, qp, true);
    Poly<Word> b = error(qp);
    Wiped<Word> as{a};
    cpu::mulInPlace(ctx_, as.p, sk_.s);
    cpu::subInPlace(ctx_, b, as.p);
    for (int i : ctx_.digitLimbs(j, top)) {
      const Modulus<Word> &q = ctx_.modulus(i);
      const Word w = p_mod[i], w_shoup = q.shoup(w);
      Word *dst = b.limb(i);
      const Word *src = s_prime.limb(i);
      for (size_t k = 0; k < ctx_.n(); ++k)
        dst[k] = q.add(dst[k], q.mulShoup(src[k], w, w_shoup));
    }
    key.b.push_back(std::move(b));
    key.a.push_back(std::move(a));
  }
  return key;
}

template <typename Word>
BasicEncapsulationKeys<Word>
BasicKeyGenerator<Word>::encapsulationKeys(int hamming_weight) {
  const size_t n = ctx_.n();
  if (ctx_.pCount() == 0)
    throw InvalidArgument("encapsulation keys need special primes P; the "
                          "parameters have none");
  if (hamming_weight < 1 || static_cast<size_t>(hamming_weight) > n)
    throw InvalidArgument("the ephemeral secret's Hamming weight " +
                          std::to_string(hamming_weight) + " is outside 1..N");
  // The lowest level's limbs Q_0 (q_0, or q_0 and the base pair under
  // double-prime scaling) and the first special prime p_0.
  const int base = ctx_.baseLimbs(), p0 = ctx_.qCount();
  double log_q0p0 = std::log2(static_cast<double>(ctx_.modulus(p0).value()));
  for (int i = 0; i < base; ++i)
    log_q0p0 += std::log2(static_cast<double>(ctx_.modulus(i).value()));
  if (ctx_.spec().security == Security::k128) {
    const int bound = maxLogQPSparse128(ctx_.logN(), hamming_weight);
    if (log_q0p0 > bound) {
      char buf[320];
      std::snprintf(buf, sizeof buf,
                    "the encapsulation key s -> s' is an RLWE sample under "
                    "a secret of Hamming weight %d at modulus Q_0 p_0 of "
                    "%.1f bits; the 128-bit bound at N = 2^%d is %d bits%s",
                    hamming_weight, log_q0p0, ctx_.logN(), bound,
                    bound ? "" : " (none is published for this weight)");
      throw SecurityError(buf);
    }
  }
  const std::vector<int> qp = ctx_.qpBasis(ctx_.maxLevel());
  Wiped<Word> sp{
      nttOfSigned(ctx_, sampleTernaryHamming(prng_, n, hamming_weight), qp)};
  BasicEncapsulationKeys<Word> keys;
  keys.from_sparse = switchingKey(sp.p);
  // to_sparse: one digit per limb of Q_0 (each below p_0, so that ModDown
  // by p_0 alone keeps the noise small), digit i
  //   (b_i, a_i) = (-a_i s' + e_i + p_0 s [on q_i only], a_i) mod Q_0 p_0,
  // P s on the digit's limb, 0 on Q_0's other limbs and on p_0. ModUp, the
  // inner product and ModDown then run over Q_0 u {p_0} only.
  std::vector<int> small;
  for (int i = 0; i < base; ++i)
    small.push_back(i);
  small.push_back(p0);
  Wiped<Word> s_small{cpu::selectLimbs(sp.p, small)};
  // Spread over Q u P (the layout every switching key has), zero elsewhere.
  auto spread = [&](const Poly<Word> &p) {
    Poly<Word> full(qp, n, true);
    for (size_t t = 0; t < small.size(); ++t)
      std::copy(p.limb(t), p.limb(t) + n, full.limb(small[t]));
    return full;
  };
  for (int digit = 0; digit < base; ++digit) {
    Poly<Word> a = sampleUniformPoly(ctx_, prng_, small, true);
    Poly<Word> b = nttOfSigned(ctx_, sampleGaussian(prng_, n), small);
    Wiped<Word> as{a};
    cpu::mulInPlace(ctx_, as.p, s_small.p);
    cpu::subInPlace(ctx_, b, as.p);
    const Modulus<Word> &q = ctx_.modulus(digit);
    const Word w = q.reduceWord(ctx_.modulus(p0).value()), w_shoup = q.shoup(w);
    Word *dst = b.limb(digit);
    const Word *src = sk_.s.limb(digit);
    for (size_t k = 0; k < n; ++k)
      dst[k] = q.add(dst[k], q.mulShoup(src[k], w, w_shoup));
    keys.to_sparse.b.push_back(spread(b));
    keys.to_sparse.a.push_back(spread(a));
  }
  return keys;
}

template <typename Word>
BasicRelinKey<Word> BasicKeyGenerator<Word>::relinKey() {
  Wiped<Word> s2{sk_.s};
  cpu::mulInPlace(ctx_, s2.p, sk_.s);
  return BasicRelinKey<Word>{switchingKey(s2.p)};
}

template <typename Word>
BasicSwitchingKey<Word> BasicKeyGenerator<Word>::galoisKey(uint64_t galois) {
  Wiped<Word> sg{cpu::automorphism(ctx_, sk_.s, galois)};
  return switchingKey(sg.p);
}

template <typename Word>
BasicGaloisKeys<Word>
BasicKeyGenerator<Word>::galoisKeys(const std::vector<uint64_t> &elements) {
  BasicGaloisKeys<Word> keys;
  for (uint64_t g : elements)
    if (!keys.has(g))
      keys.keys.emplace(g, galoisKey(g));
  return keys;
}

template <typename Word>
BasicKlssKey<Word> klssKeyFromHybrid(const Context<Word> &ctx,
                                     const BasicSwitchingKey<Word> &key) {
  if (!ctx.hasKlss())
    throw InvalidArgument("the parameter set " + ctx.describe() +
                          " has no KLSS form (no temporary basis T)");
  const int top = ctx.maxLevel();
  const std::vector<int> qp = ctx.qpBasis(top);
  if (key.b.empty() || key.b.size() != key.a.size() ||
      static_cast<int>(key.b.size()) != ctx.digitCount(top))
    throw InvalidArgument("klssKeyFromHybrid: the hybrid key has " +
                          std::to_string(key.b.size()) + " digits, " +
                          std::to_string(ctx.digitCount(top)) + " expected");
  BasicKlssKey<Word> out;
  out.digits = static_cast<int>(key.b.size());
  out.groups = ctx.klssGroupCount(top);
  const std::vector<int> t = ctx.tBasis();
  auto convert = [&](const Poly<Word> &p, int group) {
    if (p.basis != qp || !p.ntt)
      throw InvalidArgument("klssKeyFromHybrid: a key polynomial is not in "
                            "NTT form over Q u P");
    Poly<Word> part = cpu::selectLimbs(p, ctx.klssGroupLimbs(group, top));
    cpu::intt(ctx, part);
    // The exact conversion keeps the centred residue: |k| < R_j / 2.
    Poly<Word> lifted = cpu::bconvExact(ctx, part, t);
    cpu::ntt(ctx, lifted);
    return lifted;
  };
  for (int i = 0; i < out.digits; ++i)
    for (int j = 0; j < out.groups; ++j) {
      out.b.push_back(convert(key.b[i], j));
      out.a.push_back(convert(key.a[i], j));
    }
  return out;
}

template <typename Word> size_t hybridKeyBytes(const Context<Word> &ctx) {
  return size_t(ctx.digitCount(ctx.maxLevel())) * 2 * ctx.moduliCount() *
         ctx.n() * sizeof(Word);
}

template <typename Word> size_t klssKeyBytes(const Context<Word> &ctx) {
  if (!ctx.hasKlss())
    return 0;
  return size_t(ctx.digitCount(ctx.maxLevel())) *
         ctx.klssGroupCount(ctx.maxLevel()) * 2 * ctx.tCount() * ctx.n() *
         sizeof(Word);
}

template <typename Word>
BasicKlssRelinKey<Word> BasicKeyGenerator<Word>::klssRelinKey() {
  return BasicKlssRelinKey<Word>{klssKeyFromHybrid(ctx_, relinKey().key)};
}

template <typename Word>
BasicKlssGaloisKeys<Word>
BasicKeyGenerator<Word>::klssGaloisKeys(const std::vector<uint64_t> &elements) {
  BasicKlssGaloisKeys<Word> keys;
  for (uint64_t g : elements)
    if (!keys.has(g))
      keys.keys.emplace(g, klssKeyFromHybrid(ctx_, galoisKey(g)));
  return keys;
}

template <typename Word>
BasicCiphertext<Word>
BasicEncryptor<Word>::encrypt(const BasicPlaintext<Word> &pt,
                              const BasicPublicKey<Word> &pk) const {
  const std::vector<int> basis = ctx_.qBasis(pt.level);
  if (pt.poly.basis != basis || !pt.poly.ntt)
    throw InvalidArgument("encrypt: malformed plaintext");
  Poly<Word> v = nttOfSigned(ctx_, sampleTernary(prng_, ctx_.n()), basis);
  BasicCiphertext<Word> ct;
  ct.level = pt.level;
  ct.scale = pt.scale;
  ct.slots = pt.slots;
  Poly<Word> c0 = nttOfSigned(ctx_, sampleGaussian(prng_, ctx_.n()), basis);
  Poly<Word> c1 = nttOfSigned(ctx_, sampleGaussian(prng_, ctx_.n()), basis);
  scaleByFactor(ctx_, c0, error_factor_);
  scaleByFactor(ctx_, c1, error_factor_);
  Poly<Word> vb = cpu::selectLimbs(pk.b, basis);
  cpu::mulInPlace(ctx_, vb, v);
  Poly<Word> va = cpu::selectLimbs(pk.a, basis);
  cpu::mulInPlace(ctx_, va, v);
  cpu::addInPlace(ctx_, c0, vb);
  cpu::addInPlace(ctx_, c0, pt.poly);
  cpu::addInPlace(ctx_, c1, va);
  ct.c = internal::polys(std::move(c0), std::move(c1));
  return ct;
}

template <typename Word>
BasicCiphertext<Word>
BasicEncryptor<Word>::encryptSymmetric(const BasicPlaintext<Word> &pt,
                                       const BasicSecretKey<Word> &sk) const {
  const std::vector<int> basis = ctx_.qBasis(pt.level);
  if (pt.poly.basis != basis || !pt.poly.ntt)
    throw InvalidArgument("encrypt: malformed plaintext");
  Poly<Word> a = sampleUniformPoly(ctx_, prng_, basis, true);
  Poly<Word> c0 = nttOfSigned(ctx_, sampleGaussian(prng_, ctx_.n()), basis);
  scaleByFactor(ctx_, c0, error_factor_);
  Wiped<Word> s{cpu::selectLimbs(sk.s, basis)}, as{a};
  cpu::mulInPlace(ctx_, as.p, s.p);
  cpu::subInPlace(ctx_, c0, as.p);
  cpu::addInPlace(ctx_, c0, pt.poly);
  BasicCiphertext<Word> ct;
  ct.level = pt.level;
  ct.scale = pt.scale;
  ct.slots = pt.slots;
  ct.c = internal::polys(std::move(c0), std::move(a));
  return ct;
}

template <typename Word>
BasicPlaintext<Word>
BasicDecryptor<Word>::decrypt(const BasicCiphertext<Word> &ct) const {
  if (ct.c.size() < 2 || ct.c.size() > 3)
    throw InvalidArgument("decrypt: a ciphertext has 2 or 3 polynomials, got " +
                          std::to_string(ct.c.size()));
  const std::vector<int> basis = ctx_.qBasis(ct.level);
  Wiped<Word> s{cpu::selectLimbs(sk_.s, basis)};
  BasicPlaintext<Word> pt;
  pt.level = ct.level;
  pt.scale = ct.scale;
  pt.slots = ct.slots;
  pt.poly = ct.c[0];
  Wiped<Word> power{s.p};
  for (size_t i = 1; i < ct.c.size(); ++i) {
    cpu::mulAddInPlace(ctx_, pt.poly, ct.c[i], power.p);
    if (i + 1 < ct.c.size())
      cpu::mulInPlace(ctx_, power.p, s.p);
  }
  return pt;
}

double floodingBits(double noise_bits, double statistical_security,
                    double queries) {
  if (!std::isfinite(noise_bits) || !(statistical_security > 0) ||
      !std::isfinite(statistical_security) || !(queries >= 1) ||
      !std::isfinite(queries))
    throw InvalidArgument("floodingBits: the noise bits must be finite, the "
                          "statistical security positive and the number of "
                          "queries at least 1");
  return noise_bits + statistical_security / 2 +
         std::log2(std::sqrt(12 * queries));
}

template <typename Word>
BasicPlaintext<Word>
BasicDecryptor<Word>::decrypt(const BasicCiphertext<Word> &ct,
                              double flooding_bits, Prng &prng) const {
  const double slot_error_bits =
      flooding_bits + 0.5 * std::log2(static_cast<double>(ct.slots)) -
      std::log2(ct.scale);
  if (!std::isfinite(flooding_bits) || flooding_bits < 0 ||
      flooding_bits > 59 || !(slot_error_bits < 0)) {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "decrypt: %g flooding bits is outside 0..59 or leaves no "
                  "precision: each slot would get an error of 2^%.1f "
                  "(2^flooding_bits sqrt(slots) / scale, %zu slots at scale "
                  "2^%.1f); lower the flooding bits or raise the scale",
                  flooding_bits, slot_error_bits, ct.slots,
                  std::log2(ct.scale));
    throw InvalidArgument(buf);
  }
  BasicPlaintext<Word> pt = decrypt(ct);
  Wiped<Word> flood{nttOfSigned(
      ctx_, sampleWideGaussian(prng, ctx_.n(), std::exp2(flooding_bits)),
      pt.poly.basis)};
  cpu::addInPlace(ctx_, pt.poly, flood.p);
  return pt;
}

template struct BasicSecretKey<uint32_t>;
template struct BasicSecretKey<uint64_t>;
template class BasicKeyGenerator<uint32_t>;
template class BasicKeyGenerator<uint64_t>;
template class BasicEncryptor<uint32_t>;
template class BasicEncryptor<uint64_t>;
template class BasicDecryptor<uint32_t>;
template class BasicDecryptor<uint64_t>;
#define EMBER_KEYS_FUNCTIONS(W)                                                \
  template uint64_t galoisElementForRotation(const Context<W> &, int64_t,      \
                                             size_t);                          \
  template uint64_t galoisElementForConjugation(const Context<W> &);           \
  template BasicKlssKey<W> klssKeyFromHybrid(const Context<W> &,               \
                                             const BasicSwitchingKey<W> &);    \
  template size_t hybridKeyBytes(const Context<W> &);                          \
  template size_t klssKeyBytes(const Context<W> &);
EMBER_KEYS_FUNCTIONS(uint32_t)
EMBER_KEYS_FUNCTIONS(uint64_t)
#undef EMBER_KEYS_FUNCTIONS

} // namespace ember
