'''``microbench vet``: every node of a partition vetted on its own, one
node after another, each node's figures its own.

A vetting night runs the single-node checks (by default ``fio_cache_flags``:
the page cache, O_DIRECT and per-write sync, the figures a bad disk, a
throttled node or a wrong setting moves) once on each node of the
partition, one ReFrame session per node pinned to it (``-J
nodelist=NODE``), the sessions tagged ``--session-extras
kind=vetting,tag=<night>,vetted=<node>`` in a results storage of their own
(``vetting.db`` beside the nights', as ``microbench ab`` keeps ab.db): the
partition's series never sees a node's figures.  The night's document
(:mod:`microbench.nodes.nodes_json`) is kept beside it, in
``vetting-nights/<tag>.json``: the nodes asked for and those whose run
failed, which no session may hold.

The nodes run one after another, never side by side (the suite's rule:
benchmarks never run concurrently unless a check asks for it): a vetting
night of n nodes takes n times one node's time.  ReFrame's
``--distribute`` pins a check's own job to each node, but the suite's
benchmark runs in its rounds fixture, which ``--distribute`` does not
pin; hence one session per node.

Then every node is judged against its peers of the same night
(:mod:`microbench.nodes.vetting`, :mod:`microbench.nodes.outliers`).
A node whose session gave no figure, or whose ReFrame run failed, is
named as failed, never as slow.  A partition of fewer nodes than the rule
needs is not vetted, saying why; a node asked for that is not in the
partition is refused before anything runs.

Exit: 0 every node clean, 1 a node slow or failed, 2 cannot go on.
'''

import datetime
import os
import shutil
import subprocess

from microbench import paths
from microbench.cause import abrun
from microbench.nodes import nodes_json, outliers, vetting
from microbench.verdicts import compare

HELP = 'run the single-node checks on every node of a partition, one by one'

#: The checks a vetting night runs unless told
CHECKS = ('fio_cache_flags',)

class VetError(ValueError):
    '''A vetting night that cannot go on (one line).'''


def add_arguments(parser):
    parser.add_argument('--system', required=True, metavar='SYS:PART',
                        help='the ReFrame partition whose nodes are vetted')
    parser.add_argument('--nodes', metavar='NODE,NODE,...',
                        help='the nodes to vet (default: every node of the '
                             'scheduler partition, from sinfo)')
    parser.add_argument('--slurm-partition', metavar='NAME',
                        help='the Slurm partition whose nodes are vetted '
                             '(default: sinfo\'s default partition)')
    parser.add_argument('-n', '--name', dest='checks', action='append',
                        metavar='CHECK',
                        help='a check to run on each node (repeatable; '
                             f'default: {", ".join(CHECKS)})')
    parser.add_argument('--mode', default='quick',
                        help='the ReFrame execution mode (default: quick)')
    parser.add_argument('-S', dest='settings', action='append', default=[],
                        metavar='VAR=VAL', help='a ReFrame -S setting')
    parser.add_argument('--work', metavar='DIR',
                        help='where the sessions\' stage, output and '
                             'perflogs go (default: ./vetting)')
    vetting.add_storage_argument(parser)
    parser.add_argument('--json', metavar='FILE',
                        help='the night\'s node verdicts as JSON '
                             f'(version {nodes_json.VERSION})')
    parser.add_argument('--dry-run', action='store_true',
                        help='print each node\'s ReFrame command, run '
                             'nothing')
    parser.set_defaults(handler=run)


def scheduler_nodes(slurm_partition=None):
    '''The node names of ``slurm_partition`` (sinfo's default partition if
    None), sorted; raises :class:`VetError` where sinfo cannot say.'''
    if not shutil.which('sinfo'):
        raise VetError('sinfo not found: vetting asks the scheduler for '
                       'the partition\'s nodes (or name them with --nodes)')
    proc = subprocess.run(['sinfo', '-h', '-N', '-o', '%N %P'],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise VetError(f'sinfo -h -N -o "%N %P" exited {proc.returncode}: '
                       f'{abrun.first_line(proc.stderr)}')
    members = {}
    default = None
    for line in proc.stdout.splitlines():
        words = line.split()
        if len(words) != 2:
            continue
        node, partition = words
        if partition.endswith('*'):
            partition = partition[:-1]
            default = partition
        members.setdefault(partition, set()).add(node)
    wanted = slurm_partition or default
    if wanted not in members:
        raise VetError(f'no Slurm partition {wanted!r} in sinfo (its '
                       f'partitions: {", ".join(sorted(members)) or "none"})')
    return sorted(members[wanted]), wanted


def chosen_nodes(asked, known, partition):
    '''The nodes to vet: ``asked`` (a comma-separated list) each checked
    against ``known``, the partition's; else ``known``.'''
    if not asked:
        return list(known)
    names = [name.strip() for name in asked.split(',') if name.strip()]
    for name in names:
        outliers.check_node_name(name)
    strangers = [name for name in names if name not in known]
    if strangers:
        raise VetError(f'{", ".join(strangers)}: not a node of partition '
                       f'{partition} (its nodes: {", ".join(known)})')
    if len(set(names)) != len(names):
        raise VetError(f'--nodes names a node twice: {asked}')
    return names


def night_tag(now=None):
    '''The tag of a vetting night: ``vetting-<UTC time>``.'''
    now = now or datetime.datetime.now(datetime.timezone.utc)
    return f'{vetting.KIND}-{now.strftime("%Y%m%dT%H%M%S")}'


def command(args, node, tag, work):
    '''The ReFrame command line of ``node``'s session.'''
    pattern = '|'.join(f'^{check}' for check in (args.checks or CHECKS))
    extras = f'kind={vetting.KIND},tag={tag},{vetting.VETTED}={node}'
    where = os.path.join(work, node)
    return [abrun.reframe(), '-c', paths.CHECKS, '-n', pattern, '-r',
            '--system', args.system, '-J', f'nodelist={node}',
            '--mode', args.mode, '--prefix', where,
            '--perflogdir', os.path.join(work, 'perflogs'),
            '--report-file', os.path.join(where, 'report.json'),
            *(word for setting in args.settings for word in ('-S', setting)),
            '--session-extras', extras]


def run(args):
    if args.json:
        compare.writable(args.json, '--json')
    if args.nodes and not shutil.which('sinfo'):
        # no scheduler to ask: the nodes named are the partition
        known = args.nodes.split(',')
        partition = '(named with --nodes, no sinfo)'
    else:
        known, partition = scheduler_nodes(args.slurm_partition)
    nodes = chosen_nodes(args.nodes, known, partition)
    if len(nodes) < outliers.MIN_PEERS + 1:
        print(f'microbench vet: vetting skipped: {len(nodes)} node(s) to '
              f'vet ({", ".join(nodes)}) of partition {partition}; each node '
              f'is judged against at least {outliers.MIN_PEERS} peers, so '
              f'at least {outliers.MIN_PEERS + 1} nodes are needed')
        return 0
    work = os.path.abspath(args.work or 'vetting')
    tag = night_tag()
    db = vetting.chosen(args)
    env = abrun.environment(db)
    failed = {}
    for node in nodes:
        cmd = command(args, node, tag, work)
        if args.dry_run:
            print(' '.join(cmd))
            continue
        print(f'microbench vet: {node}: {" ".join(cmd)}', flush=True)
        status, minutes, output = abrun.launch(cmd, env, quiet=True)
        print(f'microbench vet: {node}: reframe exited {status} after '
              f'{minutes:.1f} min', flush=True)
        if status != 0:
            failed[node] = (f'reframe exited {status}: '
                            f'{last_summary(output)}')
    if args.dry_run:
        return 0
    night = vetting.judge(db, args.system, tag,
                          asked=nodes, failed=failed)
    print(vetting.text(night))
    kept = vetting.nights_folder(db)
    os.makedirs(kept, exist_ok=True)
    nodes_json.write(os.path.join(kept, f'{tag}.json'), night)
    if args.json:
        nodes_json.write(args.json, night)
    return 1 if night.alarming() else 0


def last_summary(output):
    '''ReFrame's summary line of a run (``[ FAILED ] Ran ...``), else its
    last line.'''
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in reversed(lines):
        if 'Ran ' in line:
            return line[:300]
    return lines[-1][:300] if lines else 'no output'
