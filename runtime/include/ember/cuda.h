// The CUDA backend of the runtime: a device context built from a Context64
// or a Context32 (moduli, Barrett/Shoup constants and the CPU's NTT
// twiddles, so psi is the same), device polynomials, ciphertexts and keys
// with upload/download, the RNS primitives of rns.h on the GPU and a CKKS
// Evaluator on device ciphertexts, at either word. Every result matches the CPU
// backend residue for residue.
//
// All work goes to the context's one stream; device memory comes from a pool
// owned by the context (cudaMalloc only when the pool has no block of the
// size, i.e. during warm-up). Kernels live in runtime/cuda/*.cu.
#pragma once

#include "ember/ckks.h"
#include "ember/rns.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct CUstream_st;

namespace ember::cuda {

class DeviceContext;

/// Words of device memory from the context's pool, given back on destruction.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceContext &ctx, size_t words);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  uint64_t *data() const { return ptr_; }
  size_t words() const { return words_; }
  /// A non-owning buffer over memory someone else holds (nothing is given
  /// back on destruction).
  static DeviceBuffer borrow(uint64_t *p, size_t words) {
    DeviceBuffer b;
    b.ptr_ = p;
    b.words_ = words;
    return b;
  }

private:
  const DeviceContext *ctx_ = nullptr;
  uint64_t *ptr_ = nullptr;
  size_t words_ = 0;
};

/// An RNS polynomial on the device (limb-major, like Poly) of Word residues;
/// its buffer holds them packed (two 32-bit residues per pool word).
template <typename Word> struct BasicDevicePoly {
  std::vector<int> basis;
  size_t n = 0;
  bool ntt = false;
  DeviceBuffer buf;
  size_t limbs() const { return basis.size(); }
  Word *data() const { return reinterpret_cast<Word *>(buf.data()); }
  Word *limb(size_t i) const { return data() + i * n; }
  /// Pool words that hold `residues` Words.
  static size_t wordsFor(size_t residues) {
    return (residues * sizeof(Word) + sizeof(uint64_t) - 1) / sizeof(uint64_t);
  }
};
using DevicePoly = BasicDevicePoly<uint64_t>;
/// 32-bit words (a DeviceContext built from a Context32).
using DevicePoly32 = BasicDevicePoly<uint32_t>;

/// A ciphertext on the device: its parts stored back to back, each over
/// q_0..q_level (NTT form), of Word residues (packed in the pool's words).
template <typename Word> struct BasicDeviceCiphertext {
  DeviceBuffer buf;
  int parts = 0;
  int level = 0;
  double scale = 1;
  size_t slots = 0;
  size_t n = 0;
  int degree() const { return parts - 1; }
  size_t limbs() const { return static_cast<size_t>(level) + 1; }
  Word *data() const { return reinterpret_cast<Word *>(buf.data()); }
  Word *part(int i) const { return data() + i * limbs() * n; }
};
using DeviceCiphertext = BasicDeviceCiphertext<uint64_t>;
using DeviceCiphertext32 = BasicDeviceCiphertext<uint32_t>;

template <typename Word> struct BasicDevicePlaintext {
  DeviceBuffer buf; ///< level + 1 limbs, NTT form
  int level = 0;
  double scale = 1;
  size_t slots = 0;
  Word *data() const { return reinterpret_cast<Word *>(buf.data()); }
};
using DevicePlaintext = BasicDevicePlaintext<uint64_t>;
using DevicePlaintext32 = BasicDevicePlaintext<uint32_t>;

/// The limb rows of Q u P a device's keys hold: q[q_lo:q_hi] and
/// p[p_lo:p_hi] (P indices local). A GPU's share when a program's limbs
/// are split over GPUs (partition="limbs"): it reads only those rows.
struct KeyRows {
  int q_lo = 0, q_hi = 0, p_lo = 0, p_hi = 0;
};

/// Hybrid switching key: [digit][b, a][rows][N], the rows all moduli of Q
/// u P, or (uploaded with KeyRows) q[q_lo : q_lo + q_n] then p[p_lo :
/// p_lo + rows - q_n]: a sharded key, which only the inner product of
/// raised digits (keySwitchInnerProduct) reads.
template <typename Word> struct BasicDeviceSwitchingKey {
  DeviceBuffer buf;
  int digits = 0;
  int rows = 0; ///< limb rows per component (m_count when whole)
  int q_lo = 0; ///< first Q row held
  int q_n = -1; ///< Q rows held (-1: the whole key)
  int p_lo = 0; ///< first P row held (local index)
  bool whole() const { return q_n < 0; }
  Word *data() const { return reinterpret_cast<Word *>(buf.data()); }
};
template <typename Word> struct BasicDeviceRelinKey {
  BasicDeviceSwitchingKey<Word> key;
};
template <typename Word> struct BasicDeviceGaloisKeys {
  std::map<uint64_t, BasicDeviceSwitchingKey<Word>> keys;
  bool has(uint64_t galois) const { return keys.count(galois) != 0; }
};
using DeviceSwitchingKey = BasicDeviceSwitchingKey<uint64_t>;
using DeviceRelinKey = BasicDeviceRelinKey<uint64_t>;
using DeviceGaloisKeys = BasicDeviceGaloisKeys<uint64_t>;
using DeviceSwitchingKey32 = BasicDeviceSwitchingKey<uint32_t>;
using DeviceRelinKey32 = BasicDeviceRelinKey<uint32_t>;
using DeviceGaloisKeys32 = BasicDeviceGaloisKeys<uint32_t>;
/// EncapsulationKeys on the device (to_sparse keeps the zero limbs of its
/// host layout: its inner product reads only Q_0 and p_0).
template <typename Word> struct BasicDeviceEncapsulationKeys {
  BasicDeviceSwitchingKey<Word> to_sparse, from_sparse;
};
using DeviceEncapsulationKeys = BasicDeviceEncapsulationKeys<uint64_t>;
using DeviceEncapsulationKeys32 = BasicDeviceEncapsulationKeys<uint32_t>;

/// KLSS switching key (ember::BasicKlssKey): [digit][group][b, a][r' T
/// limbs][N] of Word residues, NTT form over T.
template <typename Word> struct BasicDeviceKlssKey {
  DeviceBuffer buf;
  int digits = 0;
  int groups = 0;
  Word *data() const { return reinterpret_cast<Word *>(buf.data()); }
};
template <typename Word> struct BasicDeviceKlssRelinKey {
  BasicDeviceKlssKey<Word> key;
};
template <typename Word> struct BasicDeviceKlssGaloisKeys {
  std::map<uint64_t, BasicDeviceKlssKey<Word>> keys;
  bool has(uint64_t galois) const { return keys.count(galois) != 0; }
};
using DeviceKlssKey = BasicDeviceKlssKey<uint64_t>;
using DeviceKlssRelinKey = BasicDeviceKlssRelinKey<uint64_t>;
using DeviceKlssGaloisKeys = BasicDeviceKlssGaloisKeys<uint64_t>;
using DeviceKlssKey32 = BasicDeviceKlssKey<uint32_t>;
using DeviceKlssRelinKey32 = BasicDeviceKlssRelinKey<uint32_t>;
using DeviceKlssGaloisKeys32 = BasicDeviceKlssGaloisKeys<uint32_t>;

/// Device copy of a Context64: tables, constants, memory pool, stream and
/// the per-level key-switching plans (built on first use). Built from a
/// Context32 it has 32-bit words: the tables are 32-bit and the primitives
/// taking DevicePoly32 run on it (NTT, BConv, ModUp, modulus switches,
/// automorphism, elementwise, hybrid and KLSS key switching); 64-bit
/// operands are refused there, and the other way round.
class DeviceContext {
public:
  explicit DeviceContext(const Context64 &ctx, int device = 0);
  explicit DeviceContext(const Context32 &ctx, int device = 0);
  ~DeviceContext();
  DeviceContext(const DeviceContext &) = delete;
  DeviceContext &operator=(const DeviceContext &) = delete;

  /// 64 or 32.
  int wordBits() const { return ctx32_ ? 32 : 64; }
  /// The CUDA device (ordinal) the context lives on: a thread sets it
  /// (cudaSetDevice) before it queues work on the stream or allocates.
  int device() const;
  /// The host context; InvalidArgument on a 32-bit context (host32).
  const Context64 &host() const;
  const Context32 &host32() const;
  CUstream_st *stream() const;
  /// Waits for all work queued on the stream.
  void synchronize() const;
  /// Bytes the pool holds (in use and free).
  size_t poolBytes() const;

  /// CUDA Graph capture of work on the stream (program::runCuda): between
  /// beginCapture and endCapture, blocks released to the pool are kept
  /// apart and reused only by allocations of the capture, so that no
  /// memory a captured graph touches goes to anyone else. endCapture
  /// returns those blocks (the graph's temporaries, address and words);
  /// their holder gives them back with releaseBlocks when the graph is
  /// destroyed. reuse_blocks = false: a released block is not reused even
  /// by the capture (a graph whose steps may run side by side, where a
  /// block one step let go of may still be in use by another).
  void beginCapture(bool reuse_blocks = true) const;
  std::vector<std::pair<uint64_t *, size_t>> endCapture() const;
  void
  releaseBlocks(const std::vector<std::pair<uint64_t *, size_t>> &blocks) const;

  struct Impl;
  Impl &impl() const { return *impl_; }

private:
  const Context64 *ctx_ = nullptr;
  const Context32 *ctx32_ = nullptr;
  std::unique_ptr<Impl> impl_;
};

// Host <-> device copies (synchronous: they return once the data is there).
DevicePoly upload(const DeviceContext &ctx, const Poly64 &p);
Poly64 download(const DeviceContext &ctx, const DevicePoly &p);
DeviceCiphertext upload(const DeviceContext &ctx, const Ciphertext &ct);
Ciphertext download(const DeviceContext &ctx, const DeviceCiphertext &ct);
DevicePlaintext upload(const DeviceContext &ctx, const Plaintext &pt);
DeviceSwitchingKey upload(const DeviceContext &ctx, const SwitchingKey &key);
DeviceEncapsulationKeys upload(const DeviceContext &ctx,
                               const EncapsulationKeys &keys);
DeviceRelinKey upload(const DeviceContext &ctx, const RelinKey &key);
DeviceGaloisKeys upload(const DeviceContext &ctx, const GaloisKeys &keys);
DeviceKlssKey upload(const DeviceContext &ctx, const KlssKey &key);
DeviceKlssRelinKey upload(const DeviceContext &ctx, const KlssRelinKey &key);
DeviceKlssGaloisKeys upload(const DeviceContext &ctx,
                            const KlssGaloisKeys &keys);
/// Only the keys of `elements` that `keys` holds (others are skipped: the
/// caller checks): the Galois keys one device of a program partitioned
/// over several GPUs needs.
DeviceGaloisKeys upload(const DeviceContext &ctx, const GaloisKeys &keys,
                        const std::vector<uint64_t> &elements);
/// Sharded: only the rows `rows` of each key (KeyRows).
DeviceSwitchingKey upload(const DeviceContext &ctx, const SwitchingKey &key,
                          const KeyRows &rows);
DeviceRelinKey upload(const DeviceContext &ctx, const RelinKey &key,
                      const KeyRows &rows);
DeviceGaloisKeys upload(const DeviceContext &ctx, const GaloisKeys &keys,
                        const KeyRows &rows);
DeviceGaloisKeys upload(const DeviceContext &ctx, const GaloisKeys &keys,
                        const std::vector<uint64_t> &elements,
                        const KeyRows &rows);
DeviceKlssGaloisKeys upload(const DeviceContext &ctx,
                            const KlssGaloisKeys &keys,
                            const std::vector<uint64_t> &elements);
// The same at 32-bit words (a DeviceContext of a Context32).
DeviceCiphertext32 upload(const DeviceContext &ctx, const Ciphertext32 &ct);
Ciphertext32 download(const DeviceContext &ctx, const DeviceCiphertext32 &ct);
DevicePlaintext32 upload(const DeviceContext &ctx, const Plaintext32 &pt);
DeviceSwitchingKey32 upload(const DeviceContext &ctx,
                            const SwitchingKey32 &key);
DeviceRelinKey32 upload(const DeviceContext &ctx, const RelinKey32 &key);
DeviceEncapsulationKeys32 upload(const DeviceContext &ctx,
                                 const EncapsulationKeys32 &keys);
DeviceGaloisKeys32 upload(const DeviceContext &ctx, const GaloisKeys32 &keys);
DeviceKlssKey32 upload(const DeviceContext &ctx, const KlssKey32 &key);
DeviceKlssRelinKey32 upload(const DeviceContext &ctx,
                            const KlssRelinKey32 &key);
DeviceKlssGaloisKeys32 upload(const DeviceContext &ctx,
                              const KlssGaloisKeys32 &keys);
DeviceGaloisKeys32 upload(const DeviceContext &ctx, const GaloisKeys32 &keys,
                          const std::vector<uint64_t> &elements);
DeviceKlssGaloisKeys32 upload(const DeviceContext &ctx,
                              const KlssGaloisKeys32 &keys,
                              const std::vector<uint64_t> &elements);

// The primitives of rns.h on the device, same contracts. Bases must be
// q_0..q_l, q_0..q_l u P, P or T (the shapes CKKS and KLSS use); bconv
// targets any basis.
//
// Each primitive that makes a polynomial also has a form that writes into
// `out`, memory the caller provides (a view of a program's arena:
// DeviceBuffer::borrow) with the result's basis set; `scratch` is memory
// for the primitive's temporaries (the limbs kernel::CallOp::scratchLimbs
// gives the memory plan), taken from the pool when it is too small.
struct Scratch {
  uint64_t *data = nullptr;
  size_t words = 0;
};
void ntt(const DeviceContext &ctx, DevicePoly &p);
void intt(const DeviceContext &ctx, DevicePoly &p);
void ntt(const DeviceContext &ctx, const DevicePoly &in, DevicePoly &out);
void intt(const DeviceContext &ctx, const DevicePoly &in, DevicePoly &out);
DevicePoly bconv(const DeviceContext &ctx, const DevicePoly &in,
                 const std::vector<int> &to);
void bconv(const DeviceContext &ctx, const DevicePoly &in, DevicePoly &out,
           Scratch scratch);
DevicePoly modUp(const DeviceContext &ctx, const DevicePoly &in, int digit);
/// ModUp of several digits at once (one INTT over their limbs, one BConv,
/// one NTT over every converted limb): outs[k] is digit digits[k] raised
/// to qpBasis(l).
void modUp(const DeviceContext &ctx, const DevicePoly &in,
           const std::vector<int> &digits,
           const std::vector<DevicePoly *> &outs, Scratch scratch);
DevicePoly bconvExact(const DeviceContext &ctx, const DevicePoly &in,
                      const std::vector<int> &to);
/// bconvExact into `out`, whose basis is the targets (a plan's buffer).
void bconvExact(const DeviceContext &ctx, const DevicePoly &in,
                DevicePoly &out);
DevicePoly klssModUp(const DeviceContext &ctx, const DevicePoly &digit);
void klssModUp(const DeviceContext &ctx, const DevicePoly &digit,
               DevicePoly &out, Scratch scratch);
/// klssModUp of every digit of one key switch (outs[j] of digits[j]): when
/// they are all the digits of their level, in one INTT, one exact BConv and
/// one NTT launch (as the hand-written key switch); otherwise one
/// klssModUp each. Scratch: the digits' limbs.
void klssModUp(const DeviceContext &ctx,
               const std::vector<const DevicePoly *> &digits,
               const std::vector<DevicePoly *> &outs, Scratch scratch);
void klssModUp(const DeviceContext &ctx,
               const std::vector<const DevicePoly32 *> &digits,
               const std::vector<DevicePoly32 *> &outs, Scratch scratch);
/// ember::keySwitchInnerProduct on the device: the digits are modUp results
/// (NTT form over qpBasis(l)); same residues as the CPU. acc0 and acc1 are
/// written in place when they already have the results' shape. galois != 0:
/// the digits read permuted by X -> X^galois (as on the CPU).
void keySwitchInnerProduct(const DeviceContext &ctx,
                           const DeviceSwitchingKey &key,
                           const std::vector<const DevicePoly *> &digits,
                           DevicePoly &acc0, DevicePoly &acc1,
                           uint64_t galois = 0);
/// ember::klssInnerProduct on the device (coefficient-form results over
/// qpBasis(level)). Scratch: 2 x groups x r' limbs (the products over T).
void klssInnerProduct(const DeviceContext &ctx, const DeviceKlssKey &key,
                      const std::vector<const DevicePoly *> &tdigits, int level,
                      DevicePoly &acc0, DevicePoly &acc1, Scratch scratch = {});
/// `keep` must be a proper prefix of in.basis (ModDown: Q_l of Q_l u P;
/// rescale: Q_{l-1} of Q_l; merged: Q_{l-1} of Q_l u P). Either form; the
/// result has the input's form.
/// plain_modulus t != 0: BGV's t-corrected switch (rns.h), the same kernels
/// with t folded into their constants.
DevicePoly modSwitchDown(const DeviceContext &ctx, const DevicePoly &in,
                         const std::vector<int> &keep,
                         uint64_t plain_modulus = 0);
/// modSwitchDown to out.basis.
void modSwitchDown(const DeviceContext &ctx, const DevicePoly &in,
                   DevicePoly &out, Scratch scratch,
                   uint64_t plain_modulus = 0);
/// modSwitchDown of several polynomials of one basis to out[i].basis in one
/// INTT, one BConv and one NTT launch (NTT form; coefficient form runs one
/// switch each). With `lifted` (y_i for the first lifted.size() inputs,
/// over the input's Q limbs), out[i] = modSwitchDown(in[i] + P y_i), P the
/// product of in's special primes (a merged ModDown's P c + acc, read in
/// place: the dropped Q limbs in a small pre-pass, the kept ones in the
/// NTT's epilogue). Scratch: parts x dropped limbs + lifted x dropped Q
/// limbs. With lifted_galois g != 0 (no Q limb dropped), the addends are
/// read permuted: out[i] = modSwitchDown(in[i] + P sigma_g(y_i)) =
/// sigma_g(y_i) + ModDown(in[i]) (a rotation's c0 side in the epilogue).
void modSwitchDown(const DeviceContext &ctx,
                   const std::vector<const DevicePoly *> &in,
                   const std::vector<const DevicePoly *> &lifted,
                   const std::vector<DevicePoly *> &out, Scratch scratch,
                   uint64_t plain_modulus = 0, uint64_t lifted_galois = 0);
/// keySwitchInnerProduct(key, digits, galois) into (acc0, acc1), then
/// modSwitchDown({acc0, acc1}, lifted, out): the same residues. While a
/// CUDA Graph is captured on the context's stream (and the switch keeps a
/// prefix of the digits' basis, NTT form), the work splits into two
/// branches: the inner product's dropped rows, then the switch's INTT and
/// BConv (their kernel nodes at the greatest priority), beside the inner
/// product's kept rows; the last NTT follows both. Out and scratch must not
/// overlap the digits (the memory plan's ks-overlap); otherwise, or outside a
/// capture, the two run in turn.
void keySwitchDown(const DeviceContext &ctx, const DeviceSwitchingKey &key,
                   const std::vector<const DevicePoly *> &digits,
                   uint64_t galois, DevicePoly &acc0, DevicePoly &acc1,
                   const std::vector<const DevicePoly *> &lifted,
                   const std::vector<DevicePoly *> &out, Scratch scratch,
                   uint64_t plain_modulus = 0, uint64_t lifted_galois = 0);
DevicePoly modDown(const DeviceContext &ctx, const DevicePoly &in);
void rescale(const DeviceContext &ctx, DevicePoly &p);
DevicePoly automorphism(const DeviceContext &ctx, const DevicePoly &in,
                        uint64_t galois);
void automorphism(const DeviceContext &ctx, const DevicePoly &in,
                  uint64_t galois, DevicePoly &out);
// The primitives at 32-bit words (a DeviceContext of a Context32), same
// contracts and the CPU's 32-bit residues bit for bit (the CKKS operations
// at 32-bit words: Evaluator32).
DevicePoly32 upload(const DeviceContext &ctx, const Poly32 &p);
Poly32 download(const DeviceContext &ctx, const DevicePoly32 &p);
void ntt(const DeviceContext &ctx, DevicePoly32 &p);
void intt(const DeviceContext &ctx, DevicePoly32 &p);
DevicePoly32 bconv(const DeviceContext &ctx, const DevicePoly32 &in,
                   const std::vector<int> &to);
void rescale(const DeviceContext &ctx, DevicePoly32 &p);
/// rns.h's modSwitchDown (keep a proper prefix): ModDown, a double-prime
/// rescale (Q_l -> Q_{l-2}) or the merged ModDown + rescale, in either form.
DevicePoly32 modSwitchDown(const DeviceContext &ctx, const DevicePoly32 &in,
                           const std::vector<int> &keep);
DevicePoly32 modDown(const DeviceContext &ctx, const DevicePoly32 &in);
DevicePoly32 modUp(const DeviceContext &ctx, const DevicePoly32 &in, int digit);
DevicePoly32 automorphism(const DeviceContext &ctx, const DevicePoly32 &in,
                          uint64_t galois);
void addInPlace(const DeviceContext &ctx, DevicePoly32 &a,
                const DevicePoly32 &b);
void subInPlace(const DeviceContext &ctx, DevicePoly32 &a,
                const DevicePoly32 &b);
void negInPlace(const DeviceContext &ctx, DevicePoly32 &a);
void mulInPlace(const DeviceContext &ctx, DevicePoly32 &a,
                const DevicePoly32 &b);
void mulConstInPlace(const DeviceContext &ctx, DevicePoly32 &a,
                     const std::vector<uint32_t> &c);
void addConstInPlace(const DeviceContext &ctx, DevicePoly32 &a,
                     const std::vector<uint32_t> &c);
void mulAddInPlace(const DeviceContext &ctx, DevicePoly32 &acc,
                   const DevicePoly32 &a, const DevicePoly32 &b);
// The forms a compiled program's plan calls at 32-bit words (into `out`, as
// the 64-bit ones above, with the same launches: ModUp of all digits and
// the modulus switches of all parts in one INTT, one BConv and one NTT
// launch each), bit for bit the CPU's.
void ntt(const DeviceContext &ctx, const DevicePoly32 &in, DevicePoly32 &out);
void intt(const DeviceContext &ctx, const DevicePoly32 &in, DevicePoly32 &out);
void bconv(const DeviceContext &ctx, const DevicePoly32 &in, DevicePoly32 &out,
           Scratch scratch);
void modUp(const DeviceContext &ctx, const DevicePoly32 &in,
           const std::vector<int> &digits,
           const std::vector<DevicePoly32 *> &outs, Scratch scratch);
void keySwitchInnerProduct(const DeviceContext &ctx,
                           const DeviceSwitchingKey32 &key,
                           const std::vector<const DevicePoly32 *> &digits,
                           DevicePoly32 &acc0, DevicePoly32 &acc1,
                           uint64_t galois = 0);
DevicePoly32 bconvExact(const DeviceContext &ctx, const DevicePoly32 &in,
                        const std::vector<int> &to);
void bconvExact(const DeviceContext &ctx, const DevicePoly32 &in,
                DevicePoly32 &out);
DevicePoly32 klssModUp(const DeviceContext &ctx, const DevicePoly32 &digit);
void klssModUp(const DeviceContext &ctx, const DevicePoly32 &digit,
               DevicePoly32 &out, Scratch scratch);
void klssInnerProduct(const DeviceContext &ctx, const DeviceKlssKey32 &key,
                      const std::vector<const DevicePoly32 *> &tdigits,
                      int level, DevicePoly32 &acc0, DevicePoly32 &acc1,
                      Scratch scratch = {});
void modSwitchDown(const DeviceContext &ctx,
                   const std::vector<const DevicePoly32 *> &in,
                   const std::vector<const DevicePoly32 *> &lifted,
                   const std::vector<DevicePoly32 *> &out, Scratch scratch,
                   uint64_t plain_modulus = 0, uint64_t lifted_galois = 0);
void automorphism(const DeviceContext &ctx, const DevicePoly32 &in,
                  uint64_t galois, DevicePoly32 &out);
void keySwitchDown(const DeviceContext &ctx, const DeviceSwitchingKey32 &key,
                   const std::vector<const DevicePoly32 *> &digits,
                   uint64_t galois, DevicePoly32 &acc0, DevicePoly32 &acc1,
                   const std::vector<const DevicePoly32 *> &lifted,
                   const std::vector<DevicePoly32 *> &out, Scratch scratch,
                   uint64_t plain_modulus = 0, uint64_t lifted_galois = 0);

void addInPlace(const DeviceContext &ctx, DevicePoly &a, const DevicePoly &b);
void subInPlace(const DeviceContext &ctx, DevicePoly &a, const DevicePoly &b);
void negInPlace(const DeviceContext &ctx, DevicePoly &a);
void mulInPlace(const DeviceContext &ctx, DevicePoly &a, const DevicePoly &b);
void mulConstInPlace(const DeviceContext &ctx, DevicePoly &a,
                     const std::vector<uint64_t> &c);
void addConstInPlace(const DeviceContext &ctx, DevicePoly &a,
                     const std::vector<uint64_t> &c);
void mulAddInPlace(const DeviceContext &ctx, DevicePoly &acc,
                   const DevicePoly &a, const DevicePoly &b);

/// The CKKS operations of ember::Evaluator on device ciphertexts, with the
/// same checks and the same results residue for residue, at either word
/// (the context's). Rescale divides by Context::scalePrimes() primes
/// (double-prime scaling: one switch Q_l -> Q_{l-2} of every part). Hybrid
/// and KLSS key switching at both words.
template <typename Word> class BasicEvaluator {
public:
  using Ct = BasicDeviceCiphertext<Word>;
  using Pt = BasicDevicePlaintext<Word>;
  using Poly = BasicDevicePoly<Word>;
  /// plain_modulus t != 0: BGV's key switching (t-corrected ModDown), as
  /// ember::BasicEvaluator; hybrid keys only.
  explicit BasicEvaluator(const DeviceContext &ctx, uint64_t plain_modulus = 0)
      : ctx_(ctx), plain_modulus_(plain_modulus) {}
  uint64_t plainModulus() const { return plain_modulus_; }

  Ct add(const Ct &a, const Ct &b) const;
  Ct sub(const Ct &a, const Ct &b) const;
  Ct negate(const Ct &a) const;
  Ct addPlain(const Ct &a, const Pt &p) const;
  Ct subPlain(const Ct &a, const Pt &p) const;
  Ct mulPlain(const Ct &a, const Pt &p) const;
  Ct addConst(const Ct &a, double c) const;
  Ct mulConst(const Ct &a, double c, double const_scale = 0) const;
  Ct multiply(const Ct &a, const Ct &b) const;
  Ct relinearize(const Ct &a, const BasicDeviceRelinKey<Word> &rk) const;
  Ct multiplyRelin(const Ct &a, const Ct &b,
                   const BasicDeviceRelinKey<Word> &rk) const;
  Ct relinearize(const Ct &a, const BasicDeviceKlssRelinKey<Word> &rk) const;
  Ct multiplyRelin(const Ct &a, const Ct &b,
                   const BasicDeviceKlssRelinKey<Word> &rk) const;
  Ct rescale(const Ct &a) const;
  Ct modDropTo(const Ct &a, int level) const;
  Ct rotate(const Ct &a, int64_t k,
            const BasicDeviceGaloisKeys<Word> &keys) const;
  Ct conjugate(const Ct &a, const BasicDeviceGaloisKeys<Word> &keys) const;
  Ct applyGalois(const Ct &a, uint64_t galois,
                 const BasicDeviceGaloisKeys<Word> &keys) const;
  Ct rotate(const Ct &a, int64_t k,
            const BasicDeviceKlssGaloisKeys<Word> &keys) const;
  Ct conjugate(const Ct &a, const BasicDeviceKlssGaloisKeys<Word> &keys) const;
  Ct applyGalois(const Ct &a, uint64_t galois,
                 const BasicDeviceKlssGaloisKeys<Word> &keys) const;
  std::pair<Poly, Poly>
  keySwitch(const Poly &d, const BasicDeviceSwitchingKey<Word> &key) const;
  std::pair<Poly, Poly> keySwitch(const Poly &d,
                                  const BasicDeviceKlssKey<Word> &key) const;

private:
  const DeviceContext &ctx_;
  uint64_t plain_modulus_ = 0;
};
using Evaluator = BasicEvaluator<uint64_t>;
using Evaluator32 = BasicEvaluator<uint32_t>;

} // namespace ember::cuda
