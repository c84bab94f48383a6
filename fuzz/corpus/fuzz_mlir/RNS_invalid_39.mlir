
// expected-error @+1 {{a hybrid key needs 1 <= dnum <= q and p >= 1, got dnum = 0, q = 2, p = 1}}
func.func private @evk_no_digits(!rns.evk<dnum = 0, q = 2, p = 1>)

