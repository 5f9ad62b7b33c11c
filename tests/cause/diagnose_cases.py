'''Nights, stacks and events for the tests of ``microbench diagnose``, made
from a real recorded night: a quick session of ``fio_cache_flags`` on the
development VM, its fio from the view of the Spack environment of the
planted-a lock (tests/data/diagnose/night-planted-a.json: every test case
records ``tool_path`` and ``spack_lock``).

A stack here is a Spack environment folder made in a temporary directory:
a committed real lock (tests/data/spack/planted-a or planted-b: the very
locks of the development VM's stacks) and a view whose ``bin/fio`` leads
to a program of this machine (the tests that run nothing never run it).
A history's nights are the recorded one as tests/helpers/nights.py makes
them (a new UUID and date, every sample times the night's drift), each
night's records naming the stack it ran (a mutation of the real record's
two fields), the O_DIRECT write figure times ``factor`` from night
``change`` on.
'''

import copy
import hashlib
import json
import os
import shutil
import subprocess
import sys

import numpy as np

from microbench import spack
from microbench.verdicts import compare, figures, storage

from fixtures import path
from nights import MICROBENCH, night

#: The recorded night
NIGHT = 'diagnose/night-planted-a.json'

#: The locks of the two stacks (committed copies of the development VM's)
LOCKS = {'planted-a': path('spack/planted-a/spack.lock'),
         'planted-b': path('spack/planted-b/spack.lock')}

#: The night a change begins, and the history's length (14 nights before
#: it: the nightly verdict's least history)
CHANGE = 16
NIGHTS = CHANGE + 1

#: The figure the change moves
WATCHED = ('fio_cache_flags', 'direct', 'write_median_mib_s')


def recorded():
    with open(path(NIGHT)) as fp:
        return json.load(fp)


def digest(lock):
    with open(LOCKS[lock], 'rb') as fp:
        return hashlib.sha256(fp.read()).hexdigest()


def make_stack(root, lock, program=None, name=None):
    '''A Spack environment folder under ``root`` holding the lock
    ``lock`` (of :data:`LOCKS`), its view's ``bin/fio`` a link to
    ``program`` (default: this Python, any program that is there); its
    path.'''
    folder = os.path.join(root, name or f'{lock}-{digest(lock)[:12]}')
    bindir = os.path.join(folder, '.spack-env', 'view', 'bin')
    os.makedirs(bindir, exist_ok=True)
    shutil.copy(LOCKS[lock], os.path.join(folder, 'spack.lock'))
    target = os.path.join(bindir, 'fio')
    if not os.path.lexists(target):
        os.symlink(os.path.realpath(program or sys.executable), target)
    return folder


def fio_of(env):
    '''The record ``tool_path`` of a night whose fio came from ``env``.'''
    found = os.path.join(env, '.spack-env', 'view', 'bin', 'fio')
    return f'{found}{spack.LEADS}{os.path.realpath(found)}'


def with_stack(report, tool_path, lock):
    '''``report`` (a copy) whose records name the stack: every test case
    that records a program gets ``tool_path`` and ``spack_lock``.'''
    out = copy.deepcopy(report)
    for case in out['runs'][-1]['testcases']:
        if case.get('tool_path'):
            case['tool_path'], case['spack_lock'] = tool_path, lock
    return out


def is_watched(case):
    return (case['display_name'].split()[0], case.get('variant')) == \
        WATCHED[:2]


def history(stack_of, factor=0.5, change=CHANGE, count=NIGHTS, seed=0):
    '''``count`` nights, night ``i``'s records naming the stack
    ``stack_of(i)`` ((tool_path, lock)), the watched figure times
    ``factor`` from night ``change`` on.'''
    rng, source = np.random.default_rng(seed), recorded()
    out = []
    for index in range(count):
        def scale(case, index=index):
            return factor if index >= change and is_watched(case) else 1.0
        tool_path, lock = stack_of(index)
        out.append(with_stack(night(source, index, rng, scale=scale),
                              tool_path, lock))
    return out


def judged(reports):
    '''The compare JSON document of the last night of ``reports`` (no
    acknowledgement in force).'''
    doc, _, _ = compare.last(figures.frame(reports), found=[])
    return doc


def session(report):
    return report['session_info']['uuid']


#: A real A/B JSON: fio_cache_flags on apt's fio 3.33 (A) and a Spack
#: environment's fio 3.42 (B) on the development VM
AB = 'ab/fio_cache_flags-ab-342.json'


def diagnosis_of(verdicts_path):
    '''The diagnosis document of the (one) event of the compare JSON at
    ``verdicts_path``, its members classed against the real A/B
    :data:`AB` (as microbench diagnose classes them after its A/B).'''
    from microbench.cause import ab_json, diagnose, diagnosis_json
    from microbench.verdicts import compare_json

    verdicts = compare_json.read(verdicts_path)
    event, = verdicts.events
    found = ab_json.read(path(AB))
    rows = diagnose.classified(event, diagnose.levels(verdicts), found)
    cause, why = diagnose.cause_of(rows)
    stack = {'night': session_of(verdicts), 'env': None, 'lock_hash': None,
             'tools': {'fio': {'path': '/usr/bin/fio',
                               'real': '/usr/bin/fio',
                               'version': 'fio-3.33'}}}
    return diagnosis_json.document(
        event=event['fingerprint'], system=event['system'],
        partition=event['partition'], night=event['night'],
        date='2026-11-27T17:00:00+00:00', minutes=7.5,
        verdicts={'path': verdicts_path, 'session': verdicts.session,
                  'kind': verdicts.kind},
        cause=cause, why=why, aa=False,
        stacks={'A': {**stack, 'name': 'night-before', 'text': 'fio=/usr/bin'},
                'B': {**stack, 'name': 'tonight', 'text': 'fio=/usr/bin'}},
        checks=['fio_cache_flags'], left_out=[],
        ab={'id': found.doc.get('id'), 'path': path(AB), 'mode': found.mode,
            'pairs_run': found.pairs_run, 'minutes': 7.7,
            'nodes': found.nodes, 'jobs': found.jobs},
        figures=rows)


def session_of(verdicts):
    return verdicts.session


def bed_of(root, same=False, stack=None):
    '''(results storage, compare JSON, stacks) of a history whose last
    night ran planted-b (planted-a where ``same``; every night ``stack``,
    a (tool_path, lock), where given).'''
    stacks = {lock: make_stack(os.path.join(root, 'stacks'), lock)
              for lock in ('planted-a', 'planted-b')}
    last = 'planted-a' if same else 'planted-b'

    def stack_of(index):
        if stack:
            return stack
        lock = 'planted-a' if index < CHANGE else last
        return fio_of(stacks[lock]), digest(lock)

    db = os.path.join(root, 'results.db')
    for report in history(stack_of):
        storage.store(db, report)
    verdicts = os.path.join(root, 'compare.json')
    proc = subprocess.run([MICROBENCH, '--db', db, 'compare', '--last',
                           '--json', verdicts], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return db, verdicts, stacks
