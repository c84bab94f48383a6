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
  }];
  let parameters = (ins "::ember::rns::Form":$form, "unsigned":$qLo,
                        "unsigned":$qHi, "unsigned":$pLo, "unsigned":$pHi);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isNTT() const { return getForm() == ::ember::rns::Form::ntt; }
    unsigned getNumQ() const { return getQHi() - getQLo(); }
    unsigned getNumP() const { return getPHi() - getPLo(); }
    unsigned getNumLimbs() const { return getNumQ() + getNumP(); }
    bool hasP() const { return getNumP() != 0; }
    /// Same basis, other form.
    PolyType withForm(::ember::rns::Form form) const {
      return get(getContext(), form, getQLo(), getQHi(), getPLo(), getPHi());
    }
    /// Same form, other basis.
    PolyType withBasis(unsigned qLo, unsigned qHi, unsigned pLo,
                       unsigned pHi) const {
      return get(getContext(), getForm(), qLo, qHi, pLo, pHi);
    }
    /// True when both types hold exactly the same limbs.
    bool sameBasis(PolyType other) const {
      return getQLo() == other.getQLo() && getQHi() == other.getQHi() &&
             getPLo() == other.getPLo() && getPHi() == other.getPHi();
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
}

// Constraints with cppType mlir::Type so that the assembly formats print the
// full `!rns.poly<...>` rather than the stripped `<...>` form.
def RNS_AnyPoly : Type<CPred<"::llvm::isa<::ember::rns::PolyType>($_self)">,
                       "rns polynomial", "::mlir::Type">;
def RNS_AnyEvalKey
    : Type<CPred<"::llvm::isa<::ember::rns::EvalKeyType>($_self)">,
           "rns evaluation key", "::mlir::Type">;

#endif // EMBER_DIALECT_RNS_TYPES_TD
