tfvars_vs_auto  = "p4d.24xlarge"
auto_vs_varfile = "g4dn.xlarge"
