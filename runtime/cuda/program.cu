// The CUDA backend of the plan executor (runtime/core/program_exec.h):
// runCuda runs the tables of a program emitted by `ember-translate
// --emit-cuda`. Buffers come from the context's pool, copies and kernels are
// queued on the context's stream; nothing synchronises the host. With a
// CudaGraph state, the steps are captured once and replayed as one graph
// (BFV's kBfvTensor included: the HPS product runs on the context's stream
// with temporaries from its pool, see ember/bfv_cuda.h), a DAG whose steps
// follow only the steps whose arena bytes they share (BasicCudaGraph::
// concurrent, StepDag below); a key switch's inner product and the ModDown
// that overlaps it (program_plan.h overlappedInnerProduct) are one step of
// two branches, the ModDown's first half at the greatest node priority
// (cuda::keySwitchDown). A program
// partitioned over several GPUs runs as one runCuda per device, each from
// its own thread with its own arguments (CudaArgs::device_index,
// nccl_comm): its steps only, its transfers NCCL sends and receives on its
// stream, each device's steps captured into that device's graph (a DAG of
// its own steps, the kernels its sends follow at the greatest priority;
// on one device, those on the DAG's longest chain, a level below the
// overlapped switches' first halves where there are any).
#include "ember/program_cuda.h"

#include "ember/bfv_cuda.h"
#include "ember/nccl.h"

#include "../core/program_deps.h"
#include "../core/program_exec.h"
#include "internal.cuh"

#include <cuda.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace ember::program {

namespace {

/// A poly buffer from the context's pool (optionally zeroed).
template <typename W>
cuda::BasicDevicePoly<W> alloc(const cuda::DeviceContext &ctx,
                               std::vector<int> basis, bool ntt, bool zero) {
  cuda::BasicDevicePoly<W> p;
  p.n = cuda::hostOf<W>(ctx).n();
  p.ntt = ntt;
  p.buf = cuda::DeviceBuffer(
      ctx, cuda::BasicDevicePoly<W>::wordsFor(basis.size() * p.n));
  p.basis = std::move(basis);
  if (zero)
    cudaCheck(cudaMemsetAsync(p.data(), 0, p.basis.size() * p.n * sizeof(W),
                              ctx.stream()),
              "cudaMemsetAsync");
  return p;
}

/// `count` residues from src to dst on the context's stream.
template <typename W>
void copyWords(const cuda::DeviceContext &ctx, W *dst, const W *src,
               size_t count) {
  if (count)
    cudaCheck(cudaMemcpyAsync(dst, src, count * sizeof(W),
                              cudaMemcpyDeviceToDevice, ctx.stream()),
              "cudaMemcpyAsync");
}

/// The CUDA backend of the plan executor at word W (64-bit, or 32-bit on a
/// DeviceContext of a Context32).
template <typename W> struct CudaBackend {
  using Poly = cuda::BasicDevicePoly<W>;
  using Args = BasicCudaArgs<W>;
  using Graph = BasicCudaGraph<W>;
  static bool capturing(const Args &a) { return a.graph && a.graph->capturing; }
  static Poly borrowed(const Poly &p) {
    Poly v;
    v.n = p.n;
    v.ntt = p.ntt;
    v.basis = p.basis;
    v.buf = cuda::DeviceBuffer::borrow(p.buf.data(), p.buf.words());
    return v;
  }
  using Kernel = CudaKernel;
  using HybridKey = cuda::BasicDeviceSwitchingKey<W>;
  using KlssKey = cuda::BasicDeviceKlssKey<W>;
  using Scratch = cuda::Scratch;

  static const Context<W> &host(const Args &a) {
    return cuda::hostOf<W>(*a.ctx);
  }
  /// The GPU encodes its constants in the first run, which also captures
  /// the graph (no separate setup step yet).
  static bool prepareOnly(const Args &) { return false; }
  static ConstantCache<Poly> *cache(const Args &a) { return a.constants; }
  static W *words(const Poly &p) { return p.data(); }
  /// Bytes [offset, offset + bytes) of the arena, or null without one.
  static uint64_t *inArena(const Args &a, int64_t offset, size_t bytes) {
    if (!a.arena || offset < 0)
      return nullptr;
    if (offset % 8 || size_t(offset) + bytes > a.arena->bytes())
      throw Error("program plan: a buffer at arena offset " +
                  std::to_string(offset) + " (" + std::to_string(bytes) +
                  " bytes) lies outside the arena of " +
                  std::to_string(a.arena->bytes()) + " bytes");
    return a.arena->buf.data() + offset / 8;
  }
  /// A view at the buffer's planned offset, or a pool buffer.
  static Poly place(const Args &a, std::vector<int> b, bool ntt, int64_t offset,
                    bool) {
    const size_t n = host(a).n();
    const size_t words = Poly::wordsFor(b.size() * n);
    if (uint64_t *at = inArena(a, offset, words * 8)) {
      Poly v;
      v.n = n;
      v.ntt = ntt;
      v.basis = std::move(b);
      v.buf = cuda::DeviceBuffer::borrow(at, words);
      return v;
    }
    return program::alloc<W>(*a.ctx, std::move(b), ntt, false);
  }
  static Scratch scratch(const Args &a, const BufferSpec *s) {
    if (!s)
      return {};
    const size_t words = Poly::wordsFor(size_t(s->q_hi) * host(a).n());
    uint64_t *at = inArena(a, s->offset, words * 8);
    return at ? Scratch{at, words} : Scratch{};
  }
  static void zero(const Args &a, Poly &out) {
    cudaCheck(cudaMemsetAsync(out.data(), 0,
                              out.basis.size() * out.n * sizeof(W),
                              a.ctx->stream()),
              "cudaMemsetAsync");
  }
  static void copy(const Args &a, const Poly &p, Poly &out) {
    copyWords(*a.ctx, out.data(), p.data(), p.basis.size() * p.n);
    out.ntt = p.ntt;
  }
  static void ntt(const Args &a, const Poly &p, Poly &out) {
    cuda::ntt(*a.ctx, p, out);
  }
  static void intt(const Args &a, const Poly &p, Poly &out) {
    cuda::intt(*a.ctx, p, out);
  }
  static void bconv(const Args &a, const Poly &p, Poly &out, Scratch s,
                    bool exact) {
    if (exact)
      cuda::bconvExact(*a.ctx, p, out);
    else
      cuda::bconv(*a.ctx, p, out, s);
  }
  /// Every digit of the step at once (one launch per stage).
  static void modUp(const Args &a, const Poly &p,
                    const std::vector<int> &digits,
                    const std::vector<Poly *> &outs, Scratch s) {
    cuda::modUp(*a.ctx, p, digits, outs, s);
  }
  static void ksInnerProduct(const Args &a, const HybridKey &key,
                             const std::vector<const Poly *> &digits,
                             Poly &acc0, Poly &acc1, uint64_t galois) {
    cuda::keySwitchInnerProduct(*a.ctx, key, digits, acc0, acc1, galois);
  }
  /// An inner product and the switch that overlaps it as one step: the
  /// dropped rows and the switch's INTT and BConv beside the kept rows
  /// (cuda::keySwitchDown).
  static void ksInnerProductDown(const Args &a, const HybridKey &key,
                                 const std::vector<const Poly *> &digits,
                                 uint64_t galois, Poly &acc0, Poly &acc1,
                                 const std::vector<const Poly *> &ys,
                                 const std::vector<Poly *> &outs, Scratch s,
                                 uint64_t plain_modulus,
                                 uint64_t lifted_galois) {
    cuda::keySwitchDown(*a.ctx, key, digits, galois, acc0, acc1, ys, outs, s,
                        plain_modulus, lifted_galois);
  }
  /// Every digit of the step at once (one launch per stage).
  static void klssModUp(const Args &a, const std::vector<const Poly *> &xs,
                        const std::vector<Poly *> &outs, Scratch s) {
    cuda::klssModUp(*a.ctx, xs, outs, s);
  }
  static void klssInnerProduct(const Args &a, const KlssKey &key,
                               const std::vector<const Poly *> &digits,
                               int level, Poly &acc0, Poly &acc1, Scratch s) {
    cuda::klssInnerProduct(*a.ctx, key, digits, level, acc0, acc1, s);
  }
  /// Every part of the step at once (one launch per stage).
  static void modSwitchDown(const Args &a, const std::vector<const Poly *> &xs,
                            const std::vector<const Poly *> &ys,
                            const std::vector<Poly *> &outs, Scratch s,
                            uint64_t plain_modulus, uint64_t lifted_galois) {
    cuda::modSwitchDown(*a.ctx, xs, ys, outs, s, plain_modulus, lifted_galois);
  }
  static void automorphism(const Args &a, const Poly &p, uint64_t g,
                           Poly &out) {
    cuda::automorphism(*a.ctx, p, g, out);
  }
  /// Limbs first..first+count-1: an alias of them (the memory plan keeps
  /// the source alive while the view is used).
  static Poly view(const Args &, const Poly &p, size_t first, size_t count) {
    Poly v;
    v.n = p.n;
    v.ntt = p.ntt;
    v.basis.assign(p.basis.begin() + first, p.basis.begin() + first + count);
    v.buf =
        cuda::DeviceBuffer::borrow(reinterpret_cast<uint64_t *>(p.limb(first)),
                                   Poly::wordsFor(count * p.n));
    return v;
  }
  static void concat(const Args &a, const std::vector<const Poly *> &parts,
                     Poly &out) {
    size_t at = 0;
    for (const Poly *p : parts) {
      copyWords(*a.ctx, out.data() + at, p->data(), p->basis.size() * p->n);
      at += p->basis.size() * p->n;
    }
    out.ntt = parts.front()->ntt;
  }
  static const HybridKey *hybridKey(const Args &a, uint64_t g) {
    if (g == kToSparseKey || g == kFromSparseKey) {
      if (!a.encapsulation)
        throw MissingKey("the program needs the encapsulation keys of "
                         "bootstrapping (see its manifest)");
      return g == kToSparseKey ? &a.encapsulation->to_sparse
                               : &a.encapsulation->from_sparse;
    }
    if (!g) {
      if (!a.relin)
        throw MissingKey("the program needs the relinearization key (see "
                         "its manifest)");
      return &a.relin->key;
    }
    if (!a.galois || !a.galois->has(g))
      throw MissingKey("the program needs the Galois key of element " +
                       std::to_string(g) + " (see its manifest)");
    return &a.galois->keys.at(g);
  }
  static const KlssKey *klssKey(const Args &a, uint64_t g) {
    if (!g) {
      if (!a.klss_relin)
        throw MissingKey("the program needs the relinearization key in KLSS "
                         "form (see its manifest)");
      return &a.klss_relin->key;
    }
    if (!a.klss_galois || !a.klss_galois->has(g))
      throw MissingKey("the program needs the Galois key of element " +
                       std::to_string(g) + " in KLSS form (see its manifest)");
    return &a.klss_galois->keys.at(g);
  }
  static Poly constant(const Args &a, int64_t offset, int64_t count,
                       bool complex, double scale,
                       const std::vector<int> &basis, bool ntt,
                       uint64_t plain_modulus, uint64_t bfv_plain_modulus) {
    return cuda::upload(
        *a.ctx, encodeConstant(host(a), a.data, offset, count, complex, scale,
                               basis, ntt, plain_modulus, bfv_plain_modulus));
  }
  /// Encoded on the host (the canonical embedding's FFT), then uploaded
  /// into out; while a graph is captured, its plaintext slot (filled per
  /// run: with an arena, out itself).
  static void encodeValues(const Args &a, size_t index,
                           const std::vector<std::complex<double>> &values,
                           double scale, Poly &out, uint64_t plain_modulus,
                           uint64_t bfv_plain_modulus) {
    if (capturing(a)) {
      // The slot of this encoding: a plaintext input may be encoded at
      // several levels and scales (one step, and one slot, each).
      for (typename Graph::PlainSlot &slot : a.graph->plains)
        if (slot.plain == index && slot.scale == scale &&
            slot.poly.basis == out.basis && slot.poly.ntt == out.ntt) {
          if (slot.poly.data() != out.data())
            out = borrowed(slot.poly);
          // A captured copy from the slot's pinned host buffer, which each
          // run fills before the launch (stagePlains).
          cudaCheck(cudaMemcpyAsync(out.data(), slot.host,
                                    slot.words * sizeof(W),
                                    cudaMemcpyHostToDevice, a.ctx->stream()),
                    "cudaMemcpyAsync");
          return;
        }
    }
    const ember::Poly<W> p =
        program::encodeValues(host(a), values, scale, out.basis, out.ntt,
                              plain_modulus, bfv_plain_modulus);
    // Pageable host memory: the copy has read it when the call returns.
    cudaCheck(cudaMemcpyAsync(out.data(), p.data.data(),
                              p.data.size() * sizeof(W), cudaMemcpyHostToDevice,
                              a.ctx->stream()),
              "cudaMemcpyAsync");
  }
  /// The HPS product by the context's evaluator of t (built by the first
  /// run, before any capture), into the outputs' planned places: queued on
  /// the context's stream with pool temporaries, so a graph captures it.
  static void bfvTensor(const Args &a, const std::vector<const Poly *> &in,
                        const std::vector<Poly *> &out, uint64_t t, bool behz) {
    if constexpr (!std::is_same_v<W, uint64_t>) {
      (void)a, (void)in, (void)out, (void)t, (void)behz;
      throw InvalidArgument("a BFV program needs 64-bit words");
    } else {
      if (capturing(a) && !a.ctx->impl().bfv_evaluators.count(t))
        throw Error("program plan: the BFV evaluator must exist before a "
                    "graph capture");
      const cuda::BfvEvaluator &ev = cuda::bfvEvaluator(*a.ctx, t);
      if (behz)
        ev.multiplyBehzInto(in[0]->data(), in[1]->data(), in[2]->data(),
                            in[3]->data(), out[0]->data(), out[1]->data(),
                            out[2]->data());
      else
        ev.multiplyInto(in[0]->data(), in[1]->data(), in[2]->data(),
                        in[3]->data(), out[0]->data(), out[1]->data(),
                        out[2]->data());
    }
  }
  static const std::vector<std::vector<std::complex<double>>> *
  plain(const Args &a) {
    return a.plain;
  }
  static void launch(const Args &a, CudaKernel k, const KernelLoop &loop,
                     const KernelIO &io) {
    k(loop, io, a.ctx->stream());
  }
  static void checkInput(const Args &a, size_t index, const char *name,
                         int parts, int level, size_t slots, double scale) {
    cudaCheckInput(*a.inputs, index, name, parts, level, slots, scale);
  }
  /// A part of a device ciphertext, copied into its planned place (the
  /// program's buffers live in the arena; the caller's ciphertext does
  /// not); while a graph is captured, the graph's input slot (filled per
  /// run: with an arena, that place itself).
  static const Poly *inputPart(const Args &a, size_t index, int part,
                               int64_t offset, Poly &storage) {
    if (capturing(a))
      for (typename Graph::InputSlot &slot : a.graph->inputs)
        if (slot.input == index && slot.part == part)
          return &slot.poly;
    const cuda::BasicDeviceCiphertext<W> &ct = (*a.inputs)[index];
    storage = place(a, host(a).qBasis(ct.level), true, offset, false);
    copyWords(*a.ctx, storage.data(), ct.part(part), ct.limbs() * ct.n);
    return &storage;
  }
  // --- Transfers of a program partitioned over several GPUs: NCCL on the
  // context's transfer stream, beside the kernels of its stream, ordered
  // with them by events (the executor says which kernels wait for which
  // transfer). Both sides walk the plan's steps in one order, so their
  // NCCL calls pair up; runOn checked the communicator. Captured into the
  // device's graph with its kernels: the transfer stream joins the capture
  // by waiting for an event of the kernel stream, and finish() joins it
  // back.

  /// A point in a stream's work: a CUDA event, destroyed with its last
  /// handle (after what waits for it, CUDA keeps it as long as needed).
  using Event = std::shared_ptr<CUevent_st>;
  static Event record(cudaStream_t stream) {
    cudaEvent_t e = nullptr;
    cudaCheck(cudaEventCreateWithFlags(&e, cudaEventDisableTiming),
              "cudaEventCreate");
    Event event(e, [](cudaEvent_t x) { cudaEventDestroy(x); });
    cudaCheck(cudaEventRecord(e, stream), "cudaEventRecord");
    return event;
  }
  static void streamWait(cudaStream_t stream, const Event &e) {
    if (e)
      cudaCheck(cudaStreamWaitEvent(stream, e.get(), 0), "cudaStreamWaitEvent");
  }
  static size_t bytes(const Poly &p) {
    return p.basis.size() * p.n * sizeof(W);
  }
  /// After the kernels queued so far (p is made).
  static Event ready(const Args &a, const Poly &) {
    return record(a.ctx->stream());
  }
  /// p to device `peer` once `ready` has passed; done: p may be written
  /// over. A buffer outside the arena (a pool block, which the plan's
  /// release gives back at once) makes the kernels wait for the send.
  static Event send(const Args &a, const Poly &p, int peer, Event ready) {
    cudaStream_t t = cuda::transferStream(*a.ctx);
    streamWait(t, ready);
    cuda::ncclSendBytes(a.nccl_comm, p.data(), bytes(p), peer, t);
    Event done = record(t);
    const auto *at = reinterpret_cast<const uint64_t *>(p.data());
    if (!a.arena || at < a.arena->buf.data() ||
        at >= a.arena->buf.data() + a.arena->buf.words())
      wait(a, done);
    return done;
  }
  /// out from device `peer`; done: out may be read. A received arena
  /// buffer has bytes no other buffer of the plan uses
  /// (kernel-plan-memory), so the receive does not wait for the kernels
  /// (it only joins a graph capture in progress); a pool buffer waits for
  /// the kernels queued so far, which may still use its block.
  static Event recv(const Args &a, Poly &out, int peer) {
    cudaStream_t t = cuda::transferStream(*a.ctx);
    const auto *at = reinterpret_cast<const uint64_t *>(out.data());
    const bool planned = a.arena && at >= a.arena->buf.data() &&
                         at < a.arena->buf.data() + a.arena->buf.words();
    bool join = !planned;
    if (planned && capturing(a)) {
      cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
      cudaCheck(cudaStreamIsCapturing(t, &status), "cudaStreamIsCapturing");
      join = status != cudaStreamCaptureStatusActive;
    }
    if (join)
      streamWait(t, record(a.ctx->stream()));
    cuda::ncclRecvBytes(a.nccl_comm, out.data(), bytes(out), peer, t);
    return record(t);
  }
  /// Later kernels wait for the event.
  static void wait(const Args &a, const Event &e) {
    streamWait(a.ctx->stream(), e);
  }
  /// The kernel stream waits for every transfer queued (the end of a run:
  /// its completion is the run's, and a captured graph holds the
  /// transfers).
  static void finish(const Args &a) {
    cudaStream_t t = a.ctx->impl().transfer_stream;
    if (!t)
      return; // no transfer yet
    if (capturing(a)) {
      cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
      cudaCheck(cudaStreamIsCapturing(t, &status), "cudaStreamIsCapturing");
      if (status != cudaStreamCaptureStatusActive)
        return; // no transfer in this capture
    }
    wait(a, record(t));
  }
  static void output(const Args &a, std::vector<Poly> polys, int level,
                     double scale, size_t slots) {
    if (capturing(a)) { // copied out after every launch of the graph
      a.graph->outputs.push_back({std::move(polys), level, scale, slots});
      return;
    }
    cuda::BasicDeviceCiphertext<W> ct;
    ct.parts = static_cast<int>(polys.size());
    ct.level = level;
    ct.scale = scale;
    ct.slots = slots;
    ct.n = host(a).n();
    ct.buf = cuda::DeviceBuffer(*a.ctx,
                                Poly::wordsFor(ct.parts * ct.limbs() * ct.n));
    for (int i = 0; i < ct.parts; ++i)
      copyWords(*a.ctx, ct.part(i), polys[i].data(), ct.limbs() * ct.n);
    a.outputs->push_back(std::move(ct));
  }
};

} // namespace

template <typename W>
void cudaCheckInput(const std::vector<cuda::BasicDeviceCiphertext<W>> &in,
                    size_t index, const char *name, int parts, int level,
                    size_t slots, double scale) {
  if (index >= in.size())
    checkInputMetadata(name, index, in.size(), 0, 0, 0, 0, parts, level, slots,
                       scale);
  const cuda::BasicDeviceCiphertext<W> &ct = in[index];
  checkInputMetadata(name, index, in.size(), ct.parts, ct.level, ct.slots,
                     ct.scale, parts, level, slots, scale);
}
template void cudaCheckInput(const std::vector<cuda::DeviceCiphertext> &,
                             size_t, const char *, int, int, size_t, double);
template void cudaCheckInput(const std::vector<cuda::DeviceCiphertext32> &,
                             size_t, const char *, int, int, size_t, double);

void checkLaunch(cudaError_t e) { cudaCheck(e, "generated kernel launch"); }

template <typename Word> void BasicCudaGraph<Word>::reset() {
  if (exec)
    cudaGraphExecDestroy(exec);
  if (graph)
    cudaGraphDestroy(graph);
  exec = nullptr;
  graph = nullptr;
  nodes = kernel_nodes = path_nodes = 0;
  outputs.clear();
  inputs.clear();
  sites.reset();
  copies_because.clear();
  if (ctx) {
    ctx->synchronize(); // a launched graph may still use the blocks
    ctx->releaseBlocks(blocks);
  }
  for (PlainSlot &slot : plains)
    if (slot.host)
      cudaFreeHost(slot.host);
  plains.clear();
  if (plains_read)
    cudaEventDestroy(plains_read);
  plains_read = nullptr;
  blocks.clear();
  warmed = capturing = false;
}
template struct BasicCudaGraph<uint64_t>;
template struct BasicCudaGraph<uint32_t>;

namespace {

/// The checks of the run's inputs that the captured steps no longer make
/// (this device's steps).
template <typename W>
void checkInputs(const BasicCudaArgs<W> &args, const Plan<CudaKernel> &plan) {
  for (size_t i = 0; i < plan.step_count; ++i) {
    const Step &s = plan.steps[i];
    if (!onDevice(plan, s, args.device_index))
      continue;
    if (s.kind == StepKind::kInput)
      cudaCheckInput(*args.inputs, static_cast<size_t>(s.imm[0]),
                     plan.input_names[s.imm[0]], s.nout,
                     static_cast<int>(s.imm[1]), static_cast<size_t>(s.imm[2]),
                     s.scale);
    else if (s.kind == StepKind::kPlainInput)
      plainInput(args.plain, static_cast<size_t>(s.imm[0]),
                 plan.plain_names[s.imm[0]], static_cast<size_t>(s.imm[1]));
  }
}

/// The graph's input and plaintext slots, one buffer each, allocated
/// before the capture so that no captured step reuses them.
template <typename W>
void allocateSlots(const BasicCudaArgs<W> &args, const Plan<CudaKernel> &plan,
                   BasicCudaGraph<W> &g) {
  const Context<W> &h = cuda::hostOf<W>(*args.ctx);
  for (size_t i = 0; i < plan.step_count; ++i) {
    const Step &s = plan.steps[i];
    if (!onDevice(plan, s, args.device_index))
      continue;
    if (s.kind == StepKind::kInput)
      for (int32_t j = 0; j < s.nout; ++j)
        g.inputs.push_back(
            {static_cast<size_t>(s.imm[0]), j,
             CudaBackend<W>::place(
                 args, h.qBasis(static_cast<int>(s.imm[1])), true,
                 plan.buffers[plan.args[s.out + j]].offset, false)});
    else if (s.kind == StepKind::kEncodeValues) {
      const BufferSpec &b = plan.buffers[plan.args[s.out]];
      typename BasicCudaGraph<W>::PlainSlot slot{
          static_cast<size_t>(s.imm[0]), s.scale,
          CudaBackend<W>::place(args, bufferBasis(h, b), b.ntt != 0, b.offset,
                                false)};
      slot.words = slot.poly.basis.size() * slot.poly.n;
      cudaCheck(cudaMallocHost(&slot.host, slot.words * sizeof(W)),
                "cudaMallocHost");
      g.plains.push_back(std::move(slot));
    }
  }
  if (!g.plains.empty() && !g.plains_read)
    cudaCheck(cudaEventCreateWithFlags(&g.plains_read, cudaEventDisableTiming),
              "cudaEventCreate");
}

/// This run's plaintext inputs, encoded into the slots' host buffers once
/// the last launch that read them has (the launch copies them in).
template <typename W>
void stagePlains(const BasicCudaArgs<W> &args, const Plan<CudaKernel> &plan,
                 BasicCudaGraph<W> &g) {
  if (g.plains.empty())
    return;
  cudaCheck(cudaEventSynchronize(g.plains_read), "cudaEventSynchronize");
  for (typename BasicCudaGraph<W>::PlainSlot &slot : g.plains) {
    const Poly<W> p =
        encodeValues(cuda::hostOf<W>(*args.ctx), (*args.plain)[slot.plain],
                     slot.scale, slot.poly.basis, slot.poly.ntt,
                     plan.plain_modulus, plan.bfv_plain_modulus);
    std::copy(p.data.begin(), p.data.end(), slot.host);
  }
}

/// Launches the captured graph (after stagePlains).
template <typename W>
void launch(const cuda::DeviceContext &ctx, BasicCudaGraph<W> &g) {
  cudaCheck(cudaGraphLaunch(g.exec, ctx.stream()), "cudaGraphLaunch");
  if (g.plains_read)
    cudaCheck(cudaEventRecord(g.plains_read, ctx.stream()), "cudaEventRecord");
}

} // namespace

/// The nodes of a captured graph that hold its inputs' and outputs'
/// addresses, and where in their parameters (BasicCudaGraph::in_place).
/// The slots: the graph's input slots, then each output's polynomials.
struct InPlaceSites {
  /// A word of a node's parameters that holds slot `slot`'s address plus
  /// `offset` bytes: at byte `at` of a kernel's parameter bytes, or a
  /// copy's source (at 0) or destination (at 8), or a memset's
  /// destination.
  struct Site {
    size_t at;
    size_t slot;
    uint64_t offset;
  };
  struct Node {
    cudaGraphNode_t node = nullptr;
    enum Kind { kKernel, kCopy, kMemset } kind = kKernel;
    CUDA_KERNEL_NODE_PARAMS params{}; ///< kernel: kernelParams -> args
    std::vector<unsigned char> bytes; ///< its parameters, as captured
    std::vector<void *> args;         ///< each parameter's place in bytes
    cudaMemcpy3DParms copy{};         ///< a copy node's parameters
    cudaMemsetParams memset{};        ///< a memset node's (a site: dst)
    std::vector<Site> sites;
  };
  std::vector<Node> nodes;
  /// Each slot's address in the graph now (as captured until a replay
  /// points it at an input or an output).
  std::vector<uint64_t> bound;
};

namespace {

/// A driver function by name and the CUDA version of its signature,
/// through the runtime (no link against libcuda); null where the driver
/// (or this build's CUDA, before 12.5) lacks it.
void *driverEntry(const char *name, int version) {
#if CUDART_VERSION >= 12050
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &fn, version, cudaEnableDefault,
                                       &found) == cudaSuccess &&
      found == cudaDriverEntryPointSuccess)
    return fn;
#else
  (void)name;
  (void)version;
#endif
  return nullptr;
}

/// The driver's kernel-node calls, or null where it lacks them.
struct GraphDriver {
  CUresult (*get)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS *) = nullptr;
  CUresult (*set)(CUgraphExec, CUgraphNode,
                  const CUDA_KERNEL_NODE_PARAMS *) = nullptr;
  CUresult (*param)(CUfunction, size_t, size_t *, size_t *) = nullptr;
  CUresult (*name)(const char **, CUfunction) = nullptr; ///< may be null
};
const GraphDriver *graphDriver() {
  static const GraphDriver d = [] {
    GraphDriver r;
    r.get = reinterpret_cast<decltype(r.get)>(
        driverEntry("cuGraphKernelNodeGetParams", 12000));
    r.set = reinterpret_cast<decltype(r.set)>(
        driverEntry("cuGraphExecKernelNodeSetParams", 12000));
    r.param = reinterpret_cast<decltype(r.param)>(
        driverEntry("cuFuncGetParamInfo", 12040));
    r.name =
        reinterpret_cast<decltype(r.name)>(driverEntry("cuFuncGetName", 12030));
    return r;
  }();
  return d.get && d.set && d.param ? &d : nullptr;
}

using Blocks = std::vector<std::pair<uint64_t *, size_t>>;
/// Whether address x lies in one of a capture's temporaries.
bool inBlocks(uint64_t x, const Blocks &blocks) {
  for (const auto &[p, words] : blocks) {
    const uint64_t at = reinterpret_cast<uint64_t>(p);
    if (x >= at && x - at < words * 8)
      return true;
  }
  return false;
}

/// The two captures of one node: the graph's and the second, with the
/// slots moved from `from` to `to`. Each 8-byte word of `a` (the graph's)
/// that differs from `b` must either lie in a slot and have moved by
/// exactly that slot's displacement (a site, appended to `out`), or lie
/// in a temporary of its capture in both (`blocks1`, `blocks2`: the
/// graph's own, kept with it). Returns false for any other difference.
struct Moves {
  std::vector<std::pair<uint64_t, uint64_t>> from; ///< slot: address, bytes
  std::vector<uint64_t> to;
  Blocks blocks1, blocks2;
};
bool slotWords(const unsigned char *a, const unsigned char *b, size_t begin,
               size_t size, const Moves &m,
               std::vector<InPlaceSites::Site> &out) {
  const auto &from = m.from;
  const auto &to = m.to;
  size_t k = 0;
  for (; k + 8 <= size; k += 8) {
    uint64_t x, y;
    std::memcpy(&x, a + begin + k, 8);
    std::memcpy(&y, b + begin + k, 8);
    if (x == y)
      continue;
    bool found = false;
    for (size_t s = 0; s < from.size() && !found; ++s)
      if (x >= from[s].first && x - from[s].first < from[s].second &&
          y - x == to[s] - from[s].first) {
        out.push_back({begin + k, s, x - from[s].first});
        found = true;
      }
    if (!found && !(inBlocks(x, m.blocks1) && inBlocks(y, m.blocks2)))
      return false;
  }
  return std::memcmp(a + begin + k, b + begin + k, size - k) == 0;
}

/// A kernel node's parameter bytes, and each parameter's offset in them.
bool kernelParams(const GraphDriver &drv, cudaGraphNode_t node,
                  CUDA_KERNEL_NODE_PARAMS &p, std::vector<unsigned char> &bytes,
                  std::vector<size_t> &offsets, std::vector<size_t> &sizes) {
  p = CUDA_KERNEL_NODE_PARAMS{};
  if (drv.get(reinterpret_cast<CUgraphNode>(node), &p) != CUDA_SUCCESS ||
      !p.func || p.extra || !p.kernelParams)
    return false;
  offsets.clear();
  sizes.clear();
  size_t end = 0;
  for (size_t i = 0;; ++i) {
    size_t off = 0, size = 0;
    if (drv.param(p.func, i, &off, &size) != CUDA_SUCCESS)
      break;
    offsets.push_back(off);
    sizes.push_back(size);
    end = std::max(end, off + size);
  }
  bytes.assign(end, 0);
  for (size_t i = 0; i < offsets.size(); ++i)
    std::memcpy(bytes.data() + offsets[i], p.kernelParams[i], sizes[i]);
  return true;
}

/// A kernel's name for a diagnostic (the driver's, or "a kernel").
std::string kernelName(const GraphDriver &drv, CUfunction f) {
  const char *s = nullptr;
  if (drv.name && f && drv.name(&s, f) == CUDA_SUCCESS && s)
    return s;
  return "a kernel";
}

using cuda::captureDeps;
using cuda::setCaptureDeps;

/// Whether g's steps are captured as a DAG (BasicCudaGraph::concurrent):
/// with the arena (the dependencies are the memory plan's). A program of
/// several devices: each device's graph is a DAG of its own steps.
template <typename W>
bool capturesDag(const BasicCudaArgs<W> &args, const BasicCudaGraph<W> &g) {
  return g.concurrent && args.arena;
}

/// The steps captured as a DAG (program_deps.h): before each step the
/// capture stream's dependency set becomes the last nodes of the steps it
/// follows (the nodes before the first step for a step that follows
/// none), after it the step's own last nodes are read back (a step that
/// captures nothing passes its dependencies on). finish() joins every
/// step's last nodes and whatever the stream follows now (a program of
/// several devices: its transfers' stream), so that whatever is captured
/// after follows them all.
class StepDag {
public:
  StepDag(cudaStream_t stream, std::vector<std::vector<int32_t>> preds)
      : stream_(stream), preds_(std::move(preds)), last_(preds_.size()),
        depth_(preds_.size(), 0), own_(preds_.size(), 0),
        start_(captureDeps(stream)) {}

  void operator()(size_t i, bool before) {
    if (before) {
      std::vector<cudaGraphNode_t> deps;
      size_t depth = 0;
      for (int32_t p : preds_[i]) {
        deps.insert(deps.end(), last_[p].begin(), last_[p].end());
        depth = std::max(depth, depth_[p]);
      }
      if (preds_[i].empty())
        deps = start_;
      std::sort(deps.begin(), deps.end());
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
      setCaptureDeps(stream_, deps);
      depth_[i] = depth;
      nodes_before_ = graphNodes();
      return;
    }
    last_[i] = captureDeps(stream_);
    own_[i] = graphNodes() - nodes_before_;
    depth_[i] += own_[i];
    path_ = std::max(path_, depth_[i]);
    if (!nodes_.empty())
      recordNodes(i);
  }
  /// Keeps each step's nodes (for senders() and critical()).
  void keepNodes() { nodes_.resize(preds_.size()); }
  /// The kernel nodes of the steps on a longest chain of the DAG (with
  /// keepNodes()): one device runs them first, at the greatest priority,
  /// so that independent work fills the GPU around them instead of
  /// delaying them.
  std::vector<cudaGraphNode_t> critical() const {
    const size_t n = preds_.size();
    std::vector<size_t> height(n, 0); // nodes from step i to the end
    for (size_t i = n; i-- > 0;) {
      height[i] += own_[i];
      for (int32_t p : preds_[i])
        height[p] = std::max(height[p], height[i]);
    }
    std::vector<char> mark(n, 0);
    for (size_t i = 0; i < n; ++i)
      mark[i] = own_[i] > 0 && depth_[i] + height[i] - own_[i] == path_;
    return kernelsOf(mark);
  }
  /// The kernel nodes of the steps that a send of `device` follows (with
  /// keepNodes()): a program of several devices runs them first, at the
  /// greatest priority, so that the other device waits as little as in
  /// the partition's order.
  std::vector<cudaGraphNode_t> senders(const Plan<CudaKernel> &plan,
                                       int device) const {
    std::vector<char> mark(preds_.size(), 0);
    for (size_t i = preds_.size(); i-- > 0;) {
      const Step &s = plan.steps[i];
      if (s.kind == StepKind::kTransfer && s.device == device)
        mark[i] = 1;
      if (mark[i])
        for (int32_t p : preds_[i])
          mark[p] = 1;
    }
    return kernelsOf(mark);
  }

  /// Joins the steps' last nodes (those of steps no later step follows).
  void finish() {
    std::vector<char> followed(preds_.size(), 0);
    for (const std::vector<int32_t> &ps : preds_)
      for (int32_t p : ps)
        followed[p] = 1;
    std::vector<cudaGraphNode_t> sinks = captureDeps(stream_);
    sinks.insert(sinks.end(), start_.begin(), start_.end());
    for (size_t i = 0; i < preds_.size(); ++i)
      if (!followed[i])
        sinks.insert(sinks.end(), last_[i].begin(), last_[i].end());
    std::sort(sinks.begin(), sinks.end());
    sinks.erase(std::unique(sinks.begin(), sinks.end()), sinks.end());
    setCaptureDeps(stream_, sinks);
  }
  /// Nodes on the longest chain of the captured steps.
  size_t pathNodes() const { return path_; }

private: /// The kernel nodes of the marked steps.
  std::vector<cudaGraphNode_t> kernelsOf(const std::vector<char> &mark) const {
    std::vector<cudaGraphNode_t> out;
    for (size_t i = 0; i < preds_.size(); ++i)
      if (mark[i] && i < nodes_.size())
        for (cudaGraphNode_t n : nodes_[i]) {
          cudaGraphNodeType type;
          cudaCheck(cudaGraphNodeGetType(n, &type), "cudaGraphNodeGetType");
          if (type == cudaGraphNodeTypeKernel)
            out.push_back(n);
        }
    return out;
  }
  /// The graph being captured.
  cudaGraph_t graph() const {
    cudaStreamCaptureStatus status;
    cudaGraph_t graph = nullptr;
#if CUDART_VERSION >= 13000
    cudaCheck(cudaStreamGetCaptureInfo(stream_, &status, nullptr, &graph),
              "cudaStreamGetCaptureInfo");
#elif CUDART_VERSION >= 12030
    cudaCheck(cudaStreamGetCaptureInfo_v3(stream_, &status, nullptr, &graph),
              "cudaStreamGetCaptureInfo");
#else
    cudaCheck(cudaStreamGetCaptureInfo_v2(stream_, &status, nullptr, &graph),
              "cudaStreamGetCaptureInfo");
#endif
    return graph;
  }
  size_t graphNodes() const {
    size_t count = 0;
    cudaCheck(cudaGraphGetNodes(graph(), nullptr, &count), "cudaGraphGetNodes");
    return count;
  }
  /// Records the nodes step i added (those not seen before).
  void recordNodes(size_t i) {
    size_t count = graphNodes();
    std::vector<cudaGraphNode_t> all(count);
    cudaCheck(cudaGraphGetNodes(graph(), all.data(), &count),
              "cudaGraphGetNodes");
    for (cudaGraphNode_t n : all)
      if (seen_.insert(n).second)
        nodes_[i].push_back(n);
  }

  cudaStream_t stream_;
  std::vector<std::vector<int32_t>> preds_;
  std::vector<std::vector<cudaGraphNode_t>> last_;
  std::vector<size_t> depth_, own_; // nodes on the longest chain to i; i's
  std::vector<cudaGraphNode_t> start_;
  size_t nodes_before_ = 0, path_ = 0;
  std::set<cudaGraphNode_t> seen_;
  std::vector<std::vector<cudaGraphNode_t>> nodes_; // per step (keepNodes)
};

/// Runs ex's steps into the open capture, as a DAG where `dag`
/// (capturesDag), else in order; the nodes on the DAG's longest chain (0
/// in order). `first`: where given, a DAG puts there the kernel nodes to
/// run first (BasicCudaGraph::prioritized): those its sends follow on a
/// device of several (StepDag::senders), those on its longest chain on
/// one (StepDag::critical).
template <typename W>
size_t runCaptured(const BasicCudaArgs<W> &args, const Plan<CudaKernel> &plan,
                   bool dag, Executor<CudaBackend<W>> &ex,
                   std::vector<cudaGraphNode_t> *first = nullptr) {
  if (!dag) {
    ex.run();
    return 0;
  }
  const Context<W> &h = cuda::hostOf<W>(*args.ctx);
  StepDag steps(args.ctx->stream(),
                stepDependencies(plan, int64_t(h.n() * sizeof(W)),
                                 static_cast<int>(h.tBasis().size()),
                                 args.device_index));
  if (first)
    steps.keepNodes();
  ex.around(std::ref(steps));
  ex.run();
  steps.finish();
  if (first)
    *first = plan.deviceCount() > 1 ? steps.senders(plan, args.device_index)
                                    : steps.critical();
  return steps.pathNodes();
}

/// The sites of the inputs and outputs in g's graph, from a second
/// capture of the same steps with every input slot and every output
/// buffer moved to memory of its own; null when the captures differ in
/// anything else (the graph then copies its inputs and outputs, and `why`
/// says what differed). See BasicCudaGraph::in_place.
template <typename W>
std::shared_ptr<InPlaceSites>
findSites(const BasicCudaArgs<W> &args, const Plan<CudaKernel> &plan,
          BasicCudaGraph<W> &g, std::string &why) {
  using Poly = cuda::BasicDevicePoly<W>;
  const GraphDriver *drv = graphDriver();
  if (plan.deviceCount() > 1) {
    why = "a program of several devices (NCCL's transfers hold addresses "
          "outside the graph's nodes)";
    return nullptr;
  }
  if (!drv) {
    why = "the CUDA driver lacks the kernel-node calls (a driver of CUDA "
          "12.4 or newer, a build of 12.5 or newer)";
    return nullptr;
  }
  const cuda::DeviceContext &ctx = *args.ctx;
  const size_t n = cuda::hostOf<W>(ctx).n();
  // The slots: each input part, then each output polynomial, with the
  // buffer that holds it (outputs: their kOutput steps' buffers, each
  // its own).
  struct Slot {
    const Poly *poly; // as captured
    int32_t buffer;   // an output's plan buffer (-1: an input)
  };
  std::vector<Slot> slots;
  for (const typename BasicCudaGraph<W>::InputSlot &in : g.inputs)
    slots.push_back({&in.poly, -1});
  std::vector<int32_t> out_buffers;
  for (size_t i = 0; i < plan.step_count; ++i) {
    const Step &st = plan.steps[i];
    if (st.kind == StepKind::kOutput && onDevice(plan, st, args.device_index))
      for (int32_t j = 0; j < st.nin; ++j)
        out_buffers.push_back(plan.args[st.in + j]);
  }
  {
    size_t k = 0;
    for (const typename BasicCudaGraph<W>::Output &o : g.outputs)
      for (const Poly &p : o.polys) {
        if (k >= out_buffers.size() ||
            p.basis.size() != static_cast<size_t>(o.level + 1)) {
          why = "an output's polynomials do not match its steps";
          return nullptr;
        }
        slots.push_back({&p, out_buffers[k++]});
      }
    std::vector<int32_t> sorted = out_buffers;
    std::sort(sorted.begin(), sorted.end());
    if (k != out_buffers.size() ||
        std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      why = "an output buffer serves two outputs";
      return nullptr;
    }
  }
  if (slots.empty()) {
    why = "no encrypted inputs or outputs";
    return nullptr;
  }
  // Their places in the graph, and elsewhere for the second capture: one
  // allocation of the device's, freed after (not the pool's, which would
  // keep it).
  Moves m;
  size_t total = 0;
  for (const Slot &sl : slots)
    total += Poly::wordsFor(sl.poly->basis.size() * n);
  uint64_t *room = nullptr;
  cudaCheck(cudaMalloc(&room, total * 8), "in place: cudaMalloc");
  std::unique_ptr<uint64_t, decltype(&cudaFree)> room_owner(room, cudaFree);
  std::vector<Poly> moved(slots.size());
  std::vector<int32_t> relocated(plan.buffer_count, -1); // buffer -> slot
  for (size_t s = 0; s < slots.size(); ++s) {
    const Poly &p = *slots[s].poly;
    const size_t words = Poly::wordsFor(p.basis.size() * n);
    m.from.push_back(
        {reinterpret_cast<uint64_t>(p.data()), p.basis.size() * n * sizeof(W)});
    moved[s].n = n;
    moved[s].ntt = p.ntt;
    moved[s].basis = p.basis;
    moved[s].buf = cuda::DeviceBuffer::borrow(room, words);
    room += words;
    m.to.push_back(reinterpret_cast<uint64_t>(moved[s].data()));
    if (slots[s].buffer >= 0)
      relocated[slots[s].buffer] = static_cast<int32_t>(s);
  }
  // Slots whose captured ranges overlap (an output in an input's arena
  // place) must move by different amounts, so that a word is one slot's.
  for (size_t s = 0; s < slots.size(); ++s)
    for (size_t t = s + 1; t < slots.size(); ++t) {
      const auto &[a, an] = m.from[s];
      const auto &[b, bn] = m.from[t];
      if (a < b + bn && b < a + an && m.to[s] - a == m.to[t] - b) {
        why = "two overlapping slots moved alike";
        return nullptr;
      }
    }
  const size_t inputs = g.inputs.size();
  for (size_t s = 0; s < inputs; ++s)
    std::swap(g.inputs[s].poly, moved[s]);
  auto outputs = std::move(g.outputs);
  g.outputs.clear();
  cudaStream_t stream = ctx.stream();
  cudaGraph_t second = nullptr;
  Blocks blocks;
  const bool dag = capturesDag(args, g);
  ctx.beginCapture(!dag);
  g.capturing = true;
  bool captured = cudaStreamBeginCapture(
                      stream, cudaStreamCaptureModeRelaxed) == cudaSuccess;
  try {
    if (captured) {
      Executor<CudaBackend<W>> ex(args, plan, args.device_index);
      ex.relocate([&](int32_t b, Poly &out) {
        if (relocated[b] < 0)
          return false;
        out = CudaBackend<W>::borrowed(moved[relocated[b]]);
        return true;
      });
      runCaptured(args, plan, dag, ex);
    }
  } catch (const std::exception &e) {
    captured = false;
    why = std::string("the second capture failed: ") + e.what();
  }
  g.capturing = false;
  blocks = ctx.endCapture();
  if (cudaStreamEndCapture(stream, &second) != cudaSuccess && captured) {
    captured = false;
    why = "the second capture failed";
  }
  for (size_t s = 0; s < inputs; ++s)
    std::swap(g.inputs[s].poly, moved[s]);
  // Each output of the second capture must be its moved buffer itself
  // (not a copy, an input or a temporary).
  bool same = captured && second && outputs.size() == g.outputs.size();
  for (size_t i = 0, s = inputs; same && i < g.outputs.size(); ++i)
    for (const Poly &p : g.outputs[i].polys)
      if (s >= slots.size() ||
          reinterpret_cast<uint64_t>(p.data()) != m.to[s++]) {
        same = false;
        why = "output " + std::to_string(i) + " is not a buffer of its own";
      }
  g.outputs = std::move(outputs);
  m.blocks1 = g.blocks;
  m.blocks2 = blocks;
  auto sites = std::make_shared<InPlaceSites>();
  size_t count = 0, count2 = 0;
  std::vector<cudaGraphNode_t> n1, n2;
  if (same) {
    cudaCheck(cudaGraphGetNodes(g.graph, nullptr, &count), "cudaGraphGetNodes");
    cudaCheck(cudaGraphGetNodes(second, nullptr, &count2), "cudaGraphGetNodes");
    n1.resize(count);
    n2.resize(count2);
    cudaCheck(cudaGraphGetNodes(g.graph, n1.data(), &count),
              "cudaGraphGetNodes");
    cudaCheck(cudaGraphGetNodes(second, n2.data(), &count2),
              "cudaGraphGetNodes");
    if (count != count2) {
      same = false;
      why = "the captures have " + std::to_string(count) + " and " +
            std::to_string(count2) + " nodes";
    }
  }
  for (size_t i = 0; same && i < count; ++i) {
    const std::string at =
        "node " + std::to_string(i) + " of " + std::to_string(count) + ": ";
    cudaGraphNodeType t1, t2;
    cudaCheck(cudaGraphNodeGetType(n1[i], &t1), "cudaGraphNodeGetType");
    cudaCheck(cudaGraphNodeGetType(n2[i], &t2), "cudaGraphNodeGetType");
    if (t1 != t2) {
      same = false;
      why = at + "of types " + std::to_string(int(t1)) + " and " +
            std::to_string(int(t2));
      break;
    }
    InPlaceSites::Node node;
    node.node = n1[i];
    if (t1 == cudaGraphNodeTypeKernel) {
      CUDA_KERNEL_NODE_PARAMS p2;
      std::vector<unsigned char> b2;
      std::vector<size_t> off1, size1, off2, size2;
      if (!kernelParams(*drv, n1[i], node.params, node.bytes, off1, size1) ||
          !kernelParams(*drv, n2[i], p2, b2, off2, size2)) {
        same = false;
        why = at + "a kernel whose parameters cannot be read";
        break;
      }
      const std::string name = kernelName(*drv, node.params.func);
      same = node.params.func == p2.func && off1 == off2 && size1 == size2 &&
             node.params.gridDimX == p2.gridDimX &&
             node.params.gridDimY == p2.gridDimY &&
             node.params.gridDimZ == p2.gridDimZ &&
             node.params.blockDimX == p2.blockDimX &&
             node.params.blockDimY == p2.blockDimY &&
             node.params.blockDimZ == p2.blockDimZ &&
             node.params.sharedMemBytes == p2.sharedMemBytes;
      if (!same) {
        why = at + name + " launched differently";
        break;
      }
      for (size_t k = 0; same && k < off1.size(); ++k)
        if (!slotWords(node.bytes.data(), b2.data(), off1[k], size1[k], m,
                       node.sites)) {
          same = false;
          why = at + name + ", parameter " + std::to_string(k) + " (" +
                std::to_string(size1[k]) +
                " bytes) differs other than by an input's address";
        }
      if (same && !node.sites.empty()) {
        for (size_t k = 0; k < off1.size(); ++k)
          node.args.push_back(node.bytes.data() + off1[k]);
        sites->nodes.push_back(std::move(node));
      }
    } else if (t1 == cudaGraphNodeTypeMemcpy) {
      cudaMemcpy3DParms c2{};
      cudaCheck(cudaGraphMemcpyNodeGetParams(n1[i], &node.copy),
                "cudaGraphMemcpyNodeGetParams");
      cudaCheck(cudaGraphMemcpyNodeGetParams(n2[i], &c2),
                "cudaGraphMemcpyNodeGetParams");
      // Equal but for the source and the destination, each of which may
      // be a slot (a site at 0: the source, 8: the destination) or in the
      // captures' temporaries.
      cudaMemcpy3DParms a = node.copy, b = c2;
      a.srcPtr.ptr = b.srcPtr.ptr = a.dstPtr.ptr = b.dstPtr.ptr = nullptr;
      const uint64_t w1[2] = {reinterpret_cast<uint64_t>(node.copy.srcPtr.ptr),
                              reinterpret_cast<uint64_t>(node.copy.dstPtr.ptr)};
      const uint64_t w2[2] = {reinterpret_cast<uint64_t>(c2.srcPtr.ptr),
                              reinterpret_cast<uint64_t>(c2.dstPtr.ptr)};
      same = std::memcmp(&a, &b, sizeof a) == 0 &&
             slotWords(reinterpret_cast<const unsigned char *>(w1),
                       reinterpret_cast<const unsigned char *>(w2), 0, 16, m,
                       node.sites);
      if (!same)
        why = at + "a copy differs other than by an input's or an output's "
                   "address";
      node.kind = InPlaceSites::Node::kCopy;
      if (same && !node.sites.empty())
        sites->nodes.push_back(std::move(node));
    } else if (t1 == cudaGraphNodeTypeMemset) {
      cudaMemsetParams m2{};
      cudaCheck(cudaGraphMemsetNodeGetParams(n1[i], &node.memset),
                "cudaGraphMemsetNodeGetParams");
      cudaCheck(cudaGraphMemsetNodeGetParams(n2[i], &m2),
                "cudaGraphMemsetNodeGetParams");
      cudaMemsetParams a = node.memset, b = m2;
      const uint64_t d1 = reinterpret_cast<uint64_t>(a.dst);
      const uint64_t d2 = reinterpret_cast<uint64_t>(b.dst);
      a.dst = b.dst = nullptr;
      same = std::memcmp(&a, &b, sizeof a) == 0 &&
             slotWords(reinterpret_cast<const unsigned char *>(&d1),
                       reinterpret_cast<const unsigned char *>(&d2), 0, 8, m,
                       node.sites);
      if (!same)
        why = at + "a memset differs other than by an output's address";
      node.kind = InPlaceSites::Node::kMemset;
      if (same && !node.sites.empty())
        sites->nodes.push_back(std::move(node));
    } else if (t1 != cudaGraphNodeTypeEmpty &&
               t1 != cudaGraphNodeTypeEventRecord &&
               t1 != cudaGraphNodeTypeWaitEvent) {
      // Nodes that hold no device address (orderings) are passed over;
      // anything else (a host node, a child graph) keeps the copies.
      same = false;
      why = at + "of type " + std::to_string(int(t1));
    }
  }
  if (second)
    cudaGraphDestroy(second);
  ctx.releaseBlocks(blocks); // never launched
  cudaGetLastError();        // a refused capture's error is not the run's
  if (!same)
    return nullptr;
  for (const auto &[address, bytes] : m.from)
    sites->bound.push_back(address);
  why.clear();
  return sites;
}

/// Points the graph at the run's input ciphertexts and at new output
/// ciphertexts (the nodes of the slots that moved since the last replay),
/// which it returns.
template <typename W>
std::vector<cuda::BasicDeviceCiphertext<W>>
bindSlots(const BasicCudaArgs<W> &args, BasicCudaGraph<W> &g) {
  using Poly = cuda::BasicDevicePoly<W>;
  InPlaceSites &sites = *g.sites;
  std::vector<uint64_t> want;
  for (const auto &slot : g.inputs)
    want.push_back(
        reinterpret_cast<uint64_t>((*args.inputs)[slot.input].part(slot.part)));
  std::vector<cuda::BasicDeviceCiphertext<W>> outs;
  for (const typename BasicCudaGraph<W>::Output &o : g.outputs) {
    cuda::BasicDeviceCiphertext<W> ct;
    ct.parts = static_cast<int>(o.polys.size());
    ct.level = o.level;
    ct.scale = o.scale;
    ct.slots = o.slots;
    ct.n = cuda::hostOf<W>(*args.ctx).n();
    ct.buf = cuda::DeviceBuffer(*args.ctx,
                                Poly::wordsFor(ct.parts * ct.limbs() * ct.n));
    for (int i = 0; i < ct.parts; ++i)
      want.push_back(reinterpret_cast<uint64_t>(ct.part(i)));
    outs.push_back(std::move(ct));
  }
  if (want == sites.bound)
    return outs;
  const GraphDriver &drv = *graphDriver();
  for (InPlaceSites::Node &node : sites.nodes) {
    bool changed = false;
    for (const InPlaceSites::Site &site : node.sites)
      changed |= want[site.slot] != sites.bound[site.slot];
    if (!changed)
      continue;
    using Node = InPlaceSites::Node;
    for (const InPlaceSites::Site &site : node.sites) {
      const uint64_t address = want[site.slot] + site.offset;
      void *at = reinterpret_cast<void *>(address);
      if (node.kind == Node::kKernel)
        std::memcpy(node.bytes.data() + site.at, &address, 8);
      else if (node.kind == Node::kMemset)
        node.memset.dst = at;
      else if (site.at == 0)
        node.copy.srcPtr.ptr = at;
      else
        node.copy.dstPtr.ptr = at;
    }
    if (node.kind == Node::kMemset) {
      cudaCheck(
          cudaGraphExecMemsetNodeSetParams(g.exec, node.node, &node.memset),
          "in place: cudaGraphExecMemsetNodeSetParams");
    } else if (node.kind == Node::kKernel) {
      node.params.kernelParams = node.args.data();
      if (drv.set(reinterpret_cast<CUgraphExec>(g.exec),
                  reinterpret_cast<CUgraphNode>(node.node),
                  &node.params) != CUDA_SUCCESS)
        throw Error("in place: cuGraphExecKernelNodeSetParams failed");
    } else {
      cudaCheck(cudaGraphExecMemcpyNodeSetParams(g.exec, node.node, &node.copy),
                "in place: cudaGraphExecMemcpyNodeSetParams");
    }
  }
  sites.bound = std::move(want);
  return outs;
}

template <typename W>
void capture(const BasicCudaArgs<W> &args, const Plan<CudaKernel> &plan,
             BasicCudaGraph<W> &g) {
  const cuda::DeviceContext &ctx = *args.ctx;
  allocateSlots(args, plan, g);
  cudaStream_t stream = ctx.stream();
  const bool dag = capturesDag(args, g);
  std::vector<cudaGraphNode_t> first; // run before the other kernels
  cuda::takePriorityNodes(ctx);       // none left from an earlier capture
  ctx.beginCapture(!dag);
  g.capturing = true;
  cudaCheck(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed),
            "cudaStreamBeginCapture");
  try {
    // Its buffers die in the capture.
    Executor<CudaBackend<W>> ex(args, plan, args.device_index);
    g.path_nodes =
        runCaptured(args, plan, dag, ex, g.prioritized ? &first : nullptr);
  } catch (...) {
    g.capturing = false;
    g.blocks = ctx.endCapture();
    if (cudaStreamEndCapture(stream, &g.graph) != cudaSuccess)
      g.graph = nullptr;
    g.reset(); // destroys the partial graph, gives the blocks back
    throw;
  }
  g.capturing = false;
  g.blocks = ctx.endCapture();
  cudaCheck(cudaStreamEndCapture(stream, &g.graph), "cudaStreamEndCapture");
  // The first branches of overlapped key switches (cuda::keySwitchDown)
  // run at the greatest priority; `first` at the next one where there are
  // any (else at the greatest too).
  const std::vector<cudaGraphNode_t> top = cuda::takePriorityNodes(ctx);
  unsigned long long flags = 0;
  if (!first.empty() || !top.empty()) {
    int least = 0, greatest = 0;
    cudaCheck(cudaDeviceGetStreamPriorityRange(&least, &greatest),
              "cudaDeviceGetStreamPriorityRange");
    const auto set = [](const std::vector<cudaGraphNode_t> &nodes, int p) {
      cudaLaunchAttributeValue v{};
      v.priority = p;
      for (cudaGraphNode_t n : nodes)
        cudaCheck(
            cudaGraphKernelNodeSetAttribute(n, cudaLaunchAttributePriority, &v),
            "cudaGraphKernelNodeSetAttribute");
    };
    set(first, !top.empty() && greatest < least ? greatest + 1 : greatest);
    set(top, greatest);
    flags |= cudaGraphInstantiateFlagUseNodePriority;
  }
  cudaCheck(cudaGraphInstantiate(&g.exec, g.graph, flags),
            "cudaGraphInstantiate");
  cudaCheck(cudaGraphGetNodes(g.graph, nullptr, &g.nodes), "cudaGraphGetNodes");
  std::vector<cudaGraphNode_t> nodes(g.nodes);
  cudaCheck(cudaGraphGetNodes(g.graph, nodes.data(), &g.nodes),
            "cudaGraphGetNodes");
  g.kernel_nodes = 0;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    cudaCheck(cudaGraphNodeGetType(node, &type), "cudaGraphNodeGetType");
    g.kernel_nodes += type == cudaGraphNodeTypeKernel;
  }
  if (!dag)
    g.path_nodes = g.nodes; // one chain
  if (g.in_place)
    g.sites = findSites(args, plan, g, g.copies_because);
  else
    g.copies_because = "in_place is off";
}

/// One run of the captured graph: inputs and outputs bound (or inputs
/// copied in), launch, (outputs copied out).
template <typename W>
void replay(const BasicCudaArgs<W> &args, const Plan<CudaKernel> &plan,
            BasicCudaGraph<W> &g) {
  using Graph = BasicCudaGraph<W>;
  const cuda::DeviceContext &ctx = *args.ctx;
  checkInputs(args, plan);
  std::vector<cuda::BasicDeviceCiphertext<W>> outs;
  if (g.sites)
    outs = bindSlots(args, g);
  else
    for (typename Graph::InputSlot &slot : g.inputs) {
      const cuda::BasicDeviceCiphertext<W> &ct = (*args.inputs)[slot.input];
      copyWords(ctx, slot.poly.data(), ct.part(slot.part), ct.limbs() * ct.n);
    }
  stagePlains(args, plan, g);
  launch(ctx, g);
  if (g.sites) {
    for (cuda::BasicDeviceCiphertext<W> &ct : outs)
      args.outputs->push_back(std::move(ct));
    return;
  }
  for (const typename Graph::Output &o : g.outputs) { // output() copies them
    std::vector<cuda::BasicDevicePoly<W>> polys;
    for (const cuda::BasicDevicePoly<W> &p : o.polys)
      polys.push_back(CudaBackend<W>::borrowed(p));
    CudaBackend<W>::output(args, std::move(polys), o.level, o.scale, o.slots);
  }
}

/// The device index and, for a program of several devices, the
/// communicator: NCCL built in, one rank per device, this one's rank.
template <typename W>
void checkDevice(const BasicCudaArgs<W> &args, const Plan<CudaKernel> &plan) {
  const int k = plan.deviceCount();
  if (args.device_index < 0 || args.device_index >= k)
    throw InvalidArgument(
        "runCuda: device_index " + std::to_string(args.device_index) +
        " of a program over " + std::to_string(k) + " device(s)");
  if (k == 1)
    return;
  const std::string program =
      "a program partitioned over " + std::to_string(k) + " GPUs";
  if (!cuda::haveNccl())
    throw Error("this runtime was built without NCCL: " + program +
                " cannot run (configure with NCCL present, "
                "EMBER_ENABLE_NCCL)");
  if (!args.nccl_comm)
    throw InvalidArgument(program + " needs an NCCL communicator of " +
                          std::to_string(k) +
                          " ranks (CudaArgs::nccl_comm; from Python, "
                          "CudaProgram.run_devices with " +
                          std::to_string(k) + " devices)");
  const int ranks = cuda::ncclRanks(args.nccl_comm);
  const int rank = cuda::ncclRank(args.nccl_comm);
  if (ranks != k || rank != args.device_index)
    throw InvalidArgument(
        program + ": device " + std::to_string(args.device_index) +
        " was given rank " + std::to_string(rank) + " of a communicator of " +
        std::to_string(ranks) + " ranks");
}

/// The keys this device's steps load, looked up as the run will (their
/// MissingKey before any step).
template <typename W>
void checkKeys(const BasicCudaArgs<W> &args, const Plan<CudaKernel> &plan) {
  for (size_t i = 0; i < plan.step_count; ++i) {
    const Step &s = plan.steps[i];
    if (s.kind != StepKind::kLoadKey || !onDevice(plan, s, args.device_index))
      continue;
    const uint64_t g = static_cast<uint64_t>(s.imm[0]);
    if (plan.buffers[plan.args[s.out]].key == 2)
      CudaBackend<W>::klssKey(args, g);
    else
      CudaBackend<W>::hybridKey(args, g);
  }
}

template <typename W>
void runOn(const BasicCudaArgs<W> &args, const Plan<CudaKernel> &plan) {
  if (!args.ctx)
    throw InvalidArgument("runCuda: no device context (CudaArgs::ctx)");
  checkDevice(args, plan);
  // This thread's device is the context's: its launches, allocations and
  // NCCL calls go there (a thread per device for a partitioned program).
  cudaCheck(cudaSetDevice(args.ctx->device()), "cudaSetDevice");
  if (args.check_only) {
    checkInputs(args, plan);
    checkKeys(args, plan);
    return;
  }
  args.outputs->clear();
  if (CudaArena *arena = args.arena) {
    const size_t words =
        size_t(std::max<int64_t>(plan.arenaBytes(args.device_index), 8)) / 8;
    if (arena->ctx != args.ctx || arena->buf.words() != words) {
      if (args.graph)
        args.graph->reset(); // captured on the old arena
      arena->buf = cuda::DeviceBuffer();
      arena->buf = cuda::DeviceBuffer(*args.ctx, words);
      arena->ctx = args.ctx;
    }
  }
  BasicCudaGraph<W> *g = args.graph;
  if (!g) {
    Executor<CudaBackend<W>>(args, plan, args.device_index).run();
    return;
  }
  const void *keys[5] = {args.relin, args.galois, args.klss_relin,
                         args.klss_galois, args.encapsulation};
  const uint64_t *arena = args.arena ? args.arena->buf.data() : nullptr;
  if (g->ctx != args.ctx || g->constants != args.constants ||
      g->arena != arena || !std::equal(keys, keys + 5, g->keys) ||
      g->device_index != args.device_index || g->nccl_comm != args.nccl_comm) {
    g->reset();
    g->ctx = args.ctx;
    g->constants = args.constants;
    g->arena = arena;
    std::copy(keys, keys + 5, g->keys);
    g->device_index = args.device_index;
    g->nccl_comm = args.nccl_comm;
  }
  if (!g->warmed) { // plans, pool and constants, then the capture
    if (!args.constants)
      throw InvalidArgument("runCuda: a graph needs a constant cache");
    Executor<CudaBackend<W>>(args, plan, args.device_index).run();
    g->warmed = true;
    capture(args, plan, *g);
    return;
  }
  replay(args, plan, *g);
}

} // namespace

void runCuda(const CudaArgs &args, const Plan<CudaKernel> &plan) {
  runOn(args, plan);
}
void runCuda(const CudaArgs32 &args, const Plan<CudaKernel> &plan) {
  if (args.ctx && args.ctx->wordBits() != 32)
    throw InvalidArgument("a 32-bit program runs on a DeviceContext of a "
                          "Context32");
  runOn(args, plan);
}

} // namespace ember::program
