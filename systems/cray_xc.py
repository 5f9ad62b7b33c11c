'''cray_xc: example facility system launched by ALPS (aprun).

Modelled on Theta, the Cray XC40 of the "Keeping It Real" study's CPU binding
case: Knights Landing nodes on an Aries dragonfly (libfabric's ``gni``
provider) and a Lustre scratch.  aprun binds every process to a core unless
told ``--cc none``.  Jobs run one at a time on whole nodes.
'''

system = {
    'name': 'cray_xc',
    'descr': 'Example Cray XC (aprun, Torque): KNL nodes, Aries, Lustre',
    'hostnames': [r'^xc-(login|mom)\d+'],
    'modules_system': 'nomod',
    'partitions': [
        {
            'name': 'compute',
            'descr': 'KNL compute nodes, Lustre scratch over Aries',
            'scheduler': 'torque',
            'launcher': 'alps',
            'access': ['-q default', '-l naccesspolicy=singlejob'],
            'environs': ['spack'],
            'max_jobs': 1,
            'features': ['lustre', 'pfs', 'network'],
            'extras': {
                'scratch': '/lus/scratch/$USER/microbench',
                'fabric': {'provider': 'gni'},
                'ceilings': {
                    # One Aries NIC (about 10 GB/s) caps what a node moves
                    'storage_write_mib_s': 9537,
                    'storage_read_mib_s': 9537,
                    'network_bandwidth_mib_s': 9537,
                },
                'floors': {
                    # Aries: about 1.3 us one way; below these, two ranks
                    # met in shared memory, not on the wire
                    'network_latency_us': 0.8,
                    'network_rtt_us': 1.6,
                },
            },
        },
    ]
}
