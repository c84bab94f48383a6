// (x * y + x, rot(x - y, 1)): two inputs, two outputs.
func.func @two_in_two_out(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> (!fhe.ct<8>, !fhe.ct<8>) {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %a = fhe.add %m, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %d = fhe.sub %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %d by 1 : !fhe.ct<8>
  return %a, %r : !fhe.ct<8>, !fhe.ct<8>
}
