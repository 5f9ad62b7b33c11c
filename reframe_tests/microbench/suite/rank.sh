#!/bin/sh
# One rank of an MPI run says its number and its node, "<rank>=<node>"
# (microbench/tools/ior/ranks.py): its number as srun, MPICH's Hydra or
# Open MPI's mpirun gives it; its node as Slurm names it, else its host name.
# Every rounds job copies it into its stage directory.
echo "${SLURM_PROCID:-${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-?}}}=${SLURMD_NODENAME:-$(hostname)}"
