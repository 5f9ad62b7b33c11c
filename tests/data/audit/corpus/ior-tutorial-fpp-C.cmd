mpirun -n 64 ./ior -t 1m -b 16m -s 16 -F -C
