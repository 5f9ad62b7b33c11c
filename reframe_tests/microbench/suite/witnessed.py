'''The Darshan witness of a storage rounds fixture, and its verdict.

A storage rounds fixture (fio, IOR, mdtest, elbencho, Lustre) runs every
variant once more, before the rounds, under the Darshan runtime: a short
sample of its own whose logs (``darshan-<variant>/``, kept in the output
directory) say what the benchmark's processes really did.  The measured
samples never run under it.  Its variant checks then hold the variant's
claims against Darshan's counters (:meth:`judge_darshan` of each tool's
check) and record what Darshan saw (``darshan_witness``,
``darshan_logs``).  Where no runtime is found the witness is recorded as
not run, and the check goes on.
'''

import os

import reframe as rfm
import reframe.utility.typecheck as typ
from reframe.core.builtins import run_after, variable
from reframe.core.exceptions import SanityError

from microbench.suite import darshan
from microbench.suite.output import OutputError

#: The value of the ``darshan`` variable that turns the witness off
OFF = 'off'


class Witnessed(rfm.RegressionTestPlugin):
    '''A storage rounds fixture with a Darshan witness of every variant.

    Subclasses implement :meth:`darshan_argv` (the program of the short
    sample) and set :attr:`darshan_mpi` where the benchmark is an MPI
    program (the MPI runtime, started through the launcher).
    '''

    #: Where the Darshan runtime is: ``libdarshan.so`` files or prefixes,
    #: tried in order (the first of the flavour the benchmark needs, MPI or
    #: not, is used); then the Spack environment's view, then the one
    #: ``darshan-config`` on PATH names.  ``off``: no Darshan witness.
    #:
    #: :type: :class:`List[str]`
    #: :default: ``[]``
    darshan = variable(typ.List[str], value=[])

    #: Whether the benchmark is an MPI program (the MPI runtime, per rank)
    darshan_mpi = False

    #: Whether the witness needs DXT (every access's offset, rank, host)
    darshan_traced = False

    def darshan_argv(self, variant):
        '''The command of the short sample of ``variant``, given the argv
        prefix that preloads Darshan into the benchmark only.'''
        raise NotImplementedError

    @run_after('init')
    def keep_darshan_logs(self):
        # ReFrame removes the stage directory of a test that passed: the
        # witness's logs and output are kept in its output directory
        self.keep_files = [*self.keep_files, 'darshan-*']

    def kept_path(self, path):
        '''Where ``path`` of the stage directory is kept after the run.'''
        return os.path.join(self.outputdir,
                            os.path.relpath(path, self.stagedir))

    def darshan_wanted(self):
        return OFF not in self.darshan

    def darshan_log_dir(self, variant):
        return os.path.join(self.stagedir, f'darshan-{variant}')

    def darshan_settings(self):
        if not self.darshan_wanted():
            return super().darshan_settings()

        candidates = list(self.darshan)
        env = self.current_environ.extras.get('spack_env')
        if env:
            candidates.append(os.path.join(env, '.spack-env', 'view'))

        return {'darshan_flavour': 'mpi' if self.darshan_mpi else 'nompi',
                'darshan_candidates': ' '.join(candidates)}

    def darshan_command(self, variant):
        if not self.darshan_wanted():
            return None

        return self.darshan_argv(variant, darshan.preload(
            self.darshan_log_dir(variant), self.darshan_mpi,
            self.darshan_traced, self.scratch_dir))


def judge(check, recs):
    '''Read the Darshan witness of ``check``'s variant and hold its claims
    against it (``check.judge_darshan(frame, logs)``); record what it saw.
    Whatever is wrong with the logs fails the check, naming the witness's
    command and directory.'''
    rounds = check.rounds
    if not isinstance(rounds, Witnessed):
        return

    if not rounds.darshan_wanted():
        check.darshan_witness = f'not run: darshan={OFF}'
        return

    if 'darshan_missing' in recs:
        check.darshan_witness = f'not run: {recs["darshan_missing"][0]}'
        return

    if 'darshan' not in recs:
        check.darshan_witness = 'not run'
        return

    log_dir = rounds.darshan_log_dir(check.variant)
    try:
        logs = darshan.read_logs(log_dir)
        frame = darshan.files(logs, rounds.scratch)
        if frame.empty:
            raise OutputError(f'no process touched a file of the scratch '
                              f'directory {rounds.scratch}')

        check.darshan_logs = ' '.join(rounds.kept_path(log)
                                      for log in sorted(set(frame['log'])))
        check.darshan_witness = darshan.summary(frame)
        check.judge_darshan(frame, logs)
    except OutputError as err:
        raise SanityError(f'{check.display_name}: the Darshan witness of '
                          f'{check.variant}: {log_dir}: {err}; command: '
                          f'{recs["darshan"][0]}') from None
