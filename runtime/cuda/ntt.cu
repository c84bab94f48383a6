// Batched negacyclic NTT/INTT over many limbs of 64- or 32-bit words (every
// kernel is a template on the word W; 32-bit words need q < 2^30 for the
// lazy [0, 4q) butterflies, as on the CPU, and 64-bit words q < 2^61 for
// [0, 8q): see lazyBound), split in two kernels
// (2^16 = 2^8 x 2^8; in general logN = s1 + s2, s1 = logN / 2). N = 2^14..2^16
// have register-resident kernels (below, "N = 2^16" and "N = 2^15 and
// 2^14": logN = s1 + 8, rows of 256); other N use the generic shared-memory
// kernels, one stage per barrier:
//  - the column phase does the s1 stages whose butterfly distance is a
//    multiple of 2^s2: each block holds 2^s1 points of C adjacent columns
//    (x = column + 2^s2 k) in shared memory, loads coalesced (C >= 4: a
//    32-byte sector per run);
//  - the row phase does the s2 stages inside contiguous chunks of 2^s2.
// A block holds about 512 points (one butterfly per thread and stage, 256
// threads, 4 KB of shared memory): at N = 2^13 a limb is 16 blocks, so that
// the few limbs of a small program still fill the GPU (tiles of 4096 points
// gave 2-4 blocks per limb and 30 us per phase). Every fusion below exists
// in both families, with the same arithmetic: the choice of kernels changes
// no output bit (nor does the split: each butterfly sees the same inputs).
// Forward: column then row phase (Cooley-Tukey, twiddles psi^brev); inverse:
// row then column phase (Gentleman-Sande). Harvey's lazy butterflies with
// Shoup twiddles, the CPU's tables, so outputs equal the CPU's bit for bit
// (bit-reversed evaluation order, out[k] = a(psi^(2 brev(k) + 1))).
// Twiddle of a butterfly: index R * m + i, m the stage's sub-transform group
// count and i its group, R = 1 in the column phase and 2^s1 + chunk in the
// row phase.
//
// The epilogue is a __grid_constant__ parameter: epiRow reads it through a
// reference, and without the annotation every thread copied its 88 bytes to
// local memory first.
//
// Fusions: the inverse's last stage multiplies by per-row constants that fold
// n^-1 and BConv's (B/b_i)^-1 and adds a constant (rescale's centring); the
// forward's row phase can end with
// (a - x) * c [+ b] (ModDown's subtraction and P^-1, rescale's q_l^-1, the
// key-switch result added to the ciphertext); its column phase can reduce the
// inputs mod q and centre them (rescale reads the last limb for every row).
//
// Cost per limb of N words: each phase reads and writes N words once (the
// pair moves 4 N words = 2 MB at N = 2^16, plus 2 N twiddle words read from
// L2 per phase); (N/2) log N butterflies, each one Shoup product and a few
// adds and compares: at 64-bit words about 31 SASS instructions per
// butterfly in nttFwdCol16 with its loads and exchanges (984 per thread for
// 32 butterflies), 15 at 32-bit words.
#include "internal.cuh"

#include <cuda_pipeline.h>

#include <algorithm>
#include <atomic>
#include <string>

namespace ember::cuda {

namespace {

constexpr int kLogTile = 9; // points per block of the generic kernels
constexpr int kThreads = 256;

template <typename W> using Pair = typename WordPair<W>::type;
/// The dynamic shared memory of a generic kernel as W words (one extern
/// array serves every word size).
template <typename W> __device__ __forceinline__ W *sharedWords() {
  extern __shared__ __align__(16) unsigned char ntt_smem[];
  return reinterpret_cast<W *>(ntt_smem);
}

// The butterflies' lazy bound L and twiddle product. 32-bit words: L = 2q
// and Shoup's exact product in [0, 2q) (three instructions). 64-bit words:
// L = 4q and mulShoupLazy4, whose cheaper quotient leaves [0, 4q) (about
// two instructions fewer per butterfly; q < 2^61 keeps 8q below 2^64).
// Either way a forward (Cooley-Tukey) butterfly takes x, y < 2L to x', y' <
// 2L (x reduced below L, x + v and x - v + L with v < L), and an inverse
// (Gentleman-Sande) one takes x, y < L to x + y reduced below L and the
// product of x - y + L, below L. Forward outputs are below 2L, inverse ones
// below L; both are reduced fully where they leave (reduceOut, or the scaled
// last stage). EMBER_NTT_SHOUP4=0 builds the exact quotient at 64 bits (L =
// 2q): a knob for measuring (bench/gpu_knobs.sh).
#ifndef EMBER_NTT_SHOUP4
#define EMBER_NTT_SHOUP4 1
#endif
template <typename W>
constexpr bool kShoup4 = sizeof(W) == 8 && EMBER_NTT_SHOUP4;
template <typename W> __device__ __forceinline__ W lazyBound(W q) {
  return kShoup4<W> ? 4 * q : 2 * q;
}
/// y w mod q below L (nq = -q mod 2^W).
template <typename W>
__device__ __forceinline__ W mulTw(W y, W w, W ws, W q, W nq) {
  if constexpr (kShoup4<W>)
    return mulShoupLazy4(y, w, ws, nq);
  else
    return mulShoupLazy(y, w, ws, q);
}
/// [0, 2L) -> [0, q).
template <typename W> __device__ __forceinline__ W reduceOut(W x, W q, W lz) {
  x = subIfGe(x, lz);
  if constexpr (kShoup4<W>)
    x = subIfGe(x, 2 * q);
  return subIfGe(x, q);
}

/// Point k of a limb of N = 2^log_n points in NTT form reads point
/// nttAutoIndex(k) of the input under X -> X^galois (cpu's
/// automorphismNttIndex, galois odd and below 2N): bit-reversed order, k is
/// the root 2 brev(k) + 1, sent to its galois-th power (mod 2N: 32-bit
/// products suffice, 2N divides 2^32).
__device__ __forceinline__ uint32_t nttAutoIndex(uint32_t k, uint32_t galois,
                                                 int log_n) {
  const uint32_t e = 2 * (__brev(k) >> (32 - log_n)) + 1;
  const uint32_t image = (e * galois) & ((2u << log_n) - 1);
  return __brev((image - 1) >> 1) >> (32 - log_n);
}

/// One row's view of an Epilogue (ModDown fused into the last NTT): the
/// row's operand a (or none), optional addend b and its factor, and the
/// constant c, offset to `base` (a permuted b stays at its limb's start
/// and keeps base).
template <typename W> struct EpiRow {
  const W *a, *b;
  uint32_t galois, base; ///< b read permuted (galois != 0), and where
  int log_n;
  W cw, cs, bw, bs;
  bool scaleB;
  /// Where the addend of point k (offset to base) is.
  __device__ __forceinline__ const W *bAt(size_t k) const {
    return galois ? b + nttAutoIndex(base + uint32_t(k), galois, log_n) : b + k;
  }
  /// out = (a - x) * c (+ b [* bc]), or x (+ b) without a, from the
  /// forward transform's output x below 2L (lz = lazyBound(q)). With a, x
  /// is only brought below L: a + L - x, below L + q < 2^W (q < 2^61 at 64
  /// bits, 2^30 at 32), is what the product reduces fully.
  __device__ __forceinline__ W apply(W x, size_t k, W q, W lz) const {
    return applyValues(x, a ? a[k] : 0, b ? *bAt(k) : 0, q, lz);
  }
  /// The same with a[k] and b[k] already loaded (ignored where null).
  __device__ __forceinline__ W applyValues(W x, W ak, W bk, W q, W lz) const {
    W res =
        a ? mulShoup(ak + lz - subIfGe(x, lz), cw, cs, q) : reduceOut(x, q, lz);
    if (!b)
      return res;
    return addMod(res, scaleB ? mulShoup(bk, bw, bs, q) : bk, q);
  }
};
template <typename W>
__device__ __forceinline__ EpiRow<W> epiRow(const EpilogueT<W> &e, int r,
                                            int log_n, size_t base) {
  const int part = r / e.div, limb = r % e.div;
  const size_t off = (size_t(limb) << log_n) + base;
  EpiRow<W> row;
  row.a = e.a[part] ? e.a[part] + off : nullptr;
  row.galois = e.galois;
  row.base = uint32_t(base);
  row.log_n = log_n;
  row.b = !e.b[part] ? nullptr
          : e.galois ? e.b[part] + (size_t(limb) << log_n)
                     : e.b[part] + off;
  row.cw = row.a ? e.c[2 * limb] : 0;
  row.cs = row.a ? e.c[2 * limb + 1] : 0;
  row.scaleB = row.b && e.bc;
  row.bw = row.scaleB ? e.bc[2 * limb] : 0;
  row.bs = row.scaleB ? e.bc[2 * limb + 1] : 0;
  return row;
}
/// Forward column phase. Grid (2^s2 / C, rows). Bytes: 2 N words per row.
template <typename W, bool kReduceIn>
__global__ void __launch_bounds__(kThreads)
    nttFwdCol(TablesT<W> T, RowTableT<W> rt, int s1, int log_c, int in_mod) {
  W *s = sharedWords<W>(); // 2^(s + log_c) points
  const int row = blockIdx.y, mod = rt.mod[row], log_n = T.logN;
  const int s2 = log_n - s1, c_mask = (1 << log_c) - 1;
  const W q = T.q[mod], lz = lazyBound(q), nq = W(0) - q;
  const W *src = rt.src(row, log_n);
  W *dst = rt.dst(row, log_n);
  const int col0 = blockIdx.x << log_c, total = 1 << (s1 + log_c);
  W h = 0;
  if (kReduceIn) { // rescale: r = ([c + h]_{q_l} mod q) - (h mod q)
    h = T.q[in_mod] >> 1;
    if (h >= q)
      h = barrett(W(0), h, q, T.ratioHi[mod], T.ratioLo[mod]);
  }
  for (int idx = threadIdx.x; idx < total; idx += blockDim.x) {
    const int x = col0 + (idx & c_mask) + ((idx >> log_c) << s2);
    W v = src[x];
    if (kReduceIn) {
      if (v >= q)
        v = barrett(W(0), v, q, T.ratioHi[mod], T.ratioLo[mod]);
      v = subMod(v, h, q);
    }
    s[idx] = v;
  }
  const W *w = T.roots + (size_t(mod) << log_n);
  const W *ws = T.rootsShoup + (size_t(mod) << log_n);
  const int half = total >> 1;
  for (int st = 0; st < s1; ++st) {
    __syncthreads();
    const int log_t = s1 - 1 - st;
    for (int b = threadIdx.x; b < half; b += blockDim.x) {
      const int c = b & c_mask, p = b >> log_c;
      const int i = p >> log_t, j = p & ((1 << log_t) - 1);
      const int ix = ((((i << 1) << log_t) + j) << log_c) + c;
      const int iy = ix + (1 << (log_t + log_c));
      const int wi = (1 << st) + i;
      const W tw_w = __ldg(w + wi), tw_s = __ldg(ws + wi);
      W u = s[ix];
      u = subIfGe(u, lz);
      const W v = mulTw(s[iy], tw_w, tw_s, q, nq);
      s[ix] = u + v;
      s[iy] = u - v + lz;
    }
  }
  __syncthreads();
  for (int idx = threadIdx.x; idx < total; idx += blockDim.x)
    dst[col0 + (idx & c_mask) + ((idx >> log_c) << s2)] = s[idx];
}

/// Forward row phase with optional epilogue. Grid (2^s1 / C2, rows).
/// Bytes: 2 N words per row, plus N (a) and N (b) with the epilogue.
template <typename W, bool kEpi>
__global__ void __launch_bounds__(kThreads)
    nttFwdRow(TablesT<W> T, RowTableT<W> rt, int s2, int log_c, int row_base,
              const __grid_constant__ EpilogueT<W> e) {
  W *s = sharedWords<W>(); // 2^(s + log_c) points
  const int row = blockIdx.y, mod = rt.mod[row], log_n = T.logN;
  const int s1 = log_n - s2;
  const W q = T.q[mod], lz = lazyBound(q), nq = W(0) - q;
  const int chunk0 = blockIdx.x << log_c, total = 1 << (s2 + log_c);
  const size_t base = size_t(chunk0) << s2;
  const W *src = rt.src(row, log_n) + base;
  for (int idx = threadIdx.x; idx < total; idx += blockDim.x)
    s[idx] = src[idx];
  const W *w = T.roots + (size_t(mod) << log_n);
  const W *ws = T.rootsShoup + (size_t(mod) << log_n);
  const int half = total >> 1, half_chunk = 1 << (s2 - 1);
  for (int st = 0; st < s2; ++st) {
    __syncthreads();
    const int log_t = s2 - 1 - st;
    for (int b = threadIdx.x; b < half; b += blockDim.x) {
      const int chunk = b >> (s2 - 1), p = b & (half_chunk - 1);
      const int i = p >> log_t, j = p & ((1 << log_t) - 1);
      const int ix = (chunk << s2) + (((i << 1) << log_t) + j);
      const int iy = ix + (1 << log_t);
      const int wi = (((1 << s1) + chunk0 + chunk) << st) + i;
      const W tw_w = __ldg(w + wi), tw_s = __ldg(ws + wi);
      W u = s[ix];
      u = subIfGe(u, lz);
      const W v = mulTw(s[iy], tw_w, tw_s, q, nq);
      s[ix] = u + v;
      s[iy] = u - v + lz;
    }
  }
  __syncthreads();
  W *dst = rt.dst(row, log_n) + base;
  if (!kEpi) {
    for (int idx = threadIdx.x; idx < total; idx += blockDim.x)
      dst[idx] = reduceOut(s[idx], q, lz);
    return;
  }
  const EpiRow<W> epi = epiRow(e, row_base + row, log_n, base);
  for (int idx = threadIdx.x; idx < total; idx += blockDim.x)
    dst[idx] = epi.apply(s[idx], idx, q, lz);
}

/// Inverse row phase (first s2 stages, Gentleman-Sande), in -> out.
/// Bytes: 2 N words per row. Values stay below the lazy bound L.
template <typename W>
__global__ void __launch_bounds__(kThreads)
    nttInvRow(TablesT<W> T, RowTableT<W> rt, int s2, int log_c) {
  W *s = sharedWords<W>(); // 2^(s + log_c) points
  const int row = blockIdx.y, mod = rt.mod[row], log_n = T.logN;
  const int s1 = log_n - s2;
  const W q = T.q[mod], lz = lazyBound(q), nq = W(0) - q;
  const int chunk0 = blockIdx.x << log_c, total = 1 << (s2 + log_c);
  const size_t base = size_t(chunk0) << s2;
  const W *src = rt.src(row, log_n) + base;
  for (int idx = threadIdx.x; idx < total; idx += blockDim.x)
    s[idx] = src[idx];
  const W *w = T.invRoots + (size_t(mod) << log_n);
  const W *ws = T.invRootsShoup + (size_t(mod) << log_n);
  const int half = total >> 1, half_chunk = 1 << (s2 - 1);
  for (int st = 0; st < s2; ++st) {
    __syncthreads();
    const int log_t = st;
    for (int b = threadIdx.x; b < half; b += blockDim.x) {
      const int chunk = b >> (s2 - 1), p = b & (half_chunk - 1);
      const int i = p >> log_t, j = p & ((1 << log_t) - 1);
      const int ix = (chunk << s2) + (((i << 1) << log_t) + j);
      const int iy = ix + (1 << log_t);
      const int wi = (((1 << s1) + chunk0 + chunk) << (s2 - 1 - st)) + i;
      const W tw_w = __ldg(w + wi), tw_s = __ldg(ws + wi);
      const W u = s[ix], v = s[iy];
      const W sum = u + v;
      s[ix] = subIfGe(sum, lz);
      s[iy] = mulTw(u - v + lz, tw_w, tw_s, q, nq);
    }
  }
  __syncthreads();
  W *dst = rt.dst(row, log_n) + base;
  for (int idx = threadIdx.x; idx < total; idx += blockDim.x)
    dst[idx] = s[idx];
}

/// Inverse column phase (last s1 stages); the last stage multiplies by the
/// row's constants (cx for the upper half, cy = invRoots[1] cx for the
/// lower) and adds the row's constant. Bytes: 2 N words per row. Output
/// fully reduced.
template <typename W>
__global__ void __launch_bounds__(kThreads)
    nttInvCol(TablesT<W> T, RowTableT<W> rt, int s1, int log_c, int row_base,
              const W *scale, bool by_mod) {
  W *s = sharedWords<W>(); // 2^(s + log_c) points
  const int row = blockIdx.y, mod = rt.mod[row], log_n = T.logN;
  const int s2 = log_n - s1, c_mask = (1 << log_c) - 1;
  const W q = T.q[mod], lz = lazyBound(q), nq = W(0) - q;
  const W *src = rt.src(row, log_n);
  W *dst = rt.dst(row, log_n);
  const int col0 = blockIdx.x << log_c, total = 1 << (s1 + log_c);
  for (int idx = threadIdx.x; idx < total; idx += blockDim.x)
    s[idx] = src[col0 + (idx & c_mask) + ((idx >> log_c) << s2)];
  const W *w = T.invRoots + (size_t(mod) << log_n);
  const W *ws = T.invRootsShoup + (size_t(mod) << log_n);
  const W *k = scale + kScaleWords * size_t(by_mod ? mod : row_base + row);
  const W cx = k[0], cxs = k[1], cy = k[2], cys = k[3], add = k[4];
  const int half = total >> 1;
  for (int st = 0; st < s1; ++st) {
    __syncthreads();
    const int log_t = st;
    const bool last = st == s1 - 1;
    for (int b = threadIdx.x; b < half; b += blockDim.x) {
      const int c = b & c_mask, p = b >> log_c;
      const int i = p >> log_t, j = p & ((1 << log_t) - 1);
      const int ix = ((((i << 1) << log_t) + j) << log_c) + c;
      const int iy = ix + (1 << (log_t + log_c));
      const W u = s[ix], v = s[iy];
      W sum = u + v;
      sum = subIfGe(sum, lz);
      if (last) {
        s[ix] = addMod(mulShoup(sum, cx, cxs, q), add, q);
        s[iy] = addMod(mulShoup(u - v + lz, cy, cys, q), add, q);
      } else {
        const int wi = (1 << (s1 - 1 - st)) + i;
        const W tw_w = __ldg(w + wi), tw_s = __ldg(ws + wi);
        s[ix] = sum;
        s[iy] = mulTw(u - v + lz, tw_w, tw_s, q, nq);
      }
    }
  }
  __syncthreads();
  for (int idx = threadIdx.x; idx < total; idx += blockDim.x)
    dst[col0 + (idx & c_mask) + ((idx >> log_c) << s2)] = s[idx];
}

// --- N = 2^16: register-resident 256-point sub-transforms
// ---------------------
//
// Each thread holds 8 points in registers and does 3 + 3 + 2 stages of the
// sub-transform's 8 between two shared-memory exchanges (radix-8 in
// registers: 4 independent butterflies per stage, twiddles loaded once per
// group). A block is 8 sub-transforms (256 threads, 18 KB of shared memory
// with padding that keeps the exchanges conflict-free but for the last,
// 2-way). Layouts of point k (0..255) of a sub-transform in one thread:
//   phase A: k = th + 32 r     (r = 0..7; stages on bits 7, 6, 5)
//   phase B: k = 32 a + 4 j + b, th = 4 a + b (stages on bits 4, 3, 2)
//   phase C: k = 8 th + j      (stages on bits 1, 0)
// Twiddle of stage st (t = 128 >> st) for point k: (R << st) + (k >> (8 - st)).

constexpr int kFastThreads = 256;
// Blocks per SM the register-resident kernels are compiled for (the
// register budget: 4 -> 64 registers, 5 -> 48, 6 -> 40); a build knob for
// tuning (bench/gpu_knobs.sh).
#ifndef EMBER_NTT_MIN_BLOCKS
#define EMBER_NTT_MIN_BLOCKS 4
#endif
// The same at 32-bit words (EMBER_NTT32_MIN_BLOCKS): 6 and 8 (40 and 32
// registers) were no faster on an H100 (bench/RESULTS.md, issue 15).
#ifndef EMBER_NTT32_MIN_BLOCKS
#define EMBER_NTT32_MIN_BLOCKS 4
#endif
template <typename W>
constexpr int kFastMinBlocks = sizeof(W) == 8 ? EMBER_NTT_MIN_BLOCKS
                                              : EMBER_NTT32_MIN_BLOCKS;
constexpr int kFastWords = 2304;
/// Dynamic shared memory of the fused forward row phase: the epilogue's a
/// and b for the block's 8 x 256 points.
template <typename W> constexpr size_t kEpiPreBytes = 2 * 8 * 256 * sizeof(W);

__device__ __forceinline__ int colAddr(int k, int c) {
  return 8 * k + c + 8 * (k >> 3);
}
__device__ __forceinline__ int rowAddr(int k, int c) {
  return c * 288 + k + 4 * (k >> 5);
}
/// A thread's shared-memory slots in the three layouts of a 256-point
/// transform (th < 32): point th + 32 r at a + offA(r), 32 (th >> 2) + 4 j +
/// (th & 3) at b + offB(j), 8 th + j at c + offC(j), with the offsets
/// compile-time constants. Computed from colAddr/rowAddr once per thread
/// (the compiler did not see that k >> 3 of th + 32 r is (th >> 3) + 4 r,
/// and spent about five instructions on each of the 32 slots a thread
/// touches per transform).
struct ColSlots {
  int a, b, c;
  __device__ __forceinline__ ColSlots(int th, int col)
      : a(colAddr(th, col)), b(colAddr(32 * (th >> 2) + (th & 3), col)),
        c(colAddr(8 * th, col)) {}
  __device__ static constexpr int offA(int r) { return 288 * r; }
  __device__ static constexpr int offB(int j) { return 32 * j + 8 * (j >> 1); }
  __device__ static constexpr int offC(int j) { return 8 * j; }
};
struct RowSlots {
  int a, b, c;
  __device__ __forceinline__ RowSlots(int th, int chunk)
      : a(rowAddr(th, chunk)), b(rowAddr(32 * (th >> 2) + (th & 3), chunk)),
        c(rowAddr(8 * th, chunk)) {}
  __device__ static constexpr int offA(int r) { return 36 * r; }
  __device__ static constexpr int offB(int j) { return 4 * j; }
  __device__ static constexpr int offC(int j) { return j; }
};

template <typename W> struct Tw {
  const Pair<W> *w; ///< interleaved (twiddle, Shoup quotient)
  W q, lz, nq;      ///< the modulus, lazyBound(q), -q mod 2^W
  int R;
};

template <typename W>
__device__ __forceinline__ Tw<W> twOf(const Pair<W> *w, W q, int R) {
  return Tw<W>{w, q, lazyBound(q), W(0) - q, R};
}

/// One twiddle pair: a single 16-byte load, shared by every butterfly of the
/// group (loaded once per group, not per butterfly).
template <typename W>
__device__ __forceinline__ Pair<W> tw(const Tw<W> &t, int idx) {
  return __ldg(t.w + idx);
}
template <typename W>
__device__ __forceinline__ void ct(W &x, W &y, const Tw<W> &t, Pair<W> w) {
  const W u = subIfGe(x, t.lz);
  const W v = mulTw<W>(y, w.x, w.y, t.q, t.nq);
  x = u + v;
  y = u - v + t.lz;
}
template <typename W>
__device__ __forceinline__ void gs(W &x, W &y, const Tw<W> &t, Pair<W> w) {
  const W u = x, v = y, sum = u + v;
  x = subIfGe(sum, t.lz);
  y = mulTw<W>(u - v + t.lz, w.x, w.y, t.q, t.nq);
}

template <typename W>
__device__ __forceinline__ void fwdA(W *v, const Tw<W> &t) {
  {
    const Pair<W> w = tw(t, t.R);
#pragma unroll
    for (int r = 0; r < 4; ++r)
      ct(v[r], v[r + 4], t, w);
  }
#pragma unroll
  for (int r = 0; r < 8; r += 4) {
    const Pair<W> w = tw(t, (t.R << 1) + (r >> 2));
    ct(v[r], v[r + 2], t, w);
    ct(v[r + 1], v[r + 3], t, w);
  }
#pragma unroll
  for (int r = 0; r < 8; r += 2)
    ct(v[r], v[r + 1], t, tw(t, (t.R << 2) + (r >> 1)));
}
template <typename W>
__device__ __forceinline__ void fwdB(W *v, const Tw<W> &t, int a) {
  {
    const Pair<W> w = tw(t, (t.R << 3) + a);
#pragma unroll
    for (int j = 0; j < 4; ++j)
      ct(v[j], v[j + 4], t, w);
  }
#pragma unroll
  for (int j = 0; j < 8; j += 4) {
    const Pair<W> w = tw(t, (t.R << 4) + 2 * a + (j >> 2));
    ct(v[j], v[j + 2], t, w);
    ct(v[j + 1], v[j + 3], t, w);
  }
#pragma unroll
  for (int j = 0; j < 8; j += 2)
    ct(v[j], v[j + 1], t, tw(t, (t.R << 5) + 4 * a + (j >> 1)));
}
template <typename W>
__device__ __forceinline__ void fwdC(W *v, const Tw<W> &t, int th) {
#pragma unroll
  for (int j = 0; j < 8; j += 4) {
    const Pair<W> w = tw(t, (t.R << 6) + 2 * th + (j >> 2));
    ct(v[j], v[j + 2], t, w);
    ct(v[j + 1], v[j + 3], t, w);
  }
#pragma unroll
  for (int j = 0; j < 8; j += 2)
    ct(v[j], v[j + 1], t, tw(t, (t.R << 7) + 4 * th + (j >> 1)));
}
template <typename W>
__device__ __forceinline__ void invC(W *v, const Tw<W> &t, int th) {
#pragma unroll
  for (int j = 0; j < 8; j += 2)
    gs(v[j], v[j + 1], t, tw(t, (t.R << 7) + 4 * th + (j >> 1)));
#pragma unroll
  for (int j = 0; j < 8; j += 4) {
    const Pair<W> w = tw(t, (t.R << 6) + 2 * th + (j >> 2));
    gs(v[j], v[j + 2], t, w);
    gs(v[j + 1], v[j + 3], t, w);
  }
}
template <typename W>
__device__ __forceinline__ void invB(W *v, const Tw<W> &t, int a) {
#pragma unroll
  for (int j = 0; j < 8; j += 2)
    gs(v[j], v[j + 1], t, tw(t, (t.R << 5) + 4 * a + (j >> 1)));
#pragma unroll
  for (int j = 0; j < 8; j += 4) {
    const Pair<W> w = tw(t, (t.R << 4) + 2 * a + (j >> 2));
    gs(v[j], v[j + 2], t, w);
    gs(v[j + 1], v[j + 3], t, w);
  }
  {
    const Pair<W> w = tw(t, (t.R << 3) + a);
#pragma unroll
    for (int j = 0; j < 4; ++j)
      gs(v[j], v[j + 4], t, w);
  }
}
/// Stages on bits 5, 6 and, unless kSkipLast (the caller fuses it), 7.
template <typename W, bool kSkipLast>
__device__ __forceinline__ void invA(W *v, const Tw<W> &t) {
#pragma unroll
  for (int r = 0; r < 8; r += 2)
    gs(v[r], v[r + 1], t, tw(t, (t.R << 2) + (r >> 1)));
#pragma unroll
  for (int r = 0; r < 8; r += 4) {
    const Pair<W> w = tw(t, (t.R << 1) + (r >> 2));
    gs(v[r], v[r + 2], t, w);
    gs(v[r + 1], v[r + 3], t, w);
  }
  if (!kSkipLast) {
    const Pair<W> w = tw(t, t.R);
#pragma unroll
    for (int r = 0; r < 4; ++r)
      gs(v[r], v[r + 4], t, w);
  }
}

/// The three register phases of a 256-point forward transform held by 32
/// threads (8 values each), exchanging through shared memory at the slots
/// `sl` (ColSlots or RowSlots). On entry v[r] is point th + 32 r; on exit
/// v[j] is point 8 th + j. Shared by the column and row kernels, which
/// differ only in the slot map.
template <typename W, typename Slots>
__device__ __forceinline__ void fwd256(W *v, W *s, const Tw<W> &t, int th,
                                       const Slots &sl) {
  fwdA(v, t);
#pragma unroll
  for (int r = 0; r < 8; ++r)
    s[sl.a + Slots::offA(r)] = v[r];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = s[sl.b + Slots::offB(j)];
  fwdB(v, t, th >> 2);
#pragma unroll
  for (int j = 0; j < 8; ++j)
    s[sl.b + Slots::offB(j)] = v[j];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = s[sl.c + Slots::offC(j)];
  fwdC(v, t, th);
}

/// The inverse of fwd256 up to its last stage group: on entry v[j] is point
/// 8 th + j; on exit v[r] is point th + 32 r, ready for invA (which the
/// caller applies, possibly fused with its own last stage).
template <typename W, typename Slots>
__device__ __forceinline__ void inv256(W *v, W *s, const Tw<W> &t, int th,
                                       const Slots &sl) {
  invC(v, t, th);
#pragma unroll
  for (int j = 0; j < 8; ++j)
    s[sl.c + Slots::offC(j)] = v[j];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = s[sl.b + Slots::offB(j)];
  invB(v, t, th >> 2);
#pragma unroll
  for (int j = 0; j < 8; ++j)
    s[sl.b + Slots::offB(j)] = v[j];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 8; ++r)
    v[r] = s[sl.a + Slots::offA(r)];
}

/// Forward column phase, N = 2^16: 8 columns x 256 points per block.
/// Bytes: 2 N words per row. Grid (32, rows).
template <typename W, bool kReduceIn>
__global__ void __launch_bounds__(kFastThreads, kFastMinBlocks<W>)
    nttFwdCol16(TablesT<W> T, RowTableT<W> rt, int in_mod) {
  __shared__ W s[kFastWords];
  const int row = blockIdx.y, mod = rt.mod[row];
  const int c = threadIdx.x & 7, th = threadIdx.x >> 3;
  const int col0 = blockIdx.x << 3;
  Tw<W> t = twOf<W>(T.roots2 + (size_t(mod) << 16), T.q[mod], 1);
  const W *src = rt.src(row, 16) + col0 + c;
  W h = 0;
  if (kReduceIn) {
    h = T.q[in_mod] >> 1;
    if (h >= t.q)
      h = barrett(W(0), h, t.q, T.ratioHi[mod], T.ratioLo[mod]);
  }
  W v[8];
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    W x = src[(th + 32 * r) << 8];
    if (kReduceIn) {
      if (x >= t.q)
        x = barrett(W(0), x, t.q, T.ratioHi[mod], T.ratioLo[mod]);
      x = subMod(x, h, t.q);
    }
    v[r] = x;
  }
  fwd256(v, s, t, th, ColSlots(th, c));
  W *dst = rt.dst(row, 16) + col0 + c;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    dst[(8 * th + j) << 8] = v[j];
}

/// Forward column phase, N = 2^16, whose inputs are a centred BConv from
/// two dropped limbs (double-prime scaling's rescale at 32-bit words): row
/// r's input at x is [above(x) [-D]_t + y_0(x) (D/d_0)_t + y_1(x) (D/d_1)_t]_t
/// for the row's kept modulus t (the product sum below 2^62, one Barrett),
/// the value bconvKernel32 would have written, read from the two limbs
/// instead of a materialised limb per target. Bytes: 2 N words read per
/// row (from L2: every row of a part reads the same two) and N written.
template <typename W>
__global__ void __launch_bounds__(kFastThreads, kFastMinBlocks<W>)
    nttFwdCol16Conv2(TablesT<W> T, RowTableT<W> rt,
                     const __grid_constant__ Conv2InT<W> in, int row_base) {
  static_assert(sizeof(W) == 4, "the fused BConv sums 32-bit words");
  __shared__ W s[kFastWords];
  const int row = blockIdx.y, mod = rt.mod[row];
  const int c = threadIdx.x & 7, th = threadIdx.x >> 3;
  const int col0 = blockIdx.x << 3;
  Tw<W> t = twOf<W>(T.roots2 + (size_t(mod) << 16), T.q[mod], 1);
  const int part = (row_base + row) / in.keep,
            limb = (row_base + row) % in.keep;
  const W *y0 = in.y[part] + col0 + c, *y1 = y0 + (size_t(1) << 16);
  const W *k = in.consts;
  const W h0 = k[2 * limb], h1 = k[2 * limb + 1];
  const W half0 = k[2 * in.keep], half1 = k[2 * in.keep + 1];
  const W negb = k[2 * in.keep + 2 + limb];
  const W rh = T.ratioHi[mod], rl = T.ratioLo[mod];
  W v[8];
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const size_t x = size_t(th + 32 * r) << 8;
    const W a0 = y0[x], a1 = y1[x];
    const uint64_t acc = uint64_t(W(a0 > half0) + W(a1 > half1)) * negb +
                         uint64_t(a0) * h0 + uint64_t(a1) * h1;
    v[r] = barrett(W(acc >> 32), W(acc), t.q, rh, rl);
  }
  fwd256(v, s, t, th, ColSlots(th, c));
  W *dst = rt.dst(row, 16) + col0 + c;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    dst[(8 * th + j) << 8] = v[j];
}

/// Forward row phase, N = 2^kLogN (14..16: 2^(kLogN - 8) rows of 256, the
/// last 8 stages): 8 contiguous chunks of 256 per block, then the epilogue.
/// Bytes: 2 N words per row (+ N per epilogue operand). Grid
/// (2^(kLogN - 11), rows).
template <typename W, bool kEpi, int kLogN>
__global__ void __launch_bounds__(kFastThreads, kFastMinBlocks<W>)
    nttFwdRow256(TablesT<W> T, RowTableT<W> rt, int row_base,
                 const __grid_constant__ EpilogueT<W> e) {
  static_assert(kLogN >= 14 && kLogN <= 16, "rows of 256 at N = 2^14..2^16");
  // The epilogue's operands are copied to shared memory asynchronously
  // (cp.async) while the transform runs: read at the end, their latency
  // stalled every warp (at 32-bit words the fused row phase took 2.6x the
  // plain one per row on an H200). They sit in the dynamic shared memory
  // (kEpiPreBytes<W>: 16 KB at 32 bits, 32 KB at 64, beyond the default
  // 48 KB with the transform's 18 KB: the launcher raises the limit).
  __shared__ W s[kFastWords];
  W *pre = sharedWords<W>();
  const int row = blockIdx.y, mod = rt.mod[row];
  const int c = threadIdx.x >> 5, th = threadIdx.x & 31;
  const int chunk0 = blockIdx.x << 3;
  const size_t base = (size_t(chunk0 + c) << 8);
  EpiRow<W> epi{};
  if constexpr (kEpi) {
    epi = epiRow(e, row_base + row, kLogN, base);
#pragma unroll
    for (int r = 0; r < 8; ++r) {
      const int k = th + 32 * r;
      if (epi.a)
        __pipeline_memcpy_async(&pre[c * 256 + k], epi.a + k, sizeof(W));
      if (epi.b)
        __pipeline_memcpy_async(&pre[2048 + c * 256 + k], epi.bAt(k),
                                sizeof(W));
    }
    __pipeline_commit();
  }
  Tw<W> t = twOf<W>(T.roots2 + (size_t(mod) << kLogN), T.q[mod],
                    (1 << (kLogN - 8)) + chunk0 + c);
  const W *src = rt.src(row, kLogN) + base;
  W v[8];
#pragma unroll
  for (int r = 0; r < 8; ++r)
    v[r] = src[th + 32 * r];
  const RowSlots sl(th, c);
  fwd256(v, s, t, th, sl);
#pragma unroll
  for (int j = 0; j < 8; ++j)
    s[sl.c + RowSlots::offC(j)] = v[j];
  __syncthreads();
  const W q = t.q, lz = t.lz;
  W *dst = rt.dst(row, kLogN) + base;
  if constexpr (!kEpi) {
#pragma unroll
    for (int r = 0; r < 8; ++r)
      dst[th + 32 * r] = reduceOut(s[sl.a + RowSlots::offA(r)], q, lz);
  } else {
    __pipeline_wait_prior(0); // this thread's own copies: no barrier needed
#pragma unroll
    for (int r = 0; r < 8; ++r) {
      const int k = th + 32 * r;
      dst[k] = epi.applyValues(s[sl.a + RowSlots::offA(r)], pre[c * 256 + k],
                               pre[2048 + c * 256 + k], q, lz);
    }
  }
}

/// Inverse row phase, N = 2^kLogN (14..16; the first 8 stages, rows of
/// 256). Bytes: 2 N words per row. Output below L. Grid (2^(kLogN - 11),
/// rows).
template <typename W, int kLogN>
__global__ void __launch_bounds__(kFastThreads, kFastMinBlocks<W>)
    nttInvRow256(TablesT<W> T, RowTableT<W> rt) {
  static_assert(kLogN >= 14 && kLogN <= 16, "rows of 256 at N = 2^14..2^16");
  __shared__ W s[kFastWords];
  const int row = blockIdx.y, mod = rt.mod[row];
  const int c = threadIdx.x >> 5, th = threadIdx.x & 31;
  const int chunk0 = blockIdx.x << 3;
  const size_t base = (size_t(chunk0 + c) << 8);
  Tw<W> t = twOf<W>(T.invRoots2 + (size_t(mod) << kLogN), T.q[mod],
                    (1 << (kLogN - 8)) + chunk0 + c);
  const RowSlots sl(th, c);
  const W *src = rt.src(row, kLogN) + base;
#pragma unroll
  for (int r = 0; r < 8; ++r)
    s[sl.a + RowSlots::offA(r)] = src[th + 32 * r];
  __syncthreads();
  W v[8];
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = s[sl.c + RowSlots::offC(j)];
  inv256(v, s, t, th, sl);
  invA<W, false>(v, t);
  W *dst = rt.dst(row, kLogN) + base;
#pragma unroll
  for (int r = 0; r < 8; ++r)
    dst[th + 32 * r] = v[r];
}

/// Inverse column phase, N = 2^16, with the scaled last stage. Bytes: 2 N
/// words per row. Output fully reduced.
template <typename W>
__global__ void __launch_bounds__(kFastThreads, kFastMinBlocks<W>)
    nttInvCol16(TablesT<W> T, RowTableT<W> rt, int row_base, const W *scale,
                bool by_mod) {
  __shared__ W s[kFastWords];
  const int row = blockIdx.y, mod = rt.mod[row];
  const int c = threadIdx.x & 7, th = threadIdx.x >> 3;
  const int col0 = blockIdx.x << 3;
  Tw<W> t = twOf<W>(T.invRoots2 + (size_t(mod) << 16), T.q[mod], 1);
  const W *src = rt.src(row, 16) + col0 + c;
  W v[8];
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = src[(8 * th + j) << 8];
  inv256(v, s, t, th, ColSlots(th, c));
  invA<W, true>(v, t);
  const W *k = scale + kScaleWords * size_t(by_mod ? mod : row_base + row);
  const W cx = k[0], cxs = k[1], cy = k[2], cys = k[3], add = k[4];
  const W q = t.q, lz = t.lz;
  W *dst = rt.dst(row, 16) + col0 + c;
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const W x = v[r], y = v[r + 4];
    W sum = x + y;
    sum = subIfGe(sum, lz);
    dst[(th + 32 * r) << 8] = addMod(mulShoup(sum, cx, cxs, q), add, q);
    dst[(th + 32 * (r + 4)) << 8] =
        addMod(mulShoup(x - y + lz, cy, cys, q), add, q);
  }
}

// --- N = 2^15 and 2^14: columns of 128 and 64 points
// ---------------------------------------------------------------------------
//
// logN = s1 + 8: the row phase is the one of N = 2^16 (nttFwdRow256,
// nttInvRow256: rows of 256, R = 2^s1 + chunk); the column phase does the
// s1 = 7 or 6 stages on the 256 columns (x = column + 256 k), 8 points per
// thread, a block of 256 threads holding 2048 points (16 or 32 columns: 16
// or 8 blocks per limb and phase):
//  - 2^15 (nttFwdCol128): 16 columns x 16 threads, c = threadIdx & 15, th =
//    threadIdx >> 4. Stages on bits 6, 5, 4 with k = th + 16 r (fwdA), an
//    exchange through shared memory, bits 3, 2, 1 with k = 16 a + 2 j + b,
//    th = 2 a + b (fwdB), then bit 0 between the threads th and th ^ 1
//    (lanes 16 apart, one warp) through shuffles (fwdLast128): one barrier
//    per transform.
//  - 2^14 (nttFwdCol64): 32 columns x 8 threads, c = lane, th = warp. Bits
//    5, 4, 3 with k = th + 8 r (fwdA), an exchange, bits 2, 1, 0 with
//    k = 8 th + j (fwdB with a = th).
// fwdA/fwdB index twiddles by the high bits of k, so they serve these sizes
// unchanged (stage st's twiddle (R << st) + (k >> (s1 - st))). Shared slot
// of point k of column c: 16 k + c (32 k + c): a half-warp reads or writes 16
// consecutive words of one k, and at 32 bits the warp's two k (2^15) are
// consecutive, 16 banks apart: every exchange is conflict-free. The inverse
// kernels run the same steps backwards, with the scaled last stage of
// nttInvCol16. Global loads and stores: runs of 16 (32) adjacent columns.

constexpr int kColWords = 2048; ///< shared words of nttFwdCol128/64

/// x of the lane 16 apart (thread th ^ 1 of nttFwdCol128, same column).
template <typename W> __device__ __forceinline__ W fromPartner(W x) {
  if constexpr (sizeof(W) == 8) {
    const u32 lo = __shfl_xor_sync(0xffffffffu, u32(x), 16);
    const u32 hi = __shfl_xor_sync(0xffffffffu, u32(x >> 32), 16);
    return (W(hi) << 32) | W(lo);
  } else {
    return __shfl_xor_sync(0xffffffffu, x, 16);
  }
}

/// The last stage (bit 0) of a 128-point forward transform, from fwdB's
/// layout (v[j] is point 16 a + 2 j + b, th = 2 a + b): thread b does the
/// butterflies of points 16 a + 8 b + 2 m and + 1 (m = 0..3), of which it
/// holds one and its partner th ^ 1 the other (b = 0 holds the even points
/// 16 a + 2 m, b = 1 the odd points 16 a + 8 + 2 m + 1). On exit v[j] is
/// point 8 th + j.
template <typename W>
__device__ __forceinline__ void fwdLast128(W *v, const Tw<W> &t, int th) {
  const bool odd = th & 1;
  W o[8];
#pragma unroll
  for (int m = 0; m < 4; ++m) {
    // b = 0 sends point 16 a + 8 + 2 m (its v[m + 4]), receives 16 a + 2 m
    // + 1 (the partner's v[m]); b = 1 the other way round.
    const W got = fromPartner(odd ? v[m] : v[m + 4]);
    W x = odd ? got : v[m], y = odd ? v[m + 4] : got;
    ct(x, y, t, tw(t, (t.R << 6) + 4 * th + m));
    o[2 * m] = x;
    o[2 * m + 1] = y;
  }
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = o[j];
}

/// The inverse of fwdLast128: on entry v[j] is point 8 th + j; the stage on
/// bit 0, then the exchange to fwdB's layout (v[j] point 16 a + 2 j + b).
template <typename W>
__device__ __forceinline__ void invFirst128(W *v, const Tw<W> &t, int th) {
  const bool odd = th & 1;
  W o[8];
#pragma unroll
  for (int m = 0; m < 4; ++m) {
    W x = v[2 * m], y = v[2 * m + 1]; // points 8 th + 2 m and + 1
    gs(x, y, t, tw(t, (t.R << 6) + 4 * th + m));
    // b = 0 keeps x (16 a + 2 m), sends y (16 a + 2 m + 1) and receives the
    // partner's x (16 a + 8 + 2 m); b = 1 keeps y, sends x, receives y.
    const W got = fromPartner(odd ? x : y);
    o[m] = odd ? got : x;
    o[m + 4] = odd ? y : got;
  }
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = o[j];
}

/// The column phase's input: as read, or (kReduceIn: rescale, whose rows
/// all read the last limb) reduced mod q and centred, x mod q - (q_in / 2
/// mod q), the arithmetic of nttFwdCol16 and nttFwdCol.
template <typename W, bool kReduceIn> struct InputMap {
  W q = 0, h = 0, rh = 0, rl = 0;
  __device__ __forceinline__ InputMap(const TablesT<W> &T, int mod,
                                      int in_mod) {
    if constexpr (kReduceIn) {
      q = T.q[mod];
      rh = T.ratioHi[mod];
      rl = T.ratioLo[mod];
      h = T.q[in_mod] >> 1;
      if (h >= q)
        h = barrett(W(0), h, q, rh, rl);
    }
  }
  __device__ __forceinline__ W operator()(W x) const {
    if constexpr (kReduceIn) {
      if (x >= q)
        x = barrett(W(0), x, q, rh, rl);
      return subMod(x, h, q);
    } else {
      return x;
    }
  }
};

/// The inverse column phase's last stage (bit s1 - 1: pairs v[r], v[r + 4],
/// points th + kSpread r and th + kSpread (r + 4)) multiplied by the row's
/// constants and offset by its addend (nttInvCol16's), stored fully reduced
/// at stride 256.
template <typename W, int kSpread>
__device__ __forceinline__ void invLastScaled(const W *v, W *dst, int th,
                                              const W *k, W q) {
  const W cx = k[0], cxs = k[1], cy = k[2], cys = k[3], add = k[4];
  const W lz = lazyBound(q);
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const W x = v[r], y = v[r + 4];
    W sum = x + y;
    sum = subIfGe(sum, lz);
    dst[(th + kSpread * r) << 8] = addMod(mulShoup(sum, cx, cxs, q), add, q);
    dst[(th + kSpread * (r + 4)) << 8] =
        addMod(mulShoup(x - y + lz, cy, cys, q), add, q);
  }
}

/// Forward column phase, N = 2^15: 16 columns x 128 points per block.
/// Bytes: 2 N words per row. Grid (16, rows).
template <typename W, bool kReduceIn>
__global__ void __launch_bounds__(kFastThreads, kFastMinBlocks<W>)
    nttFwdCol128(TablesT<W> T, RowTableT<W> rt, int in_mod) {
  __shared__ W s[kColWords];
  const int row = blockIdx.y, mod = rt.mod[row];
  const int c = threadIdx.x & 15, th = threadIdx.x >> 4;
  const int col0 = blockIdx.x << 4;
  Tw<W> t = twOf<W>(T.roots2 + (size_t(mod) << 15), T.q[mod], 1);
  const InputMap<W, kReduceIn> in(T, mod, in_mod);
  const W *src = rt.src(row, 15) + col0 + c;
  W v[8];
#pragma unroll
  for (int r = 0; r < 8; ++r)
    v[r] = in(src[(th + 16 * r) << 8]);
  fwdA(v, t);
#pragma unroll
  for (int r = 0; r < 8; ++r)
    s[16 * (th + 16 * r) + c] = v[r];
  __syncthreads();
  const int a = th >> 1, b = th & 1;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = s[16 * (16 * a + 2 * j + b) + c];
  fwdB(v, t, a);
  fwdLast128(v, t, th);
  W *dst = rt.dst(row, 15) + col0 + c;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    dst[(8 * th + j) << 8] = v[j];
}

/// Inverse column phase, N = 2^15, with the scaled last stage. Bytes: 2 N
/// words per row. Output fully reduced. Grid (16, rows).
template <typename W>
__global__ void __launch_bounds__(kFastThreads, kFastMinBlocks<W>)
    nttInvCol128(TablesT<W> T, RowTableT<W> rt, int row_base, const W *scale,
                 bool by_mod) {
  __shared__ W s[kColWords];
  const int row = blockIdx.y, mod = rt.mod[row];
  const int c = threadIdx.x & 15, th = threadIdx.x >> 4;
  const int col0 = blockIdx.x << 4;
  Tw<W> t = twOf<W>(T.invRoots2 + (size_t(mod) << 15), T.q[mod], 1);
  const W *src = rt.src(row, 15) + col0 + c;
  W v[8];
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = src[(8 * th + j) << 8];
  invFirst128(v, t, th);
  const int a = th >> 1, b = th & 1;
  invB(v, t, a);
#pragma unroll
  for (int j = 0; j < 8; ++j)
    s[16 * (16 * a + 2 * j + b) + c] = v[j];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 8; ++r)
    v[r] = s[16 * (th + 16 * r) + c];
  invA<W, true>(v, t);
  invLastScaled<W, 16>(
      v, rt.dst(row, 15) + col0 + c, th,
      scale + kScaleWords * size_t(by_mod ? mod : row_base + row), t.q);
}

/// Forward column phase, N = 2^14: 32 columns x 64 points per block.
/// Bytes: 2 N words per row. Grid (8, rows).
template <typename W, bool kReduceIn>
__global__ void __launch_bounds__(kFastThreads, kFastMinBlocks<W>)
    nttFwdCol64(TablesT<W> T, RowTableT<W> rt, int in_mod) {
  __shared__ W s[kColWords];
  const int row = blockIdx.y, mod = rt.mod[row];
  const int c = threadIdx.x & 31, th = threadIdx.x >> 5;
  const int col0 = blockIdx.x << 5;
  Tw<W> t = twOf<W>(T.roots2 + (size_t(mod) << 14), T.q[mod], 1);
  const InputMap<W, kReduceIn> in(T, mod, in_mod);
  const W *src = rt.src(row, 14) + col0 + c;
  W v[8];
#pragma unroll
  for (int r = 0; r < 8; ++r)
    v[r] = in(src[(th + 8 * r) << 8]);
  fwdA(v, t);
#pragma unroll
  for (int r = 0; r < 8; ++r)
    s[32 * (th + 8 * r) + c] = v[r];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = s[32 * (8 * th + j) + c];
  fwdB(v, t, th);
  W *dst = rt.dst(row, 14) + col0 + c;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    dst[(8 * th + j) << 8] = v[j];
}

/// Inverse column phase, N = 2^14, with the scaled last stage. Bytes: 2 N
/// words per row. Output fully reduced. Grid (8, rows).
template <typename W>
__global__ void __launch_bounds__(kFastThreads, kFastMinBlocks<W>)
    nttInvCol64(TablesT<W> T, RowTableT<W> rt, int row_base, const W *scale,
                bool by_mod) {
  __shared__ W s[kColWords];
  const int row = blockIdx.y, mod = rt.mod[row];
  const int c = threadIdx.x & 31, th = threadIdx.x >> 5;
  const int col0 = blockIdx.x << 5;
  Tw<W> t = twOf<W>(T.invRoots2 + (size_t(mod) << 14), T.q[mod], 1);
  const W *src = rt.src(row, 14) + col0 + c;
  W v[8];
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = src[(8 * th + j) << 8];
  invB(v, t, th);
#pragma unroll
  for (int j = 0; j < 8; ++j)
    s[32 * (8 * th + j) + c] = v[j];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 8; ++r)
    v[r] = s[32 * (th + 8 * r) + c];
  invA<W, true>(v, t);
  invLastScaled<W, 8>(
      v, rt.dst(row, 14) + col0 + c, th,
      scale + kScaleWords * size_t(by_mod ? mod : row_base + row), t.q);
}

struct Split {
  int s1, s2, log_c_col, log_c_row;
};
Split split(int log_n) {
  Split sp;
  sp.s1 = log_n / 2;
  sp.s2 = log_n - sp.s1;
  sp.log_c_col = std::min(sp.s2, std::max(2, kLogTile - sp.s1));
  sp.log_c_row = std::min(sp.s1, std::max(0, kLogTile - sp.s2));
  return sp;
}
/// Threads and dynamic shared memory of a generic block of 2^log_points W
/// words.
struct Block {
  unsigned threads;
  size_t bytes;
};
Block block(int log_points, size_t word_bytes) {
  return {unsigned(std::min(kThreads, std::max(1, (1 << log_points) / 2))),
          (size_t(1) << log_points) * word_bytes};
}

/// Row table entries of rows first..first+count-1 of `in` and `out`.
template <typename W>
RowTableT<W> makeTable(const std::vector<int> &mods, const RowsT<W> &in,
                       const RowsT<W> &out, size_t first, size_t count) {
  RowTableT<W> rt{};
  auto code = [](const RowsT<W> &r, size_t i) {
    const int buf = r.buf.empty() ? 0 : r.buf[i];
    return static_cast<uint16_t>((buf << kRowBits) | r.rows[i]);
  };
  for (size_t b = 0; b < in.bases.size(); ++b)
    rt.inBase[b] = in.bases[b];
  for (size_t b = 0; b < out.bases.size(); ++b)
    rt.outBase[b] = out.bases[b];
  for (size_t r = 0; r < count; ++r) {
    rt.mod[r] = static_cast<uint8_t>(mods[first + r]);
    rt.in[r] = code(in, first + r);
    rt.out[r] = code(out, first + r);
  }
  return rt;
}

template <typename W>
void checkRows(const DeviceContext &ctx, const RowsT<W> &a, const RowsT<W> &b,
               const RowsT<W> &c, const std::vector<int> &mods) {
  requireWord<W>(ctx, "ntt launch");
  for (const RowsT<W> *r : {&a, &b, &c}) {
    if (r->rows.size() != mods.size() ||
        (!r->buf.empty() && r->buf.size() != mods.size()))
      throw InvalidArgument("ntt launch: row lists of different lengths");
    if (r->bases.empty() || r->bases.size() > size_t(kMaxBases))
      throw InvalidArgument("ntt launch: 1 to " + std::to_string(kMaxBases) +
                            " buffers per row list");
    for (size_t i = 0; i < r->rows.size(); ++i)
      if (r->rows[i] < 0 || r->rows[i] >= kMaxRowIndex ||
          (!r->buf.empty() && r->buf[i] >= r->bases.size()))
        throw InvalidArgument("ntt launch: a row outside its buffer list");
  }
}

template <typename W>
RowsT<W> single(const W *base, const std::vector<int> &rows) {
  return RowsT<W>{{const_cast<W *>(base)}, {}, rows};
}

/// The fused forward row phase at N = 2^kLogN (its epilogue's operands in
/// kEpiPreBytes<W> of dynamic shared memory). Beyond 48 KB a kernel must opt
/// in, once per device (a host call, not a stream operation: fine while a
/// graph is captured). The attribute belongs to this copy of the kernel (of
/// this kLogN):
/// every library that links the runtime (the Python module and each
/// compiled program it loads) has its own, so the flag is this copy's, per
/// word and device, not the context's (a context's flag, set by a program
/// library's launch, left the module's own copy without it: "invalid
/// argument" at its next launch).
template <typename W, int kLogN>
void launchFwdRowEpi(const DeviceContext::Impl &I, dim3 grid,
                     const RowTableT<W> &rows, int row_base,
                     const EpilogueT<W> &epi) {
  static std::atomic<uint64_t> opted{0}; // bit d: device d
  const uint64_t bit = uint64_t{1} << (I.device & 63);
  if (!(opted.load(std::memory_order_acquire) & bit)) {
    EMBER_CUDA_CHECK(cudaFuncSetAttribute(
        nttFwdRow256<W, true, kLogN>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, int(kEpiPreBytes<W>)));
    opted.fetch_or(bit, std::memory_order_acq_rel);
  }
  nttFwdRow256<W, true, kLogN>
      <<<grid, kFastThreads, kEpiPreBytes<W>, I.stream>>>(tablesOf<W>(I), rows,
                                                          row_base, epi);
}

// The smallest log N with register-resident kernels (14: N = 2^14..2^16); a
// build knob for timing them against the generic kernels (16: the generic
// ones below 2^16, as before 2^15 and 2^14 had their own).
#ifndef EMBER_NTT_FAST_MIN_LOG_N
#define EMBER_NTT_FAST_MIN_LOG_N 14
#endif
bool fastNtt(int log_n) {
  return log_n >= EMBER_NTT_FAST_MIN_LOG_N && log_n >= 14 && log_n <= 16;
}

/// The register-resident forward pair at N = 2^kLogN: the column phase
/// (nttFwdCol16, nttFwdCol128 or nttFwdCol64, with kReduceIn when in_mod >=
/// 0), then the rows of 256 with the epilogue if any. Both grids are
/// (2^(kLogN - 11), rows).
template <typename W, int kLogN>
void forwardFast(const DeviceContext::Impl &I, const RowTableT<W> &col,
                 const RowTableT<W> &row, unsigned count, int row_base,
                 int in_mod, const EpilogueT<W> *epi) {
  const TablesT<W> &T = tablesOf<W>(I);
  const dim3 grid(1u << (kLogN - 11), count);
  const bool reduce = in_mod >= 0;
  const int arg = reduce ? in_mod : 0;
  if constexpr (kLogN == 16) {
    if (reduce)
      nttFwdCol16<W, true><<<grid, kFastThreads, 0, I.stream>>>(T, col, arg);
    else
      nttFwdCol16<W, false><<<grid, kFastThreads, 0, I.stream>>>(T, col, arg);
  } else if constexpr (kLogN == 15) {
    if (reduce)
      nttFwdCol128<W, true><<<grid, kFastThreads, 0, I.stream>>>(T, col, arg);
    else
      nttFwdCol128<W, false><<<grid, kFastThreads, 0, I.stream>>>(T, col, arg);
  } else {
    static_assert(kLogN == 14, "register-resident kernels at 2^14..2^16");
    if (reduce)
      nttFwdCol64<W, true><<<grid, kFastThreads, 0, I.stream>>>(T, col, arg);
    else
      nttFwdCol64<W, false><<<grid, kFastThreads, 0, I.stream>>>(T, col, arg);
  }
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
  if (epi)
    launchFwdRowEpi<W, kLogN>(I, grid, row, row_base, *epi);
  else
    nttFwdRow256<W, false, kLogN>
        <<<grid, kFastThreads, 0, I.stream>>>(T, row, row_base, EpilogueT<W>{});
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}

/// The register-resident inverse pair at N = 2^kLogN: the rows of 256, then
/// the column phase with the scaled last stage. Grids (2^(kLogN - 11),
/// rows).
template <typename W, int kLogN>
void inverseFast(const DeviceContext::Impl &I, const RowTableT<W> &row,
                 const RowTableT<W> &col, unsigned count, int row_base,
                 const W *scale, bool by_mod) {
  const TablesT<W> &T = tablesOf<W>(I);
  const dim3 grid(1u << (kLogN - 11), count);
  nttInvRow256<W, kLogN><<<grid, kFastThreads, 0, I.stream>>>(T, row);
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
  if constexpr (kLogN == 16)
    nttInvCol16<W>
        <<<grid, kFastThreads, 0, I.stream>>>(T, col, row_base, scale, by_mod);
  else if constexpr (kLogN == 15)
    nttInvCol128<W>
        <<<grid, kFastThreads, 0, I.stream>>>(T, col, row_base, scale, by_mod);
  else
    nttInvCol64<W>
        <<<grid, kFastThreads, 0, I.stream>>>(T, col, row_base, scale, by_mod);
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}

template <typename W>
void nttForward(const DeviceContext &ctx, const RowsT<W> &src,
                const RowsT<W> &mid, const RowsT<W> &dst,
                const std::vector<int> &mods, int in_mod,
                const EpilogueT<W> *epi) {
  checkRows(ctx, src, mid, dst, mods);
  const auto &I = ctx.impl();
  const TablesT<W> &T = tablesOf<W>(I);
  const Split sp = split(I.n_log);
  for (size_t first = 0; first < mods.size(); first += kMaxRows) {
    const size_t count = std::min<size_t>(kMaxRows, mods.size() - first);
    const RowTableT<W> col = makeTable(mods, src, mid, first, count);
    const RowTableT<W> row = makeTable(mods, mid, dst, first, count);
    if (fastNtt(I.n_log)) {
      const unsigned rows = unsigned(count);
      if (I.n_log == 16)
        forwardFast<W, 16>(I, col, row, rows, int(first), in_mod, epi);
      else if (I.n_log == 15)
        forwardFast<W, 15>(I, col, row, rows, int(first), in_mod, epi);
      else
        forwardFast<W, 14>(I, col, row, rows, int(first), in_mod, epi);
      continue;
    }
    dim3 grid_col(1u << (sp.s2 - sp.log_c_col), unsigned(count));
    const Block bc = block(sp.s1 + sp.log_c_col, sizeof(W));
    if (in_mod >= 0)
      nttFwdCol<W, true><<<grid_col, bc.threads, bc.bytes, I.stream>>>(
          T, col, sp.s1, sp.log_c_col, in_mod);
    else
      nttFwdCol<W, false><<<grid_col, bc.threads, bc.bytes, I.stream>>>(
          T, col, sp.s1, sp.log_c_col, 0);
    EMBER_CUDA_LAUNCH_CHECK(I.stream);
    dim3 grid_row(1u << (sp.s1 - sp.log_c_row), unsigned(count));
    const Block br = block(sp.s2 + sp.log_c_row, sizeof(W));
    if (epi)
      nttFwdRow<W, true><<<grid_row, br.threads, br.bytes, I.stream>>>(
          T, row, sp.s2, sp.log_c_row, int(first), *epi);
    else
      nttFwdRow<W, false><<<grid_row, br.threads, br.bytes, I.stream>>>(
          T, row, sp.s2, sp.log_c_row, int(first), EpilogueT<W>{});
    EMBER_CUDA_LAUNCH_CHECK(I.stream);
  }
}

template <typename W>
void nttInverse(const DeviceContext &ctx, const RowsT<W> &src,
                const RowsT<W> &mid, const RowsT<W> &dst,
                const std::vector<int> &mods, const W *scale, bool by_mod) {
  checkRows(ctx, src, mid, dst, mods);
  const auto &I = ctx.impl();
  const TablesT<W> &T = tablesOf<W>(I);
  const Split sp = split(I.n_log);
  for (size_t first = 0; first < mods.size(); first += kMaxRows) {
    const size_t count = std::min<size_t>(kMaxRows, mods.size() - first);
    const RowTableT<W> row = makeTable(mods, src, mid, first, count);
    const RowTableT<W> col = makeTable(mods, mid, dst, first, count);
    if (fastNtt(I.n_log)) {
      const unsigned rows = unsigned(count);
      if (I.n_log == 16)
        inverseFast<W, 16>(I, row, col, rows, int(first), scale, by_mod);
      else if (I.n_log == 15)
        inverseFast<W, 15>(I, row, col, rows, int(first), scale, by_mod);
      else
        inverseFast<W, 14>(I, row, col, rows, int(first), scale, by_mod);
      continue;
    }
    dim3 grid_row(1u << (sp.s1 - sp.log_c_row), unsigned(count));
    const Block br = block(sp.s2 + sp.log_c_row, sizeof(W));
    nttInvRow<W><<<grid_row, br.threads, br.bytes, I.stream>>>(T, row, sp.s2,
                                                               sp.log_c_row);
    EMBER_CUDA_LAUNCH_CHECK(I.stream);
    dim3 grid_col(1u << (sp.s2 - sp.log_c_col), unsigned(count));
    const Block bc = block(sp.s1 + sp.log_c_col, sizeof(W));
    nttInvCol<W><<<grid_col, bc.threads, bc.bytes, I.stream>>>(
        T, col, sp.s1, sp.log_c_col, int(first), scale, by_mod);
    EMBER_CUDA_LAUNCH_CHECK(I.stream);
  }
}

} // namespace

void launchNttForward(const DeviceContext &ctx, const Rows &src,
                      const Rows &mid, const Rows &dst,
                      const std::vector<int> &mods, int in_mod,
                      const Epilogue *epi) {
  nttForward(ctx, src, mid, dst, mods, in_mod, epi);
}
void launchNttForward(const DeviceContext &ctx, const RowsT<u32> &src,
                      const RowsT<u32> &mid, const RowsT<u32> &dst,
                      const std::vector<int> &mods, int in_mod,
                      const EpilogueT<u32> *epi) {
  nttForward(ctx, src, mid, dst, mods, in_mod, epi);
}

void launchNttForward(const DeviceContext &ctx, const u64 *src,
                      const std::vector<int> &src_rows, u64 *mid,
                      const std::vector<int> &mid_rows, u64 *dst,
                      const std::vector<int> &dst_rows,
                      const std::vector<int> &mods, int in_mod,
                      const Epilogue *epi) {
  nttForward(ctx, single(src, src_rows), single<u64>(mid, mid_rows),
             single<u64>(dst, dst_rows), mods, in_mod, epi);
}
void launchNttForward(const DeviceContext &ctx, const u32 *src,
                      const std::vector<int> &src_rows, u32 *mid,
                      const std::vector<int> &mid_rows, u32 *dst,
                      const std::vector<int> &dst_rows,
                      const std::vector<int> &mods, int in_mod,
                      const EpilogueT<u32> *epi) {
  nttForward(ctx, single(src, src_rows), single<u32>(mid, mid_rows),
             single<u32>(dst, dst_rows), mods, in_mod, epi);
}

void launchNttForwardConv2(const DeviceContext &ctx, const Conv2InT<u32> &in,
                           int parts, u32 *out, const EpilogueT<u32> &epi) {
  requireWord<u32>(ctx, "ntt launch");
  const auto &I = ctx.impl();
  if (I.n_log != 16)
    throw InvalidArgument("the fused BConv-NTT needs N = 2^16");
  const TablesT<u32> &T = tablesOf<u32>(I);
  const int rows = parts * in.keep;
  std::vector<int> mods(rows), all = std::vector<int>(rows);
  for (int r = 0; r < rows; ++r) {
    mods[r] = r % in.keep; // q_0..q_{keep-1}
    all[r] = r;
  }
  const RowsT<u32> o = single<u32>(out, all);
  for (size_t first = 0; first < size_t(rows); first += kMaxRows) {
    const size_t count = std::min<size_t>(kMaxRows, rows - first);
    const RowTableT<u32> tab = makeTable(mods, o, o, first, count);
    const dim3 grid(32, unsigned(count));
    nttFwdCol16Conv2<u32>
        <<<grid, kFastThreads, 0, I.stream>>>(T, tab, in, int(first));
    EMBER_CUDA_LAUNCH_CHECK(I.stream);
    launchFwdRowEpi<u32, 16>(I, grid, tab, int(first), epi);
    EMBER_CUDA_LAUNCH_CHECK(I.stream);
  }
}

void launchNttInverse(const DeviceContext &ctx, const Rows &src,
                      const Rows &mid, const Rows &dst,
                      const std::vector<int> &mods, const u64 *scale,
                      bool by_mod) {
  nttInverse(ctx, src, mid, dst, mods, scale, by_mod);
}
void launchNttInverse(const DeviceContext &ctx, const RowsT<u32> &src,
                      const RowsT<u32> &mid, const RowsT<u32> &dst,
                      const std::vector<int> &mods, const u32 *scale,
                      bool by_mod) {
  nttInverse(ctx, src, mid, dst, mods, scale, by_mod);
}

void launchNttInverse(const DeviceContext &ctx, const u64 *src,
                      const std::vector<int> &src_rows, u64 *mid,
                      const std::vector<int> &mid_rows, u64 *dst,
                      const std::vector<int> &dst_rows,
                      const std::vector<int> &mods, const u64 *scale,
                      bool by_mod) {
  nttInverse(ctx, single(src, src_rows), single<u64>(mid, mid_rows),
             single<u64>(dst, dst_rows), mods, scale, by_mod);
}
void launchNttInverse(const DeviceContext &ctx, const u32 *src,
                      const std::vector<int> &src_rows, u32 *mid,
                      const std::vector<int> &mid_rows, u32 *dst,
                      const std::vector<int> &dst_rows,
                      const std::vector<int> &mods, const u32 *scale,
                      bool by_mod) {
  nttInverse(ctx, single(src, src_rows), single<u32>(mid, mid_rows),
             single<u32>(dst, dst_rows), mods, scale, by_mod);
}

} // namespace ember::cuda
