'''local: the embedded default, any machine no other system matches.

One partition on the local scheduler.  Benchmarks run one at a time
(``max_jobs: 1``): ReFrame's default asynchronous policy would otherwise start
several I/O checks side by side and each would poison the other's figures.
The scratch directory defaults to the test's stage directory (``-S
scratch_dir=PATH`` moves it).  No fixed references: every machine differs, so
only the direction of each pitfall's gap is checked here.
'''

system = {
    'name': 'local',
    'descr': 'Any machine not matched by another system (embedded default)',
    'hostnames': ['.*'],
    'modules_system': 'nomod',
    'partitions': [
        {
            'name': 'default',
            'descr': 'This machine, local scheduler, one benchmark at a time',
            'scheduler': 'local',
            'launcher': 'local',
            'environs': ['builtin'],
            'max_jobs': 1,
            # One node: the network checks run over loopback, both sides
            # here; the scratch is shared by every node of a job (there is
            # one); a Lustre client may be mounted (the striping checks skip
            # without lfs)
            'features': ['network', 'pfs', 'lustre'],
        }
    ]
}

general = [
    {
        # Notice finished local jobs within 0.5 s: benchmarks are short here
        'target_systems': ['local'],
        'poll_rate_min': 2,
        'poll_rate_max': 10,
    }
]
