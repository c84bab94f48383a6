// 86 chained multiplications: no N up to 2^17 holds them securely; the
// largest depth possible is 85 (N = 2^17: 60 + 85 x 40 + 60 = 3520 nominal
// bits, a QP of 3521 bits; depth 86 would need 3560 > 3523, see
// bit_count_at_the_bound.mlir).
// RUN: ember-opt --fhe-to-ckks %s --verify-diagnostics
// RUN: not ember-opt --fhe-to-ckks=params=A %s 2>&1 | FileCheck %s --check-prefix=NAMED
// NAMED: error: program has multiplicative depth 86 and 8 slots; parameter set A allows depth 35 and 32768 slots

func.func @deep(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %m0 = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m1 = fhe.mul %m0, %m0 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m2 = fhe.mul %m1, %m1 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m3 = fhe.mul %m2, %m2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m4 = fhe.mul %m3, %m3 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m5 = fhe.mul %m4, %m4 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m6 = fhe.mul %m5, %m5 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m7 = fhe.mul %m6, %m6 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m8 = fhe.mul %m7, %m7 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m9 = fhe.mul %m8, %m8 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m10 = fhe.mul %m9, %m9 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m11 = fhe.mul %m10, %m10 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m12 = fhe.mul %m11, %m11 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m13 = fhe.mul %m12, %m12 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m14 = fhe.mul %m13, %m13 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m15 = fhe.mul %m14, %m14 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m16 = fhe.mul %m15, %m15 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m17 = fhe.mul %m16, %m16 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m18 = fhe.mul %m17, %m17 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m19 = fhe.mul %m18, %m18 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m20 = fhe.mul %m19, %m19 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m21 = fhe.mul %m20, %m20 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m22 = fhe.mul %m21, %m21 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m23 = fhe.mul %m22, %m22 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m24 = fhe.mul %m23, %m23 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m25 = fhe.mul %m24, %m24 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m26 = fhe.mul %m25, %m25 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m27 = fhe.mul %m26, %m26 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m28 = fhe.mul %m27, %m27 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m29 = fhe.mul %m28, %m28 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m30 = fhe.mul %m29, %m29 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m31 = fhe.mul %m30, %m30 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m32 = fhe.mul %m31, %m31 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m33 = fhe.mul %m32, %m32 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m34 = fhe.mul %m33, %m33 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m35 = fhe.mul %m34, %m34 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m36 = fhe.mul %m35, %m35 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m37 = fhe.mul %m36, %m36 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m38 = fhe.mul %m37, %m37 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m39 = fhe.mul %m38, %m38 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m40 = fhe.mul %m39, %m39 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m41 = fhe.mul %m40, %m40 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m42 = fhe.mul %m41, %m41 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m43 = fhe.mul %m42, %m42 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m44 = fhe.mul %m43, %m43 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m45 = fhe.mul %m44, %m44 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m46 = fhe.mul %m45, %m45 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m47 = fhe.mul %m46, %m46 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m48 = fhe.mul %m47, %m47 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m49 = fhe.mul %m48, %m48 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m50 = fhe.mul %m49, %m49 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m51 = fhe.mul %m50, %m50 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m52 = fhe.mul %m51, %m51 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m53 = fhe.mul %m52, %m52 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m54 = fhe.mul %m53, %m53 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m55 = fhe.mul %m54, %m54 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m56 = fhe.mul %m55, %m55 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m57 = fhe.mul %m56, %m56 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m58 = fhe.mul %m57, %m57 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m59 = fhe.mul %m58, %m58 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m60 = fhe.mul %m59, %m59 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m61 = fhe.mul %m60, %m60 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m62 = fhe.mul %m61, %m61 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m63 = fhe.mul %m62, %m62 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m64 = fhe.mul %m63, %m63 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m65 = fhe.mul %m64, %m64 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m66 = fhe.mul %m65, %m65 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m67 = fhe.mul %m66, %m66 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m68 = fhe.mul %m67, %m67 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m69 = fhe.mul %m68, %m68 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m70 = fhe.mul %m69, %m69 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m71 = fhe.mul %m70, %m70 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m72 = fhe.mul %m71, %m71 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m73 = fhe.mul %m72, %m72 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m74 = fhe.mul %m73, %m73 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m75 = fhe.mul %m74, %m74 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m76 = fhe.mul %m75, %m75 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m77 = fhe.mul %m76, %m76 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m78 = fhe.mul %m77, %m77 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m79 = fhe.mul %m78, %m78 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m80 = fhe.mul %m79, %m79 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m81 = fhe.mul %m80, %m80 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m82 = fhe.mul %m81, %m81 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m83 = fhe.mul %m82, %m82 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m84 = fhe.mul %m83, %m83 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  // expected-error @+1 {{program has multiplicative depth 86, but the largest depth possible with 128-bit secure parameters (N = 2^13..2^17, 40-bit scale) is 85}}
  %m85 = fhe.mul %m84, %m84 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %m85 : !fhe.ct<8>
}
