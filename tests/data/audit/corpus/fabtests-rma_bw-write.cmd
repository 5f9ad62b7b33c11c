fi_rma_bw -e msg -o write -I 5
