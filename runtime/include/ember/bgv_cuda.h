// BGV on the CUDA backend: the operations of ember::BasicBgvEvaluator on
// device ciphertexts (CKKS device objects whose `scale` is the factor mu),
// residue for residue the CPU's. Key switching is the CKKS device key
// switching with the t-corrected ModDown (hybrid keys); modulus switching is
// the CKKS modulus switch with t folded into its constants.
#pragma once

#include "ember/bgv.h"
#include "ember/cuda.h"

namespace ember::cuda {

template <typename Word> class BasicBgvEvaluator {
public:
  using Ct = BasicDeviceCiphertext<Word>;
  using Pt = BasicDevicePlaintext<Word>;
  /// The same checks on t as ember::BasicBgvEvaluator.
  BasicBgvEvaluator(const DeviceContext &ctx, uint64_t t);
  uint64_t plainModulus() const { return t_; }

  Ct add(const Ct &a, const Ct &b) const;
  Ct sub(const Ct &a, const Ct &b) const;
  Ct negate(const Ct &a) const;
  Ct addPlain(const Ct &a, const Pt &p) const;
  Ct subPlain(const Ct &a, const Pt &p) const;
  Ct mulPlain(const Ct &a, const Pt &p) const;
  Ct addInt(const Ct &a, int64_t c) const;
  Ct mulInt(const Ct &a, int64_t c) const;
  Ct multiply(const Ct &a, const Ct &b) const;
  Ct relinearize(const Ct &a, const BasicDeviceRelinKey<Word> &rk) const;
  /// Tensor, relinearization and a modulus switch.
  Ct multiplyRelin(const Ct &a, const Ct &b,
                   const BasicDeviceRelinKey<Word> &rk) const;
  Ct modSwitch(const Ct &a) const;
  Ct modSwitchTo(const Ct &a, int level) const;
  Ct rotate(const Ct &a, int64_t k,
            const BasicDeviceGaloisKeys<Word> &keys) const;
  Ct normalizeFactor(const Ct &a) const;

private:
  /// a times the integer c in [0, t), centred (factor unchanged).
  Ct scaled(const Ct &a, uint64_t c) const;
  template <typename Op>
  Ct aligned(const Ct &a, const Ct &b, bool factors, const Op &op) const;
  const DeviceContext &ctx_;
  uint64_t t_;
  BasicEvaluator<Word> base_;
};
using BgvEvaluator = BasicBgvEvaluator<uint64_t>;
using BgvEvaluator32 = BasicBgvEvaluator<uint32_t>;

} // namespace ember::cuda
