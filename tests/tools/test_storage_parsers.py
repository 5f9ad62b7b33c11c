'''IOR, mdtest and elbencho parsers on real outputs, and broken copies.'''

import json

import pytest

from microbench.tools import elbencho, ior, mdtest
from microbench.suite import output
from microbench.suite.output import OutputError

from fixtures import text

STONEWALLED = 'ior/easy-stonewalled.summary.json'
ENDED_EARLY = 'ior/easy-ended-before-stonewall.summary.json'


def test_ior_summary():
    run = ior.parse_summary(text('ior/basic-F.summary.json'))
    assert (run.version, run.nodes, run.tasks, run.deadline_s) == (
        '4.0.0', 1, 2, 0)
    assert set(run.mib_s) == {'write', 'read'}
    assert run.mib_s['read'] > run.mib_s['write'] > 0
    assert ior.unsustained(run) is None      # no stonewall asked


def test_ior_summary_of_the_shared_fixture():
    # The fixture printed its JSON summary on stdout; parse that part
    summary = text('ior/ior-np2-F-json.json')
    run = ior.parse_summary(summary)
    assert run.mib_s == {'write': 3318.9965, 'read': 15742.1684}


def test_ior_stonewall():
    run = ior.parse_summary(text(STONEWALLED))
    assert run.deadline_s == 2
    assert run.stonewall_s['write'] >= 2
    assert ior.unsustained(run) is None


def test_ior_write_that_ended_before_its_stonewall():
    run = ior.parse_summary(text(ENDED_EARLY))
    message = ior.unsustained(run)
    assert message.startswith('the write phase ended after 0.0')
    assert 'before its 5 s stonewall' in message


@pytest.mark.parametrize('fraction', [0.0, 0.3, 0.9])
def test_ior_truncated_summary_is_rejected(fraction):
    full = text(STONEWALLED)
    with pytest.raises(OutputError, match='empty|not valid JSON'):
        ior.parse_summary(full[:int(len(full) * fraction)])


def test_ior_incomplete_summary_is_rejected():
    data = json.loads(text(STONEWALLED))
    data['summary'] = []
    with pytest.raises(OutputError, match='no "write" summary entry'):
        ior.parse_summary(json.dumps(data))

    data = json.loads(text(STONEWALLED))
    del data['summary'][0]['bwMeanMIB']
    with pytest.raises(OutputError, match='has no "bwMeanMIB"'):
        ior.parse_summary(json.dumps(data))

    data = json.loads(text(STONEWALLED))
    data['summary'][0]['bwMeanMIB'] = 'fast'
    with pytest.raises(OutputError, match='not a number'):
        ior.parse_summary(json.dumps(data))


def test_ior_text_output_is_not_a_summary():
    with pytest.raises(OutputError, match='not valid JSON'):
        ior.parse_summary(text('ior/ior-np2-shared.txt'))


@pytest.mark.parametrize('name,first', [
    ('ior/error-nonexistent-dir.txt', 'ERROR: open64("/nonexistent/dir/file'),
    ('ior/error-block-not-multiple.txt',
     'ERROR: block size must be a multiple of transfer size'),
    # IOR's aiori library: "<time>: Process N: FAILED in <where>, <why>"
    ('ior/failed-summaryfile.stdout.txt',
     '11/25/2026 08:30:38: Process 0: FAILED in DecodeDirective, Cannot '
     'open output file for writes!'),
    # MPICH, when IOR aborts before MPI is up
    ('ior/failed-summaryfile.stderr.txt',
     'Attempting to use an MPI routine (internal_Abort) before'),
])
def test_ior_errors(name, first):
    assert output.error_lines(text(name), ior.ERRORS)[0].startswith(first)
    with pytest.raises(OutputError, match='IOR printed an error: '):
        ior.parse_stdout(text(name))


STDOUTS = ['ior/easy-stonewalled.stdout.txt',
           'ior/easy-ended-before-stonewall.stdout.txt',
           'ior/easy-reorder-fsync.stdout.txt', 'ior/hard-none.stdout.txt',
           'ior/easy-i3.stdout.txt', 'ior/scaling-n1-t1.stdout.txt',
           'ior/slurm-n2-t2.stdout.txt']


@pytest.mark.parametrize('name', STDOUTS)
def test_ior_success_has_no_errors(name):
    assert output.error_lines(text(name), ior.ERRORS) == []


@pytest.mark.parametrize('name', STDOUTS)
def test_ior_stdout_agrees_with_its_summary(name):
    '''IOR's standard output with a summary file: a "Writing output to"
    line per task, a stonewall line per phase and repetition, and last
    the write phase's pairs, which are the bytes its summary says.'''
    out = ior.parse_stdout(text(name))
    run = ior.parse_summary(text(name.replace('.stdout.txt',
                                              '.summary.json')))
    assert len(out.summary_files) == run.tasks
    assert len(out.stonewalls) == 2 * run.repetitions
    assert out.pairs == out.stonewalls[0][1]
    assert run.xsize_mib['write'] == pytest.approx(
        out.pairs * run.tasks * run.transfer / 2**20, abs=1e-4)
    ior.check_stdout(out, run)


def test_ior_summary_knows_its_shape():
    run = ior.parse_summary(text('ior/hard-none.summary.json'))
    assert (run.tasks, run.transfer, run.repetitions, run.wear_out,
            run.summary_file) == (2, 47008, 1, True, 'ior.json')
    assert set(run.stonewall_mib_s) == {'write', 'read'}


@pytest.mark.parametrize('name,tasks,create', [
    ('mdtest/mdtest-np2-n100.txt', 2, 20220.335),
    ('mdtest/n200.txt', 2, None),
    ('mdtest/n200-N1.txt', 2, None),
    ('mdtest/n200-F.txt', 2, None),
    ('mdtest/suite-easy-none.txt', 2, 8393.812),
    ('mdtest/suite-easy-node.txt', 2, None),
    ('mdtest/suite-hard-none.txt', 2, None),
    ('mdtest/suite-hard-node.txt', 2, 7548.26),
])
def test_mdtest(name, tasks, create):
    run = mdtest.parse(text(name))
    assert (run.version, run.tasks, run.nodes) == ('4.0.0', tasks, 1)
    assert set(run.rates) == {'create', 'stat', 'read', 'remove'}
    assert all(rate > 0 for rate in run.rates.values())
    if create:
        assert run.rates['create'] == create


@pytest.mark.parametrize('variant', ['easy.none', 'easy.node', 'hard.none',
                                     'hard.node'])
def test_mdtest_told_what_the_suite_asks(variant):
    # A real run of each variant's command (-n 100 here), told as the
    # rounds tell it: the scratch directory is the shell's
    shape, stride = variant.split('.')
    options = ['-F', '-n', '100', '-d', '$scratch/mdtest',
               *(['-u'] if shape == 'easy' else ['-w', '3901', '-e', '3901']),
               *(['-N', '2'] if stride == 'node' else [])]
    run = mdtest.parse(text(f'mdtest/suite-{shape}-{stride}.txt'),
                       operations=tuple(mdtest.OPERATIONS.values()),
                       items=100, tasks=2, nodes=1, iterations=1,
                       command=['mdtest', *options])
    assert run.stride == (2 if stride == 'node' else 0)
    assert run.nodemap == '11'
    with pytest.raises(OutputError, match=r"its argument 3 is '100', not "
                                          r"the asked '10000'"):
        mdtest.parse(text(f'mdtest/suite-{shape}-{stride}.txt'),
                     command=['mdtest', *options[:2], '10000',
                              *options[3:]])


def test_mdtest_error_is_rejected_with_its_first_error():
    expected_error = r'mdtest printed an error: ERROR: open64\("/nonexistent/x'
    with pytest.raises(OutputError, match=expected_error):
        mdtest.parse(text('mdtest/error-nonexistent.txt'))


@pytest.mark.parametrize('marker', ['SUMMARY rate', '-- finished at',
                                    'File removal'])
def test_mdtest_truncated_output_is_rejected(marker):
    full = text('mdtest/n200.txt')
    with pytest.raises(OutputError,
                       match='"SUMMARY rate" table|does not end|has no end'):
        mdtest.parse(full[:full.index(marker)])


def test_mdtest_other_output_is_rejected():
    with pytest.raises(OutputError, match='no "mdtest-... was launched" line'):
        mdtest.parse(text('ior/ior-np2-shared.txt'))


@pytest.mark.parametrize('name,direct,write,read', [
    ('elbencho/buffered_allfiles.res.json', False, None, None),
    ('elbencho/direct.res.json', True, None, None),
    ('elbencho/preallocfile.res.json', False, None, None),
    ('elbencho/service_client_write_allfiles.res.json', False, None, None),
    ('elbencho/elbencho-t2-1g-buffered-jsonfile.json', False,
     817631757 / 2**20, 14917639056 / 2**20),
    ('elbencho/suite-buffered-grow.json', False, None, None),
    ('elbencho/suite-buffered-prealloc.json', False, None, None),
    ('elbencho/suite-direct-grow.json', True, None, None),
    ('elbencho/suite-direct-prealloc.json', True, 2133759308 / 2**20,
     1747672178 / 2**20),
    ('elbencho/suite-service-2hosts.json', False, None, None),
])
def test_elbencho(name, direct, write, read):
    run = elbencho.parse(text(name))
    assert run.version == '3.1-9'
    assert run.direct == direct
    assert run.mib_s['WRITE'] > 0 and run.mib_s['READ'] > 0
    if write:
        assert run.mib_s == pytest.approx({'WRITE': write, 'READ': read})


def test_elbencho_told_what_the_suite_asks():
    # The suite's command of direct.prealloc (threads bound to core 0), as
    # the rounds tell it: the scratch directory is the shell's
    options = ['-w', '-r', '-t', '2', '-b', '1m', '-s', '256m', '--direct',
               '--preallocfile', '--cores', '0']
    name = 'elbencho/suite-direct-prealloc.json'
    run = elbencho.parse(
        text(name), elbencho.PHASES, block_size='1m', file_size='256m',
        threads=2, hosts=1, direct=True,
        command=['elbencho', *options, '--jsonfile', 'elbencho.json',
                 '$scratch/file'])
    assert run.direct_io == 'direct_io true'
    elbencho.check_console(text('elbencho/suite-direct-prealloc.out'), run)
    with pytest.raises(OutputError, match=r'the results say direct_io true '
                                          r'\(O_DIRECT\), but the command '
                                          r'asked for buffered I/O'):
        elbencho.parse(text(name), direct=False)


def test_elbencho_console_of_the_shared_fixture():
    # The shared fixture's console output of the same run as its results
    run = elbencho.parse(text('elbencho/elbencho-t2-1g-buffered-jsonfile'
                              '.json'))
    console = text('elbencho/elbencho-t2-1g-buffered-console.txt')
    elbencho.check_console(console, run)
    with pytest.raises(OutputError, match='the console says WRITE '
                                          'Throughput MiB/s last done 780, '
                                          'the results file 779'):
        elbencho.check_console(console.replace(
            'Throughput MiB/s :        1116         779',
            'Throughput MiB/s :        1116         780'), run)


def test_elbencho_run_cut_by_its_time_limit_is_rejected():
    with pytest.raises(OutputError,
                       match='no READ phase: the run ended early'):
        elbencho.parse(text('elbencho/timelimit2_infloop.res.json'))


def test_elbencho_truncated_and_empty_results_are_rejected():
    full = text('elbencho/direct.res.json')
    with pytest.raises(OutputError, match='does not end: the output was cut'):
        elbencho.parse(full[:len(full) // 2])

    with pytest.raises(OutputError, match='empty'):
        elbencho.parse('')


@pytest.mark.parametrize('name,said', [
    ('elbencho/error-nonexistent-dir.txt',
     'ERROR: Unable to open benchmark path'),
    ('elbencho/error-direct-ramfs.txt', 'SysErr: Invalid argument'),
    ('elbencho/error-service-nonexistent-dir.txt',
     'Preparation phase error: Unable to open benchmark path'),
])
def test_elbencho_errors(name, said):
    assert said in output.error_lines(text(name), elbencho.ERRORS)[0]


def test_mdtest_failed_validation_is_rejected():
    with pytest.raises(OutputError,
                       match='mdtest printed an error: .*FAILED in '
                             'md_validate_tests, '
                             'When writing and reading files, read bytes '
                             'must be smaller'):
        mdtest.parse(text('mdtest/error-read-more-than-written.txt'))


def test_diagnosis_of_a_full_file_system():
    said = output.diagnosis([text('mdtest/error-disk-full.txt'),
                             text('mdtest/error-disk-full-stderr.txt')],
                            mdtest.ERRORS, mdtest.WARNINGS)
    assert said.startswith('WARNING: write(')
    assert said.endswith('failed No space left on device')
    assert output.diagnosis(['', text('mdtest/error-disk-full-stderr.txt')],
                            mdtest.ERRORS, mdtest.WARNINGS) == (
        "mdtest: aiori-POSIX.c:769: POSIX_Xfer: Assertion `rc >= 0' failed."
    )
