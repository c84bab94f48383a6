// FHEW/TFHE bootstrapping on the GPU (ember/lwe_cuda.h): the batched blind
// rotation with the accumulator in shared memory, and the batched key
// switch. Same arithmetic as runtime/cpu/lwe.cpp, so every word matches.

#include "ember/lwe_cuda.h"

#include "../core/lwe_internal.h"
#include "ember/errors.h"
#include "internal.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>

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

/// Everything a kernel reads, by value.
struct KParams {
  int n, log_ring, rows, digits, log_bg, dks, log_bks;
  u32 q, big_q, q_ks, base_ks;
  int32_t offset, half;
  u64 ratio; ///< floor(2^64 / Q)
  u32 n_inv, n_inv_shoup;
  const u32 *roots, *roots_shoup, *inv_roots, *inv_roots_shoup, *pw;
  /// The bootstrapping key re-laid for the kernel: for LWE coefficient i,
  /// row r and coefficient j, (key 0 a, key 0 b, key 1 a, key 1 b).
  const uint4 *bsk4;
  const u16 *ksk;
};

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
    for (int idx = threadIdx.x; idx < (polys << (log_n - 2));
         idx += blockDim.x) {
      const int p = idx >> (log_n - 2), u = idx & ((1 << (log_n - 2)) - 1);
      const int i = u >> (log_t - 1), j = u & (t2 - 1);
      u32 *x = s + (p << log_n) + (i << (log_t + 1)) + j;
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
    for (int idx = threadIdx.x; idx < (polys << (log_n - 2));
         idx += blockDim.x) {
      const int p = idx >> (log_n - 2), u = idx & ((1 << (log_n - 2)) - 1);
      const int i2 = u >> log_t, j = u & (t - 1);
      const int off = (p << log_n) + (i2 << (log_t + 2)) + j;
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

/// One block per ciphertext: the LWE input x a + y b + c (mod q; b absent
/// when B is null), blind rotation of tv (in shared memory: the
/// accumulator, 2N words, and the digits, rows x N, whose top two rows
/// first hold the accumulator's coefficient form), sample
/// extraction, b + b_offset, and the switch from Q to q_ks; out: N + 1
/// words per ciphertext. Work per ciphertext: n steps of 2 inverse and
/// `rows` forward NTTs of N points plus 4 rows multiply-adds per
/// coefficient; bytes: each step reads its two RGSW keys (4 rows N words),
/// shared by the blocks of a batch through L2.
template <int kThreads, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    blindRotateKernel(const KParams k, const u32 *A, const u32 *B, u32 x, u32 y,
                      u32 c, const u32 *tv, u32 b_offset, u32 *ext) {
  extern __shared__ u32 sm[];
  const int big_n = 1 << k.log_ring;
  const u32 mask2n = 2 * big_n - 1, f = 2 * big_n / k.q, qmask = k.q - 1;
  const u32 big_q = k.big_q;
  u32 *acc = sm, *dig = sm + 2 * big_n;
  u32 *tmp = dig + size_t(k.rows - 2) * big_n; // the top digit's two rows
  const u32 *a_row = A + size_t(blockIdx.x) * (k.n + 1);
  const u32 *b_row = B ? B + size_t(blockIdx.x) * (k.n + 1) : nullptr;

  const u32 bq = (x * a_row[k.n] + (b_row ? y * b_row[k.n] : 0) + c) & qmask;
  const u32 e = (2 * big_n - (bq * f & mask2n)) & mask2n;
  for (int t = threadIdx.x; t < big_n; t += blockDim.x) {
    acc[t] = 0;
    const u32 src = (t - e) & mask2n; // X^e tv: coefficient t from tv[t - e]
    const u32 v = __ldg(tv + (src & (big_n - 1)));
    acc[big_n + t] = src < u32(big_n) ? v : (v == 0 ? 0 : big_q - v);
  }
  __syncthreads();
  nttForward<true>(acc + big_n, 1, k);

  const int32_t half_q = int32_t(big_q / 2), q32 = int32_t(big_q);
  const int32_t bg_mask = (1 << k.log_bg) - 1;
  for (int i = 0; i < k.n; ++i) {
    const u32 ai = (x * a_row[i] + (b_row ? y * b_row[i] : 0)) & qmask;
    const u32 m = ai * f & mask2n;
    if (m == 0)
      continue;                 // the same for every thread of the block
    nttInverse(tmp, acc, 2, k); // a coefficient-form copy of acc
    // Signed digits 1 .. d-1 of both parts (row 2(d-1) + part); a thread
    // reads both parts of its column before writing any digit of it (the
    // top digit's rows are where the coefficients were).
    for (int j = threadIdx.x; j < big_n; j += blockDim.x) {
      int32_t u[2];
      for (int part = 0; part < 2; ++part) {
        const int32_t c = int32_t(tmp[(part << k.log_ring) + j]);
        u[part] = c - (c > half_q ? q32 : 0) + k.offset;
      }
      for (int d = 1; d <= k.digits; ++d) {
        const int shift = d * k.log_bg;
        for (int part = 0; part < 2; ++part) {
          const int32_t r = d < k.digits
                                ? ((u[part] >> shift) & bg_mask) - k.half
                                : (u[part] >> shift);
          dig[((2 * (d - 1) + part) << k.log_ring) + j] =
              u32(r + (q32 & (r >> 31)));
        }
      }
    }
    __syncthreads();
    nttForward<false>(dig, k.rows, k);
    // Both external products, then acc += (X^m - 1) P0 + (X^-m - 1) P1.
    // The key words of one coefficient and row (two keys, two components)
    // are one 16-byte load.
    const uint4 *key = k.bsk4 + size_t(i) * k.rows * big_n;
    for (int t = threadIdx.x; t < big_n; t += blockDim.x) {
      const u32 ebr = 2 * (__brev(u32(t)) >> (32 - k.log_ring)) + 1;
      const u32 ex = m * ebr & mask2n;
      const u64 fp = __ldg(k.pw + ex) - 1,
                fm = __ldg(k.pw + ((0u - ex) & mask2n)) - 1; // psi^e != 0
      u64 s00 = 0, s01 = 0, s10 = 0, s11 = 0;                // [key][component]
      for (int r = 0; r < k.rows; ++r) {
        const u64 d = dig[(r << k.log_ring) + t];
        const uint4 w = __ldg(key + (r << k.log_ring) + t);
        s00 += d * w.x, s01 += d * w.y, s10 += d * w.z, s11 += d * w.w;
      }
      u32 &a0 = acc[t], &a1 = acc[big_n + t];
      a0 = reduce64(a0 + reduce64(s00, big_q, k.ratio) * fp +
                        reduce64(s10, big_q, k.ratio) * fm,
                    big_q, k.ratio);
      a1 = reduce64(a1 + reduce64(s01, big_q, k.ratio) * fp +
                        reduce64(s11, big_q, k.ratio) * fm,
                    big_q, k.ratio);
    }
    __syncthreads();
  }
  nttInverse(acc, nullptr, 2, k);
  // Extraction (constant coefficient of b - a s'), then Q -> q_ks.
  u32 *out = ext + size_t(blockIdx.x) * (big_n + 1);
  auto to_ks = [&](u32 v) {
    return u32((u64(v) * k.q_ks + big_q / 2) / big_q % k.q_ks);
  };
  for (int j = threadIdx.x; j < big_n; j += blockDim.x) {
    const u32 v = j == 0 ? acc[0] : acc[big_n - j];
    out[j] = to_ks(j == 0 || v == 0 ? v : big_q - v);
  }
  if (threadIdx.x == 0)
    out[big_n] = to_ks(u32((u64(acc[big_n]) + b_offset) % big_q));
}

/// One block per ciphertext: key switching s' -> s at q_ks (N d_ks rows of
/// n + 1 words of the key read, those of zero digits skipped), then q_ks ->
/// q. Bytes per ciphertext: about N d_ks (1 - 1/Bks) 2 (n + 1) of key.
__global__ void __launch_bounds__(kSwitchThreads)
    keySwitchKernel(const KParams k, const u32 *ext, u32 *out) {
  const int big_n = 1 << k.log_ring, n = k.n;
  const u32 *in = ext + size_t(blockIdx.x) * (big_n + 1);
  const u32 digit_mask = k.base_ks - 1;
  u32 acc[kSwitchPerThread] = {};
  for (int i = 0; i < big_n; ++i) {
    const u32 xi = in[i];
    for (int j = 0; j < k.dks; ++j) {
      const u32 v = (xi >> (j * k.log_bks)) & digit_mask;
      if (v == 0)
        continue;
      const u16 *row =
          k.ksk + ((size_t(i) * k.dks + j) * digit_mask + v - 1) * (n + 1);
#pragma unroll
      for (int s = 0; s < kSwitchPerThread; ++s) {
        const int t = threadIdx.x + s * kSwitchThreads;
        if (t <= n)
          acc[s] -= __ldg(row + t);
      }
    }
  }
  u32 *dst = out + size_t(blockIdx.x) * (n + 1);
#pragma unroll
  for (int s = 0; s < kSwitchPerThread; ++s) {
    const int t = threadIdx.x + s * kSwitchThreads;
    if (t > n)
      continue;
    const u32 v = (t == n ? in[big_n] + acc[s] : acc[s]) & (k.q_ks - 1);
    dst[t] = u32((u64(v) * k.q + k.q_ks / 2) / k.q_ks) & (k.q - 1);
  }
}

using RotateKernel = void (*)(KParams, const u32 *, const u32 *, u32, u32, u32,
                              const u32 *, u32, u32 *);

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

template <typename T> T *upload(const std::vector<T> &v) {
  T *d = nullptr;
  EMBER_CUDA_CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
  EMBER_CUDA_CHECK(
      cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

} // namespace

struct DeviceEvaluator::Impl {
  Params params;
  KParams k{};
  std::vector<void *> owned;
  u32 *in_a = nullptr, *in_b = nullptr, *ext = nullptr, *out = nullptr;
  u32 *tv = nullptr;
  size_t capacity = 0;
  size_t shared_bytes = 0;
  RotateKernel rotate = nullptr;
  RotateKernel rotate_latency = blindRotateKernel<kLatencyThreads, 1>;
  int sms = 0;
  std::vector<u32> sign_tv;
  std::string device_name;
  cudaStream_t stream = nullptr;
  cudaEvent_t events[5] = {};
  Timing timing;

  template <typename T> const T *keep(const std::vector<T> &v) {
    T *d = upload(v);
    owned.push_back(d);
    return d;
  }
  void reserve(size_t count) {
    if (count <= capacity)
      return;
    for (u32 *p : {in_a, in_b, ext, out})
      if (p)
        cudaFree(p);
    const size_t row = params.n + 1, ext_row = params.ringN() + 1;
    EMBER_CUDA_CHECK(cudaMalloc(&in_a, count * row * sizeof(u32)));
    EMBER_CUDA_CHECK(cudaMalloc(&in_b, count * row * sizeof(u32)));
    EMBER_CUDA_CHECK(cudaMalloc(&ext, count * ext_row * sizeof(u32)));
    EMBER_CUDA_CHECK(cudaMalloc(&out, count * row * sizeof(u32)));
    capacity = count;
  }
  /// x a + y b + c through tv, plus b_offset after extraction; count rows.
  void run(const u32 *a, const u32 *b, size_t count, u32 x, u32 y, u32 c,
           const std::vector<u32> &table_tv, u32 b_offset, u32 *host_out) {
    if (count == 0)
      return;
    reserve(count);
    const size_t row_bytes = (params.n + 1) * sizeof(u32);
    EMBER_CUDA_CHECK(cudaEventRecord(events[0], stream));
    EMBER_CUDA_CHECK(cudaMemcpyAsync(in_a, a, count * row_bytes,
                                     cudaMemcpyHostToDevice, stream));
    if (b)
      EMBER_CUDA_CHECK(cudaMemcpyAsync(in_b, b, count * row_bytes,
                                       cudaMemcpyHostToDevice, stream));
    EMBER_CUDA_CHECK(cudaMemcpyAsync(tv, table_tv.data(),
                                     table_tv.size() * sizeof(u32),
                                     cudaMemcpyHostToDevice, stream));
    EMBER_CUDA_CHECK(cudaEventRecord(events[1], stream));
    const bool small = count < size_t(sms);
    (small
         ? rotate_latency
         : rotate)<<<unsigned(count), small ? kLatencyThreads : kRotateThreads,
                     shared_bytes, stream>>>(k, in_a, b ? in_b : nullptr, x, y,
                                             c, tv, b_offset, ext);
    EMBER_CUDA_LAUNCH_CHECK(stream);
    EMBER_CUDA_CHECK(cudaEventRecord(events[2], stream));
    keySwitchKernel<<<unsigned(count), kSwitchThreads, 0, stream>>>(k, ext,
                                                                    out);
    EMBER_CUDA_LAUNCH_CHECK(stream);
    EMBER_CUDA_CHECK(cudaEventRecord(events[3], stream));
    EMBER_CUDA_CHECK(cudaMemcpyAsync(host_out, out, count * row_bytes,
                                     cudaMemcpyDeviceToHost, stream));
    EMBER_CUDA_CHECK(cudaEventRecord(events[4], stream));
    EMBER_CUDA_CHECK(cudaStreamSynchronize(stream));
    float ms[4];
    for (int i = 0; i < 4; ++i)
      EMBER_CUDA_CHECK(cudaEventElapsedTime(&ms[i], events[i], events[i + 1]));
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
  k.ratio = ~u64{0} / p.ring_q;
  k.n_inv = h.ntt.nInv();
  k.n_inv_shoup = h.ntt.nInvShoup();
  k.roots = I.keep(h.ntt.roots());
  k.roots_shoup = I.keep(h.ntt.rootsShoup());
  k.inv_roots = I.keep(h.ntt.invRoots());
  k.inv_roots_shoup = I.keep(h.ntt.invRootsShoup());
  const size_t two_n = 2 * p.ringN();
  std::vector<u32> pw(two_n);
  pw[0] = 1;
  for (size_t e = 1; e < two_n; ++e)
    pw[e] = h.ring_q.mul(pw[e - 1], h.ntt.psi());
  k.pw = I.keep(pw);
  {
    const size_t big_n = p.ringN();
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
  k.ksk = I.keep(h.ksk);
  EMBER_CUDA_CHECK(cudaMalloc(&I.tv, p.ringN() * sizeof(u32)));
  I.shared_bytes = size_t(2 + h.rows) * p.ringN() * sizeof(u32);
  I.rotate = rotateKernel();
  for (RotateKernel kernel : {I.rotate, I.rotate_latency})
    EMBER_CUDA_CHECK(cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
        int(I.shared_bytes)));
  I.sign_tv.assign(p.ringN(), (p.ring_q + 4) / 8);
  EMBER_CUDA_CHECK(cudaStreamCreateWithFlags(&I.stream, cudaStreamNonBlocking));
  for (cudaEvent_t &e : I.events)
    EMBER_CUDA_CHECK(cudaEventCreate(&e));
  int dev = 0;
  cudaDeviceProp prop{};
  EMBER_CUDA_CHECK(cudaGetDevice(&dev));
  EMBER_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  I.device_name = prop.name;
  I.sms = prop.multiProcessorCount;
}

DeviceEvaluator::~DeviceEvaluator() {
  Impl &I = *impl_;
  for (void *p : I.owned)
    cudaFree(p);
  for (u32 *p : {I.in_a, I.in_b, I.ext, I.out, I.tv})
    if (p)
      cudaFree(p);
  for (cudaEvent_t e : I.events)
    if (e)
      cudaEventDestroy(e);
  if (I.stream)
    cudaStreamDestroy(I.stream);
}

const Params &DeviceEvaluator::params() const { return impl_->params; }
std::string DeviceEvaluator::deviceName() const { return impl_->device_name; }
DeviceEvaluator::Timing DeviceEvaluator::lastTiming() const {
  return impl_->timing;
}

void DeviceEvaluator::gate(Gate g, const uint32_t *a, const uint32_t *b,
                           size_t count, uint32_t *out) {
  const u32 q8 = impl_->params.q / 8;
  // The shifts of Evaluator::gate: the output bit is the phase's sign.
  u32 x = 1, y = 1, c = 0;
  switch (g) {
  case Gate::And:
    c = 0u - 3 * q8;
    break;
  case Gate::Or:
    c = 0u - q8;
    break;
  case Gate::Nand:
    x = y = 0u - 1, c = 3 * q8;
    break;
  case Gate::Nor:
    x = y = 0u - 1, c = q8;
    break;
  case Gate::Xor:
    x = y = 2, c = 0u - 2 * q8;
    break;
  case Gate::Xnor:
    x = y = 0u - 2, c = 2 * q8;
    break;
  }
  impl_->run(a, b, count, x, y, c, impl_->sign_tv,
             (impl_->params.ring_q + 4) / 8, out);
}

void DeviceEvaluator::bootstrap(const uint32_t *a, size_t count,
                                uint32_t *out) {
  impl_->run(a, nullptr, count, 1, 0, 0u - impl_->params.q / 8, impl_->sign_tv,
             (impl_->params.ring_q + 4) / 8, out);
}

void DeviceEvaluator::lut(const uint32_t *a, size_t count,
                          const std::vector<uint32_t> &table, uint32_t *out) {
  impl_->run(a, nullptr, count, 1, 0, 0, lutTestVector(impl_->params, table), 0,
             out);
}

namespace {
std::vector<u32> flatten(const std::vector<Ciphertext> &v, const Params &p,
                         const char *what) {
  std::vector<u32> out;
  out.reserve(v.size() * (p.n + 1));
  for (const Ciphertext &ct : v) {
    if (ct.modulus != p.q || ct.a.size() != size_t(p.n))
      throw InvalidArgument(
          std::string(what) + ": expected LWE ciphertexts of dimension " +
          std::to_string(p.n) + " at q = " + std::to_string(p.q));
    out.insert(out.end(), ct.a.begin(), ct.a.end());
    out.push_back(ct.b);
  }
  return out;
}
std::vector<Ciphertext> unflatten(const std::vector<u32> &flat,
                                  const Params &p) {
  const size_t row = p.n + 1;
  std::vector<Ciphertext> out(flat.size() / row);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].a.assign(flat.begin() + i * row, flat.begin() + i * row + p.n);
    out[i].b = flat[i * row + p.n];
    out[i].modulus = p.q;
  }
  return out;
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

} // namespace ember::lwe::cuda
