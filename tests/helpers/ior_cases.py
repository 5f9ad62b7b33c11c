'''What the IOR validation tests share (tests/tools/test_ior_asked.py,
tests/tools/test_ior_consistency.py, tests/tools/test_ior_stdout.py): the real
IOR 4.0.0 pairs, what each run was asked, the two paths that read a pair, and
the assertion that every path rejects a mutated one.

Real IOR 4.0.0 outputs, each a pair as a rounds job keeps a sample: the
summary file (``ior.json``) and standard output (``ior.out``)
(tests/data/ior/README.md: the exact command of every run).  Every
mutation is built from a real output and read on both paths: the
parsers (:func:`~microbench.tools.ior.parse_summary`,
:func:`~microbench.tools.ior.parse_stdout`,
:func:`~microbench.tools.ior.check_stdout`) and a kept sample
(:func:`~microbench.tools.ior.read_sample` through
:func:`microbench.suite.samples.read_runs`), told what the run was asked
(:func:`~microbench.tools.ior.asked_of` of its saved command line).  Every
example is tallied where ``VALIDATION_TALLY`` names a file
(tests/helpers/classes.py).
'''

import functools
import json
import os
import shlex
import tempfile
import time

import pytest

from classes import record
from fixtures import command as saved_command, text
from microbench.suite import samples
from microbench.suite.output import OutputError
from microbench.tools import ior

#: Pairs whose saved command line is the exact one (the parsers are told
#: what it asked)
EXACT = ('ior/easy-reorder-fsync', 'ior/hard-none', 'ior/easy-i3',
         'ior/scaling-n1-t1', 'ior/slurm-n2-t2')
#: Older pairs whose saved command was abbreviated: read without what was
#: asked (tests/data/README.md)
OLDER = ('ior/easy-stonewalled', 'ior/easy-ended-before-stonewall')
PAIRS = EXACT + OLDER

VARIANT = 'v'


def summary_of(name):
    return text(f'{name}.summary.json')


def stdout_of(name):
    return text(f'{name}.stdout.txt')


def launch(name):
    '''(nodes, tasks per node, IOR's argv) of a pair's saved command.'''
    words = shlex.split(saved_command(f'{name}.summary.json'))
    if words[0] == 'mpirun':                    # mpirun -np N ior ...
        return 1, int(words[2]), words[3:]

    options = dict(w[2:].split('=') for w in words[1:4])   # srun --nodes=
    return int(options['nodes']), int(options['ntasks-per-node']), words[4:]


def asked(name):
    '''What the run of pair ``name`` was asked, or None (older pairs).'''
    if name not in EXACT:
        return None

    nodes, per_node, argv = launch(name)
    return ior.asked_of(argv, nodes, per_node)


def figures(summary):
    '''The real figures: every phase's bwMeanMIB of the summary.'''
    data = json.loads(summary)
    return {e['operation']: e['bwMeanMIB'] for e in data['summary']}


# --- The two paths -----------------------------------------------------------

def by_parsers(summary, stdout, told, stderr=''):
    run = ior.parse_summary(summary, asked=told)
    ior.check_stdout(ior.parse_stdout(stdout), run)
    return run.figures


def by_sample(summary, stdout, told, stderr=''):
    with tempfile.TemporaryDirectory() as directory:
        for name, content in (('ior.json', summary), ('ior.out', stdout),
                              ('stderr.txt', stderr)):
            path = os.path.join(directory,
                                samples.kept_name(name, VARIANT, 1))
            with open(path, 'wb') as fp:
                fp.write(content if isinstance(content, bytes)
                         else content.encode())

        runs = samples.read_runs(directory, VARIANT, 1, functools.partial(
            ior.read_sample, asked=told))
        return runs[0].figures


PATHS = {'parse': by_parsers, 'sample': by_sample}


def assert_rejected(klass, name, how, summary, stdout, told, says,
                    stderr='', paths=PATHS):
    '''Every path rejects the mutated pair with a message that holds every
    word of ``says``.'''
    for path in paths:
        start = time.perf_counter()
        try:
            got = PATHS[path](summary, stdout, told, stderr)
        except OutputError as err:
            record(klass, name, path, True, time.perf_counter() - start)
            message = str(err)
            missing = [w for w in says if w not in message]
            assert not missing, (f'{name}, {how}, {path}: the message '
                                 f'{message!r} does not say {missing}')
            continue

        record(klass, name, path, False, time.perf_counter() - start)
        pytest.fail(f'{name}, {how}: {path} gave {got!r}')


# --- Mutations ---------------------------------------------------------------

def another(value):
    if isinstance(value, bool):
        return not value

    return value * 2 if value > 1 else value + 1


def edited(summary, change):
    data = json.loads(summary)
    change(data)
    return json.dumps(data, indent=2) + '\n'
