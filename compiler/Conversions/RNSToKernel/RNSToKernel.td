//===- RNSToKernel.td - rns-to-kernel ----------------------*- tablegen -*-===//

#ifndef EMBER_CONVERSIONS_RNSTOKERNEL_TD
#define EMBER_CONVERSIONS_RNSTOKERNEL_TD

include "mlir/Pass/PassBase.td"

def RNSToKernel : Pass<"rns-to-kernel", "::mlir::ModuleOp"> {
  let summary = "Lower rns ops to runtime-primitive calls and generated "
                "kernels over explicit buffers";
  let description = [{
    The kernel lowering runs on the rns IR that `fhe-to-rns` produces with
    the structured modulus switches kept (no `rns-expand-modswitch`), so
    that each structured op becomes one call of the matching runtime
    primitive and the rounding semantics are the runtime's, tested there:

    | rns | kernel |
    | --- | --- |
    | `decompose`, `drop_limbs` | `kernel.view` (a limb range, no copy) |
    | `mod_up` of the digits of x | `kernel.call "mod_up"(x) {digits}` (`modUp` per digit) |
    | `ks_inner_product` | `kernel.call "ks_inner_product"` (as `Evaluator::keySwitch`) |
    | `mod_down`, `rescale` | `kernel.call "mod_switch_down"` (kept basis = result) |
    | `ntt intt bconv automorphism concat load_key encode zero` | `kernel.call` of the same name |
    | `rns.fused` | `kernel.launch "kN"`: one generated kernel |
    | a lone elementwise op | `kernel.launch` of one op |

    Every launch gets `bytes`: the DRAM traffic of reading each input and
    writing each result once (N x 8 B per limb), which the emitters print
    next to the kernel. Every value stays an SSA buffer; placing them in
    memory is `kernel-plan-memory`'s job.
  }];
  let dependentDialects = ["::ember::kernel::KernelDialect",
                           "::ember::rns::RNSDialect"];
}

#endif // EMBER_CONVERSIONS_RNSTOKERNEL_TD
