// RUN: ember-opt --ember-cost-report %s -split-input-file -verify-diagnostics -o /dev/null

// Without #ckks.params or log-n the bytes cannot be known.
// expected-error @+1 {{ember-cost-report needs #ckks.params on the module or the log-n option}}
module {
  func.func @f(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    return %x : !rns.poly<ntt, q[0:2]>
  }
}

// -----

// ckks ops are not costed: the report says so.
// expected-warning @+1 {{ember-cost-report counts rns ops only; run ckks-to-rns first}}
module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {
  func.func @g(%c: !ckks.ct<8, level = 2, scale = 1099511627776.0>) -> !ckks.ct<8, level = 2, scale = 1099511627776.0> {
    %0 = ckks.neg %c : !ckks.ct<8, level = 2, scale = 1099511627776.0>
    return %0 : !ckks.ct<8, level = 2, scale = 1099511627776.0>
  }
}
