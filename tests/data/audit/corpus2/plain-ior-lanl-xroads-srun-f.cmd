srun -n 64 ./ior -f ./load1-posix-filepertask.ior
