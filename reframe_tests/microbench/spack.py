'''Which Spack build of a benchmark ran: read from the environment's lock.

A facility partition's programming environment names its Spack environment
(``extras.spack_env``, a folder of spack_envs/ with a committed
``spack.lock``) and puts the environment's view on PATH.  Every record then
names that environment and, for each benchmark program the check launched,
the concrete spec of its package in the lock: ``fio@3.33/dg5srdk``.  Without
a Spack environment (the local default, ReFrame's generic system) the
benchmarks come from the system: both say ``system``.
'''

import hashlib
import json
import os

import yaml

from microbench import paths

ENVS_DIR = paths.SPACK_ENVS

#: What a record says without a Spack environment
SYSTEM = 'system'

#: What joins a program's path and where its links lead in a ``found``
#: record and the ``tool_path`` field
LEADS = ' -> '

#: The most of a spack.lock hashed (a facility lock is a few MiB)
LOCK_CAP = 64 << 20


def packages(programs):
    '''The Spack packages of benchmark programs (spack_envs/tools.yaml).'''
    with open(os.path.join(ENVS_DIR, 'tools.yaml')) as fp:
        tools = yaml.safe_load(fp)

    return sorted({tools[program] for program in programs})


def lock_specs(text):
    '''``{hash: (name, version)}`` of the concrete specs of a spack.lock's
    text (or bytes).

    :raises ValueError: not JSON, or not a lock's shape.'''
    lock = json.loads(text)
    specs = lock.get('concrete_specs') if isinstance(lock, dict) else None
    if not isinstance(specs, dict):
        raise ValueError('not a spack.lock: no concrete_specs')
    try:
        return {spec['hash']: (spec['name'], spec['version'])
                for spec in specs.values()}
    except (KeyError, TypeError) as err:
        raise ValueError(f'a spec of the lock without {err}') from None


def concrete(specs, package):
    '''``package@version/hash`` (7 characters) of ``package`` in a lock's
    :func:`lock_specs`, or ``package: not in the lock``.'''
    for digest, (name, version) in specs.items():
        if name == package:
            return f'{package}@{version}/{digest[:7]}'

    return f'{package}: not in the lock'


def record(env_dir, programs):
    '''(environment, concrete specs) of the programs a check launched, in
    the Spack environment folder ``env_dir`` (None: the system's).'''
    if not env_dir:
        return SYSTEM, SYSTEM

    name = os.path.relpath(env_dir, ENVS_DIR)
    try:
        with open(os.path.join(env_dir, 'spack.lock')) as fp:
            specs = lock_specs(fp.read())
    except (OSError, ValueError) as err:
        return name, f'no usable spack.lock: {err}'

    return name, ' '.join(concrete(specs, p) for p in packages(programs))


def environment_of(path):
    '''The Spack environment folder whose view holds ``path`` (a
    ``<env>/.spack-env/view/bin/fio``), or None.'''
    parts = os.path.normpath(path).split(os.sep)
    if '.spack-env' not in parts:
        return None
    return os.sep.join(parts[:parts.index('.spack-env')]) or os.sep


def lock_digest(env_dir):
    '''The sha256 of ``<env_dir>/spack.lock``, or '' where there is none
    to read (nor one read past :data:`LOCK_CAP`).'''
    if not env_dir:
        return ''
    try:
        with open(os.path.join(env_dir, 'spack.lock'), 'rb') as fp:
            text = fp.read(LOCK_CAP + 1)
    except OSError:
        return ''
    if len(text) > LOCK_CAP:
        return ''
    return hashlib.sha256(text).hexdigest()


def found(records, programs, env_dir=None):
    '''(tool_path, spack_lock) of the first of ``programs`` among a job's
    ``found`` records (``<path> -> <real path>``: where the job found each
    program it needs): the program as found and where its links lead (one
    path where they are the same), and the sha256 of the lock of the Spack
    environment whose view holds it, else of ``env_dir`` (the partition's
    ``spack_env``).  ('', '') where the job recorded none of them (a job of
    an older suite).'''
    names = [os.path.basename(program) for program in programs]
    by_name = {}
    for line in records:
        path, _, real = line.partition(LEADS)
        by_name.setdefault(os.path.basename(path.strip()),
                           (path.strip(), real.strip()))
    for name in names:
        if name in by_name:
            path, real = by_name[name]
            shown = path if not real or real == path else \
                f'{path}{LEADS}{real}'
            return shown, lock_digest(environment_of(path) or env_dir)
    return '', ''
