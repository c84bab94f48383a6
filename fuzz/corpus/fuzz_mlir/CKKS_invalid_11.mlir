
// expected-error @+1 {{'ckks.params' must be a #ckks.params attribute}}
module attributes {ckks.params = 3 : i64} {}

