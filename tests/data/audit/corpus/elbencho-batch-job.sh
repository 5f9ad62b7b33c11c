# Build elbencho compatible list of hostnames
# (Comma-separation instead newline not required, but looks nicer.)
HOSTNAMES=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | tr "\n" ",")

# Start service on all nodes
srun elbencho --service --foreground &

# Run benchmark

echo "Starting benchmark... ($(date))"

elbencho --hosts "$HOSTNAMES" --svcwait 10 --resfile elbencho-result.txt -w -s 10g -b 1m -t 4 --direct /mnt/shared/testfile

echo "Benchmark finished. ($(date))"

# Here we could either submit more benchmarks to the running service
# instances or decide that we're done and quit the services.

# Quit services
elbencho --quit --hosts "$HOSTNAMES"
