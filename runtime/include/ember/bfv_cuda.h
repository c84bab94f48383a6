// BFV on the CUDA backend: the operations of ember::BfvEvaluator on device
// ciphertexts, residue for residue the CPU's. The HPS multiplication uses
// the tables of a second device context over Q u R (the host evaluator's
// auxContext: the same primes as Q first, so its transforms over Q are the
// main context's) but queues its work on the main context's stream and
// takes its temporaries from the main context's pool: it is ordered with
// the other work by the stream alone, and a CUDA Graph capture of the main
// stream (program::runCuda) captures it, temporaries included. The BEHZ
// multiplication runs over the same Q u R (read as Q u B_sk) with the host
// evaluator's behzConstants(), the same way.
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
  /// The HPS tensor product of the ciphertexts (a0, a1) and (b0, b1) into
  /// (d0, d1, d2): every pointer a polynomial over the full Q (level + 1
  /// rows of N residues, NTT form). On the context's stream, temporaries
  /// from its pool, nothing synchronised (capture-safe once the evaluator
  /// exists). The outputs may alias the inputs (all inputs are read before
  /// any output is written). multiply() runs this.
  void multiplyInto(const uint64_t *a0, const uint64_t *a1, const uint64_t *b0,
                    const uint64_t *b1, uint64_t *d0, uint64_t *d1,
                    uint64_t *d2) const;
  /// BEHZ tensor product (3 parts), residue for residue the CPU's
  /// multiplyBehz.
  Ct multiplyBehz(const Ct &a, const Ct &b) const;
  /// multiplyInto's contract, with BEHZ. multiplyBehz() runs this.
  void multiplyBehzInto(const uint64_t *a0, const uint64_t *a1,
                        const uint64_t *b0, const uint64_t *b1, uint64_t *d0,
                        uint64_t *d1, uint64_t *d2) const;
  Ct relinearize(const Ct &a, const DeviceRelinKey &rk) const;
  Ct multiplyRelin(const Ct &a, const Ct &b, const DeviceRelinKey &rk) const;
  Ct multiplyRelinBehz(const Ct &a, const Ct &b,
                       const DeviceRelinKey &rk) const;
  Ct rotate(const Ct &a, int64_t k, const DeviceGaloisKeys &keys) const;

private:
  void checkFull(const Ct &a, const char *op) const;
  Ct tensor(const Ct &a, const Ct &b, bool behz) const;
  void tensorInto(const uint64_t *a0, const uint64_t *a1, const uint64_t *b0,
                  const uint64_t *b1, uint64_t *d0, uint64_t *d1, uint64_t *d2,
                  bool behz) const;
  const DeviceContext &ctx_;
  std::unique_ptr<ember::BfvEvaluator> host_;
  std::unique_ptr<DeviceContext> aux_;
  Evaluator base_;
  DeviceBuffer consts_; ///< scale-and-round constants, on aux_
  DeviceBuffer behz_;   ///< BEHZ constants and INTT scalings, on aux_
};

/// The evaluator of (ctx, t), built on first use and kept with the context
/// (destroyed with it): what a compiled BFV program's kBfvTensor steps use,
/// so that the Q u R context is built once, not per step or run. Build it
/// outside a graph capture (its construction uploads and synchronises);
/// one host thread at a time, as the context's pool.
const BfvEvaluator &bfvEvaluator(const DeviceContext &ctx, uint64_t t);
/// Destroys ctx's cached evaluators (bfvEvaluator). A compiled program's
/// library links its own copy of this runtime, so the evaluators its plan
/// made are destroyed by its code: the loader calls this before it unloads
/// the library (dlclose), or the context's destructor would jump into
/// unmapped code.
void releaseBfvEvaluators(const DeviceContext &ctx);

} // namespace ember::cuda
