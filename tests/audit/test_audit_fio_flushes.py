'''fio's flushes read both ways (microbench/audit/fio.py): a buffered
write whose flush fio counts in the job's time (fsync=N, fdatasync=N,
end_fsync, fsync_on_close) reaches storage, so its figure is not the page
cache's (S1 not found, said why); the same command without the flush is
S1's.  On real command lines of the second corpus's development half
(tests/data/audit/corpus2, sources in corpus2.yaml).'''

import pytest

from corpus2 import audited, text

#: etcd's disk check: 2300-byte writes, each followed by fdatasync()
ETCD = 'fio-sync-ibm-etcd.cmd'
#: 16 jobs of buffered random writes, end_fsync=1, in a script
BUSY = 'fio-sync-gists-busy.sh'


def pitfalls(report):
    return sorted({finding.pitfall for finding in report.findings})


@pytest.mark.parametrize('name, flush', [(ETCD, 'fdatasync=1'),
                                         (BUSY, 'end_fsync=1')])
def test_a_counted_flush_is_not_the_page_caches(name, flush):
    report = audited(name)
    assert report.error is None
    assert 'S1' not in pitfalls(report)
    assert any(note.startswith(f'S1: {flush}: fio counts the flush')
               for inv in report.invocations for note in inv.not_judged)


@pytest.mark.parametrize('name, flush', [(ETCD, ' --fdatasync=1'),
                                         (BUSY, ' --end_fsync=1')])
def test_without_the_flush_the_write_is_buffered(name, flush):
    data = text(name)
    assert flush in data
    assert 'S1' in pitfalls(audited(name, data.replace(flush, '')))
