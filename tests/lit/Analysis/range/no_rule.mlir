// An op that produces fhe values and has no rule in the range analysis is
// an error at that op: fhe-to-ckks never guesses a range.
// RUN: ember-opt --allow-unregistered-dialect --fhe-annotate-ranges --verify-diagnostics %s -o /dev/null
// RUN: ember-opt --allow-unregistered-dialect --fhe-to-ckks --verify-diagnostics %s -o /dev/null

func.func @unknown(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  // expected-error @+1 {{'test.bootstrap' op has no rule in the range analysis (fhe-to-ckks needs every value's range to choose the scale)}}
  %a = "test.bootstrap"(%x) : (!fhe.ct<4>) -> !fhe.ct<4>
  return %a : !fhe.ct<4>
}
