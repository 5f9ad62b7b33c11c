'''One path from the files a sample left to its figures.

A rounds job keeps every file a sample writes in its stage directory as
``<stem>-<variant>-<sample><suffix>`` (``fio-direct-2.json``), and the
sample's standard error as ``stderr-<variant>-<sample>.txt``.  A tool module
reads one sample with a function ``read_sample(sample, ...)`` that parses
those files (:meth:`Sample.parse`: read safely, parse, validate) and returns
a run whose ``figures`` maps figure names to values.  :func:`read_runs` does
it for every sample of a variant; whatever is wrong is an
:class:`~microbench.suite.output.OutputError` naming the sample and the file.
'''

import os

from microbench.suite import output

#: The file every sample's standard error is kept in
STDERR = 'stderr.txt'


def kept_name(name, variant, number):
    '''``fio.json``, ``direct``, 2 -> ``fio-direct-2.json``'''
    stem, suffix = os.path.splitext(name)
    return f'{stem}-{variant}-{number}{suffix}'


class Sample:
    '''The files sample ``number`` of ``variant`` left in ``directory``.'''

    def __init__(self, directory, variant, number):
        self.directory = directory
        self.variant = variant
        self.number = number

    def path(self, name):
        return os.path.join(self.directory,
                            kept_name(name, self.variant, self.number))

    def text(self, name):
        '''The text of kept file ``name``.'''
        return output.read(self.path(name))

    def parse(self, name, parser, *args, **kwargs):
        '''``parser(text of kept file name, *args, **kwargs)``; an
        :class:`~microbench.suite.output.OutputError` names the file.'''
        text = self.text(name)
        try:
            return parser(text, *args, **kwargs)
        except output.OutputError as err:
            raise output.OutputError(str(err), self.path(name)) from None
        except Exception as err:
            # A parser's own bug on an output nobody foresaw: the sample is
            # rejected, never a traceback
            raise output.OutputError(unforeseen(err), self.path(name)) \
                from None

    def reject_errors(self, pattern, tool, names=(STDERR,)):
        '''Raise if a kept file among ``names`` holds an error line of the
        tool (``pattern``), whatever its exit status was.'''
        for name in names:
            self.parse(name, output.reject_errors, pattern, tool)


def unforeseen(err):
    '''The message of an exception a parser raised that is not an
    :class:`~microbench.suite.output.OutputError`.'''
    return (f'the output is not one the parser knows '
            f'({type(err).__name__}: {err})')


class SampleError(output.OutputError):
    '''A sample's output cannot be trusted: :attr:`number` and :attr:`file`
    say which sample and which file.'''

    def __init__(self, message, number, file):
        super().__init__(message, file)
        self.number = number


def read_runs(directory, variant, count, read_sample):
    '''``read_sample(Sample)`` of samples 1 to ``count`` of ``variant``.

    :raises SampleError: for the first sample whose output is wrong.
    '''
    runs = []
    for number in range(1, count + 1):
        try:
            runs.append(read_sample(Sample(directory, variant, number)))
        except output.OutputError as err:
            raise SampleError(str(err), number, err.file) from None
        except Exception as err:
            raise SampleError(unforeseen(err), number, None) from None

    return runs


def failure(err, check, variant, tool, command):
    '''The sanity message of :class:`SampleError` ``err``: the check, the
    variant, the sample, the tool, its command and the file.'''
    return (f'{check}: sample {err.number} of {variant}: {tool} output '
            f'{err.file}: {err}; command: {command}')
