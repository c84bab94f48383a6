//===- PlanMemory.td - kernel-plan-memory ------------------*- tablegen -*-===//

#ifndef EMBER_TRANSFORMS_PLANMEMORY_TD
#define EMBER_TRANSFORMS_PLANMEMORY_TD

include "mlir/Pass/PassBase.td"

def KernelPlanMemory : Pass<"kernel-plan-memory", "::mlir::ModuleOp"> {
  let summary = "Place every buffer in one arena, reusing dead buffers' space";
  let description = [{
    Static memory planning (ARCHITECTURE.md, "static memory, then graphs"):
    with every buffer placed at compile time, a program needs one arena
    allocation and no allocation on the hot path, and its peak device
    memory is known before it runs.

    Liveness is computed on the straight-line body of each function: a
    buffer (function argument, or a poly result of `kernel.call` /
    `kernel.launch`) lives from its definition to its last use, where a use
    of a `kernel.view` counts as a use of the viewed buffer and a returned
    buffer lives to the end. Buffers are placed first-fit in definition
    order; the results of an op are placed before its dead operands are
    freed, so no op writes over its own inputs. Evaluation keys and the
    inputs' host copies are not in the arena (the manifest lists the keys).

    Results: `offsets` (bytes, one per poly result) on each call/launch,
    `kernel.arg_offsets` and `kernel.arena_bytes` (the arena size, the
    program's peak buffer memory) plus `kernel.peak_live_bytes` (the most
    bytes live at once, a lower bound any placement needs) on the function.
    With `print`, one line per function goes to stdout:
    `kernel-plan-memory @f: arena <B> bytes, peak live <B> bytes, <k> buffers`.
    `reuse=false` places every buffer at a fresh offset (the off switch).

    Concurrency (`concurrency=<percent>`, one device only; over several
    devices it measured slower and is not applied): the GPU runs a
    program's graph as a DAG in which each step follows the steps that
    last used the bytes it reads or writes (runtime/core/program_deps.h).
    Reusing a dead buffer's bytes makes the new buffer's op follow that
    buffer's users even where no value flows between them, and first-fit
    turns most programs into one chain. With a percentage above 0 the
    function is planned twice: first-fit gives the minimal arena, then
    each buffer (and each scratch) goes to the lowest place whose bytes'
    last users all precede its op already (its ancestors through the
    values it reads), so that it adds no order, or above every place used
    so far, while the arena stays within that percentage over the
    minimal one; where neither fits, first-fit as before. `peak live`
    stays the minimal plan's lower bound.

    Key-switch overlap (`ks-overlap`, on by default; one device only):
    each `mod_switch_down` of two parts that directly follows the
    `ks_inner_product` whose two results it switches down is marked
    `overlap`, at N >= 2^`ks-overlap-min-log-n` (16) and where that key
    switch is alone: every other inner product is its ancestor or
    descendant. Measured on an H200: at N = 2^16 the split takes 10-14 us
    off a lone hmul+relin; at N = 2^14 the split itself changed nothing,
    while the plan's changed placements moved the examples by -5% to +24%;
    and independent key switches already run side by side in the graph.
    The CUDA runtime then runs the pair as one step: the inner
    product's dropped rows (P, and q_l under a merged rescale) first at the
    greatest priority, the switch's INTT and BConv after them, beside the
    inner product's kept rows, and the last NTT once both are done. The
    switch's results and scratch are written while the inner product still
    reads its digits, so the digits (and the key) live until the switch
    returns: its results and scratch never take their bytes
    (kernel::overlappedInnerProduct, used by the liveness of both this
    pass and the emitters).
  }];
  let options = [
    Option<"reuse", "reuse", "bool", /*default=*/"true",
           "Reuse the space of dead buffers (false: one slot per buffer)">,
    Option<"concurrency", "concurrency", "int64_t", /*default=*/"0",
           "Percent of extra arena (over the minimal first-fit plan) that "
           "placements keeping independent ops unordered may take (0: the "
           "minimal plan)">,
    Option<"ksOverlap", "ks-overlap", "bool", /*default=*/"true",
           "Mark a mod_switch_down right after the inner product it "
           "switches down `overlap` and keep the inner product's digits "
           "alive through it (the GPU runs the switch's first half beside "
           "the inner product's kept rows); false: no marks">,
    Option<"ksOverlapMinLogN", "ks-overlap-min-log-n", "int64_t",
           /*default=*/"16",
           "ks-overlap marks key switches at N >= 2^this only">,
    Option<"print", "print", "bool", /*default=*/"false",
           "Print the arena size and peak live bytes of each function">,
  ];
  let dependentDialects = ["::ember::kernel::KernelDialect"];
}

#endif // EMBER_TRANSFORMS_PLANMEMORY_TD
