'''S4 across the jobs of one fio run (microbench/audit/fioacross.py): a
read job of a file an earlier job wrote through the page cache with no
flush reads the pages the kernel has not written back yet (fio's
invalidate drops the clean pages only: measured here, 1 GiB written
buffered by fio 3.33, then POSIX_FADV_DONTNEED, left 216 MiB resident;
after sync, none).  On fio's own examples/waitfor.fio (the second
corpus's development half), and on it changed one way at a time.'''

import pytest

from microbench.audit.findings import CERTAIN

from corpus2 import audited, text

#: fio's examples/waitfor.fio: writers, then readers (wait_for) of the
#: same filename=/tmp/data, then random writers and readers again
WAITFOR = 'plain-fio-fio-waitfor.fio'


def s4_of(report):
    '''{job name: its S4 finding} of a report.'''
    return {inv.where.text.strip('[]'): finding
            for inv in report.invocations for finding in inv.findings
            if finding.pitfall == 'S4'}


def test_readers_of_what_the_writers_left_dirty():
    found = s4_of(audited(WAITFOR))
    assert sorted(found) == ['readers', 'readers2']
    for name, finding in found.items():
        assert finding.certainty != CERTAIN     # the kernel's writeback
        assert '/tmp/data' in finding.evidence
        assert 'direct=1' in finding.realistic
    assert 'job writers ' in found['readers'].evidence
    assert 'job writers2 ' in found['readers2'].evidence


@pytest.mark.parametrize('change, left', [
    # the writers flush before they end: nothing dirty for the readers
    (('rw=write\n', 'rw=write\nend_fsync=1\n'), ['readers2']),
    (('rw=randwrite\n', 'rw=randwrite\nfsync=1\n'), ['readers']),
    # O_DIRECT writes leave no pages; O_DIRECT reads read none
    (('rw=write\n', 'rw=write\ndirect=1\n'), ['readers2']),
    (('rw=randread\n', 'rw=randread\ndirect=1\n'), []),
    # another file: nothing of it was written
    (('wait_for=writers\n', 'wait_for=writers\nfilename=/tmp/other\n'),
     ['readers2'])])
def test_each_way_out(change, left):
    data = text(WAITFOR)
    assert change[0] in data
    assert sorted(s4_of(audited(WAITFOR, data.replace(*change)))) == left
