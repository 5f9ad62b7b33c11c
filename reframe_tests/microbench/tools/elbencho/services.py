'''elbencho's multi-node runs read per node (issue 45, item 4).

Where elbencho drives a service on every node (``--hosts``), ``--svcelapsed``
(elbencho 3.0 and later: source/Statistics.cpp) adds to every phase of its
console table a row of each service's completion time, the time its
slowest thread took, fastest first::

    WRITE       ...
                Svc compl. time  : [ mbnode2=2.186s mbnode1=2.215s ]

Every service moves the same share of the data (the hosts share the
paths), so a service's time is its node's figure of the phase: lower is
faster, in microseconds (the console prints milliseconds, as its elapsed
time: ``7ms``, ``2.186s``, ``1m2.004s``).  A phase whose slowest service
took under :data:`SHORTEST_MS` is not read per node: a millisecond is then
more than 1 % of it, coarser than the nodes' differences the rule judges.
A node is the service's host name, its port left out; services sharing a
node (two ports) give it the slower of their times.
'''

import re

from microbench.suite.output import OutputError

#: elbencho's option printing every service's completion time
OPTION = '--svcelapsed'

#: The console row that holds them
ROW = 'Svc compl. time'

#: The shortest phase read per node, in milliseconds (the console's unit)
SHORTEST_MS = 100

_HOST = re.compile(r'[A-Za-z0-9][A-Za-z0-9._-]{0,62}')


def parse_services(row, hosts, elapsed_ms):
    '''``{node: milliseconds}`` of one phase's row (its text right of the
    colon, ``[ host=time ... ]``) of a run on ``hosts`` services;
    ``elapsed_ms``: the console's reader of a time (milliseconds, slack).

    :raises OutputError: not a bracketed list, a word that is not
        ``<host>[:<port>]=<time>``, a service twice, another number of
        services.
    '''
    words = str(row).split()
    if len(words) < 2 or words[0] != '[' or words[-1] != ']':
        raise OutputError(f'the {ROW} row {str(row)[:80]!r} is not '
                          f'[ <host>=<time> ... ]')
    out, seen = {}, set()
    for word in words[1:-1]:
        service, sep, time = word.rpartition('=')
        node = service.rpartition(':')[0] if ':' in service else service
        if not sep or not _HOST.fullmatch(node):
            raise OutputError(f'the {ROW} row says {word[:60]!r}, not '
                              f'<host>=<time>')
        if service in seen:
            raise OutputError(f'the {ROW} row names {service} twice')
        seen.add(service)
        value, _ = elapsed_ms(time)
        out[node] = max(value, out.get(node, value))
    if len(seen) != hosts:
        raise OutputError(f'the {ROW} row names {len(seen)} services, the '
                          f'run asked {hosts}')
    return out


def node_samples(per_sample):
    '''``{phase: {node: [microseconds, sample by sample]}}`` of every
    sample's ``{phase: {node: milliseconds}}``, the phases too short to
    tell nodes apart (:data:`SHORTEST_MS`, in any sample) left out.'''
    out, short = {}, set()
    for phases in per_sample:
        for phase, nodes in phases.items():
            if max(nodes.values(), default=0) < SHORTEST_MS:
                short.add(phase)
            for node, value in nodes.items():
                out.setdefault(phase, {}).setdefault(node, []).append(
                    value * 1000)
    return {phase: nodes for phase, nodes in out.items()
            if phase not in short}
