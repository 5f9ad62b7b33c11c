'''Where the gauges go: OpenMetrics text stamped with the session's
start, node_exporter's textfile collector, a Prometheus Pushgateway.'''

import os
import re
import urllib.error

from prometheus_client import push_to_gateway, write_to_textfile
from prometheus_client.openmetrics import exposition as openmetrics

from microbench.verdicts.export.gauges import Merged, partitions, registry

#: The job of every push (the Pushgateway's grouping key, with system and
#: partition)
JOB = 'microbench'

#: Seconds a push may take
TIMEOUT_S = 30


def openmetrics_text(session, rows, verdicts=None):
    '''The OpenMetrics text of a session, every sample stamped.'''
    groups = partitions(session, rows, verdicts, timestamps=True)
    return openmetrics.generate_latest(
        registry(Merged(groups.values()))).decode('utf-8')


def write_openmetrics(path, session, rows, verdicts=None):
    text = openmetrics_text(session, rows, verdicts)
    tmp = f'{path}.tmp{os.getpid()}'
    with open(tmp, 'w', encoding='utf-8') as fp:
        fp.write(text)
    os.replace(tmp, path)
    return [path]


def textfile_name(system, partition):
    '''``microbench_SYSTEM_PARTITION.prom``, safe as a file name.'''
    safe = re.sub(r'[^A-Za-z0-9_.-]', '_', f'{system}_{partition}')
    return f'microbench_{safe}.prom'


def write_textfiles(directory, session, rows, verdicts=None):
    if not os.path.isdir(directory):
        raise OSError(f'--textfile {directory}: not a directory')
    out = []
    for (system, partition), group in partitions(session, rows,
                                                 verdicts).items():
        path = os.path.join(directory, textfile_name(system, partition))
        write_to_textfile(path, registry(group))
        out.append(path)
    return out


def push(url, session, rows, verdicts=None, timeout=TIMEOUT_S):
    '''Push every partition's gauges to the Pushgateway at ``url``.

    :raises OSError: it refuses (its HTTP status and reason) or does not
        answer, naming ``url``.
    '''
    out = []
    for (system, partition), group in partitions(session, rows,
                                                 verdicts).items():
        key = {'system': system, 'partition': partition}
        where = f'job={JOB}, system={system!r}, partition={partition!r}'
        try:
            push_to_gateway(url, job=JOB, registry=registry(group),
                            grouping_key=key, timeout=timeout)
        except urllib.error.HTTPError as err:
            body = ' '.join(err.read().decode('utf-8', 'replace').split())
            raise OSError(f'the Pushgateway at {url} refused the push of '
                          f'{where}: HTTP {err.code} {err.reason}: '
                          f'{body[:300]}') from None
        except (urllib.error.URLError, OSError, ValueError) as err:
            why = getattr(err, 'reason', None) or err
            raise OSError(f'cannot push to the Pushgateway at {url} '
                          f'({where}): {type(why).__name__}: '
                          f'{why}') from None
        out.append(f'{url} ({where})')
    return out
