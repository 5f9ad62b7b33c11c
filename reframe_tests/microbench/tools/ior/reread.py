'''IO500's read after read: what its witnesses see of the second read.

After IO500's ior-easy-read (``-C -Q 1``) every node's page cache holds
what its neighbour wrote: a second read one node away would be a cache
read.  IO500 moved its second read two nodes away (``-C -Q 2``), which is
new data to the reading node on three nodes or more
(:func:`.command.build_reread` runs the sequence, write, read, read
again).  Its witnesses look at the second read:

- the Darshan witness (:func:`judge_darshan`) runs the sequence under
  Darshan, one log per IOR run, and says of the bytes the second read got
  the share its node had written or read in the runs before
  (:func:`microbench.suite.dxt.read_again`): 0 two nodes away on three
  nodes or more, 100 % for a second read one node away;
- the residency witness (:func:`.residency.witness_command`) runs fincore
  on every node right before the second read.
'''

from microbench.suite import darshan, dxt
from microbench.suite.output import OutputError

#: The figure of the second read
FIGURE = 'reread'


def sequence_logs(logs, runs):
    '''The Darshan logs of IOR's processes, one per run of the sequence
    (``runs`` of them), in the order they started.

    :raises OutputError: where there are more or fewer, or the last one
        wrote.
    '''
    found = sorted(darshan.job_logs(logs), key=lambda log: log['start'])
    if len(found) != runs:
        raise OutputError(f'{len(found)} Darshan logs of IOR\'s processes '
                          f'where the {runs} IOR runs of a read after read '
                          f'write one each')

    wrote = sum(row['POSIX_BYTES_WRITTEN'] for row in found[-1]['posix'])
    if wrote:
        raise OutputError(f'the last IOR run ({found[-1]["path"]}) wrote '
                          f'{wrote} bytes: it is not the read after read')

    return found


def judge_darshan(check, logs):
    '''Say in ``check``'s ``darshan_witness`` what share of the bytes the
    second read got its node had written or read before; a share above 0
    demotes the ``reread`` figure to a cache figure.'''
    runs = len(check.rounds.ior_commands(check.variant))
    found = sequence_logs(logs, runs)
    again = dxt.read_again(found[:-1], found[-1:], check.rounds.scratch)
    total = sum(again.values())
    if not total:
        raise OutputError('Darshan saw no byte of the read after read')

    seen = again['written by the node'] + again['read by the node']
    check.darshan_witness += '; the read after read got ' + ', '.join(
        f'{100 * count / total:.1f} % {what}'
        for what, count in again.items() if count)
    if seen:
        check.demote_seen(
            FIGURE, f'Darshan saw {100 * seen / total:.1f} % of the bytes '
            f'the read after read got already written or read by the '
            f'reading node', f'the {FIGURE} figure is a cache figure, not '
            f'storage')
        check.measures = 'page cache'
