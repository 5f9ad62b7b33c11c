/opt/amazon/efa/bin/fi_pingpong -p efa 127.0.0.1
