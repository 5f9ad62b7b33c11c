srun --mpi=pmix ${SCALE_OPTS} ${ADDITIONAL_OPTS} ./set_gpu_affinity.sh ./osu_bibw -c -d rocm D D
