// Diagnostics of ckks-manage-levels.
// RUN: ember-opt --ckks-manage-levels %s --split-input-file --verify-diagnostics
// RUN: not ember-opt --ckks-manage-levels=strategy=sometimes %s --split-input-file 2>&1 | FileCheck %s --check-prefix=STRATEGY

// STRATEGY: unknown strategy 'sometimes' (expected eager or lazy)

!ct0 = !ckks.ct<8, level = 0, scale = 1099511627776.0>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @out_of_levels(%x: !ct0) -> !ckks.ct<8, level = 0, scale = 1.2089258196146292e+24, degree = 3> {
    // expected-error @+1 {{no level left to rescale: the program needs more levels than #ckks.params provides (levels 0..2)}}
    %m = ckks.mul %x, %x : !ct0, !ct0
    return %m : !ckks.ct<8, level = 0, scale = 1.2089258196146292e+24, degree = 3>
  }
}

// -----

// An encoded plaintext argument cannot be re-encoded (run-time values are
// ckks.encode_values of a tensor argument): after the (eager) rescale the
// addition needs it at level 1 and scale 2^80 / q_2.
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @plain_argument(%x: !ckks.ct<8, level = 2, scale = 1099511627776.0>, %p: !ckks.pt<8, level = 2, scale = 1.2089258196146292e+24>) -> !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24> {
    %w = ckks.encode dense<2.0> : tensor<8xf64> -> !ckks.pt<8, level = 2, scale = 1099511627776.0>
    %m = ckks.mul_plain %x, %w : !ckks.ct<8, level = 2, scale = 1099511627776.0>, !ckks.pt<8, level = 2, scale = 1099511627776.0>
    // expected-error @+1 {{plaintext operand is at level 2, scale 1.2089258196146292e+24 but this use needs level 1, scale 1099512365055.4944; only ckks.encode and ckks.encode_values can be re-encoded}}
    %a = ckks.add_plain %m, %p : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>, !ckks.pt<8, level = 2, scale = 1.2089258196146292e+24>
    return %a : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
  }
}

// -----

module {
  // expected-error @+1 {{ckks-manage-levels needs the module's 'ckks.params' (run fhe-to-ckks first)}}
  func.func @no_params(%x: !ckks.ct<8, level = 0, scale = 2.0>) {
    return
  }
}
