//===- FHEToCKKS.td - fhe-to-ckks conversion ----------------*- tablegen -*-===//
#ifndef EMBER_CONVERSIONS_FHETOCKKS_TD
#define EMBER_CONVERSIONS_FHETOCKKS_TD

include "mlir/Pass/PassBase.td"

def FHEToCKKS : Pass<"fhe-to-ckks", "mlir::ModuleOp"> {
  let summary = "Choose CKKS parameters and lower fhe ops and types to ckks";
  let description = [{
    **What.** Computes the program's multiplicative depth D (every `fhe.mul`,
    plaintext multiplications included, adds one along its path) and slot
    count, chooses CKKS parameters and attaches them to the module as
    `ckks.params = #ckks.params<...>` with the actual NTT primes
    (`ember::generateQChain`: scale primes that track the scale), then rewrites every fhe op and type (function
    signatures included) into ckks: `!fhe.ct<n>` becomes a degree-2
    ciphertext at the top level L = D with scale 2^scale-bits, `fhe.constant`
    becomes `ckks.encode`, mixed encrypted x plain ops become
    `mul_plain`/`add_plain`/`sub_plain`. The output is valid ckks IR: each
    `ckks.mul` is relinearized and rescaled eagerly, and `mod_drop`s and scale
    adjustments match the operands of every binary op (the level management
    of `ckks-manage-levels`, eager strategy); the later ckks passes make
    these lazy.

    **Parameters.** Q = [60] + D x [scale-bits]: q_0 (60 bits) holds the
    output (see Ranges), one scale-sized prime per level. P has the fewest
    60-bit primes that cover the largest key-switching digit when the dnum
    digits are balanced by the primes' bits (`ember::balancedDigitSizes`:
    a digit of 40-bit program primes holds more limbs than one of the
    bootstrapping's 60-bit primes), hybrid key switching as in Phantom
    III-D; the digits are then `ember::digitSizes` (equal counts where P
    covers them). The ring degree is the smallest
    N = 2^13..2^17 with N/2 >= slots whose log2(QP) meets
    `ember::maxLogQP128(log N)` (HomomorphicEncryption.org standard / LWE
    estimator), and dnum the smallest that fits at that N (fewest digits,
    fastest key switching). When nothing fits the pass fails with a
    diagnostic naming the depth found and the largest depth any secure
    parameters allow.

    **Ranges: the first prime holds every value.** A value of magnitude up
    to B at scale S is a polynomial with coefficients up to B * S; past
    q_0 / 2 its decryption wraps around with no error (issue 12: `x * x`
    at x = 3000 decrypted to -437182). The range analysis
    (`compiler/Analysis/Range`, printed by `fhe-annotate-ranges`) bounds
    every value from the arguments' `fhe.range` (declared by the frontend;
    without one an argument lies in [-1, 1]), and the pass requires
    B * S_max * 2 < q_0 / 2 for every ciphertext and every plaintext added
    to one, where S_max is the largest scale of the chain (S_L = 2^logScale,
    S_{l-1} = S_l^2 / q_l: an unrescaled product, at scale S_l^2 and
    modulus Q_l, needs the same) and the factor 2 is one bit of margin for
    the ciphertext error (justified at `kMarginBits` in FHEToCKKS.cpp). q_0
    is 60 bits, the most the runtime's words allow it, so the scale gives:
    2^40 when the values fit (below about 2^18: programs on [-1, 1] inputs
    whose values stay there keep the parameters they had), else the
    largest scale that fits, checked exactly with the
    generated primes, down to 2^20; below that, or when `scale-bits` or a
    named set fixes a scale that cannot hold the values, the pass fails at
    the largest value's location, naming its bound, the bits it needs and
    what helps (smaller ranges, a smaller `scale-bits`). A smaller scale
    costs precision (errors grow as 2^-scale-bits) but never correctness.

    **KLSS form.** A named set carries its KLSS shape
    (`ember::namedParamSpec`: gamma and the bit sizes of the temporary
    primes T); the pass generates T (`ember::generateNttPrimes`, NTT primes
    distinct from Q and P of 61 bits, or 30 at 32-bit words) and records `T = [...]`, `gamma = g` in
    `#ckks.params`, which `rns-select-keyswitch` needs to choose KLSS key
    switching. On the automatic path there is no KLSS form unless
    `klss-gamma` is given; `klss-t` then fixes r' (0: the fewest primes of
    the word's size whose product meets the bound below). Either option overrides a
    named set's value. The bound is the runtime's (Context::klssTBitsNeeded):
    log2 T >= log2(digits) + log N + largest digit + largest key group + 1
    bits; a T below it is an error naming both sides.

    **Bootstrapping.** A program with `fhe.bootstrap` gets q_0 = 2^50
    (S_0 2^10), its own levels on 40-bit primes and the procedure's levels
    (CoeffToSlot, EvalMod, SlotToCoeff) on 60-bit primes at the top of the
    chain; each `fhe.bootstrap` is expanded once the parameters are known
    (Bootstrap.h). With `encapsulate` (the default) the secret is dense and
    ModRaise runs under an ephemeral secret of Hamming weight 32
    (`ember::kEncapsulationHammingWeight`), which keeps EvalMod's range K
    small; the manifest lists the two encapsulation keys.

    **Automatic placement.** With `bootstrap=auto` the pass first decides
    whether the program needs bootstraps: without `bootstrap-levels`, only
    when its depth does not fit any 128-bit secure chain without them
    (then it gets the chain's largest run between bootstraps: 9 levels at
    N = 2^16 with encapsulation). In the insecure test mode the same
    decision and run are taken as 128-bit security would at N = 2^16 (or
    the program's N when larger), so that a test at N = 2^13 places what
    a real program would. `bootstrap-levels` fixes the run instead (then
    bootstraps are inserted only where the program is deeper than it).
    The placement is that of `fhe-place-bootstraps` (a shortest path over
    the program's points; compiler/Transforms/PlaceBootstraps), priced in
    predicted H200 microseconds at the tentative parameters
    (compiler/Analysis/Cost/CKKSCost.h): each op at the level of its
    inputs, each bootstrap as the sum over its expanded ckks ops (at the
    program's widest slot count). Values within the bootstrapping input
    range are cut points, at any slot count (sparse packing below N/2).
    With `key-memory-budget-mib`, a run whose evaluation keys would not fit
    is not a candidate: at the program's ring, the relinearization key,
    one Galois key per distinct rotation offset of the program (every
    diagonal of a `fhe.linear_transform`) and of bootstrapping, conjugation,
    and encapsulation's two keys. It is an estimate: a linear transform's
    baby-step giant-step split, chosen later, may need offsets other than
    its diagonals. rns-select-keyswitch checks the compiled program's keys
    against the budget again.
    When no run fits, the pass fails saying what the smallest keys take.
    The chain's program run is then exactly the run given, so that the
    outputs keep `extra-levels`. The function records the placement
    (`ember.bootstrap_placement`), which `ember-cost-report` prints.

    **Word size.** `word=64` (the default) gives the chain above: 61-bit
    words, one prime per level. `word=32` gives Cheddar's 32-bit CKKS
    (its 3.1): primes below 2^30 (the runtime's 32-bit words), and
    double-prime scaling, a pair of primes per level whose product carries
    the scale (`ember::generateDoublePrimeChain`: each pair is the one
    nearest S_l^2 / 2^scale, so the scale returns to 2^scale within about
    2^-12 at every level). The chain is q_0 (30 bits), the base pair and
    a pair per level: level l holds 3 + 2 l limbs, so the level-0 modulus
    is about 2^(30 + scale) and values keep 30 bits of headroom above the
    scale (the 64-bit chain's q_0 keeps 60 - scale). Levels stay logical in
    every ckks pass (`#ckks.params<..., word = 32, scalePrimes = 2>`,
    `ParamsAttr::getLimbs`, `getLevelModuli`); ckks-to-rns maps a level to
    its limbs and a rescale to one `rns.rescale` that drops the pair. The
    scale is the program's, but at least what the primes near its square
    root allow: 2^(2 log N + 16) (2^42 at N = 2^13, 2^48 at 2^16), and
    higher by 2 bits at a time while the pairs of a long chain cannot be
    found. P is 30-bit primes; a KLSS form's T is 30-bit primes
    (ckks::tempPrimeBits). Bootstrapping at 32 bits: the procedure's levels are pairs
    carrying 2^59 at the top of the chain (ember::generateDoublePrimeChain
    with a scale per pair); Q_0 = q_0 and the base pair is about
    2^30 S_0, so the expansion multiplies its input by an integer near
    2^20 first (ckks.mul_int, no level) and EvalMod reads the message at
    S_0 times it, 2^10 below Q_0 as at 64 bits; encapsulation's key
    s -> s' has a digit per limb of Q_0 (each below the one p_0 it is
    switched over). `word=auto` chooses parameters at both
    words and prices the program at each with the cost model
    (CKKSCostModel with KeySwitchConstants::forWord: every fhe op at the
    level its operands reach), keeps the cheaper, and records both
    predictions on the module (`ember.word64_us`, `ember.word32_us`),
    taking 32 bits only where they are predicted at least `word-margin`
    (20%) faster: on an H200 the compiled 32-bit programs ran 4-66% slower,
    relative to the 64-bit ones, than the model predicted (six programs
    measured at both words, bench/RESULTS.md), and the two it picked
    without a margin (tanh_layer and polynomial at a 2^46 scale, 16% and
    0.4% predicted gains) were 40% and 11% slower;
    programs that bootstrap or ask for a KLSS form stay at 64 bits. A
    named set fixes its word (`cheddar32` is 32-bit). The model is the
    GPU's: `ember.compile` passes auto for target="cuda" and 64 for
    target="cpu", where 32-bit words are slower.

    **Why.** Parameters follow from the program: too few levels is wrong,
    too many makes every operation slower (more limbs) and may force a
    larger N.
  }];
  let dependentDialects = ["::ember::ckks::CKKSDialect"];
  let options = [
    Option<"paramSet", "params", "std::string", /*default=*/"\"\"",
           "A named parameter set (A, B or C, ember::namedParamSpec) instead "
           "of choosing from the program; fails if the program is deeper "
           "than its levels">,
    Option<"logN", "log-n", "int64_t", /*default=*/"0",
           "Ring degree N = 2^log-n (13..17); 0 picks the smallest that fits">,
    Option<"scaleBits", "scale-bits", "int64_t", /*default=*/"0",
           "Bits of the default scale and of each Q prime after q_0 (0: 40, "
           "or the largest scale below at which the values' ranges fit q_0)">,
    Option<"extraLevels", "extra-levels", "int64_t", /*default=*/"0",
           "Levels beyond the program's multiplicative depth (the outputs "
           "keep them)">,
    Option<"dnum", "dnum", "int64_t", /*default=*/"0",
           "Number of key-switching digits (at most the number of Q primes; "
           "larger values are clamped); 0 picks the smallest that fits">,
    Option<"klssGamma", "klss-gamma", "int64_t", /*default=*/"0",
           "KLSS key-group size gamma (primes of P u Q per group); 0: the "
           "named set's value, or no KLSS form on the automatic path">,
    Option<"klssT", "klss-t", "int64_t", /*default=*/"0",
           "Number r' of KLSS temporary primes T (61-bit, 30-bit at 32-bit "
           "words); 0: the named set's "
           "value, or the fewest that meet the exactness bound">,
    Option<"word", "word", "std::string", /*default=*/"\"\"",
           "The runtime's word size: 64 (primes up to 61 bits, one per "
           "level), 32 (30-bit primes with double-prime scaling, a pair per "
           "level) or auto (the faster by the cost model; see Word size); "
           "empty: 64, or the named set's">,
    Option<"wordMargin", "word-margin", "double", /*default=*/"0.2",
           "With word=auto, 32-bit words only where the cost model predicts "
           "at least this fraction less time than 64-bit ones (see Word "
           "size)">,
    Option<"security", "security", "std::string", /*default=*/"\"128\"",
           "128 (log2(QP) within the 128-bit bound) or none (insecure test "
           "mode, named explicitly; recorded as security = 0)">,
    Option<"encapsulate", "encapsulate", "bool", /*default=*/"true",
           "A program that bootstraps keeps a dense (uniform ternary) secret "
           "and switches to an ephemeral sparse one around ModRaise "
           "(sparse-secret encapsulation: the dense security bound, 1747 "
           "bits of log QP at N = 2^16); false: the secret itself is sparse "
           "(Hamming weight 192, 1553 bits)">,
    Option<"bootstrap", "bootstrap", "std::string", /*default=*/"\"manual\"",
           "manual: the program's own fhe.bootstrap ops only; auto: also "
           "insert bootstraps where the program is deeper than the chain, "
           "at the least predicted cost (see Automatic placement)">,
    Option<"bootstrapLevels", "bootstrap-levels", "int64_t",
           /*default=*/"0",
           "With bootstrap=auto, the levels a program keeps between "
           "bootstraps (0: the most that 128-bit parameters allow)">,
    Option<"keyMemoryBudgetMiB", "key-memory-budget-mib", "int64_t",
           /*default=*/"0",
           "With bootstrap=auto, only runs between bootstraps whose "
           "evaluation keys fit in this many MiB (0: no budget; see "
           "Automatic placement)">,
    Option<"bootstrapStopAfter", "bootstrap-stop-after", "std::string",
           /*default=*/"\"\"",
           "Measurement aid: stop every bootstrap's expansion after "
           "coeff_to_slot or eval_mod (its result is then not its input); "
           "the phases' times are differences of such programs' times">,
    Option<"doubleHoisting", "double-hoisting", "bool", /*default=*/"false",
           "Split bootstrapping's DFTs (baby-step giant-step) for double "
           "hoisting with plaintext products over Q_l u P "
           "(ckks-hoist-rotations' ckks.hoisted_dot; the pipeline sets it "
           "with hoisting on)">,
    Option<"bootstrapCosineBits", "bootstrap-cosine-bits", "int64_t",
           /*default=*/"27",
           "EvalMod's cosine interpolant: its dropped tail at most "
           "2^-bits in the message; the degree and the double angles are "
           "the fewest levels, then the fewest products, that meet it "
           "(27: degree 30 and three double angles at K = 13; 34: the "
           "earlier degree 48 and two)">,
  ];
}

#endif // EMBER_CONVERSIONS_FHETOCKKS_TD
