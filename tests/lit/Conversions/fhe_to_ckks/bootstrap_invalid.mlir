// RUN: ember-opt --fhe-to-ckks="security=none log-n=13" --split-input-file --verify-diagnostics %s
// What bootstrapping refuses, at the bootstrap: an input the sine of EvalMod
// is not linear enough for (fewer slots than N/2 are fine: sparse packing,
// bootstrap_sparse.mlir).

func.func @too_large(%x: !fhe.ct<4096> {fhe.range = [-100.0, 100.0]}) -> !fhe.ct<4096> {
  // expected-error @+1 {{input can reach magnitude 100 (2^6.64), but bootstrapping at scale 2^40.0 with a 50.0-bit Q_0 is accurate only up to 8 (2^3.00) (Q_0 / S_0 = 2^10): scale the value down before bootstrapping and back up after}}
  %b = fhe.bootstrap %x : !fhe.ct<4096>
  return %b : !fhe.ct<4096>
}
