env_vs_tfvars  = "g5.2xlarge"
tfvars_vs_auto = "g4dn.xlarge"
