// BFV encoding (Delta m and the centred multiplier form), decryption by an
// exact scale-and-round from the residues, and the invariant noise budget.
#include "ember/bfv.h"
#include "ember/errors.h"
#include "ember/rns.h"
#include "internal.h"

#include <cmath>

namespace ember {

template <typename Word>
BasicBfvEncoder<Word>::BasicBfvEncoder(const Context<Word> &ctx, uint64_t t)
    : ctx_(ctx), slots_(ctx, t), t_(static_cast<Word>(t)) {
  const std::vector<int> q = ctx.qBasis(ctx.maxLevel());
  Word q_mod_t = 1;
  std::vector<uint64_t> primes;
  for (size_t i = 0; i < q.size(); ++i) {
    const Modulus<Word> &qi = ctx.modulus(q[i]);
    Word hat = 1; // Q / q_i mod q_i
    for (size_t j = 0; j < q.size(); ++j)
      if (j != i)
        hat = qi.mul(hat,
                     static_cast<Word>(ctx.modulus(q[j]).value() % qi.value()));
    const Word c =
        qi.mul(static_cast<Word>(t % qi.value()), qi.inv(hat)); // t w_i
    c_.push_back(c);
    // floor(t w_i / q_i) = (t w_i - c_i) / q_i = -c_i q_i^-1 (mod t).
    const Word qi_t = static_cast<Word>(qi.value() % t);
    floor_t_.push_back(t_.mul(t_.neg(static_cast<Word>(c % t)), t_.inv(qi_t)));
    delta_q_.push_back(qi.inv(static_cast<Word>(t % qi.value())));
    q_mod_t = t_.mul(q_mod_t, qi_t);
    primes.push_back(static_cast<uint64_t>(qi.value()));
  }
  neg_q_mod_t_ = t_.neg(q_mod_t);
  delta_ = bgv::bfvDelta(primes, t);
}

template <typename Word>
BasicPlaintext<Word>
BasicBfvEncoder<Word>::encode(const std::vector<int64_t> &values,
                              size_t slots) const {
  // ceil(Q m / t) = (Q m + [-Q m]_t) / t = [-Q m]_t t^-1 (mod q_i).
  const std::vector<uint64_t> m = slots_.encodeCoefficients(values, slots);
  const std::vector<int> q = ctx_.qBasis(ctx_.maxLevel());
  BasicPlaintext<Word> pt;
  pt.poly = Poly<Word>(q, ctx_.n(), false);
  for (size_t i = 0; i < q.size(); ++i) {
    const Modulus<Word> &qi = ctx_.modulus(q[i]);
    const Word w = delta_q_[i], w_shoup = qi.shoup(w);
    Word *dst = pt.poly.limb(i);
    for (size_t k = 0; k < m.size(); ++k)
      dst[k] = qi.mulShoup(t_.mul(neg_q_mod_t_, static_cast<Word>(m[k])), w,
                           w_shoup);
  }
  cpu::ntt(ctx_, pt.poly);
  pt.level = ctx_.maxLevel();
  pt.scale = delta_;
  pt.slots = slots;
  return pt;
}

template <typename Word>
std::vector<Word> BasicBfvEncoder<Word>::scaledConstant(int64_t c) const {
  const std::vector<int> q = ctx_.qBasis(ctx_.maxLevel());
  const Word m = static_cast<Word>(bgv::reduceSigned(c, t_.value()));
  const Word top = t_.mul(neg_q_mod_t_, m); // [-Q c]_t
  std::vector<Word> out;
  for (size_t i = 0; i < q.size(); ++i) {
    const Modulus<Word> &qi = ctx_.modulus(q[i]);
    out.push_back(qi.mul(qi.reduceWord(top), delta_q_[i]));
  }
  return out;
}

template <typename Word>
BasicPlaintext<Word>
BasicBfvEncoder<Word>::encodeMultiplier(const std::vector<int64_t> &values,
                                        size_t slots) const {
  BasicPlaintext<Word> pt = slots_.encode(values, ctx_.maxLevel(), slots, 1);
  pt.scale = 1;
  return pt;
}

template <typename Word>
std::vector<uint64_t>
BasicBfvEncoder<Word>::scaleAndRound(const BasicPlaintext<Word> &pt) const {
  Poly<Word> x = pt.poly;
  if (x.basis != ctx_.qBasis(ctx_.maxLevel()))
    throw LevelMismatch("BFV decryption needs the full modulus Q");
  if (x.ntt)
    cpu::intt(ctx_, x);
  const size_t k = x.limbs(), n = x.n;
  std::vector<uint64_t> q(k), c(c_.begin(), c_.end()), cs(k), xs(k), quo(k);
  for (size_t i = 0; i < k; ++i) {
    q[i] = ctx_.modulus(x.basis[i]).value();
    cs[i] = ctx_.modulus(x.basis[i]).shoup(c_[i]);
  }
  std::vector<uint64_t> m(n);
  for (size_t j = 0; j < n; ++j) {
    for (size_t i = 0; i < k; ++i)
      xs[i] = x.limb(i)[j];
    const uint64_t alpha = internal::quotientsAndRoundedFraction(
        xs.data(), c.data(), cs.data(), q.data(), k, quo.data());
    Word sum = static_cast<Word>(alpha % t_.value());
    for (size_t i = 0; i < k; ++i)
      sum = t_.add(t_.add(sum, t_.mul(static_cast<Word>(xs[i] % t_.value()),
                                      floor_t_[i])),
                   static_cast<Word>(quo[i] % t_.value()));
    m[j] = sum;
  }
  return m;
}

template <typename Word>
std::vector<uint64_t>
BasicBfvEncoder<Word>::decode(const BasicPlaintext<Word> &pt) const {
  return slots_.decodeCoefficients(scaleAndRound(pt), pt.slots);
}

template <typename Word>
int BasicBfvEncoder<Word>::noiseBudget(const BasicPlaintext<Word> &pt) const {
  BasicPlaintext<Word> scaled = pt;
  std::vector<Word> t_mod;
  for (int index : pt.poly.basis)
    t_mod.push_back(
        static_cast<Word>(t_.value() % ctx_.modulus(index).value()));
  cpu::mulConstInPlace(ctx_, scaled.poly, t_mod);
  scaled.scale = 1;
  return slots_.noiseBudget(scaled);
}

template class BasicBfvEncoder<uint64_t>;

} // namespace ember
