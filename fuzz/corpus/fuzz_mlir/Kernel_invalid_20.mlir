
// expected-error @+1 {{'kernel.arg_offsets' must be an array<i64> of non-negative offsets}}
func.func @arg_offsets_type() attributes {kernel.arg_offsets = 3 : i64} {
  return
}

