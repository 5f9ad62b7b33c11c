fi_msg_pingpong -k
