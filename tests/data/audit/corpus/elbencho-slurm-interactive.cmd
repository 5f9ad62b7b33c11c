elbencho --hosts "$HOSTNAMES" -w -s 10g -b 1m -t 4 --direct /mnt/shared/testfile
