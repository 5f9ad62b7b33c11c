'''ReFrame configuration entry point of the suite.

Point ReFrame at this file and every system of this folder is known:

    export RFM_CONFIG_FILES=$PWD/systems/config.py
    reframe -c reframe_tests -r

Each other ``*.py`` file of this folder describes one system: a ``system``
dictionary (ReFrame's ``systems`` entry) and, if it needs any, a list of
``environments``.  This file merges them and adds what every system shares:
logging (perflogs under ``perflogs/``), results storage, the modes, and a
``spack`` programming environment for every partition with a Spack
environment in spack_envs/<system>/<partition> (its view on PATH), and to
every Slurm partition the pending reasons that cancel a job, and to every
partition its measured limits (systems/limits/, microbench/components.py).
Where the user has references of their own (``microbench baseline``,
microbench/references.py), the checks read them laid over the committed ones.
``local.py`` is the embedded default: its hostname pattern matches any machine,
so it is tried last.
'''

import os
import sys

import yaml
from reframe.utility import import_module_from_file

from microbench import components, fields, limitsfile, paths, references

HERE = paths.SYSTEMS
ROOT = paths.ROOT
PERFLOG_DIR = paths.PERFLOGS


def _system_modules():
    names = sorted(n for n in os.listdir(HERE)
                   if n.endswith('.py') and n != 'config.py')
    # The catch-all local system must be matched last
    names.sort(key=lambda n: n == 'local.py')
    return [import_module_from_file(os.path.join(HERE, n)) for n in names]


def _modes():
    '''The suite's modes, from ``reframe_tests/modes.yaml``.'''
    with open(paths.MODES) as fp:
        modes = yaml.safe_load(fp)

    ret = []
    for name, mode in modes.items():
        options = list(mode.get('options', []))
        for var, value in mode.get('set', {}).items():
            options += ['-S', f'{var}={value}']

        ret.append({'name': name, 'options': options})

    return ret


#: One perflog record per figure; '|'-separated with a header line, so
#: ``pandas.read_csv(path, sep="|")`` reads it (tests/helpers/perflog.py); the
#: columns come from the one list of record fields, microbench.fields
PERFLOG_FIELDS = fields.perflog_columns()


def _spack_environments(systems):
    '''A ``spack`` programming environment for every partition that has a
    Spack environment, spack_envs/<system>/<partition>: the benchmark
    directories of its view (spack_envs/view.yaml) go first on PATH, and
    ``extras.spack_env`` names it for the records.'''
    with open(os.path.join(paths.SPACK_ENVS, 'view.yaml')) as fp:
        view_path = yaml.safe_load(fp)['path']

    environments = []
    for system in systems:
        environs = {e for p in system['partitions'] for e in p['environs']}
        if 'spack' in environs:
            # ReFrame wants every environment defined for the system too;
            # the partitions' own definitions below are more specific
            environments.append({'name': 'spack',
                                 'target_systems': [system['name']]})

        for part in system['partitions']:
            env = os.path.join(paths.SPACK_ENVS, system['name'],
                               part['name'])
            if not os.path.exists(os.path.join(env, 'spack.yaml')):
                continue

            view = os.path.join(env, '.spack-env', 'view')
            path = ':'.join(os.path.join(view, d) for d in view_path)
            environments.append({
                'name': 'spack',
                'target_systems': [f'{system["name"]}:{part["name"]}'],
                'env_vars': [['PATH', f'{path}:$PATH']],
                'extras': {'spack_env': env},
            })

    return environments


#: Pending reasons of a Slurm job that waiting does not cure: ReFrame
#: cancels the job and fails the check saying the reason.  Its default is
#: ReqNodeNotAvail alone, and a job over the partition's MaxTime, or whose
#: nodes are all drained (squeue: "Nodes required for job are DOWN, DRAINED
#: or reserved ..."; ReFrame compares what precedes the first comma), would
#: wait for ever (seen on slurm_testbed)
SLURM_CANCEL_REASONS = [
    'Nodes required for job are DOWN',
    'ReqNodeNotAvail', 'PartitionTimeLimit', 'PartitionNodeLimit',
    'PartitionDown', 'PartitionInactive', 'BadConstraints',
    'QOSMaxWallDurationPerJobLimit', 'InvalidAccount', 'InvalidQOS',
]


def _slurm_defaults(systems):
    '''Every Slurm partition cancels the jobs no wait will start, unless
    its system file says otherwise.'''
    for system in systems:
        for part in system['partitions']:
            if part['scheduler'] in ('slurm', 'squeue'):
                part.setdefault('sched_options', {}).setdefault(
                    'slurm_job_cancel_reasons', list(SLURM_CANCEL_REASONS))

    return systems


def _measured_limits(systems):
    '''Every partition's measured limits (systems/limits/<system>.yaml,
    written by ``microbench limits --write``) in its ``extras.measured``
    where they apply, else why not (``{'withheld': reason}``: a local
    partition's only on the machine that measured them); a file or an
    entry that is not one is one line here, and costs only its shares.'''
    here = components.this_machine()
    for system in systems:
        found = limitsfile.load(system['name'])
        for line in found.problems:
            print(f'microbench: warning: {line}', file=sys.stderr)
        for part in system['partitions']:
            measured = components.in_force_here(
                found, part['name'], components.bound(part), here)
            if measured is not None:
                part.setdefault('extras', {})['measured'] = measured

    return systems


_modules = _system_modules()

# A user's own references (microbench baseline on a machine without a
# facility entry), laid over the committed ones.  ReFrame 4.10.4 reads
# ``reference_prefix`` from its command line or environment only (its
# configuration schema lacks it); an explicit RFM_REFERENCE_PREFIX wins.
if (_user_refs := references.merged()):
    os.environ.setdefault('RFM_REFERENCE_PREFIX', _user_refs)
_systems = _measured_limits(_slurm_defaults([m.system for m in _modules]))

site_configuration = {
    'systems': _systems,
    'environments': [*_spack_environments(_systems),
                     *(env for m in _modules
                       for env in getattr(m, 'environments', []))],
    'modes': _modes(),
    'general': [
        {'check_search_path': [paths.CHECKS]},
        *[g for m in _modules for g in getattr(m, 'general', [])],
    ],
    'storage': [
        {
            # Results storage, for --performance-compare across nights;
            # RFM_SQLITE_DB_FILE moves it (ci/ keeps it between runs)
            'enable': True,
            'sqlite_db_file': os.path.join(PERFLOG_DIR, 'results.db'),
        }
    ],
    'logging': [
        {
            # One perflog row per figure (long format)
            'perflog_multiline': True,
            'handlers': [
                {
                    'type': 'stream',
                    'name': 'stdout',
                    'level': 'info',
                    'format': '%(message)s'
                }
            ],
            'handlers_perflog': [
                {
                    'type': 'filelog',
                    'prefix': '%(check_system)s/%(check_partition)s',
                    'basedir': PERFLOG_DIR,
                    'level': 'info',
                    'format': '|'.join(f'%({f})s' for f in PERFLOG_FIELDS),
                    'datefmt': '%FT%T%:z',
                    'append': True
                }
            ]
        }
    ]
}
