IOR -w -k -o file -D 10  # write and keep file, stonewall after 10 seconds
