fi_rdm_tagged_bw -I 5 -U
