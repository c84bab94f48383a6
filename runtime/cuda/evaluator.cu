// CKKS evaluation on device ciphertexts: the operations of the CPU
// Evaluator (runtime/cpu/evaluator.cpp), op for op, on the fused kernels, at
// either word (BasicEvaluator<W>, hybrid and KLSS key switching).
// Key switching: ModUp of all digits (one INTT, one BConv, one NTT launch
// for every digit at once), one inner product fused over the digits, one
// ModDown of both accumulators whose final NTT also subtracts, scales by
// P^-1 and adds the ciphertext part (relinearize, rotate).
// KLSS key switching (Athena 2.3) has the same shape: the same INTT of d,
// one exact BConv launch of every digit to T and one NTT over T, one inner
// product over T for every key group, one INTT over T and one exact BConv
// launch back to Q_l u P for both accumulators, one ModDown kernel in
// coefficient form and one NTT that adds the ciphertext part.
#include "../core/checks.h"
#include "../core/internal.h"
#include "ember/bgv_cuda.h"
#include "internal.cuh"

#include <climits>
#include <cmath>
#include <type_traits>

namespace ember::cuda {

namespace {

template <typename W>
checks::Operand operand(const BasicDeviceCiphertext<W> &c) {
  return {c.level, c.scale, c.slots, c.degree()};
}
template <typename W>
checks::Operand operand(const BasicDevicePlaintext<W> &p) {
  return {p.level, p.scale, p.slots, 0};
}

template <typename W>
BasicDeviceCiphertext<W> like(const DeviceContext &ctx,
                              const BasicDeviceCiphertext<W> &a, int parts,
                              int level) {
  BasicDeviceCiphertext<W> out;
  out.parts = parts;
  out.level = level;
  out.scale = a.scale;
  out.slots = a.slots;
  out.n = ctx.impl().n;
  out.buf = residueBuffer<W>(ctx, size_t(parts) * out.limbs() * out.n);
  return out;
}

template <typename W> ModMap qMap(const BasicDeviceCiphertext<W> &a) {
  return ModMap{int(a.limbs()), a.level, 0};
}

template <typename W> int rowsOf(const BasicDeviceCiphertext<W> &a) {
  return a.parts * int(a.limbs());
}

template <typename W>
BasicDeviceCiphertext<W> clone(const DeviceContext &ctx,
                               const BasicDeviceCiphertext<W> &a) {
  BasicDeviceCiphertext<W> out = like(ctx, a, a.parts, a.level);
  EMBER_CUDA_CHECK(
      cudaMemcpyAsync(out.data(), a.data(), size_t(rowsOf(a)) * a.n * sizeof(W),
                      cudaMemcpyDeviceToDevice, ctx.impl().stream));
  return out;
}

/// Residues of the integer round(value) over q_0..q_level, as launchConstOp
/// takes them.
template <typename W>
std::vector<u64> constResidues(const DeviceContext &ctx, double value,
                               int level) {
  const Context<W> &h = hostOf<W>(ctx);
  const std::vector<W> r =
      internal::integerResidues(h, std::round(value), h.qBasis(level));
  return std::vector<u64>(r.begin(), r.end());
}

} // namespace

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::add(const Ct &a,
                                                const Ct &b) const {
  checks::binary(operand(a), operand(b), "add");
  const Ct &big = a.parts >= b.parts ? a : b;
  const Ct &small = a.parts >= b.parts ? b : a;
  Ct out = like(ctx_, big, big.parts, big.level);
  launchElementwise(ctx_, EwOp::kAdd, out.data(), big.data(), rowsOf(big),
                    small.data(), rowsOf(small), INT_MAX, rowsOf(big), qMap(a));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::sub(const Ct &a,
                                                const Ct &b) const {
  checks::binary(operand(a), operand(b), "sub");
  Ct out = like(ctx_, a, std::max(a.parts, b.parts), a.level);
  launchElementwise(ctx_, EwOp::kSub, out.data(), a.data(), rowsOf(a), b.data(),
                    rowsOf(b), INT_MAX, rowsOf(out), qMap(a));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::negate(const Ct &a) const {
  Ct out = like(ctx_, a, a.parts, a.level);
  launchElementwise(ctx_, EwOp::kNeg, out.data(), a.data(), rowsOf(a),
                    static_cast<const W *>(nullptr), 0, 1, rowsOf(a), qMap(a));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::addPlain(const Ct &a,
                                                     const Pt &p) const {
  checks::plain(operand(a), operand(p), "add_plain", true);
  Ct out = like(ctx_, a, a.parts, a.level);
  const int limbs = int(a.limbs());
  launchElementwise(ctx_, EwOp::kAdd, out.data(), a.data(), rowsOf(a), p.data(),
                    limbs, limbs, rowsOf(a), qMap(a));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::subPlain(const Ct &a,
                                                     const Pt &p) const {
  checks::plain(operand(a), operand(p), "sub_plain", true);
  Ct out = like(ctx_, a, a.parts, a.level);
  const int limbs = int(a.limbs());
  launchElementwise(ctx_, EwOp::kSub, out.data(), a.data(), rowsOf(a), p.data(),
                    limbs, limbs, rowsOf(a), qMap(a));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::mulPlain(const Ct &a,
                                                     const Pt &p) const {
  checks::plain(operand(a), operand(p), "mul_plain", false);
  Ct out = like(ctx_, a, a.parts, a.level);
  launchElementwise(ctx_, EwOp::kMul, out.data(), a.data(), rowsOf(a), p.data(),
                    rowsOf(a), int(a.limbs()), rowsOf(a), qMap(a));
  out.scale = a.scale * p.scale;
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::addConst(const Ct &a,
                                                     double c) const {
  Ct out = like(ctx_, a, a.parts, a.level);
  launchConstOp(ctx_, false, out.data(), a.data(),
                constResidues<W>(ctx_, c * a.scale, a.level), int(a.limbs()),
                rowsOf(a), qMap(a));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::mulConst(const Ct &a, double c,
                                                     double const_scale) const {
  if (const_scale == 0)
    const_scale = internal::rescaleDivisor(hostOf<W>(ctx_), a.level);
  checks::mulConstScale(const_scale);
  Ct out = like(ctx_, a, a.parts, a.level);
  launchConstOp(ctx_, true, out.data(), a.data(),
                constResidues<W>(ctx_, c * const_scale, a.level), rowsOf(a),
                rowsOf(a), qMap(a));
  out.scale = a.scale * const_scale;
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::multiply(const Ct &a,
                                                     const Ct &b) const {
  checks::multiply(operand(a), operand(b));
  Ct out = like(ctx_, a, 3, a.level);
  out.scale = a.scale * b.scale;
  launchTensor(ctx_, out.data(), a.data(), b.data(), int(a.limbs()));
  return out;
}

namespace {

// Key switching with either kind of key: keySwitchInto is overloaded on the
// key (hybrid, KLSS), so each operation is written once.

template <typename W, typename Key>
BasicDeviceCiphertext<W> relinearizeWith(const DeviceContext &ctx,
                                         const BasicDeviceCiphertext<W> &a,
                                         const Key &key, uint64_t t) {
  checks::relinearize(a.degree(), key.digits != 0);
  if (a.degree() == 1)
    return clone(ctx, a);
  BasicDeviceCiphertext<W> out = like(ctx, a, 2, a.level);
  keySwitchInto(ctx, a.part(2), a.level, key, out.data(), a.data(), 2,
                int(a.limbs()), t);
  return out;
}

/// Both parts permuted in one launch, then c0' = aut(c0) + k0, c1' = k1 with
/// the addition fused into key switching's last NTT.
template <typename W, typename Keys>
BasicDeviceCiphertext<W> galoisWith(const DeviceContext &ctx,
                                    const BasicDeviceCiphertext<W> &a,
                                    uint64_t galois, const Keys &keys,
                                    const std::string &what, uint64_t t) {
  if (galois == 1)
    return clone(ctx, a);
  checks::galois(a.degree(), keys.has(galois), galois, what);
  BasicDeviceCiphertext<W> rotated = like(ctx, a, 2, a.level);
  launchAutomorphism(ctx, rotated.data(), a.data(), rowsOf(a),
                     ctx.impl().galoisIndex(ctx, galois));
  BasicDeviceCiphertext<W> out = like(ctx, a, 2, a.level);
  keySwitchInto(ctx, rotated.part(1), a.level, keys.keys.at(galois), out.data(),
                rotated.data(), 1, int(a.limbs()), t);
  return out;
}

template <typename W, typename Key>
std::pair<BasicDevicePoly<W>, BasicDevicePoly<W>>
keySwitchWith(const DeviceContext &ctx, const BasicDevicePoly<W> &d,
              const Key &key, uint64_t t) {
  if (!d.ntt)
    throw InvalidArgument("keySwitch needs an NTT-form polynomial");
  const int level = int(d.limbs()) - 1;
  if (level < 0 || d.basis != hostOf<W>(ctx).qBasis(level))
    throw InvalidArgument("keySwitch: d must be over q_0..q_level");
  const size_t part = d.limbs() * d.n;
  DeviceBuffer out = residueBuffer<W>(ctx, 2 * part);
  keySwitchInto(ctx, d.data(), level, key, residues<W>(out),
                static_cast<const W *>(nullptr), 0, 0, t);
  std::pair<BasicDevicePoly<W>, BasicDevicePoly<W>> res;
  for (int p = 0; p < 2; ++p) {
    BasicDevicePoly<W> &r = p == 0 ? res.first : res.second;
    r.basis = d.basis;
    r.n = d.n;
    r.ntt = true;
    r.buf = residueBuffer<W>(ctx, part);
    EMBER_CUDA_CHECK(cudaMemcpyAsync(r.data(), residues<W>(out) + p * part,
                                     part * sizeof(W), cudaMemcpyDeviceToDevice,
                                     ctx.impl().stream));
  }
  return res;
}

} // namespace

template <typename W>
BasicDeviceCiphertext<W>
BasicEvaluator<W>::relinearize(const Ct &a,
                               const BasicDeviceRelinKey<W> &rk) const {
  return relinearizeWith(ctx_, a, rk.key, plain_modulus_);
}

template <typename W>
BasicDeviceCiphertext<W>
BasicEvaluator<W>::relinearize(const Ct &a,
                               const BasicDeviceKlssRelinKey<W> &rk) const {
  return relinearizeWith(ctx_, a, rk.key, plain_modulus_);
}

template <typename W>
BasicDeviceCiphertext<W>
BasicEvaluator<W>::multiplyRelin(const Ct &a, const Ct &b,
                                 const BasicDeviceRelinKey<W> &rk) const {
  return relinearize(multiply(a, b), rk);
}

template <typename W>
BasicDeviceCiphertext<W>
BasicEvaluator<W>::multiplyRelin(const Ct &a, const Ct &b,
                                 const BasicDeviceKlssRelinKey<W> &rk) const {
  return relinearize(multiply(a, b), rk);
}

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::rescale(const Ct &a) const {
  const Context<W> &h = hostOf<W>(ctx_);
  const int primes = h.scalePrimes();
  checks::rescale(a.level, primes);
  Ct out = like(ctx_, a, a.parts, a.level - primes);
  if (primes == 1)
    rescaleParts(ctx_, a.data(), a.parts, a.level, out.data());
  else // double-prime scaling: one switch Q_l -> Q_{l-2} of every part
    switchDownParts(ctx_, a.data(), a.parts, a.level, a.level + 1 - primes,
                    out.data());
  out.scale = a.scale / internal::rescaleDivisor(h, a.level);
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicEvaluator<W>::modDropTo(const Ct &a,
                                                      int level) const {
  checks::modDrop(a.level, level);
  Ct out = like(ctx_, a, a.parts, level);
  const size_t n = a.n;
  EMBER_CUDA_CHECK(
      cudaMemcpy2DAsync(out.data(), out.limbs() * n * sizeof(W), a.data(),
                        a.limbs() * n * sizeof(W), out.limbs() * n * sizeof(W),
                        a.parts, cudaMemcpyDeviceToDevice, ctx_.impl().stream));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W>
BasicEvaluator<W>::applyGalois(const Ct &a, uint64_t galois,
                               const BasicDeviceGaloisKeys<W> &keys) const {
  return galoisWith(ctx_, a, galois, keys, "", plain_modulus_);
}

template <typename W>
BasicDeviceCiphertext<W>
BasicEvaluator<W>::applyGalois(const Ct &a, uint64_t galois,
                               const BasicDeviceKlssGaloisKeys<W> &keys) const {
  return galoisWith(ctx_, a, galois, keys, "", plain_modulus_);
}

template <typename W>
BasicDeviceCiphertext<W>
BasicEvaluator<W>::rotate(const Ct &a, int64_t k,
                          const BasicDeviceGaloisKeys<W> &keys) const {
  return galoisWith(ctx_, a,
                    galoisElementForRotation(hostOf<W>(ctx_), k, a.slots), keys,
                    "a rotation by " + std::to_string(k), plain_modulus_);
}

template <typename W>
BasicDeviceCiphertext<W>
BasicEvaluator<W>::rotate(const Ct &a, int64_t k,
                          const BasicDeviceKlssGaloisKeys<W> &keys) const {
  return galoisWith(ctx_, a,
                    galoisElementForRotation(hostOf<W>(ctx_), k, a.slots), keys,
                    "a rotation by " + std::to_string(k), plain_modulus_);
}

template <typename W>
BasicDeviceCiphertext<W>
BasicEvaluator<W>::conjugate(const Ct &a,
                             const BasicDeviceGaloisKeys<W> &keys) const {
  return galoisWith(ctx_, a, galoisElementForConjugation(hostOf<W>(ctx_)), keys,
                    "conjugation", plain_modulus_);
}

template <typename W>
BasicDeviceCiphertext<W>
BasicEvaluator<W>::conjugate(const Ct &a,
                             const BasicDeviceKlssGaloisKeys<W> &keys) const {
  return galoisWith(ctx_, a, galoisElementForConjugation(hostOf<W>(ctx_)), keys,
                    "conjugation", plain_modulus_);
}

template <typename W>
std::pair<BasicDevicePoly<W>, BasicDevicePoly<W>>
BasicEvaluator<W>::keySwitch(const Poly &d,
                             const BasicDeviceSwitchingKey<W> &key) const {
  return keySwitchWith(ctx_, d, key, plain_modulus_);
}

template <typename W>
std::pair<BasicDevicePoly<W>, BasicDevicePoly<W>>
BasicEvaluator<W>::keySwitch(const Poly &d,
                             const BasicDeviceKlssKey<W> &key) const {
  return keySwitchWith(ctx_, d, key, plain_modulus_);
}

template class BasicEvaluator<u64>;
template class BasicEvaluator<u32>;

// --- BGV --------------------------------------------------------------------

template <typename W>
BasicBgvEvaluator<W>::BasicBgvEvaluator(const DeviceContext &ctx, uint64_t t)
    : ctx_(ctx), t_(t), base_(ctx, t) {
  bgv::checkPlainModulus(hostOf<W>(ctx), t);
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::scaled(const Ct &a,
                                                      uint64_t c) const {
  const std::vector<W> r = bgv::centredResidues(
      hostOf<W>(ctx_), t_, c, hostOf<W>(ctx_).qBasis(a.level));
  Ct out = like(ctx_, a, a.parts, a.level);
  launchConstOp(ctx_, true, out.data(), a.data(),
                std::vector<u64>(r.begin(), r.end()), rowsOf(a), rowsOf(a),
                qMap(a));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::modSwitch(const Ct &a) const {
  const uint64_t mu = bgv::factorOf(a.scale, t_);
  checks::rescale(a.level, 1);
  Ct out = like(ctx_, a, a.parts, a.level - 1);
  switchDownParts(ctx_, a.data(), a.parts, a.level, a.level, out.data(), t_);
  out.scale = static_cast<double>(
      bgv::switchedFactor(hostOf<W>(ctx_), mu, a.level, t_));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::modSwitchTo(const Ct &a,
                                                           int level) const {
  checks::modDrop(a.level, level);
  Ct out = clone(ctx_, a);
  while (out.level > level)
    out = modSwitch(out);
  return out;
}

/// op(x, y) on a and b brought to a common level (the lower) and, with
/// `factors`, a common factor (a's, b scaled by mu_a / mu_b), as the CPU's
/// align.
template <typename W>
template <typename Op>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::aligned(const Ct &a, const Ct &b,
                                                       bool factors,
                                                       const Op &op) const {
  Ct a_low, b_low, b_scaled;
  const Ct *x = &a, *y = &b;
  if (a.level > b.level) {
    a_low = modSwitchTo(a, b.level);
    x = &a_low;
  } else if (b.level > a.level) {
    b_low = modSwitchTo(b, a.level);
    y = &b_low;
  }
  const uint64_t fx = bgv::factorOf(x->scale, t_);
  const uint64_t fy = bgv::factorOf(y->scale, t_);
  if (factors && fx != fy) {
    b_scaled = scaled(*y, bgv::mulMod(fx, bgv::invMod(fy, t_), t_));
    b_scaled.scale = x->scale;
    y = &b_scaled;
  }
  return op(*x, *y);
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::add(const Ct &a,
                                                   const Ct &b) const {
  return aligned(a, b, true,
                 [&](const Ct &x, const Ct &y) { return base_.add(x, y); });
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::sub(const Ct &a,
                                                   const Ct &b) const {
  return aligned(a, b, true,
                 [&](const Ct &x, const Ct &y) { return base_.sub(x, y); });
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::negate(const Ct &a) const {
  bgv::factorOf(a.scale, t_);
  return base_.negate(a);
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::addPlain(const Ct &a,
                                                        const Pt &p) const {
  bgv::factorOf(a.scale, t_);
  bgv::checkAddedFactor(a.scale, p.scale, "addPlain");
  return base_.addPlain(a, p);
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::subPlain(const Ct &a,
                                                        const Pt &p) const {
  bgv::factorOf(a.scale, t_);
  bgv::checkAddedFactor(a.scale, p.scale, "subPlain");
  return base_.subPlain(a, p);
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::mulPlain(const Ct &a,
                                                        const Pt &p) const {
  const uint64_t fa = bgv::factorOf(a.scale, t_);
  const uint64_t fp = bgv::factorOf(p.scale, t_);
  Ct out = base_.mulPlain(a, p);
  out.scale = static_cast<double>(bgv::mulMod(fa, fp, t_));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::mulInt(const Ct &a,
                                                      int64_t c) const {
  bgv::factorOf(a.scale, t_);
  return scaled(a, bgv::reduceSigned(c, t_));
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::addInt(const Ct &a,
                                                      int64_t c) const {
  const uint64_t mu = bgv::factorOf(a.scale, t_);
  const std::vector<W> r = bgv::centredResidues(
      hostOf<W>(ctx_), t_, bgv::mulMod(bgv::reduceSigned(c, t_), mu, t_),
      hostOf<W>(ctx_).qBasis(a.level));
  Ct out = like(ctx_, a, a.parts, a.level);
  launchConstOp(ctx_, false, out.data(), a.data(),
                std::vector<u64>(r.begin(), r.end()), int(a.limbs()), rowsOf(a),
                qMap(a));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W> BasicBgvEvaluator<W>::multiply(const Ct &a,
                                                        const Ct &b) const {
  return aligned(a, b, false, [&](const Ct &x, const Ct &y) {
    Ct out = base_.multiply(x, y);
    out.scale = static_cast<double>(bgv::mulMod(
        bgv::factorOf(x.scale, t_), bgv::factorOf(y.scale, t_), t_));
    return out;
  });
}

template <typename W>
BasicDeviceCiphertext<W>
BasicBgvEvaluator<W>::relinearize(const Ct &a,
                                  const BasicDeviceRelinKey<W> &rk) const {
  bgv::factorOf(a.scale, t_);
  return base_.relinearize(a, rk);
}

/// The CPU's merged form: the inner product of d_2's digits with the key
/// over Q_l u P, then one t-corrected switch of acc_i + P d_i down by P q_l
/// (modSwitchDown with lifted addends: d_i's P multiple read in place).
template <typename W>
BasicDeviceCiphertext<W>
BasicBgvEvaluator<W>::multiplyRelin(const Ct &a, const Ct &b,
                                    const BasicDeviceRelinKey<W> &rk) const {
  const Ct d = multiply(a, b);
  const uint64_t mu = bgv::factorOf(d.scale, t_);
  checks::rescale(d.level, 1);
  checks::relinearize(d.degree(), rk.key.digits != 0);
  const Context<W> &h = hostOf<W>(ctx_);
  const int level = d.level;
  const size_t n = d.n;
  auto view = [&](W *data, std::vector<int> basis) {
    BasicDevicePoly<W> p;
    p.basis = std::move(basis);
    p.n = n;
    p.ntt = true;
    p.buf =
        DeviceBuffer::borrow(reinterpret_cast<u64 *>(data),
                             BasicDevicePoly<W>::wordsFor(p.basis.size() * n));
    return p;
  };
  auto fresh = [&](std::vector<int> basis) {
    BasicDevicePoly<W> p;
    p.n = n;
    p.ntt = true;
    p.buf = DeviceBuffer(ctx_, BasicDevicePoly<W>::wordsFor(basis.size() * n));
    p.basis = std::move(basis);
    return p;
  };
  const std::vector<int> q = h.qBasis(level), qp = h.qpBasis(level);
  const BasicDevicePoly<W> d0 = view(d.part(0), q), d1 = view(d.part(1), q),
                           d2 = view(d.part(2), q);
  const int digits = h.digitCount(level);
  std::vector<BasicDevicePoly<W>> ext;
  std::vector<BasicDevicePoly<W> *> outs;
  std::vector<const BasicDevicePoly<W> *> ins;
  std::vector<int> which;
  for (int j = 0; j < digits; ++j) {
    ext.push_back(fresh(qp));
    which.push_back(j);
  }
  for (auto &e : ext) {
    outs.push_back(&e);
    ins.push_back(&e);
  }
  modUp(ctx_, d2, which, outs, Scratch{});
  BasicDevicePoly<W> acc0 = fresh(qp), acc1 = fresh(qp);
  keySwitchInnerProduct(ctx_, rk.key, ins, acc0, acc1);
  Ct out = like(ctx_, d, 2, level - 1);
  BasicDevicePoly<W> o0 = view(out.part(0), h.qBasis(level - 1)),
                     o1 = view(out.part(1), h.qBasis(level - 1));
  const std::vector<const BasicDevicePoly<W> *> in{&acc0, &acc1},
      lifted{&d0, &d1};
  const std::vector<BasicDevicePoly<W> *> outs2{&o0, &o1};
  modSwitchDown(ctx_, in, lifted, outs2, Scratch{}, t_);
  out.scale = static_cast<double>(bgv::switchedFactor(h, mu, level, t_));
  return out;
}

template <typename W>
BasicDeviceCiphertext<W>
BasicBgvEvaluator<W>::rotate(const Ct &a, int64_t k,
                             const BasicDeviceGaloisKeys<W> &keys) const {
  bgv::factorOf(a.scale, t_);
  return base_.rotate(a, k, keys);
}

template <typename W>
BasicDeviceCiphertext<W>
BasicBgvEvaluator<W>::normalizeFactor(const Ct &a) const {
  const uint64_t mu = bgv::factorOf(a.scale, t_);
  if (mu == 1)
    return clone(ctx_, a);
  Ct out = scaled(a, bgv::invMod(mu, t_));
  out.scale = 1;
  return out;
}

template class BasicBgvEvaluator<u64>;
template class BasicBgvEvaluator<u32>;

} // namespace ember::cuda
