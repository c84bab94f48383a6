// CKKS evaluation on device ciphertexts: the operations of the CPU
// Evaluator (runtime/cpu/evaluator.cpp), op for op, on the fused kernels.
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
#include "internal.cuh"

#include <climits>
#include <cmath>

namespace ember::cuda {

namespace {

checks::Operand operand(const DeviceCiphertext &c) {
  return {c.level, c.scale, c.slots, c.degree()};
}
checks::Operand operand(const DevicePlaintext &p) {
  return {p.level, p.scale, p.slots, 0};
}

DeviceCiphertext like(const DeviceContext &ctx, const DeviceCiphertext &a,
                      int parts, int level) {
  DeviceCiphertext out;
  out.parts = parts;
  out.level = level;
  out.scale = a.scale;
  out.slots = a.slots;
  out.n = ctx.host().n();
  out.buf = DeviceBuffer(ctx, size_t(parts) * out.limbs() * out.n);
  return out;
}

ModMap qMap(const DeviceCiphertext &a) {
  return ModMap{int(a.limbs()), a.level, 0};
}

int rowsOf(const DeviceCiphertext &a) { return a.parts * int(a.limbs()); }

DeviceCiphertext clone(const DeviceContext &ctx, const DeviceCiphertext &a) {
  DeviceCiphertext out = like(ctx, a, a.parts, a.level);
  EMBER_CUDA_CHECK(
      cudaMemcpyAsync(out.buf.data(), a.buf.data(), size_t(rowsOf(a)) * a.n * 8,
                      cudaMemcpyDeviceToDevice, ctx.impl().stream));
  return out;
}

} // namespace

DeviceCiphertext Evaluator::add(const DeviceCiphertext &a,
                                const DeviceCiphertext &b) const {
  checks::binary(operand(a), operand(b), "add");
  const DeviceCiphertext &big = a.parts >= b.parts ? a : b;
  const DeviceCiphertext &small = a.parts >= b.parts ? b : a;
  DeviceCiphertext out = like(ctx_, big, big.parts, big.level);
  launchElementwise(ctx_, EwOp::kAdd, out.buf.data(), big.buf.data(),
                    rowsOf(big), small.buf.data(), rowsOf(small), INT_MAX,
                    rowsOf(big), qMap(a));
  return out;
}

DeviceCiphertext Evaluator::sub(const DeviceCiphertext &a,
                                const DeviceCiphertext &b) const {
  checks::binary(operand(a), operand(b), "sub");
  DeviceCiphertext out = like(ctx_, a, std::max(a.parts, b.parts), a.level);
  launchElementwise(ctx_, EwOp::kSub, out.buf.data(), a.buf.data(), rowsOf(a),
                    b.buf.data(), rowsOf(b), INT_MAX, rowsOf(out), qMap(a));
  return out;
}

DeviceCiphertext Evaluator::negate(const DeviceCiphertext &a) const {
  DeviceCiphertext out = like(ctx_, a, a.parts, a.level);
  launchElementwise(ctx_, EwOp::kNeg, out.buf.data(), a.buf.data(), rowsOf(a),
                    nullptr, 0, 1, rowsOf(a), qMap(a));
  return out;
}

DeviceCiphertext Evaluator::addPlain(const DeviceCiphertext &a,
                                     const DevicePlaintext &p) const {
  checks::plain(operand(a), operand(p), "add_plain", true);
  DeviceCiphertext out = like(ctx_, a, a.parts, a.level);
  const int limbs = int(a.limbs());
  launchElementwise(ctx_, EwOp::kAdd, out.buf.data(), a.buf.data(), rowsOf(a),
                    p.buf.data(), limbs, limbs, rowsOf(a), qMap(a));
  return out;
}

DeviceCiphertext Evaluator::subPlain(const DeviceCiphertext &a,
                                     const DevicePlaintext &p) const {
  checks::plain(operand(a), operand(p), "sub_plain", true);
  DeviceCiphertext out = like(ctx_, a, a.parts, a.level);
  const int limbs = int(a.limbs());
  launchElementwise(ctx_, EwOp::kSub, out.buf.data(), a.buf.data(), rowsOf(a),
                    p.buf.data(), limbs, limbs, rowsOf(a), qMap(a));
  return out;
}

DeviceCiphertext Evaluator::mulPlain(const DeviceCiphertext &a,
                                     const DevicePlaintext &p) const {
  checks::plain(operand(a), operand(p), "mul_plain", false);
  DeviceCiphertext out = like(ctx_, a, a.parts, a.level);
  launchElementwise(ctx_, EwOp::kMul, out.buf.data(), a.buf.data(), rowsOf(a),
                    p.buf.data(), rowsOf(a), int(a.limbs()), rowsOf(a),
                    qMap(a));
  out.scale = a.scale * p.scale;
  return out;
}

DeviceCiphertext Evaluator::addConst(const DeviceCiphertext &a,
                                     double c) const {
  DeviceCiphertext out = like(ctx_, a, a.parts, a.level);
  const std::vector<Word64> residues = internal::integerResidues(
      ctx_.host(), std::round(c * a.scale), ctx_.host().qBasis(a.level));
  launchConstOp(ctx_, false, out.buf.data(), a.buf.data(), residues,
                int(a.limbs()), rowsOf(a), qMap(a));
  return out;
}

DeviceCiphertext Evaluator::mulConst(const DeviceCiphertext &a, double c,
                                     double const_scale) const {
  if (const_scale == 0)
    const_scale = static_cast<double>(ctx_.host().primes()[a.level]);
  checks::mulConstScale(const_scale);
  DeviceCiphertext out = like(ctx_, a, a.parts, a.level);
  const std::vector<Word64> residues = internal::integerResidues(
      ctx_.host(), std::round(c * const_scale), ctx_.host().qBasis(a.level));
  launchConstOp(ctx_, true, out.buf.data(), a.buf.data(), residues, rowsOf(a),
                rowsOf(a), qMap(a));
  out.scale = a.scale * const_scale;
  return out;
}

DeviceCiphertext Evaluator::multiply(const DeviceCiphertext &a,
                                     const DeviceCiphertext &b) const {
  checks::multiply(operand(a), operand(b));
  DeviceCiphertext out = like(ctx_, a, 3, a.level);
  out.scale = a.scale * b.scale;
  launchTensor(ctx_, out.buf.data(), a.buf.data(), b.buf.data(),
               int(a.limbs()));
  return out;
}

namespace {

// Key switching with either kind of key: keySwitchInto is overloaded on the
// key (hybrid, KLSS), so each operation is written once.

template <typename Key>
DeviceCiphertext relinearizeWith(const DeviceContext &ctx,
                                 const DeviceCiphertext &a, const Key &key) {
  checks::relinearize(a.degree(), key.digits != 0);
  if (a.degree() == 1)
    return clone(ctx, a);
  DeviceCiphertext out = like(ctx, a, 2, a.level);
  keySwitchInto(ctx, a.part(2), a.level, key, out.buf.data(), a.buf.data(), 2,
                int(a.limbs()));
  return out;
}

/// Both parts permuted in one launch, then c0' = aut(c0) + k0, c1' = k1 with
/// the addition fused into key switching's last NTT.
template <typename Keys>
DeviceCiphertext galoisWith(const DeviceContext &ctx, const DeviceCiphertext &a,
                            uint64_t galois, const Keys &keys,
                            const std::string &what) {
  if (galois == 1)
    return clone(ctx, a);
  checks::galois(a.degree(), keys.has(galois), galois, what);
  DeviceCiphertext rotated = like(ctx, a, 2, a.level);
  launchAutomorphism(ctx, rotated.buf.data(), a.buf.data(), rowsOf(a),
                     ctx.impl().galoisIndex(ctx, galois));
  DeviceCiphertext out = like(ctx, a, 2, a.level);
  keySwitchInto(ctx, rotated.part(1), a.level, keys.keys.at(galois),
                out.buf.data(), rotated.buf.data(), 1, int(a.limbs()));
  return out;
}

template <typename Key>
std::pair<DevicePoly, DevicePoly>
keySwitchWith(const DeviceContext &ctx, const DevicePoly &d, const Key &key) {
  if (!d.ntt)
    throw InvalidArgument("keySwitch needs an NTT-form polynomial");
  const int level = int(d.limbs()) - 1;
  if (level < 0 || d.basis != ctx.host().qBasis(level))
    throw InvalidArgument("keySwitch: d must be over q_0..q_level");
  const size_t part = d.limbs() * d.n;
  DeviceBuffer out(ctx, 2 * part);
  keySwitchInto(ctx, d.data(), level, key, out.data(), nullptr, 0, 0);
  std::pair<DevicePoly, DevicePoly> res;
  for (int p = 0; p < 2; ++p) {
    DevicePoly &r = p == 0 ? res.first : res.second;
    r.basis = d.basis;
    r.n = d.n;
    r.ntt = true;
    r.buf = DeviceBuffer(ctx, part);
    EMBER_CUDA_CHECK(cudaMemcpyAsync(r.buf.data(), out.data() + p * part,
                                     part * 8, cudaMemcpyDeviceToDevice,
                                     ctx.impl().stream));
  }
  return res;
}

} // namespace

DeviceCiphertext Evaluator::relinearize(const DeviceCiphertext &a,
                                        const DeviceRelinKey &rk) const {
  return relinearizeWith(ctx_, a, rk.key);
}

DeviceCiphertext Evaluator::relinearize(const DeviceCiphertext &a,
                                        const DeviceKlssRelinKey &rk) const {
  return relinearizeWith(ctx_, a, rk.key);
}

DeviceCiphertext Evaluator::multiplyRelin(const DeviceCiphertext &a,
                                          const DeviceCiphertext &b,
                                          const DeviceRelinKey &rk) const {
  return relinearize(multiply(a, b), rk);
}

DeviceCiphertext Evaluator::multiplyRelin(const DeviceCiphertext &a,
                                          const DeviceCiphertext &b,
                                          const DeviceKlssRelinKey &rk) const {
  return relinearize(multiply(a, b), rk);
}

DeviceCiphertext Evaluator::rescale(const DeviceCiphertext &a) const {
  checks::rescale(a.level);
  DeviceCiphertext out = like(ctx_, a, a.parts, a.level - 1);
  rescaleParts(ctx_, a.buf.data(), a.parts, a.level, out.buf.data());
  out.scale = a.scale / static_cast<double>(ctx_.host().primes()[a.level]);
  return out;
}

DeviceCiphertext Evaluator::modDropTo(const DeviceCiphertext &a,
                                      int level) const {
  checks::modDrop(a.level, level);
  DeviceCiphertext out = like(ctx_, a, a.parts, level);
  const size_t n = a.n;
  EMBER_CUDA_CHECK(
      cudaMemcpy2DAsync(out.buf.data(), out.limbs() * n * 8, a.buf.data(),
                        a.limbs() * n * 8, out.limbs() * n * 8, a.parts,
                        cudaMemcpyDeviceToDevice, ctx_.impl().stream));
  return out;
}

DeviceCiphertext Evaluator::applyGalois(const DeviceCiphertext &a,
                                        uint64_t galois,
                                        const DeviceGaloisKeys &keys) const {
  return galoisWith(ctx_, a, galois, keys, "");
}

DeviceCiphertext
Evaluator::applyGalois(const DeviceCiphertext &a, uint64_t galois,
                       const DeviceKlssGaloisKeys &keys) const {
  return galoisWith(ctx_, a, galois, keys, "");
}

DeviceCiphertext Evaluator::rotate(const DeviceCiphertext &a, int64_t k,
                                   const DeviceGaloisKeys &keys) const {
  return galoisWith(ctx_, a, galoisElementForRotation(ctx_.host(), k, a.slots),
                    keys, "a rotation by " + std::to_string(k));
}

DeviceCiphertext Evaluator::rotate(const DeviceCiphertext &a, int64_t k,
                                   const DeviceKlssGaloisKeys &keys) const {
  return galoisWith(ctx_, a, galoisElementForRotation(ctx_.host(), k, a.slots),
                    keys, "a rotation by " + std::to_string(k));
}

DeviceCiphertext Evaluator::conjugate(const DeviceCiphertext &a,
                                      const DeviceGaloisKeys &keys) const {
  return galoisWith(ctx_, a, galoisElementForConjugation(ctx_.host()), keys,
                    "conjugation");
}

DeviceCiphertext Evaluator::conjugate(const DeviceCiphertext &a,
                                      const DeviceKlssGaloisKeys &keys) const {
  return galoisWith(ctx_, a, galoisElementForConjugation(ctx_.host()), keys,
                    "conjugation");
}

std::pair<DevicePoly, DevicePoly>
Evaluator::keySwitch(const DevicePoly &d, const DeviceSwitchingKey &key) const {
  return keySwitchWith(ctx_, d, key);
}

std::pair<DevicePoly, DevicePoly>
Evaluator::keySwitch(const DevicePoly &d, const DeviceKlssKey &key) const {
  return keySwitchWith(ctx_, d, key);
}

} // namespace ember::cuda
