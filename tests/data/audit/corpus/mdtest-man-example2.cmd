mpirun -np 2 -H pc6 ./mdtest -d /tmp/z -b 2 -z 3 -I 10
