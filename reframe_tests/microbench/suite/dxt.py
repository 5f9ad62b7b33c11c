'''Whose data every read got, from Darshan's DXT traces (every access's
offset, length, rank and host): the data the reading rank, its node or
another node wrote (:func:`read_origins`), and what a node had already
written or read of the data a later read got (:func:`read_again`).'''

import numpy as np

from microbench.suite import darshan
from microbench.suite.output import OutputError


#: Whose data a read got
ORIGINS = ('same rank', 'same node', 'other node', 'unwritten')


def read_origins(logs, scratch):
    '''{origin: bytes read} below ``scratch``: whether each read (of a
    DXT trace) got data the reading rank wrote itself, another rank of its
    node, a rank of another node, or nobody in this run.

    :raises OutputError: if the logs have no DXT trace of those files.
    '''
    traces = [rec for _, rec in darshan.of_scratch(logs, 'dxt', scratch)]
    if not traces:
        raise OutputError('the Darshan logs have no DXT trace of the scratch '
                          'files (was DXT_ENABLE_IO_TRACE set?)')

    origins = dict.fromkeys(ORIGINS, 0)
    for name in {rec['file'] for rec in traces}:
        mine = [rec for rec in traces if rec['file'] == name]
        writes = sorted((off, length, rec['rank'], rec['hostname'])
                        for rec in mine for off, length in rec['write'])
        starts = np.array([w[0] for w in writes], dtype=np.int64)
        for rec in mine:
            for offset, length in rec['read']:
                i = int(np.searchsorted(starts, offset, side='right')) - 1
                if i < 0 or offset >= writes[i][0] + writes[i][1]:
                    origin = 'unwritten'
                elif writes[i][2] == rec['rank']:
                    origin = 'same rank'
                elif writes[i][3] == rec['hostname']:
                    origin = 'same node'
                else:
                    origin = 'other node'

                origins[origin] += length

    return origins


#: What a node had done with the data a later read of it got
AGAIN = ('written by the node', 'read by the node', 'new to the node')


def _merged(segments):
    '''(starts, ends) of the union of [offset, offset + length) segments,
    sorted and disjoint.'''
    merged = []
    for offset, length in sorted(segments):
        if merged and offset <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], offset + length)
        else:
            merged.append([offset, offset + length])

    found = np.array(merged, dtype=np.int64).reshape(-1, 2)
    return found[:, 0], found[:, 1]


def _covered(union, offset, length):
    '''Bytes of [offset, offset + length) inside ``union``.'''
    starts, ends = union
    overlap = (np.minimum(ends, offset + length)
               - np.maximum(starts, offset))
    return int(overlap.clip(min=0).sum())


def read_again(earlier, later, scratch):
    '''{what the reading node had done with it: bytes} of every read the
    processes of ``later`` logs made below ``scratch``, from the DXT
    traces of the processes of ``earlier`` logs (the runs before, on the
    same files): written by that node (host name), else read by it, else
    new to it (:data:`AGAIN`).  A read after read is storage only where
    every byte is new to the node: what it wrote or read before may still
    be in its page cache.

    :raises OutputError: if either has no DXT trace of those files.
    '''
    before = [rec for _, rec in darshan.of_scratch(earlier, 'dxt', scratch)]
    after = [rec for _, rec in darshan.of_scratch(later, 'dxt', scratch)]
    if not before or not after:
        raise OutputError('the Darshan logs have no DXT trace of the scratch '
                          'files (was DXT_ENABLE_IO_TRACE set?)')

    touched = {}
    for rec in before:
        key = (rec['file'], rec['hostname'])
        written, read = touched.setdefault(key, ([], []))
        written += rec['write']
        read += rec['read']

    unions = {key: (_merged(written), _merged(written + read))
              for key, (written, read) in touched.items()}
    nothing = _merged([])
    again = dict.fromkeys(AGAIN, 0)
    for rec in after:
        written, either = unions.get((rec['file'], rec['hostname']),
                                     (nothing, nothing))
        for offset, length in rec['read']:
            by_write = _covered(written, offset, length)
            by_either = _covered(either, offset, length)
            again['written by the node'] += by_write
            again['read by the node'] += by_either - by_write
            again['new to the node'] += length - by_either

    return again
