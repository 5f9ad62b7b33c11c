IOR -k -E -w -W -i 5 -o file -O multiReRead=1
