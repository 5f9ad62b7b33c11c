/data/mytestfile -s 10G -w
