
// expected-error @+1 {{unknown kernel attribute 'kernel.arena'}}
func.func @unknown_attr() attributes {kernel.arena = 3 : i64} {
  return
}
