'''Validation by class for elbencho, part 1: the results held to what the
run was asked.  Real results told what their run was asked are read; the
results of *another command* are rejected on both paths (the parser, and
:func:`microbench.suite.samples.read_runs` on a sample's files; see
tests/helpers/elbencho_cases.py) with a message that says what is wrong:

1. *another command*: the parser told another block or file size, thread
   count, host count, O_DIRECT flag, phase list or command line than the
   run's; or the results edited to say another (both values named).  The
   O_DIRECT flag is the variant's witness: :func:`elbencho.direct_witness`
   gives its line, or names the sample that says otherwise.

The faults the results show by themselves (a redundant figure changed, a
failure line) are tests/tools/test_elbencho_faults.py's.
'''

import functools
import re
import tempfile
import time

import pytest

from microbench.tools import elbencho
from microbench.suite import samples
from microbench.suite.output import OutputError
from microbench.units import size_bytes

from catalogue import VARIANT, elbencho_asked
from classes import record
from elbencho_cases import REAL, assert_rejected, edit, figures, real
from fixtures import text


# --- The real results are read ---------------------------------------------

@pytest.mark.parametrize('case_id', REAL)
@pytest.mark.parametrize('path', ['parse', 'sample'])
def test_real_results_told_what_was_asked_are_read(case_id, path):
    want = elbencho.parse(text(case_id)).figures
    start = time.perf_counter()
    got = figures(case_id, told=elbencho_asked(case_id), path=path)
    record('7 a valid output', case_id, path, False,
           time.perf_counter() - start)
    assert got == want
    assert set(got) == {'write', 'read'} and all(v > 0 for v in got.values())


def test_what_the_service_results_state():
    case_id = 'elbencho/suite-service-2hosts.json'
    run = elbencho.parse(text(case_id), **elbencho_asked(case_id))
    # Two hosts share the one file: it is moved once per phase
    assert (run.hosts, run.config['threads'], run.config['file_size']) == (
        2, '2', str(256 * 2**20))
    assert {m['last_done'].moved for m in run.moments.values()} == {2**28}


@pytest.mark.parametrize('case_id', REAL)
def test_the_direct_witness_says_what_the_results_say(case_id):
    run = elbencho.parse(text(case_id))
    claim = elbencho_asked(case_id)['direct']
    assert run.direct == claim
    said = 'true' if claim else 'false'
    io = 'O_DIRECT' if claim else 'buffered I/O'
    assert elbencho.direct_witness([run, run, run], claim) == (
        f'direct_io {said} in the results of all 3 samples: {io}, as the '
        f'variant claims')
    other = 'buffered I/O' if claim else 'O_DIRECT'
    with pytest.raises(OutputError, match=(
            rf"sample 1's results say direct_io {said} \({io}\), but the "
            rf'variant claims {other}$')):
        elbencho.direct_witness([run], not claim)


# --- 1. Another command ----------------------------------------------------

def _others(case_id):
    '''(name, what the parser is told instead) of every other value.'''
    told = elbencho_asked(case_id)
    argv = told['command']
    direct = ([w for w in argv if w != '--direct'] if told['direct']
              else [*argv[:-1], '--direct', argv[-1]])
    block = [*argv]
    block[argv.index('-b') + 1] = '4k'
    return [
        ('block_size', '4k'), ('block_size', '2m'),
        ('file_size', '128m'), ('file_size', '2g'),
        ('threads', told['threads'] + 1), ('threads', 16),
        ('hosts', told['hosts'] + 1),
        ('direct', not told['direct']),
        ('phases', ('WRITE',)), ('phases', ('READ',)),
        ('phases', ('WRITE', 'READ', 'STAT')),
        ('command', direct), ('command', block),
        ('command', ['fio', *argv[1:]]),
        ('command', [*argv[:-1], '--preallocfile', argv[-1]]),
    ]


#: What the message of each told value says (both values named)
TOLD = {
    'block_size': r'the results say block_size 1048576 bytes, not the asked '
                  r'-b {value} \({bytes} bytes\)',
    'file_size': r'the results say file_size {said} bytes, not the asked -s '
                 r'{value} \({bytes} bytes\)',
    'threads': r'the results say threads {said}, not the asked {value} '
               r'\(-t\)',
    'hosts': r'the results say hosts {said}, not the asked {value} '
             r'\(--hosts\)',
    'direct': r'the results say direct_io {said} \(.*\), but the command '
              r'asked for {io}',
    'phases': r'phase, which was not asked|no STAT phase',
    'command': r'ran as ".*", \d+ arguments, not the asked|its argument \d+ '
               r"is '1m', not the asked '4k'|not of the asked 'fio'",
}


@pytest.mark.parametrize('case_id', REAL)
def test_told_another_value(case_id):
    told = elbencho_asked(case_id)
    run = elbencho.parse(text(case_id))
    for name, value in _others(case_id):
        said = {'file_size': run.config['file_size'],
                'threads': run.config['threads'],
                'hosts': run.config['hosts'],
                'direct': run.config['direct_io']}.get(name)
        if name == 'file_size' and size_bytes(value) == int(said):
            continue

        match = TOLD[name].format(
            value=value, said=said, io='O_DIRECT' if value else 'buffered',
            bytes=size_bytes(value) if name.endswith('size') else None)
        assert_rejected('1 another program or size', case_id,
                        f'told {name}={value}', match,
                        told={**told, name: value})


def _config_edits(case_id):
    '''(name, pattern, replacement, what the message says) of the results
    edited to say another configuration, every phase alike.'''
    told = elbencho_asked(case_id)
    flip = 'false' if told['direct'] else 'true'
    threads = told['threads']
    hosts = told['hosts']
    return [
        ('block_size', rb'"block_size":"1048576"', b'"block_size":"4096"',
         r'block_size 4096 bytes, not the asked -b 1m \(1048576 bytes\)'),
        ('file_size', rb'"file_size":"(\d+)"', b'"file_size":"4096"',
         r'file_size 4096 bytes, not the asked -s'),
        ('threads', rb'"threads":"\d+"', f'"threads":"{threads * 4}"'.encode(),
         rf'threads {threads * 4}, not the asked {threads} \(-t\)'),
        ('hosts', rb'"hosts":"\d+"', f'"hosts":"{hosts + 1}"'.encode(),
         rf'hosts {hosts + 1}, not the asked {hosts} \(--hosts\)'),
        ('direct_io', rb'"direct_io":"\w+"', f'"direct_io":"{flip}"'.encode(),
         rf'the results say direct_io {flip} \(.*\), but the command asked'),
        ('command -b', rb'\\"-b\\" \\"1m\\"', rb'\\"-b\\" \\"4k\\"',
         r"its argument \d+ is '4k', not the asked '1m'"),
        ('command -t', rb'\\"-t\\" \\"\d+\\"', rb'\\"-t\\" \\"64\\"',
         r"its argument \d+ is '64', not the asked '\d+'"),
        ('command program', rb'"command":"\\"(?:[^"\\]|\\/)*\\"',
         b'"command":"\\"fio\\"',
         r"the results are of 'fio', not of the asked"),
        ('command --direct', rb'\\"-w\\" ', rb'\\"-w\\" \\"--direct\\" ',
         r'ran as ".*", \d+ arguments, not the asked'),
        ('phase READ', rb'"phase_type":"READ"', b'"phase_type":"STAT"',
         r'no READ phase'),
        ('phase WRITE', rb'"phase_type":"READ"', b'"phase_type":"WRITE"',
         r'the WRITE phase appears twice'),
    ]


@pytest.mark.parametrize('case_id', REAL)
def test_results_of_another_command(case_id):
    data, _ = real(case_id)
    for name, pattern, replacement, match in _config_edits(case_id):
        mutated = edit(data, pattern, replacement)
        assert_rejected('1 another program or size', case_id,
                        f'{name} edited', match, data=mutated)


@pytest.mark.parametrize('case_id', REAL)
def test_results_saying_another_io_reject_the_variant_sample(case_id):
    '''The witness on a sample: a variant claiming O_DIRECT (or buffered
    I/O) whose second sample's results say otherwise.'''
    data, console = real(case_id)
    told = elbencho_asked(case_id)
    flip = 'false' if told['direct'] else 'true'
    other = edit(data, rb'"direct_io":"\w+"',
                 f'"direct_io":"{flip}"'.encode())
    with tempfile.TemporaryDirectory() as directory:
        for number, results in ((1, data), (2, other), (3, data)):
            for name, content in (('elbencho.json', results),
                                  ('elbencho.out', console),
                                  ('stderr.txt', b'')):
                with open(f'{directory}/'
                          f'{samples.kept_name(name, VARIANT, number)}',
                          'wb') as fp:
                    fp.write(content)

        with pytest.raises(samples.SampleError) as err:
            samples.read_runs(directory, VARIANT, 3, functools.partial(
                elbencho.read_sample, asked=told))

    assert err.value.number == 2
    assert err.value.file.endswith(f'elbencho-{VARIANT}-2.json')
    io = 'O_DIRECT' if told['direct'] else 'buffered I/O'
    assert re.search(rf'direct_io {flip} \(.*\), but the command asked for '
                     rf'{io}', str(err.value)), err.value
    record('1 another program or size', case_id, 'sample', True, 0.0)
