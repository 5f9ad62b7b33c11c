'''One batch of ``microbench ab``: ReFrame run as a subprocess (as ``microbench
confirm`` runs it), its session read back from the A/B's own results
storage.

A batch is one ReFrame session: the checks' rounds fixtures each run one
job holding both stacks (``-S stacks=...``), ``pairs`` rounds of each side
in the order A B B A ...; each variant and gap check is a test of each
side (``-P stack=A,B``).  Its session is tagged ``--session-extras
kind=ab,ab=<id>,batch=<n>`` and stored in the storage the runner names
(``RFM_SQLITE_DB_FILE``), its perflogs, stage and output directories below
the A/B's work folder: nothing of it goes to the nightly history.
:func:`read` turns a stored session into what the sequential rule judges:
per figure, each side's samples in the order its rounds ran.
'''

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import time

from microbench import paths, sides
from microbench.cause import sequential
from microbench.verdicts import figures, storage

#: What an A/B session's extras say (``--session-extras``)
KIND = 'ab'


class RunError(Exception):
    '''ReFrame could not run a batch, or its session is not one to read
    (one line).'''


def reframe():
    '''The ``reframe`` of this Python's environment, else of PATH.'''
    beside = os.path.join(os.path.dirname(sys.executable), 'reframe')
    found = beside if os.access(beside, os.X_OK) else shutil.which(
        'reframe')
    if not found:
        raise RunError('no reframe command beside this Python nor on PATH')
    return found


def environment(db):
    '''The environment of a batch: the A/B's storage, the suite's
    configuration unless one is given.'''
    return dict(os.environ, RFM_SQLITE_DB_FILE=db,
                RFM_CONFIG_FILES=os.environ.get('RFM_CONFIG_FILES')
                or paths.CONFIG)


def command(pattern, fixtures, spec, pairs, where, options, extras=None,
            dry_run=False):
    '''The ReFrame command of a batch of ``pairs`` rounds of each side,
    the stacks ``spec`` given to each rounds fixture of ``fixtures``, its
    stage, output, perflogs and report below ``where``; ``options``: the
    user's (``--system``, ``--mode``, ``-S``, ``-J``).'''
    run = ['--dry-run'] if dry_run else ['-r']
    tags = (['--session-extras', ','.join(f'{key}={value}' for key, value
                                          in extras.items())]
            if extras else [])
    return [reframe(), '-c', paths.CHECKS, '-n', pattern, *run,
            '--prefix', where, '--perflogdir',
            os.path.join(os.path.dirname(where), 'perflogs'),
            '--report-file', os.path.join(where, 'report.json'),
            '-P', f'stack={",".join(sides.SIDES)}',
            *(word for fixture in fixtures
              for word in ('-S', f'{fixture}.stacks={spec}')),
            '-S', f'samples={pairs}', *options, *tags]


def launch(cmd, env, quiet=False):
    '''Run ``cmd``: (exit status, minutes, its output if ``quiet``, else
    on this console).'''
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, env=env, text=True,
                              capture_output=quiet)
    except OSError as err:
        raise RunError(f'{cmd[0]} cannot be run: {err.strerror or err}') \
            from None
    return (proc.returncode, (time.monotonic() - start) / 60,
            (proc.stdout or '') + (proc.stderr or ''))


def report(path):
    '''The run report ReFrame wrote at ``path`` (a dict).'''
    try:
        with open(path, encoding='utf-8') as fp:
            found = json.load(fp)
        found['runs'][-1]['testcases']
    except FileNotFoundError:
        raise RunError(f'{path}: ReFrame wrote no run report (see its '
                       f'output)') from None
    except (OSError, ValueError, KeyError, IndexError, TypeError) as err:
        raise RunError(f'{path}: not a ReFrame run report '
                       f'({type(err).__name__}: {err})') from None
    return found


def first_line(text):
    '''The first line of a ReFrame failure reason, at most 300
    characters.'''
    return (str(text or '').strip().splitlines() or [''])[0][:300]


def refused(found):
    '''Why a dry run's tests cannot run (its first failure), or ''.'''
    for case in found['runs'][-1]['testcases']:
        if case.get('result') == 'fail' and case.get('fail_reason'):
            return f'{case["display_name"]}: {first_line(case["fail_reason"])}'
    return ''


@dataclasses.dataclass
class Batch:
    '''What one batch gave: its number, the pairs of rounds of each side
    it ran, its session, ``samples`` ({figure key: {side: [samples]}}),
    where and in which jobs it ran, the tool versions of each side, what
    failed, how long it took and ReFrame's exit status.'''

    number: int
    pairs: int
    session: str = ''
    samples: dict = dataclasses.field(default_factory=dict)
    nodes: list = dataclasses.field(default_factory=list)
    jobs: list = dataclasses.field(default_factory=list)
    scheduler: str = ''
    system: str = ''
    partition: str = ''
    tools: dict = dataclasses.field(default_factory=dict)
    failures: list = dataclasses.field(default_factory=list)
    minutes: float = 0.0
    status: int = 0
    #: the nodes of each rounds job, in the order they ran
    placements: list = dataclasses.field(default_factory=list)

    def summary(self):
        '''The batch as the A/B JSON keeps it (``batches[]``).'''
        return {'batch': self.number, 'pairs': self.pairs,
                'session': self.session, 'nodes': self.nodes,
                'jobs': self.jobs, 'minutes': round(self.minutes, 2),
                'reframe_exit': self.status, 'failures': self.failures}


def _unit(case, figure):
    for key, value in (case.get('perfvalues') or {}).items():
        if key.split(':')[-1] == figure and isinstance(value, list) \
                and len(value) > 4:
            return str(value[4])
    return None


def _fixture(case, batch):
    '''Where a rounds job ran: its nodes and job id (the workload
    manager's, else ReFrame's id of a local job).'''
    mine = [node for node in str(case.get('node') or '').split(',')
            if node]
    batch.placements.append(tuple(sorted(mine)))
    for node in mine:
        if node not in batch.nodes:
            batch.nodes.append(node)
    job = str(case.get('job_id') or '')
    if not job and case.get('jobid'):
        job = f'{case.get("scheduler", "local")} {case["jobid"]}'
    if job and job not in batch.jobs:
        batch.jobs.append(job)
    batch.scheduler = str(case.get('scheduler') or batch.scheduler)


def _figures(case, label, batch):
    check = str(case['display_name']).split()[0]
    variant = str(case.get('variant') or '')
    for figure, values in figures.parse_samples(
            case.get('figure_samples')).items():
        unit = _unit(case, figure)
        if unit is None:
            continue
        key = (check, variant, figure, unit, sequential.direction(unit))
        batch.samples.setdefault(key, {})[label] = list(values)


def read(session, batch):
    '''Fill ``batch`` from a stored ``session`` (a ReFrame report).

    :raises RunError: it is not one (one line).'''
    try:
        _read(session, batch)
    except (KeyError, TypeError, AttributeError, IndexError,
            ValueError) as err:
        raise RunError(f'session {batch.session or "?"} of batch '
                       f'{batch.number} is not a ReFrame report '
                       f'({type(err).__name__}: {str(err)[:200]})') \
            from None
    return batch


def _read(session, batch):
    cases = session['runs'][-1]['testcases']
    batch.session = str(session['session_info'].get('uuid', ''))
    for case in cases:
        if case.get('fixture'):
            _fixture(case, batch)
            continue
        label = sides.label_of(case.get('stack'))
        if not label:
            continue
        batch.system = str(case.get('system') or batch.system)
        batch.partition = str(case.get('partition') or batch.partition)
        if case.get('result') == 'skip':
            batch.failures.append(f'{case["display_name"]}: skipped '
                                  f'(ReFrame\'s output says why)')
            continue
        if case.get('result') not in ('pass', 'fail'):
            continue
        if case.get('result') == 'fail' and case.get('fail_phase') != \
                'performance':
            batch.failures.append(f'{case["display_name"]}: '
                                  f'{first_line(case.get("fail_reason"))}')
            continue
        if case.get('stack') == label:
            # a check that reads no side of the job (its record names
            # none): its figures are not of one stack
            batch.failures.append(f'{case["display_name"]}: reads no side '
                                  f'of the A/B job: left out')
            continue
        tool = str(case.get('tool') or '')
        if tool:
            batch.tools.setdefault(label, {})[tool] = str(
                case.get('tool_version') or '')
        _figures(case, label, batch)


def stored(db, report_path):
    '''The session of the run report at ``report_path`` as the storage
    ``db`` holds it (decoded).

    :raises RunError: it is not there.'''
    try:
        uuid = report(report_path)['session_info']['uuid']
        blob, _ = storage.session(db, uuid)
        return json.loads(blob)
    except (storage.ResultsError, KeyError, TypeError, ValueError) as err:
        raise RunError(f'the session of {report_path} is not in the '
                       f'results storage {db}: {err}') from None


def series(batches):
    '''``{figure key: rounds}`` of every figure of ``batches``, the rounds
    in time order across them: ``(round index, side, samples)``, a round
    without a sample of the figure (its check failed or was skipped on
    that side) with no samples.'''
    keys = list(dict.fromkeys(key for batch in batches
                              for key in batch.samples))
    out = {key: [] for key in keys}
    first = 1
    for batch in batches:
        where = sides.indices(batch.pairs, first)
        for key in keys:
            found = batch.samples.get(key, {})
            for label in sides.SIDES:
                values = found.get(label, [])
                if len(values) != batch.pairs:
                    values = [None] * batch.pairs
                out[key] += [(index, label, [] if value is None
                              else [value])
                             for index, value in zip(where[label], values)]
        first += 2 * batch.pairs
    return {key: sorted(rounds) for key, rounds in out.items()}
