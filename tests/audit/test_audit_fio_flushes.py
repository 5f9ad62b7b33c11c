'''fio's flushes and other options read both ways
(microbench/audit/fio.py): a buffered write whose flush fio counts in the
job's time (fsync=N, fdatasync=N, end_fsync, fsync_on_close) reaches
storage, so its figure is not the page cache's (S1 not found, said why);
the same command without the flush is S1's; write_barrier flushes nothing
under a page-cache engine, sync=1 writes through; a profile's option
(threads=1) does nothing without its profile.  On real inputs of the
second corpus's development half (tests/data/audit/corpus2, sources in
corpus2.yaml).'''

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


@pytest.mark.parametrize('option, buffered', [(' --write_barrier=1', True),
                                              (' --sync=1', False),
                                              (' --sync=dsync', False)])
def test_what_other_options_do_to_a_buffered_write(option, buffered):
    '''write_barrier flushes nothing under a page-cache engine (fio's
    io_u.c sets a barrier only where the engine is flagged FIO_BARRIER);
    sync=1 or dsync opens the file O_SYNC or O_DSYNC: every write
    through to storage.'''
    data = text(ETCD).replace(' --fdatasync=1', option)
    report = audited(ETCD, data)
    assert report.error is None
    assert ('S1' in pitfalls(report)) == buffered
    if buffered:
        (s1,) = [f for f in report.findings if f.pitfall == 'S1']
        assert 'write_barrier=1 (fio sets no barrier' in s1.evidence


def test_a_profiles_option_is_taken_and_does_nothing_without_it():
    '''fio's own examples/waitfor.fio sets threads=1: the tiobench
    profile's option (fio 3.33 takes it and starts processes), not fio's
    thread.'''
    report = audited('plain-fio-fio-waitfor.fio')
    assert report.error is None
    notes = [note for inv in report.invocations for note in inv.not_judged]
    assert any(note.startswith("threads=1: an option of fio's tiobench "
                               "profile") for note in notes)
    # without the profile's option the file reads alike
    data = text('plain-fio-fio-waitfor.fio').replace('threads=1\n', '')
    plain = audited('plain-fio-fio-waitfor.fio', data)
    assert sorted(f.pitfall for f in plain.findings) == sorted(
        f.pitfall for f in report.findings)
