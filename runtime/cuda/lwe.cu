// FHEW/TFHE bootstrapping on the GPU (ember/lwe_cuda.h): the batched blind
// rotation with the accumulator in shared memory, and the batched key
// switch. Same arithmetic as runtime/cpu/lwe.cpp, so every word matches.

#include "ember/lwe_cuda.h"

#include "../core/lwe_internal.h"
#include "ember/errors.h"
#include "internal.cuh"

#include <cooperative_groups.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <type_traits>

namespace ember::lwe::cuda {

namespace {

using u16 = uint16_t;
using u32 = uint32_t;
using u64 = uint64_t;

/// Threads per ciphertext: 256 in batches that fill the GPU (several blocks
/// per SM hide each other's barriers), 1024 in batches smaller than the
/// SMs, where a ciphertext's latency is the figure (a quarter of the serial
/// work per thread).
constexpr int kRotateThreads = 256;
constexpr int kLatencyThreads = 1024;
constexpr int kSwitchThreads = 256;
constexpr int kSwitchPerThread = 4; // n + 1 <= 1024
constexpr int kDefaultMinBlocks = 6;
/// The cluster kernel: threads per block (one NTT unit each at N = 1024)
/// and the most blocks of a cluster (the portable limit).
constexpr int kClusterThreads = 256;
/// The most blocks of a cluster: the portable 8 by default; up to 16 where
/// EMBER_TFHE_CLUSTER_BLOCKS asks and the device runs them (H100 and H200
/// do: STD128_4BIT's 12 rows on 12 blocks take 5.25 ms against 5.79 on 6,
/// but compute-sanitizer's synccheck reports divergent warps at a block
/// barrier of the 12-block kernel, so it stays opt-in; bench/RESULTS.md).
constexpr int kMaxCluster = 16, kPortableCluster = 8;
/// Threads of a cluster kernel's block: N / 4 on the fast path (log2 N
/// given), else kClusterThreads.
constexpr int clusterThreads(int log_n) {
  return log_n > 2 ? 1 << (log_n - 2) : kClusterThreads;
}

/// Everything a kernel reads, by value.
struct KParams {
  int n, log_ring, rows, digits, log_bg, dks, log_bks;
  u32 q, big_q, q_ks, base_ks;
  int32_t offset, half;
  u64 ratio; ///< floor(2^64 / Q)
  u32 n_inv, n_inv_shoup;
  const u32 *roots, *roots_shoup, *inv_roots, *inv_roots_shoup, *pw;
  /// The bootstrapping key re-laid for the kernel: for LWE coefficient i,
  /// row r and coefficient j, (key 0 a, key 0 b, key 1 a, key 1 b); with
  /// AP for key k of coefficient i (Params::apKeyIndex), row r and
  /// coefficient j, (a, b, 0, 0) at ((i K + k) rows + r) N + j.
  const uint4 *bsk4;
  /// AP: digits of a_i in base B_r (0: GINX), log2 B_r, keys per
  /// coefficient K and the index of digit k's value 1.
  int ap_digits, log_br, ap_keys, ap_base[8];
  const u16 *ksk;   ///< key-switching words (q_ks <= 2^16) ...
  const u32 *ksk32; ///< ... or these (q_ks above 2^16)
  /// Modulus raising: P's tables (as Q's above), P^-1 mod Q, and the key
  /// re-laid: for LWE coefficient i, prime r (0: Q, 1: P), component c
  /// and coefficient j, (key 0 row 0, key 0 row 1, key 1 row 0, key 1 row
  /// 1) of component c at bsk_raise[((i * 2 + r) * 2 + c) * N + j].
  u32 big_p, p_n_inv, p_n_inv_shoup, p_inv, p_inv_shoup;
  u64 p_ratio;
  /// -Q^-1 and -P^-1 mod 2^32 (Montgomery), psi^(N/2) mod Q and mod P
  /// (a fourth root of unity) and its Shoup words.
  u32 q_mont, p_mont, q_root4, q_root4_shoup, p_root4, p_root4_shoup;
  const u32 *p_roots, *p_roots_shoup, *p_inv_roots, *p_inv_roots_shoup, *p_pw;
  const uint4 *bsk_raise;
};

/// One prime's NTT tables, as the kernels read them.
struct Tables {
  u32 q;
  u64 ratio;
  u32 n_inv, n_inv_shoup;
  const u32 *roots, *roots_shoup, *inv_roots, *inv_roots_shoup, *pw;
  u32 mont, root4, root4_shoup; ///< -q^-1 mod 2^32; psi^(N/2)
};
/// Q's tables (prime 0) or P's (prime 1, modulus raising).
__device__ __forceinline__ Tables tablesOf(const KParams &k, int prime) {
  if (prime == 0)
    return {k.big_q, k.ratio,       k.n_inv,     k.n_inv_shoup,
            k.roots, k.roots_shoup, k.inv_roots, k.inv_roots_shoup,
            k.pw,    k.q_mont,      k.q_root4,   k.q_root4_shoup};
  return {k.big_p,   k.p_ratio,       k.p_n_inv,     k.p_n_inv_shoup,
          k.p_roots, k.p_roots_shoup, k.p_inv_roots, k.p_inv_roots_shoup,
          k.p_pw,    k.p_mont,        k.p_root4,     k.p_root4_shoup};
}

/// Montgomery reduction: x 2^-32 mod q in [0, 2q), for x < q 2^32 (mont =
/// -q^-1 mod 2^32).
__device__ __forceinline__ u32 redc(u64 x, u32 q, u32 mont) {
  const u32 m = u32(x) * mont;
  return u32((x + u64(m) * q) >> 32);
}

__device__ __forceinline__ u32 reduce64(u64 x, u32 q, u64 ratio) {
  u64 r = x - __umul64hi(x, ratio) * q;
  while (r >= q)
    r -= q;
  return static_cast<u32>(r);
}

__device__ __forceinline__ u32 mulShoupLazy32(u32 a, u32 w, u32 ws, u32 q) {
  return a * w - __umulhi(a, ws) * q; // [0, 2q)
}

__device__ __forceinline__ void fwdButterfly(u32 &x, u32 &y, u32 w, u32 ws,
                                             u32 q, u32 two_q) {
  u32 u = x;
  u = u >= two_q ? u - two_q : u;
  const u32 v = mulShoupLazy32(y, w, ws, q);
  x = u + v;         // [0, 4q)
  y = u - v + two_q; // (0, 4q)
}
__device__ __forceinline__ void invButterfly(u32 &x, u32 &y, u32 w, u32 ws,
                                             u32 q, u32 two_q) {
  const u32 u = x, v = y; // [0, 2q)
  const u32 sum = u + v;
  x = sum >= two_q ? sum - two_q : sum;
  y = mulShoupLazy32(u - v + two_q, w, ws, q);
}
__device__ __forceinline__ u32 exact4q(u32 x, u32 q, u32 two_q) {
  x = x >= two_q ? x - two_q : x;
  return x >= q ? x - q : x;
}

/// Forward negacyclic NTT of `polys` polynomials of N words in shared
/// memory: Cooley-Tukey with Harvey's lazy butterflies and the bit-reversed
/// output of NttTables::forward, two stages per pass (a thread loads four
/// words, does both stages' four butterflies in registers, stores: half the
/// barriers and shared-memory traffic of one stage per pass). Output in [0,
/// Q) when kExact, else in [0, 4Q) (the digits: the products that follow
/// reduce anyway).
template <bool kExact>
__device__ void nttForward(u32 *s, int polys, const KParams &k) {
  const int log_n = k.log_ring;
  const u32 q = k.big_q, two_q = 2 * q;
  int stage = 0; // log2 m
  for (; stage + 1 < log_n; stage += 2) {
    const int m = 1 << stage, log_t = log_n - 1 - stage;
    const int t = 1 << log_t, t2 = t >> 1;
    const bool last = kExact && stage + 2 == log_n;
    const int units = 1 << (log_n - 2);
    auto unit = [&](u32 *x, int i) {
      u32 a = x[0], b = x[t2], c = x[t], d = x[t + t2];
      const u32 w1 = __ldg(k.roots + m + i), s1 = __ldg(k.roots_shoup + m + i);
      const int i2 = 2 * (m + i);
      const u32 w2 = __ldg(k.roots + i2), s2 = __ldg(k.roots_shoup + i2);
      const u32 w3 = __ldg(k.roots + i2 + 1),
                s3 = __ldg(k.roots_shoup + i2 + 1);
      fwdButterfly(a, c, w1, s1, q, two_q);
      fwdButterfly(b, d, w1, s1, q, two_q);
      fwdButterfly(a, b, w2, s2, q, two_q);
      fwdButterfly(c, d, w3, s3, q, two_q);
      if (last) {
        a = exact4q(a, q, two_q), b = exact4q(b, q, two_q);
        c = exact4q(c, q, two_q), d = exact4q(d, q, two_q);
      }
      x[0] = a, x[t2] = b, x[t] = c, x[t + t2] = d;
    };
    if ((blockDim.x & (units - 1)) == 0) {
      // Each thread keeps one unit (its place and twiddles, loaded once
      // from L1) over the polynomials.
      const int u = threadIdx.x & (units - 1);
      const int i = u >> (log_t - 1), j = u & (t2 - 1);
      const int off = (i << (log_t + 1)) + j;
      for (int p = threadIdx.x >> (log_n - 2); p < polys;
           p += blockDim.x >> (log_n - 2))
        unit(s + (p << log_n) + off, i);
    } else {
      for (int idx = threadIdx.x; idx < (polys << (log_n - 2));
           idx += blockDim.x) {
        const int p = idx >> (log_n - 2), u = idx & (units - 1);
        const int i = u >> (log_t - 1), j = u & (t2 - 1);
        unit(s + (p << log_n) + (i << (log_t + 1)) + j, i);
      }
    }
    __syncthreads();
  }
  if (stage < log_n) { // odd log N: the last stage alone (t = 1)
    const int m = 1 << stage;
    for (int idx = threadIdx.x; idx < (polys << (log_n - 1));
         idx += blockDim.x) {
      const int p = idx >> (log_n - 1), i = idx & (m - 1);
      u32 *x = s + (p << log_n) + 2 * i;
      u32 a = x[0], b = x[1];
      fwdButterfly(a, b, __ldg(k.roots + m + i), __ldg(k.roots_shoup + m + i),
                   q, two_q);
      if (kExact)
        a = exact4q(a, q, two_q), b = exact4q(b, q, two_q);
      x[0] = a, x[1] = b;
    }
    __syncthreads();
  }
}

/// The inverse (Gentleman-Sande, two stages per pass, N^-1 folded into the
/// last pass); input in [0, 2Q), read from `src` (out of place: the first
/// pass reads there) or from s; output in [0, Q) in s.
__device__ void nttInverse(u32 *s, const u32 *src, int polys,
                           const KParams &k) {
  const int log_n = k.log_ring;
  const u32 q = k.big_q, two_q = 2 * q;
  auto scale = [&](u32 v) {
    const u32 r = mulShoupLazy32(v, k.n_inv, k.n_inv_shoup, q);
    return r >= q ? r - q : r;
  };
  int log_m = log_n - 1, log_t = 0;
  for (; log_m >= 1; log_m -= 2, log_t += 2) {
    const int m = 1 << log_m, t = 1 << log_t;
    const bool last = log_m == 1;
    const int units = 1 << (log_n - 2);
    auto unit = [&](int off, int i2) {
      u32 *x = s + off;
      const u32 *in = src ? src + off : x;
      u32 a = in[0], b = in[t], c = in[2 * t], d = in[3 * t];
      const int r1 = m + 2 * i2, r3 = (m >> 1) + i2;
      invButterfly(a, b, __ldg(k.inv_roots + r1), __ldg(k.inv_roots_shoup + r1),
                   q, two_q);
      invButterfly(c, d, __ldg(k.inv_roots + r1 + 1),
                   __ldg(k.inv_roots_shoup + r1 + 1), q, two_q);
      const u32 w = __ldg(k.inv_roots + r3), ws = __ldg(k.inv_roots_shoup + r3);
      invButterfly(a, c, w, ws, q, two_q);
      invButterfly(b, d, w, ws, q, two_q);
      if (last)
        a = scale(a), b = scale(b), c = scale(c), d = scale(d);
      x[0] = a, x[t] = b, x[2 * t] = c, x[3 * t] = d;
    };
    if ((blockDim.x & (units - 1)) == 0) { // one unit per thread, as forward
      const int u = threadIdx.x & (units - 1);
      const int i2 = u >> log_t, j = u & (t - 1);
      const int off = (i2 << (log_t + 2)) + j;
      for (int p = threadIdx.x >> (log_n - 2); p < polys;
           p += blockDim.x >> (log_n - 2))
        unit((p << log_n) + off, i2);
    } else {
      for (int idx = threadIdx.x; idx < (polys << (log_n - 2));
           idx += blockDim.x) {
        const int p = idx >> (log_n - 2), u = idx & (units - 1);
        const int i2 = u >> log_t, j = u & (t - 1);
        unit((p << log_n) + (i2 << (log_t + 2)) + j, i2);
      }
    }
    __syncthreads();
    src = nullptr;
  }
  if (log_m == 0) { // odd log N: the last stage (m = 1, t = N/2) alone
    const int t = 1 << (log_n - 1);
    const u32 w = __ldg(k.inv_roots + 1), ws = __ldg(k.inv_roots_shoup + 1);
    for (int idx = threadIdx.x; idx < (polys << (log_n - 1));
         idx += blockDim.x) {
      const int p = idx >> (log_n - 1), j = idx & (t - 1);
      u32 *x = s + (p << log_n) + j;
      const u32 *in = src ? src + (p << log_n) + j : x;
      u32 a = in[0], b = in[t];
      invButterfly(a, b, w, ws, q, two_q);
      x[0] = scale(a), x[t] = scale(b);
    }
    __syncthreads();
  }
}

/// The cluster kernel's slice of NTT positions per block: N / C rounded up
/// to a multiple of 4 (16-byte digit stores).
__host__ __device__ inline int clusterSlice(int big_n, int blocks) {
  return (big_n / 4 + blocks - 1) / blocks * 4;
}

/// A blind rotation: of x a + y b + c (mod q), a and b rows of `wires`
/// (b < 0: none), of test vector `tv` (rows of N words), extracted into
/// row `out` of the extraction buffer.
struct RotJob {
  int32_t a, b;
  u32 x, y, c;
  int32_t tv, out;
};
/// The rotation job of x a + y b + c (lwe_internal.h's forms) on wires a
/// and b, of the first test vector, extracted into row `out`.
RotJob rotJob(Linear l, int32_t a, int32_t b, int32_t out) {
  return {a, b, l.x, l.y, l.c, 0, out};
}
/// A key switch: the extracted rows r1 (+ r2 when r2 >= 0) at Q, plus
/// `offset` on b, to q_ks, key-switched, to q, into row `out` of the
/// destination.
struct KsJob {
  int32_t r1, r2;
  u32 offset;
  int32_t out;
};
/// A linear op on rows of `wires`: out = x a + c (a < 0: a noiseless b = c).
struct LinJob {
  int32_t out, a;
  u32 x, c;
};
/// A radix circuit's linear op on block rows (N + 1 words at Q): out = x a
/// + y b + c (mod Q; c on b only; a or b < 0: none).
struct BlockLinJob {
  int32_t out, a, b;
  u32 x, y, c;
};

/// A job's input as the blind rotation reads it: x a + y b + c (mod q).
struct JobInput {
  u32 x, y, c, qmask;
  int n;
  const u32 *a, *b;
  __device__ JobInput(const KParams &k, const u32 *wires, const RotJob &job)
      : x(job.x), y(job.y), c(job.c), qmask(k.q - 1), n(k.n),
        a(wires + size_t(job.a) * (k.n + 1)),
        b(job.b >= 0 ? wires + size_t(job.b) * (k.n + 1) : nullptr) {}
  /// Mask coefficient i < n.
  __device__ u32 mask(int i) const {
    return (x * a[i] + (b ? y * b[i] : 0)) & qmask;
  }
  __device__ u32 body() const {
    return (x * a[n] + (b ? y * b[n] : 0) + c) & qmask;
  }
};

/// The accumulator's start (0, X^-e tv), e the body's rotation, in the
/// coefficient form of both parts (acc: 2N words).
__device__ void initAccumulator(const KParams &k, const JobInput &in,
                                const u32 *tv, u32 *acc) {
  const int big_n = 1 << k.log_ring;
  const u32 mask2n = 2 * big_n - 1, f = 2 * big_n / k.q;
  const u32 e = (2 * big_n - (in.body() * f & mask2n)) & mask2n;
  for (int t = threadIdx.x; t < big_n; t += blockDim.x) {
    acc[t] = 0;
    const u32 src = (t - e) & mask2n; // X^e tv: coefficient t from tv[t - e]
    const u32 v = __ldg(tv + (src & (big_n - 1)));
    acc[big_n + t] = src < u32(big_n) ? v : (v == 0 ? 0 : k.big_q - v);
  }
}

/// Step i's rotation m = a_i f (mod 2N); 0 skips the step.
__device__ __forceinline__ u32 stepRotation(const KParams &k,
                                            const JobInput &in, int i) {
  const u32 two_n = 2u << k.log_ring;
  return in.mask(i) * (two_n / k.q) & (two_n - 1);
}

/// A coefficient in [0, Q), centred and offset so that its signed gadget
/// digits are plain bit fields (gadgetDigit).
__device__ __forceinline__ int32_t gadgetInput(const KParams &k, u32 coef) {
  const int32_t c = int32_t(coef), q32 = int32_t(k.big_q);
  return c - (c > q32 / 2 ? q32 : 0) + k.offset;
}
/// Signed digit d (1 .. digits; the top one keeps the rest) of u, in [0,
/// Q).
__device__ __forceinline__ u32 gadgetDigit(const KParams &k, int32_t u, int d) {
  const int shift = d * k.log_bg;
  const int32_t r = d < k.digits
                        ? ((u >> shift) & ((1 << k.log_bg) - 1)) - k.half
                        : (u >> shift);
  return u32(r + (int32_t(k.big_q) & (r >> 31)));
}

/// X^m - 1 and X^-m - 1 at NTT position t (psi^e != 0, so no wrap), pw
/// the powers of the prime's psi.
__device__ __forceinline__ void stepMonomials(const u32 *pw, int log_ring,
                                              u32 m, int t, u64 &fp, u64 &fm) {
  const u32 mask2n = (2u << log_ring) - 1;
  const u32 ebr = 2 * (__brev(u32(t)) >> (32 - log_ring)) + 1;
  const u32 ex = m * ebr & mask2n;
  fp = __ldg(pw + ex) - 1, fm = __ldg(pw + ((0u - ex) & mask2n)) - 1;
}
__device__ __forceinline__ void stepMonomials(const KParams &k, u32 m, int t,
                                              u64 &fp, u64 &fm) {
  stepMonomials(k.pw, k.log_ring, m, t, fp, fm);
}
/// a + P0 (X^m - 1) + P1 (X^-m - 1) at one position, P0 and P1 the two
/// external products' unreduced sums there.
__device__ __forceinline__ u32 stepUpdate(const KParams &k, u32 a, u64 p0,
                                          u64 p1, u64 fp, u64 fm) {
  return reduce64(a + reduce64(p0, k.big_q, k.ratio) * fp +
                      reduce64(p1, k.big_q, k.ratio) * fm,
                  k.big_q, k.ratio);
}

/// Sample extraction from the accumulator in coefficient form: the
/// constant coefficient of b - a s' (N + 1 words).
__device__ void extractSample(const KParams &k, const u32 *acc, u32 *out) {
  const int big_n = 1 << k.log_ring;
  for (int j = threadIdx.x; j < big_n; j += blockDim.x) {
    const u32 v = j == 0 ? acc[0] : acc[big_n - j];
    out[j] = j == 0 || v == 0 ? v : k.big_q - v;
  }
  if (threadIdx.x == 0)
    out[big_n] = acc[big_n];
}

/// One block per rotation job: blind rotation of tv by the job's input (in
/// shared memory: the accumulator, 2N words, and the digits, rows x N,
/// whose top two rows first hold the accumulator's coefficient form), then
/// sample extraction; ext: N + 1 words at Q per job. Work per job: n steps
/// of 2 inverse and `rows` forward NTTs of N points plus 4 rows
/// multiply-adds per coefficient; bytes: each step reads its two RGSW keys
/// (4 rows N words), shared by the blocks of a batch through L2.
template <int kThreads, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    blindRotateKernel(const KParams k, const u32 *wires, const RotJob *jobs,
                      const u32 *tv, u32 *ext) {
  extern __shared__ u32 sm[];
  const int big_n = 1 << k.log_ring;
  u32 *acc = sm, *dig = sm + 2 * big_n;
  u32 *tmp = dig + size_t(k.rows - 2) * big_n; // the top digit's two rows
  const RotJob job = jobs[blockIdx.x];
  const JobInput in(k, wires, job);
  initAccumulator(k, in, tv + (size_t(job.tv) << k.log_ring), acc);
  __syncthreads();
  nttForward<true>(acc + big_n, 1, k);

  for (int i = 0; i < k.n; ++i) {
    const u32 m = stepRotation(k, in, i);
    if (m == 0)
      continue;                 // the same for every thread of the block
    nttInverse(tmp, acc, 2, k); // a coefficient-form copy of acc
    // Signed digits 1 .. d-1 of both parts (row 2(d-1) + part); a thread
    // reads both parts of its column before writing any digit of it (the
    // top digit's rows are where the coefficients were).
    for (int j = threadIdx.x; j < big_n; j += blockDim.x) {
      const int32_t u[2] = {gadgetInput(k, tmp[j]),
                            gadgetInput(k, tmp[big_n + j])};
      for (int d = 1; d <= k.digits; ++d)
        for (int part = 0; part < 2; ++part)
          dig[((2 * (d - 1) + part) << k.log_ring) + j] =
              gadgetDigit(k, u[part], d);
    }
    __syncthreads();
    nttForward<false>(dig, k.rows, k);
    // Both external products, then acc += (X^m - 1) P0 + (X^-m - 1) P1.
    // The key words of one coefficient and row (two keys, two components)
    // are one 16-byte load.
    const uint4 *key = k.bsk4 + size_t(i) * k.rows * big_n;
    for (int t = threadIdx.x; t < big_n; t += blockDim.x) {
      u64 fp, fm;
      stepMonomials(k, m, t, fp, fm);
      u64 s00 = 0, s01 = 0, s10 = 0, s11 = 0; // [key][component]
      for (int r = 0; r < k.rows; ++r) {
        const u64 d = dig[(r << k.log_ring) + t];
        const uint4 w = __ldg(key + (r << k.log_ring) + t);
        s00 += d * w.x, s01 += d * w.y, s10 += d * w.z, s11 += d * w.w;
      }
      acc[t] = stepUpdate(k, acc[t], s00, s10, fp, fm);
      acc[big_n + t] = stepUpdate(k, acc[big_n + t], s01, s11, fp, fm);
    }
    __syncthreads();
  }
  nttInverse(acc, nullptr, 2, k);
  extractSample(k, acc, ext + size_t(job.out) * (big_n + 1));
}

/// The cluster kernel's fast path at N = 2^kLogN (N / 4 threads): a thread
/// owns one radix-4 unit in every pass of one polynomial, its twiddles
/// (three and their Shoup words per pass, forward and inverse) held in
/// registers from the start. Even log N: the inverse's last radix-4 pass
/// and the forward's first touch the same four positions (u, u + N/4, u +
/// N/2, u + 3N/4), so the digits go from one to the other in registers.
/// Odd log N: the inverse ends, and the forward starts, with a radix-2 stage
/// (m = 1) over pairs (j, j + N/2): a thread's two pairs are those same
/// four positions, so that is where the registers carry the digits; the
/// forward's radix-4 passes then cover stages (1, 2) .. (log N - 2, log N -
/// 1). Either way the forward's last pass holds positions 4u .. 4u + 3 and
/// stores them straight to the slice's owner. The butterflies are
/// nttForward's and nttInverse's (the forward's stages grouped otherwise at
/// odd log N: the values are the same mod Q, and the products reduce them).
template <int kLogN> struct UnitNtt {
  static constexpr int kPasses = kLogN / 2, kQuarter = 1 << (kLogN - 2);
  static constexpr bool kOdd = kLogN % 2 == 1;
  static constexpr int kFirst = kOdd ? 1 : 0; ///< the forward's first stage
  u32 fw[kPasses][6], iw[kPasses][6];
  u32 fw2[2], iw2[2]; ///< odd log N: the radix-2 stages' twiddle (m = 1)

  __device__ void load(const KParams &k, int u) { load(tablesOf(k, 0), u); }
  __device__ void load(const Tables &k, int u) {
#pragma unroll
    for (int p = 0; p < kPasses; ++p) {
      const int stage = kFirst + 2 * p, m = 1 << stage;
      const int log_t = kLogN - 1 - stage;
      const int i = u >> (log_t - 1), i2 = 2 * (m + i);
      fw[p][0] = __ldg(k.roots + m + i),
      fw[p][1] = __ldg(k.roots_shoup + m + i);
      fw[p][2] = __ldg(k.roots + i2), fw[p][3] = __ldg(k.roots_shoup + i2);
      fw[p][4] = __ldg(k.roots + i2 + 1);
      fw[p][5] = __ldg(k.roots_shoup + i2 + 1);
      const int mi = 1 << (kLogN - 1 - 2 * p), j2 = u >> (2 * p);
      const int r1 = mi + 2 * j2, r3 = (mi >> 1) + j2;
      iw[p][0] = __ldg(k.inv_roots + r1);
      iw[p][1] = __ldg(k.inv_roots_shoup + r1);
      iw[p][2] = __ldg(k.inv_roots + r1 + 1);
      iw[p][3] = __ldg(k.inv_roots_shoup + r1 + 1);
      iw[p][4] = __ldg(k.inv_roots + r3),
      iw[p][5] = __ldg(k.inv_roots_shoup + r3);
    }
    if constexpr (kOdd) {
      fw2[0] = __ldg(k.roots + 1), fw2[1] = __ldg(k.roots_shoup + 1);
      iw2[0] = __ldg(k.inv_roots + 1), iw2[1] = __ldg(k.inv_roots_shoup + 1);
    }
  }
  /// Forward pass p's four positions for unit u: off, + t/2, + t, + 3t/2.
  static __device__ int fwdOff(int p, int u, int &t2) {
    const int log_t = kLogN - 1 - kFirst - 2 * p;
    t2 = 1 << (log_t - 1);
    return ((u >> (log_t - 1)) << (log_t + 1)) + (u & (t2 - 1));
  }
  /// Inverse pass p's four positions: off, + t, + 2t, + 3t.
  static __device__ int invOff(int p, int u, int &t) {
    t = 1 << (2 * p);
    return ((u >> (2 * p)) << (2 * p + 2)) + (u & (t - 1));
  }
  __device__ void fwdUnit(int p, u32 &a, u32 &b, u32 &c, u32 &d, u32 q) const {
    const u32 two_q = 2 * q;
    fwdButterfly(a, c, fw[p][0], fw[p][1], q, two_q);
    fwdButterfly(b, d, fw[p][0], fw[p][1], q, two_q);
    fwdButterfly(a, b, fw[p][2], fw[p][3], q, two_q);
    fwdButterfly(c, d, fw[p][4], fw[p][5], q, two_q);
  }
  __device__ void invUnit(int p, u32 &a, u32 &b, u32 &c, u32 &d, u32 q) const {
    const u32 two_q = 2 * q;
    invButterfly(a, b, iw[p][0], iw[p][1], q, two_q);
    invButterfly(c, d, iw[p][2], iw[p][3], q, two_q);
    invButterfly(a, c, iw[p][4], iw[p][5], q, two_q);
    invButterfly(b, d, iw[p][4], iw[p][5], q, two_q);
  }
  /// The inverse's last stage(s) on positions u + e N/4 (e = 0..3) in
  /// registers (odd log N: the radix-2 pairs (u, u + N/2) and (u + N/4, u
  /// + 3N/4)), then N^-1: exact residues.
  __device__ void invLast(u32 (&v)[4], u32 n_inv, u32 n_inv_shoup,
                          u32 q) const {
    if constexpr (kOdd) {
      invButterfly(v[0], v[2], iw2[0], iw2[1], q, 2 * q);
      invButterfly(v[1], v[3], iw2[0], iw2[1], q, 2 * q);
    } else {
      invUnit(kPasses - 1, v[0], v[1], v[2], v[3], q);
    }
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const u32 r = mulShoupLazy32(v[e], n_inv, n_inv_shoup, q);
      v[e] = r >= q ? r - q : r;
    }
  }
};

/// One thread-block cluster per rotation job, for batches too small to
/// fill the GPU (a ciphertext's latency). The `rows` digit rows of a step
/// are spread over the cluster's C blocks (block c transforms rows c, c +
/// C, ...), and the coefficients (NTT positions) over the blocks in slices
/// of S (block c owns [c S, c S + S)). A step:
///   1. each block prefetches the step's key words of its slice, every row
///      (cp.async);
///   2. inverse-transforms the accumulator part(s) its rows come from,
///      decomposes them into its digit rows and transforms those;
///   3. sends each slice of its digit rows to the slice's owner
///      (distributed shared memory, 16-byte stores);
///   -- cluster barrier --
///   4. each block multiplies its slice of every digit row by its key words,
///      updates its slice of the accumulator and writes it into every
///      block's copy;
///   -- cluster barrier --
/// The sums are the same integers as blindRotateKernel's (unreduced u64 over
/// the rows, then reduced), so every word matches. Per block and step: one
/// or two inverse NTTs and rows / C forward NTTs instead of 2 + rows on one
/// SM; the blocks exchange N digit words and 2N accumulator words each.
/// Shared memory: key words rows S uint4, digit slices rows S, the
/// accumulator 2N, coefficient forms 2N and own digit rows (rows / C) N
/// words.
/// kC: the cluster's blocks when known at compile time (the loops over the
/// blocks unrolled), else 0. kLogN: log2 N for the fast path (UnitNtt; C
/// even, so each block's rows come from one part), else 0; kPer: the fast
/// path's rows per block (every block the same number).
template <int kC, int kLogN, int kPer = 1, bool kAp = false>
__global__ void __launch_bounds__(clusterThreads(kLogN))
    blindRotateClusterKernel(const KParams k, const u32 *wires,
                             const RotJob *jobs, const u32 *tv, u32 *ext) {
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  const int C = kC > 0 ? kC : int(cluster.num_blocks());
  const int rank = int(cluster.block_rank());
  extern __shared__ __align__(16) u32 sm[];
  const int big_n = 1 << k.log_ring, slice = clusterSlice(big_n, C);
  const int lo = rank * slice, hi = min(big_n, lo + slice);
  uint4 *keys = reinterpret_cast<uint4 *>(sm); // [rows][slice]
  u32 *digs = sm + size_t(4 * k.rows) * slice; // [rows][slice]
  u32 *acc = digs + size_t(k.rows) * slice;    // [2][N]
  u32 *coef = acc + 2 * big_n;                 // [2][N]
  u32 *dig = coef + 2 * big_n;                 // [per][N]
  int mine = 0, parts = 0; // this block's rows; bit p: needs part p
  for (int r = rank; r < k.rows; r += C)
    ++mine, parts |= 1 << (r & 1);
  struct None {};
  std::conditional_t<(kLogN > 0), UnitNtt<kLogN>, None> ntt;
  if constexpr (kLogN > 0)
    ntt.load(k, threadIdx.x);

  const u32 big_q = k.big_q;
  const RotJob job = jobs[blockIdx.x / C];
  const JobInput in(k, wires, job);
  initAccumulator(k, in, tv + (size_t(job.tv) << k.log_ring), acc);
  __syncthreads();
  nttForward<true>(acc + big_n, 1, k);
  cluster.sync(); // every block has started: its shared memory is there

  // GINX: a step per coefficient a_i (m = a_i 2N/q, 0 rotating nothing);
  // AP: a step per nonzero digit v of a_i in base B_r, by the key of
  // (digit, v): acc = acc x RGSW(X^(s_i v B_r^digit 2N/q)).
  const int digits_r = kAp ? k.ap_digits : 1;
  for (int step = 0; step < k.n * digits_r; ++step) {
    int i = step;
    u32 m = 0;
    size_t key_at = step;
    if constexpr (kAp) {
      i = step / digits_r;
      const int digit = step - i * digits_r;
      const u32 v = (in.mask(i) >> (digit * k.log_br)) & ((1u << k.log_br) - 1);
      if (v == 0)
        continue; // the same for every block of the cluster
      key_at = size_t(i) * k.ap_keys + k.ap_base[digit] + v - 1;
    } else {
      m = stepRotation(k, in, i);
      if (m == 0)
        continue;
    }
    // 1. The step's key words of this block's slice.
    const uint4 *key = k.bsk4 + key_at * k.rows * big_n;
    for (int r = 0; r < k.rows; ++r)
      for (int t = lo + int(threadIdx.x); t < hi; t += blockDim.x)
        __pipeline_memcpy_async(keys + r * slice + (t - lo),
                                key + (r << k.log_ring) + t, sizeof(uint4));
    __pipeline_commit();
    // 2. Coefficient forms, digits, their transforms.
    if constexpr (kLogN > 0) {
      using Ntt = UnitNtt<kLogN>;
      const int u = threadIdx.x;
      const u32 q = big_q;
      const u32 *from = acc + ((parts >> 1) << kLogN);
      // Inverse radix-4 passes through coef (the first reads acc): all of
      // them at odd log N, all but the last at even.
      constexpr int kSmemPasses = Ntt::kOdd ? Ntt::kPasses : Ntt::kPasses - 1;
#pragma unroll
      for (int p = 0; p < kSmemPasses; ++p) {
        int t;
        const int off = Ntt::invOff(p, u, t);
        const u32 *in = p == 0 ? from : coef;
        u32 a = in[off], b = in[off + t], c = in[off + 2 * t],
            d = in[off + 3 * t];
        ntt.invUnit(p, a, b, c, d, q);
        coef[off] = a, coef[off + t] = b, coef[off + 2 * t] = c,
        coef[off + 3 * t] = d;
        __syncthreads();
      }
      // The inverse's last stage(s), N^-1, then the digits of each of this
      // block's rows and the forward's first stage(s), in registers, on
      // positions u + e N/4.
      u32 v[4];
      {
        for (int e = 0; e < 4; ++e)
          v[e] = coef[u + e * Ntt::kQuarter];
        ntt.invLast(v, k.n_inv, k.n_inv_shoup, q);
      }
#pragma unroll
      for (int j = 0; j < kPer; ++j) {
        const int d = (rank + j * C) / 2 + 1;
        u32 w[4];
#pragma unroll
        for (int e = 0; e < 4; ++e)
          w[e] = gadgetDigit(k, gadgetInput(k, v[e]), d);
        if constexpr (Ntt::kOdd) {
          const u32 two_q = 2 * q;
          fwdButterfly(w[0], w[2], ntt.fw2[0], ntt.fw2[1], q, two_q);
          fwdButterfly(w[1], w[3], ntt.fw2[0], ntt.fw2[1], q, two_q);
        } else {
          ntt.fwdUnit(0, w[0], w[1], w[2], w[3], q);
        }
        u32 *x = dig + (j << kLogN) + u;
        x[0] = w[0], x[Ntt::kQuarter] = w[1], x[2 * Ntt::kQuarter] = w[2],
        x[3 * Ntt::kQuarter] = w[3];
      }
      __syncthreads();
#pragma unroll
      for (int p = Ntt::kOdd ? 0 : 1; p < Ntt::kPasses; ++p) {
        int t2;
        const int off = Ntt::fwdOff(p, u, t2);
#pragma unroll
        for (int j = 0; j < kPer; ++j) {
          u32 *x = dig + (j << kLogN) + off;
          u32 a = x[0], b = x[t2], c = x[2 * t2], d = x[3 * t2];
          ntt.fwdUnit(p, a, b, c, d, q);
          if (p + 1 < Ntt::kPasses) {
            x[0] = a, x[t2] = b, x[2 * t2] = c, x[3 * t2] = d;
          } else { // positions 4u .. 4u + 3: to the slice's owner
            const int r = rank + j * C, pos = 4 * u, owner = pos / slice;
            u32 *to = cluster.map_shared_rank(digs, owner);
            *reinterpret_cast<uint4 *>(to + r * slice + (pos - owner * slice)) =
                make_uint4(a, b, c, d);
          }
        }
        if (p + 1 < Ntt::kPasses)
          __syncthreads();
      }
    } else {
      if (parts == 3)
        nttInverse(coef, acc, 2, k);
      else {
        const int p = parts >> 1; // 1 -> part 0, 2 -> part 1
        nttInverse(coef + (p << k.log_ring), acc + (p << k.log_ring), 1, k);
      }
      for (int j = 0; j < mine; ++j) {
        const int r = rank + j * C, d = r / 2 + 1;
        const u32 *from = coef + ((r & 1) << k.log_ring);
        for (int t = threadIdx.x; t < big_n; t += blockDim.x)
          dig[(j << k.log_ring) + t] =
              gadgetDigit(k, gadgetInput(k, from[t]), d);
      }
      __syncthreads();
      nttForward<false>(dig, mine, k);
      // 3. Each slice of the digit rows to its owner.
      for (int j = 0; j < mine; ++j) {
        const int r = rank + j * C;
        const uint4 *mine4 =
            reinterpret_cast<const uint4 *>(dig + (j << k.log_ring));
        for (int g = threadIdx.x; g < big_n / 4; g += blockDim.x) {
          const int pos = 4 * g, owner = pos / slice;
          u32 *to = cluster.map_shared_rank(digs, owner);
          *reinterpret_cast<uint4 *>(to + r * slice + (pos - owner * slice)) =
              mine4[g];
        }
      }
    }
    __pipeline_wait_prior(0);
    cluster.sync(); // every slice's digits and key words are in place
    // 4. Both external products over this slice, then acc += (X^m - 1) P0
    // + (X^-m - 1) P1, written into every block's accumulator.
    for (int t = lo + int(threadIdx.x); t < hi; t += blockDim.x) {
      u64 s00 = 0, s01 = 0, s10 = 0, s11 = 0; // [key][component]
      for (int r = 0; r < k.rows; ++r) {
        const u64 d = digs[r * slice + (t - lo)];
        const uint4 w = keys[r * slice + (t - lo)];
        s00 += d * w.x, s01 += d * w.y, s10 += d * w.z, s11 += d * w.w;
      }
      u32 a0, a1;
      if constexpr (kAp) { // AP: the product replaces the accumulator
        a0 = reduce64(s00, k.big_q, k.ratio);
        a1 = reduce64(s01, k.big_q, k.ratio);
      } else {
        u64 fp, fm;
        stepMonomials(k, m, t, fp, fm);
        a0 = stepUpdate(k, acc[t], s00, s10, fp, fm);
        a1 = stepUpdate(k, acc[big_n + t], s01, s11, fp, fm);
      }
#pragma unroll
      for (int b = 0; b < (kC > 0 ? kC : 1); ++b) {
        u32 *other = cluster.map_shared_rank(acc, b);
        other[t] = a0, other[big_n + t] = a1;
      }
      for (int b = kC > 0 ? kC : 1; b < C; ++b) {
        u32 *other = cluster.map_shared_rank(acc, b);
        other[t] = a0, other[big_n + t] = a1;
      }
    }
    cluster.sync(); // the accumulator is whole in every block again
  }
  if (rank != 0)
    return;
  nttInverse(acc, nullptr, 2, k);
  extractSample(k, acc, ext + size_t(job.out) * (big_n + 1));
}

// Distributed shared memory with transaction barriers (PTX mbarrier and
// st.async): a block stores into another block's shared memory and the
// bytes count down that block's barrier, so each block waits only for the
// data it reads, without a cluster-wide barrier or a release fence.
__device__ __forceinline__ u32 smemAddress(const void *p) {
  return static_cast<u32>(__cvta_generic_to_shared(p));
}
/// The address of the same shared-memory location in block `rank`.
__device__ __forceinline__ u32 clusterAddress(u32 addr, u32 rank) {
  u32 out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(out)
               : "r"(addr), "r"(rank));
  return out;
}
__device__ __forceinline__ void mbarInit(u32 bar, u32 count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count)
               : "memory");
}
/// One arrival that also expects `bytes` of stores this phase.
__device__ __forceinline__ void mbarExpect(u32 bar, u32 bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
      "r"(bytes)
      : "memory");
}
/// Waits until the phase of `parity` has completed (its bytes are here).
/// The default .acquire.cta semantics, as CUTLASS's cluster barriers use:
/// .acquire.cluster would also invalidate L1 (CCTL.IVALL, 11% of the
/// stall samples), which only global data written by other SMs needs.
__device__ __forceinline__ void mbarWait(u32 bar, u32 parity) {
  asm volatile("{\n"
               ".reg .pred done;\n"
               "WAIT_%=:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT_%=;\n"
               "}\n" ::"r"(bar),
               "r"(parity)
               : "memory");
}
/// 16 bytes into another block's shared memory (cluster addresses),
/// counted on its barrier.
__device__ __forceinline__ void storeAsync(u32 addr, uint4 v, u32 bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.u32 "
               "[%0], {%1, %2, %3, %4}, [%5];" ::"r"(addr),
               "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "r"(bar)
               : "memory");
}

/// One thread-block cluster of 4 blocks per rotation job, the external
/// product by modulus raising (Params::raising; VeloFHE's Algorithm 3).
/// Block (r, x) = rank 2 r + x works at prime r (0: Q, 1: P) on the
/// accumulator's part x (0: a, 1: b) and the product's component x. The
/// accumulator stays in coefficient form at Q, in registers: thread u
/// holds positions u + e N/4 (e = 0..3) of its block's part, which is where
/// the forward transform starts and the inverse ends (UnitNtt). A step:
///   1. prefetch the next step's key words of (r, x) (cp.async, one uint4
///      per position: both keys' rows 0 and 1 of component x, times 2^64
///      mod the prime for the Montgomery reductions);
///   2. lift part x (centred) to prime r and transform it; the last pass
///      stores positions 4u .. 4u + 3 here and at the block of the other
///      part (its mate);
///   3. once the mate's transform is here: component x of both products
///      at 4u .. 4u + 3, times X^m - 1 and X^-m - 1, straight into the
///      inverse's first pass; the inverse's last stage leaves positions u +
///      e N/4 in registers, which go to the block of the other prime (its
///      twin) as one 16-byte store;
///   4. once the twin's product is here: acc_x += (t_Q - [t_P]) P^-1 mod Q
///      (round(t / P)), in both blocks of part x (the same words).
/// The exchanges are st.async stores counted on the receiver's
/// transaction barrier (no cluster barrier per step). Their buffers
/// alternate by step: a block can be at most one step ahead of what it
/// overwrites, since its next store of a buffer needs, through its
/// inputs, the receiver's reads of it to be done.
/// Per block and step: one forward and one inverse NTT of N points and 4
/// multiply-adds per coefficient; the blocks exchange 2N words each.
/// Shared memory: key words 2N uint4 (this step's and the next's), the
/// parts' transforms 2 x 2N, the product N, the twin's product 2 x N words,
/// four barriers. The sums are the CPU's integers
/// (Evaluator::blindRotateRaising), so every word matches.
template <int kLogN>
__global__ void __launch_bounds__(1 << (kLogN - 2))
    blindRotateRaiseKernel(const KParams k, const u32 *wires,
                           const RotJob *jobs, const u32 *tv, u32 *ext) {
  namespace cg = cooperative_groups;
  using Ntt = UnitNtt<kLogN>;
  constexpr int kN = 1 << kLogN, kQ4 = Ntt::kQuarter;
  constexpr u32 kBytes = 4 * kN; // an exchange: N words
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = int(cluster.block_rank());
  const int prime = rank >> 1, x = rank & 1;
  extern __shared__ __align__(16) u32 sm[];
  uint4 *keys = reinterpret_cast<uint4 *>(sm); // [2][N], by step parity
  u32 *hat = sm + 8 * kN;                      // [2][2][N]: [slot][part]
  u32 *prod = hat + 4 * kN;                    // [N]
  u32 *twin_prod = prod + kN; // [2][N]: position u + e N/4 at 4u + e
  uint64_t *bars = reinterpret_cast<uint64_t *>(twin_prod + 2 * kN);
  // bars[slot]: the mate's transform; bars[2 + slot]: the twin's product.
  const u32 bar0 = smemAddress(bars);
  const u32 mate_hat = clusterAddress(smemAddress(hat + x * kN), rank ^ 1);
  const u32 mate_bar = clusterAddress(bar0, rank ^ 1);
  const u32 twin_in = clusterAddress(smemAddress(twin_prod), rank ^ 2);
  const u32 twin_bar = clusterAddress(bar0 + 16, rank ^ 2);
  const Tables tab = tablesOf(k, prime);
  const u32 q = tab.q, big_q = k.big_q, big_p = k.big_p;
  Ntt ntt;
  ntt.load(tab, threadIdx.x);
  const int u = threadIdx.x;
  // Positions 4u + j evaluate X at psi^(ebr_u + brev2(j) N/2): the step's
  // monomials there are psi^(m ebr_u) times a power of psi^(N/2).
  const u32 ebr_u = 2 * (__brev(u32(u)) >> (34 - kLogN)) + 1;
  if (u == 0) {
    for (int b = 0; b < 4; ++b)
      mbarInit(bar0 + 8 * b, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }

  const RotJob job = jobs[blockIdx.x / 4];
  const JobInput in(k, wires, job);
  const u32 *job_tv = tv + (size_t(job.tv) << kLogN);
  u32 acc[4]; // part x at Q, positions u + e N/4
  {
    // (0, X^-e tv): part 1 is the rotated test vector.
    const u32 mask2n = 2 * kN - 1, f = 2 * kN / k.q;
    const u32 rot = (2 * kN - (in.body() * f & mask2n)) & mask2n;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int t = u + e * kQ4;
      const u32 src = (t - rot) & mask2n;
      const u32 v = __ldg(job_tv + (src & (kN - 1)));
      acc[e] = x == 0 ? 0 : src < u32(kN) ? v : (v == 0 ? 0 : big_q - v);
    }
  }
  // The step's key words, prefetched a step ahead into keys[slot].
  auto prefetch = [&](int i, int slot) {
    const uint4 *key = k.bsk_raise + ((size_t(i) * 2 + prime) * 2 + x) * kN;
#pragma unroll
    for (int e = 0; e < 4; ++e)
      __pipeline_memcpy_async(keys + slot * kN + u + e * kQ4, key + u + e * kQ4,
                              sizeof(uint4));
  };
  auto nextStep = [&](int i) { // the first step from i that rotates
    while (i < k.n && stepRotation(k, in, i) == 0)
      ++i;
    return i;
  };
  int i = nextStep(0);
  u32 count = 0; // steps done: slot count & 1, phase (count >> 1) & 1
  if (i < k.n)
    prefetch(i, 0);
  __pipeline_commit();
  cluster.sync(); // every block has started, its barriers initialised
  // Each barrier's first phase expects N words (stores that arrive before
  // this arrival only make its byte count negative meanwhile).
  if (u == 0)
    for (int b = 0; b < 4; ++b)
      mbarExpect(bar0 + 8 * b, kBytes);

  while (i < k.n) {
    const u32 m = stepRotation(k, in, i);
    const int slot = count & 1;
    const u32 phase = (count >> 1) & 1;
    const int next = nextStep(i + 1);
    if (next < k.n)
      prefetch(next, slot ^ 1);
    __pipeline_commit(); // (empty after the last step)
    // The monomials' two powers of psi, loaded now for step 3.
    const u32 mask2n = 2 * kN - 1, ex = m * ebr_u & mask2n;
    const u32 base[2] = {__ldg(tab.pw + ex),
                         __ldg(tab.pw + ((0u - ex) & mask2n))};
    // 2. Lift (centred: Q/2 < P), then the forward transform: its first
    // stage(s) in registers, the rest through hat[slot][x].
    u32 *parts = hat + slot * 2 * kN, *mine = parts + x * kN;
    {
      u32 w[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const u32 v = acc[e] > big_q / 2 ? acc[e] + (q - big_q) : acc[e];
        w[e] = v >= q ? v - q : v;
      }
      if constexpr (Ntt::kOdd) {
        fwdButterfly(w[0], w[2], ntt.fw2[0], ntt.fw2[1], q, 2 * q);
        fwdButterfly(w[1], w[3], ntt.fw2[0], ntt.fw2[1], q, 2 * q);
      } else {
        ntt.fwdUnit(0, w[0], w[1], w[2], w[3], q);
      }
#pragma unroll
      for (int e = 0; e < 4; ++e)
        mine[u + e * kQ4] = w[e];
    }
    __syncthreads();
#pragma unroll
    for (int p = Ntt::kOdd ? 0 : 1; p < Ntt::kPasses; ++p) {
      int t2;
      const int off = Ntt::fwdOff(p, u, t2);
      u32 *y = mine + off;
      u32 a = y[0], b = y[t2], c = y[2 * t2], d = y[3 * t2];
      ntt.fwdUnit(p, a, b, c, d, q);
      if (p + 1 < Ntt::kPasses) {
        y[0] = a, y[t2] = b, y[2 * t2] = c, y[3 * t2] = d;
        __syncthreads();
      } else { // positions 4u .. 4u + 3: here and at the mate
        const uint4 v = make_uint4(a, b, c, d);
        *reinterpret_cast<uint4 *>(mine + 4 * u) = v;
        storeAsync(mate_hat + 4 * (slot * 2 * kN + 4 * u), v,
                   mate_bar + 8 * slot);
      }
    }
    u32 turned[2]; // base times psi^(N/2)
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      const u32 r = mulShoupLazy32(base[s], tab.root4, tab.root4_shoup, q);
      turned[s] = r >= q ? r - q : r;
    }
    __pipeline_wait_prior(1);         // this step's key words (not the next's)
    mbarWait(bar0 + 8 * slot, phase); // the mate's transform
    __syncthreads();                  // and every thread's key words
    if (u == 0)
      mbarExpect(bar0 + 8 * slot, kBytes); // this slot's next use
    // 3. Component x of both products at 4u .. 4u + 3, times the
    // monomials, into the inverse's first pass. The key words carry 2^64
    // (mod q), so two Montgomery reductions leave the exact sums' residues
    // in [0, 2q) (sums below 8 q^2 < q 2^32).
    const uint4 *kw = keys + slot * kN;
    u32 r4[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int t = 4 * u + j;
      const u32 b2 = (j & 1) << 1 | (j >> 1); // brev2(j)
      u32 f[2];
#pragma unroll
      for (int s = 0; s < 2; ++s) { // psi^(+-m ebr) - 1
        const u32 e = (s == 0 ? m * b2 : 0u - m * b2) & 3;
        const u32 v = (e & 1) ? turned[s] : base[s];
        f[s] = ((e & 2) ? q - v : v) - 1;
      }
      const u64 h0 = parts[t], h1 = parts[kN + t];
      const uint4 w = kw[t];
      const u32 s0 = redc(h0 * w.x + h1 * w.y, q, tab.mont);
      const u32 s1 = redc(h0 * w.z + h1 * w.w, q, tab.mont);
      r4[j] = redc(u64(s0) * f[0] + u64(s1) * f[1], q, tab.mont);
    }
    ntt.invUnit(0, r4[0], r4[1], r4[2], r4[3], q);
    *reinterpret_cast<uint4 *>(prod + 4 * u) =
        make_uint4(r4[0], r4[1], r4[2], r4[3]);
    __syncthreads();
    constexpr int kSmemPasses = Ntt::kOdd ? Ntt::kPasses : Ntt::kPasses - 1;
#pragma unroll
    for (int p = 1; p < kSmemPasses; ++p) {
      int t;
      const int off = Ntt::invOff(p, u, t);
      u32 *y = prod + off;
      u32 a = y[0], b = y[t], c = y[2 * t], d = y[3 * t];
      ntt.invUnit(p, a, b, c, d, q);
      y[0] = a, y[t] = b, y[2 * t] = c, y[3 * t] = d;
      __syncthreads();
    }
    u32 v[4];
#pragma unroll
    for (int e = 0; e < 4; ++e)
      v[e] = prod[u + e * kQ4];
    ntt.invLast(v, tab.n_inv, tab.n_inv_shoup, q);
    storeAsync(twin_in + 4 * (slot * kN + 4 * u),
               make_uint4(v[0], v[1], v[2], v[3]), twin_bar + 8 * slot);
    // 4. acc += round(t / P) = (t_Q - [t_P]) P^-1 mod Q, once the twin's
    // product is here.
    mbarWait(bar0 + 16 + 8 * slot, phase);
    const uint4 o =
        *reinterpret_cast<const uint4 *>(twin_prod + slot * kN + 4 * u);
    if (u == 0)
      mbarExpect(bar0 + 16 + 8 * slot, kBytes); // (after every thread's wait:
    // the slot's next phase needs this block's next step, past the
    // forward's barriers)
    const u32 other[4] = {o.x, o.y, o.z, o.w};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const u32 tq = prime == 0 ? v[e] : other[e];
      const u32 tp = prime == 0 ? other[e] : v[e];
      u32 r;
      if (tp > big_p / 2) {
        const u32 neg = big_p - tp; // below P/2 < Q
        r = tq + neg;
        r = r >= big_q ? r - big_q : r;
      } else {
        const u32 tpq = tp >= big_q ? tp - big_q : tp;
        r = tq >= tpq ? tq - tpq : tq + big_q - tpq;
      }
      u32 delta = mulShoupLazy32(r, k.p_inv, k.p_inv_shoup, big_q);
      delta = delta >= big_q ? delta - big_q : delta;
      const u32 sum = acc[e] + delta;
      acc[e] = sum >= big_q ? sum - big_q : sum;
    }
    i = next;
    ++count;
  }
  // Sample extraction: block (Q, a) writes the constant coefficient's mask
  // (a_0, -a_(N-j)), block (Q, b) its body b_0.
  u32 *out = ext + size_t(job.out) * (kN + 1);
  if (rank == 0) {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int t = u + e * kQ4;
      out[t == 0 ? 0 : kN - t] =
          t == 0 || acc[e] == 0 ? acc[e] : big_q - acc[e];
    }
  } else if (rank == 1 && u == 0) {
    out[kN] = acc[0];
  }
  cluster.sync(); // no block leaves while others may still store to it
}

/// Coefficient j of an extracted sum (rows r1 + r2, plus the offset on b)
/// switched from Q to q_ks.
__device__ __forceinline__ u32 extToQks(const KParams &k, const u32 *r1,
                                        const u32 *r2, u32 offset, int j) {
  const int big_n = 1 << k.log_ring;
  u64 v = u64(r1[j]) + (r2 ? r2[j] : 0) + (j == big_n ? offset : 0);
  v %= k.big_q;
  return u32((v * k.q_ks + k.big_q / 2) / k.big_q % k.q_ks);
}

/// One block per key-switch job and slice of the N input coefficients
/// (gridDim.y slices): the sum of one or two extracted rows (mod Q) plus
/// the offset on b, switched to q_ks in shared memory, key-switched s' -> s
/// (N d_ks rows of n + 1 words of the key read, those of zero digits
/// skipped), then switched to q. With one slice a block writes its output;
/// with several (batches too small to fill the GPU, where one block would
/// stream a job's ~3.4 MB of key alone) each block adds its slice's sums
/// into `sums` (mod 2^32, so the order does not matter and the words are
/// the same) and keySwitchFinishKernel rounds them. Bytes per job: about
/// N d_ks (1 - 1/Bks) (n + 1) words of W (the key's word: u16 or u32).
template <bool kSplit, typename W>
__global__ void __launch_bounds__(kSwitchThreads)
    keySwitchKernel(const KParams k, const u32 *ext, const KsJob *jobs,
                    u32 *dst, u32 *sums) {
  extern __shared__ u32 in[]; // N + 1 words at q_ks
  const int big_n = 1 << k.log_ring, n = k.n;
  const KsJob job = jobs[blockIdx.x];
  const u32 *r1 = ext + size_t(job.r1) * (big_n + 1);
  const u32 *r2 = job.r2 >= 0 ? ext + size_t(job.r2) * (big_n + 1) : nullptr;
  const int slice = (big_n + gridDim.y - 1) / gridDim.y;
  const int lo = blockIdx.y * slice, hi = min(big_n, lo + slice);
  for (int j = lo + threadIdx.x; j < hi; j += blockDim.x)
    in[j] = extToQks(k, r1, r2, job.offset, j);
  if (!kSplit && threadIdx.x == 0)
    in[big_n] = extToQks(k, r1, r2, job.offset, big_n);
  __syncthreads();
  const u32 digit_mask = k.base_ks - 1;
  u32 acc[kSwitchPerThread] = {};
  for (int i = lo; i < hi; ++i) {
    const u32 xi = in[i];
    for (int j = 0; j < k.dks; ++j) {
      const u32 v = (xi >> (j * k.log_bks)) & digit_mask;
      if (v == 0)
        continue;
      const W *row = (sizeof(W) == 2 ? reinterpret_cast<const W *>(k.ksk)
                                     : reinterpret_cast<const W *>(k.ksk32)) +
                     ((size_t(i) * k.dks + j) * digit_mask + v - 1) * (n + 1);
#pragma unroll
      for (int s = 0; s < kSwitchPerThread; ++s) {
        const int t = threadIdx.x + s * kSwitchThreads;
        if (t <= n)
          acc[s] -= __ldg(row + t);
      }
    }
  }
#pragma unroll
  for (int s = 0; s < kSwitchPerThread; ++s) {
    const int t = threadIdx.x + s * kSwitchThreads;
    if (t > n)
      continue;
    if (kSplit) {
      atomicAdd(sums + size_t(blockIdx.x) * (n + 1) + t, acc[s]);
      continue;
    }
    const u32 v = (t == n ? in[big_n] + acc[s] : acc[s]) & (k.q_ks - 1);
    dst[size_t(job.out) * (n + 1) + t] =
        u32((u64(v) * k.q + k.q_ks / 2) / k.q_ks) & (k.q - 1);
  }
}

/// One block per job: the slices' sums (keySwitchKernel<true, W>) plus b at
/// q_ks, switched to q.
__global__ void keySwitchFinishKernel(const KParams k, const u32 *ext,
                                      const KsJob *jobs, u32 *dst,
                                      const u32 *sums) {
  const int big_n = 1 << k.log_ring, n = k.n;
  const KsJob job = jobs[blockIdx.x];
  const u32 *r1 = ext + size_t(job.r1) * (big_n + 1);
  const u32 *r2 = job.r2 >= 0 ? ext + size_t(job.r2) * (big_n + 1) : nullptr;
  const u32 b = extToQks(k, r1, r2, job.offset, big_n);
  for (int t = threadIdx.x; t <= n; t += blockDim.x) {
    const u32 s = sums[size_t(blockIdx.x) * (n + 1) + t];
    const u32 v = (t == n ? b + s : s) & (k.q_ks - 1);
    dst[size_t(job.out) * (n + 1) + t] =
        u32((u64(v) * k.q + k.q_ks / 2) / k.q_ks) & (k.q - 1);
  }
}

/// One block per linear job (NOT, a known bit): n + 1 words.
__global__ void linearKernel(const KParams k, u32 *wires, const LinJob *jobs) {
  const LinJob job = jobs[blockIdx.x];
  u32 *out = wires + size_t(job.out) * (k.n + 1);
  const u32 *a = job.a >= 0 ? wires + size_t(job.a) * (k.n + 1) : nullptr;
  for (int t = threadIdx.x; t <= k.n; t += blockDim.x)
    out[t] = ((a ? job.x * a[t] : 0) + (t == k.n ? job.c : 0)) & (k.q - 1);
}

/// One block per radix linear job (kLinear, kBlock): N + 1 words at Q
/// read from each operand and written (8 KB at N = 2048).
__global__ void blockLinearKernel(const KParams k, u32 *wires,
                                  const BlockLinJob *jobs) {
  const BlockLinJob job = jobs[blockIdx.x];
  const int big_n = 1 << k.log_ring;
  const size_t row = size_t(big_n) + 1;
  u32 *out = wires + size_t(job.out) * row;
  const u32 *a = job.a >= 0 ? wires + size_t(job.a) * row : nullptr;
  const u32 *b = job.b >= 0 ? wires + size_t(job.b) * row : nullptr;
  for (int t = threadIdx.x; t <= big_n; t += blockDim.x) {
    const u64 v = (a ? u64(job.x) * a[t] : 0) + (b ? u64(job.y) * b[t] : 0) +
                  (t == big_n ? job.c : 0);
    out[t] = u32(v % k.big_q);
  }
}

using RotateKernel = void (*)(KParams, const u32 *, const RotJob *, const u32 *,
                              u32 *);

/// The blind-rotation kernel for a register budget: kMinBlocks blocks per
/// SM (5: the compiler's 48 registers; 6: 40; 7: 32, with small spills).
/// EMBER_TFHE_MIN_BLOCKS picks one (measured in bench/RESULTS.md).
RotateKernel rotateKernel() {
  const char *env = std::getenv("EMBER_TFHE_MIN_BLOCKS");
  const int want = env ? std::atoi(env) : kDefaultMinBlocks;
  switch (want) {
  case 1:
    return blindRotateKernel<kRotateThreads, 1>;
  case 7:
    return blindRotateKernel<kRotateThreads, 7>;
  case 6:
    return blindRotateKernel<kRotateThreads, 6>;
  default:
    return blindRotateKernel<kRotateThreads, kDefaultMinBlocks>;
  }
}

/// The modulus-raising kernel at N = 2^log_n (null where not built).
RotateKernel raiseKernel(int log_n) {
  switch (log_n) {
  case 9:
    return blindRotateRaiseKernel<9>;
  case 10:
    return blindRotateRaiseKernel<10>;
  case 11:
    return blindRotateRaiseKernel<11>;
  default:
    return nullptr;
  }
}

/// The cluster kernel for clusters of `blocks`: unrolled for the sets'
/// shapes (TOY 4 rows on 4 blocks, STD128 6 on 6, STD128Q 12 on 6),
/// generic otherwise.
/// The fast path (UnitNtt) for the sets' shapes: N 1024 or 2048 (log_n),
/// `per` rows on each of `blocks` blocks (even, so each block's rows are of
/// one part): STD128 6 rows on 6 blocks, STD128Q and STD128_4BIT 12 on 6
/// (on 12 where EMBER_TFHE_CLUSTER_BLOCKS allows). Null elsewhere.
RotateKernel fastClusterKernel(int blocks, int per, int log_n, bool ap) {
  if (ap) // AP (Params::ap): STD128_AP's shape
    return log_n == 10 && blocks == 6 && per == 1
               ? blindRotateClusterKernel<6, 10, 1, true>
               : nullptr;
  if (log_n == 10 && blocks == 6 && per == 1)
    return blindRotateClusterKernel<6, 10, 1>;
  if (log_n == 10 && blocks == 6 && per == 2)
    return blindRotateClusterKernel<6, 10, 2>;
  if (log_n == 10 && blocks == 12 && per == 1)
    return blindRotateClusterKernel<12, 10, 1>;
  if (log_n == 11 && blocks == 6 && per == 2)
    return blindRotateClusterKernel<6, 11, 2>;
  if (log_n == 11 && blocks == 12 && per == 1)
    return blindRotateClusterKernel<12, 11, 1>;
  return nullptr;
}
/// The generic cluster kernel (TOY: 4 rows on 4 blocks).
RotateKernel genericClusterKernel(int blocks, bool ap) {
  if (ap)
    return blocks == 4 ? blindRotateClusterKernel<4, 0, 1, true>
                       : blindRotateClusterKernel<0, 0, 1, true>;
  switch (blocks) {
  case 4:
    return blindRotateClusterKernel<4, 0>;
  case 6:
    return blindRotateClusterKernel<6, 0>;
  default:
    return blindRotateClusterKernel<0, 0>;
  }
}

template <typename T> T *upload(const std::vector<T> &v) {
  T *d = nullptr;
  EMBER_CUDA_CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
  EMBER_CUDA_CHECK(
      cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

} // namespace

/// Device memory that grows to the largest request and is kept.
template <typename T> struct Grow {
  T *ptr = nullptr;
  size_t count = 0;
  T *get(size_t n) {
    if (n > count) {
      if (ptr)
        cudaFree(ptr);
      EMBER_CUDA_CHECK(cudaMalloc(&ptr, std::max<size_t>(n, 1) * sizeof(T)));
      count = n;
    }
    return ptr;
  }
  ~Grow() {
    if (ptr)
      cudaFree(ptr);
  }
};

struct DeviceEvaluator::Impl {
  Params params;
  KParams k{};
  std::vector<void *> owned;
  /// ks_out: the key switches' outputs of radix blocks (rows at q).
  Grow<u32> wires, ext, out, tv, ks_sums, ks_out;
  Grow<RotJob> rot_jobs;
  Grow<KsJob> ks_jobs;
  Grow<LinJob> lin_jobs;
  Grow<BlockLinJob> block_jobs;
  size_t shared_bytes = 0;
  RotateKernel rotate_kernel = nullptr;
  RotateKernel rotate_latency = blindRotateKernel<kLatencyThreads, 1>;
  int sms = 0;
  /// Blocks per cluster of blindRotateClusterKernel (0: no clusters on
  /// this device), its shared memory, and the largest batch it takes
  /// (EMBER_TFHE_CLUSTER_JOBS, default the SM count; 0 turns it off).
  int cluster = 0;
  int cluster_threads = kClusterThreads; ///< N / 4 on the fast path
  RotateKernel cluster_kernel = nullptr;
  size_t cluster_bytes = 0, cluster_jobs = 0;
  std::vector<u32> sign_tv;
  u32 q8_big = 0; ///< round(Q/8): added to a gate's extracted b
  std::string device_name;
  cudaStream_t stream = nullptr;
  cudaEvent_t events[5] = {};
  Timing timing;

  /// A launch of the cluster kernel over `grid` blocks in clusters of
  /// `blocks` (attr: the cluster dimension, which cfg points to).
  cudaLaunchConfig_t clusterLaunch(unsigned grid, int blocks,
                                   cudaLaunchAttribute &attr) const {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(unsigned(cluster_threads));
    cfg.dynamicSmemBytes = cluster_bytes;
    cfg.stream = stream;
    attr = {};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = unsigned(blocks);
    attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    return cfg;
  }
  /// Frees the keys and tables, the stream and the events.
  void release() {
    for (void *p : owned)
      cudaFree(p);
    owned.clear();
    for (cudaEvent_t &e : events)
      if (e)
        cudaEventDestroy(e), e = nullptr;
    if (stream)
      cudaStreamDestroy(stream), stream = nullptr;
  }
  template <typename T> const T *keep(const std::vector<T> &v) {
    T *d = upload(v);
    owned.push_back(d);
    return d;
  }
  size_t row() const { return params.n + 1; }

  template <typename T> T *put(Grow<T> &g, const std::vector<T> &v) {
    T *d = g.get(v.size());
    EMBER_CUDA_CHECK(cudaMemcpyAsync(d, v.data(), v.size() * sizeof(T),
                                     cudaMemcpyHostToDevice, stream));
    return d;
  }
  /// Blind rotations of `rot` (inputs: rows of n + 1 words at q in src;
  /// test vectors: rows of N words in d_tv), each extracted into row
  /// RotJob::out of ext (N + 1 words at Q). Batches of at most
  /// cluster_jobs go to the cluster kernel, other batches below the SM
  /// count to one 1024-thread block per job, full ones to 256-thread
  /// blocks.
  void rotate(const u32 *src, const std::vector<RotJob> &rot, const u32 *d_tv,
              u32 *d_ext) {
    const RotJob *d_rot = put(rot_jobs, rot);
    const size_t jobs = rot.size();
    if (cluster > 0 && jobs <= cluster_jobs) {
      cudaLaunchAttribute attr;
      const cudaLaunchConfig_t cfg =
          clusterLaunch(unsigned(jobs * cluster), cluster, attr);
      EMBER_CUDA_CHECK(
          cudaLaunchKernelEx(&cfg, cluster_kernel, k, src, d_rot, d_tv, d_ext));
    } else {
      const bool small = jobs < size_t(sms);
      (small ? rotate_latency
             : rotate_kernel)<<<unsigned(jobs),
                                small ? kLatencyThreads : kRotateThreads,
                                shared_bytes, stream>>>(k, src, d_rot, d_tv,
                                                        d_ext);
    }
    EMBER_CUDA_LAUNCH_CHECK(stream);
  }
  /// The key switches of `ks`: rows of ext (N + 1 words at Q) to q_ks,
  /// key-switched, to q, into rows KsJob::out of dst (n + 1 words). Key
  /// switches of batches below the SM count are split over slices of the
  /// input coefficients.
  void keySwitch(const u32 *d_ext, const std::vector<KsJob> &ks, u32 *dst) {
    const KsJob *d_ks = put(ks_jobs, ks);
    const size_t in_bytes = (params.ringN() + 1) * sizeof(u32);
    const unsigned slices = unsigned(std::min<size_t>(
        32, ks.size() < size_t(sms) ? 2 * size_t(sms) / ks.size() : 1));
    const bool wide = params.wideKeySwitch();
    if (slices <= 1) {
      (wide
           ? keySwitchKernel<false, u32>
           : keySwitchKernel<false, u16>)<<<unsigned(ks.size()), kSwitchThreads,
                                            in_bytes, stream>>>(k, d_ext, d_ks,
                                                                dst, nullptr);
    } else {
      const size_t words = ks.size() * row();
      u32 *sums = ks_sums.get(words);
      EMBER_CUDA_CHECK(cudaMemsetAsync(sums, 0, words * sizeof(u32), stream));
      (wide ? keySwitchKernel<true, u32>
            : keySwitchKernel<true, u16>)<<<dim3(unsigned(ks.size()), slices),
                                            kSwitchThreads, in_bytes, stream>>>(
          k, d_ext, d_ks, dst, sums);
      EMBER_CUDA_LAUNCH_CHECK(stream);
      keySwitchFinishKernel<<<unsigned(ks.size()), kSwitchThreads, 0, stream>>>(
          k, d_ext, d_ks, dst, sums);
    }
    EMBER_CUDA_LAUNCH_CHECK(stream);
  }
  /// Blind rotations of `rot` (through tv; RotJob::out their index), then
  /// the key switches of `ks` into rows of `dst`.
  void bootstrap(const u32 *src, const std::vector<RotJob> &rot,
                 const std::vector<KsJob> &ks, u32 *dst, const u32 *d_tv) {
    if (rot.empty())
      return;
    u32 *d_ext = ext.get(rot.size() * (params.ringN() + 1));
    rotate(src, rot, d_tv, d_ext);
    EMBER_CUDA_CHECK(cudaEventRecord(events[2], stream));
    keySwitch(d_ext, ks, dst);
  }
  /// Radix blocks, the key switch first (Evaluator::pbs): the key switches
  /// of `ks` (rows of src, N + 1 words at Q) into rows 0 .. of a scratch
  /// buffer at q, then the blind rotations of `rot` (reading that buffer,
  /// each job its own row of d_tvs), extracted into rows of dst. events[2]
  /// between the two.
  void bootstrapBlocks(const u32 *src, const std::vector<KsJob> &ks,
                       const std::vector<RotJob> &rot, const u32 *d_tvs,
                       u32 *dst) {
    if (ks.empty())
      return;
    u32 *mid = ks_out.get(ks.size() * row());
    keySwitch(src, ks, mid);
    EMBER_CUDA_CHECK(cudaEventRecord(events[2], stream));
    rotate(mid, rot, d_tvs, dst);
  }
  size_t blockRow() const { return params.ringN() + 1; }
  /// Evaluator::pbs of `count` block rows through one test vector.
  void runBlocks(const u32 *blocks, size_t count, const std::vector<u32> &tv_,
                 u32 *host_out) {
    if (count == 0)
      return;
    const size_t bytes = count * blockRow() * sizeof(u32);
    EMBER_CUDA_CHECK(cudaEventRecord(events[0], stream));
    // Rows 0 .. count - 1 the inputs, count .. 2 count - 1 the outputs.
    u32 *w = wires.get(2 * count * blockRow());
    EMBER_CUDA_CHECK(
        cudaMemcpyAsync(w, blocks, bytes, cudaMemcpyHostToDevice, stream));
    std::vector<KsJob> ks(count);
    std::vector<RotJob> rot(count);
    for (size_t i = 0; i < count; ++i) {
      ks[i] = {int32_t(i), -1, 0, int32_t(i)};
      rot[i] = {int32_t(i), -1, 1, 0, 0, 0, int32_t(count + i)};
    }
    const u32 *d_tv = put(tv, tv_);
    EMBER_CUDA_CHECK(cudaEventRecord(events[1], stream));
    bootstrapBlocks(w, ks, rot, d_tv, w);
    EMBER_CUDA_CHECK(cudaEventRecord(events[3], stream));
    EMBER_CUDA_CHECK(cudaMemcpyAsync(host_out, w + count * blockRow(), bytes,
                                     cudaMemcpyDeviceToHost, stream));
    EMBER_CUDA_CHECK(cudaEventRecord(events[4], stream));
    finish(true);
  }
  /// The batch API: rows a (and b) of count ciphertexts, l's x a + y b + c
  /// through tv, plus b_offset after extraction.
  void run(const u32 *a, const u32 *b, size_t count, Linear l,
           const std::vector<u32> &table_tv, u32 b_offset, u32 *host_out) {
    if (count == 0)
      return;
    const size_t bytes = count * row() * sizeof(u32);
    EMBER_CUDA_CHECK(cudaEventRecord(events[0], stream));
    u32 *w = wires.get((b ? 2 : 1) * count * row());
    EMBER_CUDA_CHECK(
        cudaMemcpyAsync(w, a, bytes, cudaMemcpyHostToDevice, stream));
    if (b)
      EMBER_CUDA_CHECK(cudaMemcpyAsync(w + count * row(), b, bytes,
                                       cudaMemcpyHostToDevice, stream));
    std::vector<RotJob> rot(count);
    std::vector<KsJob> ks(count);
    for (size_t i = 0; i < count; ++i) {
      rot[i] = rotJob(l, int32_t(i), b ? int32_t(count + i) : -1, int32_t(i));
      ks[i] = {int32_t(i), -1, b_offset, int32_t(i)};
    }
    const u32 *d_tv = put(tv, table_tv);
    EMBER_CUDA_CHECK(cudaEventRecord(events[1], stream));
    bootstrap(w, rot, ks, out.get(count * row()), d_tv);
    EMBER_CUDA_CHECK(cudaEventRecord(events[3], stream));
    EMBER_CUDA_CHECK(cudaMemcpyAsync(host_out, out.ptr, bytes,
                                     cudaMemcpyDeviceToHost, stream));
    EMBER_CUDA_CHECK(cudaEventRecord(events[4], stream));
    finish();
  }
  /// Waits for the stream; the stages' times from events 0 .. 4 (upload,
  /// rotations, key switches, download; with ks_first the key switches
  /// before the rotations).
  void finish(bool ks_first = false) {
    EMBER_CUDA_CHECK(cudaStreamSynchronize(stream));
    float ms[4];
    for (int i = 0; i < 4; ++i)
      EMBER_CUDA_CHECK(cudaEventElapsedTime(&ms[i], events[i], events[i + 1]));
    if (ks_first)
      std::swap(ms[1], ms[2]);
    timing = {ms[0], ms[1], ms[2], ms[3]};
  }
};

DeviceEvaluator::DeviceEvaluator(const EvaluationKeys &keys)
    : impl_(std::make_unique<Impl>()) {
  Impl &I = *impl_;
  const EvaluationKeys::Impl &h = keys.impl();
  const Params &p = h.params;
  if (p.n + 1 > kSwitchThreads * kSwitchPerThread)
    throw InvalidArgument(
        "DeviceEvaluator: n = " + std::to_string(p.n) +
        " exceeds the key-switching kernel's " +
        std::to_string(kSwitchThreads * kSwitchPerThread - 1));
  if (p.ap() || p.raising()) {
    int dev = 0;
    cudaDeviceProp prop{};
    EMBER_CUDA_CHECK(cudaGetDevice(&dev));
    EMBER_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    if (p.ap() && prop.major < 9)
      throw InvalidArgument(
          "DeviceEvaluator: parameter set '" + p.name +
          "' is AP/DM, which the GPU runs on thread-block clusters "
          "(compute capability 9.0 or later); this is " +
          std::string(prop.name));
    if (p.raising() && (raiseKernel(p.log_ring) == nullptr || prop.major < 9))
      throw InvalidArgument(
          "DeviceEvaluator: parameter set '" + p.name +
          "' raises the modulus, which the GPU runs on thread-block clusters "
          "at N = 2^9 .. 2^11 (compute capability 9.0 or later); this is " +
          std::string(prop.name) + " at N = " + std::to_string(p.ringN()));
  }
  I.params = p;
  KParams &k = I.k;
  k.n = p.n;
  k.log_ring = p.log_ring;
  k.rows = h.rows;
  k.digits = h.rows / 2;
  k.log_bg = p.logBaseG();
  k.dks = p.digitsKs();
  k.log_bks = p.logBaseKs();
  k.q = p.q;
  k.big_q = p.ring_q;
  k.q_ks = p.q_ks;
  k.base_ks = p.base_ks;
  k.half = int32_t(p.base_g / 2);
  k.offset = 0;
  for (int d = 0; d < k.digits; ++d)
    k.offset += k.half << (d * k.log_bg);
  const size_t big_n = p.ringN();
  // One prime's tables on the device (Q's, and P's when raising).
  auto tables = [&](const Modulus<u32> &m, const NttTables<u32> &ntt,
                    u64 &ratio, u32 &n_inv, u32 &n_inv_shoup, const u32 *&roots,
                    const u32 *&roots_shoup, const u32 *&inv_roots,
                    const u32 *&inv_roots_shoup, const u32 *&pw) {
    ratio = ~u64{0} / m.value();
    n_inv = ntt.nInv();
    n_inv_shoup = ntt.nInvShoup();
    roots = I.keep(ntt.roots());
    roots_shoup = I.keep(ntt.rootsShoup());
    inv_roots = I.keep(ntt.invRoots());
    inv_roots_shoup = I.keep(ntt.invRootsShoup());
    pw = I.keep(psiPowers(m, ntt.psi(), big_n));
  };
  tables(h.ring_q, h.ntt, k.ratio, k.n_inv, k.n_inv_shoup, k.roots,
         k.roots_shoup, k.inv_roots, k.inv_roots_shoup, k.pw);
  if (p.raising()) {
    k.big_p = p.ring_p;
    tables(h.ring_p, h.ntt_p, k.p_ratio, k.p_n_inv, k.p_n_inv_shoup, k.p_roots,
           k.p_roots_shoup, k.p_inv_roots, k.p_inv_roots_shoup, k.p_pw);
    k.p_inv = h.ring_q.inv(p.ring_p % p.ring_q);
    k.p_inv_shoup = h.ring_q.shoup(k.p_inv);
    // Montgomery constants, psi^(N/2), and the key re-laid: (i, prime,
    // component c, j): key 0 rows 0 and 1, key 1 rows 0 and 1 of component
    // c (row r, component c at (2 r + c) N), each times 2^64 mod the prime.
    auto mont = [](u32 m) { // -m^-1 mod 2^32 (Newton: 5 steps from 1 bit)
      u32 inv = 1;
      for (int it = 0; it < 5; ++it)
        inv *= 2 - m * inv;
      return 0u - inv;
    };
    const Modulus<u32> *mods[2] = {&h.ring_q, &h.ring_p};
    const NttTables<u32> *ntts[2] = {&h.ntt, &h.ntt_p};
    u32 *mont_of[2] = {&k.q_mont, &k.p_mont};
    u32 *root4[2] = {&k.q_root4, &k.p_root4};
    u32 *root4_shoup[2] = {&k.q_root4_shoup, &k.p_root4_shoup};
    u32 r2[2];
    for (int prime = 0; prime < 2; ++prime) {
      const Modulus<u32> &m = *mods[prime];
      *mont_of[prime] = mont(m.value());
      *root4[prime] = m.pow(ntts[prime]->psi(), big_n / 2);
      *root4_shoup[prime] = m.shoup(*root4[prime]);
      r2[prime] = m.pow(m.pow(2, 32), 2);
    }
    std::vector<u32> re(2 * h.bsk.size());
    for (int i = 0; i < p.n; ++i)
      for (int prime = 0; prime < 2; ++prime)
        for (int c = 0; c < 2; ++c) {
          u32 *dst = re.data() + ((size_t(i) * 2 + prime) * 2 + c) * big_n * 4;
          for (int key = 0; key < 2; ++key) {
            const u32 *src = prime == 0 ? h.rgsw(i, key) : h.rgswP(i, key);
            for (int r = 0; r < 2; ++r)
              for (size_t j = 0; j < big_n; ++j)
                dst[j * 4 + key * 2 + r] = mods[prime]->mul(
                    src[size_t(2 * r + c) * big_n + j], r2[prime]);
          }
        }
    k.bsk_raise = reinterpret_cast<const uint4 *>(I.keep(re));
  } else if (p.ap()) {
    k.ap_digits = p.digitsR();
    k.log_br = p.logBaseR();
    k.ap_keys = p.apKeys();
    for (int d = 0; d < k.ap_digits; ++d)
      k.ap_base[d] = p.apKeyIndex(d, 1);
    std::vector<u32> re(2 * h.bsk.size(), 0);
    const size_t keys = size_t(p.n) * k.ap_keys;
    for (size_t key = 0; key < keys; ++key)
      for (int r = 0; r < h.rows; ++r)
        for (int c = 0; c < 2; ++c) {
          const u32 *src =
              h.bsk.data() + (key * h.rows * 2 + 2 * r + c) * big_n;
          for (size_t j = 0; j < big_n; ++j)
            re[((key * h.rows + r) * big_n + j) * 4 + c] = src[j];
        }
    k.bsk4 = reinterpret_cast<const uint4 *>(I.keep(re));
  } else {
    std::vector<u32> re(h.bsk.size());
    for (int i = 0; i < p.n; ++i)
      for (int key = 0; key < 2; ++key)
        for (int r = 0; r < h.rows; ++r)
          for (int c = 0; c < 2; ++c) {
            const u32 *src = h.rgsw(i, key) + size_t(2 * r + c) * big_n;
            for (size_t j = 0; j < big_n; ++j)
              re[((size_t(i) * h.rows + r) * big_n + j) * 4 + key * 2 + c] =
                  src[j];
          }
    k.bsk4 = reinterpret_cast<const uint4 *>(I.keep(re));
  }
  if (p.wideKeySwitch())
    k.ksk32 = I.keep(h.ksk32);
  else
    k.ksk = I.keep(h.ksk);
  I.shared_bytes = size_t(2 + h.rows) * p.ringN() * sizeof(u32);
  I.rotate_kernel = rotateKernel();
  for (RotateKernel kernel : {I.rotate_kernel, I.rotate_latency})
    EMBER_CUDA_CHECK(cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
        int(I.shared_bytes)));
  I.q8_big = roundedEighth(p.ring_q);
  I.sign_tv.assign(p.ringN(), I.q8_big);
  EMBER_CUDA_CHECK(cudaStreamCreateWithFlags(&I.stream, cudaStreamNonBlocking));
  for (cudaEvent_t &e : I.events)
    EMBER_CUDA_CHECK(cudaEventCreate(&e));
  int dev = 0;
  cudaDeviceProp prop{};
  EMBER_CUDA_CHECK(cudaGetDevice(&dev));
  EMBER_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  I.device_name = prop.name;
  I.sms = prop.multiProcessorCount;
  // The cluster kernel: rows spread over at most kPortableCluster blocks
  // (EMBER_TFHE_CLUSTER_BLOCKS: another bound up to kMaxCluster; the
  // portable 8 where the device will not run more).
  const char *env_blocks = std::getenv("EMBER_TFHE_CLUSTER_BLOCKS");
  const char *env_fast = std::getenv("EMBER_TFHE_CLUSTER_FAST");
  const char *env = std::getenv("EMBER_TFHE_CLUSTER_JOBS");
  // Up to the SM count the cluster kernel is the faster (H200, STD128: 2.25
  // against 6.3 ms at 1-8 ciphertexts, 5.7 against 6.5 at 64, 11.5
  // against 11.9 at 132; bench/RESULTS.md).
  I.cluster_jobs = env ? size_t(std::atol(env)) : size_t(I.sms);
  if (p.ap()) // only the cluster kernel runs AP
    I.cluster_jobs = ~size_t{0};
  if (p.raising()) {
    // Modulus raising runs on clusters of 4 blocks at every batch size.
    RotateKernel kernel = raiseKernel(p.log_ring);
    I.cluster = 4;
    I.cluster_jobs = ~size_t{0};
    I.cluster_threads = clusterThreads(p.log_ring);
    I.cluster_bytes = 15 * big_n * sizeof(u32) + 4 * sizeof(uint64_t);
    I.cluster_kernel = kernel;
    EMBER_CUDA_CHECK(cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
        int(I.cluster_bytes)));
    return;
  }
  int most = std::clamp(env_blocks ? std::atoi(env_blocks) : kPortableCluster,
                        1, kMaxCluster);
  while (prop.major >= 9 && I.cluster_jobs > 0 && I.cluster == 0) {
    const int per = (h.rows + most - 1) / most;
    const int blocks = (h.rows + per - 1) / per;
    const size_t slice = size_t(clusterSlice(int(p.ringN()), blocks));
    RotateKernel kernel =
        env_fast && std::atoi(env_fast) == 0
            ? nullptr
            : fastClusterKernel(blocks, per, p.log_ring, p.ap());
    const bool fast = kernel != nullptr && h.rows == blocks * per;
    if (!fast)
      kernel = genericClusterKernel(blocks, p.ap());
    I.cluster_threads = clusterThreads(fast ? p.log_ring : 0);
    I.cluster_bytes =
        (5 * h.rows * slice + size_t(4 + per) * p.ringN()) * sizeof(u32);
    I.cluster_kernel = kernel;
    EMBER_CUDA_CHECK(cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
        int(I.cluster_bytes)));
    if (blocks > kPortableCluster)
      EMBER_CUDA_CHECK(cudaFuncSetAttribute(
          kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg =
        I.clusterLaunch(unsigned(blocks), blocks, attr);
    int clusters = 0;
    const cudaError_t err =
        cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg);
    if (err != cudaSuccess)
      (void)cudaGetLastError(); // a size this device refuses: try smaller
    if (err == cudaSuccess && clusters > 0)
      I.cluster = blocks;
    else if (most > kPortableCluster)
      most = kPortableCluster;
    else
      break;
  }
  if (p.ap() && I.cluster == 0) {
    I.release();
    throw InvalidArgument("DeviceEvaluator: parameter set '" + p.name +
                          "' is AP/DM, and this device runs no cluster of " +
                          "its blind-rotation kernel");
  }
}

DeviceEvaluator::~DeviceEvaluator() { impl_->release(); }

const Params &DeviceEvaluator::params() const { return impl_->params; }
std::string DeviceEvaluator::deviceName() const { return impl_->device_name; }
int DeviceEvaluator::clusterBlocks() const { return impl_->cluster; }
size_t DeviceEvaluator::clusterJobs() const {
  return impl_->cluster > 0 ? impl_->cluster_jobs : 0;
}
DeviceEvaluator::Timing DeviceEvaluator::lastTiming() const {
  return impl_->timing;
}

namespace {

/// A circuit's ops by (level, wave), in circuit order: a bootstrap (a
/// gate or MUX; in a radix circuit a kLut) is one level above its inputs'
/// highest, in wave 0; a linear op (NOT, a known bit; kLinear, kBlock)
/// takes its inputs' level, in the wave after the linear ops of that level
/// it reads (inputs are level 0, wave 0).
struct Schedule {
  int depth = 0, waves = 0;
  std::vector<std::vector<const std::array<int32_t, 5> *>> steps;
  const std::vector<const std::array<int32_t, 5> *> &at(int level,
                                                        int wave) const {
    return steps[size_t(level) * (waves + 1) + wave];
  }
};
Schedule schedule(const Circuit &circuit) {
  Schedule s;
  std::vector<int> level(circuit.wires, 0), wave(circuit.wires, 0);
  auto boots = [&](int code) {
    return circuit.radix ? code == Circuit::kLut
                         : code < 6 || code == Circuit::kMux;
  };
  for (const auto &op : circuit.ops) {
    const bool boot = boots(op[0]);
    const int reads = Circuit::reads(op);
    int l = 0, w = 0;
    for (int r = 0; r < reads; ++r)
      l = std::max(l, level[op[2 + r]]);
    if (!boot)
      for (int r = 0; r < reads; ++r)
        if (level[op[2 + r]] == l && op[2 + r] >= circuit.input_bits)
          w = std::max(w, wave[op[2 + r]] + 1);
    level[op[1]] = boot ? l + 1 : l;
    wave[op[1]] = boot ? 0 : std::max(w, 1);
    s.depth = std::max(s.depth, level[op[1]]);
    s.waves = std::max(s.waves, wave[op[1]]);
  }
  s.steps.resize(size_t(s.depth + 1) * (s.waves + 1));
  for (const auto &op : circuit.ops)
    s.steps[size_t(level[op[1]]) * (s.waves + 1) + wave[op[1]]].push_back(&op);
  return s;
}

/// Ciphertexts as rows of dim + 1 words (a, then b), each checked to be
/// at `modulus` with dimension `dim`.
std::vector<u32> flattenRows(const std::vector<Ciphertext> &v, uint32_t modulus,
                             size_t dim, const std::string &what) {
  std::vector<u32> out;
  out.reserve(v.size() * (dim + 1));
  for (const Ciphertext &ct : v) {
    if (ct.modulus != modulus || ct.a.size() != dim)
      throw InvalidArgument(what + ": expected LWE ciphertexts of dimension " +
                            std::to_string(dim) + " at " +
                            std::to_string(modulus) + ", got dimension " +
                            std::to_string(ct.a.size()) + " at " +
                            std::to_string(ct.modulus));
    out.insert(out.end(), ct.a.begin(), ct.a.end());
    out.push_back(ct.b);
  }
  return out;
}
std::vector<Ciphertext> unflattenRows(const u32 *flat, size_t count,
                                      uint32_t modulus, size_t dim) {
  std::vector<Ciphertext> out(count);
  for (size_t i = 0; i < count; ++i) {
    const u32 *row = flat + i * (dim + 1);
    out[i].a.assign(row, row + dim);
    out[i].b = row[dim];
    out[i].modulus = modulus;
  }
  return out;
}

} // namespace

/// A radix circuit on the device (DeviceEvaluator::runCircuit): the wires
/// of run r are block rows r W .. r W + W - 1 (N + 1 words at Q). Per
/// level, over every run: one batch of key switches of the kLuts' inputs
/// (into ks_out), one batch of blind rotations (each job its table's row
/// of the circuit's test vectors) extracted into the kLuts' wires, then per
/// wave one launch of blockLinearKernel for the kLinear and kBlock ops.
static std::vector<std::vector<Ciphertext>>
runRadixCircuit(DeviceEvaluator::Impl &I, const Circuit &circuit,
                const std::vector<std::vector<Ciphertext>> &runs) {
  const Params &p = I.params;
  const Schedule plan = schedule(circuit);
  const size_t row = I.blockRow(), big_n = p.ringN();
  const uint32_t big_q = p.ring_q;
  const uint32_t delta = blockDelta(big_q, circuit.block_modulus);
  const int32_t wires = circuit.wires;
  EMBER_CUDA_CHECK(cudaEventRecord(I.events[0], I.stream));
  u32 *w = I.wires.get(std::max<size_t>(1, runs.size() * wires) * row);
  for (size_t r = 0; r < runs.size(); ++r) {
    const std::vector<u32> flat = flattenRows(
        runs[r], big_q, big_n, "runCircuit (a radix circuit's input)");
    if (!flat.empty())
      EMBER_CUDA_CHECK(cudaMemcpyAsync(w + r * wires * row, flat.data(),
                                       flat.size() * sizeof(u32),
                                       cudaMemcpyHostToDevice, I.stream));
  }
  // The tables' test vectors, one row of N words each.
  std::vector<u32> tvs;
  tvs.reserve(circuit.tables.size() * big_n);
  for (const std::vector<uint32_t> &table : circuit.tables) {
    const std::vector<u32> tv = lutTestVector(p, table);
    tvs.insert(tvs.end(), tv.begin(), tv.end());
  }
  const u32 *d_tvs = tvs.empty() ? nullptr : I.put(I.tv, tvs);
  EMBER_CUDA_CHECK(cudaEventRecord(I.events[1], I.stream));
  for (int l = 0; l <= plan.depth; ++l) {
    std::vector<KsJob> ks;
    std::vector<RotJob> rot;
    for (const auto *opp : plan.at(l, 0)) {
      const auto &op = *opp; // a kLut
      for (int32_t r = 0; r < int32_t(runs.size()); ++r) {
        const int32_t o = r * wires, j = int32_t(ks.size());
        ks.push_back({o + op[2], -1, 0, j});
        rot.push_back({j, -1, 1, 0, 0, op[3], o + op[1]});
      }
    }
    I.bootstrapBlocks(w, ks, rot, d_tvs, w);
    for (int v = 1; v <= plan.waves; ++v) {
      std::vector<BlockLinJob> lin;
      for (const auto *opp : plan.at(l, v)) {
        const auto &op = *opp;
        for (int32_t r = 0; r < int32_t(runs.size()); ++r) {
          const int32_t o = r * wires;
          if (op[0] == Circuit::kBlock) {
            lin.push_back({o + op[1], -1, -1, 0, 0,
                           u32(uint64_t(op[2]) * delta % big_q)});
          } else {
            const BlockForm f = blockForm(circuit.forms[op[4]], big_q, delta);
            lin.push_back({o + op[1], o + op[2], op[3] >= 0 ? o + op[3] : -1,
                           f.x, f.y, f.c});
          }
        }
      }
      if (lin.empty())
        continue;
      const BlockLinJob *d_lin = I.put(I.block_jobs, lin);
      blockLinearKernel<<<unsigned(lin.size()), 256, 0, I.stream>>>(I.k, w,
                                                                    d_lin);
      EMBER_CUDA_LAUNCH_CHECK(I.stream);
    }
  }
  EMBER_CUDA_CHECK(cudaEventRecord(I.events[2], I.stream));
  EMBER_CUDA_CHECK(cudaEventRecord(I.events[3], I.stream));
  const size_t outs = circuit.outputs.size();
  std::vector<u32> out(std::max<size_t>(1, runs.size() * outs * row));
  for (size_t r = 0; r < runs.size(); ++r)
    for (size_t i = 0; i < outs; ++i)
      EMBER_CUDA_CHECK(
          cudaMemcpyAsync(out.data() + (r * outs + i) * row,
                          w + (r * wires + size_t(circuit.outputs[i])) * row,
                          row * sizeof(u32), cudaMemcpyDeviceToHost, I.stream));
  EMBER_CUDA_CHECK(cudaEventRecord(I.events[4], I.stream));
  I.finish();
  std::vector<std::vector<Ciphertext>> result;
  for (size_t r = 0; r < runs.size(); ++r)
    result.push_back(
        unflattenRows(out.data() + r * outs * row, outs, big_q, big_n));
  return result;
}

void DeviceEvaluator::gate(Gate g, const uint32_t *a, const uint32_t *b,
                           size_t count, uint32_t *out) {
  impl_->run(a, b, count, gateLinear(g, impl_->params.q), impl_->sign_tv,
             impl_->q8_big, out);
}

std::vector<Ciphertext>
DeviceEvaluator::runCircuit(const Circuit &circuit,
                            const std::vector<Ciphertext> &inputs) {
  return runCircuit(circuit, std::vector<std::vector<Ciphertext>>{inputs})[0];
}

std::vector<std::vector<Ciphertext>>
DeviceEvaluator::runCircuit(const Circuit &circuit,
                            const std::vector<std::vector<Ciphertext>> &runs) {
  circuit.validate();
  Impl &I = *impl_;
  const Params &p = I.params;
  for (const auto &inputs : runs)
    if (inputs.size() != size_t(circuit.input_bits))
      throw InvalidArgument("runCircuit: " + std::to_string(inputs.size()) +
                            " input bits for a circuit of " +
                            std::to_string(circuit.input_bits));
  if (circuit.radix)
    return runRadixCircuit(I, circuit, runs);
  const Schedule plan = schedule(circuit);
  const int depth = plan.depth, waves = plan.waves;
  // Run r's wires are rows r W .. r W + W - 1.
  const int32_t wires = circuit.wires;
  EMBER_CUDA_CHECK(cudaEventRecord(I.events[0], I.stream));
  u32 *w = I.wires.get(std::max<size_t>(1, runs.size() * wires) * I.row());
  for (size_t r = 0; r < runs.size(); ++r) {
    const std::vector<u32> flat =
        flattenRows(runs[r], p.q, p.n, "runCircuit (an input bit)");
    if (!flat.empty())
      EMBER_CUDA_CHECK(cudaMemcpyAsync(w + r * wires * I.row(), flat.data(),
                                       flat.size() * sizeof(u32),
                                       cudaMemcpyHostToDevice, I.stream));
  }
  const u32 *d_tv = I.put(I.tv, I.sign_tv);
  EMBER_CUDA_CHECK(cudaEventRecord(I.events[1], I.stream));
  const u32 q = p.q;
  const Linear flip = notLinear(q);
  for (int l = 0; l <= depth; ++l) {
    std::vector<RotJob> rot;
    std::vector<KsJob> ks;
    for (const auto *opp : plan.at(l, 0)) {
      const auto &op = *opp;
      for (int32_t r = 0; r < int32_t(runs.size()); ++r) {
        const int32_t o = r * wires, j = int32_t(rot.size());
        if (op[0] == Circuit::kMux) {
          // AND(sel, t) + AND(NOT sel, f), summed before the key switch.
          rot.push_back(rotJob(muxTrue(q), o + op[2], o + op[3], j));
          rot.push_back(rotJob(muxFalse(q), o + op[2], o + op[4], j + 1));
          ks.push_back({j, j + 1, 2 * I.q8_big, o + op[1]});
        } else {
          rot.push_back(rotJob(gateLinear(static_cast<Gate>(op[0]), q),
                               o + op[2], o + op[3], j));
          ks.push_back({j, -1, I.q8_big, o + op[1]});
        }
      }
    }
    I.bootstrap(w, rot, ks, w, d_tv);
    for (int v = 1; v <= waves; ++v) {
      std::vector<LinJob> lin;
      for (const auto *opp : plan.at(l, v)) {
        const auto &op = *opp;
        for (int32_t r = 0; r < int32_t(runs.size()); ++r) {
          const int32_t o = r * wires;
          lin.push_back(op[0] == Circuit::kNot
                            ? LinJob{o + op[1], o + op[2], flip.x, flip.c}
                            : LinJob{o + op[1], -1, 0, u32(op[2]) * (q / 4)});
        }
      }
      if (lin.empty())
        continue;
      const LinJob *d_lin = I.put(I.lin_jobs, lin);
      linearKernel<<<unsigned(lin.size()), 128, 0, I.stream>>>(I.k, w, d_lin);
      EMBER_CUDA_LAUNCH_CHECK(I.stream);
    }
  }
  EMBER_CUDA_CHECK(cudaEventRecord(I.events[2], I.stream));
  EMBER_CUDA_CHECK(cudaEventRecord(I.events[3], I.stream));
  const size_t outs = circuit.outputs.size();
  std::vector<u32> out(runs.size() * outs * I.row());
  for (size_t r = 0; r < runs.size(); ++r)
    for (size_t i = 0; i < outs; ++i)
      EMBER_CUDA_CHECK(cudaMemcpyAsync(
          out.data() + (r * outs + i) * I.row(),
          w + (r * wires + size_t(circuit.outputs[i])) * I.row(),
          I.row() * sizeof(u32), cudaMemcpyDeviceToHost, I.stream));
  EMBER_CUDA_CHECK(cudaEventRecord(I.events[4], I.stream));
  I.finish();
  std::vector<std::vector<Ciphertext>> result;
  for (size_t r = 0; r < runs.size(); ++r)
    result.push_back(
        unflattenRows(out.data() + r * outs * I.row(), outs, q, p.n));
  return result;
}

void DeviceEvaluator::bootstrap(const uint32_t *a, size_t count,
                                uint32_t *out) {
  impl_->run(a, nullptr, count, refreshLinear(impl_->params.q), impl_->sign_tv,
             impl_->q8_big, out);
}

void DeviceEvaluator::lut(const uint32_t *a, size_t count,
                          const std::vector<uint32_t> &table, uint32_t *out) {
  impl_->run(a, nullptr, count, {1, 0, 0}, lutTestVector(impl_->params, table),
             0, out);
}

namespace {
/// Bits as rows of n + 1 words at q, and back.
std::vector<u32> flatten(const std::vector<Ciphertext> &v, const Params &p,
                         const char *what) {
  return flattenRows(v, p.q, p.n, what);
}
std::vector<Ciphertext> unflatten(const std::vector<u32> &flat,
                                  const Params &p) {
  return unflattenRows(flat.data(), flat.size() / (p.n + 1), p.q, p.n);
}
} // namespace

std::vector<Ciphertext>
DeviceEvaluator::gate(Gate g, const std::vector<Ciphertext> &a,
                      const std::vector<Ciphertext> &b) {
  const Params &p = params();
  if (a.size() != b.size())
    throw InvalidArgument("gate: " + std::to_string(a.size()) + " and " +
                          std::to_string(b.size()) + " inputs");
  const std::vector<u32> fa = flatten(a, p, gateName(g)),
                         fb = flatten(b, p, gateName(g));
  std::vector<u32> out(fa.size());
  gate(g, fa.data(), fb.data(), a.size(), out.data());
  return unflatten(out, p);
}

std::vector<Ciphertext>
DeviceEvaluator::bootstrap(const std::vector<Ciphertext> &a) {
  const std::vector<u32> fa = flatten(a, params(), "bootstrap");
  std::vector<u32> out(fa.size());
  bootstrap(fa.data(), a.size(), out.data());
  return unflatten(out, params());
}

std::vector<Ciphertext>
DeviceEvaluator::lut(const std::vector<Ciphertext> &a,
                     const std::vector<uint32_t> &table) {
  const std::vector<u32> fa = flatten(a, params(), "lut");
  std::vector<u32> out(fa.size());
  lut(fa.data(), a.size(), table, out.data());
  return unflatten(out, params());
}

void DeviceEvaluator::pbs(const uint32_t *blocks, size_t count,
                          const std::vector<uint32_t> &table, uint32_t *out) {
  impl_->runBlocks(blocks, count, lutTestVector(impl_->params, table), out);
}

std::vector<Ciphertext>
DeviceEvaluator::pbs(const std::vector<Ciphertext> &blocks,
                     const std::vector<uint32_t> &table) {
  const Params &p = params();
  const std::vector<u32> flat =
      flattenRows(blocks, p.ring_q, p.ringN(), "pbs (a radix block)");
  std::vector<u32> out(flat.size());
  pbs(flat.data(), blocks.size(), table, out.data());
  return unflattenRows(out.data(), blocks.size(), p.ring_q, p.ringN());
}

} // namespace ember::lwe::cuda
