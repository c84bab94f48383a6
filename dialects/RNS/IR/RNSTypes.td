//===- RNSTypes.td - rns types -----------------------------*- tablegen -*-===//

#ifndef EMBER_DIALECT_RNS_TYPES_TD
#define EMBER_DIALECT_RNS_TYPES_TD

include "RNSDialect.td"
include "RNSAttributes.td"
include "mlir/IR/AttrTypeBase.td"

class RNS_Type<string name, string typeMnemonic> : TypeDef<RNS_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def RNS_PolyType : RNS_Type<"Poly", "poly"> {
  let summary = "a polynomial over an explicit RNS basis";
  let description = [{
    `!rns.poly<FORM, q[QLO:QHI], p[PLO:PHI]>` is a polynomial whose residues
    are held for the Q primes `q_QLO .. q_{QHI-1}` and the special primes
    `p_PLO .. p_{PHI-1}` (half-open ranges; either part may be omitted when
    empty, not both). FORM is `ntt` (evaluation form, bit-reversed order) or
    `coeff`. Examples: a level-5 ciphertext polynomial
    `!rns.poly<ntt, q[0:6]>`; the second of three ModUp digits
    `!rns.poly<ntt, q[2:4]>`; a digit raised to Q_5 u P with 4 special primes
    `!rns.poly<ntt, q[0:6], p[0:4]>`; the P part fed to ModDown's BConv
    `!rns.poly<coeff, p[0:4]>`.

    `!rns.poly<ntt, t[0:R]>` is a polynomial over the KLSS temporary primes
    t_0..t_{R-1} of `#ckks.params` (`T = [...]`): a key-switching digit
    converted exactly to T (`rns.klss_mod_up`). A T range never shares a
    type with Q or P limbs (T is not a ciphertext modulus; the runtime
    places t_i after p_{K-1} in its global modulus order).
  }];
  let parameters = (ins "::ember::rns::Form":$form, "unsigned":$qLo,
                        "unsigned":$qHi, "unsigned":$pLo, "unsigned":$pHi,
                        "unsigned":$tLo, "unsigned":$tHi);
  let builders = [
    TypeBuilder<(ins "::ember::rns::Form":$form, "unsigned":$qLo,
                     "unsigned":$qHi, "unsigned":$pLo, "unsigned":$pHi), [{
      return $_get($_ctxt, form, qLo, qHi, pLo, pHi, 0u, 0u);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isNTT() const { return getForm() == ::ember::rns::Form::ntt; }
    unsigned getNumQ() const { return getQHi() - getQLo(); }
    unsigned getNumP() const { return getPHi() - getPLo(); }
    unsigned getNumT() const { return getTHi() - getTLo(); }
    unsigned getNumLimbs() const { return getNumQ() + getNumP() + getNumT(); }
    bool hasP() const { return getNumP() != 0; }
    /// A polynomial over KLSS temporary primes (then it has no Q/P limbs).
    bool hasT() const { return getNumT() != 0; }
    /// Over t[lo:hi] only.
    static PolyType getT(::mlir::MLIRContext *ctx, ::ember::rns::Form form,
                         unsigned tLo, unsigned tHi) {
      return get(ctx, form, 0, 0, 0, 0, tLo, tHi);
    }
    /// Same basis, other form.
    PolyType withForm(::ember::rns::Form form) const {
      return get(getContext(), form, getQLo(), getQHi(), getPLo(), getPHi(),
                 getTLo(), getTHi());
    }
    /// Same form, other basis.
    PolyType withBasis(unsigned qLo, unsigned qHi, unsigned pLo,
                       unsigned pHi) const {
      return get(getContext(), getForm(), qLo, qHi, pLo, pHi);
    }
    /// True when both types hold exactly the same limbs.
    bool sameBasis(PolyType other) const {
      return getQLo() == other.getQLo() && getQHi() == other.getQHi() &&
             getPLo() == other.getPLo() && getPHi() == other.getPHi() &&
             getTLo() == other.getTLo() && getTHi() == other.getTHi();
    }
    /// True when no limb is in both bases.
    bool disjointFrom(PolyType other) const;
  }];
}

def RNS_EvalKeyType : RNS_Type<"EvalKey", "evk"> {
  let summary = "a key-switching (evaluation) key";
  let description = [{
    `!rns.evk<dnum = D, q = L1, p = K>` is a hybrid key-switching key with D
    digits, each a pair of polynomials in NTT form over Q_L u P, where Q_L
    has L1 = L + 1 primes and P has K special primes. At level l only the
    limbs of Q_l u P are read.
  }];
  let parameters = (ins "unsigned":$dnum, "unsigned":$q, "unsigned":$p);
  let assemblyFormat = "`<` `dnum` `=` $dnum `,` `q` `=` $q `,` `p` `=` $p `>`";
  let genVerifyDecl = 1;
}

def RNS_KlssKeyType : RNS_Type<"KlssKey", "klss_evk"> {
  let summary = "a key-switching key in KLSS form";
  let description = [{
    `!rns.klss_evk<dnum = D, groups = G, t = R>` is the KLSS form (Kim, Lee,
    Seo, Song, CRYPTO 2023; Athena 2.3) of a hybrid key: for each of the D
    digits and each of the G key groups (gamma consecutive primes of
    p_0..p_{K-1}, q_0..q_L), a pair of polynomials in NTT form over the R
    temporary primes of T. Its memory is D x G x 2 x R limbs, against
    D x 2 x (L+1+K) for the hybrid key (Cheddar 5.5). At level l only the
    first ceil((K+l+1)/gamma) groups are read.
  }];
  let parameters = (ins "unsigned":$dnum, "unsigned":$groups, "unsigned":$t);
  let assemblyFormat =
      "`<` `dnum` `=` $dnum `,` `groups` `=` $groups `,` `t` `=` $t `>`";
  let genVerifyDecl = 1;
}

// Constraints with cppType mlir::Type so that the assembly formats print the
// full `!rns.poly<...>` rather than the stripped `<...>` form.
def RNS_AnyPoly : Type<CPred<"::llvm::isa<::ember::rns::PolyType>($_self)">,
                       "rns polynomial", "::mlir::Type">;
def RNS_AnyEvalKey
    : Type<CPred<"::llvm::isa<::ember::rns::EvalKeyType>($_self)">,
           "rns evaluation key", "::mlir::Type">;
def RNS_AnyKlssKey
    : Type<CPred<"::llvm::isa<::ember::rns::KlssKeyType>($_self)">,
           "rns KLSS evaluation key", "::mlir::Type">;
def RNS_AnyKey
    : Type<CPred<"::llvm::isa<::ember::rns::EvalKeyType, "
                 "::ember::rns::KlssKeyType>($_self)">,
           "rns evaluation key (hybrid or KLSS)", "::mlir::Type">;

#endif // EMBER_DIALECT_RNS_TYPES_TD
