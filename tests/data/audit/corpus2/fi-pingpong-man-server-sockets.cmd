fi_pingpong -p sockets
