// The slot count bounds N from below: 16384 slots need N = 2^15 even at
// depth 1; more than 2^16 slots fit no ring (the type verifier refuses them).
// RUN: ember-opt --split-input-file --fhe-to-ckks %s --verify-diagnostics | FileCheck %s

// CHECK: ckks.params = #ckks.params<logN = 15, Q = [{{[0-9]+}}, {{[0-9]+}}], P = [{{[0-9]+}}, {{[0-9]+}}], logScale = 40, dnum = 1, security = 128>
// CHECK: func.func @wide(%{{.*}}: !ckks.ct<16384, level = 1, scale = 1099511627776.0>)
func.func @wide(%x: !fhe.ct<16384>) -> !fhe.ct<16384> {
  %a = fhe.mul %x, %x : (!fhe.ct<16384>, !fhe.ct<16384>) -> !fhe.ct<16384>
  return %a : !fhe.ct<16384>
}

// -----

// More than 2^16 slots fit no ring: the fhe type itself is refused now
// (issue 11), before fhe-to-ckks sees it.
// expected-error @+1 {{slot count 131072 exceeds 65536}}
func.func @too_wide(%x: !fhe.ct<131072>) -> !fhe.ct<131072> {
  return %x : !fhe.ct<131072>
}
