//===- KernelOps.td - kernel operations --------------------*- tablegen -*-===//

#ifndef EMBER_DIALECT_KERNEL_OPS_TD
#define EMBER_DIALECT_KERNEL_OPS_TD

include "KernelDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Kernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kernel_Dialect, mnemonic, traits>;

def Kernel_CallOp : Kernel_Op<"call"> {
  let summary = "a call of a runtime primitive";
  let description = [{
    `%r:2 = kernel.call "mod_up"(%x) {digits = array<i64: 0, 1>} : (...) ->
    (...)` calls the runtime primitive named by `callee` on the operand
    buffers and writes fresh result buffers. The primitives and their
    attributes:

    | callee | operands -> results | attributes |
    | --- | --- | --- |
    | `ntt`, `intt` | x -> y (same basis) | |
    | `bconv` | x -> y (disjoint basis) | `exact` (optional: rns.bconv's) |
    | `mod_up` | x over Q_l -> one raised digit per entry of `digits` | `digits` |
    | `ks_inner_product` | key, digits -> acc0, acc1 over Q_l u P | |
    | `klss_mod_up` | digit_i over D_i -> NTT form over T | |
    | `klss_inner_product` | KLSS key, T digits -> acc0, acc1 (coefficient form over Q_l u P) | `level` |
    | `mod_switch_down` | x_0..x_{n-1} over B u D [, lifted y_0..y_{m-1} over B's Q u D's Q, m <= n] -> y_i over B (ModDown, rescale, merged; with y_i: the switch of x_i + P y_i; with `galois` g: of x_i + P sigma_g(y_i), no Q limb dropped) | `galois` (optional), `overlap` (kernel-plan-memory ks-overlap: right after the ks_inner_product whose two results it switches down; the runtime may run the pair as one step, and the inner product's operands live through it) |
    | `automorphism` | x -> y | `galois` |
    | `load_key` | -> key (`!rns.evk` hybrid, `!rns.klss_evk` KLSS) | `galois` (absent: relinearization) |
    | `concat` | parts -> y | |
    | `encode` | -> y (constant) | `value`, `scale` |
    | `zero` | -> y | |
    | `transfer` | x on the op's `device` -> the same buffer on device `to` (NCCL send/recv) | `to` |

    After `kernel-partition-devices`, `device` (default 0) names the GPU
    that runs the call. After `kernel-plan-memory`, `offsets` holds the
    arena offset in bytes (in its device's arena) of each poly result (not of `encode`: constants live in the runtime's
    constant cache), and `scratch` the offset of the primitive's
    temporaries (scratchLimbs() limbs, live only during the call).
  }];
  let arguments = (ins StrAttr:$callee, Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The attributes the emitters read (galois, digits, level, value,
    /// scale), checked by primitive.
    ::mlir::LogicalResult verifyCallAttributes();
    /// Limbs of temporaries the runtime primitive needs besides its
    /// operands and results (the contract between kernel-plan-memory and
    /// the CUDA runtime's primitives, runtime/cuda/rns.cu): bconv: the
    /// input scaled by (B/b_i)^-1 (none when `exact`: its kernel scales
    /// in registers); mod_up: the INTT of the digits' limbs
    /// (at most the input); mod_switch_down: the INTT of every result's
    /// dropped limbs (one batch) and the dropped Q limbs of x + P y for
    /// each lifted addend;
    /// klss_mod_up: the INTT of one digit. 0 for the others.
    int64_t scratchLimbs();
  }];
}

def Kernel_LaunchOp : Kernel_Op<"launch", [IsolatedFromAbove,
                                           RecursiveMemoryEffects]> {
  let summary = "a generated kernel (one fused region)";
  let description = [{
    `%y = kernel.launch "k3"(%a, %b) : (...) -> (...) { ^bb0(...): ...
    kernel.yield %v }` is one kernel that the emitters generate: a loop over
    limbs x N (a `__global__` kernel on CUDA) evaluating the elementwise
    `rns` ops of its body, with at most one `rns.ntt`/`rns.intt` between a
    prologue and an epilogue. Each input is read once and each result
    written once; `bytes` (set by `rns-to-kernel`) is that traffic, the
    floor of the kernel's time. After `kernel-plan-memory`, `offsets` holds
    the arena offsets of the results and `scratch` that of the values the
    kernel passes between its prologue, transform and epilogue
    (scratchLimbs()).
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let extraClassDeclaration = [{
    /// The values of the body stored between its segments (before the
    /// transform, the transform, after it) that are not results: the
    /// prologue's values used later and the transform's output, in the
    /// order the emitters store them. Empty without a transform.
    ::llvm::SmallVector<::mlir::Value> temporaries();
    /// Limbs of temporaries().
    int64_t scratchLimbs();
  }];
  let assemblyFormat = [{
    $name `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
  let hasVerifier = 1;
}

def Kernel_YieldOp : Kernel_Op<"yield", [Pure, Terminator,
                                         HasParent<"LaunchOp">]> {
  let summary = "results of a generated kernel";
  let description = "Terminates a `kernel.launch` body.";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Kernel_ViewOp : Kernel_Op<"view", [Pure]> {
  let summary = "a contiguous range of limbs of a buffer";
  let description = [{
    `%d = kernel.view %x[1:2] : !rns.poly<ntt, q[0:3]> ->
    !rns.poly<ntt, q[1:2]>` names limbs `first .. first+count-1` of `%x`
    (a key-switching digit, `drop_limbs`). It aliases its source: memory
    planning keeps the source alive while the view is used.
  }];
  let arguments = (ins AnyType:$source, I64Attr:$first, I64Attr:$count);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $source `[` $first `:` $count `]` attr-dict `:` type($source) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

#endif // EMBER_DIALECT_KERNEL_OPS_TD
