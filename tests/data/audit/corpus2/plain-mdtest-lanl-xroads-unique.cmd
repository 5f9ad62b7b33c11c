mpirun -np 64 ./mdtest -F -C -T -r -n 16384 -d /scratch -N 16 -u
