./ior -w -r -o filename
