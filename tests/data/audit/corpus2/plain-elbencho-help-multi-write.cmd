    $ elbencho -w -d -t 2 -n 3 -N 4 -s 1m -b 1m /data/testdir
