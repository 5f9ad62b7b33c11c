mpirun -n 2 ./mdtest -d /tmp/z -n 100 -i 2
