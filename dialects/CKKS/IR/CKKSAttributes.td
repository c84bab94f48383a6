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
    - `dnum`: number of key-switching digits (ember::digitSizes splits Q).
    - `security`: 128 (log2(QP) must be within ember::maxLogQP128(logN)) or
      0, an insecure test mode that must be asked for by name.
  }];
  let parameters = (ins "int64_t":$logN, ArrayRefParameter<"uint64_t">:$q,
                    ArrayRefParameter<"uint64_t">:$p, "int64_t":$logScale,
                    "int64_t":$dnum, "int64_t":$security);
  let assemblyFormat = [{
    `<` `logN` `=` $logN `,` `Q` `=` `[` $q `]` `,` `P` `=` `[` $p `]` `,`
    `logScale` `=` $logScale `,` `dnum` `=` $dnum `,` `security` `=` $security `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Index of the last Q prime: a fresh ciphertext's level.
    int64_t getMaxLevel() const { return getQ().size() - 1; }
    /// The default scale 2^logScale.
    double getDefaultScale() const;
    /// Sum of the bit lengths of all Q and P primes.
    int64_t getLogQP() const;
    /// The #ckks.params of the module enclosing `op` (or `op` itself), or a
    /// null attribute when there is none.
    static ParamsAttr lookup(::mlir::Operation *op);
  }];
}

#endif // EMBER_CKKS_ATTRIBUTES_TD
