fi_msg_bw -I 5
