    $ elbencho -r -t 2 -n 3 -N 4 -s 1m -b 128k /data/testdir
