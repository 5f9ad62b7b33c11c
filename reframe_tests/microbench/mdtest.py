'''mdtest: command lines, output parser, and the base classes of mdtest
checks.

Every sample is one mdtest run (files only, ``-F``) in a directory below the
scratch directory; its rates are the "SUMMARY rate" table (operations per
second, mean over the run's one iteration).  An error is an ``ERROR`` line,
whatever the exit code (mdtest goes on through thousands of warnings first).
'''

import os
import re
from dataclasses import dataclass

from reframe.core.builtins import variable
from reframe.core.exceptions import SanityError

from microbench.checks import SCRATCH, SHARED_SCRATCH, VariantCheck
from microbench.ior import MpiRounds, errors

_LAUNCHED = re.compile(r'^mdtest-(?P<version>\S+) was launched with '
                       r'(?P<tasks>\d+) total task\(s\) on (?P<nodes>\d+) '
                       r'node\(s\)', re.M)
_ROW = re.compile(r'^\s+(?P<op>(File|Directory|Tree) \w+)\s+(?P<max>[\d.]+)'
                  r'\s+(?P<min>[\d.]+)\s+(?P<mean>[\d.]+)\s+[\d.]+\s*$', re.M)

#: mdtest's operation names -> the suite's figure names
OPERATIONS = {'File creation': 'create', 'File stat': 'stat',
              'File read': 'read', 'File removal': 'remove'}


class MdtestOutputError(ValueError):
    '''mdtest's output cannot be trusted; the message says why.'''


@dataclass(frozen=True)
class MdtestRun:
    '''One mdtest run, as it printed it.'''

    version: str
    tasks: int
    nodes: int
    #: figure name (create, stat, read, remove) -> mean rate, ops/s
    rates: dict


def parse(text, source='mdtest output'):
    '''Parse the output of one mdtest run.

    :raises MdtestOutputError: on empty, truncated or error output.
    '''
    if not text.strip():
        raise MdtestOutputError(f'{source} is empty: mdtest printed nothing')

    found = errors(text)
    if found:
        raise MdtestOutputError(f'{source}: mdtest failed: {found[0]}')

    launched = _LAUNCHED.search(text)
    if not launched:
        raise MdtestOutputError(f'{source} has no "mdtest-... was launched" '
                                f'line: not mdtest output')

    summary = text.find('SUMMARY rate')
    if summary < 0 or '-- finished at' not in text[summary:]:
        raise MdtestOutputError(f'{source} has no complete SUMMARY rate '
                                f'table (truncated?)')

    rates = {}
    for row in _ROW.finditer(text[summary:]):
        if row['op'] in OPERATIONS:
            rates[OPERATIONS[row['op']]] = float(row['mean'])

    missing = set(OPERATIONS.values()) - set(rates)
    if missing:
        raise MdtestOutputError(f'{source}: no rate for file '
                                f'{", ".join(sorted(missing))}')

    return MdtestRun(launched['version'], int(launched['tasks']),
                     int(launched['nodes']), rates)


class MdtestRounds(MpiRounds):
    '''mdtest runs of a pitfall, round-robin (a fixture).

    A variant is ``<shape>.<stride>``.  Shapes (IO500's): ``easy``, empty
    files in a directory of every task's own (``-u``); ``hard``, 3901-byte
    files written and read back, all in one shared directory.  Stride:
    ``none`` (each task stats, reads and removes its own files) or ``node``
    (``-N <tasks per node>``: the files another node created, so no client
    cache can answer).
    '''

    tool = 'mdtest'
    programs = ('mdtest',)
    stdout_file = 'mdtest.out'

    #: Directory of the mdtest binary; empty: on PATH.
    #:
    #: :type: :class:`str`
    #: :default: ``''``
    mdtest_bindir = variable(str, value='')

    #: Files every task creates, stats, reads and removes (``-n``).
    #:
    #: :type: :class:`int`
    #: :default: ``10000``
    items = variable(int, value=10000)

    def mdtest(self):
        return os.path.join(self.mdtest_bindir, 'mdtest')

    def tools_needed(self):
        return [self.mdtest()]

    def expected_seconds(self):
        return 600

    def variant_command(self, variant):
        shape, stride = variant.split('.')
        options = ['-F', '-n', str(self.items), '-d', f'{SCRATCH}/mdtest']
        if shape == 'easy':
            options += ['-u']
        else:
            options += ['-w', '3901', '-e', '3901']

        if stride == 'node':
            options += ['-N', str(self.tasks_per_node)]

        return self.ranks(self.mdtest(), *options)

class MdtestVariantCheck(VariantCheck):
    '''One variant of an mdtest pitfall: file create, stat, read and remove
    rates (ops/s), median, min and max over the samples.  Without a stride
    a task stats and reads its own files: those rates come from its client's
    cache.  With a stride but every task on one node, so do they: they are
    then reported as ``stat_cache``/``read_cache``, saying why.'''

    valid_systems = SHARED_SCRATCH
    main_figures = {'mdtest': [('create', 'ops/s'), ('stat', 'ops/s'),
                               ('read', 'ops/s'), ('remove', 'ops/s')]}
    cache_prone = ('stat', 'read')

    def validate_samples(self, recs):
        rounds, runs = self.rounds, []
        for num in range(1, rounds.samples + 1):
            path = os.path.join(rounds.stagedir, rounds.output(
                rounds.stdout_file, self.variant, num))
            try:
                with open(path) as fp:
                    runs.append(parse(fp.read(), f'mdtest output of sample '
                                      f'{num}'))
            except (OSError, MdtestOutputError) as err:
                raise SanityError(str(err)) from None

        for name, _ in self.figure_specs():
            self.record_figure([run.rates[name] for run in runs], name)

        self.tool_version = f'mdtest {runs[0].version}; {rounds.tool_version}'
        strided = self.variant.endswith('.node')
        self.measures = 'storage' if strided else 'client cache'
        if strided and runs[0].nodes == 1:
            self.note = (f'all {runs[0].tasks} tasks ran on one node: the '
                         f'stride (-N) hands a task files the same node '
                         f'created, so stat and read rates come from its '
                         f'client cache')
            self.measures = 'client cache'
            for name in self.cache_prone:
                self.demote_to_cache(name)
