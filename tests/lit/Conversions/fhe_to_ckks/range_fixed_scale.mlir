// A scale the user fixes (scale-bits) or a named set is never changed: a
// value it cannot hold is refused at the value's line, naming its bound,
// the bits it needs and what helps.
// RUN: not ember-opt --fhe-to-ckks=scale-bits=40 %s 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: not ember-opt --fhe-to-ckks=params=C %s 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: ember-opt --fhe-to-ckks=scale-bits=34 %s | FileCheck %s --check-prefix=FITS

// 9e6 at 2^40 needs 23.1 + 40 + 1 + 1 = 65.1 bits of q_0.
// FIXED: range_fixed_scale.mlir:[[@LINE+8]]:9: error: the value at {{.*}}range_fixed_scale.mlir:[[@LINE+8]] can reach magnitude 9e+06 (2^23.10); at the scale 2^40 that scale-bits fixes it needs q_0 > 2^65.1 (magnitude x scale x 2^1 of noise margin < q_0 / 2), and q_0 < 2^60: use scale-bits <= 34, or declare smaller input ranges

// Set C's 55-bit q_0 at scale 2^48 holds values below about 2^5.
// NAMED: error: parameter set 'C' (a 55-bit q_0, scale 2^48) cannot hold the value at {{.*}}range_fixed_scale.mlir:[[@LINE+5]]: it can reach magnitude 9e+06 (2^23.10) and needs q_0 > 2^73.1 (magnitude x scale x 2^1 of noise margin < q_0 / 2); declare smaller input ranges, or let the compiler choose the parameters

// What the message proposes fits.
// FITS: logScale = 34
func.func @f(%x: !fhe.ct<8> {fhe.range = [-3000.0, 3000.0]}) -> !fhe.ct<8> {
  %x2 = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %x2 : !fhe.ct<8>
}
