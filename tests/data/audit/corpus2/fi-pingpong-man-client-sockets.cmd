fi_pingpong -p sockets 192.168.0.123
