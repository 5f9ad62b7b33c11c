fi_rdm_pingpong -p <provider_name> -E
