'''slurm_cluster: example facility system scheduled by Slurm, launched by srun.

Modelled on a Summit-class node: a node-local NVMe drive and a Lustre
scratch file system; and GPU nodes (4 NVIDIA A100 each, the ``gpu`` feature)
on the same Lustre scratch, where IOR also measures its buffers in GPU
memory (ior_gpu_buffer: their Spack environment builds ``ior+cuda``).
A partition is a set of nodes *and* the storage target the I/O checks write
to (``extras.scratch``), so the same nodes appear twice;
the network checks run once, on the partition with the ``network`` feature,
and the multi-node storage checks (IOR, mdtest: a task reads what another
node wrote) where the scratch is shared, the ``pfs`` feature.
``extras.ceilings`` are physical limits of that target as seen from one node
(device datasheet, NIC line rate): a storage figure above one is a cache effect
or a broken measurement, never a fast system.  Jobs run one at a time on whole
nodes, so no benchmark shares a device, a NIC or a file system client.
'''

_compute = {
    'scheduler': 'slurm',
    'launcher': 'srun',
    'environs': ['spack'],
    'max_jobs': 1,
}

system = {
    'name': 'slurm_cluster',
    'descr': 'Example Slurm cluster: node-local NVMe and a Lustre scratch',
    'hostnames': [r'^sc-(login|nid)\d+'],
    'modules_system': 'nomod',
    'partitions': [
        {
            **_compute,
            'name': 'nvme',
            'descr': ('Compute nodes, node-local NVMe '
                      '(1.6 TB, 2000 MB/s write)'),
            'access': ['--partition=compute', '--exclusive'],
            'features': ['nvme', 'network'],
            'extras': {
                'scratch': '/mnt/nvme/$USER/microbench',
                # fabtests over verbs: rdma_cm addresses are the IPoIB names
                'fabric': {'provider': 'verbs', 'domain': 'mlx5_0',
                           'address_suffix': '-ib'},
                'ceilings': {
                    'storage_write_mib_s': 1907,
                    'storage_read_mib_s': 5722,
                    # One EDR link: 100 Gb/s
                    'network_bandwidth_mib_s': 11921,
                },
                'floors': {
                    # Below these, two ranks met in shared memory, not on
                    # the wire (EDR with a switch hop: about 1 us one way)
                    'network_latency_us': 0.5,
                    'network_rtt_us': 1.0,
                },
            },
        },
        {
            **_compute,
            'name': 'lustre',
            'descr': 'Compute nodes, Lustre scratch over EDR InfiniBand',
            'access': ['--partition=compute', '--exclusive'],
            'features': ['lustre', 'pfs'],
            'extras': {
                'scratch': '/lustre/scratch/$USER/microbench',
                # The OSTs are ZFS with compression=lz4: compressible
                # writes are stored in a fraction of their size
                # (fio_data_reduction checks its gap's direction here)
                'reduces_data': ['compression'],
                # Lustre's Persistent Client Cache on each node's NVMe
                # drive (1.6 TB): a read of less data may come from it
                # (every storage figure records its data over it)
                'client_cache': '1490GiB',
                'ceilings': {
                    # One EDR link (100 Gb/s) caps what one client moves
                    'storage_write_mib_s': 11921,
                    'storage_read_mib_s': 11921,
                },
            },
        },
        {
            **_compute,
            'name': 'gpu',
            'descr': ('GPU nodes (4 NVIDIA A100 each), Lustre scratch over '
                      'EDR InfiniBand'),
            # Whole nodes with all their GPUs: IOR's GPU buffers
            # (ior_gpu_buffer) put each task's on a GPU of its own
            'access': ['--partition=gpu', '--exclusive', '--gres=gpu:4'],
            'features': ['gpu', 'lustre', 'pfs'],
            'extras': {
                'scratch': '/lustre/scratch/$USER/microbench',
                # IOR 4.0.0 calls cudaSetDevice(0) in every task (-O GPUid
                # is one value for all): srun gives each task of a node a
                # GPU of its own, seen as device 0
                'gpu_bind': ['--gpu-bind=map_gpu:0,1,2,3'],
                # The same Lustre scratch: ZFS OSTs with compression=lz4
                'reduces_data': ['compression'],
                'ceilings': {
                    # One EDR link (100 Gb/s) caps what one client moves
                    'storage_write_mib_s': 11921,
                    'storage_read_mib_s': 11921,
                },
            },
        },
    ]
}
