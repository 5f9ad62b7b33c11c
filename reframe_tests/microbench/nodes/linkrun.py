'''A run of the link search (:mod:`microbench.nodes.links`) for real:
every link of the run measured at once by libfabric's ``fi_pingpong``
between its two nodes, under Slurm, one answer for the run.

One ``srun`` a run, one task on each of its nodes
(``suite/linkrun.sh``): a node starts an ``fi_pingpong`` server for each
link whose second node it is (on a port of its own: ``--port`` and the
link's place in the run), a client for each link whose first node it is,
to the server's node name (as the node resolves it), every ping-pong of
the run at once.  Each link's client and server output is read by
:mod:`microbench.tools.fabtests.pingpong`, held to the size and the
iterations asked.  The run's answer is one figure (:func:`share`): its
slowest link's ping-pong bandwidth over its median link's (a multi-pair
run's minimum over its median, as OSU's full statistics give it), so
that a run of 15 ping-pongs at once on a node is judged as one of 3; a
run of one link (the confirmation) over a healthy link's figure.  Every
link's figure is kept as evidence.

A link whose ping-pong exited non-zero, timed out (``timeout``'s 124),
or whose output cannot be read fails the run, naming the link, the side,
the command and its exit status.  The search then stops: "run failed".
'''

import dataclasses
import re
import shutil
import statistics
import subprocess
import time

from microbench import paths
from microbench.tools.fabtests import pingpong

#: What a run's script says before and after each ping-pong's output
HEAD, END = 'link', 'end'
#: What ``timeout`` exits with when the ping-pong overran its time
TIMED_OUT = 124
#: The links a run needs to be judged against its own median link
PEERS = 3
#: A line of ``srun --label``: its task, then what the task printed
LABEL = re.compile(r'^\s*(?P<task>\d+): (?P<line>.*)$')


class RunError(RuntimeError):
    '''A run that gave no answer (one line: which link, side, why).'''


@dataclasses.dataclass(frozen=True)
class Asked:
    '''What every ping-pong of a search is asked: libfabric provider,
    message size (bytes), iterations, the first port, the seconds a
    ping-pong may take, the Slurm partition (None: the default).'''

    provider: str = 'tcp'
    size: int = 256 << 10
    iterations: int = 10
    port: int = 47600
    timeout_s: int = 120
    partition: str | None = None


def plan(links, port):
    '''``client:server:port`` words of ``links`` (pairs of node names,
    sorted so that a run's plan is the same however it was asked), the
    first node the client.'''
    return [f'{first}:{second}:{port + place}'
            for place, (first, second) in enumerate(sorted(links))]


def nodes_of(links):
    '''The nodes of ``links``, sorted.'''
    return sorted({node for link in links for node in link})


def command(links, asked, script=paths.LINKRUN):
    '''The ``srun`` command line of a run over ``links``.'''
    nodes = nodes_of(links)
    limit = asked.timeout_s
    partition = [f'--partition={asked.partition}'] if asked.partition \
        else []
    return ['srun', f'--nodes={len(nodes)}', f'--ntasks={len(nodes)}',
            '--ntasks-per-node=1', f'--nodelist={",".join(nodes)}',
            *partition, '--job-name=microbench-links',
            f'--time={limit // 60 + 2}', '--kill-on-bad-exit=0', '--label',
            'sh',
            script, asked.provider, str(asked.size), str(asked.iterations),
            str(limit), *plan(links, asked.port)]


def tasks(text):
    '''{task: its lines} of ``srun --label``'s output (``3: line``; a
    line without a label is nobody's).'''
    found = {}
    for line in text.splitlines():
        match = LABEL.match(line)
        if match:
            found.setdefault(match['task'], []).append(match['line'])
    return found


def blocks(text):
    '''{(client, server, port, side): (exit status, output)} of a run's
    output (each task's :data:`HEAD` ... :data:`END` blocks: the tasks
    print at once, so their lines interleave).'''
    found = {}
    for lines in tasks(text).values():
        found.update(task_blocks(lines))
    return found


def task_blocks(lines):
    '''The blocks of one task's ``lines``.'''
    found, current, kept = {}, None, []
    for line in lines:
        words = line.split()
        if current is None:
            if len(words) == 7 and words[0] == HEAD and words[5] == 'exit':
                current = (tuple(words[1:5]), words[6])
                kept = []
            continue
        if line == END:
            key, status = current
            found[key] = (status, ''.join(f'{row}\n' for row in kept))
            current = None
        else:
            kept.append(line)
    return found


def read_run(text, links, asked):
    '''{link: :class:`~microbench.tools.fabtests.pingpong.PingpongRun`}
    of a run's output, each link's client read; :class:`RunError` where a
    link's client or server failed or said nothing readable.'''
    said = blocks(text)
    figures = {}
    for word in plan(links, asked.port):
        client, server, port = word.split(':')
        for side in ('client', 'server'):
            entry = said.get((client, server, port, side))
            where = f'{client}-{server} ({side} on ' \
                f'{client if side == "client" else server}, port {port})'
            if entry is None:
                raise RunError(f'link {where}: no output of its '
                               f'fi_pingpong (the task did not run?)')
            status, out = entry
            if status != '0':
                why = 'timed out' if status == str(TIMED_OUT) else \
                    f'exited {status}'
                last = out.strip().splitlines()[-1:] or ['no output']
                raise RunError(f'link {where}: fi_pingpong {why}: '
                               f'{last[0][:200]}')
            try:
                run = pingpong.parse(out, asked.size, asked.iterations)
            except ValueError as err:
                # the reader's OutputError (a ValueError): refused
                raise RunError(f'link {where}: fi_pingpong\'s output '
                               f'refused: {err}') from None
            if side == 'client':
                figures[(client, server)] = run
    return figures


@dataclasses.dataclass
class Measure:
    '''The search's ``measure``: one run of ``links`` (a frozenset of
    pairs) made for real, its answer a share (:func:`share`); every run
    kept in :attr:`made` (its command, seconds, each link's MiB/s, its
    level).  ``clean_mib_s``: a healthy link's figure, else the median
    link of the first run of 3 links or more (the ring).'''

    asked: Asked
    clean_mib_s: float | None = None
    made: list = dataclasses.field(default_factory=list)

    def __call__(self, links):
        cmd = command(links, self.asked)
        # one record a run, whatever becomes of it: the search's runs and
        # these stay in step
        record = {'command': cmd, 'seconds': None, 'links': {},
                  'exit': None, 'level_mib_s': None}
        self.made.append(record)
        started = time.monotonic()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True,
                                  timeout=self.asked.timeout_s + 180)
        except subprocess.TimeoutExpired:
            raise RunError(f'{" ".join(cmd[:6])} ... did not end in '
                           f'{self.asked.timeout_s + 180} s') from None
        finally:
            record['seconds'] = round(time.monotonic() - started, 2)
        record['exit'] = proc.returncode
        if proc.returncode != 0 and not blocks(proc.stdout):
            last = (proc.stderr.strip().splitlines() or ['no output'])[-1]
            raise RunError(f'srun exited {proc.returncode}: {last[:200]}')
        figures = read_run(proc.stdout, links, self.asked)
        record['links'] = {f'{first}-{second}': run.mib_s
                           for (first, second), run in figures.items()}
        if proc.returncode != 0:
            raise RunError(f'srun exited {proc.returncode} though every '
                           f'ping-pong ended: {proc.stderr.strip()[:200]}')
        values = list(record['links'].values())
        if self.clean_mib_s is None and len(values) >= PEERS:
            self.clean_mib_s = statistics.median(values)
        level = statistics.median(values) if len(values) >= PEERS else \
            self.clean_mib_s
        if level is None:
            raise RunError(f'a run of {len(values)} link(s) has no level to '
                           f'be judged against: give --clean-mib-s, or '
                           f'search 3 nodes or more')
        record['level_mib_s'] = level
        return share(values, level)


def share(values, level):
    '''A run's answer: its slowest link's MiB/s over ``level``, the
    run's median link where it has :data:`PEERS` links or more (as a
    multi-pair run's minimum over its median: however many ping-pongs
    share the nodes, a healthy run is near 1), else a healthy link's.'''
    return min(values) / level


def available():
    '''Why a real run cannot be made here (one line), else ''.'''
    for program in ('srun', 'sinfo'):
        if shutil.which(program) is None:
            return f'{program} not found: the link search runs under Slurm'
    return ''
