    $ elbencho -w -b 4M -t 16 --direct -s 20g "/mnt/myfs/file[1-4]"
