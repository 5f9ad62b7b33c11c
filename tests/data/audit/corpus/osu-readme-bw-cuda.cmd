mpirun_rsh -np 2 -hostfile hostfile MV2_USE_CUDA=1 osu_bw D H
