'''One ReFrame dry run of every check per partition, shared by every test
of one pytest process that reads the job scripts a partition gets (the
``dry_runs`` fixture of tests/conftest.py): a dry run loads every check and
writes every job script, seconds of a test run each time it is made
again.  The modules that use it carry the ``dry_runs`` marker, which puts
them on one worker when the tests run on every core.'''

import collections
import os
import threading

import project

#: A partition's dry run: ReFrame's completed process, its prefix and the
#: partition's stage directory
DryRun = collections.namedtuple('DryRun', 'proc prefix stage')


class DryRuns:
    '''The dry runs of one pytest process, below ``root``, made once each.'''

    def __init__(self, root):
        self.root = root
        self.made = {}
        self.lock = threading.Lock()
        self.locks = collections.defaultdict(threading.Lock)

    def of(self, partition):
        '''The :class:`DryRun` of every check on ``partition``
        (SYSTEM:PARTITION), made on first use.'''
        with self.lock:
            mine = self.locks[partition]
        with mine:
            if partition not in self.made:
                self.made[partition] = self._run(partition)
            return self.made[partition]

    def _run(self, partition):
        prefix = self.root / partition.replace(':', '_')
        prefix.mkdir()
        proc = project.reframe(
            '--dry-run', '--system', partition, '--prefix', str(prefix),
            '--perflogdir', str(prefix / 'perflogs'),
            env={'RFM_SQLITE_DB_FILE': str(prefix / 'results.db')})
        stage = os.path.join(prefix, 'stage', *partition.split(':'))
        return DryRun(proc, prefix, stage)
