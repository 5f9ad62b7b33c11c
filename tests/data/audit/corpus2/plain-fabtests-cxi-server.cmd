./fabtests/benchmarks/fi_rdm_tagged_pingpong -B 10 -s cxi0
