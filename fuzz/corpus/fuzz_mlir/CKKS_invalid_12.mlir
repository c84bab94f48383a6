
// expected-error @+1 {{unknown ckks attribute 'ckks.foo'}}
module attributes {ckks.foo} {}

