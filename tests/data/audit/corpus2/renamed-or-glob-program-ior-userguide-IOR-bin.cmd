IOR/bin/IOR -f script
