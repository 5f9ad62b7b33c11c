'''What a rounds job printed, read back: its records, the records of each
variant, the runs of its samples; and, in an A/B, the job as one side
alone would have left it (:mod:`.stacked`).'''

import os

import reframe as rfm
from reframe.core.exceptions import SanityError

from microbench import settings, spack
from microbench.suite import launchers, missing, records, samples, stacked


class Collected(rfm.RegressionTestPlugin):
    '''The records and samples of a rounds job (a plugin of
    :class:`~microbench.suite.rounds.Rounds`).'''

    def collect_records(self):
        '''Read the job's records; skip or fail the rounds as they say.'''
        self.records = records.parse(self.read_job_file(self.job.stdout))
        recs = self.records
        self.node = ','.join(recs.get('node', []))
        if recs.get('nodes'):
            self.node = ','.join(recs['nodes'][0].split())

        self.job_id = ' '.join(recs.get('job_id', []))
        self.kernel = ' '.join(recs.get('kernel', []))
        self.machine_settings = settings.of_record(
            ' '.join(recs.get(settings.RECORD, [])))
        if 'missing' in recs and self.stacks:
            self.skip(stacked.missing_hint(self, recs['missing'][0],
                                           self.node or 'the node'))
        if 'missing' in recs:
            self.skip(missing.hint(recs['missing'][0],
                                   self.node or 'the node', self.bindir,
                                   self.bindir and getattr(self,
                                                           self.bindir)))

        for failure in recs.get('failed', []):
            if failure.split(': ', 1)[0] not in stacked.job_variants(self):
                raise SanityError(failure)

        if not recs.get('node'):
            raise SanityError(f'the job printed no records: it did not run '
                              f'(see {self.job.stdout}, {self.job.stderr})')

        if 'end' not in recs:
            ended = launchers.job_end(self.job, self.scheduler())
            raise SanityError(f'the job ended before its last round: '
                              f'{ended}')

        self.tool_version = ' '.join(recs.get('version', []))
        self.spack_env, self.spack_spec = spack.record(
            self.current_environ.extras.get('spack_env'), self.launched()
        )
        self.tool_path, self.spack_lock = spack.found(
            recs.get('found', []), self.launched(),
            self.current_environ.extras.get('spack_env'))
        for name in ('scratch', 'scratch_fstype', 'scratch_mount_options'):
            setattr(self, name, ' '.join(recs.get(name, [])))

    def of_side(self, label):
        '''This job as side ``label`` of an A/B alone would have left it
        (:func:`.stacked.view`).'''
        return stacked.view(self, label)

    def read_job_file(self, name):
        '''A file of the stage directory (the job's output), decoded with
        anything that is not UTF-8 replaced: records are the suite's own.'''
        try:
            with open(os.path.join(self.stagedir, name), 'rb') as fp:
                return fp.read().decode('utf-8', errors='replace')
        except OSError as err:
            raise SanityError(f'no job output: {err}') from None

    def variant_records(self, variant, check):
        '''The records of ``variant``: ``check`` is skipped if the variant
        is unsupported, and fails if it failed or did not run every sample.'''
        recs = records.of_variant(self.records, variant)
        if 'unsupported' in recs:
            check.skip(recs['unsupported'][0])

        if 'failed' in recs:
            failure = recs['failed'][-1]
            raise SanityError(failure + self.diagnosis(failure, variant))

        ran = len(recs.get('sample', []))
        if ran != self.samples:
            raise SanityError(f'{ran} of {self.samples} samples of '
                              f'{variant} ran')

        warmed = len(recs.get('warmup', []))
        if warmed != self.warmup_rounds:
            raise SanityError(f'{warmed} of {self.warmup_rounds} warm-up '
                              f'rounds of {variant} ran')

        return recs

    def runs(self, variant, check=None):
        '''The parsed runs of every sample of ``variant``.  Whatever is
        wrong with one fails the sanity of ``check`` (this rounds job by
        default), naming the check, the variant, the sample, the tool, its
        command and the file.'''
        try:
            return samples.read_runs(self.stagedir, variant, self.samples,
                                     self.read_sample)
        except samples.SampleError as err:
            command = records.of_variant(self.records, variant).get(
                'command', ['?'])[0]
            raise SanityError(samples.failure(
                err, (check or self).display_name, variant, self.tool, command
            )) from None
