
func.func @plain_only(%p: !fhe.pt<4>, %q: !fhe.pt<4>) {
  // expected-error @+1 {{needs at least one encrypted operand}}
  %c = fhe.add %p, %q : (!fhe.pt<4>, !fhe.pt<4>) -> !fhe.ct<4>
  return
}

