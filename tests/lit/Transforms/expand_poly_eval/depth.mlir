// The whole pipeline budgets the expansion's depth (the input's level):
// degree 16 on [-1, 1] and on [-0.5, 0.5] (a free change of variable) at
// ceil(log2 17) = 5 levels, on [0, 4] at 6 (alpha = 0.5 costs one).
// RUN: ember-opt --split-input-file --ember-pipeline=fhe-to-rns %s | FileCheck %s

// CHECK-LABEL: func.func @unit
// CHECK-SAME: inputs = [{degree = 2 : i64, level = 5 : i64
func.func @unit(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.poly_eval %x "chebyshev" [0.5, 1.0, 0.25, -0.125, 0.0625, 0.1, 0.2, 0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05] on [-1.0, 1.0] : !fhe.ct<8>
  return %y : !fhe.ct<8>
}

// -----

// CHECK-LABEL: func.func @half
// CHECK-SAME: inputs = [{degree = 2 : i64, level = 5 : i64
func.func @half(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.poly_eval %x "chebyshev" [0.5, 1.0, 0.25, -0.125, 0.0625, 0.1, 0.2, 0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05] on [-0.5, 0.5] : !fhe.ct<8>
  return %y : !fhe.ct<8>
}

// -----

// CHECK-LABEL: func.func @shifted
// CHECK-SAME: inputs = [{degree = 2 : i64, level = 6 : i64
func.func @shifted(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.poly_eval %x "chebyshev" [0.5, 1.0, 0.25, -0.125, 0.0625, 0.1, 0.2, 0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05] on [0.0, 4.0] : !fhe.ct<8>
  return %y : !fhe.ct<8>
}

// -----

// Degree 15 (d + 1 a power of two): with 4 baby steps c_3 T_3 (depth 3)
// times T_4 times T_8 would take 5 levels; the pass takes 2 baby steps and
// reaches ceil(log2 16) = 4.
// CHECK-LABEL: func.func @degree15
// CHECK-SAME: inputs = [{degree = 2 : i64, level = 4 : i64
func.func @degree15(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.poly_eval %x "chebyshev" [0.5, 1.0, 0.25, -0.125, 0.0625, 0.1, 0.2, 0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1] on [-1.0, 1.0] : !fhe.ct<8>
  return %y : !fhe.ct<8>
}
