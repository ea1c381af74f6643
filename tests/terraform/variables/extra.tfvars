auto_vs_varfile = "g6.xlarge"
varfile_vs_cli  = "g4dn.xlarge"
