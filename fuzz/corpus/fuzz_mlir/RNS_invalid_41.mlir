
// expected-error @+1 {{a KLSS key needs dnum, groups and t >= 1, got dnum = 1, groups = 2, t = 0}}
func.func private @klss_evk_no_t(!rns.klss_evk<dnum = 1, groups = 2, t = 0>)

