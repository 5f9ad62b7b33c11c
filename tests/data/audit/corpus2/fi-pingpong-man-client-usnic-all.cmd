fi_pingpong -p usnic -I 10000 -S all 192.168.0.123
