
// expected-error @+1 {{a hybrid key needs 1 <= dnum <= q and p >= 1, got dnum = 3, q = 2, p = 1}}
func.func private @evk_more_digits_than_limbs(!rns.evk<dnum = 3, q = 2, p = 1>)

