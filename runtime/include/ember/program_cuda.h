// The ABI between code emitted by `ember-translate --emit-cuda` and the CUDA
// runtime (ember/cuda.h): the entry point every generated .cu exports, the
// arguments it receives and the plan executor its tables run on
// (runtime/cuda/program.cu). Include only from .cu files compiled with nvcc.
#pragma once

#include "ember/cuda.h"
#include "ember/errors.h"
#include "ember/program.h"

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

namespace ember::program {

template <typename Word> struct BasicCudaGraph;
/// Where a captured graph holds its inputs' and outputs' addresses
/// (defined and found in runtime/cuda/program.cu).
struct InPlaceSites;

/// A program's planned arena (runCuda with CudaArgs::arena): one buffer of
/// the plan's arena_bytes, allocated by the first run on a context and
/// reused by every later one. Every buffer the memory plan placed (inputs,
/// intermediates, primitives' scratch) is a view at its offset: a run
/// allocates nothing but its output ciphertexts.
struct CudaArena {
  const cuda::DeviceContext *ctx = nullptr;
  cuda::DeviceBuffer buf;
  size_t bytes() const { return buf.words() * 8; }
};

/// What the host entry of a generated CUDA program receives, at the
/// program's word size (CudaArgs: 64-bit, CudaArgs32: 32-bit words on a
/// DeviceContext of a Context32).
template <typename Word> struct BasicCudaArgs {
  const cuda::DeviceContext *ctx = nullptr;
  const cuda::BasicDeviceRelinKey<Word> *relin = nullptr;    ///< null: none
  const cuda::BasicDeviceGaloisKeys<Word> *galois = nullptr; ///< null: none
  const cuda::BasicDeviceKlssRelinKey<Word> *klss_relin = nullptr; ///< KLSS
  const cuda::BasicDeviceKlssGaloisKeys<Word> *klss_galois =
      nullptr; ///< forms (null: none)
  /// Bootstrapping's encapsulation keys (null: none generated).
  const cuda::BasicDeviceEncapsulationKeys<Word> *encapsulation = nullptr;
  const std::vector<cuda::BasicDeviceCiphertext<Word>> *inputs = nullptr;
  std::vector<cuda::BasicDeviceCiphertext<Word>> *outputs = nullptr;
  /// Kept by the caller between runs (destroy it before the context);
  /// null: encode and upload the constants every run.
  ConstantCache<cuda::BasicDevicePoly<Word>> *constants = nullptr;
  /// The program's data file (null: the program has no vector constants).
  const ConstantData *data = nullptr;
  /// The values of the plaintext inputs, in interface order (host memory;
  /// encoded on the host and uploaded each run).
  const std::vector<std::vector<std::complex<double>>> *plain = nullptr;
  /// Kept by the caller between runs (destroy it before the context and
  /// the keys); null: every run enqueues its steps one by one.
  BasicCudaGraph<Word> *graph = nullptr;
  /// Kept by the caller between runs (destroy it after the graph, before
  /// the context); null: every buffer from the context's pool.
  CudaArena *arena = nullptr;
  /// The device of a program partitioned over several GPUs (Plan::devices
  /// > 1) this run executes, on `ctx`: its steps only (onDevice), over an
  /// arena of Plan::arenaBytes(device_index), inputs (kInput) and outputs
  /// (kOutput) on device 0. Each device runs the program's entry from its
  /// own host thread with its own arguments (context, keys, constant
  /// cache, graph, arena), at the same time as the others: their
  /// transfers wait for each other. 0 for a program of one device.
  int device_index = 0;
  /// An ncclComm_t (ember/nccl.h: NcclComms) of Plan::devices ranks whose
  /// rank device_index lives on ctx's device: a kTransfer is an ncclSend
  /// on its sender and an ncclRecv on its receiver, on the context's
  /// transfer stream beside its kernels (ordered with them by events, and
  /// captured with them into the device's graph). Needed by a program of
  /// several devices; runCuda neither creates nor destroys it.
  void *nccl_comm = nullptr;
  /// Only make the checks of the run's arguments (the device index and
  /// communicator, this device's inputs, plaintext inputs and the keys its
  /// steps load) and return, queuing nothing: a caller of several devices
  /// makes them for every device before any device waits for a peer.
  bool check_only = false;
};

/// A program's run as one CUDA Graph (runCuda with CudaArgs::graph). The
/// first run with a fresh state runs the steps one by one (building the
/// context's plans and filling the pool and the constant cache), then
/// captures them into a graph without running them again; every later run
/// points the graph at the caller's input ciphertexts and at new output
/// ciphertexts (in place, below; else it copies the inputs into the
/// graph's input buffers and the outputs out of its output buffers),
/// encodes the plaintext inputs into theirs and launches the graph: a
/// handful of calls instead of one per step, and nothing allocated but
/// the outputs. The
/// graph is captured again when the context, the keys, the constant
/// cache or (a partitioned program) the device index or communicator
/// change. Memory the graph touches is held by it (the pool blocks
/// of its temporaries and outputs) until it is destroyed.
template <typename Word> struct BasicCudaGraph {
  using Poly = cuda::BasicDevicePoly<Word>;
  BasicCudaGraph() = default;
  ~BasicCudaGraph() { reset(); }
  BasicCudaGraph(const BasicCudaGraph &) = delete;
  BasicCudaGraph &operator=(const BasicCudaGraph &) = delete;

  /// Whether a graph is captured (runs replay it).
  bool captured() const { return exec != nullptr; }
  /// Nodes of the captured graph (kernels, copies, memsets), 0 if none.
  size_t nodes = 0;
  /// Kernel nodes of the captured graph: the launches of one run.
  size_t kernel_nodes = 0;
  /// Nodes on the captured graph's longest chain (nodes when it is one
  /// chain).
  size_t path_nodes = 0;
  /// Drops the graph and its memory (captured again by the next run).
  void reset();
  /// In place: a replay points the graph at the caller's input
  /// ciphertexts and at the output ciphertexts it hands back, instead of
  /// copying those into the graph's input buffers and out of its output
  /// buffers (no copy per run). The nodes, and the words of their
  /// parameters, that hold an input's or an output's address are found
  /// once, at the capture, by capturing the steps a second time with
  /// every input and output buffer elsewhere: exactly the words that moved
  /// with one. If anything else differs between the two captures (or the
  /// program spans several devices, or an output is not a buffer of its
  /// own), the graph copies them as before (`copies_because` says why).
  /// Set before the capture (a change resets the graph).
  bool in_place = true;
  /// Concurrent: the graph's nodes follow only the steps whose memory
  /// they read or overwrite (runtime/core/program_deps.h: the memory
  /// plan's arena ranges), so that independent steps run side by side;
  /// false: one chain in the plan's order. Needs the arena (a graph
  /// captured without one is one chain); a program of several devices has
  /// one DAG per device, its transfers ordered by their own events
  /// (program_exec.h: Executor::around). In a concurrent capture no pool block
  /// released by a step is reused by another (DeviceContext::beginCapture). Set
  /// before the capture (a change resets the graph).
  bool concurrent = true;
  /// Prioritized (with concurrent): the kernels the rest of the DAG waits
  /// on run at the greatest priority (cudaLaunchAttributePriority,
  /// instantiated with cudaGraphInstantiateFlagUseNodePriority): on one
  /// device those on the DAG's longest chain (by nodes), on a device of
  /// several those its sends follow; an overlapped key switch's first
  /// branch (cuda::keySwitchDown) one level above them, prioritized or not.
  /// Without it the graph may run independent work first while they wait
  /// (two H200s: dense1024_B 17.9 against 15.3 ms; one H200: variance 1.29
  /// against 1.17 ms, logistic_regression 0.140 against 0.129).
  /// Set before the capture (a change resets the graph).
  bool prioritized = true;
  /// Whether the captured graph reads its inputs and writes its outputs
  /// in place.
  bool inPlace() const { return sites != nullptr; }

  // --- state of runCuda ----------------------------------------------------
  struct InputSlot { ///< a part of an encrypted input, copied in per run
    size_t input;
    int part;
    Poly poly;
  };
  /// A plaintext input's encoding, done on the host per run into `host`
  /// (pinned): the graph copies it into `poly` at the encoding's step (a
  /// captured copy), since the memory plan may give `poly` to other values
  /// before that step.
  struct PlainSlot {
    size_t plain;
    double scale;
    Poly poly;
    Word *host = nullptr;
    size_t words = 0;
  };
  struct Output { ///< an output's polynomials, copied out per run
    std::vector<Poly> polys;
    int level;
    double scale;
    size_t slots;
  };
  const cuda::DeviceContext *ctx = nullptr;
  const void *keys[5] = {};
  const void *constants = nullptr;
  const uint64_t *arena = nullptr; ///< the arena the graph was captured on
  int device_index = 0;            ///< the device of a partitioned program
  const void *nccl_comm = nullptr; ///< its communicator (in the graph's ops)
  bool warmed = false, capturing = false;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  std::vector<InputSlot> inputs;
  std::vector<PlainSlot> plains;
  std::vector<Output> outputs;
  std::vector<std::pair<uint64_t *, size_t>> blocks; ///< held temporaries
  /// The nodes holding the inputs' and outputs' addresses (null: copied).
  std::shared_ptr<InPlaceSites> sites;
  /// Why a captured graph copies its inputs and outputs (empty: in place,
  /// or nothing is captured).
  std::string copies_because;
  /// Recorded after each launch that reads the plaintext slots' host
  /// buffers: the next run refills them only once it has passed.
  cudaEvent_t plains_read = nullptr;
};
using CudaGraph = BasicCudaGraph<uint64_t>;
using CudaGraph32 = BasicCudaGraph<uint32_t>;
/// Every generated .cu exports `extern "C" void ember_program_run_cuda(const
/// CudaArgs &)` (CudaArgs32 when `ember_program_word()` is 32); all work is
/// queued on the context's stream.
inline constexpr const char *kCudaEntry = "ember_program_run_cuda";
using CudaEntry = void (*)(const CudaArgs &);
using CudaEntry32 = void (*)(const CudaArgs32 &);

inline void cudaCheck(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw Error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// The CUDA form of checkInput: the input's parts, level and slots, then
/// exactly the manifest's scale (ScaleMismatch, checkInputScale).
template <typename Word>
void cudaCheckInput(const std::vector<cuda::BasicDeviceCiphertext<Word>> &in,
                    size_t index, const char *name, int parts, int level,
                    size_t slots, double scale);

} // namespace ember::program
