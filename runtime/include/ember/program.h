// The small ABI between code emitted by `ember-translate --emit-cpp` and the
// CPU runtime: the entry point every generated .cpp exports, and the helpers
// its body calls besides the primitives of rns.h. A generated program is
// built into a shared library (see runtime/python/program.cpp), loaded with
// dlopen and run on ciphertexts with evaluation keys only.
#pragma once

#include "ember/ckks.h"
#include "ember/program_abi.h"
#include "ember/program_data.h"
#include "ember/rns.h"

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace ember::program {

/// The plaintext constants of a program, encoded on its first run with a
/// context and reused by later runs with the same context. P is Poly64 or
/// cuda::DevicePoly.
template <typename P> struct ConstantCache {
  const void *ctx = nullptr;
  std::vector<P> polys;
};

/// The slot values of a program's plaintext constants, read from its data
/// file (`<name>.data`, written by `ember-translate --emit-data` next to
/// the emitted source; format in ember/program_data.h): the source holds
/// offsets into it, not numbers.
struct ConstantData {
  std::vector<double> values;
};
/// Reads and checks a data file (magic, version, size, SHA-256);
/// SerializationError names what is wrong.
ConstantData readConstantData(const std::string &path);

/// What the host entry function of a generated C++ program receives, at the
/// program's word size (CpuArgs: 64-bit, CpuArgs32: 32-bit words with
/// double-prime scaling; the program's ember_program_word() says which).
template <typename Word> struct BasicCpuArgs {
  const Context<Word> *ctx = nullptr;
  const BasicEvaluationKeys<Word> *keys = nullptr;
  const std::vector<BasicCiphertext<Word>> *inputs = nullptr;
  std::vector<BasicCiphertext<Word>> *outputs = nullptr;
  /// Kept by the caller between runs; null: encode the constants every run.
  ConstantCache<Poly<Word>> *constants = nullptr;
  /// The program's data file (null: the program has no vector constants).
  const ConstantData *data = nullptr;
  /// The values of the plaintext inputs, in interface order (complex slot
  /// values; real programs pass zero imaginary parts).
  const std::vector<std::vector<std::complex<double>>> *plain = nullptr;
  /// Only encode the constants into `constants` and return (a setup step
  /// before timed or latency-bound runs): keys, inputs and outputs are not
  /// read. Generated code only passes the arguments through, so this field
  /// needs no new ABI version.
  bool prepare_only = false;
};

/// Every generated .cpp exports `extern "C" void ember_program_run(const
/// CpuArgs &)` (CpuArgs32 when `ember_program_word()` is 32); it throws
/// ember errors (InvalidArgument, MissingKey, ...).
inline constexpr const char *kCpuEntry = "ember_program_run";
using CpuEntry = void (*)(const CpuArgs &);
using CpuEntry32 = void (*)(const CpuArgs32 &);
/// The exported word size of a generated program.
inline constexpr const char *kWordEntry = "ember_program_word";
using WordEntry = int (*)();

/// The helpers below are templates on the word, instantiated for uint64_t
/// and uint32_t (runtime/cpu/program.cpp).

/// Global modulus indices of q[qLo:qHi] u p[pLo:pHi].
template <typename Word>
std::vector<int> basis(const Context<Word> &ctx, int q_lo, int q_hi, int p_lo,
                       int p_hi);
/// Throws unless input `index` has `parts` polynomials over q_0..q_level in
/// NTT form, `slots` slots (InvalidArgument), level `level` (LevelMismatch)
/// and exactly the scale `scale` (ScaleMismatch): the manifest records the
/// double the client encodes at, and the program's constants and rescales
/// were planned for it, so any other scale decrypts to a wrong value.
template <typename Word>
void checkInput(const Context<Word> &ctx,
                const std::vector<BasicCiphertext<Word>> &inputs, size_t index,
                const char *name, int parts, int level, size_t slots,
                double scale);
/// The scale half of checkInput: ScaleMismatch naming the input and both
/// scales (as 2^x and as exact decimals) unless `got == expected`.
void checkInputScale(const char *name, double got, double expected);
/// The checks checkInput and cudaCheckInput share, on what a ciphertext of
/// either backend says of itself: `given` ciphertexts hold input `index`,
/// which has `parts` polynomials, `level`, `slots` and exactly `scale`.
void checkInputMetadata(const char *name, size_t index, size_t given,
                        int parts_got, int level_got, size_t slots_got,
                        double scale_got, int parts, int level, size_t slots,
                        double scale);
/// The keys a program loads; MissingKey names the one absent.
template <typename Word>
const BasicSwitchingKey<Word> &relinKey(const BasicEvaluationKeys<Word> &keys);
template <typename Word>
const BasicSwitchingKey<Word> &galoisKey(const BasicEvaluationKeys<Word> &keys,
                                         uint64_t galois);
/// to_sparse or from_sparse of bootstrapping's encapsulation keys.
template <typename Word>
const BasicSwitchingKey<Word> &
encapsulationKey(const BasicEvaluationKeys<Word> &keys, bool to_sparse);
template <typename Word>
const BasicKlssKey<Word> &klssRelinKey(const BasicEvaluationKeys<Word> &keys);
template <typename Word>
const BasicKlssKey<Word> &klssGaloisKey(const BasicEvaluationKeys<Word> &keys,
                                        uint64_t galois);
/// Limbs first..first+count-1 of `src` (a copy).
template <typename Word>
Poly<Word> view(const Poly<Word> &src, size_t first, size_t count);
/// Parts over disjoint bases joined in order.
template <typename Word>
Poly<Word> concat(const std::vector<const Poly<Word> *> &parts);
/// The CKKS encoding of `values` at `scale` over `basis` (a prefix of Q), in
/// NTT form unless `ntt` is false.
template <typename Word>
Poly<Word> encodeConstant(const Context<Word> &ctx,
                          const std::vector<double> &values, double scale,
                          const std::vector<int> &basis, bool ntt);
/// The BGV plaintext of integer slot values (exact in the doubles; taken
/// mod t, signed allowed) with factor mu = `factor` (an integer in [1, t))
/// over `basis` (a prefix q_0..q_l of Q): the coefficients of [mu m]_t
/// centred in (-t/2, t/2], in NTT form unless `ntt` is false. Bit for bit
/// BasicBgvEncoder(ctx, t).encode(values, l, values.size(), mu).poly.
/// InvalidArgument for a value that is not an integer of magnitude below
/// 2^63, a factor outside [1, t) or a t the encoder refuses.
template <typename Word>
Poly<Word> encodeBgv(const Context<Word> &ctx,
                     const std::vector<double> &values, double factor,
                     uint64_t plain_modulus, const std::vector<int> &basis,
                     bool ntt);
/// The BFV plaintext of integer slot values (exact in the doubles; taken
/// mod t = `plain_modulus`, signed allowed) over the full Q: `basis` must
/// be q_0..q_L (InvalidArgument otherwise). multiplier: m with centred
/// coefficients (BasicBfvEncoder::encodeMultiplier, what mulPlain takes);
/// else Delta m (BasicBfvEncoder::encode, what addPlain and subPlain take).
/// Bit for bit that encoder's polynomial, in NTT form unless `ntt` is
/// false. The encoder of (ctx, t) is built once per thread and kept. A
/// BFV program's plan encodes with multiplier = (the step's scale == 1).
/// InvalidArgument for a value that is not an integer of magnitude below
/// 2^63, a t the encoder refuses, or 32-bit words (BFV is 64-bit only).
template <typename Word>
Poly<Word> encodeBfv(const Context<Word> &ctx,
                     const std::vector<double> &values, bool multiplier,
                     uint64_t plain_modulus, const std::vector<int> &basis,
                     bool ntt);
/// The same for the `count` slot values at values[offset] of the program's
/// data (complex: `count` (real, imaginary) pairs); InvalidArgument when
/// there is no data or the range is outside it. plain_modulus t != 0 (a
/// BGV program): encodeBgv of the values with factor `scale` (never
/// complex). bfv_plain_modulus t != 0 (a BFV program): encodeBfv of the
/// values, the multiplier form when `scale` is 1 (never complex).
template <typename Word>
Poly<Word> encodeConstant(const Context<Word> &ctx, const ConstantData *data,
                          uint64_t offset, uint64_t count, bool complex,
                          double scale, const std::vector<int> &basis, bool ntt,
                          uint64_t plain_modulus = 0,
                          uint64_t bfv_plain_modulus = 0);
/// The encoding of complex slot values (a plaintext input's), as
/// encodeConstant; with plain_modulus or bfv_plain_modulus t != 0,
/// encodeBgv or encodeBfv of the real parts (InvalidArgument for a nonzero
/// imaginary part).
template <typename Word>
Poly<Word> encodeValues(const Context<Word> &ctx,
                        const std::vector<std::complex<double>> &values,
                        double scale, const std::vector<int> &basis, bool ntt,
                        uint64_t plain_modulus = 0,
                        uint64_t bfv_plain_modulus = 0);
/// Plaintext input `index` of a run, checked: InvalidArgument unless it is
/// given with `slots` values.
const std::vector<std::complex<double>> &
plainInput(const std::vector<std::vector<std::complex<double>>> *plain,
           size_t index, const char *name, size_t slots);
/// An output ciphertext from its polynomials.
template <typename Word>
BasicCiphertext<Word> makeCiphertext(std::vector<Poly<Word>> polys, int level,
                                     double scale, size_t slots);
/// Frees a dead buffer's memory.
template <typename Word> void release(Poly<Word> &p) {
  std::vector<Word>().swap(p.data);
}

} // namespace ember::program
