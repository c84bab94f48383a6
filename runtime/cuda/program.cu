// The CUDA backend of the plan executor (runtime/core/program_exec.h):
// runCuda runs the tables of a program emitted by `ember-translate
// --emit-cuda`. Buffers come from the context's pool, copies and kernels are
// queued on the context's stream; nothing synchronises the host. With a
// CudaGraph state, the steps are captured once and replayed as one graph.
#include "ember/program_cuda.h"

#include "../core/program_exec.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ember::program {

namespace {

/// A poly buffer from the context's pool (optionally zeroed).
cuda::DevicePoly alloc(const cuda::DeviceContext &ctx, std::vector<int> basis,
                       bool ntt, bool zero) {
  cuda::DevicePoly p;
  p.n = ctx.host().n();
  p.ntt = ntt;
  p.buf = cuda::DeviceBuffer(ctx, basis.size() * p.n);
  p.basis = std::move(basis);
  if (zero)
    cudaCheck(
        cudaMemsetAsync(p.data(), 0, p.basis.size() * p.n * 8, ctx.stream()),
        "cudaMemsetAsync");
  return p;
}

void copyWords(const cuda::DeviceContext &ctx, uint64_t *dst,
               const uint64_t *src, size_t words) {
  if (words)
    cudaCheck(cudaMemcpyAsync(dst, src, words * 8, cudaMemcpyDeviceToDevice,
                              ctx.stream()),
              "cudaMemcpyAsync");
}

struct CudaBackend {
  using Poly = cuda::DevicePoly;
  static bool capturing(const CudaArgs &a) {
    return a.graph && a.graph->capturing;
  }
  static Poly borrowed(const Poly &p) {
    Poly v;
    v.n = p.n;
    v.ntt = p.ntt;
    v.basis = p.basis;
    v.buf = cuda::DeviceBuffer::borrow(p.data(), p.buf.words());
    return v;
  }
  using Args = CudaArgs;
  using Kernel = CudaKernel;
  using HybridKey = cuda::DeviceSwitchingKey;
  using KlssKey = cuda::DeviceKlssKey;

  static const Context64 &host(const Args &a) { return a.ctx->host(); }
  static ConstantCache<Poly> *cache(const Args &a) { return a.constants; }
  static uint64_t *words(const Poly &p) { return p.data(); }
  static Poly alloc(const Args &a, std::vector<int> b, bool ntt, bool zero) {
    return program::alloc(*a.ctx, std::move(b), ntt, zero);
  }
  static Poly copy(const Args &a, const Poly &p) {
    Poly out = alloc(a, p.basis, p.ntt, false);
    copyWords(*a.ctx, out.data(), p.data(), p.basis.size() * p.n);
    return out;
  }
  static void ntt(const Args &a, Poly &p) { cuda::ntt(*a.ctx, p); }
  static void intt(const Args &a, Poly &p) { cuda::intt(*a.ctx, p); }
  static Poly bconv(const Args &a, const Poly &p, const std::vector<int> &to) {
    return cuda::bconv(*a.ctx, p, to);
  }
  static Poly modUp(const Args &a, const Poly &p, int digit) {
    return cuda::modUp(*a.ctx, p, digit);
  }
  static void ksInnerProduct(const Args &a, const HybridKey &key,
                             const std::vector<const Poly *> &digits,
                             Poly &acc0, Poly &acc1) {
    cuda::keySwitchInnerProduct(*a.ctx, key, digits, acc0, acc1);
  }
  static Poly klssModUp(const Args &a, const Poly &p) {
    return cuda::klssModUp(*a.ctx, p);
  }
  static void klssInnerProduct(const Args &a, const KlssKey &key,
                               const std::vector<const Poly *> &digits,
                               int level, Poly &acc0, Poly &acc1) {
    cuda::klssInnerProduct(*a.ctx, key, digits, level, acc0, acc1);
  }
  static Poly modSwitchDown(const Args &a, const Poly &p,
                            const std::vector<int> &keep) {
    return cuda::modSwitchDown(*a.ctx, p, keep);
  }
  static Poly automorphism(const Args &a, const Poly &p, uint64_t g) {
    return cuda::automorphism(*a.ctx, p, g);
  }
  /// Limbs first..first+count-1 (a copy).
  static Poly view(const Args &a, const Poly &p, size_t first, size_t count) {
    Poly out = alloc(a,
                     std::vector<int>(p.basis.begin() + first,
                                      p.basis.begin() + first + count),
                     p.ntt, false);
    copyWords(*a.ctx, out.data(), p.limb(first), count * p.n);
    return out;
  }
  static Poly concat(const Args &a, const std::vector<const Poly *> &parts) {
    std::vector<int> basis;
    for (const Poly *p : parts)
      basis.insert(basis.end(), p->basis.begin(), p->basis.end());
    Poly out = alloc(a, basis, parts.front()->ntt, false);
    size_t at = 0;
    for (const Poly *p : parts) {
      copyWords(*a.ctx, out.data() + at, p->data(), p->basis.size() * p->n);
      at += p->basis.size() * p->n;
    }
    return out;
  }
  static const HybridKey *hybridKey(const Args &a, uint64_t g) {
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
                       const std::vector<int> &basis, bool ntt) {
    return cuda::upload(*a.ctx,
                        encodeConstant(a.ctx->host(), a.data, offset, count,
                                       complex, scale, basis, ntt));
  }
  /// Encoded on the host (the canonical embedding's FFT), then uploaded;
  /// while a graph is captured, its plaintext slot (filled per run).
  static Poly encodeValues(const Args &a, size_t index,
                           const std::vector<std::complex<double>> &values,
                           double scale, const std::vector<int> &basis,
                           bool ntt) {
    if (capturing(a))
      for (CudaGraph::PlainSlot &slot : a.graph->plains)
        if (slot.plain == index)
          return borrowed(slot.poly);
    return cuda::upload(*a.ctx, program::encodeValues(a.ctx->host(), values,
                                                      scale, basis, ntt));
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
  /// A device ciphertext's parts share one buffer: each part is copied
  /// into its own (an arena-backed plan will point at them instead); while
  /// a graph is captured, the graph's input slot (filled per run).
  static const Poly *inputPart(const Args &a, size_t index, int part,
                               Poly &storage) {
    if (capturing(a))
      for (CudaGraph::InputSlot &slot : a.graph->inputs)
        if (slot.input == index && slot.part == part)
          return &slot.poly;
    const cuda::DeviceCiphertext &ct = (*a.inputs)[index];
    storage = alloc(a, a.ctx->host().qBasis(ct.level), true, false);
    copyWords(*a.ctx, storage.data(), ct.part(part), ct.limbs() * ct.n);
    return &storage;
  }
  static void output(const Args &a, std::vector<Poly> polys, int level,
                     double scale, size_t slots) {
    if (capturing(a)) { // copied out after every launch of the graph
      a.graph->outputs.push_back({std::move(polys), level, scale, slots});
      return;
    }
    cuda::DeviceCiphertext ct;
    ct.parts = static_cast<int>(polys.size());
    ct.level = level;
    ct.scale = scale;
    ct.slots = slots;
    ct.n = a.ctx->host().n();
    ct.buf = cuda::DeviceBuffer(*a.ctx, ct.parts * ct.limbs() * ct.n);
    for (int i = 0; i < ct.parts; ++i)
      copyWords(*a.ctx, ct.part(i), polys[i].data(), ct.limbs() * ct.n);
    a.outputs->push_back(std::move(ct));
  }
};

} // namespace

void cudaCheckInput(const std::vector<cuda::DeviceCiphertext> &in, size_t index,
                    const char *name, int parts, int level, size_t slots,
                    double scale) {
  if (index >= in.size())
    checkInputMetadata(name, index, in.size(), 0, 0, 0, 0, parts, level, slots,
                       scale);
  const cuda::DeviceCiphertext &ct = in[index];
  checkInputMetadata(name, index, in.size(), ct.parts, ct.level, ct.slots,
                     ct.scale, parts, level, slots, scale);
}

void checkLaunch(cudaError_t e) { cudaCheck(e, "generated kernel launch"); }

void CudaGraph::reset() {
  if (exec)
    cudaGraphExecDestroy(exec);
  if (graph)
    cudaGraphDestroy(graph);
  exec = nullptr;
  graph = nullptr;
  nodes = kernel_nodes = 0;
  outputs.clear();
  inputs.clear();
  plains.clear();
  if (ctx) {
    ctx->synchronize(); // a launched graph may still use the blocks
    ctx->releaseBlocks(blocks);
  }
  blocks.clear();
  warmed = capturing = false;
}

namespace {

/// The checks of the run's inputs that the captured steps no longer make.
void checkInputs(const CudaArgs &args, const Plan<CudaKernel> &plan) {
  for (size_t i = 0; i < plan.step_count; ++i) {
    const Step &s = plan.steps[i];
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
void allocateSlots(const CudaArgs &args, const Plan<CudaKernel> &plan,
                   CudaGraph &g) {
  const Context64 &h = args.ctx->host();
  for (size_t i = 0; i < plan.step_count; ++i) {
    const Step &s = plan.steps[i];
    if (s.kind == StepKind::kInput)
      for (int32_t j = 0; j < s.nout; ++j)
        g.inputs.push_back(
            {static_cast<size_t>(s.imm[0]), j,
             alloc(*args.ctx, h.qBasis(static_cast<int>(s.imm[1])), true,
                   false)});
    else if (s.kind == StepKind::kEncodeValues) {
      const BufferSpec &b = plan.buffers[plan.args[s.out]];
      g.plains.push_back(
          {static_cast<size_t>(s.imm[0]), s.scale,
           alloc(*args.ctx, bufferBasis(h, b), b.ntt != 0, false)});
    }
  }
}

void capture(const CudaArgs &args, const Plan<CudaKernel> &plan, CudaGraph &g) {
  const cuda::DeviceContext &ctx = *args.ctx;
  allocateSlots(args, plan, g);
  cudaStream_t stream = ctx.stream();
  ctx.beginCapture();
  g.capturing = true;
  cudaCheck(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed),
            "cudaStreamBeginCapture");
  try {
    Executor<CudaBackend>(args, plan).run(); // its buffers die in the capture
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
  cudaCheck(cudaGraphInstantiate(&g.exec, g.graph, 0), "cudaGraphInstantiate");
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
}

/// One run of the captured graph: inputs in, launch, outputs out.
void replay(const CudaArgs &args, const Plan<CudaKernel> &plan, CudaGraph &g) {
  const cuda::DeviceContext &ctx = *args.ctx;
  checkInputs(args, plan);
  for (CudaGraph::InputSlot &slot : g.inputs) {
    const cuda::DeviceCiphertext &ct = (*args.inputs)[slot.input];
    copyWords(ctx, slot.poly.data(), ct.part(slot.part), ct.limbs() * ct.n);
  }
  for (CudaGraph::PlainSlot &slot : g.plains) {
    // Pageable host memory: the copy has read it when the call returns.
    const Poly64 p = encodeValues(ctx.host(), (*args.plain)[slot.plain],
                                  slot.scale, slot.poly.basis, slot.poly.ntt);
    cudaCheck(cudaMemcpyAsync(slot.poly.data(), p.data.data(),
                              p.data.size() * 8, cudaMemcpyHostToDevice,
                              ctx.stream()),
              "cudaMemcpyAsync");
  }
  cudaCheck(cudaGraphLaunch(g.exec, ctx.stream()), "cudaGraphLaunch");
  for (const CudaGraph::Output &o : g.outputs) { // output() copies them
    std::vector<cuda::DevicePoly> polys;
    for (const cuda::DevicePoly &p : o.polys)
      polys.push_back(CudaBackend::borrowed(p));
    CudaBackend::output(args, std::move(polys), o.level, o.scale, o.slots);
  }
}

} // namespace

void runCuda(const CudaArgs &args, const Plan<CudaKernel> &plan) {
  args.outputs->clear();
  CudaGraph *g = args.graph;
  if (!g) {
    Executor<CudaBackend>(args, plan).run();
    return;
  }
  const void *keys[4] = {args.relin, args.galois, args.klss_relin,
                         args.klss_galois};
  if (g->ctx != args.ctx || g->constants != args.constants ||
      !std::equal(keys, keys + 4, g->keys)) {
    g->reset();
    g->ctx = args.ctx;
    g->constants = args.constants;
    std::copy(keys, keys + 4, g->keys);
  }
  if (!g->warmed) { // plans, pool and constants, then the capture
    if (!args.constants)
      throw InvalidArgument("runCuda: a graph needs a constant cache");
    Executor<CudaBackend>(args, plan).run();
    g->warmed = true;
    capture(args, plan, *g);
    return;
  }
  replay(args, plan, *g);
}

} // namespace ember::program
