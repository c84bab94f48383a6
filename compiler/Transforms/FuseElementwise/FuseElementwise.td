//===- FuseElementwise.td - rns-fuse-elementwise -----------*- tablegen -*-===//

#ifndef EMBER_TRANSFORMS_FUSEELEMENTWISE_TD
#define EMBER_TRANSFORMS_FUSEELEMENTWISE_TD

include "mlir/Pass/PassBase.td"

def RNSFuseElementwise : Pass<"rns-fuse-elementwise"> {
  let summary = "Group elementwise chains (and NTT/INTT pro/epilogues) into "
                "rns.fused regions";
  let description = [{
    Vertical kernel fusion (Cheddar 5.3, following 100x: TCHES 2021; Phantom
    III-D's inter-fusing). Elementwise ops (`RNSElementwise` trait: add,
    sub, mul, neg, mul_const) over the same basis that feed one another
    become one `rns.fused` op, which the code generator emits as a single
    kernel: each external input is loaded once and each value used outside
    is stored once, instead of one DRAM round trip per op. CKKS
    elementwise kernels are memory-bound, so the saving is the traffic.

    With `fuse-transforms` (default), a group may also contain one `ntt`
    or `intt`: elementwise ops feeding it become its prologue and
    elementwise ops consuming its result its epilogue (e.g. the subtract
    and P^-1 scale at the end of a ModDown). Values from before the
    transform are not mixed into the epilogue, since an NTT moves data
    between threads. Automorphisms, BConv, key-switch ops and basis changes
    are never fused here; horizontal fusion (several independent NTTs in
    one launch) is a separate pass.

    With `horizontal` (default), transform-free groups over one basis
    that read a common input and do not feed each other become one kernel
    too (sibling fusion): the three products of a tensor product read
    their four inputs once and write three results in one launch instead
    of three (7 words per coefficient instead of 11). At most 12 inputs
    and 6 outputs per merged kernel, unless the two share most of their
    inputs (then up to 128 inputs and 16 outputs: sums over the same
    ciphertexts).

    With `hoist-siblings` (default), a later sibling whose values are used
    before the earlier one's place can still join it, hoisted up there,
    when everything it reads is made before the earlier sibling starts.
    The giant steps of a baby-step giant-step product are the case: each
    giant step's sum (plaintexts times the same baby steps) feeds its own
    rotation at once, so without hoisting each reads every baby step
    alone; hoisted, two giant steps share those loads (dense1024_B at set
    B: 128 words read per coefficient for two giant steps instead of 192).

    With `permuted-loads` (default), an NTT-form automorphism of a value
    the kernel reads from memory joins too, as a permuted load: the kernel
    reads x[sigma(k)] instead of x[k] (the index computed in the kernel,
    Cheddar's and Phantom's automorphism folded into its consumer), so
    `rot(c0) + ModDown(..)#0` is one kernel and the rotated copy of c0 is
    never written. An automorphism of a value computed in the same kernel
    is left alone (another thread holds that value). In the same way, the
    automorphisms of a hoisted rotation's raised digits, each used only by
    one `ks_inner_product`, fold into that inner product's indexing (its
    `galois` attribute): dnum polynomials over Q_l u P per rotation that
    are neither written nor read again.

    A group is formed greedily in program order and only when every use
    outside the group comes after the group's last op, so the fused op can
    take the last op's place. Groups of one op are left alone. The pass
    changes nothing when `enabled=false`, the off switch for measuring its
    gain.

    With `lazy-sums=false`, every `rns.fused` op gets `lazy_sums = false`:
    the code generator then reduces each product of the kernel instead of
    summing three or more products unreduced in two words and reducing the
    sum once (the off switch of that code-generation choice).

    With `lanes=N` (1, 2 or 4), the function gets `kernel.lanes = N`: each
    thread of a generated CUDA kernel computes N consecutive coefficients,
    loading and storing them as vectors. 0 (the default) leaves the choice
    to the code generator: 2 at 32-bit words, 1 at 64.
  }];
  let options = [
    Option<"enabled", "enabled", "bool", /*default=*/"true",
           "Fuse at all (false: leave the IR unchanged)">,
    Option<"fuseTransforms", "fuse-transforms", "bool", /*default=*/"true",
           "Also fuse elementwise prologues/epilogues into NTT/INTT">,
    Option<"horizontal", "horizontal", "bool", /*default=*/"true",
           "Also merge independent sibling groups that share an input">,
    Option<"hoistSiblings", "hoist-siblings", "bool", /*default=*/"true",
           "With horizontal, also hoist a later sibling up to an earlier "
           "one's place when its inputs are made by then">,
    Option<"permutedLoads", "permuted-loads", "bool", /*default=*/"true",
           "Also fold NTT-form automorphisms of loaded inputs into kernels">,
    Option<"lazySums", "lazy-sums", "bool", /*default=*/"true",
           "Let the code generator sum a fused kernel's products unreduced "
           "and reduce each sum once (false: every fused op carries "
           "lazy_sums = false, and each product is reduced)">,
    Option<"lanes", "lanes", "int64_t", /*default=*/"0",
           "Coefficients per thread of generated CUDA kernels (1, 2 or 4; "
           "0: the code generator's choice, 2 at 32-bit words, 1 at 64), "
           "recorded as kernel.lanes on the function">,
  ];
  let dependentDialects = ["::ember::rns::RNSDialect"];
}

#endif // EMBER_TRANSFORMS_FUSEELEMENTWISE_TD
