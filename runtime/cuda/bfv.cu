// BFV on the CUDA backend (64-bit words): the HPS and BEHZ multiplications
// with the tables of a device context over Q u R (its work on the main
// context's stream, its temporaries from the main context's pool),
// everything else through the CKKS device evaluator.
// Residue for residue the CPU's ember::BfvEvaluator: the same exact
// conversions, the same transforms (R's context has Q's primes first, with
// the same tables), and a scale-and-round whose only floating-point step,
// the sum of the remainders' fractions, runs in the same order with the
// same IEEE operations (__ddiv_rn, __dadd_rn) as the CPU's.
#include "../core/checks.h"
#include "ember/bfv_cuda.h"
#include "ember/errors.h"
#include "internal.cuh"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <string>

namespace ember::cuda {

namespace {

/// Q primes of a BFV context on the GPU: the scale-and-round's 128-bit
/// sums of k + 1 products below 2^122 and k quotients below 2^61.
constexpr int kMaxHpsQ = 48;

/// For part p of x (parts of `stride` rows over Q u R, coefficient form):
/// x_i c_i = quo_i q_i + rem_i exactly (Shoup's quotient estimate,
/// corrected once), quo_i to quo[p][i], and alpha[p] = round(sum_i rem_i /
/// q_i), the fractions summed in doubles in index order with the CPU's IEEE
/// operations (__ddiv_rn, __dadd_rn). Constants: q[k], c[k], c_shoup[k].
__global__ void hpsQuotientKernel(const u64 *x, u64 *quo, uint8_t *alpha,
                                  const u64 *consts, int k, int stride,
                                  size_t n) {
  const size_t pos = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (pos >= n)
    return;
  const int part = blockIdx.y;
  const u64 *q = consts, *c = q + k, *cs = c + k;
  const u64 *xp = x + size_t(part) * stride * n;
  u64 *qp = quo + size_t(part) * k * n;
  double fraction = 0;
  for (int i = 0; i < k; ++i) {
    const u64 xi = xp[size_t(i) * n + pos], qi = q[i];
    u64 qt = __umul64hi(xi, cs[i]);
    u64 rem = xi * c[i] - qt * qi;
    if (rem >= qi) {
      rem -= qi;
      ++qt;
    }
    qp[size_t(i) * n + pos] = qt;
    fraction = __dadd_rn(
        fraction, __ddiv_rn(static_cast<double>(rem), static_cast<double>(qi)));
  }
  alpha[size_t(part) * n + pos] =
      static_cast<uint8_t>(floor(__dadd_rn(fraction, 0.5)));
}

/// y[p] (R limbs, coefficient form) = round(t x / Q) mod r_j for part p of
/// x: x_{r_j} [t Q^-1]_{r_j} + alpha + sum_i (x_i [-c_i q_i^-1]_{r_j} +
/// quo_i), summed exactly in 128 bits (x_i, quo_i < 2^61, the constants <
/// r_j < 2^61: below 2^128 for up to kMaxHpsQ Q primes) and reduced once
/// (Barrett, the CPU's Modulus::reduce). One thread per (coefficient, r_j,
/// part): the 64-bit products bound the time, so every target gets threads
/// of its own (8 targets a thread, reading the rows once, measured 1.2-1.5x
/// slower on an H200). Constants after q, c, c_shoup: r[kr], floor[kr][k],
/// (Shoup words [kr][k]), tq[kr].
__global__ void hpsScaleDownKernel(Tables T, const u64 *x, const u64 *quo,
                                   const uint8_t *alpha, u64 *y,
                                   const u64 *consts, int k, int kr, size_t n) {
  const size_t pos = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const int j = blockIdx.y, part = blockIdx.z;
  if (pos >= n)
    return;
  const u64 *r = consts + 3 * size_t(k);
  const u64 *fl = r + kr + size_t(j) * k;
  const u64 *tq = r + kr + 2 * size_t(kr) * k;
  const u64 *xp = x + size_t(part) * (k + kr) * n;
  const u64 *qp = quo + size_t(part) * k * n;
  u64 hi = 0, lo = alpha[size_t(part) * n + pos];
  mac128(hi, lo, xp[size_t(k + j) * n + pos], tq[j]);
  for (int i = 0; i < k; ++i) {
    mac128(hi, lo, xp[size_t(i) * n + pos], fl[i]);
    const u64 qt = qp[size_t(i) * n + pos];
    lo += qt;
    hi += lo < qt;
  }
  const int g = k + j;
  y[(size_t(part) * kr + j) * n + pos] =
      barrett<u64>(hi, lo, r[j], T.ratioHi[g], T.ratioLo[g]);
}

/// Exact base conversion (rns.h bconvExact) of `parts` polynomials at once,
/// in two passes so that the targets get threads of their own. Pass one,
/// per (coefficient, part): y_i = [x_i (B/b_i)^-1]_{b_i} (written out) and
/// v = floor(sum_i y_i / b_i + 0.5) in doubles, in index order with the
/// CPU's IEEE operations. Pass two, per (coefficient, target, part):
/// v [-B]_t + sum_i y_i [B/b_i]_t, summed in 128 bits (below 2^128
/// for up to kMaxHpsQ sources) and reduced once. The constants are the
/// device's ExactPlan for (B, T).
struct ExactRowsArgs {
  const u64 *in;
  u64 *out, *y;
  uint8_t *v;
  const u64 *hat, *negb, *hinv;
  const int *smod, *tmod;
  int m, t_count;
  int in_stride, out_stride, out_first; ///< rows per part; first target row
};

__global__ void exactPrepKernel(Tables T, ExactRowsArgs a, size_t n) {
  const size_t pos = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (pos >= n)
    return;
  const int part = blockIdx.y;
  const u64 *xp = a.in + size_t(part) * a.in_stride * n;
  u64 *yp = a.y + size_t(part) * a.m * n;
  double sum = 0;
  for (int i = 0; i < a.m; ++i) {
    const u64 b = T.q[a.smod[i]];
    const u64 yi = mulShoup<u64>(xp[size_t(i) * n + pos], a.hinv[2 * i],
                                 a.hinv[2 * i + 1], b);
    yp[size_t(i) * n + pos] = yi;
    sum = __dadd_rn(sum,
                    __ddiv_rn(static_cast<double>(yi), static_cast<double>(b)));
  }
  a.v[size_t(part) * n + pos] =
      static_cast<uint8_t>(floor(__dadd_rn(sum, 0.5)));
}

__global__ void exactRowsKernel(Tables T, ExactRowsArgs a, size_t n) {
  const size_t pos = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const int t = blockIdx.y, part = blockIdx.z;
  if (pos >= n)
    return;
  const u64 *yp = a.y + size_t(part) * a.m * n;
  const u64 *h = a.hat + size_t(t) * a.m;
  u64 hi = 0, lo = 0;
  mac128(hi, lo, a.v[size_t(part) * n + pos], a.negb[t]);
  for (int i = 0; i < a.m; ++i)
    mac128(hi, lo, yp[size_t(i) * n + pos], h[i]);
  const int g = a.tmod[t];
  a.out[(size_t(part) * a.out_stride + a.out_first + t) * n + pos] =
      barrett<u64>(hi, lo, T.q[g], T.ratioHi[g], T.ratioLo[g]);
}

/// One BEHZ step (ember::BasicBehzConstants) on `parts` polynomials, one
/// thread per (coefficient, target, part): for target t (modulus
/// first_mod + t of the Q u R context),
///   [sum_{i<m} in_i rows[t][i] + self_t self_c[t] + |e| corr[t][e < 0]],
/// summed exactly in 128 bits (m + 2 products below 2^122: below 2^128 for
/// m up to kMaxHpsQ) and reduced once (Barrett, the CPU's Modulus::reduce).
/// e is the centred sum_i in_i mtilde_i mod 2^32 (kMtilde: the extension's
/// Montgomery step, 32-bit products beside the 64-bit ones) or read from
/// `e`. Cost per output: m 64-bit products (about 8 int32 instructions
/// each) and one Barrett; bytes: the m source rows, read once per target
/// (from L2 after the first).
struct BehzRowsArgs {
  BehzRowsArgs(int first_mod, const u64 *rows, const u64 *in, int m,
               int in_stride, u64 *out, int out_stride, int out_first)
      : first_mod(first_mod), rows(rows), in(in), m(m), in_stride(in_stride),
        out(out), out_stride(out_stride), out_first(out_first) {}
  int first_mod;
  const u64 *rows; ///< [targets][m]
  const u64 *in;   ///< part p's row i at (p in_stride + i) n
  int m, in_stride;
  u64 *out; ///< part p, target t: row p out_stride + out_first + t
  int out_stride, out_first;
  const u64 *self = nullptr; ///< part p's row for target t at (p
                             ///< self_stride + t) n, or null
  int self_stride = 0;
  const u64 *self_c = nullptr;   ///< [targets]
  const u64 *mtilde = nullptr;   ///< [m], kMtilde only
  const int64_t *e = nullptr;    ///< [parts][n] signed corrections, or null
  const u64 *corr = nullptr;     ///< [targets][2]
  int64_t *signed_out = nullptr; ///< instead of out: the centred residue,
                                 ///< [parts][n] (one target)
};

template <bool kMtilde>
__global__ void behzRowsKernel(Tables T, BehzRowsArgs a, size_t n) {
  const size_t pos = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const int t = blockIdx.y, part = blockIdx.z;
  if (pos >= n)
    return;
  const u64 *xp = a.in + size_t(part) * a.in_stride * n + pos;
  const u64 *h = a.rows + size_t(t) * a.m;
  u64 hi = 0, lo = 0;
  u32 r = 0;
  for (int i = 0; i < a.m; ++i) {
    const u64 x = xp[size_t(i) * n];
    mac128(hi, lo, x, h[i]);
    if (kMtilde)
      r += u32(x) * u32(a.mtilde[i]);
  }
  if (a.self)
    mac128(hi, lo, a.self[(size_t(part) * a.self_stride + t) * n + pos],
           a.self_c[t]);
  const int64_t e = kMtilde ? int64_t(int32_t(r))
                    : a.e   ? a.e[size_t(part) * n + pos]
                            : 0;
  if (e != 0)
    mac128(hi, lo, e < 0 ? u64(-e) : u64(e), a.corr[2 * t + (e < 0)]);
  const int g = a.first_mod + t;
  const u64 q = T.q[g];
  const u64 res = barrett<u64>(hi, lo, q, T.ratioHi[g], T.ratioLo[g]);
  if (a.signed_out)
    a.signed_out[size_t(part) * n + pos] =
        res > q / 2 ? -int64_t(q - res) : int64_t(res);
  else
    a.out[(size_t(part) * a.out_stride + a.out_first + t) * n + pos] = res;
}

/// Word offsets of the BEHZ constants in BfvEvaluator::behz_ (layouts of
/// ember::BasicBehzConstants), then the two INTT scalings by modulus of Q u
/// R: the inputs' n^-1 [m~ (Q/q_i)^-1]_{q_i} (Q rows), the products' n^-1
/// [t (Q/q_i)^-1]_{q_i} on Q and n^-1 on R.
struct BehzLayout {
  size_t ext_rows, ext_corr, ext_mtilde, floor_rows, floor_self, alpha_row,
      sk_rows, sk_corr, intt_in, intt_out, words;
  BehzLayout(int k, int kr) {
    const size_t K = size_t(k), R = size_t(kr), W = K + R;
    ext_rows = 0;
    ext_corr = ext_rows + R * K;
    ext_mtilde = ext_corr + 2 * R;
    floor_rows = ext_mtilde + K;
    floor_self = floor_rows + R * K;
    alpha_row = floor_self + R;
    sk_rows = alpha_row + R;
    sk_corr = sk_rows + K * (R - 1);
    intt_in = sk_corr + 2 * K;
    intt_out = intt_in + W * kScaleWords;
    words = intt_out + W * kScaleWords;
  }
};

/// 0, 1, ..., count - 1.
std::vector<int> firstRows(int count) {
  std::vector<int> v(count);
  for (int i = 0; i < count; ++i)
    v[i] = i;
  return v;
}

} // namespace

BfvEvaluator::BfvEvaluator(const DeviceContext &ctx, uint64_t t)
    : ctx_(ctx), host_(std::make_unique<ember::BfvEvaluator>(ctx.host(), t)),
      base_(ctx) {
  aux_ =
      std::make_unique<DeviceContext>(host_->auxContext(), ctx.impl().device);
  shareStream(*aux_, ctx); // one stream: ordered and captured with ctx's work
  const Context64 &h = ctx.host();
  const int k = h.maxLevel() + 1;
  const int kr = int(host_->auxPrimes().size());
  if (k > kMaxHpsQ || kr > kMaxHpsQ) // the 128-bit sums' bound
    throw InvalidArgument("BFV on the GPU: at most " +
                          std::to_string(kMaxHpsQ) +
                          " Q primes and auxiliary primes, got " +
                          std::to_string(k) + " and " + std::to_string(kr));
  std::vector<u64> consts;
  const std::vector<u64> &c = host_->encoder().scaleConstants();
  for (int i = 0; i < k; ++i)
    consts.push_back(h.primes()[i]);
  consts.insert(consts.end(), c.begin(), c.end());
  for (int i = 0; i < k; ++i)
    consts.push_back(h.modulus(i).shoup(c[i]));
  const std::vector<u64> &r = host_->auxPrimes();
  consts.insert(consts.end(), r.begin(), r.end());
  const std::vector<u64> &fl = host_->floorConstants();
  const Context64 &qr = host_->auxContext();
  consts.insert(consts.end(), fl.begin(), fl.end());
  for (int j = 0; j < kr; ++j)
    for (int i = 0; i < k; ++i)
      consts.push_back(qr.modulus(k + j).shoup(fl[size_t(j) * k + i]));
  const std::vector<u64> &tq = host_->tQInverse();
  consts.insert(consts.end(), tq.begin(), tq.end());
  for (int j = 0; j < kr; ++j)
    consts.push_back(qr.modulus(k + j).shoup(tq[j]));
  consts_ = DeviceBuffer(*aux_, consts.size());
  EMBER_CUDA_CHECK(cudaMemcpyAsync(consts_.data(), consts.data(),
                                   consts.size() * sizeof(u64),
                                   cudaMemcpyHostToDevice, aux_->stream()));
  // The exact conversions' plans now: building one synchronises, which a
  // graph capture must not meet.
  const std::vector<int> all = qr.qBasis(qr.maxLevel());
  const std::vector<int> q_basis(all.begin(), all.begin() + k);
  const std::vector<int> r_basis(all.begin() + k, all.end());
  aux_->impl().exactPlan(*aux_, q_basis, r_basis);
  aux_->impl().exactPlan(*aux_, r_basis, q_basis);
  // BEHZ's constants and INTT scalings.
  const BehzConstants &bc = host_->behzConstants();
  const BehzLayout L(k, kr);
  std::vector<u64> behz(L.words, 0);
  auto put = [&](size_t off, const auto &v) {
    std::copy(v.begin(), v.end(), behz.begin() + off);
  };
  put(L.ext_rows, bc.ext_rows);
  put(L.ext_corr, bc.ext_corr);
  put(L.ext_mtilde, bc.ext_mtilde);
  put(L.floor_rows, bc.floor_rows);
  put(L.floor_self, bc.floor_self);
  put(L.alpha_row, bc.alpha_row);
  put(L.sk_rows, bc.sk_rows);
  put(L.sk_corr, bc.sk_corr);
  for (int g = 0; g < k + kr; ++g) {
    if (g < k)
      inttConstants<u64>(qr, g, bc.ext_scale[g], 0,
                         behz.data() + L.intt_in + kScaleWords * size_t(g));
    inttConstants<u64>(qr, g, g < k ? c[g] : 1, 0,
                       behz.data() + L.intt_out + kScaleWords * size_t(g));
  }
  behz_ = DeviceBuffer(*aux_, behz.size());
  EMBER_CUDA_CHECK(cudaMemcpyAsync(behz_.data(), behz.data(),
                                   behz.size() * sizeof(u64),
                                   cudaMemcpyHostToDevice, aux_->stream()));
  aux_->synchronize();
}

BfvEvaluator::~BfvEvaluator() {
  consts_ = DeviceBuffer();
  behz_ = DeviceBuffer();
  aux_.reset();
}

void BfvEvaluator::checkFull(const Ct &a, const char *op) const {
  if (a.level != ctx_.host().maxLevel())
    throw LevelMismatch(std::string(op) +
                        ": BFV ciphertexts stay at the full modulus Q (level " +
                        std::to_string(ctx_.host().maxLevel()) +
                        "), got level " + std::to_string(a.level));
}

DeviceCiphertext BfvEvaluator::multiply(const Ct &a, const Ct &b) const {
  return tensor(a, b, false);
}

DeviceCiphertext BfvEvaluator::multiplyBehz(const Ct &a, const Ct &b) const {
  return tensor(a, b, true);
}

DeviceCiphertext BfvEvaluator::tensor(const Ct &a, const Ct &b,
                                      bool behz) const {
  checkFull(a, "multiply");
  checkFull(b, "multiply");
  if (a.degree() != 1 || b.degree() != 1)
    throw InvalidArgument("multiply needs degree-1 ciphertexts (relinearize "
                          "first)");
  if (a.slots != b.slots)
    throw InvalidArgument("multiply: the slot counts differ");
  Ct out;
  out.parts = 3;
  out.level = a.level;
  out.scale = a.scale;
  out.slots = a.slots;
  out.n = a.n;
  out.buf = DeviceBuffer(ctx_, size_t(3) * a.limbs() * a.n);
  tensorInto(a.part(0), a.part(1), b.part(0), b.part(1), out.part(0),
             out.part(1), out.part(2), behz);
  return out;
}

void BfvEvaluator::multiplyInto(const u64 *a0, const u64 *a1, const u64 *b0,
                                const u64 *b1, u64 *d0, u64 *d1,
                                u64 *d2) const {
  tensorInto(a0, a1, b0, b1, d0, d1, d2, false);
}

void BfvEvaluator::multiplyBehzInto(const u64 *a0, const u64 *a1, const u64 *b0,
                                    const u64 *b1, u64 *d0, u64 *d1,
                                    u64 *d2) const {
  tensorInto(a0, a1, b0, b1, d0, d1, d2, true);
}

void BfvEvaluator::tensorInto(const u64 *a0, const u64 *a1, const u64 *b0,
                              const u64 *b1, u64 *d0, u64 *d1, u64 *d2,
                              bool behz) const {
  const Context64 &qr = host_->auxContext();
  const int k = ctx_.host().maxLevel() + 1;
  const int kr = int(host_->auxPrimes().size());
  const int w = k + kr; // rows of a polynomial over Q u R
  const size_t n = ctx_.host().n();
  const std::vector<int> all = qr.qBasis(qr.maxLevel());
  const std::vector<int> q_basis(all.begin(), all.begin() + k);
  const std::vector<int> r_basis(all.begin() + k, all.end());
  // X: the Q u R context's tables and plans; its stream is ctx_'s. The
  // temporaries come from ctx_'s pool, so that a graph capture of ctx_'s
  // stream holds them (DeviceContext::beginCapture).
  const DeviceContext &X = *aux_;
  auto &I = X.impl();
  const BehzLayout L(k, kr);
  const u64 *bz = behz_.data();
  // wide: a0, a1, b0, b1 over Q u R; tensor: d0, d1, d2 over Q u R.
  DeviceBuffer wide(ctx_, size_t(4) * w * n), tensor(ctx_, size_t(3) * w * n);
  DeviceBuffer ys(ctx_, size_t(3) * kr * n), back(ctx_, size_t(3) * k * n);
  // 1. INTT of the four input parts over Q, into their wide rows (BEHZ:
  // times [m~ (Q/q_i)^-1]_{q_i}, its extension's first step).
  const u64 *inputs[4] = {a0, a1, b0, b1};
  Rows src{{const_cast<u64 *>(a0), const_cast<u64 *>(a1), const_cast<u64 *>(b0),
            const_cast<u64 *>(b1)},
           {},
           {}},
      dst{{wide.data()}, {}, {}};
  std::vector<int> mods;
  for (int p = 0; p < 4; ++p)
    for (int i = 0; i < k; ++i) {
      src.buf.push_back(uint8_t(p));
      src.rows.push_back(i);
      dst.buf.push_back(0);
      dst.rows.push_back(p * w + i);
      mods.push_back(i);
    }
  launchNttInverse(X, src, dst, dst, mods,
                   behz ? bz + L.intt_in : tablesOf<u64>(I).inttPlain, true);
  // 2. Extension Q -> R of the four, in one launch: exact (HPS) or BEHZ's
  // fast conversion with the Montgomery correction.
  const unsigned blocks = unsigned((n + 255) / 256);
  // One BEHZ step over `parts` polynomials into `targets` rows.
  auto behzStep = [&](const BehzRowsArgs &args, int targets, int parts,
                      bool mtilde) {
    const dim3 grid(blocks, unsigned(targets), unsigned(parts));
    if (mtilde)
      behzRowsKernel<true>
          <<<grid, 256, 0, X.stream()>>>(tablesOf<u64>(I), args, n);
    else
      behzRowsKernel<false>
          <<<grid, 256, 0, X.stream()>>>(tablesOf<u64>(I), args, n);
    EMBER_CUDA_LAUNCH_CHECK(X.stream());
  };
  // HPS's temporaries (its exact conversions and scale-and-round).
  DeviceBuffer ey, ev, alpha, quo;
  if (!behz) {
    ey = DeviceBuffer(ctx_, size_t(4) * std::max(k, kr) * n);
    ev = DeviceBuffer(ctx_, (size_t(4) * n + 7) / 8);
    alpha = DeviceBuffer(ctx_, (size_t(3) * n + 7) / 8);
    quo = DeviceBuffer(ctx_, size_t(3) * k * n);
  } else {
    alpha = DeviceBuffer(ctx_, size_t(3) * n); // SK's signed corrections
  }
  // Exact conversion of `parts` polynomials (rows in_stride apart) with
  // `plan` into out (rows out_stride apart, from row out_first).
  auto convert = [&](const ExactPlan &plan, const u64 *in, int in_stride,
                     u64 *to, int out_stride, int out_first, int parts) {
    const int *ints = reinterpret_cast<const int *>(plan.ints.data());
    const u64 *c = wordsOf<u64>(plan.consts);
    ExactRowsArgs e{in,
                    to,
                    ey.data(),
                    reinterpret_cast<uint8_t *>(ev.data()),
                    c,
                    c + size_t(plan.t_count) * plan.m,
                    wordsOf<u64>(plan.hat_inv),
                    ints,
                    ints + plan.m,
                    plan.m,
                    plan.t_count,
                    in_stride,
                    out_stride,
                    out_first};
    exactPrepKernel<<<dim3(blocks, unsigned(parts)), 256, 0, X.stream()>>>(
        tablesOf<u64>(I), e, n);
    EMBER_CUDA_LAUNCH_CHECK(X.stream());
    exactRowsKernel<<<dim3(blocks, unsigned(plan.t_count), unsigned(parts)),
                      256, 0, X.stream()>>>(tablesOf<u64>(I), e, n);
    EMBER_CUDA_LAUNCH_CHECK(X.stream());
  };
  if (behz) {
    BehzRowsArgs ext(k, bz + L.ext_rows, wide.data(), k, w, wide.data(), w, k);
    ext.mtilde = bz + L.ext_mtilde;
    ext.corr = bz + L.ext_corr;
    behzStep(ext, kr, 4, true);
  } else {
    convert(I.exactPlan(X, q_basis, r_basis), wide.data(), w, wide.data(), w, k,
            4);
  }
  // 3. NTT of the four's R rows; 4. tensor; 5. INTT of the three (BEHZ:
  // the Q rows times [t (Q/q_i)^-1]_{q_i}, its fast floor's first step).
  const std::vector<int> rows3 = firstRows(3 * w);
  std::vector<int> mods3;
  for (int r : rows3)
    mods3.push_back(r % w);
  // Only the R rows: the Q rows get the inputs themselves (NTT form).
  std::vector<int> r_rows, r_mods;
  for (int p = 0; p < 4; ++p)
    for (int j = 0; j < kr; ++j) {
      r_rows.push_back(p * w + k + j);
      r_mods.push_back(k + j);
    }
  launchNttForward(X, wide.data(), r_rows, wide.data(), r_rows, wide.data(),
                   r_rows, r_mods, -1, nullptr);
  for (int p = 0; p < 4; ++p)
    EMBER_CUDA_CHECK(cudaMemcpyAsync(wide.data() + size_t(p) * w * n, inputs[p],
                                     size_t(k) * n * sizeof(u64),
                                     cudaMemcpyDeviceToDevice, X.stream()));
  launchTensor(X, tensor.data(), wide.data(), wide.data() + size_t(2) * w * n,
               w);
  launchNttInverse(X, tensor.data(), rows3, tensor.data(), rows3, tensor.data(),
                   rows3, mods3,
                   behz ? bz + L.intt_out : tablesOf<u64>(I).inttPlain, true);
  // 6. Scale to R (HPS: round, BEHZ: fast floor); 7. back to Q exactly
  // (HPS: exact conversion, BEHZ: Shenoy-Kumaresan); 8. NTT over Q into
  // the outputs (the first write to them: they may alias the inputs).
  if (behz) {
    const int kb = kr - 1;
    int64_t *al = reinterpret_cast<int64_t *>(alpha.data());
    BehzRowsArgs fl(k, bz + L.floor_rows, tensor.data(), k, w, ys.data(), kr,
                    0);
    fl.self = tensor.data() + size_t(k) * n;
    fl.self_stride = w;
    fl.self_c = bz + L.floor_self;
    behzStep(fl, kr, 3, false);
    BehzRowsArgs sk_alpha(k + kb, bz + L.alpha_row, ys.data(), kb, kr, nullptr,
                          0, 0);
    sk_alpha.self = ys.data() + size_t(kb) * n;
    sk_alpha.self_stride = kr;
    sk_alpha.self_c = bz + L.alpha_row + kb;
    sk_alpha.signed_out = al;
    behzStep(sk_alpha, 1, 3, false);
    BehzRowsArgs sk(0, bz + L.sk_rows, ys.data(), kb, kr, back.data(), k, 0);
    sk.e = al;
    sk.corr = bz + L.sk_corr;
    behzStep(sk, k, 3, false);
  } else {
    uint8_t *al = reinterpret_cast<uint8_t *>(alpha.data());
    hpsQuotientKernel<<<dim3(blocks, 3), 256, 0, X.stream()>>>(
        tensor.data(), quo.data(), al, consts_.data(), k, w, n);
    EMBER_CUDA_LAUNCH_CHECK(X.stream());
    hpsScaleDownKernel<<<dim3(blocks, unsigned(kr), 3), 256, 0, X.stream()>>>(
        tablesOf<u64>(I), tensor.data(), quo.data(), al, ys.data(),
        consts_.data(), k, kr, n);
    EMBER_CUDA_LAUNCH_CHECK(X.stream());
    convert(I.exactPlan(X, r_basis, q_basis), ys.data(), kr, back.data(), k, 0,
            3);
  }
  Rows from{{back.data()}, {}, firstRows(3 * k)}, into{{d0, d1, d2}, {}, {}};
  std::vector<int> mods_q;
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < k; ++i) {
      into.buf.push_back(uint8_t(p));
      into.rows.push_back(i);
      mods_q.push_back(i);
    }
  launchNttForward(X, from, into, into, mods_q, -1, nullptr);
}

DeviceCiphertext BfvEvaluator::relinearize(const Ct &a,
                                           const DeviceRelinKey &rk) const {
  checkFull(a, "relinearize");
  return base_.relinearize(a, rk);
}

DeviceCiphertext BfvEvaluator::multiplyRelin(const Ct &a, const Ct &b,
                                             const DeviceRelinKey &rk) const {
  return relinearize(multiply(a, b), rk);
}

DeviceCiphertext
BfvEvaluator::multiplyRelinBehz(const Ct &a, const Ct &b,
                                const DeviceRelinKey &rk) const {
  return relinearize(multiplyBehz(a, b), rk);
}

DeviceCiphertext BfvEvaluator::rotate(const Ct &a, int64_t k,
                                      const DeviceGaloisKeys &keys) const {
  checkFull(a, "rotate");
  return base_.rotate(a, k, keys);
}

DeviceCiphertext BfvEvaluator::add(const Ct &a, const Ct &b) const {
  checkFull(a, "add");
  return base_.add(a, b);
}

DeviceCiphertext BfvEvaluator::sub(const Ct &a, const Ct &b) const {
  checkFull(a, "sub");
  return base_.sub(a, b);
}

DeviceCiphertext BfvEvaluator::negate(const Ct &a) const {
  return base_.negate(a);
}

DeviceCiphertext BfvEvaluator::addPlain(const Ct &a, const Pt &p) const {
  checkFull(a, "addPlain");
  bgv::checkBfvPlainForm(p.scale, host_->encoder().delta(), false, "addPlain");
  return base_.addPlain(a, p);
}

DeviceCiphertext BfvEvaluator::subPlain(const Ct &a, const Pt &p) const {
  checkFull(a, "subPlain");
  bgv::checkBfvPlainForm(p.scale, host_->encoder().delta(), false, "subPlain");
  return base_.subPlain(a, p);
}

DeviceCiphertext BfvEvaluator::mulPlain(const Ct &a, const Pt &p) const {
  checkFull(a, "mulPlain");
  bgv::checkBfvPlainForm(p.scale, host_->encoder().delta(), true, "mulPlain");
  return base_.mulPlain(a, p);
}

DeviceCiphertext BfvEvaluator::addInt(const Ct &a, int64_t c) const {
  checkFull(a, "addInt");
  const std::vector<u64> r = host_->encoder().scaledConstant(c);
  Ct out;
  out.parts = a.parts;
  out.level = a.level;
  out.scale = a.scale;
  out.slots = a.slots;
  out.n = a.n;
  out.buf = DeviceBuffer(ctx_, size_t(a.parts) * a.limbs() * a.n);
  launchConstOp(ctx_, false, out.data(), a.data(), r, int(a.limbs()),
                a.parts * int(a.limbs()), ModMap{int(a.limbs()), a.level, 0});
  return out;
}

DeviceCiphertext BfvEvaluator::mulInt(const Ct &a, int64_t c) const {
  checkFull(a, "mulInt");
  const uint64_t t = host_->plainModulus();
  const std::vector<u64> r = bgv::centredResidues(
      ctx_.host(), t, bgv::reduceSigned(c, t), ctx_.host().qBasis(a.level));
  Ct out;
  out.parts = a.parts;
  out.level = a.level;
  out.scale = a.scale;
  out.slots = a.slots;
  out.n = a.n;
  out.buf = DeviceBuffer(ctx_, size_t(a.parts) * a.limbs() * a.n);
  launchConstOp(ctx_, true, out.data(), a.data(), r, a.parts * int(a.limbs()),
                a.parts * int(a.limbs()), ModMap{int(a.limbs()), a.level, 0});
  return out;
}

const BfvEvaluator &bfvEvaluator(const DeviceContext &ctx, uint64_t t) {
  std::shared_ptr<void> &slot = ctx.impl().bfv_evaluators[t];
  if (!slot) {
    try {
      slot = std::make_shared<BfvEvaluator>(ctx, t);
    } catch (...) {
      ctx.impl().bfv_evaluators.erase(t);
      throw;
    }
  }
  return *static_cast<const BfvEvaluator *>(slot.get());
}

void releaseBfvEvaluators(const DeviceContext &ctx) {
  ctx.impl().bfv_evaluators.clear();
}

} // namespace ember::cuda
