// #ckks.params with a KLSS form (T and gamma, printed only when present)
// round-trips; without them nothing extra is printed.
// RUN: ember-opt %s --split-input-file | FileCheck %s
// RUN: ember-opt %s --split-input-file | ember-opt --split-input-file | FileCheck %s

// CHECK: #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, T = [2305843009213683713], gamma = 2>
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, T = [2305843009213683713], gamma = 2>} {}

