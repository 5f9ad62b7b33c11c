'''What the mdtest validation tests share (tests/tools/test_mdtest_asked.py,
tests/tools/test_mdtest_faults.py): the real outputs, and the two paths each
mutated one is read by, the parser and
:func:`microbench.suite.samples.read_runs` on the files of a sample as a rounds
job keeps them, both of which must reject it with a message that says what
is wrong.

The real outputs are tests/data/mdtest's with a saved command line (a ``#
cmd:`` line): what the run was asked comes from it
(tests/helpers/catalogue.py's ``mdtest_asked``; every one ran its ranks on one
node).  Every example is tallied (tests/helpers/classes.py's
``VALIDATION_TALLY``).
'''

import functools
import re
import tempfile
import time

import pytest

from microbench.tools import mdtest
from microbench.suite import output, samples
from microbench.suite.output import OutputError

from catalogue import VARIANT, keep, mdtest_asked
from classes import record
from fixtures import text

#: Real outputs of a whole run (stdout; their stderr was empty)
REAL = ['mdtest/suite-easy-none.txt', 'mdtest/suite-easy-node.txt',
        'mdtest/suite-hard-none.txt', 'mdtest/suite-hard-node.txt',
        'mdtest/n200.txt', 'mdtest/n200-F.txt', 'mdtest/n200-N1.txt',
        'mdtest/mdtest-np2-n100.txt']


# --- Reading both paths ------------------------------------------------------

def figures(case_id, data=None, stderr=b'', told=None, path='parse'):
    '''The figures of the real output (or a mutated one) on ``path``.'''
    data = text(case_id).encode() if data is None else data
    if path == 'parse':
        return mdtest.parse(output.decode(data), **(told or {})).figures

    with tempfile.TemporaryDirectory() as directory:
        paths = keep(directory, {'mdtest.out': data, 'stderr.txt': stderr})
        try:
            runs = samples.read_runs(directory, VARIANT, 1, functools.partial(
                mdtest.read_sample, asked=told))
        except samples.SampleError as err:
            assert err.number == 1 and err.file in paths, err
            raise

    return runs[0].figures


def assert_rejected(klass, case_id, how, match, data=None, stderr=b'',
                    told=None, paths=('parse', 'sample')):
    '''Both paths reject the mutated output with a message matching
    ``match`` (told what the real run asked by default).'''
    told = mdtest_asked(case_id) if told is None else told
    for path in paths:
        start = time.perf_counter()
        with pytest.raises(OutputError) as err:
            figures(case_id, data, stderr, told, path)

        record(klass, case_id, path, True, time.perf_counter() - start)
        assert re.search(match, str(err.value)), (
            f'{case_id}, {how}: {path} said {err.value}')


def edit(case_id, pattern, replacement):
    data = text(case_id)
    mutated = re.sub(pattern, replacement, data, flags=re.M)
    assert mutated != data, (case_id, pattern)
    return mutated.encode()

