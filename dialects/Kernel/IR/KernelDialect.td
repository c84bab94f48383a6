//===- KernelDialect.td - the kernel dialect ----------------*- tablegen -*-===//
//
// The last level before code: calls of runtime primitives and generated
// (fused) kernels over explicit buffers whose place in one arena is planned
// at compile time.
//
//===----------------------------------------------------------------------===//

#ifndef EMBER_DIALECT_KERNEL_DIALECT_TD
#define EMBER_DIALECT_KERNEL_DIALECT_TD

include "mlir/IR/OpBase.td"

def Kernel_Dialect : Dialect {
  let name = "kernel";
  let cppNamespace = "::ember::kernel";
  let summary = "launches of runtime primitives and generated kernels over "
                "planned buffers";
  let description = [{
    The `kernel` dialect is what the emitters (`ember-translate --emit-cpp`,
    `--emit-cuda`) print. Every SSA value of type `!rns.poly<...>` is one
    buffer of `limbs x N` 64-bit words; `!rns.evk<...>` values are
    evaluation keys supplied by the client. There are three kinds of ops:

    - `kernel.call "prim"`: a call of a runtime primitive of
      `runtime/include/ember/rns.h` (CPU) or `cuda.h` (CUDA): `ntt`, `intt`,
      `bconv`, `mod_up`, `ks_inner_product`, `mod_switch_down`,
      `automorphism`, `load_key`, `concat`, `encode`, `zero`.
    - `kernel.launch "kN"`: a generated kernel; its region holds the
      elementwise `rns` ops it fuses (and at most one `rns.ntt`/`rns.intt`
      with its prologue and epilogue), ended by `kernel.yield`.
    - `kernel.view`: a contiguous range of limbs of a buffer (a
      key-switching digit, a dropped level); no memory of its own.

    `kernel-plan-memory` assigns every buffer an offset in one arena
    (`offsets` attribute, bytes) reusing the space of dead buffers, and
    records the arena size on the function (`kernel.arena_bytes`).
  }];
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Function attributes of kernel-plan-memory: the arena offsets of the
    /// polynomial arguments, the arena size and the peak of live bytes.
    static constexpr ::llvm::StringLiteral kArgOffsetsAttrName =
        "kernel.arg_offsets";
    static constexpr ::llvm::StringLiteral kArenaBytesAttrName =
        "kernel.arena_bytes";
    static constexpr ::llvm::StringLiteral kPeakLiveBytesAttrName =
        "kernel.peak_live_bytes";
  }];
}

#endif // EMBER_DIALECT_KERNEL_DIALECT_TD
