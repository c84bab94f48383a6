// A multiply followed by rescale: relinearisation's ModDown and the rescale
// are two modulus switches; rns-merge-moddown makes them one.
// RUN: ember-opt --ckks-to-rns --ember-cost-report %s -o /dev/null | FileCheck %s --check-prefix=PLAIN
// RUN: ember-opt --ckks-to-rns --rns-merge-moddown --ember-cost-report %s -o /dev/null | FileCheck %s --check-prefix=MERGED

// PLAIN-LABEL: ember-cost-report @mul_rescale
// PLAIN: ntt limb-transforms: 27
// PLAIN: mod_down: 1
// PLAIN-NEXT: rescale: 1
// PLAIN-NEXT: modulus switches: 2

// MERGED-LABEL: ember-cost-report @mul_rescale
// MERGED: ntt limb-transforms: 17
// MERGED: mod_down: 1
// MERGED-NEXT: rescale: 0
// MERGED-NEXT: modulus switches: 1

!ct = !ckks.ct<8, level = 4, scale = 1099511627776.0>
!ct3 = !ckks.ct<8, level = 4, scale = 1208925819614629174706176.0, degree = 3>
!ctsq = !ckks.ct<8, level = 4, scale = 1208925819614629174706176.0>
!out = !ckks.ct<8, level = 3, scale = 1099516739606.7656>

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {
func.func @mul_rescale(%x: !ct, %y: !ct) -> !out {
  %m = ckks.mul %x, %y : !ct, !ct
  %r = ckks.relinearize %m : !ct3
  %s = ckks.rescale %r : !ctsq -> !out
  return %s : !out
}
}
