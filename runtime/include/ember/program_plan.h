// The plan of a compiled program: what `ember-translate --emit-cpp/--emit-cuda`
// writes as static tables, and what the runtime executes (program::run on
// the CPU, program::runCuda on the GPU). The emitted source holds the
// buffers of the memory plan, one step per runtime operation and the
// generated elementwise kernels; the numbers (plaintext constants) live in
// the program's data file. A table compiles in a fraction of the time of
// the same program unrolled into statements, and one interpreter, tested
// once, runs every program.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::program {

/// kLoadKey's ids of the encapsulation keys (EncapsulationKeys): even, so
/// never a Galois element (those are odd), and not 0 (relinearization).
inline constexpr int64_t kToSparseKey = 2;
inline constexpr int64_t kFromSparseKey = 4;

/// A buffer of the plan: a polynomial over q[q_lo:q_hi] u p[p_lo:p_hi]
/// (limb ranges of the module's Q and P; P indices local), or over all of
/// the KLSS temporary primes T (over_t), in NTT or coefficient form; or an
/// evaluation key (key != 0: 1 hybrid, 2 KLSS). `offset` is where the
/// memory plan (kernel-plan-memory) put it in the program's arena, in bytes
/// (-1: not in the arena: keys, constants, which the runtime holds).
/// A step's scratch (Step::scratch) is a spec of q_hi limbs at its offset.
struct BufferSpec {
  int16_t q_lo, q_hi, p_lo, p_hi;
  uint8_t ntt, over_t, key;
  int64_t offset;
};

/// A generated kernel's loop: `limbs` limbs, q_count Q limbs from global
/// modulus q_lo, then P limbs from global index p_lo.
struct KernelLoop {
  int limbs, q_count, q_lo, p_lo;
};
/// A buffer's basis as global modulus ranges [q_lo, q_hi) u [p_lo, p_hi).
struct KernelBasis {
  int q_lo, q_hi, p_lo, p_hi;
};
/// The buffers and constant rows of one launch of a generated kernel. The
/// buffers hold words of the program's size (ember_program_word: uint64_t
/// or uint32_t residues); the kernel reads them as such.
struct KernelIO {
  const void *const *in;
  const KernelBasis *inb;
  void *const *out;
  const KernelBasis *outb;
  const int *tab;
};

/// What a step does. `out` and `in` are lists of buffer indices in the
/// plan's argument table; imm[] are per-kind immediates.
enum class StepKind : uint8_t {
  kInput,            ///< out = the polys of input imm[0] (level imm[1], slots
                     ///< imm[2], scale), checked against the ciphertext given
  kConstant,         ///< out[0] = constant imm[0] (encoded once per context:
                     ///< imm[2] slot values from data value imm[1] at
                     ///< scale; imm[3] != 0: complex, (re, im) pairs;
                     ///< BGV: integers, with factor scale)
  kPlainInput,       ///< plaintext input imm[0] (imm[1] slot values) given
  kEncodeValues,     ///< out[0] = the values of plaintext input imm[0]
                     ///< encoded at scale (every run)
  kZero,             ///< out[0] = 0
  kNtt,              ///< out[0] = NTT(in[0])
  kIntt,             ///< out[0] = INTT(in[0])
  kBConv,            ///< out[0] = fast base conversion of in[0] to out's basis
                     ///< (imm[0] != 0: exact, rns.h bconvExact)
  kModUp,            ///< out[j] = ModUp of in[0]'s digit args[imm[0] + j]
  kKsInnerProduct,   ///< (out[0], out[1]) = sum_j in[j+1] * key in[0];
                     ///< imm[0] != 0: in[j+1] read permuted by X^imm[0]
  kKlssModUp,        ///< out[j] = KLSS ModUp of digit in[j]
  kKlssInnerProduct, ///< (out[0], out[1]) = KLSS inner product of the T
                     ///< digits in[1..] with key in[0] at level imm[0]
  kModSwitchDown,    ///< out[j] = in[j] divided and rounded down to out's basis
                     ///< (imm[0]: lifted addends' Galois element; imm[1] != 0:
                     ///< overlaps the kKsInnerProduct right before it,
                     ///< overlappedInnerProduct)
  kAutomorphism,     ///< out[0] = in[0](X^imm[0])
  kLoadKey,          ///< out[0] = the evaluation key: relin (imm[0] == 0),
                     ///< an encapsulation key (kToSparseKey,
                     ///< kFromSparseKey) or the Galois key of element imm[0]
  kConcat,           ///< out[0] = in[0] | in[1] | ... (disjoint bases)
  kView,             ///< out[0] = limbs [imm[0], imm[0] + imm[1]) of in[0]
                     ///< (an alias of them where the backend can)
  kCopy,             ///< out[0] = in[0]
  kLaunch,           ///< generated kernel imm[0] over loop imm[1] (a buffer
                     ///< spec index), reading in, writing out (allocated
                     ///< here), constant rows args[imm[2] .. + imm[3])
  kRelease,          ///< the buffers in are dead: free them
  kOutput,           ///< an output ciphertext of the polys in, at level
                     ///< imm[0], slots imm[1], scale; args[imm[2] + j] != 0:
                     ///< in[j] may be moved (its last use)
  kBfvTensor,        ///< (out[0], out[1], out[2]) = the product of the
                     ///< ciphertexts (in[0], in[1]) and (in[2], in[3]) by
                     ///< BEHZ (imm[0] = 1: BasicBfvEvaluator::multiplyBehz)
                     ///< or HPS (imm[0] = 0: multiply); every buffer NTT
                     ///< form over the full Q. A BFV program only. On the
                     ///< GPU it runs on the context's stream and is
                     ///< captured into a program's graph like every step
  kTransfer,         ///< out[0] on device imm[0] = in[0] on the step's
                     ///< device (a program of several devices: NCCL
                     ///< send/recv on the GPUs, a copy in the CPU's
                     ///< simulation); both devices execute it
};

struct Step {
  StepKind kind;
  int32_t out, nout; ///< args[out .. out + nout): result buffers
  int32_t in, nin;   ///< args[in .. in + nin): operand buffers
  int64_t imm[4];
  double scale;
  /// Buffer spec of the arena range the step's runtime primitive uses for
  /// its temporaries (kernel::scratchLimbs), or -1.
  int32_t scratch;
  /// The device that executes the step in a program of several devices
  /// (Plan::devices > 1); -1: every device (kRelease, kPlainInput). A
  /// kTransfer runs on this device (the sender) and on imm[0] (the
  /// receiver). Absent from single-device plans' initializers: 0.
  int8_t device = 0;
};

/// Everything the emitted source declares, handed to the interpreter.
template <typename Kernel> struct Plan {
  const BufferSpec *buffers;
  size_t buffer_count;
  const int32_t *args;
  const Step *steps;
  size_t step_count;
  const Kernel *kernels;
  size_t constant_count;
  const char *const *input_names; ///< ciphertext inputs
  const char *const *plain_names; ///< plaintext inputs
  /// Bytes of the planned arena (kernel-plan-memory): every buffer with an
  /// offset lies in [0, arena_bytes).
  int64_t arena_bytes;
  /// 0: a CKKS program. Else a BGV program over the plaintext modulus t =
  /// plain_modulus: a step's `scale` is the BGV factor mu (an integer in
  /// [1, t)), kConstant and kEncodeValues encode integer slot values as
  /// the centred coefficients of [mu m]_t (BasicBgvEncoder::encode), and
  /// kModSwitchDown is the t-corrected switch (rns.h modSwitchDown with t),
  /// which keeps messages mod t: ModDown, the modulus switch and their
  /// merged form alike.
  uint64_t plain_modulus;
  /// 0 for CKKS and BGV programs. Else a BFV program over t =
  /// bfv_plain_modulus, and then plain_modulus is 0 (so key switches,
  /// ModDown and every kModSwitchDown stay CKKS's, not t-corrected: BFV
  /// keys carry error factor 1). kConstant and kEncodeValues encode integer
  /// slot values (doubles that are integers, taken mod t, signed allowed;
  /// never complex) over the full Q (the step's buffer is over q_0..q_L of
  /// the context; InvalidArgument otherwise): a step `scale` of exactly 1.0
  /// gives the multiplier form m centred (BasicBfvEncoder::encodeMultiplier,
  /// what mulPlain takes), any other scale the Delta m form
  /// (BasicBfvEncoder::encode, what addPlain, subPlain and addInt take),
  /// bit for bit those polynomials (encodeBfv). kInput compares the
  /// ciphertext's scale exactly with the step's, as ever: the compiler
  /// writes Delta = bgv::bfvDelta(Q primes, t). kBfvTensor is the BEHZ or
  /// the HPS multiplication.
  uint64_t bfv_plain_modulus;
  /// The devices the program is partitioned over (kernel-partition-devices;
  /// 0 or 1: one). Every buffer lives on one device, at its offset in that
  /// device's arena; kInput and kOutput steps are on device 0.
  int32_t devices = 0;
  /// Bytes of each device's arena (devices entries; null with one device:
  /// arena_bytes).
  const int64_t *device_arena_bytes = nullptr;
  int deviceCount() const { return devices > 1 ? devices : 1; }
  int64_t arenaBytes(int device) const {
    return devices > 1 && device_arena_bytes ? device_arena_bytes[device]
                                             : arena_bytes;
  }
};

/// Whether `device` executes step `s` of `plan` (every step with one
/// device; a kTransfer on its sender and its receiver).
template <typename Kernel>
bool onDevice(const Plan<Kernel> &plan, const Step &s, int device) {
  if (plan.devices <= 1 || s.device < 0 || s.device == device)
    return true;
  return s.kind == StepKind::kTransfer && s.imm[0] == device;
}

/// The kKsInnerProduct step that step i overlaps: step i a kModSwitchDown
/// of two parts marked imm[1] != 0 (kernel-plan-memory ks-overlap) whose
/// first two inputs are the results of step i - 1, a kKsInnerProduct, in
/// a plan of one device. Such a switch reads the inner product's digits
/// too (the memory plan keeps them alive through it), and a backend may
/// run the two as one step (program_exec.h, ksInnerProductDown). Null
/// otherwise (an older runtime ignores imm[1] and runs the two in turn).
template <typename Kernel>
const Step *overlappedInnerProduct(const Plan<Kernel> &plan, size_t i) {
  if (i == 0 || i >= plan.step_count || plan.devices > 1)
    return nullptr;
  const Step &s = plan.steps[i], &ip = plan.steps[i - 1];
  if (s.kind != StepKind::kModSwitchDown || s.imm[1] == 0 || s.nout != 2 ||
      s.nin < 2 || ip.kind != StepKind::kKsInnerProduct || ip.nout != 2 ||
      plan.args[s.in] != plan.args[ip.out] ||
      plan.args[s.in + 1] != plan.args[ip.out + 1])
    return nullptr;
  return &ip;
}

} // namespace ember::program
