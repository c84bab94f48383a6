// BFV on the CUDA backend: the operations of ember::BfvEvaluator on device
// ciphertexts, residue for residue the CPU's. The HPS multiplication runs on
// a second device context over Q u R (the host evaluator's auxContext: the
// same primes as Q first, so its transforms over Q are the main context's),
// ordered after the main stream's work and before its next by events.
#pragma once

#include "ember/bfv.h"
#include "ember/cuda.h"

#include <memory>

namespace ember::cuda {

class BfvEvaluator {
public:
  using Ct = DeviceCiphertext;
  using Pt = DevicePlaintext;
  BfvEvaluator(const DeviceContext &ctx, uint64_t t);
  ~BfvEvaluator();
  /// The host evaluator whose tables (R, the scale-and-round's constants)
  /// this one uploads.
  const ember::BfvEvaluator &host() const { return *host_; }

  Ct add(const Ct &a, const Ct &b) const;
  Ct sub(const Ct &a, const Ct &b) const;
  Ct negate(const Ct &a) const;
  Ct addPlain(const Ct &a, const Pt &p) const;
  Ct subPlain(const Ct &a, const Pt &p) const;
  Ct mulPlain(const Ct &a, const Pt &p) const;
  Ct addInt(const Ct &a, int64_t c) const;
  Ct mulInt(const Ct &a, int64_t c) const;
  /// HPS tensor product (3 parts).
  Ct multiply(const Ct &a, const Ct &b) const;
  Ct relinearize(const Ct &a, const DeviceRelinKey &rk) const;
  Ct multiplyRelin(const Ct &a, const Ct &b, const DeviceRelinKey &rk) const;
  Ct rotate(const Ct &a, int64_t k, const DeviceGaloisKeys &keys) const;

private:
  void checkFull(const Ct &a, const char *op) const;
  const DeviceContext &ctx_;
  std::unique_ptr<ember::BfvEvaluator> host_;
  std::unique_ptr<DeviceContext> aux_;
  Evaluator base_;
  DeviceBuffer consts_; ///< scale-and-round constants, on aux_
};

} // namespace ember::cuda
