'''``microbench audit --measure`` on an IO500 configuration and on a
ReFrame check (issue 46): the two IOR forms it measures
(microbench/audit/measure.py), from a real configuration of the second
corpus's development half and a real public check
(tests/data/audit/reframecheck, its source in tests/data/README.md); end
to end in test_audit_measure_e2e.py.'''

import os

from microbench.audit import judge, measure

import fixtures
from corpus2 import GIB, audited

#: IO500 configuration of a site (stackhpc): every phase, defaults
IO500 = 'io500-ini-stackhpc-benchmark.ini'
#: HPC2N's IOR check (hpc2n/hpc2n-reframe-tests)
HPC2N = os.path.join(fixtures.path('audit'), 'reframecheck',
                     'hpc2n-ior_check.py')


def s4(report, start):
    '''The invocation whose text starts with ``start``, and its S4.'''
    invocation = next(inv for inv in report.invocations
                      if inv.where.text.startswith(start))
    return invocation, next(f for f in invocation.findings
                            if f.pitfall == 'S4')


def check(path):
    with open(path, 'rb') as fp:
        return judge.audit_bytes(path, fp.read(), judge.new_context(
            path, 24 * GIB, directory=os.path.dirname(path)))


def test_an_io500_read_phase_is_measured_with_the_write_before_it():
    invocation, finding = s4(audited(IO500), '[ior-easy-read]')
    forms = measure._ior_forms(invocation, finding, {'file_size': '512m'})
    yours, realistic = forms['yours'], forms['realistic']
    # the phase reads (-r -R): its file written first, as ior-easy-write
    # did; the data check (-R) and the file (-o) left to the check
    assert '-w' in yours and '-r' in yours and '-R' not in yours
    assert yours[yours.index('-b') + 1] == '512m' and '-o' not in yours
    # on this one node -C -Q 1 reads its own node's cache: O_DIRECT
    assert '-C' in yours and '-C' not in realistic
    assert realistic[-1] == '--posix.odirect'


def test_a_reframe_checks_tests_are_measured_without_unknown_words():
    report = check(HPC2N)
    assert report.error is None and report.kind == 'reframe-check'
    invocation, finding = s4(report, 'IorWriteCheck:')
    # its class body's -w -k, then the base's hook's options
    assert invocation.where.text.startswith(
        'IorWriteCheck: ior -w -k -F -C -Q $')
    forms = measure._ior_forms(invocation, finding, {
        'file_size': '1g', 'runtime_s': '0'})
    yours = forms['yours']
    # the options whose value the check computes are IOR's defaults here,
    # the stonewall dropped (runtime_s=0), its write read after it
    assert not any(word.startswith('$') for word in yours)
    assert '-D' not in yours and '-Q' not in yours and '-A' not in yours
    assert yours == ['-w', '-k', '-F', '-C', '-r', '-b', '1g']
    assert forms['realistic'] == [*yours, '-e']


def test_a_reordered_read_on_one_node_is_measured_as_the_read_it_is():
    # ior -C on one node: -C moves the read to a task of the same node,
    # the page cache's; --measure pairs it with O_DIRECT, the read's gap
    line = 'ior -C -w -r -t 1m -b 16m -o f'
    report = judge.audit_bytes('line.cmd', line.encode(), judge.new_context(
        'line.cmd', 24 * 2**30))
    (invocation,) = report.invocations
    reorder = [f for f in invocation.findings if f.pitfall == 'S4'
               and f.evidence.startswith('-C')][0]
    assert reorder.gap == 'easy_read_none_over_odirect'
    assert reorder.measure['read_after_write']
    forms = measure._ior_forms(invocation, reorder)
    assert '--posix.odirect' in forms['realistic']
    assert '-C' not in forms['realistic'] and '-C' in forms['yours']
