fi_msg_pingpong -I 5
