// The key-switch model at 32-bit words (cheddar32: 47 Q limbs, 12 P,
// dnum 4): KeySwitchConstants::forWord(32) scales the 64-bit constants by
// the measured 32/64-bit primitive times and counts 4-byte words. Its
// hmul+relin at the top (412 us) and at 23 limbs (161 us) against the H200's
// hand-written Evaluator32 (411 and 189 us, bench/RESULTS.md). The table's
// levels are limb levels (46: 47 limbs).
// RUN: ember-opt "--fhe-to-ckks=params=cheddar32" %s | ember-opt --ckks-to-rns "--rns-select-keyswitch=print-table=true" -o /dev/null 2>&1 | FileCheck %s

// CHECK: rns-select-keyswitch table: N = 2^16, L+1 = 47, K = 12, dnum = 4
// CHECK-NEXT: key-switch cost constants (N = 2^16, H200): ntt = 0.483 us/limb, bconv-mac = 0.043 us, exact-bconv-mac = 0.048 us, ip-mac = 0.086 us
// CHECK: {{^}}     46         412.3           -       424.7         -
// CHECK: {{^}}     22         161.1           -       167.1         -
func.func @f(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %m : !fhe.ct<8>
}
