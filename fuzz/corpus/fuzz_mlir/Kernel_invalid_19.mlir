
// expected-error @+1 {{'kernel.arena_bytes' must be a non-negative integer}}
func.func @arena_negative() attributes {kernel.arena_bytes = -1 : i64} {
  return
}

