//===- SelectKeySwitch.td - rns-select-keyswitch -----------*- tablegen -*-===//

#ifndef EMBER_TRANSFORMS_SELECTKEYSWITCH_TD
#define EMBER_TRANSFORMS_SELECTKEYSWITCH_TD

include "mlir/Pass/PassBase.td"

def RNSSelectKeySwitch : Pass<"rns-select-keyswitch", "::mlir::ModuleOp"> {
  let summary = "Choose hybrid or KLSS key switching per key switch";
  let description = [{
    **What.** `ckks-to-rns` lowers every key switch to hybrid key switching
    (`decompose -> mod_up -> [automorphism] -> ks_inner_product -> mod_down`).
    For each key-switch group (one `rns.mod_up` with the inner products that
    read its digits, directly or through one automorphism each when
    hoisted, and the `rns.mod_down`s of their accumulators, through sums)
    this pass predicts the time of hybrid and of KLSS key switching (Kim,
    Lee, Seo, Song, CRYPTO 2023; Athena 2.3) with the cost model of
    `compiler/Analysis/Cost/KeySwitchCost.h` and rewrites the groups where
    KLSS wins to

    ```
    rns.klss_mod_up (digits -> NTT over T, shared by a hoisted group)
    -> [rns.automorphism of the T digits] -> rns.klss_inner_product
       (with `rns.load_key ... : !rns.klss_evk<...>`, coefficient-form
       accumulators over Q_l u P) -> [sums in coefficient form]
    -> rns.mod_down (coefficient form) -> rns.ntt
    ```

    Every group's anchor (`rns.mod_up` or `rns.klss_mod_up`) gets
    `ks.method` ("hybrid" or "klss"), `ks.predicted_us` (the chosen one),
    `ks.hybrid_us` and, when the parameters have a KLSS form, `ks.klss_us`.

    **Why.** KLSS trades the ModUp NTTs over Q_l u P for NTTs over a
    temporary basis T and more inner-product work (Athena reports up to 2x
    on key switching at high levels and large dnum); its keys are larger
    (digits x groups x r' limbs against digits x (L+1+K), Cheddar 5.5), so
    a GPU's memory can decide against it. Which method is faster depends on
    the level, dnum, gamma and r': the model decides per group.

    **Memory budget.** The distinct keys the program loads (a relin or
    Galois key needed in both forms counts twice; sizes of
    `ParamsAttr::getHybridKeyBytes/getKlssKeyBytes`) must fit
    `memory-budget-mib` (0: unlimited). When the fastest choice does not,
    keys go back to hybrid, least predicted benefit per byte saved first;
    when even all-hybrid does not fit, the pass fails naming the bytes
    needed and the budget.

    **A KLSS form where it wins.** With `klss-form` (the pipelines pass it
    for parameters chosen from the program unless `ember.compile(...,
    klss_form=False)`; off when this pass runs alone) and `method=auto`,
    parameters without a KLSS form get one when the model predicts that it
    pays: for each key
    group size gamma = 1..16 (at most K + L + 1), T is the fewest 61-bit
    primes (30-bit at 32-bit words) the exact products need
    (`ckks::fewestTPrimes`), and the
    program's predicted key-switch time is the sum over its groups of the
    faster method. The gamma with the lowest sum is kept, and `#ckks.params`
    gains its T and gamma, only when the sum is at least 5% below
    all-hybrid's: KLSS keys come on top of the hybrid ones (poly_net would
    carry 5.9 GB more keys for a predicted 1.3%), and the model's error is
    up to 15% per operation. Without `memory-budget-mib`, a form whose keys
    (a key loaded in both forms counted twice) would exceed 1.5x the
    all-hybrid keys is not considered (the training example's best form
    needs 36.7 GB of keys instead of 14.2); with a budget, the budget
    decides as below. The groups are then chosen as above.

    Measured (bench/RESULTS.md, issue 15): bench/programs/klss_form.py at
    N = 2^16 with dnum 23 and K = 1 gets gamma 6 and 6 T primes, and the
    model predicts its key switching 30% faster. On an H200 the compiled
    program took 5.79 ms against 5.59 ms without the form while each
    digit's klss_mod_up ran its own three launches (630 kernels against
    81), and 4.29 against 5.59 ms once they ran batched (2026-11-26: one
    INTT, one exact BConv and one NTT launch for all digits). At 32-bit
    words (cheddar32k1's shape) compiled KLSS takes 0.69x hybrid's time.
    (At dnum 10 and K = 2 the model predicted KLSS 19% faster before
    hoisted automorphisms were counted once per digit, and measured 3.58
    against 2.90 ms; the corrected model picks hybrid there.) A form whose
    KLSS groups all went back to hybrid under the memory budget is dropped
    again. T's primes do not enter Q or P, so the security level is
    unchanged.

    **Options.** `method=auto|hybrid|klss` (klss forced on parameters
    without T and gamma is an error), `memory-budget-mib`, `constants`
    (override the model's per-unit times, "ntt=1.1,ip-mac=0.2,..."),
    `print` (each group's predictions, to stdout) and `print-table` (for
    the module's parameters, the predicted relin and rotation at every
    level under both methods, to stdout; the IR is unchanged).
  }];
  let options = [
    Option<"method", "method", "std::string", /*default=*/"\"auto\"",
           "auto (cost model), hybrid or klss (forced)">,
    Option<"memoryBudgetMiB", "memory-budget-mib", "int64_t",
           /*default=*/"0",
           "Device memory for evaluation keys in MiB (0: unlimited)">,
    Option<"constants", "constants", "std::string", /*default=*/"\"\"",
           "Cost constants over the defaults: ntt, bconv-mac, "
           "exact-bconv-mac, ip-mac, dram-gbps, fixed (key=value,...)">,
    Option<"print", "print", "bool", /*default=*/"false",
           "Print the constants and each group's predictions">,
    Option<"printTable", "print-table", "bool", /*default=*/"false",
           "Print predicted relin/rotate times per level for both methods">,
    Option<"klssForm", "klss-form", "bool", /*default=*/"false",
           "With method=auto, give parameters without a KLSS form the one "
           "(gamma, fewest T primes) that lowers the predicted time, if any">,
  ];
  let dependentDialects = ["::ember::rns::RNSDialect"];
}

#endif // EMBER_TRANSFORMS_SELECTKEYSWITCH_TD
