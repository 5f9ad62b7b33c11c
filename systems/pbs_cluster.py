'''pbs_cluster: example facility system scheduled by PBS Pro, launched by
Open MPI's mpirun.

Node-local NVMe and a GPFS (IBM Storage Scale) scratch.  Same conventions as
slurm_cluster.py: a partition names nodes and the storage target, ceilings are
physical limits seen from one node, and jobs run one at a time on whole nodes.
'''

_compute = {
    'scheduler': 'pbs',
    'launcher': 'mpirun',
    'environs': ['spack'],
    'max_jobs': 1,
}

system = {
    'name': 'pbs_cluster',
    'descr': 'Example PBS Pro cluster with Open MPI: node-local NVMe and GPFS',
    'hostnames': [r'^pc-(login|cn)\d+'],
    'modules_system': 'nomod',
    'partitions': [
        {
            **_compute,
            'name': 'nvme',
            'descr': ('Compute nodes, node-local NVMe '
                      '(3.84 TB, 3500 MB/s write)'),
            'access': ['-q workq', '-l place=excl'],
            'features': ['nvme', 'network'],
            'extras': {
                'scratch': '/local/scratch/$USER/microbench',
                'mpi': 'openmpi',
                'fabric': {'provider': 'verbs', 'domain': 'mlx5_0',
                           'address_suffix': '-ib'},
                'ceilings': {
                    'storage_write_mib_s': 3338,
                    'storage_read_mib_s': 6485,
                    # One HDR100 link: 100 Gb/s
                    'network_bandwidth_mib_s': 11921,
                },
                'floors': {
                    # Below these, two ranks met in shared memory, not on
                    # the wire
                    'network_latency_us': 0.5,
                    'network_rtt_us': 1.0,
                },
            },
        },
        {
            **_compute,
            'name': 'gpfs',
            'descr': 'Compute nodes, GPFS scratch over HDR100 InfiniBand',
            'access': ['-q workq', '-l place=excl'],
            'features': ['gpfs', 'pfs'],
            'extras': {
                'mpi': 'openmpi',
                'scratch': '/gpfs/scratch/$USER/microbench',
                'ceilings': {
                    'storage_write_mib_s': 11921,
                    'storage_read_mib_s': 11921,
                },
                # The file system behind the clients (the vendor's
                # figures): ior_scaling's peak is a share of its aggregate
                # bandwidth, its saturation point held against n x t =
                # k x d (microbench/tools/ior/assess.py)
                'storage_target': {
                    'drives': {'count': 46, 'type': 'ssd'},
                    'aggregate_write_mib_s': 38031,
                    'aggregate_read_mib_s': 40960,
                },
            },
        },
    ]
}
