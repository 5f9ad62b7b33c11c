'''What a rounds job left in its stage directory: the files of its
samples and witnesses, read back for a check's judgement or a failure's
diagnosis.'''

import os

import reframe as rfm
from reframe.core.exceptions import SanityError

from microbench.suite import output, records, samples


class Kept(rfm.RegressionTestPlugin):
    '''The files a rounds job kept: its samples' (:func:`.samples.kept_name`)
    and its witnesses' (``<kind>-<variant>.txt``).'''

    def diagnosis(self, failure, variant):
        '''What the tool said about a failure of ``variant``: its first error
        line, else its first warning, else the last line of its standard
        error, in the files of its last sample (or of its witness).'''
        if 'the witness' in failure:
            texts = [self.witness_text(variant, stderr=True)]
        elif 'the Darshan witness' in failure:
            texts = [self.witness_text(variant, stderr=True, kind='darshan')]
        else:
            texts = [self.last_text(name, variant)
                     for name in (self.stdout_file, samples.STDERR) if name]

        said = output.diagnosis(texts, self.errors, self.warnings)
        return f'; {self.tool} said: {said}' if said else ''

    def last_text(self, name, variant):
        '''Kept file ``name`` of the last sample of ``variant`` that wrote
        one (or of its witness, ``witness-stderr`` for stderr), decoded with
        anything that is not UTF-8 replaced; '' if none.  A variant that
        failed in a warm-up round left the files of that round.'''
        warmups = [f'warmup{n}' for n in range(self.warmup_rounds, 0, -1)]
        for number in [*range(self.samples, 0, -1), *warmups]:
            path = os.path.join(self.stagedir,
                                samples.kept_name(name, variant, number))
            if os.path.exists(path):
                with open(path, 'rb') as fp:
                    return fp.read().decode('utf-8', errors='replace')

        return ''

    def witness_path(self, name):
        return os.path.join(self.stagedir, name)

    def witness_text(self, variant, stderr=False, kind='witness'):
        '''What the witness (or ``darshan``, the Darshan witness) of
        ``variant`` printed, '' if nothing.'''
        name = f'{kind}-{"stderr-" if stderr else ""}{variant}.txt'
        try:
            return output.read(self.witness_path(name))
        except output.OutputError:
            return ''

    def read_witness(self, variant, name, parser, check):
        '''``parser`` of the witness file ``name`` of ``variant``; whatever
        is wrong with it fails the sanity of ``check``, naming the witness
        command and the file.'''
        path = self.witness_path(name)
        try:
            return parser(output.read(path))
        except Exception as err:
            said = (err if isinstance(err, output.OutputError)
                    else samples.unforeseen(err))
            command = records.of_variant(self.records, variant).get(
                'witness', ['?'])[0]
            raise SanityError(f'{check.display_name}: the witness of '
                              f'{variant}: {path}: {said}; command: '
                              f'{command}') from None
