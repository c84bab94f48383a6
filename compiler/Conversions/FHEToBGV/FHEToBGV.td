//===- FHEToBGV.td - fhe-to-bgv conversion ------------------*- tablegen -*-===//
#ifndef EMBER_CONVERSIONS_FHETOBGV_TD
#define EMBER_CONVERSIONS_FHETOBGV_TD

include "mlir/Pass/PassBase.td"

def FHEToBGV : Pass<"fhe-to-bgv", "mlir::ModuleOp"> {
  let summary = "Choose BGV parameters from depth and t, lower fhe to bgv";
  let description = [{
    **What.** The fhe program of a `scheme = "bgv"` function (integer slots
    modulo the plaintext modulus t) becomes `bgv` IR with parameters:
    `!fhe.ct<n>` arguments become fresh `!bgv.ct<n, level = L, factor =
    1>`; `fhe.add/sub/mul/neg/rotate` and integer `fhe.constant`s become
    `bgv.add/sub/mul + relinearize + mod_switch/neg/rotate`,
    `bgv.add_int/mul_int` (a splat) or `bgv.encode` + `add_plain/sub_plain/
    mul_plain` (a vector). Non-integer constants, run-time plaintext
    arguments, conjugation, bootstrapping and the other CKKS-only ops are
    errors at their line.

    **Levels.** Every ciphertext product (and every product with a
    plaintext vector, or with an integer above 2^8 in magnitude) is
    switched down one level, which brings the noise back down: the
    multiplicative depth D is the most such products on a path, and L = D.
    The switch is lazy (`lazy-switch`, on): a product is switched where a
    product, a rotation or an output takes it, or an operand at another
    level meets it, so a sum of products (a matrix-vector product) is
    switched once, as OpenFHE's FLEXIBLEAUTO does; `lazy-switch=false`
    switches right after every product. Operands of additions at
    different levels meet at the lower one (the higher one is switched
    down); operands with different factors are scaled by the ratio of the
    factors mod t (the side with the smaller centred ratio).

    **Parameters.** From D, t and the slot count by `ember::bgv`'s
    worst-case model (runtime/include/ember/bgv_params.h, OpenFHE's style):
    the smallest N (2^13..2^17) with t = 1 (mod 2N) and N/2 >= slots whose
    Q = q_0 + D level primes and P (the fewest 61-bit primes above the
    largest of dnum balanced digits; dnum from OpenFHE's default up) stay
    within the 128-bit bound (`ember::maxLogQP128`, log QP as the bit
    length of the product). The level primes are q = 1 (mod 2N t) where
    such primes lie within 8 bits of the size (OpenFHE's FIXEDAUTO): a
    modulus switch then leaves the factor at 1 and no operand ever needs
    rescaling; otherwise the largest NTT primes of the size, and the
    factors are tracked. The module gets `#ckks.params<..., plain = t>`.

    **Noise.** Each value carries a worst-case bound B on |[c_0 + c_1
    s]_{Q_l}| (the same model as the parameters: fresh t (B_err (1 + 2
    delta) + 1/2); products delta B_1 B_2; a key switch adds t KS; a
    modulus switch B / q_l + t (1 + delta_ms) / 2; an integer c times |c|;
    a plaintext delta t / 2 times). Each result gets `bgv.noise_budget` =
    floor(log2 Q_l - log2 B - 1) bits (SEAL's invariant noise budget; the
    runtime's BgvEncoder::noiseBudget measures the real one, which tests
    check is at least this). A value whose bound reaches Q_l / 2 is an
    error at its line: decryption would be wrong.

    **BFV** (`scheme=bfv`). The same IR under a chain marked `scheme =
    bfv`: every ciphertext stays at the top level with factor 1 (no
    modulus switch, no factor adjustment); `bgv.mul` is the scale-invariant
    HPS product; vectors added are encoded `scaled` (Delta m), vectors
    multiplied unscaled; splats are `add_int`/`mul_int`. Q is 60-bit primes,
    grown from one until the program's own noise (the model below, worst
    case) fits Q / 2 with kBgvMarginBits (10) to spare: OpenFHE's bound
    for the depth (bgv_params.h's qBitsFor) counts every levelled product
    as a ciphertext product and asks 10-50 bits more on
    bench/programs/bgv_chain.py. The keys carry error factor 1. The bound tracked is t times the
    invariant noise (fresh t V; a product c1 / 2 (B_1 + B_2) + t C2; an
    integer c: |c| B + |c| t^2 / 2; a plaintext: delta t / 2 (B + t^2); a
    rotation: + t KS), so the budget and the error are the same formulas.
  }];
  let options = [
    Option<"scheme", "scheme", "std::string", /*default=*/"\"bgv\"",
           "bgv, or bfv: the scale-invariant variant (see BFV above)">,
    Option<"plaintextModulus", "plaintext-modulus", "uint64_t",
           /*default=*/"65537",
           "The plaintext modulus t: a prime, t = 1 (mod 2N) for the N chosen">,
    Option<"logN", "log-n", "int64_t", /*default=*/"0",
           "Ring degree 2^log-n (13..17); 0: the smallest that fits">,
    Option<"dnum", "dnum", "int64_t", /*default=*/"0",
           "Key-switching digits; 0: OpenFHE's default, more if P must shrink">,
    Option<"security", "security", "std::string", /*default=*/"\"128\"",
           "128: within the 128-bit bound; none: the insecure test mode">,
    Option<"klssGamma", "klss-gamma", "int64_t", /*default=*/"0",
           "A KLSS form with key groups of this many primes and the fewest "
           "61-bit temporary primes T (0: none; rns-select-keyswitch may add "
           "one)">,
    Option<"lazySwitch", "lazy-switch", "bool", /*default=*/"true",
           "Switch a product down where it is needed (sums of products "
           "once); false: right after every product">,
    Option<"congruentPrimes", "congruent-primes", "bool", /*default=*/"true",
           "Level primes = 1 (mod 2N t) where they are near the size (factors "
           "stay 1); false: the largest NTT primes, factors tracked">,
    Option<"print", "print", "bool", /*default=*/"false",
           "Print the parameters and each output's noise budget (remarks)">,
  ];
  let dependentDialects = ["::ember::bgv::BGVDialect",
                           "::ember::ckks::CKKSDialect"];
}

#endif // EMBER_CONVERSIONS_FHETOBGV_TD
