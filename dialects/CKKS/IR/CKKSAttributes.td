//===- CKKSAttributes.td - ckks attributes ------------------*- tablegen -*-===//
#ifndef EMBER_CKKS_ATTRIBUTES_TD
#define EMBER_CKKS_ATTRIBUTES_TD

include "dialects/CKKS/IR/CKKSDialect.td"
include "mlir/IR/AttrTypeBase.td"

def CKKS_ParamsAttr : AttrDef<CKKS_Dialect, "Params"> {
  let mnemonic = "params";
  let summary = "CKKS parameters: ring degree, moduli, scale, dnum, security";
  let description = [{
    ```mlir
    module attributes {ckks.params = #ckks.params<logN = 13,
        Q = [1152921504606830593, 1099511480321], P = [1152921504606748673],
        logScale = 40, dnum = 2, security = 128>} { ... }
    ```

    - `logN`: the ring degree is N = 2^logN (10..17); N/2 slots.
    - `Q`: the ciphertext primes q_0 .. q_L (real NTT primes, q = 1 mod 2N,
      from ember::generateQChain); a ciphertext at level l holds q_0..q_l.
    - `P`: the special primes of hybrid key switching.
    - `logScale`: the default encoding scale is 2^logScale.
    - `dnum`: number of key-switching digits (ember::digitSizes splits Q:
      equal limb counts where P covers them, else balanced by bits).
    - `security`: 128 (log2(QP) must be within ember::maxLogQP128(logN)) or
      0, an insecure test mode that must be asked for by name.
    - `T`, `gamma` (optional, printed only when present): the KLSS form
      (Kim-Lee-Seo-Song; Athena 2.3). T are the r' temporary primes (NTT
      primes distinct from Q and P; not a ciphertext modulus, so not counted
      in log2(QP)); gamma is the number of primes of P u Q per key group.
      T must hold the exact products: log2 T >= log2(digits) + logN +
      largest digit bits + largest group bits + 1 (Context::klssTBitsNeeded
      of the runtime). Without them the module has no KLSS form.
    - `h` (optional, printed only when nonzero): the secret is sparse, of
      fixed Hamming weight h (bootstrapping needs it: the multiple of q_0
      that ModRaise adds grows as sqrt(h)); the security bound is then
      ember::maxLogQPSparse128. 0: a uniform ternary secret.
    - `word` (optional, printed only when 32): the runtime's word size, 64
      (primes up to 61 bits) or 32 (primes up to 30 bits).
    - `scalePrimes` (optional, printed only when 2): double-prime scaling
      (Cheddar 3.1): the scale is carried by a pair of primes and a rescale
      divides by both. The chain is q_0, then pairs
      (ember::generateDoublePrimeChain); q_0 and the first pair are the base
      modulus of level 0, so level l holds 3 + 2 l primes. Levels stay
      logical everywhere above the rns dialect: `getLimbs(level)` is the
      limb count, `getLevelModuli()[l]` the divisor of the rescale from l.
    - `plain` (optional): the plaintext modulus t of an integer scheme
      (the `bgv` dialect's chain); `scheme = bfv` (optional, with `plain`):
      the chain is BFV's (every ciphertext at the full Q, scaled by
      Q / t; no modulus switching, keys with error factor 1), else BGV's.
  }];
  let parameters = (ins "int64_t":$logN, ArrayRefParameter<"uint64_t">:$q,
                    ArrayRefParameter<"uint64_t">:$p, "int64_t":$logScale,
                    "int64_t":$dnum, "int64_t":$security,
                    OptionalArrayRefParameter<"uint64_t">:$t,
                    DefaultValuedParameter<"int64_t", "0">:$gamma,
                    DefaultValuedParameter<"int64_t", "0">:$h,
                    DefaultValuedParameter<"int64_t", "64">:$word,
                    DefaultValuedParameter<"int64_t", "1">:$scalePrimes,
                    DefaultValuedParameter<"uint64_t", "0">:$plain,
                    DefaultValuedParameter<"bool", "false">:$bfv);
  let assemblyFormat = [{
    `<` `logN` `=` $logN `,` `Q` `=` `[` $q `]` `,` `P` `=` `[` $p `]` `,`
    `logScale` `=` $logScale `,` `dnum` `=` $dnum `,` `security` `=` $security
    `` custom<OptionalParams>($t, $gamma, $h, $word, $scalePrimes, $plain,
                           $bfv) `>`
  }];
  let builders = [
    AttrBuilder<(ins "int64_t":$logN, "::llvm::ArrayRef<uint64_t>":$q,
                     "::llvm::ArrayRef<uint64_t>":$p, "int64_t":$logScale,
                     "int64_t":$dnum, "int64_t":$security), [{
      return $_get($_ctxt, logN, q, p, logScale, dnum, security,
                   ::llvm::ArrayRef<uint64_t>(), int64_t{0}, int64_t{0},
                   int64_t{64}, int64_t{1}, uint64_t{0}, false);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Q primes of level 0: q_0 alone, or q_0 and the first pair under
    /// double-prime scaling.
    int64_t getBaseLimbs() const { return baseLimbs(getScalePrimes()); }
    /// Q primes (limbs) of a ciphertext at `level`.
    int64_t getLimbs(int64_t level) const {
      return getBaseLimbs() + getScalePrimes() * level;
    }
    /// The highest level: (L + 1 - base) / scalePrimes.
    int64_t getMaxLevel() const {
      return (static_cast<int64_t>(getQ().size()) - getBaseLimbs()) /
             getScalePrimes();
    }
    /// The modulus chain by level: entry l >= 1 is what the rescale from
    /// level l divides by (q_l, or the product of level l's pair). Entry 0
    /// is q_0 with one scale prime; with two the base modulus exceeds 64
    /// bits and entry 0 is 0 (read getBaseBits).
    ::std::vector<uint64_t> getLevelModuli() const;
    /// log2 of the level-0 modulus (q_0, or q_0 and the first pair).
    double getBaseBits() const;
    /// Bytes of one word: 8 or 4.
    int64_t getWordBytes() const { return getWord() / 8; }
    /// A fresh ciphertext's level: the highest below the scale-keeping
    /// levels (ckks::inputLevel; getMaxLevel for a uniform chain).
    int64_t getInputLevel() const;
    /// The canonical scale of `level` (ckks::levelScales).
    double getLevelScale(int64_t level) const;
    /// The default scale 2^logScale.
    double getDefaultScale() const;
    /// Sum of the bit lengths of all Q and P primes.
    int64_t getLogQP() const;
    /// True when the parameters carry a KLSS form (T and gamma).
    bool hasKlss() const { return !getT().empty() && getGamma() > 0; }
    /// True for a chain of an integer scheme (a plaintext modulus t): BGV,
    /// or BFV when isBfv().
    bool isBgv() const { return getPlain() != 0; }
    /// True for a BFV chain (`scheme = bfv`): ciphertexts stay at the full
    /// Q, scaled by Delta = Q / t, and nothing is t-corrected.
    bool isBfv() const { return getBfv(); }
    /// BFV's Delta = Q / t over the whole chain (bgv::bfvDelta, what the
    /// runtime's BfvEncoder encrypts at).
    double getBfvDelta() const;
    /// Q-limb count of each key-switching digit (ember::digitSizes).
    ::std::vector<int> getDigitSizes() const;
    /// KLSS key groups covering P u Q_level: ceil((K + limbs(level)) /
    /// gamma).
    int64_t getKlssGroups(int64_t level) const;
    /// Bytes of one switching key in memory (words of getWordBytes()):
    /// hybrid digits x 2 x (L+1+K) x N words, KLSS digits x groups_L x 2 x
    /// r' x N words (the runtime's hybridKeyBytes / klssKeyBytes).
    uint64_t getHybridKeyBytes() const;
    uint64_t getKlssKeyBytes() const;
    /// Bytes of one digit of a hybrid key (2 x (L+1+K) x N words).
    uint64_t getKeyDigitBytes() const;
    /// Bytes of bootstrapping's to_sparse encapsulation key: a digit per
    /// limb of Q_0 in the hybrid layout (zero outside Q_0 and p_0).
    uint64_t getToSparseKeyBytes() const;
    /// The #ckks.params of the module enclosing `op` (or `op` itself), or a
    /// null attribute when there is none.
    static ParamsAttr lookup(::mlir::Operation *op);
  }];
}

#endif // EMBER_CKKS_ATTRIBUTES_TD
