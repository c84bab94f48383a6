// FHEW/TFHE bootstrapping on the GPU, batched: one thread block per
// ciphertext runs the whole blind rotation with its accumulator in shared
// memory (VeloFHE's fused kernel; the blocks of a batch walk the
// bootstrapping key in step, so each RGSW key is read from L2), then one
// kernel key-switches the batch. Batches too small to fill the GPU (one
// ciphertext's latency, a circuit's narrow levels) run each blind rotation
// on a thread-block cluster instead, its digit rows spread over the
// cluster's SMs. Every output word equals the CPU
// Evaluator's (ember/lwe.h) for the same keys and inputs.
//
// Ciphertexts in and out are flat: `count` rows of n + 1 words (a, then b)
// at q; radix blocks (Evaluator::pbs, radix circuits) rows of N + 1 words
// at Q. Device buffers grow to the largest batch seen and are kept.
#pragma once

#include "ember/lwe.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ember::lwe::cuda {

class DeviceEvaluator {
public:
  /// Uploads the bootstrapping and key-switching keys to the current
  /// device.
  explicit DeviceEvaluator(const EvaluationKeys &keys);
  ~DeviceEvaluator();
  DeviceEvaluator(const DeviceEvaluator &) = delete;
  DeviceEvaluator &operator=(const DeviceEvaluator &) = delete;

  const Params &params() const;
  std::string deviceName() const;
  /// Blocks per thread-block cluster of the small-batch blind rotation (a
  /// step's digit rows spread over them), 0 where the device has no
  /// clusters or EMBER_TFHE_CLUSTER_JOBS=0 turned it off. Batches of at
  /// most clusterJobs() ciphertexts take it (EMBER_TFHE_CLUSTER_JOBS sets
  /// that; by default the SM count).
  int clusterBlocks() const;
  size_t clusterJobs() const;

  void gate(Gate gate, const uint32_t *a, const uint32_t *b, size_t count,
            uint32_t *out);
  void bootstrap(const uint32_t *a, size_t count, uint32_t *out);
  /// table[m] for m in Z_t with a padding bit, as Evaluator::lut.
  void lut(const uint32_t *a, size_t count, const std::vector<uint32_t> &table,
           uint32_t *out);

  std::vector<Ciphertext> gate(Gate gate, const std::vector<Ciphertext> &a,
                               const std::vector<Ciphertext> &b);
  std::vector<Ciphertext> bootstrap(const std::vector<Ciphertext> &a);
  std::vector<Ciphertext> lut(const std::vector<Ciphertext> &a,
                              const std::vector<uint32_t> &table);

  /// Evaluator::pbs of `count` radix blocks (rows of N + 1 words at Q) in
  /// one batch: the key switches, then the blind rotations.
  void pbs(const uint32_t *blocks, size_t count,
           const std::vector<uint32_t> &table, uint32_t *out);
  std::vector<Ciphertext> pbs(const std::vector<Ciphertext> &blocks,
                              const std::vector<uint32_t> &table);

  /// Runs a circuit (ember::lwe::runCircuit's) with its wires on the
  /// device: level by level, each level's bootstraps (gates, and MUXes as
  /// two blind rotations summed before one key switch) in one batch, then
  /// its linear ops. A radix circuit's wires are blocks (N + 1 words at
  /// Q): a level's tables (kLut) run as one batch of key switches, then
  /// one of blind rotations, each job with its table's test vector,
  /// extracted into the wires; then its kLinear and kBlock ops. The
  /// outputs equal the CPU's word for word.
  std::vector<Ciphertext> runCircuit(const Circuit &circuit,
                                     const std::vector<Ciphertext> &inputs);
  /// Several runs of one circuit at once: each level's bootstraps of every
  /// run in one batch (the GPU's throughput for small circuits, whose
  /// levels alone would be a handful of ciphertexts each).
  std::vector<std::vector<Ciphertext>>
  runCircuit(const Circuit &circuit,
             const std::vector<std::vector<Ciphertext>> &runs);

  /// Milliseconds of the last call, by stage (CUDA events); for a circuit,
  /// blind_rotation holds all its levels (key switches included).
  struct Timing {
    double upload = 0, blind_rotation = 0, key_switch = 0, download = 0;
  };
  Timing lastTiming() const;

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace ember::lwe::cuda
