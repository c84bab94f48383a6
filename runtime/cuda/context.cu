// DeviceContext: the device copy of a Context64 (moduli, Barrett constants,
// the CPU's twiddle tables), its memory pool and stream, the per-level
// key-switching and rescale plans, and host <-> device copies.
#include "internal.cuh"

#include <algorithm>
#include <cstring>

namespace ember::cuda {

// --- Pool --------------------------------------------------------------------

u64 *DeviceContext::Impl::allocate(size_t words) {
  if (words == 0)
    return nullptr;
  if (capturing) { // the graph's own blocks first
    auto it = capture_free.find(words);
    if (it != capture_free.end()) {
      u64 *p = it->second;
      capture_free.erase(it);
      return p;
    }
  }
  auto it = free_blocks.find(words);
  if (it != free_blocks.end()) {
    u64 *p = it->second;
    free_blocks.erase(it);
    return p;
  }
  // Only when the pool has no block of this size (warm-up), and on this
  // context's GPU whichever is current: making a second GPU's context
  // leaves that GPU current, and the first GPU's keys, inputs or arena
  // allocated then would land on the second, to be read over NVLink (on
  // two H200s that made bootstrap16's inner products 3.8x slower).
  void *p = nullptr;
  int current = -1;
  EMBER_CUDA_CHECK(cudaGetDevice(&current));
  if (current != device)
    EMBER_CUDA_CHECK(cudaSetDevice(device));
  const cudaError_t e = cudaMalloc(&p, words * sizeof(u64));
  if (current != device)
    cudaSetDevice(current);
  EMBER_CUDA_CHECK(e);
  all_blocks.emplace_back(static_cast<u64 *>(p), words);
  pool_bytes += words * sizeof(u64);
  return static_cast<u64 *>(p);
}

void DeviceContext::Impl::release(u64 *p, size_t words) {
  // Work on the one stream is ordered, so a block can be reused by later
  // launches at once.
  if (p)
    (!capturing      ? free_blocks
     : capture_reuse ? capture_free
                     : capture_held)
        .emplace(words, p);
}

void DeviceContext::beginCapture(bool reuse_blocks) const {
  if (impl_->capturing)
    throw InvalidArgument("beginCapture: a capture is already open");
  impl_->capturing = true;
  impl_->capture_reuse = reuse_blocks;
}

std::vector<std::pair<uint64_t *, size_t>> DeviceContext::endCapture() const {
  Impl &I = *impl_;
  I.capturing = false;
  std::vector<std::pair<uint64_t *, size_t>> held;
  for (auto *blocks : {&I.capture_free, &I.capture_held}) {
    for (auto &[words, p] : *blocks)
      held.emplace_back(p, words);
    blocks->clear();
  }
  I.capture_reuse = true;
  return held;
}

void DeviceContext::releaseBlocks(
    const std::vector<std::pair<uint64_t *, size_t>> &blocks) const {
  for (auto &[p, words] : blocks)
    impl_->release(p, words);
}

DeviceBuffer::DeviceBuffer(const DeviceContext &ctx, size_t words)
    : ctx_(&ctx), ptr_(ctx.impl().allocate(words)), words_(words) {}

DeviceBuffer::~DeviceBuffer() {
  if (ctx_ && ptr_)
    ctx_->impl().release(ptr_, words_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept
    : ctx_(o.ctx_), ptr_(o.ptr_), words_(o.words_) {
  o.ptr_ = nullptr;
  o.words_ = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    if (ctx_ && ptr_)
      ctx_->impl().release(ptr_, words_);
    ctx_ = o.ctx_;
    ptr_ = o.ptr_;
    words_ = o.words_;
    o.ptr_ = nullptr;
    o.words_ = 0;
  }
  return *this;
}

void copyToDevice(const DeviceContext &ctx, u64 *dst, const void *src,
                  size_t bytes) {
  EMBER_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice,
                                   ctx.impl().stream));
}

// --- Context -----------------------------------------------------------------

namespace {

/// The stream, sizes and per-modulus tables of a device context of W words
/// (KLSS's T included: NTTs over T). Layout of the table block: q, ratio
/// hi, ratio lo, intt plain [m][kScaleWords], then roots, rootsShoup,
/// invRoots, invRootsShoup [m][n], then (root, shoup) and (inverse root,
/// shoup) interleaved [m][n][2]; all W words.
template <typename W>
void initContext(DeviceContext::Impl &I, const Context<W> &ctx, int device,
                 TablesT<W> &T) {
  using Double = typename WordTraits<W>::Double;
  constexpr int kBits = WordTraits<W>::kBits;
  I.device = device;
  EMBER_CUDA_CHECK(cudaSetDevice(device));
  EMBER_CUDA_CHECK(cudaStreamCreateWithFlags(&I.stream, cudaStreamNonBlocking));
  I.n_log = ctx.logN();
  I.n = ctx.n();
  I.q_count = ctx.qCount();
  I.p_count = ctx.pCount();
  I.m_count = ctx.moduliCount();
  I.all_count = ctx.allModuliCount();
  if (I.n_log < 4 || I.n_log > 17)
    throw InvalidArgument("the CUDA backend needs log N in 4..17");
  if (I.all_count > 255)
    throw InvalidArgument("the CUDA backend supports at most 255 moduli");

  const size_t m = I.all_count, n = I.n;
  const size_t small = 3 * m + kScaleWords * m;
  const size_t words = small + 8 * m * n;
  std::vector<W> host(words);
  for (size_t i = 0; i < m; ++i) {
    const Modulus<W> &q = ctx.modulus(int(i));
    const W qv = q.value();
    const Double ratio = ~Double{0} / qv;
    host[i] = qv;
    host[m + i] = static_cast<W>(ratio >> kBits);
    host[2 * m + i] = static_cast<W>(ratio);
    const NttTables<W> &t = ctx.ntt(int(i));
    const W cx = t.nInv(), cy = q.mul(t.invRoots()[1], t.nInv());
    W *k = host.data() + 3 * m + kScaleWords * i;
    k[0] = cx;
    k[1] = q.shoup(cx);
    k[2] = cy;
    k[3] = q.shoup(cy);
    k[4] = 0;
    const size_t bytes = n * sizeof(W);
    std::memcpy(host.data() + small + (0 * m + i) * n, t.roots().data(), bytes);
    std::memcpy(host.data() + small + (1 * m + i) * n, t.rootsShoup().data(),
                bytes);
    std::memcpy(host.data() + small + (2 * m + i) * n, t.invRoots().data(),
                bytes);
    std::memcpy(host.data() + small + (3 * m + i) * n, t.invRootsShoup().data(),
                bytes);
    W *fwd2 = host.data() + small + 4 * m * n + 2 * i * n;
    W *inv2 = host.data() + small + 6 * m * n + 2 * i * n;
    for (size_t k = 0; k < n; ++k) {
      fwd2[2 * k] = t.roots()[k];
      fwd2[2 * k + 1] = t.rootsShoup()[k];
      inv2[2 * k] = t.invRoots()[k];
      inv2[2 * k + 1] = t.invRootsShoup()[k];
    }
  }
  void *mem = nullptr;
  EMBER_CUDA_CHECK(cudaMalloc(&mem, words * sizeof(W)));
  I.table_mem = static_cast<u64 *>(mem);
  EMBER_CUDA_CHECK(
      cudaMemcpy(mem, host.data(), words * sizeof(W), cudaMemcpyHostToDevice));
  const W *base = static_cast<const W *>(mem);
  T.q = base;
  T.ratioHi = base + m;
  T.ratioLo = base + 2 * m;
  T.inttPlain = base + 3 * m;
  T.roots = base + small;
  T.rootsShoup = T.roots + m * n;
  T.invRoots = T.rootsShoup + m * n;
  T.invRootsShoup = T.invRoots + m * n;
  T.roots2 = reinterpret_cast<const typename WordPair<W>::type *>(
      T.invRootsShoup + m * n);
  T.invRoots2 = T.roots2 + m * n;
  T.logN = I.n_log;
  T.qCount = I.q_count;
}

} // namespace

DeviceContext::DeviceContext(const Context64 &ctx, int device)
    : ctx_(&ctx), impl_(std::make_unique<Impl>()) {
  impl_->host = &ctx;
  initContext(*impl_, ctx, device, impl_->tables);
}

DeviceContext::DeviceContext(const Context32 &ctx, int device)
    : ctx32_(&ctx), impl_(std::make_unique<Impl>()) {
  impl_->host32 = &ctx;
  impl_->word_bits = 32;
  initContext(*impl_, ctx, device, impl_->tables32);
}

const Context64 &DeviceContext::host() const {
  if (!ctx_)
    throw InvalidArgument("this device context has 32-bit words: the 64-bit "
                          "CKKS operations and keys need a Context64");
  return *ctx_;
}

const Context32 &DeviceContext::host32() const {
  if (!ctx32_)
    throw InvalidArgument("this device context has 64-bit words");
  return *ctx32_;
}

DeviceContext::~DeviceContext() {
  Impl &I = *impl_;
  I.bfv_evaluators.clear(); // they use this context's pool and stream
  cudaStreamSynchronize(I.stream);
  I.ks_plans.clear();
  I.rescale_plans.clear();
  I.galois_index.clear();
  I.switch_plans.clear();
  I.exact_plans.clear();
  I.klss_plans.clear();
  I.bconv_plans.clear();
  if (I.transfer_stream) {
    cudaStreamSynchronize(I.transfer_stream);
    cudaStreamDestroy(I.transfer_stream);
  }
  for (auto &block : I.all_blocks)
    cudaFree(block.first);
  cudaFree(I.table_mem);
  if (I.owns_stream)
    cudaStreamDestroy(I.stream);
}

std::vector<cudaGraphNode_t> captureDeps(cudaStream_t stream) {
  cudaStreamCaptureStatus status;
  const cudaGraphNode_t *deps = nullptr;
  size_t count = 0;
#if CUDART_VERSION >= 13000
  EMBER_CUDA_CHECK(cudaStreamGetCaptureInfo(stream, &status, nullptr, nullptr,
                                            &deps, nullptr, &count));
#elif CUDART_VERSION >= 12030
  EMBER_CUDA_CHECK(cudaStreamGetCaptureInfo_v3(
      stream, &status, nullptr, nullptr, &deps, nullptr, &count));
#else
  EMBER_CUDA_CHECK(cudaStreamGetCaptureInfo_v2(stream, &status, nullptr,
                                               nullptr, &deps, &count));
#endif
  return std::vector<cudaGraphNode_t>(deps, deps + count);
}

void setCaptureDeps(cudaStream_t stream, std::vector<cudaGraphNode_t> deps) {
#if CUDART_VERSION >= 12030
  EMBER_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(
      stream, deps.data(), nullptr, deps.size(),
      cudaStreamSetCaptureDependencies));
#else
  EMBER_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(
      stream, deps.data(), deps.size(), cudaStreamSetCaptureDependencies));
#endif
}

std::vector<cudaGraphNode_t> capturedNodes(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaGraph_t graph = nullptr;
#if CUDART_VERSION >= 13000
  EMBER_CUDA_CHECK(cudaStreamGetCaptureInfo(stream, &status, nullptr, &graph,
                                            nullptr, nullptr, nullptr));
#elif CUDART_VERSION >= 12030
  EMBER_CUDA_CHECK(cudaStreamGetCaptureInfo_v3(stream, &status, nullptr, &graph,
                                               nullptr, nullptr, nullptr));
#else
  EMBER_CUDA_CHECK(cudaStreamGetCaptureInfo_v2(stream, &status, nullptr, &graph,
                                               nullptr, nullptr));
#endif
  if (status != cudaStreamCaptureStatusActive || !graph)
    return {};
  size_t count = 0;
  EMBER_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  EMBER_CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
  nodes.resize(count);
  return nodes;
}

CaptureBranch::CaptureBranch(cudaStream_t stream) : stream_(stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  EMBER_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  active_ = status == cudaStreamCaptureStatusActive;
  if (active_)
    start_ = captureDeps(stream);
}

void CaptureBranch::split() {
  if (!active_)
    return;
  branch_ = captureDeps(stream_);
  setCaptureDeps(stream_, start_);
}

void CaptureBranch::join() {
  if (!active_ || branch_ == start_)
    return; // nothing was captured on the branch
  std::vector<cudaGraphNode_t> deps = captureDeps(stream_);
  deps.insert(deps.end(), branch_.begin(), branch_.end());
  setCaptureDeps(stream_, std::move(deps));
  active_ = false;
}

cudaStream_t transferStream(const DeviceContext &ctx) {
  DeviceContext::Impl &I = ctx.impl();
  if (!I.transfer_stream) {
    EMBER_CUDA_CHECK(cudaSetDevice(I.device));
    EMBER_CUDA_CHECK(
        cudaStreamCreateWithFlags(&I.transfer_stream, cudaStreamNonBlocking));
  }
  return I.transfer_stream;
}

void shareStream(const DeviceContext &ctx, const DeviceContext &main) {
  DeviceContext::Impl &I = ctx.impl();
  const DeviceContext::Impl &M = main.impl();
  if (I.device != M.device)
    throw InvalidArgument("shareStream: the contexts are on different devices");
  if (I.stream == M.stream)
    return;
  EMBER_CUDA_CHECK(cudaStreamSynchronize(I.stream));
  if (I.owns_stream)
    EMBER_CUDA_CHECK(cudaStreamDestroy(I.stream));
  I.stream = M.stream;
  I.owns_stream = false;
}

CUstream_st *DeviceContext::stream() const { return impl_->stream; }

int DeviceContext::device() const { return impl_->device; }

void DeviceContext::synchronize() const {
  EMBER_CUDA_CHECK(cudaStreamSynchronize(impl_->stream));
}

size_t DeviceContext::poolBytes() const { return impl_->pool_bytes; }

// --- Plans -------------------------------------------------------------------

namespace {
/// A device buffer holding v (packed: two u32 per pool word at 32 bits).
template <typename W>
DeviceBuffer uploadWords(const DeviceContext &ctx, const std::vector<W> &v) {
  DeviceBuffer buf(ctx,
                   std::max<size_t>(BasicDevicePoly<W>::wordsFor(v.size()), 1));
  if (!v.empty()) {
    // On the stream: the pool block may still be in use by queued work.
    copyToDevice(ctx, buf.data(), v.data(), v.size() * sizeof(W));
    ctx.synchronize();
  }
  return buf;
}
DeviceBuffer uploadInts(const DeviceContext &ctx, const std::vector<int> &v) {
  std::vector<u64> words((v.size() + 1) / 2 + 1, 0);
  std::memcpy(words.data(), v.data(), v.size() * sizeof(int));
  return uploadWords(ctx, words);
}
} // namespace

namespace {
/// The plan cached in `plans` under `key`, made on first use by
/// make(host context) with the host context of the device context's word.
template <typename Map, typename Key, typename Make>
const typename Map::mapped_type::element_type &
cachedPlan(const DeviceContext::Impl &I, Map &plans, const Key &key,
           Make make) {
  auto it = plans.find(key);
  if (it != plans.end())
    return *it->second;
  return *(plans[key] = I.host ? make(*I.host) : make(*I.host32));
}
} // namespace

namespace {
/// The key-switching constants of `level` (KsPlan), at either word.
template <typename W>
std::unique_ptr<KsPlan> makeKsPlan(const DeviceContext &dctx,
                                   const Context<W> &ctx, int level,
                                   uint64_t plain_modulus) {
  auto plan = std::make_unique<KsPlan>();
  KsPlan &P = *plan;
  P.level = level;
  P.digits = ctx.digitCount(level);
  if (P.digits > kMaxDigits)
    throw InvalidArgument("the CUDA backend supports at most " +
                          std::to_string(kMaxDigits) + " digits");
  const std::vector<int> qp = ctx.qpBasis(level);
  const std::vector<int> p_basis = ctx.pBasis();
  const std::vector<int> q_basis = ctx.qBasis(level);
  P.qp = int(qp.size());
  const int l1 = level + 1, k = ctx.pCount();

  // ModUp: the context's centred BConv tables of every digit.
  std::vector<W> intt_scale(size_t(l1) * kScaleWords), up;
  std::vector<int> tmod_up;
  for (int j = 0; j < P.digits; ++j) {
    const std::vector<int> limbs = ctx.digitLimbs(j, level);
    const int start = limbs.front(), size = int(limbs.size());
    std::vector<int> others;
    for (int t = 0; t < P.qp; ++t)
      if (t < start || t >= start + size)
        others.push_back(qp[t]);
    const BConvTable<W> &table = ctx.bconvTable(limbs, others);
    P.start.push_back(start);
    P.size.push_back(size);
    P.ext_off.push_back(P.ext_rows);
    for (int i = 0; i < size; ++i)
      inttConstants(ctx, limbs[i], table.hat_inv[i], 0,
                    intt_scale.data() + kScaleWords * limbs[i]);
    P.hat_off.push_back(up.size());
    up.insert(up.end(), table.hat_mod.begin(), table.hat_mod.end());
    P.half_off.push_back(up.size());
    up.insert(up.end(), table.half.begin(), table.half.end());
    P.negb_off.push_back(up.size());
    up.insert(up.end(), table.neg_b_mod.begin(), table.neg_b_mod.end());
    P.tmod_up_off.push_back(tmod_up.size());
    tmod_up.insert(tmod_up.end(), others.begin(), others.end());
    P.ext_mods.insert(P.ext_mods.end(), others.begin(), others.end());
    P.ext_rows += P.qp - size;
  }
  P.intt_scale = uploadWords(dctx, intt_scale);
  P.up = uploadWords(dctx, up);
  P.tmod_up = uploadInts(dctx, tmod_up);

  // ModDown (rns.h): the centred BConv of [x]_P rounds by itself; the INTT
  // folds (P/p_j)^-1, the NTT's epilogue subtracts and multiplies by P^-1.
  const BConvTable<W> &table = ctx.bconvTable(p_basis, q_basis, plain_modulus);
  std::vector<W> intt_p(size_t(2 * k) * kScaleWords), down, p_inv;
  for (int part = 0; part < 2; ++part)
    for (int i = 0; i < k; ++i)
      inttConstants(ctx, p_basis[i], table.hat_inv[i], 0,
                    intt_p.data() + kScaleWords * (part * k + i));
  down = table.hat_mod;
  P.down_half = down.size();
  down.insert(down.end(), table.half.begin(), table.half.end());
  P.down_negb = down.size();
  down.insert(down.end(), table.neg_b_mod.begin(), table.neg_b_mod.end());
  for (int i = 0; i < l1; ++i) {
    const W inv = ctx.pInv(i);
    p_inv.push_back(inv);
    p_inv.push_back(ctx.modulus(i).shoup(inv));
  }
  P.intt_scale_p = uploadWords(dctx, intt_p);
  P.down = uploadWords(dctx, down);
  P.tmod_down = uploadInts(dctx, q_basis);
  P.p_inv = uploadWords(dctx, p_inv);
  return plan;
}
} // namespace

const KsPlan &DeviceContext::Impl::ksPlan(const DeviceContext &dctx, int level,
                                          uint64_t plain_modulus) {
  return cachedPlan(*this, ks_plans, std::make_pair(level, plain_modulus),
                    [&](const auto &ctx) {
                      return makeKsPlan(dctx, ctx, level, plain_modulus);
                    });
}

namespace {
/// q_l^-1 mod q_i (with Shoup words) and the last limb's INTT constants,
/// which add h = q_l / 2 (centring, rns.h); one row of constants per
/// ciphertext part (up to 3).
template <typename W>
std::unique_ptr<RescalePlan> makeRescalePlan(const DeviceContext &dctx,
                                             const Context<W> &ctx, int level) {
  auto plan = std::make_unique<RescalePlan>();
  std::vector<W> inv;
  for (int i = 0; i < level; ++i) {
    const W w = ctx.qInv(level, i);
    inv.push_back(w);
    inv.push_back(ctx.modulus(i).shoup(w));
  }
  plan->q_last_inv = uploadWords(dctx, inv);
  std::vector<W> scale(3 * kScaleWords);
  for (int part = 0; part < 3; ++part)
    inttConstants(ctx, level, 1, ctx.modulus(level).value() >> 1,
                  scale.data() + kScaleWords * part);
  plan->intt_scale = uploadWords(dctx, scale);
  return plan;
}
} // namespace

const RescalePlan &DeviceContext::Impl::rescalePlan(const DeviceContext &dctx,
                                                    int level) {
  return cachedPlan(*this, rescale_plans, level, [&](const auto &ctx) {
    return makeRescalePlan(dctx, ctx, level);
  });
}

namespace {
/// The constants of a modulus switch from `basis` down to its prefix
/// `keep` (SwitchPlan), at either word.
template <typename W>
std::unique_ptr<SwitchPlan>
makeSwitchPlan(const DeviceContext &dctx, const Context<W> &ctx,
               const std::vector<int> &basis, const std::vector<int> &keep,
               uint64_t plain_modulus) {
  const std::vector<int> drop(basis.begin() + keep.size(), basis.end());
  const BConvTable<W> &table = ctx.bconvTable(drop, keep, plain_modulus);
  auto plan = std::make_unique<SwitchPlan>();
  plan->keep = int(keep.size());
  plan->drop = int(drop.size());
  // The INTT's row constants, once per part of a batched switch (row
  // p * drop + j).
  std::vector<W> scale(kMaxParts * drop.size() * kScaleWords), consts, inv;
  for (size_t j = 0; j < drop.size(); ++j)
    inttConstants(ctx, drop[j], table.hat_inv[j], 0,
                  scale.data() + kScaleWords * j);
  for (int p = 1; p < kMaxParts; ++p)
    std::copy(scale.begin(), scale.begin() + drop.size() * kScaleWords,
              scale.begin() + p * drop.size() * kScaleWords);
  consts = table.hat_mod;
  consts.insert(consts.end(), table.half.begin(), table.half.end());
  consts.insert(consts.end(), table.neg_b_mod.begin(), table.neg_b_mod.end());
  for (size_t i = 0; i < keep.size(); ++i) {
    inv.push_back(table.inv_b_mod[i]);
    inv.push_back(ctx.modulus(keep[i]).shoup(table.inv_b_mod[i]));
  }
  std::vector<W> hat_inv;
  for (size_t j = 0; j < drop.size(); ++j) {
    hat_inv.push_back(table.hat_inv[j]);
    hat_inv.push_back(ctx.modulus(drop[j]).shoup(table.hat_inv[j]));
  }
  plan->intt_scale = uploadWords(dctx, scale);
  plan->consts = uploadWords(dctx, consts);
  plan->tmod = uploadInts(dctx, keep);
  plan->inv = uploadWords(dctx, inv);
  plan->hat_inv = uploadWords(dctx, hat_inv);
  plan->dmod = uploadInts(dctx, drop);
  // Lifted addends: P over the basis' special primes.
  std::vector<int> special;
  for (int m : basis)
    if (m >= ctx.qCount())
      special.push_back(m);
  if (!special.empty()) {
    auto pMod = [&](int m) {
      const Modulus<W> &mod = ctx.modulus(m);
      W prod = 1;
      for (int p : special)
        prod = mod.mul(prod, mod.reduceWord(ctx.modulus(p).value()));
      return prod;
    };
    std::vector<W> lift, p_mod;
    for (size_t i = 0; i < keep.size(); ++i) {
      const Modulus<W> &mod = ctx.modulus(keep[i]);
      p_mod.push_back(pMod(keep[i]));
      const W w = mod.mul(p_mod.back(), table.inv_b_mod[i]);
      lift.push_back(w);
      lift.push_back(mod.shoup(w));
    }
    plan->p_mod = uploadWords(dctx, p_mod);
    for (int d : drop)
      if (d < ctx.qCount()) {
        const W w = pMod(d);
        lift.push_back(w);
        lift.push_back(ctx.modulus(d).shoup(w));
        ++plan->drop_q;
      }
    plan->lift = uploadWords(dctx, lift);
  }
  return plan;
}
} // namespace

const SwitchPlan &DeviceContext::Impl::switchPlan(const DeviceContext &dctx,
                                                  const std::vector<int> &basis,
                                                  const std::vector<int> &keep,
                                                  uint64_t plain_modulus) {
  return cachedPlan(
      *this, switch_plans, std::make_tuple(basis, keep, plain_modulus),
      [&](const auto &ctx) {
        return makeSwitchPlan(dctx, ctx, basis, keep, plain_modulus);
      });
}

namespace {
template <typename W>
std::unique_ptr<BConvPlan>
makeBConvPlan(const DeviceContext &dctx, const Context<W> &ctx,
              const std::vector<int> &from, const std::vector<int> &to) {
  const BConvTable<W> &table = ctx.bconvTable(from, to);
  auto plan = std::make_unique<BConvPlan>();
  plan->m = int(from.size());
  plan->t_count = int(to.size());
  plan->hat_inv.assign(table.hat_inv.begin(), table.hat_inv.end());
  plan->hat_words = table.hat_mod.size();
  std::vector<W> consts = table.hat_mod;
  consts.insert(consts.end(), table.half.begin(), table.half.end());
  consts.insert(consts.end(), table.neg_b_mod.begin(), table.neg_b_mod.end());
  plan->consts = uploadWords(dctx, consts);
  plan->tmod = uploadInts(dctx, to);
  return plan;
}
} // namespace

const BConvPlan &DeviceContext::Impl::bconvPlan(const DeviceContext &dctx,
                                                const std::vector<int> &from,
                                                const std::vector<int> &to) {
  return cachedPlan(
      *this, bconv_plans, std::make_pair(from, to),
      [&](const auto &ctx) { return makeBConvPlan(dctx, ctx, from, to); });
}

namespace {
template <typename W>
std::unique_ptr<ExactPlan>
makeExactPlan(const DeviceContext &dctx, const Context<W> &ctx,
              const std::vector<int> &from, const std::vector<int> &to) {
  const BConvTable<W> &table = ctx.bconvTable(from, to);
  auto plan = std::make_unique<ExactPlan>();
  plan->m = int(from.size());
  plan->t_count = int(to.size());
  std::vector<W> hat_inv, scale(from.size() * kScaleWords);
  for (size_t i = 0; i < from.size(); ++i) {
    hat_inv.push_back(table.hat_inv[i]);
    hat_inv.push_back(ctx.modulus(from[i]).shoup(table.hat_inv[i]));
    inttConstants(ctx, from[i], table.hat_inv[i], 0,
                  scale.data() + kScaleWords * i);
  }
  std::vector<W> consts = table.hat_mod;
  consts.insert(consts.end(), table.neg_b_mod.begin(), table.neg_b_mod.end());
  std::vector<int> ints = from;
  ints.insert(ints.end(), to.begin(), to.end());
  plan->hat_inv = uploadWords(dctx, hat_inv);
  plan->intt_scale = uploadWords(dctx, scale);
  plan->consts = uploadWords(dctx, consts);
  plan->ints = uploadInts(dctx, ints);
  return plan;
}
} // namespace

const ExactPlan &DeviceContext::Impl::exactPlan(const DeviceContext &dctx,
                                                const std::vector<int> &from,
                                                const std::vector<int> &to) {
  return cachedPlan(
      *this, exact_plans, std::make_pair(from, to),
      [&](const auto &ctx) { return makeExactPlan(dctx, ctx, from, to); });
}

namespace {
/// KLSS constants of `level` (KlssPlan) at either word; `I` supplies the
/// level's hybrid and ModDown plans.
template <typename W>
std::unique_ptr<KlssPlan> makeKlssPlan(const DeviceContext &dctx,
                                       DeviceContext::Impl &I,
                                       const Context<W> &ctx, int level) {
  if (!ctx.hasKlss())
    throw InvalidArgument("the parameter set " + ctx.describe() +
                          " has no KLSS form (no temporary basis T)");
  auto plan = std::make_unique<KlssPlan>();
  KlssPlan &P = *plan;
  P.level = level;
  P.digits = ctx.digitCount(level);
  P.groups = ctx.klssGroupCount(level);
  P.r = ctx.tCount();
  P.qp = level + 1 + I.p_count;
  P.t_first = I.q_count + I.p_count;
  P.ks = &I.ksPlan(dctx, level); // checks the digit count
  P.down = &I.switchPlan(dctx, ctx.qpBasis(level), ctx.qBasis(level));
  const std::vector<int> t_basis = ctx.tBasis();
  std::vector<W> consts;
  std::vector<int> ints;
  // Digits -> T.
  for (int j = 0; j < P.digits; ++j) {
    const std::vector<int> limbs = ctx.digitLimbs(j, level);
    const BConvTable<W> &table = ctx.bconvTable(limbs, t_basis);
    P.start.push_back(limbs.front());
    P.size.push_back(int(limbs.size()));
    P.up_hat.push_back(consts.size());
    consts.insert(consts.end(), table.hat_mod.begin(), table.hat_mod.end());
    P.up_negb.push_back(consts.size());
    consts.insert(consts.end(), table.neg_b_mod.begin(), table.neg_b_mod.end());
    P.up_smod.push_back(ints.size());
    ints.insert(ints.end(), limbs.begin(), limbs.end());
  }
  P.t_mods = ints.size();
  ints.insert(ints.end(), t_basis.begin(), t_basis.end());
  // T -> each group's limbs of Q_l u P; a limb's row in qpBasis(level):
  // q_i at i, p_k at level + 1 + k.
  for (int g = 0; g < P.groups; ++g) {
    const std::vector<int> limbs = ctx.klssGroupLimbs(g, level);
    const BConvTable<W> &table = ctx.bconvTable(t_basis, limbs);
    P.group_size.push_back(int(limbs.size()));
    P.down_hat.push_back(consts.size());
    consts.insert(consts.end(), table.hat_mod.begin(), table.hat_mod.end());
    P.down_negb.push_back(consts.size());
    consts.insert(consts.end(), table.neg_b_mod.begin(), table.neg_b_mod.end());
    P.down_tmod.push_back(ints.size());
    ints.insert(ints.end(), limbs.begin(), limbs.end());
    P.down_trow.push_back(ints.size());
    for (int limb : limbs)
      ints.push_back(limb < I.q_count ? limb : level + 1 + (limb - I.q_count));
  }
  // INTT over T with n^-1 (T/t_k)^-1 folded in, indexed by modulus.
  const BConvTable<W> &t_table =
      ctx.bconvTable(t_basis, ctx.klssGroupLimbs(0, level));
  std::vector<W> scale(size_t(I.all_count) * kScaleWords, 0);
  for (int k = 0; k < P.r; ++k)
    inttConstants(ctx, t_basis[k], t_table.hat_inv[k], 0,
                  scale.data() + kScaleWords * size_t(t_basis[k]));
  P.intt_scale_t = uploadWords(dctx, scale);
  P.consts = uploadWords(dctx, consts);
  P.ints = uploadInts(dctx, ints);
  return plan;
}
} // namespace

const KlssPlan &DeviceContext::Impl::klssPlan(const DeviceContext &dctx,
                                              int level) {
  return cachedPlan(*this, klss_plans, level, [&](const auto &ctx) {
    return makeKlssPlan(dctx, *this, ctx, level);
  });
}

const uint32_t *DeviceContext::Impl::galoisIndex(const DeviceContext &dctx,
                                                 uint64_t galois) {
  auto it = galois_index.find(galois);
  if (it != galois_index.end())
    return reinterpret_cast<const uint32_t *>(it->second.data());
  const std::vector<uint32_t> index = cpu::automorphismNttIndex(n_log, galois);
  auto res = galois_index.emplace(galois, uploadWords(dctx, index));
  return reinterpret_cast<const uint32_t *>(res.first->second.data());
}

// --- Copies
// --------------------------------------------------------------------

namespace {
template <typename W>
BasicDevicePoly<W> uploadPoly(const DeviceContext &ctx, const Poly<W> &p) {
  requireWord<W>(ctx, "upload");
  BasicDevicePoly<W> d;
  d.basis = p.basis;
  d.n = p.n;
  d.ntt = p.ntt;
  d.buf = DeviceBuffer(ctx, BasicDevicePoly<W>::wordsFor(p.data.size()));
  copyToDevice(ctx, d.buf.data(), p.data.data(), p.data.size() * sizeof(W));
  ctx.synchronize();
  return d;
}
template <typename W>
Poly<W> downloadPoly(const DeviceContext &ctx, const BasicDevicePoly<W> &d) {
  requireWord<W>(ctx, "download");
  Poly<W> p(d.basis, d.n, d.ntt);
  EMBER_CUDA_CHECK(cudaMemcpyAsync(p.data.data(), d.data(),
                                   p.data.size() * sizeof(W),
                                   cudaMemcpyDeviceToHost, ctx.impl().stream));
  ctx.synchronize();
  return p;
}
} // namespace

DevicePoly upload(const DeviceContext &ctx, const Poly64 &p) {
  return uploadPoly(ctx, p);
}
DevicePoly32 upload(const DeviceContext &ctx, const Poly32 &p) {
  return uploadPoly(ctx, p);
}
Poly64 download(const DeviceContext &ctx, const DevicePoly &d) {
  return downloadPoly(ctx, d);
}
Poly32 download(const DeviceContext &ctx, const DevicePoly32 &d) {
  return downloadPoly(ctx, d);
}

namespace {
template <typename W>
BasicDeviceCiphertext<W> uploadCiphertext(const DeviceContext &ctx,
                                          const BasicCiphertext<W> &ct) {
  requireWord<W>(ctx, "upload");
  BasicDeviceCiphertext<W> d;
  d.parts = int(ct.c.size());
  d.level = ct.level;
  d.scale = ct.scale;
  d.slots = ct.slots;
  d.n = ctx.impl().n;
  const size_t part_words = d.limbs() * d.n;
  d.buf = DeviceBuffer(
      ctx, BasicDevicePoly<W>::wordsFor(part_words * size_t(d.parts)));
  for (int i = 0; i < d.parts; ++i) {
    if (ct.c[i].data.size() != part_words)
      throw InvalidArgument("upload: ciphertext part of the wrong size");
    copyToDevice(ctx, reinterpret_cast<u64 *>(d.part(i)), ct.c[i].data.data(),
                 part_words * sizeof(W));
  }
  ctx.synchronize();
  return d;
}

template <typename W>
BasicCiphertext<W> downloadCiphertext(const DeviceContext &ctx,
                                      const Context<W> &h,
                                      const BasicDeviceCiphertext<W> &d) {
  BasicCiphertext<W> ct;
  ct.level = d.level;
  ct.scale = d.scale;
  ct.slots = d.slots;
  for (int i = 0; i < d.parts; ++i) {
    Poly<W> p(h.qBasis(d.level), d.n, true);
    EMBER_CUDA_CHECK(
        cudaMemcpyAsync(p.data.data(), d.part(i), p.data.size() * sizeof(W),
                        cudaMemcpyDeviceToHost, ctx.impl().stream));
    ct.c.push_back(std::move(p));
  }
  ctx.synchronize();
  return ct;
}

template <typename W>
BasicDevicePlaintext<W> uploadPlaintext(const DeviceContext &ctx,
                                        const BasicPlaintext<W> &pt) {
  requireWord<W>(ctx, "upload");
  BasicDevicePlaintext<W> d;
  d.level = pt.level;
  d.scale = pt.scale;
  d.slots = pt.slots;
  d.buf = DeviceBuffer(ctx, BasicDevicePoly<W>::wordsFor(pt.poly.data.size()));
  copyToDevice(ctx, d.buf.data(), pt.poly.data.data(),
               pt.poly.data.size() * sizeof(W));
  ctx.synchronize();
  return d;
}

template <typename W>
BasicDeviceSwitchingKey<W> uploadKey(const DeviceContext &ctx,
                                     const BasicSwitchingKey<W> &key,
                                     const KeyRows *rows = nullptr) {
  requireWord<W>(ctx, "upload");
  BasicDeviceSwitchingKey<W> d;
  d.digits = int(key.b.size());
  const int qc = ctx.impl().q_count, pc = ctx.impl().p_count;
  const size_t m = size_t(ctx.impl().m_count), n = ctx.impl().n;
  // The rows kept: runs [first, first + count) of the host key's limbs.
  std::vector<std::pair<size_t, size_t>> runs{{0, m}};
  d.rows = int(m);
  if (rows) {
    if (rows->q_lo < 0 || rows->q_hi < rows->q_lo || rows->q_hi > qc ||
        rows->p_lo < 0 || rows->p_hi < rows->p_lo || rows->p_hi > pc ||
        rows->q_hi + rows->p_hi == rows->q_lo + rows->p_lo)
      throw InvalidArgument(
          "upload: key rows q[" + std::to_string(rows->q_lo) + ":" +
          std::to_string(rows->q_hi) + "] p[" + std::to_string(rows->p_lo) +
          ":" + std::to_string(rows->p_hi) + "] are not rows of " +
          std::to_string(qc) + " Q and " + std::to_string(pc) + " P limbs");
    runs = {{size_t(rows->q_lo), size_t(rows->q_hi - rows->q_lo)},
            {size_t(qc + rows->p_lo), size_t(rows->p_hi - rows->p_lo)}};
    d.rows = rows->q_hi - rows->q_lo + rows->p_hi - rows->p_lo;
    d.q_lo = rows->q_lo;
    d.q_n = rows->q_hi - rows->q_lo;
    d.p_lo = rows->p_lo;
  }
  const size_t r = size_t(d.rows);
  d.buf = DeviceBuffer(
      ctx, BasicDevicePoly<W>::wordsFor(size_t(d.digits) * 2 * r * n));
  for (int j = 0; j < d.digits; ++j) {
    if (key.b[j].limbs() != m || key.a[j].limbs() != m)
      throw InvalidArgument("upload: switching keys must span all of Q u P");
    for (int c = 0; c < 2; ++c) {
      const Poly<W> &host = c == 0 ? key.b[j] : key.a[j];
      size_t at = size_t(2 * j + c) * r;
      for (const auto &[first, count] : runs) {
        if (count)
          copyToDevice(ctx, reinterpret_cast<u64 *>(d.data() + at * n),
                       host.data.data() + first * n, count * n * sizeof(W));
        at += count;
      }
    }
  }
  ctx.synchronize();
  return d;
}

/// Whether a Galois key of element g is uploaded: every one without a
/// list of elements, else those listed.
bool wanted(const std::vector<uint64_t> *elements, uint64_t g) {
  return !elements ||
         std::find(elements->begin(), elements->end(), g) != elements->end();
}

template <typename W>
BasicDeviceGaloisKeys<W>
uploadGaloisKeys(const DeviceContext &ctx, const BasicGaloisKeys<W> &keys,
                 const std::vector<uint64_t> *elements = nullptr,
                 const KeyRows *rows = nullptr) {
  BasicDeviceGaloisKeys<W> d;
  for (const auto &[g, key] : keys.keys) {
    if (!wanted(elements, g))
      continue;
    d.keys.emplace(g, uploadKey(ctx, key, rows));
    // The automorphism's index map too, with its key: uploaded at load,
    // not by the first run that rotates (which would allocate and wait).
    ctx.impl().galoisIndex(ctx, g);
  }
  return d;
}
} // namespace

DeviceCiphertext upload(const DeviceContext &ctx, const Ciphertext &ct) {
  return uploadCiphertext(ctx, ct);
}
DeviceCiphertext32 upload(const DeviceContext &ctx, const Ciphertext32 &ct) {
  return uploadCiphertext(ctx, ct);
}
Ciphertext download(const DeviceContext &ctx, const DeviceCiphertext &d) {
  return downloadCiphertext(ctx, ctx.host(), d);
}
Ciphertext32 download(const DeviceContext &ctx, const DeviceCiphertext32 &d) {
  return downloadCiphertext(ctx, ctx.host32(), d);
}
DevicePlaintext upload(const DeviceContext &ctx, const Plaintext &pt) {
  return uploadPlaintext(ctx, pt);
}
DevicePlaintext32 upload(const DeviceContext &ctx, const Plaintext32 &pt) {
  return uploadPlaintext(ctx, pt);
}
DeviceSwitchingKey upload(const DeviceContext &ctx, const SwitchingKey &key) {
  return uploadKey(ctx, key);
}
DeviceSwitchingKey32 upload(const DeviceContext &ctx,
                            const SwitchingKey32 &key) {
  return uploadKey(ctx, key);
}

template <typename W>
BasicDeviceEncapsulationKeys<W>
uploadEncapsulation(const DeviceContext &ctx,
                    const BasicEncapsulationKeys<W> &keys) {
  return {uploadKey(ctx, keys.to_sparse), uploadKey(ctx, keys.from_sparse)};
}
DeviceEncapsulationKeys upload(const DeviceContext &ctx,
                               const EncapsulationKeys &keys) {
  return uploadEncapsulation(ctx, keys);
}
DeviceEncapsulationKeys32 upload(const DeviceContext &ctx,
                                 const EncapsulationKeys32 &keys) {
  return uploadEncapsulation(ctx, keys);
}

DeviceRelinKey upload(const DeviceContext &ctx, const RelinKey &key) {
  return DeviceRelinKey{upload(ctx, key.key)};
}
DeviceRelinKey32 upload(const DeviceContext &ctx, const RelinKey32 &key) {
  return DeviceRelinKey32{upload(ctx, key.key)};
}
DeviceGaloisKeys upload(const DeviceContext &ctx, const GaloisKeys &keys) {
  return uploadGaloisKeys(ctx, keys);
}
DeviceGaloisKeys32 upload(const DeviceContext &ctx, const GaloisKeys32 &keys) {
  return uploadGaloisKeys(ctx, keys);
}
DeviceGaloisKeys upload(const DeviceContext &ctx, const GaloisKeys &keys,
                        const std::vector<uint64_t> &elements) {
  return uploadGaloisKeys(ctx, keys, &elements);
}
DeviceGaloisKeys32 upload(const DeviceContext &ctx, const GaloisKeys32 &keys,
                          const std::vector<uint64_t> &elements) {
  return uploadGaloisKeys(ctx, keys, &elements);
}
DeviceSwitchingKey upload(const DeviceContext &ctx, const SwitchingKey &key,
                          const KeyRows &rows) {
  return uploadKey(ctx, key, &rows);
}
DeviceRelinKey upload(const DeviceContext &ctx, const RelinKey &key,
                      const KeyRows &rows) {
  return DeviceRelinKey{uploadKey(ctx, key.key, &rows)};
}
DeviceGaloisKeys upload(const DeviceContext &ctx, const GaloisKeys &keys,
                        const KeyRows &rows) {
  return uploadGaloisKeys(ctx, keys, nullptr, &rows);
}
DeviceGaloisKeys upload(const DeviceContext &ctx, const GaloisKeys &keys,
                        const std::vector<uint64_t> &elements,
                        const KeyRows &rows) {
  return uploadGaloisKeys(ctx, keys, &elements, &rows);
}

namespace {
template <typename W>
BasicDeviceKlssKey<W> uploadKlssKey(const DeviceContext &ctx,
                                    const BasicKlssKey<W> &key) {
  requireWord<W>(ctx, "upload");
  const Context<W> &h = hostOf<W>(ctx);
  if (!h.hasKlss())
    throw InvalidArgument("upload: the parameter set " + h.describe() +
                          " has no KLSS form");
  const size_t count = size_t(key.digits) * key.groups;
  if (key.digits <= 0 || key.groups <= 0 || key.b.size() != count ||
      key.a.size() != count)
    throw InvalidArgument("upload: a KLSS key needs digits x groups (b, a) "
                          "polynomials");
  const std::vector<int> t_basis = h.tBasis();
  const size_t r = t_basis.size(), n = h.n();
  BasicDeviceKlssKey<W> d;
  d.digits = key.digits;
  d.groups = key.groups;
  d.buf = DeviceBuffer(ctx, BasicDevicePoly<W>::wordsFor(count * 2 * r * n));
  for (size_t i = 0; i < count; ++i) {
    for (const Poly<W> *p : {&key.b[i], &key.a[i]})
      if (p->basis != t_basis || !p->ntt || p->data.size() != r * n)
        throw InvalidArgument("upload: KLSS key polynomials must be over T "
                              "in NTT form");
    copyToDevice(ctx, reinterpret_cast<u64 *>(d.data() + (2 * i) * r * n),
                 key.b[i].data.data(), r * n * sizeof(W));
    copyToDevice(ctx, reinterpret_cast<u64 *>(d.data() + (2 * i + 1) * r * n),
                 key.a[i].data.data(), r * n * sizeof(W));
  }
  ctx.synchronize();
  return d;
}

template <typename W>
BasicDeviceKlssGaloisKeys<W>
uploadKlssGaloisKeys(const DeviceContext &ctx,
                     const BasicKlssGaloisKeys<W> &keys,
                     const std::vector<uint64_t> *elements = nullptr) {
  BasicDeviceKlssGaloisKeys<W> d;
  for (const auto &[g, key] : keys.keys) {
    if (!wanted(elements, g))
      continue;
    d.keys.emplace(g, uploadKlssKey(ctx, key));
    ctx.impl().galoisIndex(ctx, g); // as for hybrid keys
  }
  return d;
}
} // namespace

DeviceKlssKey upload(const DeviceContext &ctx, const KlssKey &key) {
  return uploadKlssKey(ctx, key);
}
DeviceKlssKey32 upload(const DeviceContext &ctx, const KlssKey32 &key) {
  return uploadKlssKey(ctx, key);
}
DeviceKlssRelinKey upload(const DeviceContext &ctx, const KlssRelinKey &key) {
  return DeviceKlssRelinKey{uploadKlssKey(ctx, key.key)};
}
DeviceKlssRelinKey32 upload(const DeviceContext &ctx,
                            const KlssRelinKey32 &key) {
  return DeviceKlssRelinKey32{uploadKlssKey(ctx, key.key)};
}
DeviceKlssGaloisKeys upload(const DeviceContext &ctx,
                            const KlssGaloisKeys &keys) {
  return uploadKlssGaloisKeys(ctx, keys);
}
DeviceKlssGaloisKeys32 upload(const DeviceContext &ctx,
                              const KlssGaloisKeys32 &keys) {
  return uploadKlssGaloisKeys(ctx, keys);
}
DeviceKlssGaloisKeys upload(const DeviceContext &ctx,
                            const KlssGaloisKeys &keys,
                            const std::vector<uint64_t> &elements) {
  return uploadKlssGaloisKeys(ctx, keys, &elements);
}
DeviceKlssGaloisKeys32 upload(const DeviceContext &ctx,
                              const KlssGaloisKeys32 &keys,
                              const std::vector<uint64_t> &elements) {
  return uploadKlssGaloisKeys(ctx, keys, &elements);
}

} // namespace ember::cuda
