IOR -r -E -o file -D 7   # read existing file, stonewall after 7 seconds
