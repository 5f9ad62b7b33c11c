    $ elbencho -r -b 4k -t 16 --iodepth 16 --direct --rand --timelimit 20 \
        "/mnt/myfs/file[1-4]"
