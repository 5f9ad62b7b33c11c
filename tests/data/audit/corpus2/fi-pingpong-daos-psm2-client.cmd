fi_pingpong -p psm2 ${IP_ADDRESS_NODE1}
