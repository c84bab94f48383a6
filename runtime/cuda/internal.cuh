// Internals of the CUDA backend shared by its .cu files: the CUDA error
// check, device modular arithmetic (generic in the word: 64-bit with
// __umul64hi, 32-bit with __umulhi), the tables a kernel needs, the
// context's private state and the kernel launchers. The kernels are
// templates on the word W (u64, u32).
#pragma once

#include "ember/cuda.h"
#include "ember/errors.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#define EMBER_CUDA_CHECK(call)                                                 \
  ::ember::cuda::detail::check((call), #call, __FILE__, __LINE__)
/// After every launch: the launch error always; in debug builds also the
/// asynchronous error of the kernel itself (synchronizes).
#ifdef NDEBUG
#define EMBER_CUDA_LAUNCH_CHECK(stream) EMBER_CUDA_CHECK(cudaGetLastError())
#else
#define EMBER_CUDA_LAUNCH_CHECK(stream)                                        \
  do {                                                                         \
    EMBER_CUDA_CHECK(cudaGetLastError());                                      \
    EMBER_CUDA_CHECK(cudaStreamSynchronize(stream));                           \
  } while (0)
#endif

namespace ember::cuda {

using u64 = uint64_t;
/// T in a non-deduced context (a template's word comes from its other
/// arguments: literals such as 0 then convert).
template <typename T> struct NonDeduced { using type = T; };
template <typename T> using Plain = typename NonDeduced<T>::type;

namespace detail {
inline void check(cudaError_t err, const char *what, const char *file,
                  int line) {
  if (err != cudaSuccess)
    throw Error(std::string(file) + ":" + std::to_string(line) + ": " + what +
                " failed: " + cudaGetErrorString(err));
}
} // namespace detail

// ---------------------------------------------------------------------------
// Device modular arithmetic, generic in the word W (u64: primes up to 61
// bits; u32: up to 30, modarith.h). Costs in int32 instructions (sm_90 has
// no 64-bit multiplier): at 64 bits a low product is 3 IMADs, a high
// product about 6, so one Shoup product is about 12 and a 128-bit
// multiply-accumulate about 8 plus carries; at 32 bits a Shoup product is 3
// (IMAD, IMAD.HI, IMAD) and a 64-bit multiply-accumulate one IMAD.WIDE.

using u32 = uint32_t;

__device__ __forceinline__ u64 mulHi(u64 a, u64 b) { return __umul64hi(a, b); }
__device__ __forceinline__ u32 mulHi(u32 a, u32 b) { return __umulhi(a, b); }

template <typename W>
__device__ __forceinline__ W mulShoupLazy(W a, W w, W ws, W q) {
  return a * w - mulHi(a, ws) * q; // [0, 2q) for any a
}
template <typename W>
__device__ __forceinline__ W mulShoup(W a, W w, W ws, W q) {
  W r = mulShoupLazy(a, w, ws, q);
  return r >= q ? r - q : r;
}
/// a w mod q in [0, 4q) for any a (64-bit words; nq = 2^64 - q): Shoup's
/// product with a quotient of three 32 x 32-bit products instead of the
/// exact high word's four. Writing a = ah 2^32 + al, ws = sh 2^32 + sl,
/// Q' = ah sh + floor(al sh / 2^32) + floor(ah sl / 2^32) drops the low
/// words of the two cross products and al sl, under 3 2^64 in all, so
/// Q' >= floor(a ws / 2^64) - 2 and a w - Q' q < 2q + 2q. The result, below
/// 2^63 for q < 2^61, is a w + Q' nq mod 2^64: one multiply-add chain, no
/// negation. Written as 14 PTX multiply-adds; ptxas splits some chains, and
/// at sm_90 the NTT kernels come out about two instructions per butterfly
/// shorter than with a w - __umul64hi(a, ws) q (a plain C++ form of the
/// same quotient measured 0.2-0.7% slower on an H200: bench/RESULTS.md).
__device__ __forceinline__ u64 mulShoupLazy4(u64 a, u64 w, u64 ws, u64 nq) {
  u64 r;
  asm("{\n\t"
      ".reg .u32 al, ah, sl, sh, t0, t1, ql, qh, nl, nh, wl, wh, rl, rh;\n\t"
      ".reg .u64 cq, qq, rr;\n\t"
      "mov.b64 {al, ah}, %1;\n\t"
      "mov.b64 {wl, wh}, %2;\n\t"
      "mov.b64 {sl, sh}, %3;\n\t"
      "mov.b64 {nl, nh}, %4;\n\t"
      "mul.hi.u32 t0, al, sh;\n\t"
      "mad.hi.cc.u32 t0, ah, sl, t0;\n\t"
      "addc.u32 t1, 0, 0;\n\t"
      "mov.b64 cq, {t0, t1};\n\t"
      "mad.wide.u32 qq, ah, sh, cq;\n\t"
      "mov.b64 {ql, qh}, qq;\n\t"
      "mul.wide.u32 rr, ql, nl;\n\t"
      "mov.b64 {rl, rh}, rr;\n\t"
      "mad.lo.u32 rh, ql, nh, rh;\n\t"
      "mad.lo.u32 rh, qh, nl, rh;\n\t"
      "mad.lo.u32 rh, al, wh, rh;\n\t"
      "mad.lo.u32 rh, ah, wl, rh;\n\t"
      "mov.b64 rr, {rl, rh};\n\t"
      "mad.wide.u32 %0, al, wl, rr;\n\t"
      "}"
      : "=l"(r)
      : "l"(a), "l"(w), "l"(ws), "l"(nq));
  return r;
}
/// x - c where x >= c, else x. At 64 bits for |x - c| < 2^63: the sign of
/// the difference picks (two subtractions, one 32-bit comparison and two
/// selects: one instruction fewer than comparing first). At 32 bits the
/// comparison, which the compiler turns into an unsigned minimum of x and
/// x - c (two instructions).
template <typename W> __device__ __forceinline__ W subIfGe(W x, W c) {
  if constexpr (sizeof(W) == 4) {
    return x >= c ? x - c : x;
  } else {
    const W t = x - c;
    return static_cast<std::make_signed_t<W>>(t) < 0 ? x : t;
  }
}
template <typename W> __device__ __forceinline__ W addMod(W a, W b, W q) {
  W s = a + b;
  return s >= q ? s - q : s;
}
template <typename W> __device__ __forceinline__ W subMod(W a, W b, W q) {
  return a >= b ? a - b : a + q - b;
}
/// hi:lo += a * b (128-bit accumulator in two words).
__device__ __forceinline__ void mac128(u64 &hi, u64 &lo, u64 a, u64 b) {
  asm("mad.lo.cc.u64 %0, %2, %3, %0;\n\tmadc.hi.u64 %1, %2, %3, %1;"
      : "+l"(lo), "+l"(hi)
      : "l"(a), "l"(b));
}
/// (hi:lo) mod q by Barrett with ratio = floor(2^(2W) / q) in two words
/// (the CPU's Modulus::reduce, bit for bit).
template <typename W>
__device__ __forceinline__ W barrett(W hi, W lo, W q, W rhi, W rlo) {
  W lohi_lo = lo * rhi, lohi_hi = mulHi(lo, rhi);
  W hilo_lo = hi * rlo, hilo_hi = mulHi(hi, rlo);
  W t = mulHi(lo, rlo);
  W s1 = lohi_lo + hilo_lo;
  W carry = s1 < lohi_lo;
  W s2 = s1 + t;
  carry += s2 < s1;
  W quot = hi * rhi + lohi_hi + hilo_hi + carry;
  W r = lo - quot * q;
  while (r >= q)
    r -= q;
  return r;
}
/// a * b mod q (Barrett of the double-word product).
__device__ __forceinline__ u64 mulModBarrett(u64 a, u64 b, u64 q, u64 rhi,
                                             u64 rlo) {
  return barrett<u64>(__umul64hi(a, b), a * b, q, rhi, rlo);
}
__device__ __forceinline__ u32 mulModBarrett(u32 a, u32 b, u32 q, u32 rhi,
                                             u32 rlo) {
  const u64 x = u64(a) * b;
  return barrett(u32(x >> 32), u32(x), q, rhi, rlo);
}

/// A twiddle and its Shoup quotient in one load: 16 bytes at 64 bits, 8 at
/// 32.
template <typename W> struct WordPair;
template <> struct WordPair<u64> { using type = ulonglong2; };
template <> struct WordPair<u32> { using type = uint2; };

/// Device pointers to the per-modulus tables, passed by value to kernels.
template <typename W> struct TablesT {
  const W *q;       ///< [M]
  const W *ratioHi; ///< [M] Barrett floor(2^(2W)/q), high word
  const W *ratioLo; ///< [M]
  const W *roots, *rootsShoup, *invRoots, *invRootsShoup; ///< [M][N]
  /// The same, interleaved (root, Shoup quotient): one load each.
  const typename WordPair<W>::type *roots2, *invRoots2; ///< [M][N]
  const W *inttPlain; ///< [M][kScaleWords] (n^-1 scaling, nothing added)
  int logN;
  int qCount;
};
using Tables = TablesT<u64>;

/// Global modulus index of position t of a basis q_0..q_level u P (level -1
/// gives P alone).
__host__ __device__ inline int qpModulus(int t, int level, int q_count) {
  return t <= level ? t : q_count + t - level - 1;
}

/// Words per row of the inverse NTT's last-stage constants: n^-1 s, its
/// Shoup quotient, invRoots[1] n^-1 s, its quotient, and a constant added
/// to every output coefficient (rescale's centring h = q_l / 2).
constexpr int kScaleWords = 5;
constexpr int kMaxRows = 512;     // rows per NTT launch (chunked beyond)
constexpr int kMaxJobs = 16;      // BConv jobs per launch
constexpr int kMaxExactJobs = 32; // exact BConv jobs per launch
// Key-switching digits: up to 64, so that a small special modulus works
// (Athena's K = 1 shapes need a digit per Q prime). The inner products sum
// one product per digit of values below 2^61 in 128 bits: 64 of them stay
// below 2^128.
constexpr int kMaxDigits = 64;
constexpr int kMaxConsts = 64; // per-limb constants passed by value

constexpr int kMaxBases = 4; // buffers one NTT launch reads (or writes) rows of
constexpr int kMaxParts = 4; // polynomials of one fused epilogue

/// A row of an NTT launch is (buffer << kRowBits) | row in 16 bits: rows
/// 0..kMaxRowIndex - 1 of up to kMaxBases buffers.
constexpr int kRowBits = 14;
constexpr int kMaxRowIndex = 1 << kRowBits;

/// Per-launch row table of the NTT kernels: modulus and input/output row of
/// each row (lets one launch cover scattered rows of several polynomials).
template <typename W> struct RowTableT {
  const W *inBase[kMaxBases];
  W *outBase[kMaxBases];
  uint8_t mod[kMaxRows];
  uint16_t in[kMaxRows];
  uint16_t out[kMaxRows];
  __device__ const W *src(int r, int log_n) const {
    return inBase[in[r] >> kRowBits] +
           (size_t(in[r] & (kMaxRowIndex - 1)) << log_n);
  }
  __device__ W *dst(int r, int log_n) const {
    return outBase[out[r] >> kRowBits] +
           (size_t(out[r] & (kMaxRowIndex - 1)) << log_n);
  }
};
using RowTable = RowTableT<u64>;

/// The rows of an NTT launch's input, intermediate or output: row r is row
/// rows[r] of bases[buf[r]] (buf empty: of bases[0]).
template <typename W> struct RowsT {
  std::vector<W *> bases;
  std::vector<uint8_t> buf;
  std::vector<int> rows;
};
using Rows = RowsT<u64>;

/// Fused epilogue of the forward NTT: out = (a - ntt(x)) * c [+ b (* bc)],
/// for ModDown and rescale, or out = ntt(x) [+ b] when a is null (KLSS key
/// switching, whose ModDown happens before its NTT). Row r of the launch is
/// part r / div, limb r % div: limb rows of a[part] and b[part].
template <typename W> struct EpilogueT {
  const W *a[kMaxParts] = {}; ///< part p's operand, or null
  const W *b[kMaxParts] = {}; ///< part p's addend, or null
  const W *c = nullptr;       ///< (word, shoup) per limb (unused without a)
  const W *bc = nullptr;      ///< (word, shoup) per limb scaling b, or null
  /// b read permuted by X -> X^galois (a rotation's sigma(c0) added in its
  /// ModDown: point k reads b at automorphismNttIndex's k-th entry,
  /// computed, not loaded), or in order when 0.
  uint32_t galois = 0;
  int div = 1;
};
using Epilogue = EpilogueT<u64>;

/// Maps row r of an elementwise launch to a modulus: position
/// off + r % div of a q_0..q_level u P basis (level -1: P alone).
struct ModMap {
  int div;
  int level;
  int off;
};

/// Key-switching constants of one level, on the device.
struct KsPlan {
  int level = 0, digits = 0, qp = 0;
  std::vector<int> start, size, ext_off;
  int ext_rows = 0;
  std::vector<int> ext_mods;
  DeviceBuffer intt_scale; ///< [(l+1)][kScaleWords] n^-1 hat^-1 per digit
  DeviceBuffer up;         ///< per digit: hat [T][m], half [m], neg_b [T]
  std::vector<size_t> hat_off, half_off, negb_off;
  DeviceBuffer tmod_up; ///< per digit target moduli (int32)
  std::vector<size_t> tmod_up_off;
  DeviceBuffer intt_scale_p; ///< [2K][kScaleWords] n^-1 (P/p_j)^-1
  DeviceBuffer down;         ///< hat [(l+1)][K], half [K], neg_b [l+1]
  size_t down_half = 0, down_negb = 0;
  DeviceBuffer tmod_down; ///< 0..l
  DeviceBuffer p_inv;     ///< [(l+1)][2]
};
/// Constants of a fast base conversion from `from` to `to` (rns.h bconv),
/// cached per (from, to) so that a BConv uploads nothing and never waits
/// for the host.
struct BConvPlan {
  int m = 0, t_count = 0;
  size_t hat_words = 0;     ///< the hat table's size, [T][m]
  std::vector<u64> hat_inv; ///< [m] (B/b_i)^-1 mod b_i (a kernel argument)
  DeviceBuffer consts;      ///< hat [T][m], half [m], neg_b [T] (W words)
  DeviceBuffer tmod;        ///< target moduli (int32)
};
/// Constants of a general modulus switch down from `in` to a prefix `keep`
/// of its basis (rns.h modSwitchDown), cached per (basis, keep).
struct SwitchPlan {
  int keep = 0, drop = 0;
  DeviceBuffer intt_scale; ///< [kMaxParts][drop][kScaleWords] n^-1 (D/d_j)^-1
  DeviceBuffer consts;     ///< hat [keep][drop], half [drop], neg_b [keep]
  DeviceBuffer tmod;       ///< keep moduli (int32)
  DeviceBuffer inv;        ///< [keep][2] D^-1 mod k_i
  DeviceBuffer hat_inv;    ///< [drop][2] (D/d_j)^-1 mod d_j (coefficient form)
  DeviceBuffer dmod;       ///< drop moduli (int32)
  /// With special primes in the dropped limbs, a lifted addend y (the
  /// switch of x + P y, P the product of the basis' special primes):
  /// [keep][2] P D^-1 mod k_i, then [drop Q limbs][2] P mod d_j.
  DeviceBuffer lift;
  /// [keep] P mod k_i (with special primes in the dropped limbs): x + P y
  /// formed in a key switch's inner product (keySwitchDown).
  DeviceBuffer p_mod;
  int drop_q = 0; ///< dropped limbs that are Q primes (they lead the drop)
};
/// Constants of an exact base conversion from `from` to `to` (rns.h
/// bconvExact), cached per (from, to); the buffers hold the context's words.
struct ExactPlan {
  int m = 0, t_count = 0;
  DeviceBuffer hat_inv;    ///< [m][2] (B/b_i)^-1 mod b_i and its Shoup word
  DeviceBuffer intt_scale; ///< [m][kScaleWords] n^-1 (B/b_i)^-1
  DeviceBuffer consts;     ///< hat [T][m], neg_b [T]
  DeviceBuffer ints;       ///< source moduli [m], target moduli [T]
};
/// KLSS key-switching constants of one level (Athena 2.3): the digits'
/// exact BConv to T, T's INTT scaling and the exact BConv from T to each
/// key group's limbs of Q_l u P (rows of qpBasis(level)). The INTT of d
/// uses the hybrid plan's constants (the same n^-1 (Q_j/q_i)^-1). The
/// buffers hold the context's words (consts at 32 bits: u32).
struct KlssPlan {
  int level = 0, digits = 0, groups = 0, r = 0, qp = 0;
  int t_first = 0;                  ///< global index of t_0
  const KsPlan *ks = nullptr;       ///< the level's hybrid plan (INTT of d)
  const SwitchPlan *down = nullptr; ///< ModDown Q_l u P -> Q_l
  std::vector<int> start, size;     ///< digit limbs (positions of Q_l)
  std::vector<int> group_size;      ///< limbs of each group at this level
  DeviceBuffer intt_scale_t;        ///< [all moduli][kScaleWords]: T rows
                                    ///< n^-1 (T/t_k)^-1 (indexed by modulus)
  DeviceBuffer consts; ///< per digit: hat [r][m], neg_b [r]; per group:
                       ///< hat [g][r], neg_b [g]
  std::vector<size_t> up_hat, up_negb, down_hat, down_negb;
  DeviceBuffer ints; ///< digit source moduli, T moduli, per group target
                     ///< moduli and target rows
  std::vector<size_t> up_smod, down_tmod, down_trow;
  size_t t_mods = 0;
  const int *intsPtr(size_t off) const {
    return reinterpret_cast<const int *>(ints.data()) + off;
  }
};
struct RescalePlan {
  DeviceBuffer q_last_inv; ///< [l][2]
  DeviceBuffer intt_scale; ///< [3][kScaleWords] for q_l, adding h = q_l / 2
};

struct DeviceContext::Impl {
  const Context64 *host = nullptr;
  /// 64, or 32 for a context built from a Context32 (host is null then,
  /// host32 and tables32 are set). A context has one word, so the plan
  /// caches below hold that word's plans (RescalePlan, BConvPlan and
  /// SwitchPlan, KsPlan, ExactPlan and KlssPlan buffers hold u32 words at
  /// 32 bits).
  int word_bits = 64;
  const Context32 *host32 = nullptr;
  TablesT<u32> tables32{};
  int device = 0;
  cudaStream_t stream = nullptr;
  /// A second stream for the NCCL transfers of a program partitioned over
  /// several GPUs (transferStream: made by the first transfer), beside the
  /// kernels of `stream`.
  cudaStream_t transfer_stream = nullptr;
  /// Kernel nodes captured for the greatest priority (takePriorityNodes).
  std::vector<cudaGraphNode_t> priority_nodes;
  /// False for a context that queues its work on another's stream
  /// (shareStream): the stream is not destroyed with it.
  bool owns_stream = true;
  Tables tables{};
  int n_log = 0;
  size_t n = 0;
  /// m_count: moduli of Q u P (the key layout); all_count: Q u P u T (the
  /// tables).
  int q_count = 0, p_count = 0, m_count = 0, all_count = 0;
  // Pool: free blocks by size; every block ever allocated.
  std::multimap<size_t, u64 *> free_blocks;
  std::vector<std::pair<u64 *, size_t>> all_blocks;
  size_t pool_bytes = 0;
  // While a CUDA Graph is captured (DeviceContext::beginCapture): blocks
  // released go here, not to free_blocks, and are reused only by the
  // capture; endCapture hands them to the graph, which holds them as long
  // as it can be replayed.
  bool capturing = false;
  /// False (beginCapture(false)): blocks released in the capture go to
  /// capture_held, which no allocation takes from.
  bool capture_reuse = true;
  std::multimap<size_t, u64 *> capture_free, capture_held;
  u64 *table_mem = nullptr;
  /// By (level, plain modulus t: 0, or BGV's t-corrected ModDown).
  std::map<std::pair<int, uint64_t>, std::unique_ptr<KsPlan>> ks_plans;
  std::map<int, std::unique_ptr<RescalePlan>> rescale_plans;
  std::map<uint64_t, DeviceBuffer> galois_index;
  std::map<std::tuple<std::vector<int>, std::vector<int>, uint64_t>,
           std::unique_ptr<SwitchPlan>>
      switch_plans;
  std::map<std::pair<std::vector<int>, std::vector<int>>,
           std::unique_ptr<ExactPlan>>
      exact_plans;
  std::map<int, std::unique_ptr<KlssPlan>> klss_plans;
  std::map<std::pair<std::vector<int>, std::vector<int>>,
           std::unique_ptr<BConvPlan>>
      bconv_plans;
  /// The BFV evaluators of this context by plaintext modulus t
  /// (bfvEvaluator(ctx, t), bfv_cuda.h), destroyed first with the context.
  std::map<uint64_t, std::shared_ptr<void>> bfv_evaluators;

  u64 *allocate(size_t words);
  void release(u64 *p, size_t words);
  /// plain_modulus t != 0: BGV's ModDown, t BConv(x t^-1) (the CPU's
  /// Context::bconvTable with t), in the same kernels.
  const KsPlan &ksPlan(const DeviceContext &ctx, int level,
                       uint64_t plain_modulus = 0);
  const RescalePlan &rescalePlan(const DeviceContext &ctx, int level);
  const SwitchPlan &switchPlan(const DeviceContext &ctx,
                               const std::vector<int> &basis,
                               const std::vector<int> &keep,
                               uint64_t plain_modulus = 0);
  const BConvPlan &bconvPlan(const DeviceContext &ctx,
                             const std::vector<int> &from,
                             const std::vector<int> &to);
  const ExactPlan &exactPlan(const DeviceContext &ctx,
                             const std::vector<int> &from,
                             const std::vector<int> &to);
  /// InvalidArgument when the context has no KLSS form.
  const KlssPlan &klssPlan(const DeviceContext &ctx, int level);
  const uint32_t *galoisIndex(const DeviceContext &ctx, uint64_t galois);
};

template <typename W> const TablesT<W> &tablesOf(const DeviceContext::Impl &I);
template <>
inline const TablesT<u64> &tablesOf<u64>(const DeviceContext::Impl &I) {
  return I.tables;
}
template <>
inline const TablesT<u32> &tablesOf<u32>(const DeviceContext::Impl &I) {
  return I.tables32;
}
/// The host context of the device context's word (InvalidArgument when the
/// context has the other word).
template <typename W> const Context<W> &hostOf(const DeviceContext &ctx);
template <> inline const Context<u64> &hostOf<u64>(const DeviceContext &ctx) {
  return ctx.host();
}
template <> inline const Context<u32> &hostOf<u32>(const DeviceContext &ctx) {
  return ctx.host32();
}
/// InvalidArgument unless the context's words are W (`what` names the
/// operation).
template <typename W>
void requireWord(const DeviceContext &ctx, const char *what) {
  if (ctx.impl().word_bits != int(8 * sizeof(W)))
    throw InvalidArgument(std::string(what) + ": a " +
                          std::to_string(8 * sizeof(W)) +
                          "-bit operand on a device context of " +
                          std::to_string(ctx.impl().word_bits) + "-bit words");
}
/// A device buffer's words read as W (32-bit plans store u32 words).
template <typename W> const W *wordsOf(const DeviceBuffer &b) {
  return reinterpret_cast<const W *>(b.data());
}
/// The same, writable (temporaries of W residues).
template <typename W> W *residues(const DeviceBuffer &b) {
  return reinterpret_cast<W *>(b.data());
}
/// Pool memory for `count` W residues.
template <typename W>
DeviceBuffer residueBuffer(const DeviceContext &ctx, size_t count) {
  return DeviceBuffer(ctx, BasicDevicePoly<W>::wordsFor(count));
}

/// From now on `ctx` queues its work on `main`'s stream, not its own (which
/// is destroyed): a context that serves another, such as BFV's Q u R
/// context, whose launches are then ordered with the main stream's work
/// and captured with it into a CUDA Graph. Both on one device; `main` must
/// outlive `ctx`.
void shareStream(const DeviceContext &ctx, const DeviceContext &main);
/// The context's transfer stream (Impl::transfer_stream), made on its
/// device by the first call.
cudaStream_t transferStream(const DeviceContext &ctx);

/// The inverse NTT's last-stage constants of modulus `mod` scaled by s
/// (kScaleWords: n^-1 s, its Shoup word, invRoots[1] n^-1 s, its Shoup
/// word, and `add`).
template <typename W>
void inttConstants(const Context<W> &ctx, int mod, Plain<W> s, Plain<W> add,
                   W *k) {
  const Modulus<W> &q = ctx.modulus(mod);
  const NttTables<W> &t = ctx.ntt(mod);
  const W cx = q.mul(t.nInv(), s);
  const W cy = q.mul(q.mul(t.invRoots()[1], t.nInv()), s);
  k[0] = cx;
  k[1] = q.shoup(cx);
  k[2] = cy;
  k[3] = q.shoup(cy);
  k[4] = add;
}

/// The nodes the next node captured on `stream` follows (its capture
/// dependency set; empty outside a capture), and setting that set.
std::vector<cudaGraphNode_t> captureDeps(cudaStream_t stream);
void setCaptureDeps(cudaStream_t stream, std::vector<cudaGraphNode_t> deps);
/// Every node of the graph being captured on `stream` (empty outside a
/// capture).
std::vector<cudaGraphNode_t> capturedNodes(cudaStream_t stream);

/// The kernel nodes captured on ctx's stream since the last call that want
/// the greatest priority (keySwitchDown's first branch: the graph's other
/// kernels must not delay it); the graph that holds them is to be
/// instantiated with cudaGraphInstantiateFlagUseNodePriority.
std::vector<cudaGraphNode_t> takePriorityNodes(const DeviceContext &ctx);

/// A side branch of one step inside a CUDA Graph capture on one stream, for
/// work that no later launch of the step reads (a copy beside the
/// transforms): what is queued between the constructor and split() follows
/// what the stream followed at construction, what is queued after split()
/// follows the same nodes (not the branch), and join() makes whatever comes
/// next follow both. Outside a capture (graphs off) each call does nothing
/// and the stream keeps program order.
class CaptureBranch {
public:
  explicit CaptureBranch(cudaStream_t stream);
  void split();
  void join();

private:
  cudaStream_t stream_;
  bool active_ = false;
  std::vector<cudaGraphNode_t> start_, branch_;
};

/// Copies host words to a device buffer (asynchronously on the stream; the
/// host vector must outlive the copy, so callers synchronize).
void copyToDevice(const DeviceContext &ctx, u64 *dst, const void *src,
                  size_t bytes);

// ---------------------------------------------------------------------------
// Launchers (ntt.cu).

/// Forward NTT of rows: column phase src -> mid, row phase mid -> dst (with
/// the epilogue when `epi` is given). With in_mod >= 0 the inputs are
/// residues mod modulus in_mod (rescale reads one limb for every row): each
/// is reduced mod the row's q and h = q_{in_mod} / 2 subtracted (centring).
void launchNttForward(const DeviceContext &ctx, const Rows &src,
                      const Rows &mid, const Rows &dst,
                      const std::vector<int> &mods, int in_mod,
                      const Epilogue *epi);
void launchNttForward(const DeviceContext &ctx, const RowsT<u32> &src,
                      const RowsT<u32> &mid, const RowsT<u32> &dst,
                      const std::vector<int> &mods, int in_mod,
                      const EpilogueT<u32> *epi);
/// The same over rows of one buffer each.
void launchNttForward(const DeviceContext &ctx, const u64 *src,
                      const std::vector<int> &src_rows, u64 *mid,
                      const std::vector<int> &mid_rows, u64 *dst,
                      const std::vector<int> &dst_rows,
                      const std::vector<int> &mods, int in_mod,
                      const Epilogue *epi);
void launchNttForward(const DeviceContext &ctx, const u32 *src,
                      const std::vector<int> &src_rows, u32 *mid,
                      const std::vector<int> &mid_rows, u32 *dst,
                      const std::vector<int> &dst_rows,
                      const std::vector<int> &mods, int in_mod,
                      const EpilogueT<u32> *epi);
/// Inverse NTT of rows: row phase src -> mid, column phase mid -> dst; the
/// last stage multiplies by the per-row constants `scale` ([rows][kScaleWords],
/// or [mods][kScaleWords] when by_mod) that fold n^-1 and any BConv factor.
void launchNttInverse(const DeviceContext &ctx, const Rows &src,
                      const Rows &mid, const Rows &dst,
                      const std::vector<int> &mods, const u64 *scale,
                      bool by_mod);
void launchNttInverse(const DeviceContext &ctx, const RowsT<u32> &src,
                      const RowsT<u32> &mid, const RowsT<u32> &dst,
                      const std::vector<int> &mods, const u32 *scale,
                      bool by_mod);
/// The same over rows of one buffer each.
void launchNttInverse(const DeviceContext &ctx, const u64 *src,
                      const std::vector<int> &src_rows, u64 *mid,
                      const std::vector<int> &mid_rows, u64 *dst,
                      const std::vector<int> &dst_rows,
                      const std::vector<int> &mods, const u64 *scale,
                      bool by_mod);
void launchNttInverse(const DeviceContext &ctx, const u32 *src,
                      const std::vector<int> &src_rows, u32 *mid,
                      const std::vector<int> &mid_rows, u32 *dst,
                      const std::vector<int> &dst_rows,
                      const std::vector<int> &mods, const u32 *scale,
                      bool by_mod);

/// A centred BConv from two dropped limbs fused into a forward NTT's loads
/// (double-prime rescale, 32-bit words, N = 2^16): part p's dropped limbs
/// y[p], y[p] + N (already scaled by (D/d_j)^-1), the SwitchPlan's
/// constants (hat [keep][2], half [2], neg_b [keep]) and the kept limb
/// count.
template <typename W> struct Conv2InT {
  const W *y[kMaxParts] = {};
  const W *consts = nullptr;
  int keep = 0;
};
/// The forward NTT of parts x keep rows of `out` (row p * keep + i over
/// q_i), each row's input the fused BConv of its part's two limbs, the
/// row phase with the epilogue `epi` (ntt.cu).
void launchNttForwardConv2(const DeviceContext &ctx, const Conv2InT<u32> &in,
                           int parts, u32 *out, const EpilogueT<u32> &epi);

// Launchers (rns.cu).
/// One centred fast base conversion (rns.h): out_t = sum_i y_i (B/b_i) +
/// #{i : y_i > b_i/2} [-B]_t + bias_t mod t.
template <typename W> struct BConvJobT {
  const W *in;     ///< m source rows y_i (already scaled by hat^-1)
  W *out;          ///< T target rows
  const W *hat;    ///< [T][m] (B/b_i) mod t
  const W *half;   ///< [m] floor(b_i / 2)
  const W *negb;   ///< [T] [-B]_t
  const W *bias;   ///< [T] added constant, or null
  const int *tmod; ///< [T] target moduli
  int m, t_count;
};
using BConvJob = BConvJobT<u64>;
void launchBConv(const DeviceContext &ctx, const std::vector<BConvJob> &jobs);
void launchBConv(const DeviceContext &ctx,
                 const std::vector<BConvJobT<u32>> &jobs);

/// One exact base conversion (rns.h bconvExact): y_i = [x_i (B/b_i)^-1]_{b_i}
/// (x_i scaled here when hinv is given, else the inputs are y_i already),
/// v = floor(sum_i y_i / b_i + 1/2) in doubles, out_t = sum_i y_i (B/b_i) + v
/// [-B]_t mod t, written to row trow[t] (or t) of out.
template <typename W> struct ExactJobT {
  const W *in;     ///< m source rows
  W *out;          ///< base of the target rows
  const W *hat;    ///< [T][m] (B/b_i) mod t
  const W *negb;   ///< [T] [-B]_t
  const W *hinv;   ///< [m][2] (word, Shoup) (B/b_i)^-1, or null
  const int *smod; ///< [m] source moduli
  const int *tmod; ///< [T] target moduli
  const int *trow; ///< [T] output rows, or null for 0..T-1
  int m, t_count;
};
using ExactJob = ExactJobT<u64>;
template <typename W>
void launchBConvExact(const DeviceContext &ctx,
                      const std::vector<ExactJobT<W>> &jobs);

/// Hybrid key switching of d (NTT over q_0..q_level) into out (2 parts of
/// level+1 rows): out_p = ModDown(<ModUp(d), key_p>) [+ add_p for p <
/// add_parts, rows add + p * add_stride]. At either word (the context's).
template <typename W>
void keySwitchInto(const DeviceContext &ctx, const W *d, int level,
                   const BasicDeviceSwitchingKey<W> &key, W *out, const W *add,
                   int add_parts, int add_stride, uint64_t plain_modulus = 0);
/// ModUp of digits [j0, j1) of d into ext rows (plan layout).
template <typename W>
void modUpDigits(const DeviceContext &ctx, const KsPlan &plan, const W *d,
                 int j0, int j1, W *ext);
/// ModDown of `parts` polynomials over Q_l u P (part stride qp rows) into
/// out (parts x (l+1) rows), with the optional addend.
template <typename W>
void modDownParts(const DeviceContext &ctx, const KsPlan &plan, const W *in,
                  int parts, W *out, const W *add, int add_parts,
                  int add_stride);
/// The parts of hybrid key switching, for the fused path and the benchmark's
/// breakdown: the INTT of d with each digit's (Q_j/q_i)^-1 folded in (into y,
/// level+1 rows), the BConv + NTT of every digit from y into ext, and the
/// inner product into acc (2 x qp rows).
template <typename W>
void modUpInverse(const DeviceContext &ctx, const KsPlan &plan, const W *d,
                  int j0, int j1, W *y);
template <typename W>
void modUpConvert(const DeviceContext &ctx, const KsPlan &plan, const W *y,
                  int j0, int j1, W *ext);
template <typename W>
void launchInnerProduct(const DeviceContext &ctx, const KsPlan &plan,
                        const W *d, const W *ext,
                        const BasicDeviceSwitchingKey<W> &key, W *acc);

/// KLSS key switching of d (NTT over q_0..q_level) into out (2 parts of
/// level+1 rows), same contract as keySwitchInto: INTT (the digits' hat^-1
/// folded in), exact BConv of every digit to T, NTT over T, inner product
/// over T, INTT over T, exact BConv to the key groups' limbs, ModDown in
/// coefficient form, NTT (adding the addend in its epilogue). At either
/// word.
template <typename W>
void keySwitchInto(const DeviceContext &ctx, const W *d, int level,
                   const BasicDeviceKlssKey<W> &key, W *out, const W *add,
                   int add_parts, int add_stride, uint64_t plain_modulus = 0);
// Its parts (also timed by the benchmark's breakdown); the first, the INTT
// of d with the digits' hat^-1 folded in, is hybrid's modUpInverse.
/// Exact BConv of every digit of y to T and the NTT over T: td holds
/// digits x r rows (NTT form).
template <typename W>
void klssModUpAll(const DeviceContext &ctx, const KlssPlan &plan, const W *y,
                  W *td);
/// The inner product over T: ip = [b, a][group][r] rows (NTT form) from the
/// digits' T rows (td[i] = digit i's r rows).
template <typename W>
void launchKlssInnerProduct(const DeviceContext &ctx, const KlssPlan &plan,
                            const std::vector<const W *> &td,
                            const BasicDeviceKlssKey<W> &key, W *ip);
/// INTT over T of ip (in place; (T/t_k)^-1 folded in), then the exact BConv
/// of every (part, group) to its limbs of Q_l u P: acc0 / acc1 (qp rows,
/// coefficient form).
template <typename W>
void klssBackToQP(const DeviceContext &ctx, const KlssPlan &plan, W *ip,
                  W *acc0, W *acc1);
/// ModDown in coefficient form of `parts` polynomials over keep u drop
/// (plan of modSwitchDown; part stride in_stride rows) into out (part
/// stride out_stride rows): (x_keep - BConv_centred(x_drop)) D^-1.
template <typename W>
void modDownCoeffParts(const DeviceContext &ctx, const SwitchPlan &plan,
                       const W *in, int in_stride, int parts, W *out,
                       int out_stride);

/// Rescale of `parts` polynomials over q_0..q_level (stride level+1 rows)
/// into out (parts x level rows).
void rescaleParts(const DeviceContext &ctx, const u64 *in, int parts, int level,
                  u64 *out);
void rescaleParts(const DeviceContext &ctx, const u32 *in, int parts, int level,
                  u32 *out);
/// Modulus switch of `parts` polynomials over q_0..q_level (stride level+1
/// rows, NTT form) down to q_0..q_{keep-1} (out: parts x keep rows): one
/// INTT of every dropped limb, one centred BConv, one NTT whose epilogue
/// takes (x - conv) D^-1. Double-prime scaling's rescale (keep = level - 1).
template <typename W>
void switchDownParts(const DeviceContext &ctx, const W *in, int parts,
                     int level, int keep, W *out, uint64_t plain_modulus = 0);

enum class EwOp { kAdd, kSub, kNeg, kMul, kMulAdd };
/// out[r] = op(a[r] (0 beyond a_rows), b[r' = r % b_div] (0 for r >=
/// b_rows)); kMulAdd: out = out + a * b.
void launchElementwise(const DeviceContext &ctx, EwOp op, u64 *out,
                       const u64 *a, int a_rows, const u64 *b, int b_rows,
                       int b_div, int rows, ModMap map);
void launchElementwise(const DeviceContext &ctx, EwOp op, u32 *out,
                       const u32 *a, int a_rows, const u32 *b, int b_rows,
                       int b_div, int rows, ModMap map);
/// out[r] = a[r] * c[r % div] or + c[r % div] for r < const_rows (else
/// copy); the constants are reduced mod each row's modulus here.
void launchConstOp(const DeviceContext &ctx, bool mul, u64 *out, const u64 *a,
                   const std::vector<u64> &c, int const_rows, int rows,
                   ModMap map);
void launchConstOp(const DeviceContext &ctx, bool mul, u32 *out, const u32 *a,
                   const std::vector<u64> &c, int const_rows, int rows,
                   ModMap map);
/// d0 = a0 b0, d1 = a0 b1 + a1 b0, d2 = a1 b1 over `limbs` limbs.
template <typename W>
void launchTensor(const DeviceContext &ctx, W *out, const W *a, const W *b,
                  int limbs);
/// out row r = in row r permuted by the NTT-form Galois index map.
void launchAutomorphism(const DeviceContext &ctx, u64 *out, const u64 *in,
                        int rows, const uint32_t *index);
void launchAutomorphism(const DeviceContext &ctx, u32 *out, const u32 *in,
                        int rows, const uint32_t *index);

} // namespace ember::cuda
