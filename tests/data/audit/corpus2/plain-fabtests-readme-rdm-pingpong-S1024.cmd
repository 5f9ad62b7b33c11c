fi_rdm_pingpong -p <provider_name> -S 1024 -I 1000
