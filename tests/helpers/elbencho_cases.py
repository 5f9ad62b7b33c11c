'''What the elbencho validation tests share
(tests/tools/test_elbencho_asked.py, tests/tools/test_elbencho_faults.py):
the real results, and the two paths each
mutated one is read by, the parser and
:func:`microbench.suite.samples.read_runs` on the files of a sample as a rounds
job keeps them, both of which must reject it with a message that says what
is wrong.

The real results are tests/data/elbencho's with a saved command line (a
``# cmd:`` line, on the results or on their console output): what the run
was asked comes from it (tests/helpers/catalogue.py's ``elbencho_asked``), as
tests/helpers/fixtures.py's ``fio_options`` does for fio.  Every example is
tallied (tests/helpers/classes.py's ``VALIDATION_TALLY``).
'''

import functools
import re
import tempfile
import time

import pytest

from microbench.tools import elbencho
from microbench.suite import output, samples
from microbench.suite.output import OutputError

from catalogue import ELBENCHO_CONSOLES, VARIANT, elbencho_asked, keep
from classes import record
from fixtures import text

#: Real results -> their console output (stdout of the same run): the
#: catalogue's, every one with a saved command line
REAL = ELBENCHO_CONSOLES


def real(case_id):
    '''(results, console) of a real run, as bytes.'''
    return text(case_id).encode(), text(REAL[case_id]).encode()


# --- Reading both paths -----------------------------------------------------

def _parsed(data, console, told):
    run = elbencho.parse(output.decode(data), **(told or {}))
    elbencho.check_console(output.decode(console), run)
    return run


def _sampled(data, console, stderr, told):
    with tempfile.TemporaryDirectory() as directory:
        paths = keep(directory, {'elbencho.json': data,
                                 'elbencho.out': console,
                                 'stderr.txt': stderr})
        try:
            runs = samples.read_runs(directory, VARIANT, 1, functools.partial(
                elbencho.read_sample, asked=told))
        except samples.SampleError as err:
            assert err.number == 1 and err.file in paths, err
            raise

        return runs[0]


def figures(case_id, data=None, console=None, stderr=b'', told=None,
            path='parse'):
    '''The figures of the real run (or of mutated files) on ``path``.'''
    real_data, real_console = real(case_id)
    data = real_data if data is None else data
    console = real_console if console is None else console
    if path == 'parse':
        return _parsed(data, console, told).figures

    return _sampled(data, console, stderr, told).figures


def assert_rejected(klass, case_id, how, match, data=None, console=None,
                    stderr=b'', told=None, paths=('parse', 'sample')):
    '''Both paths reject the mutated files with a message matching
    ``match`` (told what the real run asked by default).'''
    told = elbencho_asked(case_id) if told is None else told
    for path in paths:
        start = time.perf_counter()
        with pytest.raises(OutputError) as err:
            figures(case_id, data, console, stderr, told, path)

        record(klass, case_id, path, True, time.perf_counter() - start)
        assert re.search(match, str(err.value)), (
            f'{case_id}, {how}: {path} said {err.value}')


def edit(data, pattern, replacement, count=0):
    '''``data`` with ``pattern`` replaced (every line of results, or
    ``count`` times); it must change.'''
    mutated = re.sub(pattern, replacement, data, count=count)
    assert mutated != data, pattern
    return mutated
