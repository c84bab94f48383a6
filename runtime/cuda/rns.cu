// RNS primitives of the CUDA backend other than the NTT: base conversion,
// the key-switch inner product, ModUp/ModDown/rescale built on the fused NTT
// kernels, automorphisms and elementwise arithmetic; then the public
// primitive API of cuda.h (same contracts as rns.h).
#include "internal.cuh"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>

namespace ember::cuda {

namespace {

constexpr int kEwThreads = 256;

template <typename W> struct BConvJobsT { BConvJobT<W> job[kMaxJobs]; };
using BConvJobs = BConvJobsT<u64>;

/// Centred fast base conversion as a (T x m) by (m x N) matrix product:
/// each thread keeps its coefficient's m inputs in registers, counts those
/// above b_i/2, and produces its block's targets, summing the m products (and
/// the centring term and bias) exactly and reducing once per output: lazy
/// reduction. Blocks split the targets in groups of 8 (grid.z)
/// so that small digits still fill the chip; the m inputs are re-read per
/// group (from L2). The group's slice of the hat matrix and its targets'
/// moduli, Barrett ratios and constants sit in shared memory (broadcast
/// reads, no dependent global loads per target), and kTile targets are
/// summed side by side.
/// The exact sum is kept in columns and reduced by two Shoup products (Cols
/// below; EMBER_BCONV_COLUMNS=1, the default): four IMAD.WIDE per product
/// and no carry chain, 6-10% fewer instructions per thread at m = 8..16
/// (SASS, sm_90). With EMBER_BCONV_COLUMNS=0 it is one 128-bit accumulator
/// (mac128: about 14 instructions per product through the carry flags, half
/// of them moves) reduced by Barrett, the form before.
/// Bytes: (m + T) N words per job. Work: m T N multiply-adds and T N
/// reductions.
constexpr int kTargetsPerBlock = 8; // grid.z splits the targets
// Build knobs for tuning (bench/gpu_knobs.sh): targets summed side by side
// (0: 4 up to 16 sources, else 2), targets per block of bconvKernel, the
// columns' sum (1) or the 128-bit one (0), and blocks per SM compiled for.
#ifndef EMBER_BCONV_GROUP
#define EMBER_BCONV_GROUP 8
#endif
#ifndef EMBER_BCONV_TILE
#define EMBER_BCONV_TILE 0
#endif
#ifndef EMBER_BCONV_COLUMNS
#define EMBER_BCONV_COLUMNS 1
#endif
#ifndef EMBER_BCONV_MIN_BLOCKS
#define EMBER_BCONV_MIN_BLOCKS 1
#endif
/// ModUp's copy of the digits' own limbs: 1 (the default) a branch of its
/// own in a captured graph, beside the transforms; 0 in line after the
/// last NTT, as before (a measurement knob for bench/gpu_knobs.sh).
#ifndef EMBER_MODUP_COPY_BRANCH
#define EMBER_MODUP_COPY_BRANCH 1
#endif
/// An overlapped key switch's lifted addends under a merged rescale
/// (keySwitchDown): 1 (the default) added in its inner product's kept rows,
/// beside the ModDown's INTT and BConv; 0 in the last NTT's epilogue, as
/// the plain ModDown does.
/// The environment variable of the same name overrides it where a switch
/// is issued (captured), so that bench/gpu_ab.py times both in one process.
#ifndef EMBER_KS_LIFT_IN_IP
#define EMBER_KS_LIFT_IN_IP 1
#endif

constexpr int kBConvGroup = EMBER_BCONV_GROUP; // bconvKernel's targets
/// Words of a bconvKernel block's shared memory for m sources.
constexpr size_t bconvSmemWords(int m) {
  return size_t(kBConvGroup) * m + m + 5 * kBConvGroup;
}

#if EMBER_BCONV_COLUMNS
/// An exact sum of products of words below 2^61 in four 64-bit columns,
/// value = c0 + c1 2^31 + c2 2^62 + c3 2^93. Each factor is split at bit 31
/// (x = x1 2^31 + x0: x0 < 2^31, x1 < 2^30; the hats sit in shared memory
/// split, splitWord), so a product adds x0 y0 (< 2^62) to c0, x0 y1 + x1 y0
/// (< 2^62 together) to c1 and x1 y1 (< 2^60) to c2: four IMAD.WIDE.U32,
/// each with its 64-bit addend, and no carry flags. carry() moves each
/// column's high word on (c_{k+1} += 2 hi(c_k), c_k = lo(c_k) < 2^32).
/// From there four products keep c0 below 2^32 + 4 (2^31 - 1)^2 < 2^64 and
/// c1 below 2^32 + 2^33 + 8 (2^31 - 1)(2^30 - 1) < 2^64 (c1 also takes c0's
/// carry, below 2^33), so the sum carries after every fourth product (the
/// first four: the centring term, small, and three products), c2 every
/// eighth, and c3 takes its high words: any m fits.
struct Cols {
  u64 c0, c1, c2, c3;
  /// Starts at b < 2^61.
  __device__ __forceinline__ void start(u64 b) {
    c0 = u32(b);
    c1 = u64(u32(b >> 32)) * 2;
    c2 = c3 = 0;
  }
  /// += x y for x = x1 2^31 + x0 and y = y1 2^31 + y0 (PTX: the compiler
  /// otherwise sums x0 y1 + x1 y0 apart and adds it with a carry chain).
  __device__ __forceinline__ void mac(u32 x0, u32 x1, u32 y0, u32 y1) {
    asm("mad.wide.u32 %0, %4, %6, %0;\n\t"
        "mad.wide.u32 %1, %4, %7, %1;\n\t"
        "mad.wide.u32 %1, %5, %6, %1;\n\t"
        "mad.wide.u32 %2, %5, %7, %2;"
        : "+l"(c0), "+l"(c1), "+l"(c2), "+l"(c3)
        : "r"(x0), "r"(x1), "r"(y0), "r"(y1));
  }
  /// c0 and c1 back below 2^32; c2 too when `all` (c2 grows by less than
  /// 2^61 per product: eight products between such carries stay below
  /// 2^64).
  __device__ __forceinline__ void carry(bool all = true) {
    // PTX: written in C++, the compiler builds 2 hi(c) with shifts and masks
    asm("{\n\t.reg .u32 l, h;\n\t"
        "mov.b64 {l, h}, %0;\n\tmad.wide.u32 %1, h, 2, %1;\n\t"
        "mov.b64 %0, {l, 0};\n\t"
        "mov.b64 {l, h}, %1;\n\tmad.wide.u32 %2, h, 2, %2;\n\t"
        "mov.b64 %1, {l, 0};\n\t}"
        : "+l"(c0), "+l"(c1), "+l"(c2));
    if (all)
      asm("{\n\t.reg .u32 l, h;\n\t"
          "mov.b64 {l, h}, %0;\n\tmad.wide.u32 %1, h, 2, %1;\n\t"
          "mov.b64 %0, {l, 0};\n\t}"
          : "+l"(c2), "+l"(c3));
  }
  /// The sum mod t, from t's Barrett ratio floor(2^128 / t) = rhi 2^64 +
  /// rlo: with the sum as hi 2^64 + lo, rhi = floor(2^64 / t) is the Shoup
  /// quotient of 1 and rlo that of [2^64]_t = -rhi t mod 2^64, so lo and
  /// hi [2^64]_t each come to [0, 2t) by one Shoup product (any 64-bit
  /// input) and their sum is brought below t: the same residue as
  /// barrett(hi, lo), with two high products instead of three.
  __device__ __forceinline__ u64 reduce(u64 t, u64 rhi, u64 rlo) {
    carry();
    const u64 a = c0 + (c1 << 31); // below 2^63 + 2^32
    const u64 lo = a + (c2 << 62);
    const u64 hi = (c2 >> 2) + (c3 << 29) + (lo < a);
    u64 r =
        (lo - mulHi(lo, rhi) * t) + mulShoupLazy(hi, u64(0) - rhi * t, rlo, t);
    r = r >= 2 * t ? r - 2 * t : r; // t < 2^61: r < 4t fits
    return r >= t ? r - t : r;
  }
};
/// x < 2^61 as Cols reads it: x mod 2^31 in the low half, x >> 31 in the
/// high half.
__host__ __device__ inline u64 splitWord(u64 x) {
  return (x & 0x7fffffffu) | ((x >> 31) << 32);
}
#else
__host__ __device__ inline u64 splitWord(u64 x) { return x; }
#endif

/// A BConv block's shared constants: the hats [m][kG] (source-major, so
/// that a product's word sits at a constant offset; zero past the nt
/// targets; splitWord's form), [m] halves, then per target [-B]_t
/// (splitWord's form), bias, modulus and Barrett ratio (high, low).
template <typename W>
__device__ __forceinline__ void bconvLoadShared(const TablesT<W> &T,
                                                const BConvJobT<W> &J, W *bc_s,
                                                int t_begin, int nt) {
  constexpr int kG = kBConvGroup;
  const int m = J.m;
  W *hat_s = bc_s, *half_s = hat_s + kG * m, *c_s = half_s + m;
  for (int idx = threadIdx.x; idx < kG * m; idx += blockDim.x) {
    const int u = idx / m, i = idx - u * m; // read along J.hat's rows
    hat_s[i * kG + u] = u < nt ? splitWord(J.hat[t_begin * m + idx]) : 0;
  }
  for (int idx = threadIdx.x; idx < m; idx += blockDim.x)
    half_s[idx] = J.half[idx];
  for (int idx = threadIdx.x; idx < kG; idx += blockDim.x) {
    const int t = t_begin + idx, g = idx < nt ? J.tmod[t] : 0;
    c_s[idx] = idx < nt ? splitWord(J.negb[t]) : 0;
    c_s[kG + idx] = idx < nt && J.bias ? J.bias[t] : 0;
    c_s[2 * kG + idx] = T.q[g];
    c_s[3 * kG + idx] = T.ratioHi[g];
    c_s[4 * kG + idx] = T.ratioLo[g];
  }
}
/// Coefficient x's m source values (zero past m) into y; returns how many
/// are above b_i / 2 (the centring count).
template <typename W, int kM>
__device__ __forceinline__ W bconvLoadInputs(const BConvJobT<W> &J,
                                             const W *half_s, int log_n,
                                             size_t x, W (&y)[kM]) {
  W above = 0;
#pragma unroll
  for (int i = 0; i < kM; ++i) {
    y[i] = i < J.m ? J.in[(size_t(i) << log_n) + x] : 0;
    if (i < J.m)
      above += y[i] > half_s[i];
  }
  return above;
}

template <int kM>
__global__ void __launch_bounds__(kEwThreads, EMBER_BCONV_MIN_BLOCKS)
    bconvKernel(Tables T, BConvJobs jobs) {
  constexpr int kG = kBConvGroup;
  constexpr int kTile = EMBER_BCONV_TILE ? EMBER_BCONV_TILE : kM <= 16 ? 4 : 2;
  extern __shared__ u64 bc_s[];
  const BConvJob J = jobs.job[blockIdx.y];
  const int m = J.m, tc = J.t_count, log_n = T.logN;
  const int t_begin = blockIdx.z * kG;
  if (t_begin >= tc)
    return; // whole block: before any barrier
  const int nt = min(tc - t_begin, kG);
  const u64 *hat_s = bc_s, *half_s = hat_s + kG * m, *c_s = half_s + m;
  bconvLoadShared(T, J, bc_s, t_begin, nt);
  __syncthreads();
  const size_t x = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  u64 y[kM];
  const u64 above = bconvLoadInputs(J, half_s, log_n, x, y);
  u64 *out = J.out + (size_t(t_begin) << log_n) + x;
#if EMBER_BCONV_COLUMNS
  u32 y0[kM], y1[kM];
#pragma unroll
  for (int i = 0; i < kM; ++i) {
    y0[i] = u32(y[i]) & 0x7fffffffu;
    y1[i] = u32(y[i] >> 31);
  }
#pragma unroll
  for (int t0 = 0; t0 < kG; t0 += kTile) {
    if (t0 >= nt)
      break;
    Cols acc[kTile];
#pragma unroll
    for (int u = 0; u < kTile; ++u) {
      acc[u].start(c_s[kG + t0 + u]);
      const u64 nb = c_s[t0 + u];
      acc[u].mac(u32(above), 0, u32(nb), u32(nb >> 32));
    }
#pragma unroll
    for (int i = 0; i < kM; ++i)
      if (i < m) {
#pragma unroll
        for (int u = 0; u < kTile; ++u) {
          const u64 h = hat_s[i * kG + t0 + u];
          acc[u].mac(y0[i], y1[i], u32(h), u32(h >> 32));
          if (i % 4 == 2 && i + 1 < kM)
            acc[u].carry(i % 8 == 6);
        }
      }
#pragma unroll
    for (int u = 0; u < kTile; ++u)
      if (t0 + u < nt)
        out[size_t(t0 + u) << log_n] = acc[u].reduce(
            c_s[2 * kG + t0 + u], c_s[3 * kG + t0 + u], c_s[4 * kG + t0 + u]);
  }
#else
#pragma unroll
  for (int t0 = 0; t0 < kG; t0 += kTile) {
    if (t0 >= nt)
      break;
    u64 hi[kTile], lo[kTile];
#pragma unroll
    for (int u = 0; u < kTile; ++u) {
      hi[u] = 0;
      lo[u] = c_s[kG + t0 + u];
      mac128(hi[u], lo[u], above, c_s[t0 + u]);
    }
#pragma unroll
    for (int i = 0; i < kM; ++i)
      if (i < m) {
#pragma unroll
        for (int u = 0; u < kTile; ++u)
          mac128(hi[u], lo[u], y[i], hat_s[i * kG + t0 + u]);
      }
#pragma unroll
    for (int u = 0; u < kTile; ++u)
      if (t0 + u < nt)
        out[size_t(t0 + u) << log_n] =
            barrett(hi[u], lo[u], c_s[2 * kG + t0 + u], c_s[3 * kG + t0 + u],
                    c_s[4 * kG + t0 + u]);
  }
#endif
}

/// The 32-bit words' BConv (primes below 2^30): each thread keeps its
/// coefficient's m inputs in registers and sums each target in one 64-bit
/// accumulator (one IMAD.WIDE per product), kTile targets side by side.
/// Products are below 2^60, so every 8 of them the accumulator is folded,
/// hi 2^32 + lo -> hi [2^32]_t + lo (below 2^63 before, 2^62 + 2^32 after),
/// and reduced once at the end (Barrett of the 64-bit sum). A block covers
/// `per` targets (blockIdx.z picks the group), with the group's hat rows
/// and per-target constants in shared memory: far more targets per block
/// than the 64-bit kernel's 8, because a 32-bit block's work per input is
/// small (with 8 targets per block, each conversion of ModUp read its
/// inputs six times and spent most of its time starting blocks; 2.6-5x the
/// floors on an H200). Work: m T N multiply-adds (~1 int32 instruction
/// each) and T N reductions (~10).
/// Coefficients per thread of bconvKernel32: two a grid apart (each hat
/// word read from shared memory serves both) while their inputs fit the
/// registers, else one.
template <int kM> constexpr int kBConv32Vals = kM <= 16 ? 2 : 1;

template <int kM>
__global__ void __launch_bounds__(kEwThreads)
    bconvKernel32(TablesT<u32> T, BConvJobsT<u32> jobs, int per) {
  constexpr int kTile = kM <= 16 ? 4 : 2;
  constexpr int kV = kBConv32Vals<kM>;
  extern __shared__ __align__(16) unsigned char bc32_raw[];
  u32 *bc_s = reinterpret_cast<u32 *>(bc32_raw);
  const BConvJobT<u32> J = jobs.job[blockIdx.y];
  const int m = J.m, tc = J.t_count, log_n = T.logN;
  const int t_begin = blockIdx.z * per;
  if (t_begin >= tc)
    return; // whole block: before any barrier
  const int nt = min(tc - t_begin, per);
  // Shared: hat [per][m], half [m], then per target [-B]_t, bias, modulus,
  // Barrett ratio (high, low) and [2^32]_t, `per` each.
  u32 *hat_s = bc_s, *half_s = hat_s + per * m, *c_s = half_s + m;
  for (int idx = threadIdx.x; idx < nt * m; idx += blockDim.x)
    hat_s[idx] = J.hat[t_begin * m + idx];
  for (int idx = threadIdx.x; idx < m; idx += blockDim.x)
    half_s[idx] = J.half[idx];
  for (int idx = threadIdx.x; idx < nt; idx += blockDim.x) {
    const int t = t_begin + idx, g = J.tmod[t];
    const u32 q = T.q[g];
    c_s[idx] = J.negb[t];
    c_s[per + idx] = J.bias ? J.bias[t] : 0;
    c_s[2 * per + idx] = q;
    c_s[3 * per + idx] = T.ratioHi[g];
    c_s[4 * per + idx] = T.ratioLo[g];
    c_s[5 * per + idx] = barrett<u32>(1, 0, q, T.ratioHi[g], T.ratioLo[g]);
  }
  __syncthreads();
  const size_t x0 = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t step = size_t(gridDim.x) * blockDim.x;
  u32 y[kV][kM], above[kV];
#pragma unroll
  for (int v = 0; v < kV; ++v)
    above[v] = bconvLoadInputs(J, half_s, log_n, x0 + v * step, y[v]);
  u32 *out = J.out + (size_t(t_begin) << log_n) + x0;
  for (int t0 = 0; t0 < nt; t0 += kTile) {
    const u32 *h[kTile];
    u64 acc[kV][kTile];
#pragma unroll
    for (int u = 0; u < kTile; ++u) {
      const int t = min(t0 + u, nt - 1); // past nt: recomputes the last
      h[u] = hat_s + t * m;
#pragma unroll
      for (int v = 0; v < kV; ++v)
        acc[v][u] = u64(c_s[per + t]) + u64(above[v]) * c_s[t];
    }
#pragma unroll
    for (int i = 0; i < kM; ++i)
      if (i < m) {
#pragma unroll
        for (int u = 0; u < kTile; ++u) {
          const u32 hw = h[u][i];
#pragma unroll
          for (int v = 0; v < kV; ++v)
            acc[v][u] += u64(y[v][i]) * hw;
          if (i % 8 == 7 && i + 1 < kM) {
            const u32 fold = c_s[5 * per + min(t0 + u, nt - 1)];
#pragma unroll
            for (int v = 0; v < kV; ++v)
              acc[v][u] = (acc[v][u] >> 32) * fold + u32(acc[v][u]);
          }
        }
      }
#pragma unroll
    for (int u = 0; u < kTile; ++u)
      if (t0 + u < nt) {
        const u32 q = c_s[2 * per + t0 + u], rh = c_s[3 * per + t0 + u],
                  rl = c_s[4 * per + t0 + u];
#pragma unroll
        for (int v = 0; v < kV; ++v)
          out[(size_t(t0 + u) << log_n) + v * step] =
              barrett(u32(acc[v][u] >> 32), u32(acc[v][u]), q, rh, rl);
      }
  }
}

constexpr int kMaxLiftRows = 16;
template <typename W> struct LiftArgsT {
  const W *x[kMaxLiftRows], *y[kMaxLiftRows], *c[kMaxLiftRows];
  W *out[kMaxLiftRows];
  int mod[kMaxLiftRows];
};

/// out_r = x_r + c_r y_r mod q (c_r a word and its Shoup quotient): the
/// dropped Q limbs of a lifted switch's x + P y, which its INTT reads.
/// Bytes: 3 N words per row.
template <typename W>
__global__ void __launch_bounds__(kEwThreads)
    liftKernel(TablesT<W> T, LiftArgsT<W> a) {
  const int r = blockIdx.y;
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const W q = T.q[a.mod[r]];
  a.out[r][k] =
      addMod(a.x[r][k], mulShoup(a.y[r][k], a.c[r][0], a.c[r][1], q), q);
}

/// Values per thread of the word-generic elementwise kernels: 8 bytes, so
/// that a 32-bit launch keeps the 64-bit one's bytes in flight per thread
/// (a grid apart: every access stays coalesced).
template <typename W> constexpr int kVals = int(8 / sizeof(W));

template <typename W> struct IpArgsT {
  const W *d, *ext, *key;
  W *acc;
  int digits, level, m_count, qp;
  int start[kMaxDigits], size[kMaxDigits], ext_off[kMaxDigits];
};

/// Key-switch inner product fused over the digits: for every limb t of
/// Q_l u P, acc_0 = sum_j ext_j b_j and acc_1 = sum_j ext_j a_j, summed in
/// a double word and reduced once (the digit's own limbs are read from d).
/// At 32-bit words the 64-bit sums fold every 8 products (hi 2^32 + lo ->
/// hi [2^32]_q + lo, below 2^62), so any digit count fits.
/// Bytes: 3 D + 2 words per coefficient (the key dominates). Work: 2 D
/// multiply-adds and 2 reductions per coefficient.
template <typename W>
__global__ void __launch_bounds__(kEwThreads)
    innerProductKernel(TablesT<W> T, IpArgsT<W> a) {
  const int t = blockIdx.y, log_n = T.logN;
  const size_t x0 = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int g = qpModulus(t, a.level, T.qCount);
  const W q = T.q[g], rh = T.ratioHi[g], rl = T.ratioLo[g];
  // Digit j's row t (from d on its own limbs) and the key's rows.
  auto rowsOf = [&](int j, const W *&src, const W *&kb, const W *&ka) {
    const int st = a.start[j], sz = a.size[j];
    src = (t >= st && t < st + sz)
              ? a.d + (size_t(t) << log_n)
              : a.ext + (size_t(a.ext_off[j] + (t < st ? t : t - sz)) << log_n);
    kb = a.key + (size_t(2 * j * a.m_count + g) << log_n);
    ka = a.key + (size_t((2 * j + 1) * a.m_count + g) << log_n);
  };
  if constexpr (sizeof(W) == 8) {
    u64 h0 = 0, l0 = 0, h1 = 0, l1 = 0;
    for (int j = 0; j < a.digits; ++j) {
      const W *src, *kb, *ka;
      rowsOf(j, src, kb, ka);
      const W v = src[x0];
      mac128(h0, l0, v, kb[x0]);
      mac128(h1, l1, v, ka[x0]);
    }
    a.acc[(size_t(t) << log_n) + x0] = barrett(h0, l0, q, rh, rl);
    a.acc[(size_t(a.qp + t) << log_n) + x0] = barrett(h1, l1, q, rh, rl);
  } else { // two coefficients a grid apart per thread (8 bytes in flight)
    constexpr int kV = kVals<W>;
    const size_t step = size_t(gridDim.x) * blockDim.x;
    const u64 fold = barrett<u32>(1, 0, q, rh, rl); // 2^32 mod q
    u64 s0[kV] = {}, s1[kV] = {};
    for (int j = 0; j < a.digits; ++j) {
      const W *src, *kb, *ka;
      rowsOf(j, src, kb, ka);
#pragma unroll
      for (int v = 0; v < kV; ++v) {
        const size_t x = x0 + v * step;
        const W val = src[x];
        s0[v] += u64(val) * kb[x];
        s1[v] += u64(val) * ka[x];
        if ((j & 7) == 7) {
          s0[v] = (s0[v] >> 32) * fold + u32(s0[v]);
          s1[v] = (s1[v] >> 32) * fold + u32(s1[v]);
        }
      }
    }
#pragma unroll
    for (int v = 0; v < kV; ++v) {
      const size_t x = x0 + v * step;
      a.acc[(size_t(t) << log_n) + x] =
          barrett(u32(s0[v] >> 32), u32(s0[v]), q, rh, rl);
      a.acc[(size_t(a.qp + t) << log_n) + x] =
          barrett(u32(s1[v] >> 32), u32(s1[v]), q, rh, rl);
    }
  }
}

/// Loads a block's slice of a conversion: rows t_begin..t_begin+nt of the
/// (targets x m) hat matrix into hat_s and the per-target constants c into
/// c_s (shared memory), then waits for the whole block.
template <typename W>
__device__ __forceinline__ void loadSlice(W *hat_s, W *c_s, const W *hat,
                                          const W *c, int t_begin, int nt,
                                          int m) {
  for (int idx = threadIdx.x; idx < nt * m; idx += blockDim.x)
    hat_s[idx] = hat[t_begin * m + idx];
  for (int idx = threadIdx.x; idx < nt; idx += blockDim.x)
    c_s[idx] = c[t_begin + idx];
  __syncthreads();
}

/// An exact sum of products of W words, reduced once: at 64 bits a 128-bit
/// accumulator (64 products below 2^122 fit); at 32 bits a 64-bit sum and
/// a count of its wraps, folded as carry 2^64 + sum = carry [2^64]_q + sum
/// (any number of products).
template <typename W> struct WideSum;
template <> struct WideSum<u64> {
  u64 hi = 0, lo = 0;
  __device__ __forceinline__ void mac(u64 a, u64 b) { mac128(hi, lo, a, b); }
  __device__ __forceinline__ u64 reduce(u64 q, u64 rh, u64 rl) const {
    return barrett(hi, lo, q, rh, rl);
  }
};
template <> struct WideSum<u32> {
  u64 sum = 0;
  u32 carry = 0;
  __device__ __forceinline__ void mac(u32 a, u32 b) {
    const u64 p = u64(a) * b;
    sum += p;
    carry += sum < p;
  }
  __device__ __forceinline__ u32 reduce(u32 q, u32 rh, u32 rl) const {
    u32 r = barrett(u32(sum >> 32), u32(sum), q, rh, rl);
    if (carry) {
      const u32 two32 = barrett<u32>(1, 0, q, rh, rl); // 2^32 mod q
      const u32 two64 = mulModBarrett(two32, two32, q, rh, rl);
      r = addMod(r, mulModBarrett(carry, two64, q, rh, rl), q);
    }
    return r;
  }
};

/// One target of a base conversion: k c + sum_{i < m} y_i h_i summed
/// exactly (WideSum) and reduced once mod modulus g.
template <int kM, typename W>
__device__ __forceinline__ W convRow(const TablesT<W> &T, const W *y,
                                     const W *h, int m, W k, W c, int g) {
  WideSum<W> acc;
  acc.mac(k, c);
#pragma unroll
  for (int i = 0; i < kM; ++i)
    if (i < m)
      acc.mac(y[i], h[i]);
  return acc.reduce(T.q[g], T.ratioHi[g], T.ratioLo[g]);
}

__device__ __forceinline__ double toDouble(u64 v) { return __ull2double_rn(v); }
__device__ __forceinline__ double toDouble(u32 v) {
  return __uint2double_rn(v);
}

template <typename W> struct ExactJobs { ExactJobT<W> job[kMaxExactJobs]; };

/// Exact base conversion (Athena 2.2, EBConv; rns.h bconvExact), a (T x m)
/// by (m x N) matrix product like bconvKernel: each thread keeps its
/// coefficient's m inputs y_i in registers, sums y_i / b_i in doubles (IEEE
/// division and addition in basis order, __ddiv_rn / __dadd_rn so that
/// nothing contracts into an FMA: the CPU's v bit for bit), rounds to
/// v = floor(sum + 0.5) and produces the block's targets as exact sums of
/// the m products plus v [-B]_t, reduced once (Barrett). The block's slice of
/// the hat matrix sits in shared memory. Bytes: (m + T) N words per job. Work
/// per coefficient: m double divisions and additions (and m Shoup products when
/// scaling), m T multiply-adds and T reductions.
template <int kM, typename W>
__global__ void __launch_bounds__(kEwThreads)
    bconvExactKernel(TablesT<W> T, ExactJobs<W> jobs) {
  extern __shared__ u64 ex_raw[];
  W *ex_s = reinterpret_cast<W *>(ex_raw);
  const ExactJobT<W> J = jobs.job[blockIdx.y];
  const int m = J.m, tc = J.t_count, log_n = T.logN;
  const int t_begin = blockIdx.z * kTargetsPerBlock;
  if (t_begin >= tc)
    return; // whole block: before any barrier
  const int nt = min(tc - t_begin, kTargetsPerBlock);
  W *hat_s = ex_s, *negb_s = ex_s + nt * m; // [nt][m], [nt]
  loadSlice(hat_s, negb_s, J.hat, J.negb, t_begin, nt, m);
  const size_t x = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  W y[kM];
  double sum = 0;
#pragma unroll
  for (int i = 0; i < kM; ++i) {
    y[i] = 0;
    if (i < m) {
      const W b = T.q[__ldg(J.smod + i)];
      W v = J.in[(size_t(i) << log_n) + x];
      if (J.hinv)
        v = mulShoup(v, __ldg(J.hinv + 2 * i), __ldg(J.hinv + 2 * i + 1), b);
      y[i] = v;
      sum = __dadd_rn(sum, __ddiv_rn(toDouble(v), toDouble(b)));
    }
  }
  // floor(s + 0.5), as the CPU (not round(): s + 0.5 may round up).
  const W v = static_cast<W>(floor(__dadd_rn(sum, 0.5)));
  for (int tt = 0; tt < nt; ++tt) {
    const int t = t_begin + tt;
    const int row = J.trow ? __ldg(J.trow + t) : t;
    J.out[(size_t(row) << log_n) + x] =
        convRow<kM>(T, y, hat_s + tt * m, m, v, negb_s[tt], __ldg(J.tmod + t));
  }
}

template <typename W> struct KlssIpArgs {
  const W *td[kMaxDigits]; ///< digit i's r rows over T (NTT form)
  const W *key;            ///< [digit][key group][b, a][r][N]
  W *out;                  ///< [b, a][group][r] rows
  int digits, groups, key_groups, r, t_first;
};

/// KLSS inner product over T (Athena Fig. 6), all groups in one launch: a
/// thread owns one coefficient of one T limb, keeps the digits' values in
/// registers (read once; kD = 0: more than 16 digits, re-read per group
/// from the cache) and for every group sums digit x key (b and a) exactly
/// (WideSum), reducing once. Bytes per coefficient: 2 D G words of key (the
/// bulk, read once), D digit words, 2 G output words. Work: 2 D G
/// multiply-adds and 2 G reductions. (Reading the digits once per tile of 4
/// groups, their 8 sums side by side, measured slower on an H200: 840
/// against 833 us at cheddar32k1, 914 against 821 at athena47.)
template <int kD, typename W>
__global__ void __launch_bounds__(kEwThreads)
    klssInnerProductKernel(TablesT<W> T, KlssIpArgs<W> a) {
  const int k = blockIdx.y, log_n = T.logN;
  const size_t x = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t off = (size_t(k) << log_n) + x;
  const size_t block = size_t(a.r) << log_n; // one (digit, group, part)
  const int g = a.t_first + k;
  const W q = T.q[g], rh = T.ratioHi[g], rl = T.ratioLo[g];
  constexpr int kR = kD > 0 ? kD : 1; // the register cache
  W d[kR];
#pragma unroll
  for (int i = 0; i < kR; ++i)
    d[i] = kD > 0 && i < a.digits ? a.td[i][off] : 0;
  for (int j = 0; j < a.groups; ++j) {
    WideSum<W> s0, s1;
    auto mac = [&](int i, W v) {
      const W *kb = a.key + size_t(2 * (i * a.key_groups + j)) * block + off;
      s0.mac(v, kb[0]);
      s1.mac(v, kb[block]);
    };
    if constexpr (kD > 0) {
#pragma unroll
      for (int i = 0; i < kD; ++i)
        if (i < a.digits)
          mac(i, d[i]);
    } else {
      for (int i = 0; i < a.digits; ++i)
        mac(i, a.td[i][off]);
    }
    a.out[size_t(j) * block + off] = s0.reduce(q, rh, rl);
    a.out[size_t(a.groups + j) * block + off] = s1.reduce(q, rh, rl);
  }
}

template <typename W> struct MdArgs {
  const W *in; ///< parts of keep + drop rows (stride in_stride rows)
  W *out;      ///< parts of keep rows (stride out_stride rows)
  int in_stride, out_stride, keep, drop;
  const W *hinv; ///< [drop][2] (D/d_j)^-1 and its Shoup word
  const W *hat;  ///< [keep][drop] (D/d_j) mod k_t
  const W *half; ///< [drop] floor(d_j / 2)
  const W *negb; ///< [keep] [-D]_{k_t}
  const W *inv;  ///< [keep][2] D^-1 mod k_t and its Shoup word
  const int *tmod, *dmod;
};

/// Modulus switch down in coefficient form (rns.h modSwitchDown; KLSS's
/// ModDown before its single NTT), one pass: y_j = [x_j (D/d_j)^-1]_{d_j}
/// for the dropped limbs, the centred BConv of y to each kept limb summed
/// exactly, then (x_t - conv) D^-1. Grid (N / threads, parts, kept limbs /
/// 8). Bytes: (keep + drop) N words in, keep N out per part (the dropped
/// limbs re-read per block of 8 targets, from L2). Work per coefficient:
/// drop Shoup products, keep x drop multiply-adds, keep reductions and
/// Shoup products.
template <int kM, typename W>
__global__ void __launch_bounds__(kEwThreads)
    modDownCoeffKernel(TablesT<W> T, MdArgs<W> a) {
  extern __shared__ u64 md_raw[];
  W *md_s = reinterpret_cast<W *>(md_raw);
  const int keep = a.keep, drop = a.drop, log_n = T.logN;
  const int t_begin = blockIdx.z * kTargetsPerBlock;
  if (t_begin >= keep)
    return;
  const int nt = min(keep - t_begin, kTargetsPerBlock);
  W *hat_s = md_s, *negb_s = md_s + nt * drop; // [nt][drop], [nt]
  loadSlice(hat_s, negb_s, a.hat, a.negb, t_begin, nt, drop);
  const size_t x = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const W *src = a.in + (size_t(blockIdx.y) * a.in_stride << log_n) + x;
  W *dst = a.out + (size_t(blockIdx.y) * a.out_stride << log_n) + x;
  W y[kM];
  W above = 0;
#pragma unroll
  for (int i = 0; i < kM; ++i) {
    y[i] = 0;
    if (i < drop) {
      const W q = T.q[__ldg(a.dmod + i)];
      y[i] = mulShoup(src[size_t(keep + i) << log_n], __ldg(a.hinv + 2 * i),
                      __ldg(a.hinv + 2 * i + 1), q);
      above += y[i] > __ldg(a.half + i);
    }
  }
  for (int tt = 0; tt < nt; ++tt) {
    const int t = t_begin + tt, g = __ldg(a.tmod + t);
    const W q = T.q[g];
    const W conv =
        convRow<kM>(T, y, hat_s + tt * drop, drop, above, negb_s[tt], g);
    dst[size_t(t) << log_n] =
        mulShoup(subMod(src[size_t(t) << log_n], conv, q), __ldg(a.inv + 2 * t),
                 __ldg(a.inv + 2 * t + 1), q);
  }
}

template <typename W>
__device__ __forceinline__ int rowModulus(const TablesT<W> &T, ModMap map,
                                          int r) {
  return qpModulus(map.off + r % map.div, map.level, T.qCount);
}

/// Elementwise binary ops over rows. Bytes: 2-3 N words per row. Work: one
/// add (2 int32 ops) or one Barrett product (~25) per word.

template <typename W, EwOp kOp>
__global__ void __launch_bounds__(kEwThreads)
    ewKernel(TablesT<W> T, W *out, const W *a, int a_rows, const W *b,
             int b_rows, int b_div, ModMap map) {
  constexpr int kV = kVals<W>;
  const int r = blockIdx.y, log_n = T.logN;
  const size_t x0 = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t step = size_t(gridDim.x) * blockDim.x;
  const int g = rowModulus(T, map, r);
  const W q = T.q[g];
  const size_t row = size_t(r) << log_n, brow = size_t(r % b_div) << log_n;
  W av[kV], bv[kV], ov[kV];
#pragma unroll
  for (int v = 0; v < kV; ++v) {
    const size_t x = x0 + v * step;
    av[v] = r < a_rows ? a[row + x] : 0;
    bv[v] = (b && r < b_rows) ? b[brow + x] : 0;
    ov[v] = kOp == EwOp::kMulAdd ? out[row + x] : 0;
  }
#pragma unroll
  for (int v = 0; v < kV; ++v) {
    W res;
    if (kOp == EwOp::kAdd) {
      res = addMod(av[v], bv[v], q);
    } else if (kOp == EwOp::kSub) {
      res = subMod(av[v], bv[v], q);
    } else if (kOp == EwOp::kNeg) {
      res = av[v] == 0 ? 0 : q - av[v];
    } else if (kOp == EwOp::kMul) {
      res = mulModBarrett(av[v], bv[v], q, T.ratioHi[g], T.ratioLo[g]);
    } else if constexpr (sizeof(W) == 8) { // kMulAdd: one reduction
      u64 hi = 0, lo = ov[v];
      mac128(hi, lo, av[v], bv[v]);
      res = barrett<u64>(hi, lo, q, T.ratioHi[g], T.ratioLo[g]);
    } else { // kMulAdd: the product and the addend below 2^61
      const u64 x = u64(av[v]) * bv[v] + ov[v];
      res = barrett(W(x >> 32), W(x), q, T.ratioHi[g], T.ratioLo[g]);
    }
    out[row + x0 + v * step] = res;
  }
}

template <typename W> struct Consts { W w[kMaxConsts], ws[kMaxConsts]; };

/// out = a * c_i (Shoup) or a + c_i on rows below const_rows, else a copy.
/// Bytes: 2 N words per row. Work: one Shoup product (~12) per word.
template <typename W>
__global__ void __launch_bounds__(kEwThreads)
    constKernel(TablesT<W> T, bool mul, W *out, const W *a, Consts<W> c,
                int const_rows, ModMap map) {
  constexpr int kV = kVals<W>;
  const int r = blockIdx.y, log_n = T.logN;
  const size_t off0 =
      (size_t(r) << log_n) + size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t step = size_t(gridDim.x) * blockDim.x;
  W av[kV];
#pragma unroll
  for (int v = 0; v < kV; ++v)
    av[v] = a[off0 + v * step];
  if (r >= const_rows) {
#pragma unroll
    for (int v = 0; v < kV; ++v)
      out[off0 + v * step] = av[v];
    return;
  }
  const int i = r % map.div;
  const W q = T.q[rowModulus(T, map, r)];
#pragma unroll
  for (int v = 0; v < kV; ++v)
    out[off0 + v * step] =
        mul ? mulShoup(av[v], c.w[i], c.ws[i], q) : addMod(av[v], c.w[i], q);
}

/// Tensor product of two degree-1 ciphertexts in one pass: reads 4 words,
/// writes 3 per coefficient; 4 products and 3 reductions. kVals<W>
/// coefficients a grid apart per thread (two at 32-bit words).
template <typename W>
__global__ void __launch_bounds__(kEwThreads)
    tensorKernel(TablesT<W> T, W *out, const W *a, const W *b, int limbs) {
  constexpr int kV = kVals<W>;
  const int r = blockIdx.y, log_n = T.logN;
  const size_t off0 =
      (size_t(r) << log_n) + size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t step = size_t(gridDim.x) * blockDim.x;
  const size_t part = size_t(limbs) << log_n;
  const W q = T.q[r], rh = T.ratioHi[r], rl = T.ratioLo[r];
#pragma unroll
  for (int v = 0; v < kV; ++v) {
    const size_t off = off0 + v * step;
    const W a0 = a[off], a1 = a[part + off], b0 = b[off], b1 = b[part + off];
    if constexpr (sizeof(W) == 8) {
      u64 hi = 0, lo = 0;
      mac128(hi, lo, a0, b1);
      mac128(hi, lo, a1, b0);
      out[part + off] = barrett(hi, lo, q, rh, rl);
    } else { // two products below 2^60
      const u64 x = u64(a0) * b1 + u64(a1) * b0;
      out[part + off] = barrett(u32(x >> 32), u32(x), q, rh, rl);
    }
    out[off] = mulModBarrett(a0, b0, q, rh, rl);
    out[2 * part + off] = mulModBarrett(a1, b1, q, rh, rl);
  }
}

/// NTT-form automorphism: a gather by the index map (bit-reversed layout
/// keeps runs of it contiguous). Bytes: 2 N words + the N-entry map per row.
template <typename W>
__global__ void __launch_bounds__(kEwThreads)
    automorphismKernel(int log_n, W *out, const W *in, const uint32_t *index) {
  constexpr int kV = kVals<W>;
  const size_t row = size_t(blockIdx.y) << log_n;
  const size_t x0 = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t step = size_t(gridDim.x) * blockDim.x;
  W v[kV];
#pragma unroll
  for (int i = 0; i < kV; ++i)
    v[i] = in[row + __ldg(index + x0 + i * step)];
#pragma unroll
  for (int i = 0; i < kV; ++i)
    out[row + x0 + i * step] = v[i];
}

/// Coefficient-form automorphism: X^k -> +-X^(k galois mod N), a scatter.
/// Bytes: 2 N words per row (writes uncoalesced). Work: one negation each.
template <typename W>
__global__ void __launch_bounds__(kEwThreads)
    automorphismCoeffKernel(TablesT<W> T, W *out, const W *in, uint64_t galois,
                            ModMap map) {
  const int r = blockIdx.y, log_n = T.logN;
  const uint64_t n = uint64_t{1} << log_n;
  const uint64_t k = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t row = size_t(r) << log_n;
  const W q = T.q[rowModulus(T, map, r)];
  const uint64_t image = (k * galois) & (2 * n - 1);
  const W v = in[row + k];
  if (image < n)
    out[row + image] = v;
  else
    out[row + image - n] = v == 0 ? 0 : q - v;
}

/// Block and grid of an elementwise launch over `rows` rows, each thread
/// taking `vals` values of a row.
unsigned ewBlock(const DeviceContext::Impl &I, int vals = 1) {
  return unsigned(std::min<size_t>(I.n / vals, kEwThreads));
}
dim3 ewGrid(const DeviceContext::Impl &I, int rows, int vals = 1) {
  return dim3(unsigned(I.n / (size_t(ewBlock(I, vals)) * vals)),
              unsigned(rows));
}

std::vector<int> iota(int first, int count) {
  std::vector<int> v(count);
  for (int i = 0; i < count; ++i)
    v[i] = first + i;
  return v;
}

/// Calls launch(std::integral_constant<int, W>()) with the smallest
/// register width W of 8, 12, 16, 32 that holds m values (the BConv kernels
/// keep a coefficient's m source values in registers).
template <typename Launch>
void byWidth(int m, const char *what, const Launch &launch) {
  if (m <= 8)
    launch(std::integral_constant<int, 8>());
  else if (m <= 12) // a merged ModDown's P u {q_l} (K + 1 limbs)
    launch(std::integral_constant<int, 12>());
  else if (m <= 16)
    launch(std::integral_constant<int, 16>());
  else if (m <= 32)
    launch(std::integral_constant<int, 32>());
  else
    throw InvalidArgument(std::string(what) +
                          ": at most 32 source limbs on the GPU");
}

} // namespace

// --- Launchers ---------------------------------------------------------------

void launchBConv(const DeviceContext &ctx, const std::vector<BConvJob> &jobs) {
  const auto &I = ctx.impl();
  for (size_t first = 0; first < jobs.size(); first += kMaxJobs) {
    const size_t count = std::min<size_t>(kMaxJobs, jobs.size() - first);
    BConvJobs js{};
    int max_m = 0, max_t = 0;
    size_t smem = 0;
    for (size_t i = 0; i < count; ++i) {
      js.job[i] = jobs[first + i];
      max_m = std::max(max_m, js.job[i].m);
      max_t = std::max(max_t, js.job[i].t_count);
      smem = std::max(smem, bconvSmemWords(js.job[i].m) * 8);
    }
    dim3 grid = ewGrid(I, int(count));
    grid.z = unsigned((max_t + kBConvGroup - 1) / kBConvGroup);
    const unsigned block = ewBlock(I);
    byWidth(max_m, "bconv", [&](auto w) {
      bconvKernel<decltype(w)::value>
          <<<grid, block, smem, I.stream>>>(I.tables, js);
    });
    EMBER_CUDA_LAUNCH_CHECK(I.stream);
  }
}

namespace {
template <typename W>
void elementwise(const DeviceContext &ctx, EwOp op, W *out, const W *a,
                 int a_rows, const W *b, int b_rows, int b_div, int rows,
                 ModMap map) {
  requireWord<W>(ctx, "elementwise");
  const auto &I = ctx.impl();
  if (rows == 0)
    return;
  const TablesT<W> &T = tablesOf<W>(I);
  dim3 grid = ewGrid(I, rows, kVals<W>);
  const unsigned block = ewBlock(I, kVals<W>);
  switch (op) {
  case EwOp::kAdd:
    ewKernel<W, EwOp::kAdd><<<grid, block, 0, I.stream>>>(T, out, a, a_rows, b,
                                                          b_rows, b_div, map);
    break;
  case EwOp::kSub:
    ewKernel<W, EwOp::kSub><<<grid, block, 0, I.stream>>>(T, out, a, a_rows, b,
                                                          b_rows, b_div, map);
    break;
  case EwOp::kNeg:
    ewKernel<W, EwOp::kNeg><<<grid, block, 0, I.stream>>>(T, out, a, a_rows, b,
                                                          b_rows, b_div, map);
    break;
  case EwOp::kMul:
    ewKernel<W, EwOp::kMul><<<grid, block, 0, I.stream>>>(T, out, a, a_rows, b,
                                                          b_rows, b_div, map);
    break;
  case EwOp::kMulAdd:
    ewKernel<W, EwOp::kMulAdd><<<grid, block, 0, I.stream>>>(
        T, out, a, a_rows, b, b_rows, b_div, map);
    break;
  }
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}

template <typename W>
void constOp(const DeviceContext &ctx, bool mul, W *out, const W *a,
             const std::vector<u64> &c, int const_rows, int rows, ModMap map) {
  const auto &I = ctx.impl();
  if (int(c.size()) != map.div || map.div > kMaxConsts)
    throw InvalidArgument("const op: one constant per limb (at most 64)");
  const Context<W> &host = hostOf<W>(ctx);
  Consts<W> k{};
  for (int i = 0; i < map.div; ++i) {
    const Modulus<W> &q =
        host.modulus(qpModulus(map.off + i, map.level, I.q_count));
    k.w[i] = W(c[i] % q.value());
    k.ws[i] = q.shoup(k.w[i]);
  }
  constKernel<W>
      <<<ewGrid(I, rows, kVals<W>), ewBlock(I, kVals<W>), 0, I.stream>>>(
          tablesOf<W>(I), mul, out, a, k, const_rows, map);
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}
} // namespace

void launchBConv(const DeviceContext &ctx,
                 const std::vector<BConvJobT<u32>> &jobs) {
  requireWord<u32>(ctx, "bconv");
  const auto &I = ctx.impl();
  for (size_t first = 0; first < jobs.size(); first += kMaxJobs) {
    const size_t count = std::min<size_t>(kMaxJobs, jobs.size() - first);
    BConvJobsT<u32> js{};
    int max_m = 0, max_t = 0;
    for (size_t i = 0; i < count; ++i) {
      js.job[i] = jobs[first + i];
      max_m = std::max(max_m, js.job[i].m);
      max_t = std::max(max_t, js.job[i].t_count);
    }
    // Target groups: as few as keep about 1024 blocks in the grid (a wave
    // of 6-8 blocks on each of 132 SMs), each group a multiple of the
    // kernel's 4 side-by-side targets.
    const int vals = max_m <= 16 ? 2 : 1; // kBConv32Vals
    dim3 grid = ewGrid(I, int(count), vals);
    const int blocks = int(grid.x * grid.y);
    const int groups =
        std::max(1, std::min((1024 + blocks - 1) / blocks, (max_t + 3) / 4));
    const int per = ((max_t + groups - 1) / groups + 3) / 4 * 4;
    grid.z = unsigned((max_t + per - 1) / per);
    const size_t smem = (size_t(per) * max_m + max_m + 6 * size_t(per)) * 4;
    const unsigned block = ewBlock(I, vals);
    byWidth(max_m, "bconv", [&](auto w) {
      static_assert(kBConv32Vals<8> == 2 && kBConv32Vals<16> == 2 &&
                    kBConv32Vals<32> == 1);
      bconvKernel32<decltype(w)::value>
          <<<grid, block, smem, I.stream>>>(I.tables32, js, per);
    });
    EMBER_CUDA_LAUNCH_CHECK(I.stream);
  }
}

void launchElementwise(const DeviceContext &ctx, EwOp op, u64 *out,
                       const u64 *a, int a_rows, const u64 *b, int b_rows,
                       int b_div, int rows, ModMap map) {
  elementwise(ctx, op, out, a, a_rows, b, b_rows, b_div, rows, map);
}
void launchElementwise(const DeviceContext &ctx, EwOp op, u32 *out,
                       const u32 *a, int a_rows, const u32 *b, int b_rows,
                       int b_div, int rows, ModMap map) {
  elementwise(ctx, op, out, a, a_rows, b, b_rows, b_div, rows, map);
}

void launchConstOp(const DeviceContext &ctx, bool mul, u64 *out, const u64 *a,
                   const std::vector<u64> &c, int const_rows, int rows,
                   ModMap map) {
  constOp(ctx, mul, out, a, c, const_rows, rows, map);
}
void launchConstOp(const DeviceContext &ctx, bool mul, u32 *out, const u32 *a,
                   const std::vector<u64> &c, int const_rows, int rows,
                   ModMap map) {
  constOp(ctx, mul, out, a, c, const_rows, rows, map);
}

template <typename W>
void launchTensor(const DeviceContext &ctx, W *out, const W *a, const W *b,
                  int limbs) {
  const auto &I = ctx.impl();
  tensorKernel<W>
      <<<ewGrid(I, limbs, kVals<W>), ewBlock(I, kVals<W>), 0, I.stream>>>(
          tablesOf<W>(I), out, a, b, limbs);
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}
template void launchTensor(const DeviceContext &, u64 *, const u64 *,
                           const u64 *, int);
template void launchTensor(const DeviceContext &, u32 *, const u32 *,
                           const u32 *, int);

namespace {
template <typename W>
void automorphismRows(const DeviceContext &ctx, W *out, const W *in, int rows,
                      const uint32_t *index) {
  const auto &I = ctx.impl();
  automorphismKernel<W>
      <<<ewGrid(I, rows, kVals<W>), ewBlock(I, kVals<W>), 0, I.stream>>>(
          I.n_log, out, in, index);
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}
} // namespace

void launchAutomorphism(const DeviceContext &ctx, u64 *out, const u64 *in,
                        int rows, const uint32_t *index) {
  automorphismRows(ctx, out, in, rows, index);
}
void launchAutomorphism(const DeviceContext &ctx, u32 *out, const u32 *in,
                        int rows, const uint32_t *index) {
  automorphismRows(ctx, out, in, rows, index);
}

// --- Key switching, ModUp, ModDown, rescale
// --------------------------------------

template <typename W>
void modUpInverse(const DeviceContext &ctx, const KsPlan &plan, const W *d,
                  int j0, int j1, W *y) {
  const int lo = plan.start[j0], hi = plan.start[j1 - 1] + plan.size[j1 - 1];
  // INTT of the digits' limbs with (Q_j / q_i)^-1 folded into the last stage.
  const std::vector<int> src = iota(lo, hi - lo), rows = iota(0, hi - lo);
  launchNttInverse(ctx, d, src, y, rows, y, rows, src,
                   wordsOf<W>(plan.intt_scale) + kScaleWords * size_t(lo),
                   false);
}

template <typename W>
void modUpConvert(const DeviceContext &ctx, const KsPlan &plan, const W *y,
                  int j0, int j1, W *ext) {
  const size_t n = ctx.impl().n;
  const int lo = plan.start[j0];
  // BConv of each digit to the other limbs of Q_l u P.
  std::vector<BConvJobT<W>> jobs;
  const int *tmod = reinterpret_cast<const int *>(plan.tmod_up.data());
  const W *up = wordsOf<W>(plan.up);
  for (int j = j0; j < j1; ++j)
    jobs.push_back(BConvJobT<W>{
        y + size_t(plan.start[j] - lo) * n, ext + size_t(plan.ext_off[j]) * n,
        up + plan.hat_off[j], up + plan.half_off[j], up + plan.negb_off[j],
        nullptr, tmod + plan.tmod_up_off[j], plan.size[j],
        plan.qp - plan.size[j]});
  launchBConv(ctx, jobs);
  // NTT of every converted limb, one launch.
  const int first = plan.ext_off[j0];
  const int last = plan.ext_off[j1 - 1] + plan.qp - plan.size[j1 - 1];
  const std::vector<int> ext_rows = iota(first, last - first);
  const std::vector<int> mods(plan.ext_mods.begin() + first,
                              plan.ext_mods.begin() + last);
  launchNttForward(ctx, ext, ext_rows, ext, ext_rows, ext, ext_rows, mods, -1,
                   nullptr);
}

template <typename W>
void modUpDigits(const DeviceContext &ctx, const KsPlan &plan, const W *d,
                 int j0, int j1, W *ext) {
  const int lo = plan.start[j0], hi = plan.start[j1 - 1] + plan.size[j1 - 1];
  DeviceBuffer y = residueBuffer<W>(ctx, size_t(hi - lo) * ctx.impl().n);
  modUpInverse(ctx, plan, d, j0, j1, residues<W>(y));
  modUpConvert<W>(ctx, plan, residues<W>(y), j0, j1, ext);
}

template <typename W>
void modDownParts(const DeviceContext &ctx, const KsPlan &plan, const W *in,
                  int parts, W *out, const W *add, int add_parts,
                  int add_stride) {
  const auto &I = ctx.impl();
  const size_t n = I.n;
  const int l1 = plan.level + 1, k = I.p_count, qp = plan.qp;
  if (k == 0)
    throw InvalidArgument("modDown needs special primes");
  // INTT of the P limbs with (P / p_k)^-1 folded in.
  DeviceBuffer zb = residueBuffer<W>(ctx, size_t(parts) * k * n);
  W *z = residues<W>(zb);
  std::vector<int> src, rows, mods;
  for (int p = 0; p < parts; ++p)
    for (int i = 0; i < k; ++i) {
      src.push_back(p * qp + l1 + i);
      rows.push_back(p * k + i);
      mods.push_back(I.q_count + i);
    }
  launchNttInverse(ctx, in, src, z, rows, z, rows, mods,
                   wordsOf<W>(plan.intt_scale_p), false);
  // Centred BConv P -> Q_l.
  DeviceBuffer convb = residueBuffer<W>(ctx, size_t(parts) * l1 * n);
  W *conv = residues<W>(convb);
  std::vector<BConvJobT<W>> jobs;
  const int *tmod = reinterpret_cast<const int *>(plan.tmod_down.data());
  const W *down = wordsOf<W>(plan.down);
  for (int p = 0; p < parts; ++p)
    jobs.push_back(BConvJobT<W>{
        z + size_t(p) * k * n, conv + size_t(p) * l1 * n, down,
        down + plan.down_half, down + plan.down_negb, nullptr, tmod, k, l1});
  launchBConv(ctx, jobs);
  // NTT with the subtraction, P^-1 and the addend in its epilogue.
  const std::vector<int> out_rows = iota(0, parts * l1);
  std::vector<int> out_mods(parts * l1);
  for (int r = 0; r < parts * l1; ++r)
    out_mods[r] = r % l1;
  EpilogueT<W> e;
  for (int p = 0; p < parts; ++p) {
    e.a[p] = in + size_t(p) * qp * n;
    if (add && p < add_parts)
      e.b[p] = add + size_t(p) * add_stride * n;
  }
  e.c = wordsOf<W>(plan.p_inv);
  e.div = l1;
  launchNttForward(ctx, conv, out_rows, conv, out_rows, out, out_rows, out_mods,
                   -1, &e);
}

namespace {
template <typename W>
void rescaleRows(const DeviceContext &ctx, const W *in, int parts, int level,
                 W *out) {
  auto &I = ctx.impl();
  const size_t n = I.n;
  const RescalePlan &plan = I.rescalePlan(ctx, level);
  if (parts > 3)
    throw InvalidArgument("rescale: at most 3 ciphertext parts");
  // INTT of each part's last limb, adding h = q_l / 2.
  DeviceBuffer last(ctx, BasicDevicePoly<W>::wordsFor(size_t(parts) * n));
  W *last_w = reinterpret_cast<W *>(last.data());
  std::vector<int> src, rows, mods;
  for (int p = 0; p < parts; ++p) {
    src.push_back(p * (level + 1) + level);
    rows.push_back(p);
    mods.push_back(level);
  }
  launchNttInverse(ctx, in, src, last_w, rows, last_w, rows, mods,
                   wordsOf<W>(plan.intt_scale), false);
  // NTT of it mod every q_i (the reduction and - h mod q_i fused into the
  // load), then (x - r) q_l^-1 in the epilogue.
  DeviceBuffer tmp(ctx,
                   BasicDevicePoly<W>::wordsFor(size_t(parts) * level * n));
  std::vector<int> bsrc, brows, bmods;
  for (int r = 0; r < parts * level; ++r) {
    bsrc.push_back(r / level);
    brows.push_back(r);
    bmods.push_back(r % level);
  }
  EpilogueT<W> e;
  for (int p = 0; p < parts; ++p)
    e.a[p] = in + size_t(p) * (level + 1) * n;
  e.c = wordsOf<W>(plan.q_last_inv);
  e.div = level;
  launchNttForward(ctx, last_w, bsrc, reinterpret_cast<W *>(tmp.data()), brows,
                   out, brows, bmods, level, &e);
}
} // namespace

void rescaleParts(const DeviceContext &ctx, const u64 *in, int parts, int level,
                  u64 *out) {
  rescaleRows(ctx, in, parts, level, out);
}
void rescaleParts(const DeviceContext &ctx, const u32 *in, int parts, int level,
                  u32 *out) {
  rescaleRows(ctx, in, parts, level, out);
}

template <typename W>
void switchDownParts(const DeviceContext &ctx, const W *in, int parts,
                     int level, int keep, W *out, uint64_t plain_modulus) {
  auto &I = ctx.impl();
  const size_t n = I.n;
  if (parts < 1 || parts > kMaxParts)
    throw InvalidArgument("rescale: at most " + std::to_string(kMaxParts) +
                          " ciphertext parts");
  const int l1 = level + 1;
  const SwitchPlan &plan =
      I.switchPlan(ctx, iota(0, l1), iota(0, keep), plain_modulus);
  const int k = plan.keep, d = plan.drop;
  // INTT of every part's dropped limbs with (D/d_j)^-1 folded in.
  DeviceBuffer zb = residueBuffer<W>(ctx, size_t(parts) * d * n);
  W *z = residues<W>(zb);
  std::vector<int> src, rows, mods;
  for (int p = 0; p < parts; ++p)
    for (int j = 0; j < d; ++j) {
      src.push_back(p * l1 + k + j);
      rows.push_back(p * d + j);
      mods.push_back(k + j);
    }
  launchNttInverse(ctx, in, src, z, rows, z, rows, mods,
                   wordsOf<W>(plan.intt_scale), false);
  if constexpr (sizeof(W) == 4) {
    if (d == 2 && I.n_log == 16) {
      // The BConv fused into the NTT's loads: no converted limbs written
      // and read back (2 x keep limbs a part).
      Conv2InT<W> conv;
      for (int p = 0; p < parts; ++p)
        conv.y[p] = z + size_t(p) * d * n;
      conv.consts = wordsOf<W>(plan.consts);
      conv.keep = k;
      EpilogueT<W> e;
      for (int p = 0; p < parts; ++p)
        e.a[p] = in + size_t(p) * l1 * n;
      e.c = wordsOf<W>(plan.inv);
      e.div = k;
      launchNttForwardConv2(ctx, conv, parts, out, e);
      return;
    }
  }
  // Centred BConv D -> kept limbs, every part in one launch.
  const W *c = wordsOf<W>(plan.consts);
  const int *tmod = reinterpret_cast<const int *>(plan.tmod.data());
  std::vector<BConvJobT<W>> jobs;
  for (int p = 0; p < parts; ++p)
    jobs.push_back(BConvJobT<W>{z + size_t(p) * d * n, out + size_t(p) * k * n,
                                c, c + size_t(k) * d, c + size_t(k) * d + d,
                                nullptr, tmod, d, k});
  launchBConv(ctx, jobs);
  // NTT in place with (x - conv) D^-1 in its epilogue.
  EpilogueT<W> e;
  for (int p = 0; p < parts; ++p)
    e.a[p] = in + size_t(p) * l1 * n;
  e.c = wordsOf<W>(plan.inv);
  e.div = k;
  const std::vector<int> out_rows = iota(0, parts * k);
  std::vector<int> out_mods(parts * k);
  for (int r = 0; r < parts * k; ++r)
    out_mods[r] = r % k;
  launchNttForward(ctx, out, out_rows, out, out_rows, out, out_rows, out_mods,
                   -1, &e);
}
template void switchDownParts(const DeviceContext &, const u64 *, int, int, int,
                              u64 *, uint64_t);
template void switchDownParts(const DeviceContext &, const u32 *, int, int, int,
                              u32 *, uint64_t);

template <typename W>
void launchInnerProduct(const DeviceContext &ctx, const KsPlan &plan,
                        const W *d, const W *ext,
                        const BasicDeviceSwitchingKey<W> &key, W *acc) {
  const auto &I = ctx.impl();
  if (!key.whole())
    throw InvalidArgument("keySwitch: a key sharded by rows (KeyRows) only "
                          "serves keySwitchInnerProduct over raised digits");
  IpArgsT<W> a{};
  a.d = d;
  a.ext = ext;
  a.key = key.data();
  a.acc = acc;
  a.digits = plan.digits;
  a.level = plan.level;
  a.m_count = I.m_count;
  a.qp = plan.qp;
  for (int j = 0; j < plan.digits; ++j) {
    a.start[j] = plan.start[j];
    a.size[j] = plan.size[j];
    a.ext_off[j] = plan.ext_off[j];
  }
  innerProductKernel<W>
      <<<ewGrid(I, plan.qp, kVals<W>), ewBlock(I, kVals<W>), 0, I.stream>>>(
          tablesOf<W>(I), a);
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}

template <typename W>
void keySwitchInto(const DeviceContext &ctx, const W *d, int level,
                   const BasicDeviceSwitchingKey<W> &key, W *out, const W *add,
                   int add_parts, int add_stride, uint64_t plain_modulus) {
  requireWord<W>(ctx, "keySwitch");
  auto &I = ctx.impl();
  const KsPlan &plan = I.ksPlan(ctx, level, plain_modulus);
  if (key.digits < plan.digits)
    throw InvalidArgument("keySwitch: the key has " +
                          std::to_string(key.digits) + " digits, " +
                          std::to_string(plan.digits) + " needed");
  const size_t n = I.n;
  DeviceBuffer ext = residueBuffer<W>(ctx, size_t(plan.ext_rows) * n);
  modUpDigits(ctx, plan, d, 0, plan.digits, residues<W>(ext));
  DeviceBuffer acc = residueBuffer<W>(ctx, size_t(2 * plan.qp) * n);
  launchInnerProduct(ctx, plan, d, residues<W>(ext), key, residues<W>(acc));
  modDownParts(ctx, plan, residues<W>(acc), 2, out, add, add_parts, add_stride);
}

#define EMBER_KEYSWITCH_CHAIN(W)                                               \
  template void modUpInverse(const DeviceContext &, const KsPlan &, const W *, \
                             int, int, W *);                                   \
  template void modUpConvert(const DeviceContext &, const KsPlan &, const W *, \
                             int, int, W *);                                   \
  template void modUpDigits(const DeviceContext &, const KsPlan &, const W *,  \
                            int, int, W *);                                    \
  template void modDownParts(const DeviceContext &, const KsPlan &, const W *, \
                             int, W *, const W *, int, int);                   \
  template void launchInnerProduct(const DeviceContext &, const KsPlan &,      \
                                   const W *, const W *,                       \
                                   const BasicDeviceSwitchingKey<W> &, W *);   \
  template void keySwitchInto(const DeviceContext &, const W *, int,           \
                              const BasicDeviceSwitchingKey<W> &, W *,         \
                              const W *, int, int, uint64_t);
EMBER_KEYSWITCH_CHAIN(u64)
EMBER_KEYSWITCH_CHAIN(u32)
#undef EMBER_KEYSWITCH_CHAIN

// --- KLSS key switching (Athena 2.3) -----------------------------------------

template <typename W>
void launchBConvExact(const DeviceContext &ctx,
                      const std::vector<ExactJobT<W>> &jobs) {
  const auto &I = ctx.impl();
  for (size_t first = 0; first < jobs.size(); first += kMaxExactJobs) {
    const size_t count = std::min<size_t>(kMaxExactJobs, jobs.size() - first);
    ExactJobs<W> js{};
    int max_m = 0, max_t = 0;
    for (size_t i = 0; i < count; ++i) {
      js.job[i] = jobs[first + i];
      max_m = std::max(max_m, js.job[i].m);
      max_t = std::max(max_t, js.job[i].t_count);
    }
    const size_t smem =
        size_t(kTargetsPerBlock) * (size_t(max_m) + 1) * sizeof(W);
    dim3 grid = ewGrid(I, int(count));
    grid.z = unsigned((max_t + kTargetsPerBlock - 1) / kTargetsPerBlock);
    const unsigned block = ewBlock(I);
    byWidth(max_m, "bconvExact", [&](auto w) {
      bconvExactKernel<decltype(w)::value>
          <<<grid, block, smem, I.stream>>>(tablesOf<W>(I), js);
    });
    EMBER_CUDA_LAUNCH_CHECK(I.stream);
  }
}
template void launchBConvExact(const DeviceContext &,
                               const std::vector<ExactJobT<u64>> &);
template void launchBConvExact(const DeviceContext &,
                               const std::vector<ExactJobT<u32>> &);

template <typename W>
void klssModUpAll(const DeviceContext &ctx, const KlssPlan &plan, const W *y,
                  W *td) {
  const size_t n = ctx.impl().n;
  const W *c = wordsOf<W>(plan.consts);
  std::vector<ExactJobT<W>> jobs;
  for (int j = 0; j < plan.digits; ++j)
    jobs.push_back(
        ExactJobT<W>{y + size_t(plan.start[j]) * n, td + size_t(j) * plan.r * n,
                     c + plan.up_hat[j], c + plan.up_negb[j], nullptr,
                     plan.intsPtr(plan.up_smod[j]), plan.intsPtr(plan.t_mods),
                     nullptr, plan.size[j], plan.r});
  launchBConvExact(ctx, jobs);
  // NTT over T of every digit, one launch.
  const int rows = plan.digits * plan.r;
  const std::vector<int> all = iota(0, rows);
  std::vector<int> mods(rows);
  for (int i = 0; i < rows; ++i)
    mods[i] = plan.t_first + i % plan.r;
  launchNttForward(ctx, td, all, td, all, td, all, mods, -1,
                   static_cast<const EpilogueT<W> *>(nullptr));
}

template <typename W>
void launchKlssInnerProduct(const DeviceContext &ctx, const KlssPlan &plan,
                            const std::vector<const W *> &td,
                            const BasicDeviceKlssKey<W> &key, W *ip) {
  const auto &I = ctx.impl();
  if (int(td.size()) != plan.digits)
    throw InvalidArgument("klssInnerProduct: " + std::to_string(td.size()) +
                          " digits given, " + std::to_string(plan.digits) +
                          " at level " + std::to_string(plan.level));
  if (key.digits < plan.digits || key.groups < plan.groups)
    throw InvalidArgument(
        "klssInnerProduct: the KLSS key has " + std::to_string(key.digits) +
        " digits x " + std::to_string(key.groups) + " groups, " +
        std::to_string(plan.digits) + " x " + std::to_string(plan.groups) +
        " needed at level " + std::to_string(plan.level));
  KlssIpArgs<W> a{};
  for (int i = 0; i < plan.digits; ++i)
    a.td[i] = td[i];
  a.key = key.data();
  a.out = ip;
  a.digits = plan.digits;
  a.groups = plan.groups;
  a.key_groups = key.groups;
  a.r = plan.r;
  a.t_first = plan.t_first;
  const dim3 grid = ewGrid(I, plan.r);
  const unsigned block = ewBlock(I);
  const TablesT<W> &T = tablesOf<W>(I);
  if (plan.digits <= 4)
    klssInnerProductKernel<4><<<grid, block, 0, I.stream>>>(T, a);
  else if (plan.digits <= 8)
    klssInnerProductKernel<8><<<grid, block, 0, I.stream>>>(T, a);
  else if (plan.digits <= 16)
    klssInnerProductKernel<16><<<grid, block, 0, I.stream>>>(T, a);
  else
    klssInnerProductKernel<0><<<grid, block, 0, I.stream>>>(T, a);
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}

template <typename W>
void klssBackToQP(const DeviceContext &ctx, const KlssPlan &plan, W *ip,
                  W *acc0, W *acc1) {
  const size_t n = ctx.impl().n;
  // INTT over T of both parts of every group, (T/t_k)^-1 folded in.
  const int rows = 2 * plan.groups * plan.r;
  const std::vector<int> all = iota(0, rows);
  std::vector<int> mods(rows);
  for (int i = 0; i < rows; ++i)
    mods[i] = plan.t_first + i % plan.r;
  launchNttInverse(ctx, ip, all, ip, all, ip, all, mods,
                   wordsOf<W>(plan.intt_scale_t), true);
  // Exact BConv T -> each group's limbs, both accumulators in one launch.
  const W *c = wordsOf<W>(plan.consts);
  std::vector<ExactJobT<W>> jobs;
  for (int p = 0; p < 2; ++p)
    for (int j = 0; j < plan.groups; ++j)
      jobs.push_back(ExactJobT<W>{
          ip + size_t(p * plan.groups + j) * plan.r * n, p ? acc1 : acc0,
          c + plan.down_hat[j], c + plan.down_negb[j], nullptr,
          plan.intsPtr(plan.t_mods), plan.intsPtr(plan.down_tmod[j]),
          plan.intsPtr(plan.down_trow[j]), plan.r, plan.group_size[j]});
  launchBConvExact(ctx, jobs);
}

template <typename W>
void modDownCoeffParts(const DeviceContext &ctx, const SwitchPlan &plan,
                       const W *in, int in_stride, int parts, W *out,
                       int out_stride) {
  const auto &I = ctx.impl();
  MdArgs<W> a{};
  a.in = in;
  a.out = out;
  a.in_stride = in_stride;
  a.out_stride = out_stride;
  a.keep = plan.keep;
  a.drop = plan.drop;
  const W *c = wordsOf<W>(plan.consts);
  a.hinv = wordsOf<W>(plan.hat_inv);
  a.hat = c;
  a.half = c + size_t(plan.keep) * plan.drop;
  a.negb = a.half + plan.drop;
  a.inv = wordsOf<W>(plan.inv);
  a.tmod = reinterpret_cast<const int *>(plan.tmod.data());
  a.dmod = reinterpret_cast<const int *>(plan.dmod.data());
  dim3 grid = ewGrid(I, parts);
  grid.z = unsigned((plan.keep + kTargetsPerBlock - 1) / kTargetsPerBlock);
  const size_t smem =
      size_t(kTargetsPerBlock) * (size_t(plan.drop) + 1) * sizeof(W);
  const unsigned block = ewBlock(I);
  byWidth(plan.drop, "modSwitchDown", [&](auto w) {
    modDownCoeffKernel<decltype(w)::value>
        <<<grid, block, smem, I.stream>>>(tablesOf<W>(I), a);
  });
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}

template <typename W>
void keySwitchInto(const DeviceContext &ctx, const W *d, int level,
                   const BasicDeviceKlssKey<W> &key, W *out, const W *add,
                   int add_parts, int add_stride, uint64_t plain_modulus) {
  if (plain_modulus)
    throw InvalidArgument("KLSS key switching with a plaintext modulus (BGV) "
                          "is not available on the CUDA backend; use hybrid "
                          "keys");
  auto &I = ctx.impl();
  const KlssPlan &plan = I.klssPlan(ctx, level);
  const size_t n = I.n;
  const int l1 = level + 1;
  DeviceBuffer y = residueBuffer<W>(ctx, size_t(l1) * n);
  modUpInverse(ctx, *plan.ks, d, 0, plan.digits, residues<W>(y));
  DeviceBuffer td = residueBuffer<W>(ctx, size_t(plan.digits) * plan.r * n);
  klssModUpAll(ctx, plan, residues<W>(y), residues<W>(td));
  std::vector<const W *> tds;
  for (int j = 0; j < plan.digits; ++j)
    tds.push_back(residues<W>(td) + size_t(j) * plan.r * n);
  DeviceBuffer ip = residueBuffer<W>(ctx, size_t(2 * plan.groups) * plan.r * n);
  launchKlssInnerProduct(ctx, plan, tds, key, residues<W>(ip));
  DeviceBuffer acc = residueBuffer<W>(ctx, size_t(2 * plan.qp) * n);
  klssBackToQP(ctx, plan, residues<W>(ip), residues<W>(acc),
               residues<W>(acc) + size_t(plan.qp) * n);
  // ModDown in coefficient form straight into out, then its NTT in place
  // (adding the addend in its epilogue).
  modDownCoeffParts(ctx, *plan.down, static_cast<const W *>(residues<W>(acc)),
                    plan.qp, 2, out, l1);
  const std::vector<int> rows = iota(0, 2 * l1);
  std::vector<int> mods(2 * l1);
  for (int r = 0; r < 2 * l1; ++r)
    mods[r] = r % l1;
  EpilogueT<W> e;
  for (int p = 0; add && p < add_parts; ++p)
    e.b[p] = add + size_t(p) * add_stride * n;
  e.div = l1;
  launchNttForward(ctx, out, rows, out, rows, out, rows, mods, -1,
                   add ? &e : nullptr);
}

#define EMBER_KLSS_CHAIN(W)                                                    \
  template void klssModUpAll(const DeviceContext &, const KlssPlan &,          \
                             const W *, W *);                                  \
  template void launchKlssInnerProduct(                                        \
      const DeviceContext &, const KlssPlan &, const std::vector<const W *> &, \
      const BasicDeviceKlssKey<W> &, W *);                                     \
  template void klssBackToQP(const DeviceContext &, const KlssPlan &, W *,     \
                             W *, W *);                                        \
  template void modDownCoeffParts(const DeviceContext &, const SwitchPlan &,   \
                                  const W *, int, int, W *, int);              \
  template void keySwitchInto(const DeviceContext &, const W *, int,           \
                              const BasicDeviceKlssKey<W> &, W *, const W *,   \
                              int, int, uint64_t);
EMBER_KLSS_CHAIN(u64)
EMBER_KLSS_CHAIN(u32)
#undef EMBER_KLSS_CHAIN

// --- Public primitives
// ---------------------------------------------------------

namespace {

/// Row -> modulus map of a basis: a run of consecutive moduli (a digit, P,
/// T), or a run of Q followed by P from p_0 (q_0..q_l u P; the dropped
/// limb of a merged ModDown and rescale below the top, q_l u P); none for
/// another basis.
std::optional<ModMap> tryMapFor(const DeviceContext &ctx,
                                const std::vector<int> &basis) {
  const int qc = ctx.impl().q_count, total = ctx.impl().all_count;
  const int L = int(basis.size());
  if (L == 0)
    return std::nullopt;
  auto contiguous = [&](int from, int to) {
    for (int i = from + 1; i < to; ++i)
      if (basis[i] != basis[i - 1] + 1)
        return false;
    return true;
  };
  // A run of consecutive global indices (a digit, P, Q_top u P): position
  // off + r is the global index itself.
  if (contiguous(0, L) && basis[0] >= 0 && basis.back() < total)
    return ModMap{L, total, basis[0]};
  // q_a..q_b followed by p_0..p_j: row r is q_{a + r} up to b, then P.
  int l = 0;
  while (l < L && basis[l] < qc)
    ++l;
  if (l > 0 && l < L && basis[0] >= 0 && contiguous(0, l) && basis[l] == qc &&
      contiguous(l, L) && basis.back() < total)
    return ModMap{L, basis[l - 1], basis[0]};
  return std::nullopt;
}
ModMap mapFor(const DeviceContext &ctx, const std::vector<int> &basis) {
  if (basis.empty())
    throw InvalidArgument("empty basis");
  if (auto m = tryMapFor(ctx, basis))
    return *m;
  throw InvalidArgument(
      "the CUDA backend supports Q_l, Q_l u P, P and T bases");
}

template <typename W>
void checkSame(const BasicDevicePoly<W> &a, const BasicDevicePoly<W> &b,
               const char *op) {
  if (a.basis != b.basis || a.n != b.n)
    throw InvalidArgument(std::string(op) + ": operands have different bases");
  if (a.ntt != b.ntt)
    throw InvalidArgument(std::string(op) +
                          ": operands are in different forms (NTT/coeff)");
}

template <typename W = u64>
BasicDevicePoly<W> makePoly(const DeviceContext &ctx, std::vector<int> basis,
                            bool ntt) {
  requireWord<W>(ctx, "a device polynomial");
  BasicDevicePoly<W> p;
  p.n = ctx.impl().n;
  p.ntt = ntt;
  p.buf = DeviceBuffer(ctx, BasicDevicePoly<W>::wordsFor(basis.size() * p.n));
  p.basis = std::move(basis);
  return p;
}

/// `words` of temporaries: the caller's scratch when it holds them, else
/// a pool buffer (kept in `fallback`).
u64 *temporary(const DeviceContext &ctx, Scratch scratch, size_t words,
               DeviceBuffer &fallback) {
  if (scratch.data && scratch.words >= words)
    return scratch.data;
  fallback = DeviceBuffer(ctx, words);
  return fallback.data();
}

/// Checks that `out` can hold a result over `basis` and sets its form.
template <typename W>
void prepareOut(const DeviceContext &ctx, BasicDevicePoly<W> &out,
                const std::vector<int> &basis, bool ntt, const char *op) {
  requireWord<W>(ctx, op);
  const size_t n = ctx.impl().n;
  if (out.basis != basis || !out.data() ||
      out.buf.words() < BasicDevicePoly<W>::wordsFor(basis.size() * n))
    throw InvalidArgument(std::string(op) +
                          ": the output buffer does not fit the result");
  out.n = n;
  out.ntt = ntt;
}

} // namespace

namespace {
template <typename W>
void nttPoly(const DeviceContext &ctx, const BasicDevicePoly<W> &in,
             BasicDevicePoly<W> &out) {
  if (in.ntt)
    throw InvalidArgument("ntt needs a polynomial in coefficient form");
  prepareOut(ctx, out, in.basis, true, "ntt");
  const std::vector<int> rows = iota(0, int(in.limbs()));
  launchNttForward(ctx, in.data(), rows, out.data(), rows, out.data(), rows,
                   in.basis, -1, nullptr);
}
template <typename W>
void inttPoly(const DeviceContext &ctx, const BasicDevicePoly<W> &in,
              BasicDevicePoly<W> &out) {
  if (!in.ntt)
    throw InvalidArgument("intt needs a polynomial in NTT form");
  prepareOut(ctx, out, in.basis, false, "intt");
  const std::vector<int> rows = iota(0, int(in.limbs()));
  launchNttInverse(ctx, in.data(), rows, out.data(), rows, out.data(), rows,
                   in.basis, tablesOf<W>(ctx.impl()).inttPlain, true);
}
} // namespace

void ntt(const DeviceContext &ctx, DevicePoly &p) { nttPoly(ctx, p, p); }
void ntt(const DeviceContext &ctx, DevicePoly32 &p) { nttPoly(ctx, p, p); }
void intt(const DeviceContext &ctx, DevicePoly &p) { inttPoly(ctx, p, p); }
void intt(const DeviceContext &ctx, DevicePoly32 &p) { inttPoly(ctx, p, p); }
void ntt(const DeviceContext &ctx, const DevicePoly &in, DevicePoly &out) {
  nttPoly(ctx, in, out);
}
void intt(const DeviceContext &ctx, const DevicePoly &in, DevicePoly &out) {
  inttPoly(ctx, in, out);
}
void ntt(const DeviceContext &ctx, const DevicePoly32 &in, DevicePoly32 &out) {
  nttPoly(ctx, in, out);
}
void intt(const DeviceContext &ctx, const DevicePoly32 &in, DevicePoly32 &out) {
  inttPoly(ctx, in, out);
}

DevicePoly bconv(const DeviceContext &ctx, const DevicePoly &in,
                 const std::vector<int> &to) {
  DevicePoly out = makePoly(ctx, to, false);
  bconv(ctx, in, out, Scratch{});
  return out;
}

namespace {
/// BConv into `out` at either word: the inputs scaled by (B/b_i)^-1 (one
/// launch over a basis tryMapFor maps: a run of moduli, or q_a..q_b u P as
/// a merged switch's dropped limbs; else one per limb), then the
/// conversion.
template <typename W>
void bconvInto(const DeviceContext &ctx, const BasicDevicePoly<W> &in,
               BasicDevicePoly<W> &out, Scratch scratch) {
  if (in.ntt)
    throw InvalidArgument("bconv needs a polynomial in coefficient form");
  const std::vector<int> &to = out.basis;
  for (int t : to)
    if (std::find(in.basis.begin(), in.basis.end(), t) != in.basis.end())
      throw InvalidArgument("bconv: source and target bases overlap");
  prepareOut(ctx, out, to, false, "bconv");
  const int m = int(in.limbs());
  const BConvPlan &plan = ctx.impl().bconvPlan(ctx, in.basis, to);
  // The scaled inputs in the step's scratch where it holds them.
  const size_t n = ctx.impl().n;
  DeviceBuffer fallback;
  W *scaled = reinterpret_cast<W *>(temporary(
      ctx, scratch, BasicDevicePoly<W>::wordsFor(size_t(m) * n), fallback));
  if (const std::optional<ModMap> map = tryMapFor(ctx, in.basis))
    launchConstOp(ctx, true, scaled, in.data(), plan.hat_inv, m, m, *map);
  else
    for (int i = 0; i < m; ++i)
      launchConstOp(ctx, true, scaled + size_t(i) * n, in.limb(i),
                    {plan.hat_inv[i]}, 1, 1,
                    ModMap{1, ctx.impl().all_count, in.basis[i]});
  const W *c = wordsOf<W>(plan.consts);
  const size_t hat = plan.hat_words;
  launchBConv(
      ctx, {BConvJobT<W>{scaled, out.data(), c, c + hat, c + hat + m, nullptr,
                         reinterpret_cast<const int *>(plan.tmod.data()), m,
                         int(to.size())}});
}
} // namespace

void bconv(const DeviceContext &ctx, const DevicePoly &in, DevicePoly &out,
           Scratch scratch) {
  bconvInto(ctx, in, out, scratch);
}

DevicePoly32 bconv(const DeviceContext &ctx, const DevicePoly32 &in,
                   const std::vector<int> &to) {
  DevicePoly32 out = makePoly<u32>(ctx, to, false);
  bconv(ctx, in, out, Scratch{});
  return out;
}

void bconv(const DeviceContext &ctx, const DevicePoly32 &in, DevicePoly32 &out,
           Scratch scratch) {
  bconvInto(ctx, in, out, scratch);
}

DevicePoly modUp(const DeviceContext &ctx, const DevicePoly &in, int digit) {
  const int level = int(in.limbs()) - 1;
  if (level < 0 || level >= ctx.host().qCount() ||
      in.basis != ctx.host().qBasis(level))
    throw InvalidArgument("modUp: the polynomial is not over the expected "
                          "basis");
  DevicePoly out = makePoly(ctx, ctx.host().qpBasis(level), true);
  modUp(ctx, in, {digit}, {&out}, Scratch{});
  return out;
}

namespace {
/// ModUp of several digits at once, at either word: one INTT launch of all
/// the digits' limbs ((Q_j / q_i)^-1 folded in), one BConv launch (two jobs
/// per digit, straight into the rows around the digit's own limbs), one NTT
/// launch of every converted row where the outputs lie within a row table's
/// reach, and the digits' own limbs copied.
/// Row offsets (whole limbs) of polynomials from the lowest of them, so
/// that one launch's row table covers them all (base, off); false when one
/// is not a whole number of limbs from base or its rows_each rows lie past
/// the table's reach (pool buffers can lie gigabytes apart).
template <typename W, typename P>
bool rowOffsets(const std::vector<P *> &polys, size_t n, size_t rows_each,
                const W *&base, std::vector<int> &off) {
  base = polys.front()->data();
  for (const auto *p : polys)
    base = std::min<const W *>(base, p->data());
  off.clear();
  for (const auto *p : polys) {
    const std::ptrdiff_t d = p->data() - base;
    if (d % std::ptrdiff_t(n) ||
        d / std::ptrdiff_t(n) + std::ptrdiff_t(rows_each) > kMaxRowIndex)
      return false;
    off.push_back(int(d / std::ptrdiff_t(n)));
  }
  return true;
}

template <typename W>
void modUpInto(const DeviceContext &ctx, const BasicDevicePoly<W> &in,
               const std::vector<int> &digits,
               const std::vector<BasicDevicePoly<W> *> &outs, Scratch scratch) {
  if (!in.ntt)
    throw InvalidArgument("modUp needs a polynomial in NTT form");
  const Context<W> &h = hostOf<W>(ctx);
  const int level = int(in.limbs()) - 1;
  if (level < 0 || in.basis != h.qBasis(level))
    throw InvalidArgument("modUp: the polynomial is not over the expected "
                          "basis");
  if (digits.size() != outs.size() || digits.empty())
    throw InvalidArgument("modUp: one output per digit is needed");
  for (int digit : digits)
    if (digit < 0 || digit >= h.digitCount(level))
      throw InvalidArgument("digit " + std::to_string(digit) +
                            " does not exist at level " +
                            std::to_string(level));
  const std::vector<int> qp = h.qpBasis(level);
  for (BasicDevicePoly<W> *o : outs)
    prepareOut(ctx, *o, qp, true, "modUp");
  const KsPlan &plan = ctx.impl().ksPlan(ctx, level);
  const size_t n = in.n;
  // 0. The digits' own limbs, as they are: in a captured graph a branch of
  // its own beside the transforms (it only reads `in`, which nothing below
  // writes, and writes rows that nothing below touches), joined at the end.
  CaptureBranch own(ctx.impl().stream);
  auto copyOwn = [&] {
    for (size_t k = 0; k < digits.size(); ++k) {
      const int st = plan.start[digits[k]], sz = plan.size[digits[k]];
      if (sz)
        EMBER_CUDA_CHECK(cudaMemcpyAsync(
            outs[k]->limb(st), in.limb(st), size_t(sz) * n * sizeof(W),
            cudaMemcpyDeviceToDevice, ctx.impl().stream));
    }
  };
  if (EMBER_MODUP_COPY_BRANCH) {
    copyOwn();
    own.split();
  }
  // 1. INTT of every digit's limbs, one launch, (Q_j / q_i)^-1 folded in.
  std::vector<int> src, rows, y_off;
  for (int digit : digits) {
    y_off.push_back(int(src.size()));
    for (int i = 0; i < plan.size[digit]; ++i)
      src.push_back(plan.start[digit] + i);
  }
  rows = iota(0, int(src.size()));
  DeviceBuffer fallback;
  W *y = reinterpret_cast<W *>(temporary(
      ctx, scratch, BasicDevicePoly<W>::wordsFor(src.size() * n), fallback));
  launchNttInverse(ctx, in.data(), src, y, rows, y, rows, src,
                   wordsOf<W>(plan.intt_scale), true);
  // 2. BConv of each digit straight into the rows around its own limbs
  // (two jobs per digit), one launch.
  std::vector<BConvJobT<W>> jobs;
  const int *tmod = reinterpret_cast<const int *>(plan.tmod_up.data());
  const W *up = wordsOf<W>(plan.up);
  for (size_t k = 0; k < digits.size(); ++k) {
    const int j = digits[k], st = plan.start[j], sz = plan.size[j];
    const W *hat = up + plan.hat_off[j];
    const W *half = up + plan.half_off[j];
    const W *negb = up + plan.negb_off[j];
    const int *tm = tmod + plan.tmod_up_off[j];
    const W *yj = y + size_t(y_off[k]) * n;
    if (st > 0)
      jobs.push_back(BConvJobT<W>{yj, outs[k]->data(), hat, half, negb, nullptr,
                                  tm, sz, st});
    const int after = plan.qp - st - sz;
    if (after > 0)
      jobs.push_back(BConvJobT<W>{yj, outs[k]->limb(st + sz),
                                  hat + size_t(st) * sz, half, negb + st,
                                  nullptr, tm + st, sz, after});
  }
  launchBConv(ctx, jobs);
  // 3. NTT of every converted row in place: one launch when the outputs
  // lie a whole number of limbs apart within a row table's reach (an arena),
  // else one per digit (pool buffers can lie gigabytes apart).
  const W *base = nullptr;
  std::vector<int> off, nrows, nmods;
  const bool one = rowOffsets(outs, n, size_t(plan.qp), base, off);
  for (size_t k = 0; k < digits.size() && one; ++k) {
    const int st = plan.start[digits[k]], sz = plan.size[digits[k]];
    for (int t = 0; t < plan.qp; ++t)
      if (t < st || t >= st + sz) {
        nrows.push_back(off[k] + t);
        nmods.push_back(qp[t]);
      }
  }
  W *nbase = const_cast<W *>(base);
  if (one) {
    launchNttForward(ctx, nbase, nrows, nbase, nrows, nbase, nrows, nmods, -1,
                     nullptr);
  } else {
    for (size_t k = 0; k < digits.size(); ++k) {
      const int st = plan.start[digits[k]], sz = plan.size[digits[k]];
      std::vector<int> r, m;
      for (int t = 0; t < plan.qp; ++t)
        if (t < st || t >= st + sz) {
          r.push_back(t);
          m.push_back(qp[t]);
        }
      launchNttForward(ctx, outs[k]->data(), r, outs[k]->data(), r,
                       outs[k]->data(), r, m, -1, nullptr);
    }
  }
  if (EMBER_MODUP_COPY_BRANCH)
    own.join();
  else
    copyOwn();
}
} // namespace

void modUp(const DeviceContext &ctx, const DevicePoly &in,
           const std::vector<int> &digits,
           const std::vector<DevicePoly *> &outs, Scratch scratch) {
  modUpInto(ctx, in, digits, outs, scratch);
}

namespace {
template <typename W>
void checkModuli(const DeviceContext &ctx, const std::vector<int> &basis,
                 const char *op) {
  for (int g : basis)
    if (g < 0 || g >= hostOf<W>(ctx).allModuliCount())
      throw InvalidArgument(std::string(op) + ": modulus index " +
                            std::to_string(g) + " does not exist");
}

/// Exact BConv into `out` (its basis the targets), one launch: the kernel
/// scales by (B/b_i)^-1 itself, so no scratch.
template <typename W>
void bconvExactInto(const DeviceContext &ctx, const BasicDevicePoly<W> &in,
                    BasicDevicePoly<W> &out) {
  requireWord<W>(ctx, "bconvExact"); // before hostOf<W> in checkModuli
  if (in.ntt)
    throw InvalidArgument("bconvExact needs a polynomial in coefficient form");
  const std::vector<int> &to = out.basis;
  checkModuli<W>(ctx, in.basis, "bconvExact");
  checkModuli<W>(ctx, to, "bconvExact");
  for (int t : to)
    if (std::find(in.basis.begin(), in.basis.end(), t) != in.basis.end())
      throw InvalidArgument("bconvExact: source and target bases overlap");
  prepareOut(ctx, out, to, false, "bconvExact");
  const ExactPlan &plan = ctx.impl().exactPlan(ctx, in.basis, to);
  const int *ints = reinterpret_cast<const int *>(plan.ints.data());
  const W *c = wordsOf<W>(plan.consts);
  launchBConvExact(
      ctx, std::vector<ExactJobT<W>>{ExactJobT<W>{
               in.data(), out.data(), c, c + size_t(plan.t_count) * plan.m,
               wordsOf<W>(plan.hat_inv), ints, ints + plan.m, nullptr, plan.m,
               plan.t_count}});
}

template <typename W>
BasicDevicePoly<W> bconvExactPoly(const DeviceContext &ctx,
                                  const BasicDevicePoly<W> &in,
                                  const std::vector<int> &to) {
  BasicDevicePoly<W> out = makePoly<W>(ctx, to, false);
  bconvExactInto(ctx, in, out);
  return out;
}

template <typename W>
void klssModUpPoly(const DeviceContext &ctx, const BasicDevicePoly<W> &digit,
                   BasicDevicePoly<W> &out, Scratch scratch) {
  requireWord<W>(ctx, "klssModUp");
  if (!digit.ntt)
    throw InvalidArgument("klssModUp needs a polynomial in NTT form");
  const Context<W> &h = hostOf<W>(ctx);
  if (!h.hasKlss())
    throw InvalidArgument("klssModUp: the parameter set " + h.describe() +
                          " has no KLSS form (no temporary basis T)");
  const std::vector<int> t_basis = h.tBasis();
  checkModuli<W>(ctx, digit.basis, "klssModUp");
  for (int g : digit.basis)
    if (g >= h.moduliCount())
      throw InvalidArgument("klssModUp: the digit must be over Q u P limbs");
  const ExactPlan &plan = ctx.impl().exactPlan(ctx, digit.basis, t_basis);
  const size_t n = digit.n;
  // INTT with n^-1 (B/b_i)^-1 folded in, exact BConv to T, NTT over T.
  const int m = plan.m;
  prepareOut(ctx, out, t_basis, true, "klssModUp");
  DeviceBuffer fallback;
  W *y = reinterpret_cast<W *>(temporary(
      ctx, scratch, BasicDevicePoly<W>::wordsFor(size_t(m) * n), fallback));
  const std::vector<int> rows = iota(0, m);
  launchNttInverse(ctx, static_cast<const W *>(digit.data()), rows, y, rows, y,
                   rows, digit.basis, wordsOf<W>(plan.intt_scale), false);
  const int *ints = reinterpret_cast<const int *>(plan.ints.data());
  const W *c = wordsOf<W>(plan.consts);
  launchBConvExact(ctx,
                   std::vector<ExactJobT<W>>{ExactJobT<W>{
                       y, out.data(), c, c + size_t(plan.t_count) * m, nullptr,
                       ints, ints + m, nullptr, m, plan.t_count}});
  const std::vector<int> t_rows = iota(0, plan.t_count);
  launchNttForward(ctx, static_cast<const W *>(out.data()), t_rows, out.data(),
                   t_rows, out.data(), t_rows, t_basis, -1,
                   static_cast<const EpilogueT<W> *>(nullptr));
}

/// klssModUp of all the digits of one key switch at once (a compiled
/// plan's klss_mod_up): when the digits are the level's own
/// (digitLimbs(j, level), every one) and lie within a row table's reach of
/// each other, one INTT of all their limbs (each digit's hat^-1 folded in,
/// the level's KsPlan), one exact BConv launch to T for every digit and one
/// NTT over T of every output where the outputs lie within reach too (else
/// one per output); otherwise one klssModUp per digit. Scratch: the
/// digits' limbs.
template <typename W>
void klssModUpDigits(const DeviceContext &ctx,
                     const std::vector<const BasicDevicePoly<W> *> &digits,
                     const std::vector<BasicDevicePoly<W> *> &outs,
                     Scratch scratch) {
  requireWord<W>(ctx, "klssModUp");
  if (digits.size() != outs.size() || digits.empty())
    throw InvalidArgument("klssModUp: one output per digit is needed");
  const Context<W> &h = hostOf<W>(ctx);
  const size_t n = ctx.impl().n;
  // Every digit of the level, each its plan's run of consecutive Q limbs
  // (the plan is cached: nothing built per call).
  const int level =
      digits.back()->basis.empty() ? -1 : digits.back()->basis.back();
  const KlssPlan *kp = h.hasKlss() && level >= 0 && level < h.qCount() &&
                               int(digits.size()) == h.digitCount(level)
                           ? &ctx.impl().klssPlan(ctx, level)
                           : nullptr;
  for (size_t j = 0; kp && j < digits.size(); ++j) {
    const std::vector<int> &b = digits[j]->basis;
    if (!digits[j]->ntt || int(b.size()) != kp->size[j] ||
        b.front() != kp->start[j] || b.back() != b.front() + int(b.size()) - 1)
      kp = nullptr;
  }
  const W *in_base = nullptr;
  std::vector<int> in_off;
  if (!kp || !rowOffsets(digits, n, size_t(level) + 1, in_base, in_off)) {
    for (size_t j = 0; j < digits.size(); ++j)
      klssModUpPoly(ctx, *digits[j], *outs[j], scratch);
    return;
  }
  const KlssPlan &plan = *kp;
  const std::vector<int> t_basis = h.tBasis();
  for (BasicDevicePoly<W> *o : outs)
    prepareOut(ctx, *o, t_basis, true, "klssModUp");
  // 1. INTT of every digit's limbs into y (q_0..q_level in order).
  std::vector<int> src, rows = iota(0, level + 1), mods = rows;
  for (size_t j = 0; j < digits.size(); ++j)
    for (int i = 0; i < plan.size[j]; ++i)
      src.push_back(in_off[j] + i);
  DeviceBuffer fallback;
  W *y = reinterpret_cast<W *>(
      temporary(ctx, scratch,
                BasicDevicePoly<W>::wordsFor(size_t(level + 1) * n), fallback));
  launchNttInverse(ctx, in_base, src, y, rows, y, rows, mods,
                   wordsOf<W>(plan.ks->intt_scale), true);
  // 2. Exact BConv of every digit to T, one launch.
  const W *c = wordsOf<W>(plan.consts);
  std::vector<ExactJobT<W>> jobs;
  for (int j = 0; j < plan.digits; ++j)
    jobs.push_back(ExactJobT<W>{
        y + size_t(plan.start[j]) * n, outs[j]->data(), c + plan.up_hat[j],
        c + plan.up_negb[j], nullptr, plan.intsPtr(plan.up_smod[j]),
        plan.intsPtr(plan.t_mods), nullptr, plan.size[j], plan.r});
  launchBConvExact(ctx, jobs);
  // 3. NTT over T of every output in place.
  const W *out_base = nullptr;
  std::vector<int> out_off;
  if (rowOffsets(outs, n, size_t(plan.r), out_base, out_off)) {
    std::vector<int> trows, tmods;
    for (int off : out_off)
      for (int k = 0; k < plan.r; ++k) {
        trows.push_back(off + k);
        tmods.push_back(t_basis[k]);
      }
    W *b = const_cast<W *>(out_base);
    launchNttForward(ctx, static_cast<const W *>(b), trows, b, trows, b, trows,
                     tmods, -1, static_cast<const EpilogueT<W> *>(nullptr));
  } else {
    const std::vector<int> t_rows = iota(0, plan.r);
    for (BasicDevicePoly<W> *o : outs)
      launchNttForward(ctx, static_cast<const W *>(o->data()), t_rows,
                       o->data(), t_rows, o->data(), t_rows, t_basis, -1,
                       static_cast<const EpilogueT<W> *>(nullptr));
  }
}

template <typename W>
void klssInnerProductPolys(
    const DeviceContext &ctx, const BasicDeviceKlssKey<W> &key,
    const std::vector<const BasicDevicePoly<W> *> &tdigits, int level,
    BasicDevicePoly<W> &acc0, BasicDevicePoly<W> &acc1, Scratch scratch) {
  requireWord<W>(ctx, "klssInnerProduct");
  const Context<W> &h = hostOf<W>(ctx);
  const KlssPlan &plan = ctx.impl().klssPlan(ctx, level);
  const std::vector<int> t_basis = h.tBasis();
  std::vector<const W *> td;
  for (const BasicDevicePoly<W> *p : tdigits) {
    if (!p || p->basis != t_basis || !p->ntt)
      throw InvalidArgument("klssInnerProduct: the digits must be over T in "
                            "NTT form (klssModUp results)");
    td.push_back(p->data());
  }
  // The products over T, [b, a][group][r] rows: the caller's scratch (a
  // plan's arena) when it holds them.
  DeviceBuffer fallback;
  W *ip = reinterpret_cast<W *>(temporary(
      ctx, scratch,
      BasicDevicePoly<W>::wordsFor(size_t(2 * plan.groups) * plan.r * h.n()),
      fallback));
  launchKlssInnerProduct(ctx, plan, td, key, ip);
  const std::vector<int> qp = h.qpBasis(level);
  for (BasicDevicePoly<W> *acc : {&acc0, &acc1})
    if (acc->basis != qp ||
        acc->buf.words() != BasicDevicePoly<W>::wordsFor(qp.size() * h.n()))
      *acc = makePoly<W>(ctx, qp, false);
    else
      acc->ntt = false;
  klssBackToQP(ctx, plan, ip, acc0.data(), acc1.data());
}
} // namespace

DevicePoly bconvExact(const DeviceContext &ctx, const DevicePoly &in,
                      const std::vector<int> &to) {
  return bconvExactPoly(ctx, in, to);
}
DevicePoly32 bconvExact(const DeviceContext &ctx, const DevicePoly32 &in,
                        const std::vector<int> &to) {
  return bconvExactPoly(ctx, in, to);
}
void bconvExact(const DeviceContext &ctx, const DevicePoly &in,
                DevicePoly &out) {
  bconvExactInto(ctx, in, out);
}
void bconvExact(const DeviceContext &ctx, const DevicePoly32 &in,
                DevicePoly32 &out) {
  bconvExactInto(ctx, in, out);
}

DevicePoly klssModUp(const DeviceContext &ctx, const DevicePoly &digit) {
  DevicePoly out = makePoly(ctx, ctx.host().tBasis(), true);
  klssModUp(ctx, digit, out, Scratch{});
  return out;
}
DevicePoly32 klssModUp(const DeviceContext &ctx, const DevicePoly32 &digit) {
  DevicePoly32 out = makePoly<u32>(ctx, ctx.host32().tBasis(), true);
  klssModUp(ctx, digit, out, Scratch{});
  return out;
}
void klssModUp(const DeviceContext &ctx, const DevicePoly &digit,
               DevicePoly &out, Scratch scratch) {
  klssModUpPoly(ctx, digit, out, scratch);
}
void klssModUp(const DeviceContext &ctx, const DevicePoly32 &digit,
               DevicePoly32 &out, Scratch scratch) {
  klssModUpPoly(ctx, digit, out, scratch);
}

void klssModUp(const DeviceContext &ctx,
               const std::vector<const DevicePoly *> &digits,
               const std::vector<DevicePoly *> &outs, Scratch scratch) {
  klssModUpDigits(ctx, digits, outs, scratch);
}
void klssModUp(const DeviceContext &ctx,
               const std::vector<const DevicePoly32 *> &digits,
               const std::vector<DevicePoly32 *> &outs, Scratch scratch) {
  klssModUpDigits(ctx, digits, outs, scratch);
}

void klssInnerProduct(const DeviceContext &ctx, const DeviceKlssKey &key,
                      const std::vector<const DevicePoly *> &tdigits, int level,
                      DevicePoly &acc0, DevicePoly &acc1, Scratch scratch) {
  klssInnerProductPolys(ctx, key, tdigits, level, acc0, acc1, scratch);
}
void klssInnerProduct(const DeviceContext &ctx, const DeviceKlssKey32 &key,
                      const std::vector<const DevicePoly32 *> &tdigits,
                      int level, DevicePoly32 &acc0, DevicePoly32 &acc1,
                      Scratch scratch) {
  klssInnerProductPolys(ctx, key, tdigits, level, acc0, acc1, scratch);
}

namespace {
template <typename W> struct RaisedDigitsT { const W *d[kMaxDigits]; };
/// Lifted addends that a key switch's inner product adds to its kept rows,
/// acc_p + P y_p (keySwitchDown): y_p's row t (y_p null: none) times
/// p_mod[t] = P mod the row's modulus, summed with the products before the
/// one reduction.
template <typename W> struct IpLiftT {
  const W *y[2] = {};
  const W *p_mod = nullptr;
};

/// The hybrid key-switch inner product of raised digits (each over Q_l u P,
/// NTT form, as modUp returns them): acc_0 = sum_j d_j b_j, acc_1 = sum_j
/// d_j a_j over Q_l u P, summed in a double word over the digits and
/// reduced once, as ember::keySwitchInnerProduct does on the CPU (same
/// residues). At 64-bit words the sums are 128-bit; at 32-bit words 64-bit
/// sums fold every 8 products (hi 2^32 + lo -> hi [2^32]_q + lo, below
/// 2^62). Bytes: 3 D + 2 words per coefficient of each of the l+1+K rows
/// (the key dominates). Work: 2 D multiply-adds and 2 reductions per
/// coefficient. With lift.p_mod (rows of Q only), acc_p + P y_p: one more
/// product in each sum and one more word read per addend.
template <typename W>
__global__ void __launch_bounds__(kEwThreads)
    raisedInnerProductKernel(TablesT<W> T, RaisedDigitsT<W> ds, int count,
                             const W *key, int key_rows, int key_q_lo,
                             int key_p_off, int q_lo, int q_n, int p_base,
                             W *acc0, W *acc1, const uint32_t *index, int row0,
                             const __grid_constant__ IpLiftT<W> lift) {
  const int t = row0 + int(blockIdx.y), log_n = T.logN;
  const size_t x = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  // The lifted addends' point and factor (rows of Q only).
  const size_t at = (size_t(t) << log_n) + x;
  const W pw = lift.p_mod ? lift.p_mod[t] : 0;
  // The digits' residue: x, or x's image under the automorphism (a gather
  // of runs that the bit-reversed layout keeps contiguous).
  const size_t src = index ? __ldg(index + x) : x;
  // Row t's modulus: q[q_lo + t] for the Q run, then the P run's.
  const int g = t < q_n ? q_lo + t : p_base + t - q_n;
  const W q = T.q[g], rh = T.ratioHi[g], rl = T.ratioLo[g];
  // The key's row of modulus g: g itself for a whole key; in a sharded
  // one, its Q rows start at key_q_lo and its P rows follow.
  const int kr = g < T.qCount ? g - key_q_lo : g - key_p_off;
  // Unrolled over the bound so that every ds.d[j] is a constant index into
  // the parameter space: a loop to `count` made ptxas copy ds to a 128-byte
  // local stack frame per thread, whose spills tripled the kernel's DRAM
  // writes (102 us instead of 61 us at set B, Nsight Compute).
  if constexpr (sizeof(W) == 8) {
    u64 h0 = 0, l0 = 0, h1 = 0, l1 = 0;
#pragma unroll
    for (int j = 0; j < kMaxDigits; ++j) {
      if (j >= count)
        break;
      const u64 v = ds.d[j][(size_t(t) << log_n) + src];
      const u64 kb = key[(size_t(2 * j * key_rows + kr) << log_n) + x];
      const u64 ka = key[(size_t((2 * j + 1) * key_rows + kr) << log_n) + x];
      mac128(h0, l0, v, kb);
      mac128(h1, l1, v, ka);
    }
    if (lift.y[0])
      mac128(h0, l0, lift.y[0][at], pw);
    if (lift.y[1])
      mac128(h1, l1, lift.y[1][at], pw);
    acc0[(size_t(t) << log_n) + x] = barrett(h0, l0, q, rh, rl);
    acc1[(size_t(t) << log_n) + x] = barrett(h1, l1, q, rh, rl);
  } else {
    const u64 fold = barrett<u32>(1, 0, q, rh, rl); // 2^32 mod q
    u64 s0 = 0, s1 = 0;
#pragma unroll
    for (int j = 0; j < kMaxDigits; ++j) {
      if (j >= count)
        break;
      const u64 v = ds.d[j][(size_t(t) << log_n) + src];
      s0 += v * key[(size_t(2 * j * key_rows + kr) << log_n) + x];
      s1 += v * key[(size_t((2 * j + 1) * key_rows + kr) << log_n) + x];
      if ((j & 7) == 7) {
        s0 = (s0 >> 32) * fold + u32(s0);
        s1 = (s1 >> 32) * fold + u32(s1);
      }
    }
    // At most 7 products since the last fold (each below 2^60) over its
    // 2^62 + 2^32: one more keeps the sum below 2^64.
    if (lift.y[0])
      s0 += u64(lift.y[0][at]) * pw;
    if (lift.y[1])
      s1 += u64(lift.y[1][at]) * pw;
    acc0[(size_t(t) << log_n) + x] = barrett(u32(s0 >> 32), u32(s0), q, rh, rl);
    acc1[(size_t(t) << log_n) + x] = barrett(u32(s1 >> 32), u32(s1), q, rh, rl);
  }
}

/// The arguments of one raised inner product's launches (rows of Q_l u P).
template <typename W> struct RaisedIp {
  RaisedDigitsT<W> ds{};
  int count = 0;
  const W *key = nullptr;
  int key_rows = 0, key_q_lo = 0, key_p_off = 0, q_lo = 0, q_n = 0, p_base = 0,
      rows = 0;
  W *acc0 = nullptr, *acc1 = nullptr;
  const uint32_t *index = nullptr;
};

/// Rows [row0, row0 + rows) of the inner product, on the context's stream;
/// with `lift`, rows of Q with their lifted addends (IpLiftT).
template <typename W>
void launchRaisedRows(const DeviceContext &ctx, const RaisedIp<W> &a, int row0,
                      int rows, const IpLiftT<W> &lift = {}) {
  if (rows <= 0)
    return;
  const auto &I = ctx.impl();
  raisedInnerProductKernel<W><<<ewGrid(I, rows), ewBlock(I), 0, I.stream>>>(
      tablesOf<W>(I), a.ds, a.count, a.key, a.key_rows, a.key_q_lo, a.key_p_off,
      a.q_lo, a.q_n, a.p_base, a.acc0, a.acc1, a.index, row0, lift);
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}

/// The inner product over raised digits at either word (the public
/// keySwitchInnerProduct forms): checks, shapes acc0 and acc1, and returns
/// the launches' arguments (launchRaisedRows).
template <typename W>
RaisedIp<W> prepareRaisedInnerProduct(
    const DeviceContext &ctx, const BasicDeviceSwitchingKey<W> &key,
    const std::vector<const BasicDevicePoly<W> *> &digits,
    BasicDevicePoly<W> &acc0, BasicDevicePoly<W> &acc1, uint64_t galois) {
  requireWord<W>(ctx, "keySwitchInnerProduct");
  auto &I = ctx.impl();
  if (digits.empty())
    throw InvalidArgument("keySwitchInnerProduct: no digits");
  const uint32_t *index = galois ? I.galoisIndex(ctx, galois) : nullptr;
  const BasicDevicePoly<W> &first = *digits.front();
  // A run of Q limbs, then a run of P limbs: q_0..q_l u p_0..p_{k-1} for
  // ModUp results, p_0 alone for the encapsulation key s -> s', a device's
  // share (q[12:24] u p[4:8]) when the limbs are split over GPUs. The key
  // holds every limb of Q u P: row t reads its modulus's rows.
  const Context<W> &h = hostOf<W>(ctx);
  const std::vector<int> &qp = first.basis;
  const int q_n = static_cast<int>(std::count_if(
      qp.begin(), qp.end(), [&](int m) { return m < h.qCount(); }));
  const int q_lo = q_n ? qp.front() : 0;
  const int p_base = q_n < static_cast<int>(qp.size()) ? qp[q_n] : h.qCount();
  bool runs = !qp.empty();
  for (int t = 0; t < static_cast<int>(qp.size()); ++t)
    runs = runs && qp[t] == (t < q_n ? q_lo + t : p_base + t - q_n) &&
           qp[t] < h.qCount() + h.pCount();
  if (!runs)
    throw InvalidArgument("keySwitchInnerProduct: the digits must be over a "
                          "run of Q limbs followed by a run of P limbs "
                          "(modUp results, or a share of them)");
  // The key's rows: all of Q u P, or a shard that must hold the digits'.
  const int key_q_lo = key.whole() ? 0 : key.q_lo;
  const int key_q_n = key.whole() ? h.qCount() : key.q_n;
  const int key_p_off = key.whole() ? 0 : h.qCount() + key.p_lo - key.q_n;
  for (int m : qp)
    if (m < h.qCount() ? m < key_q_lo || m >= key_q_lo + key_q_n
                       : m - key_p_off < key_q_n || m - key_p_off >= key.rows)
      throw InvalidArgument("keySwitchInnerProduct: the key on this GPU holds "
                            "no row of modulus " +
                            std::to_string(m) +
                            " (a key sharded by rows: KeyRows)");
  if (static_cast<int>(digits.size()) > key.digits ||
      digits.size() > size_t(kMaxDigits))
    throw InvalidArgument(
        "keySwitchInnerProduct: " + std::to_string(digits.size()) +
        " digits, the key has " + std::to_string(key.digits));
  RaisedIp<W> a;
  for (size_t j = 0; j < digits.size(); ++j) {
    if (digits[j]->basis != qp || !digits[j]->ntt)
      throw InvalidArgument("keySwitchInnerProduct: digits over different "
                            "bases or not in NTT form");
    a.ds.d[j] = digits[j]->data();
  }
  for (BasicDevicePoly<W> *acc : {&acc0, &acc1})
    if (acc->basis != qp || !acc->data() ||
        acc->buf.words() < BasicDevicePoly<W>::wordsFor(qp.size() * h.n()))
      *acc = makePoly<W>(ctx, qp, true);
    else
      acc->ntt = true;
  a.count = int(digits.size());
  a.key = key.data();
  a.key_rows = key.rows;
  a.key_q_lo = key_q_lo;
  a.key_p_off = key_p_off;
  a.q_lo = q_lo;
  a.q_n = q_n;
  a.p_base = p_base;
  a.rows = int(qp.size());
  a.acc0 = acc0.data();
  a.acc1 = acc1.data();
  a.index = index;
  return a;
}

template <typename W>
void raisedInnerProduct(const DeviceContext &ctx,
                        const BasicDeviceSwitchingKey<W> &key,
                        const std::vector<const BasicDevicePoly<W> *> &digits,
                        BasicDevicePoly<W> &acc0, BasicDevicePoly<W> &acc1,
                        uint64_t galois) {
  const RaisedIp<W> a =
      prepareRaisedInnerProduct(ctx, key, digits, acc0, acc1, galois);
  launchRaisedRows(ctx, a, 0, a.rows);
}
} // namespace

void keySwitchInnerProduct(const DeviceContext &ctx,
                           const DeviceSwitchingKey &key,
                           const std::vector<const DevicePoly *> &digits,
                           DevicePoly &acc0, DevicePoly &acc1,
                           uint64_t galois) {
  raisedInnerProduct(ctx, key, digits, acc0, acc1, galois);
}

void keySwitchInnerProduct(const DeviceContext &ctx,
                           const DeviceSwitchingKey32 &key,
                           const std::vector<const DevicePoly32 *> &digits,
                           DevicePoly32 &acc0, DevicePoly32 &acc1,
                           uint64_t galois) {
  raisedInnerProduct(ctx, key, digits, acc0, acc1, galois);
}

DevicePoly modSwitchDown(const DeviceContext &ctx, const DevicePoly &in,
                         const std::vector<int> &keep, uint64_t plain_modulus) {
  DevicePoly out = makePoly(ctx, keep, in.ntt);
  modSwitchDown(ctx, in, out, Scratch{}, plain_modulus);
  return out;
}

void modSwitchDown(const DeviceContext &ctx, const DevicePoly &in,
                   DevicePoly &out, Scratch scratch, uint64_t plain_modulus) {
  modSwitchDown(ctx, {&in}, {}, {&out}, scratch, plain_modulus);
}

namespace {

/// Switches parts of one shape in one INTT, one BConv and one NTT launch
/// (at most 3 with lifted addends, 4 without: the launch's buffers); the
/// first lifted.size() parts have lifted addends, read permuted by X ->
/// X^galois when it is not 0 (no dropped Q limb then). `kept_lifted`: the
/// inputs' kept rows already hold x + P y (keySwitchDown's inner product),
/// so the last NTT adds nothing. Scratch z: parts x drop rows, then lifted x
/// drop_q rows. Either word.
template <typename W>
void switchGroup(const DeviceContext &ctx, const SwitchPlan &plan,
                 const std::vector<const BasicDevicePoly<W> *> &in,
                 const std::vector<const BasicDevicePoly<W> *> &lifted,
                 const std::vector<BasicDevicePoly<W> *> &out, W *z,
                 uint32_t galois = 0,
                 const std::function<void()> *between = nullptr,
                 bool kept_lifted = false) {
  const size_t n = ctx.impl().n;
  const int parts = int(in.size()), k = plan.keep, d = plan.drop;
  const int m = int(lifted.size()), dq = m ? plan.drop_q : 0;
  const std::vector<int> &basis = in[0]->basis;
  W *fix = z + size_t(parts) * d * n;
  const W *lift = wordsOf<W>(plan.lift);
  // The dropped Q limbs of x + P y (the INTT reads them from fix).
  if (m * dq) {
    if (m * dq > kMaxLiftRows)
      throw InvalidArgument("modSwitchDown: too many dropped Q limbs with a "
                            "lifted addend");
    LiftArgsT<W> a{};
    for (int p = 0; p < m; ++p)
      for (int j = 0; j < dq; ++j) {
        const int r = p * dq + j;
        a.x[r] = in[p]->limb(k + j);
        a.y[r] = lifted[p]->limb(k + j);
        a.out[r] = fix + size_t(r) * n;
        a.mod[r] = basis[k + j];
        a.c[r] = lift + 2 * (k + j);
      }
    const auto &I = ctx.impl();
    liftKernel<W>
        <<<ewGrid(I, m * dq), ewBlock(I), 0, I.stream>>>(tablesOf<W>(I), a);
    EMBER_CUDA_LAUNCH_CHECK(I.stream);
  }
  // INTT of every part's dropped limbs with (D/d_j)^-1 folded in.
  // Source buffers: [fix,] the parts' inputs.
  RowsT<W> src, mid;
  const int first = m * dq ? 1 : 0;
  if (first)
    src.bases.push_back(fix);
  mid.bases.push_back(z);
  std::vector<int> mods;
  for (int p = 0; p < parts; ++p) {
    src.bases.push_back(const_cast<W *>(in[p]->data()));
    for (int j = 0; j < d; ++j) {
      const bool lifted_row = p < m && j < dq;
      src.buf.push_back(uint8_t(lifted_row ? 0 : first + p));
      src.rows.push_back(lifted_row ? p * dq + j : k + j);
      mid.rows.push_back(p * d + j);
      mods.push_back(basis[k + j]);
    }
  }
  launchNttInverse(ctx, src, mid, mid, mods, wordsOf<W>(plan.intt_scale),
                   false);
  // Centred BConv D -> keep, into the outputs.
  const W *c = wordsOf<W>(plan.consts);
  std::vector<BConvJobT<W>> jobs;
  for (int p = 0; p < parts; ++p)
    jobs.push_back(
        BConvJobT<W>{z + size_t(p) * d * n, out[p]->data(), c,
                     c + size_t(k) * d, c + size_t(k) * d + d, nullptr,
                     reinterpret_cast<const int *>(plan.tmod.data()), d, k});
  launchBConv(ctx, jobs);
  // The kept rows of the inputs are read from here on (keySwitchDown's
  // join).
  if (between && *between)
    (*between)();
  // NTT in place with (x - conv) D^-1 [+ y P D^-1] in its epilogue.
  RowsT<W> o;
  std::vector<int> keep_mods;
  EpilogueT<W> e;
  for (int p = 0; p < parts; ++p) {
    o.bases.push_back(out[p]->data());
    for (int i = 0; i < k; ++i) {
      o.buf.push_back(uint8_t(p));
      o.rows.push_back(i);
      keep_mods.push_back(basis[i]);
    }
    e.a[p] = in[p]->data();
    e.b[p] = p < m && !kept_lifted ? lifted[p]->data() : nullptr;
  }
  const bool add = m && !kept_lifted;
  e.c = wordsOf<W>(plan.inv);
  // y P D^-1; without a dropped Q limb D = P and the factor is 1.
  e.bc = add && plan.drop_q ? lift : nullptr;
  e.galois = add ? galois : 0;
  e.div = k;
  launchNttForward(ctx, o, o, o, keep_mods, -1, &e);
}

/// The modulus switches of several parts (rns.h modSwitchDown: keep a
/// proper prefix; lifted addends for the first parts), at either word:
/// groups of parts in one INTT, one BConv and one NTT launch (switchGroup).
template <typename W>
void switchDownInto(const DeviceContext &ctx,
                    const std::vector<const BasicDevicePoly<W> *> &in,
                    const std::vector<const BasicDevicePoly<W> *> &lifted,
                    const std::vector<BasicDevicePoly<W> *> &out,
                    Scratch scratch, uint64_t plain_modulus = 0,
                    uint64_t lifted_galois = 0,
                    const std::function<void()> *between = nullptr,
                    bool kept_lifted = false) {
  // With t and lifted addends (BGV's merged ModDown), the lifted terms are
  // t's business of no constant: the pre-pass and y P D^-1 do not change,
  // the conversion's constants carry t.
  if (in.empty() || out.size() != in.size() || lifted.size() > in.size())
    throw InvalidArgument("modSwitchDown: one output per input and at most "
                          "one lifted addend per input");
  const BasicDevicePoly<W> &first = *in[0];
  const std::vector<int> keep = out[0]->basis;
  for (size_t p = 0; p < in.size(); ++p) {
    if (in[p]->basis != first.basis || in[p]->ntt != first.ntt ||
        out[p]->basis != keep)
      throw InvalidArgument("modSwitchDown: the polynomials switched "
                            "together must share their bases and form");
    if (keep.empty() || keep.size() >= first.basis.size() ||
        !std::equal(keep.begin(), keep.end(), first.basis.begin()))
      throw InvalidArgument("modSwitchDown: the CUDA backend keeps a proper "
                            "prefix of the polynomial's basis");
    prepareOut(ctx, *out[p], keep, first.ntt, "modSwitchDown");
  }
  auto &I = ctx.impl();
  const SwitchPlan &plan = I.switchPlan(ctx, first.basis, keep, plain_modulus);
  if (!lifted.empty()) {
    if (!first.ntt || !plan.lift.data())
      throw InvalidArgument("modSwitchDown: a lifted addend (x + P y) needs "
                            "NTT form and special primes among the dropped "
                            "limbs");
    const std::vector<int> q_part(
        first.basis.begin(), first.basis.begin() + keep.size() + plan.drop_q);
    for (const BasicDevicePoly<W> *y : lifted)
      if (!y->ntt || y->basis != q_part)
        throw InvalidArgument("modSwitchDown: a lifted addend must be over "
                              "the input's Q limbs, in NTT form");
    if (lifted_galois && plan.drop_q)
      throw InvalidArgument("modSwitchDown: permuted lifted addends "
                            "(lifted_galois) need a plain ModDown (no Q "
                            "limb dropped)");
  }
  if (lifted_galois && lifted.empty())
    throw InvalidArgument("modSwitchDown: lifted_galois without lifted "
                          "addends");
  if (lifted_galois && (lifted_galois % 2 == 0 || lifted_galois >= 2 * first.n))
    throw InvalidArgument("modSwitchDown: Galois element " +
                          std::to_string(lifted_galois) +
                          " must be odd and below 2N");
  const size_t n = in[0]->n;
  if (!first.ntt) { // coefficient form
    for (size_t p = 0; p < in.size(); ++p) {
      if (sizeof(W) == 8 || plan.drop <= 32) { // one fused kernel
        modDownCoeffParts(ctx, plan, in[p]->data(), int(in[p]->limbs()), 1,
                          out[p]->data(), int(keep.size()));
      } else { // more dropped limbs than the kernel's registers hold
        if (plain_modulus)
          throw InvalidArgument("modSwitchDown: more than 32 dropped limbs "
                                "in coefficient form with a plaintext "
                                "modulus");
        const BasicDevicePoly<W> r = modSwitchDown(ctx, *in[p], keep);
        EMBER_CUDA_CHECK(cudaMemcpyAsync(out[p]->data(), r.data(),
                                         keep.size() * n * sizeof(W),
                                         cudaMemcpyDeviceToDevice, I.stream));
      }
    }
    return;
  }
  // Launch buffers: the parts' inputs, and the lifted limbs' pre-pass.
  const int group = lifted.empty() ? kMaxBases : kMaxBases - 1;
  const int parts = int(in.size()), m = int(lifted.size());
  const int per = std::min(parts, group);
  DeviceBuffer fallback;
  W *z = reinterpret_cast<W *>(temporary(
      ctx, scratch,
      BasicDevicePoly<W>::wordsFor(
          (size_t(per) * plan.drop + size_t(std::min(m, per)) * plan.drop_q) *
          n),
      fallback));
  for (int p0 = 0; p0 < parts; p0 += group) {
    const int p1 = std::min(parts, p0 + group);
    auto slice = [&](const auto &v) {
      using V = std::decay_t<decltype(v)>;
      const int hi = std::min(int(v.size()), p1);
      return hi <= p0 ? V() : V(v.begin() + p0, v.begin() + hi);
    };
    switchGroup<W>(ctx, plan, slice(in), slice(lifted), slice(out), z,
                   uint32_t(lifted_galois), p0 == 0 ? between : nullptr,
                   kept_lifted);
  }
}

/// Whether byte ranges [a, a + na) and [b, b + nb) meet.
bool meets(const void *a, size_t na, const void *b, size_t nb) {
  const char *x = static_cast<const char *>(a),
             *y = static_cast<const char *>(b);
  return x < y + nb && y < x + na;
}

/// keySwitchDown at either word. In a capture: the inner product's dropped
/// rows [keep, l+1+K) and the switch's lift, INTT and BConv (which read only
/// those rows) on one branch, its kept rows [0, keep) on another from the
/// same start, the last NTT after both; the first branch's kernel nodes go
/// to priority_nodes.
template <typename W>
void keySwitchDownParts(const DeviceContext &ctx,
                        const BasicDeviceSwitchingKey<W> &key,
                        const std::vector<const BasicDevicePoly<W> *> &digits,
                        uint64_t galois, BasicDevicePoly<W> &acc0,
                        BasicDevicePoly<W> &acc1,
                        const std::vector<const BasicDevicePoly<W> *> &lifted,
                        const std::vector<BasicDevicePoly<W> *> &out,
                        Scratch scratch, uint64_t plain_modulus,
                        uint64_t lifted_galois) {
  const RaisedIp<W> ip =
      prepareRaisedInnerProduct(ctx, key, digits, acc0, acc1, galois);
  auto &I = ctx.impl();
  const std::vector<const BasicDevicePoly<W> *> in{&acc0, &acc1};
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  EMBER_CUDA_CHECK(cudaStreamIsCapturing(I.stream, &status));
  const int keep = out.size() == 2 && out[0] ? int(out[0]->basis.size()) : 0;
  const size_t n = I.n;
  // The switch writes its results and scratch while the kept rows' inner
  // product still reads the digits: they must not share bytes (the memory
  // plan's ks-overlap keeps the digits alive through the switch).
  bool apart = status == cudaStreamCaptureStatusActive && keep > 0 &&
               keep < ip.rows && lifted.size() <= 2 &&
               size_t(keep) <= acc0.basis.size() &&
               std::equal(out[0]->basis.begin(), out[0]->basis.end(),
                          acc0.basis.begin());
  for (size_t j = 0; apart && j < digits.size(); ++j) {
    const size_t bytes = digits[j]->limbs() * n * sizeof(W);
    for (const BasicDevicePoly<W> *o : out)
      apart = apart && o->data() &&
              !meets(o->data(), o->limbs() * n * sizeof(W), digits[j]->data(),
                     bytes);
    if (scratch.data)
      apart = apart && !meets(scratch.data, scratch.words * sizeof(u64),
                              digits[j]->data(), bytes);
  }
  if (!apart) {
    launchRaisedRows(ctx, ip, 0, ip.rows);
    switchDownInto(ctx, in, lifted, out, scratch, plain_modulus, lifted_galois);
    return;
  }
  // With a merged rescale (Q limbs dropped too), the lifted addends join
  // the kept rows' inner product, x + P y there, beside the first branch:
  // the last NTT, on the switch's critical path, then neither reads them
  // nor scales them by P D^-1. (Without, the epilogue adds y unscaled, and
  // moving it measured no faster; a permuted y, a rotation's, measured 1.4
  // us slower: bench/RESULTS.md.) The first branch writes the results and
  // scratch meanwhile: they must not meet the addends.
  const SwitchPlan &plan =
      I.switchPlan(ctx, acc0.basis, out[0]->basis, plain_modulus);
  const char *knob = std::getenv("EMBER_KS_LIFT_IN_IP");
  bool lifts = (knob ? std::atoi(knob) != 0 : EMBER_KS_LIFT_IN_IP != 0) &&
               !lifted.empty() && plan.drop_q > 0 && plan.p_mod.data();
  for (const BasicDevicePoly<W> *y : lifted) {
    const size_t bytes = y->limbs() * n * sizeof(W);
    for (const BasicDevicePoly<W> *o : out)
      lifts = lifts &&
              !meets(o->data(), o->limbs() * n * sizeof(W), y->data(), bytes);
    if (scratch.data)
      lifts = lifts && !meets(scratch.data, scratch.words * sizeof(u64),
                              y->data(), bytes);
  }
  IpLiftT<W> lift;
  if (lifts) {
    lift.p_mod = wordsOf<W>(plan.p_mod);
    for (size_t p = 0; p < lifted.size(); ++p)
      lift.y[p] = lifted[p]->data();
  }
  const std::vector<cudaGraphNode_t> start = captureDeps(I.stream);
  const std::vector<cudaGraphNode_t> before = capturedNodes(I.stream);
  launchRaisedRows(ctx, ip, keep, ip.rows - keep);
  const std::function<void()> between = [&] {
    // The first branch ends here: its kernels to the greatest priority,
    // then the kept rows from the start, and the NTT after both.
    std::vector<cudaGraphNode_t> after = capturedNodes(I.stream);
    std::sort(after.begin(), after.end());
    std::vector<cudaGraphNode_t> seen(before);
    std::sort(seen.begin(), seen.end());
    std::vector<cudaGraphNode_t> fresh;
    std::set_difference(after.begin(), after.end(), seen.begin(), seen.end(),
                        std::back_inserter(fresh));
    for (cudaGraphNode_t node : fresh) {
      cudaGraphNodeType type;
      EMBER_CUDA_CHECK(cudaGraphNodeGetType(node, &type));
      if (type == cudaGraphNodeTypeKernel)
        I.priority_nodes.push_back(node);
    }
    const std::vector<cudaGraphNode_t> first = captureDeps(I.stream);
    setCaptureDeps(I.stream, start);
    launchRaisedRows(ctx, ip, 0, keep, lift);
    std::vector<cudaGraphNode_t> both = captureDeps(I.stream);
    both.insert(both.end(), first.begin(), first.end());
    setCaptureDeps(I.stream, std::move(both));
  };
  switchDownInto(ctx, in, lifted, out, scratch, plain_modulus, lifted_galois,
                 &between, lift.p_mod != nullptr);
}

} // namespace

void modSwitchDown(const DeviceContext &ctx,
                   const std::vector<const DevicePoly *> &in,
                   const std::vector<const DevicePoly *> &lifted,
                   const std::vector<DevicePoly *> &out, Scratch scratch,
                   uint64_t plain_modulus, uint64_t lifted_galois) {
  switchDownInto(ctx, in, lifted, out, scratch, plain_modulus, lifted_galois);
}

void keySwitchDown(const DeviceContext &ctx, const DeviceSwitchingKey &key,
                   const std::vector<const DevicePoly *> &digits,
                   uint64_t galois, DevicePoly &acc0, DevicePoly &acc1,
                   const std::vector<const DevicePoly *> &lifted,
                   const std::vector<DevicePoly *> &out, Scratch scratch,
                   uint64_t plain_modulus, uint64_t lifted_galois) {
  keySwitchDownParts(ctx, key, digits, galois, acc0, acc1, lifted, out, scratch,
                     plain_modulus, lifted_galois);
}

void keySwitchDown(const DeviceContext &ctx, const DeviceSwitchingKey32 &key,
                   const std::vector<const DevicePoly32 *> &digits,
                   uint64_t galois, DevicePoly32 &acc0, DevicePoly32 &acc1,
                   const std::vector<const DevicePoly32 *> &lifted,
                   const std::vector<DevicePoly32 *> &out, Scratch scratch,
                   uint64_t plain_modulus, uint64_t lifted_galois) {
  requireWord<u32>(ctx, "keySwitchDown");
  keySwitchDownParts(ctx, key, digits, galois, acc0, acc1, lifted, out, scratch,
                     plain_modulus, lifted_galois);
}

std::vector<cudaGraphNode_t> takePriorityNodes(const DeviceContext &ctx) {
  std::vector<cudaGraphNode_t> nodes;
  nodes.swap(ctx.impl().priority_nodes);
  return nodes;
}

// --- ModUp and modulus switches at 32-bit words ---------------------------

namespace {
/// A view of limbs [first, first + count) of p.
DevicePoly32 limbView(const DevicePoly32 &p, size_t first, size_t count,
                      bool ntt) {
  std::vector<int> basis(p.basis.begin() + first,
                         p.basis.begin() + first + count);
  return DevicePoly32{
      std::move(basis), p.n, ntt,
      DeviceBuffer::borrow(reinterpret_cast<uint64_t *>(p.limb(first)),
                           DevicePoly32::wordsFor(count * p.n))};
}
} // namespace

DevicePoly32 modSwitchDown(const DeviceContext &ctx, const DevicePoly32 &in,
                           const std::vector<int> &keep) {
  requireWord<u32>(ctx, "modSwitchDown");
  if (keep.empty() || keep.size() >= in.basis.size() ||
      !std::equal(keep.begin(), keep.end(), in.basis.begin()))
    throw InvalidArgument("modSwitchDown: the CUDA backend keeps a proper "
                          "prefix of the polynomial's basis");
  mapFor(ctx, in.basis); // a basis the backend supports
  auto &I = ctx.impl();
  const SwitchPlan &plan = I.switchPlan(ctx, in.basis, keep);
  const int k = plan.keep, d = plan.drop;
  DevicePoly32 out = makePoly<u32>(ctx, keep, in.ntt);
  if (!in.ntt && d <= 32) { // one fused kernel (KLSS's ModDown)
    modDownCoeffParts(ctx, plan, in.data(), int(in.limbs()), 1, out.data(), k);
    return out;
  }
  if (!in.ntt) { // (x_keep - BConv_centred(x_drop)) D^-1, limb by limb
    const DevicePoly32 conv = bconv(ctx, limbView(in, k, d, false), keep);
    launchElementwise(ctx, EwOp::kSub, out.data(), in.data(), k, conv.data(), k,
                      k, k, mapFor(ctx, keep));
    const std::vector<int> drop(in.basis.begin() + k, in.basis.end());
    const BConvTable<u32> &table = ctx.host32().bconvTable(drop, keep);
    launchConstOp(
        ctx, true, out.data(), out.data(),
        std::vector<u64>(table.inv_b_mod.begin(), table.inv_b_mod.end()), k, k,
        mapFor(ctx, keep));
    return out;
  }
  // INTT of the dropped limbs with (D/d_j)^-1 folded in, the centred BConv
  // to the kept limbs, and their NTT with (x - conv) D^-1 in its epilogue.
  DevicePoly32 z = makePoly<u32>(
      ctx, std::vector<int>(in.basis.begin() + k, in.basis.end()), false);
  const std::vector<int> src = iota(k, d), rows = iota(0, d);
  launchNttInverse(ctx, in.data(), src, z.data(), rows, z.data(), rows, z.basis,
                   wordsOf<u32>(plan.intt_scale), false);
  const u32 *c = wordsOf<u32>(plan.consts);
  launchBConv(ctx, {BConvJobT<u32>{
                       z.data(), out.data(), c, c + size_t(k) * d,
                       c + size_t(k) * d + d, nullptr,
                       reinterpret_cast<const int *>(plan.tmod.data()), d, k}});
  EpilogueT<u32> e;
  e.a[0] = in.data();
  e.c = wordsOf<u32>(plan.inv);
  e.div = k;
  const std::vector<int> keep_rows = iota(0, k);
  launchNttForward(ctx, out.data(), keep_rows, out.data(), keep_rows,
                   out.data(), keep_rows, keep, -1, &e);
  return out;
}

DevicePoly32 modDown(const DeviceContext &ctx, const DevicePoly32 &in) {
  const Context32 &h = ctx.host32();
  const int level = int(in.limbs()) - h.pCount() - 1;
  if (!in.ntt)
    throw InvalidArgument("modDown needs a polynomial in NTT form");
  if (level < 0 || in.basis != h.qpBasis(level))
    throw InvalidArgument("modDown: the polynomial is not over the expected "
                          "basis");
  return modSwitchDown(ctx, in, h.qBasis(level));
}

DevicePoly32 modUp(const DeviceContext &ctx, const DevicePoly32 &in,
                   int digit) {
  const Context32 &h = ctx.host32();
  const int level = int(in.limbs()) - 1;
  if (!in.ntt)
    throw InvalidArgument("modUp needs a polynomial in NTT form");
  if (level < 0 || level >= h.qCount() || in.basis != h.qBasis(level) ||
      digit < 0 || digit >= h.digitCount(level))
    throw InvalidArgument("modUp: the polynomial is not over q_0..q_l or the "
                          "digit is out of range");
  const std::vector<int> limbs = h.digitLimbs(digit, level);
  const std::vector<int> qp = h.qpBasis(level);
  const size_t first = size_t(limbs.front()), count = limbs.size();
  std::vector<int> rest;
  for (int m : qp)
    if (m < limbs.front() || m > limbs.back())
      rest.push_back(m);
  // INTT of the digit, the centred BConv (hat^-1 folded in there) to the
  // other limbs of Q_l u P, their NTT; the digit's own limbs are copied.
  DevicePoly32 x = makePoly<u32>(ctx, limbs, false);
  inttPoly(ctx, limbView(in, first, count, true), x);
  DevicePoly32 conv = bconv(ctx, x, rest);
  nttPoly(ctx, conv, conv);
  DevicePoly32 out = makePoly<u32>(ctx, qp, true);
  const size_t row = in.n * sizeof(u32);
  auto copy = [&](u32 *dst, const u32 *src, size_t rows) {
    if (rows)
      EMBER_CUDA_CHECK(cudaMemcpyAsync(
          dst, src, rows * row, cudaMemcpyDeviceToDevice, ctx.impl().stream));
  };
  copy(out.data(), conv.data(), first);
  copy(out.limb(first), in.limb(first), count);
  copy(out.limb(first + count), conv.limb(first), rest.size() - first);
  return out;
}

// The primitives of a compiled program's plan at 32-bit words (into memory
// the caller provides): ModUp, the inner product and the modulus switches
// share the 64-bit forms' templates (modUpInto, raisedInnerProduct,
// switchDownInto).

void modUp(const DeviceContext &ctx, const DevicePoly32 &in,
           const std::vector<int> &digits,
           const std::vector<DevicePoly32 *> &outs, Scratch scratch) {
  requireWord<u32>(ctx, "modUp");
  modUpInto(ctx, in, digits, outs, scratch);
}

void modSwitchDown(const DeviceContext &ctx,
                   const std::vector<const DevicePoly32 *> &in,
                   const std::vector<const DevicePoly32 *> &lifted,
                   const std::vector<DevicePoly32 *> &out, Scratch scratch,
                   uint64_t plain_modulus, uint64_t lifted_galois) {
  requireWord<u32>(ctx, "modSwitchDown");
  switchDownInto(ctx, in, lifted, out, scratch, plain_modulus, lifted_galois);
}

DevicePoly modDown(const DeviceContext &ctx, const DevicePoly &in) {
  if (!in.ntt)
    throw InvalidArgument("modDown needs a polynomial in NTT form");
  const Context64 &h = ctx.host();
  const int level = int(in.limbs()) - h.pCount() - 1;
  if (level < 0)
    throw InvalidArgument("modDown: the polynomial has no Q limbs");
  if (in.basis != h.qpBasis(level))
    throw InvalidArgument("modDown: the polynomial is not over the expected "
                          "basis");
  const KsPlan &plan = ctx.impl().ksPlan(ctx, level);
  DevicePoly out = makePoly(ctx, h.qBasis(level), true);
  modDownParts<u64>(ctx, plan, in.data(), 1, out.data(), nullptr, 0, 0);
  return out;
}

namespace {
template <typename W>
void rescalePoly(const DeviceContext &ctx, BasicDevicePoly<W> &p) {
  if (!p.ntt)
    throw InvalidArgument("rescale needs a polynomial in NTT form");
  const int level = int(p.limbs()) - 1;
  if (level < 1)
    throw LevelMismatch("rescale needs level >= 1");
  if (level >= ctx.impl().q_count || p.basis != iota(0, level + 1))
    throw InvalidArgument("rescale: the polynomial is not over the expected "
                          "basis");
  BasicDevicePoly<W> out = makePoly<W>(ctx, iota(0, level), true);
  rescaleParts(ctx, p.data(), 1, level, out.data());
  p = std::move(out);
}

template <typename W>
void automorphismPoly(const DeviceContext &ctx, const BasicDevicePoly<W> &in,
                      uint64_t galois, BasicDevicePoly<W> &out) {
  auto &I = ctx.impl();
  prepareOut(ctx, out, in.basis, in.ntt, "automorphism");
  if (in.ntt) {
    launchAutomorphism(ctx, out.data(), in.data(), int(in.limbs()),
                       I.galoisIndex(ctx, galois));
    return;
  }
  if (galois % 2 == 0 || galois >= 2 * in.n)
    throw InvalidArgument("Galois element " + std::to_string(galois) +
                          " must be odd and below 2N");
  automorphismCoeffKernel<W>
      <<<ewGrid(I, int(in.limbs())), ewBlock(I), 0, I.stream>>>(
          tablesOf<W>(I), out.data(), in.data(), galois, mapFor(ctx, in.basis));
  EMBER_CUDA_LAUNCH_CHECK(I.stream);
}

template <typename W>
void binary(const DeviceContext &ctx, EwOp op, BasicDevicePoly<W> &a,
            const BasicDevicePoly<W> *b, const char *name) {
  if (b)
    checkSame(a, *b, name);
  if ((op == EwOp::kMul) && !a.ntt)
    throw InvalidArgument("mul needs a polynomial in NTT form");
  const int rows = int(a.limbs());
  launchElementwise(ctx, op, a.data(), a.data(), rows,
                    b ? b->data() : static_cast<W *>(nullptr), rows, rows, rows,
                    mapFor(ctx, a.basis));
}

template <typename W, typename C>
void constInPlace(const DeviceContext &ctx, bool mul, BasicDevicePoly<W> &a,
                  const std::vector<C> &c) {
  if (c.size() != a.limbs())
    throw InvalidArgument(std::string(mul ? "mulConst" : "addConst") +
                          ": one constant per limb is needed");
  const int rows = int(a.limbs());
  launchConstOp(ctx, mul, a.data(), a.data(),
                std::vector<u64>(c.begin(), c.end()), rows, rows,
                mapFor(ctx, a.basis));
}

template <typename W>
void mulAddPoly(const DeviceContext &ctx, BasicDevicePoly<W> &acc,
                const BasicDevicePoly<W> &a, const BasicDevicePoly<W> &b) {
  checkSame(acc, a, "mulAdd");
  checkSame(a, b, "mulAdd");
  if (!a.ntt)
    throw InvalidArgument("mulAdd needs a polynomial in NTT form");
  const int rows = int(a.limbs());
  launchElementwise(ctx, EwOp::kMulAdd, acc.data(), a.data(), rows, b.data(),
                    rows, rows, rows, mapFor(ctx, a.basis));
}
} // namespace

void rescale(const DeviceContext &ctx, DevicePoly &p) { rescalePoly(ctx, p); }
void rescale(const DeviceContext &ctx, DevicePoly32 &p) { rescalePoly(ctx, p); }

DevicePoly automorphism(const DeviceContext &ctx, const DevicePoly &in,
                        uint64_t galois) {
  DevicePoly out = makePoly(ctx, in.basis, in.ntt);
  automorphismPoly(ctx, in, galois, out);
  return out;
}
DevicePoly32 automorphism(const DeviceContext &ctx, const DevicePoly32 &in,
                          uint64_t galois) {
  DevicePoly32 out = makePoly<u32>(ctx, in.basis, in.ntt);
  automorphismPoly(ctx, in, galois, out);
  return out;
}
void automorphism(const DeviceContext &ctx, const DevicePoly &in,
                  uint64_t galois, DevicePoly &out) {
  automorphismPoly(ctx, in, galois, out);
}
void automorphism(const DeviceContext &ctx, const DevicePoly32 &in,
                  uint64_t galois, DevicePoly32 &out) {
  automorphismPoly(ctx, in, galois, out);
}

void addInPlace(const DeviceContext &ctx, DevicePoly &a, const DevicePoly &b) {
  binary(ctx, EwOp::kAdd, a, &b, "add");
}
void addInPlace(const DeviceContext &ctx, DevicePoly32 &a,
                const DevicePoly32 &b) {
  binary(ctx, EwOp::kAdd, a, &b, "add");
}
void subInPlace(const DeviceContext &ctx, DevicePoly &a, const DevicePoly &b) {
  binary(ctx, EwOp::kSub, a, &b, "sub");
}
void subInPlace(const DeviceContext &ctx, DevicePoly32 &a,
                const DevicePoly32 &b) {
  binary(ctx, EwOp::kSub, a, &b, "sub");
}
void negInPlace(const DeviceContext &ctx, DevicePoly &a) {
  binary<u64>(ctx, EwOp::kNeg, a, nullptr, "neg");
}
void negInPlace(const DeviceContext &ctx, DevicePoly32 &a) {
  binary<u32>(ctx, EwOp::kNeg, a, nullptr, "neg");
}
void mulInPlace(const DeviceContext &ctx, DevicePoly &a, const DevicePoly &b) {
  binary(ctx, EwOp::kMul, a, &b, "mul");
}
void mulInPlace(const DeviceContext &ctx, DevicePoly32 &a,
                const DevicePoly32 &b) {
  binary(ctx, EwOp::kMul, a, &b, "mul");
}
void mulConstInPlace(const DeviceContext &ctx, DevicePoly &a,
                     const std::vector<uint64_t> &c) {
  constInPlace(ctx, true, a, c);
}
void mulConstInPlace(const DeviceContext &ctx, DevicePoly32 &a,
                     const std::vector<uint32_t> &c) {
  constInPlace(ctx, true, a, c);
}
void addConstInPlace(const DeviceContext &ctx, DevicePoly &a,
                     const std::vector<uint64_t> &c) {
  constInPlace(ctx, false, a, c);
}
void addConstInPlace(const DeviceContext &ctx, DevicePoly32 &a,
                     const std::vector<uint32_t> &c) {
  constInPlace(ctx, false, a, c);
}
void mulAddInPlace(const DeviceContext &ctx, DevicePoly &acc,
                   const DevicePoly &a, const DevicePoly &b) {
  mulAddPoly(ctx, acc, a, b);
}
void mulAddInPlace(const DeviceContext &ctx, DevicePoly32 &acc,
                   const DevicePoly32 &a, const DevicePoly32 &b) {
  mulAddPoly(ctx, acc, a, b);
}

} // namespace ember::cuda
