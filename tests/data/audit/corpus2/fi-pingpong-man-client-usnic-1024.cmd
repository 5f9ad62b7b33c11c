fi_pingpong -p usnic -I 1000 -S 1024 192.168.0.123
