'''``microbench audit`` behind one contract, on generated and mutated
inputs: every input is judged, or refused in one line naming it (never
an exception, never the audit's own failure), and its reports render in
every format.

The inputs: fio command lines built from fio's own option table and
mutated word by word; the corpus's real job files, command lines and
batch scripts (tests/data/audit/corpus) broken byte by byte and line by
line (tests/helpers/mutations.py), and so the probe set's IO500
drivers, IOR scripts and other sites' ReFrame checks
(tests/data/audit/probe); IOR, mdtest, OSU, fabtests and
elbencho lines from their option tables, behind launchers; batch scripts
built from directives, loops, assignments and benchmark lines.  And the
linear word splitter against ``shlex.split`` itself.  The counts are in
docs/operators/audit.md ("Bounds").
'''

import io
import os
import shlex
from contextlib import redirect_stderr, redirect_stdout

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis.control import currently_in_test_context
from hypothesis import strategies as st

from microbench.audit import (bounds, findings, judge, network, options,
                              render, shellwords)
from microbench.cli import main

import fixtures
from mutations import MUTATIONS_OF_ANY

CORPUS = fixtures.path(os.path.join('audit', 'corpus'))
GIB = 2**30

#: Examples per property (derandomized: the same inputs every run)
EXAMPLES = 100
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def corpus(*suffixes):
    return sorted(os.path.join(CORPUS, name) for name in os.listdir(CORPUS)
                  if name.endswith(suffixes))


def holds(report, name):
    '''The contract on one report: judged, or refused in one line that
    names the input; never the audit's own failure; every format
    renders.'''
    if report.error is not None:
        assert judge.FAILED not in report.error, report.error
        assert '\n' not in report.error and report.error.strip()
        assert len(report.error) <= findings.MESSAGE_CHARS + 4
        assert report.error.startswith(name), (name, report.error)
        assert not report.invocations
    text = render.text([report])
    if report.error is not None:
        assert text.count('\n') == 1, text
    render.as_json([report])
    render.sarif([report], '0')
    if currently_in_test_context():      # --hypothesis-show-statistics
        event('judged' if report.error is None else 'refused')
    return report


def audit_data(name, data, directory=CORPUS):
    context = judge.new_context(name, 24 * GIB, directory=directory)
    return holds(judge.audit_bytes(name, data, context), name)


def audit_words(argv):
    context = judge.new_context('argv', 24 * GIB)
    return holds(judge.audit_argv(list(argv), context), 'argv')


# ---- the words of a line, as shlex.split gives them ---------------------

_SHELL = st.text(alphabet=st.sampled_from(
    list('ab =-') + [' ', '\t', '\n', '\r', '"', "'", '\\', '#', '$', '{',
                     '}', ';', '\x0b', '\u00e9']), max_size=40)


@PROPERTY
@given(_SHELL)
def test_split_is_shlex_split(text):
    '''The linear splitter gives shlex's words, or shlex's error.'''
    try:
        expected = ('words', shlex.split(text, comments=True))
    except ValueError as err:
        expected = ('error', str(err))
    try:
        got = ('words', shellwords.split(text))
    except ValueError as err:
        got = ('error', str(err))
    assert got == expected


# ---- fio command lines -------------------------------------------------

_FIO_OPTIONS = sorted(options.fio())
_VALUES = st.sampled_from(
    ['1', '0', '4k', '1g', '10G', '1mi', '50%', '1k-4k', 'write', 'randrw',
     'read', 'libaio', 'io_uring', 'none', 'native', '', 'yes', 'on',
     '9' * 400, '1e9', '-1', 'abc', '\u00b2', '/dev/sda', 'f:g', '${X}',
     '1' * 5000, 'rw:4k'])
#: A setting fio takes (any value: fio reads values as it runs them)
_FIO_SETTING = st.one_of(
    st.builds(lambda name, value: f'--{name}={value}',
              st.sampled_from(_FIO_OPTIONS), _VALUES),
    st.builds(lambda name: f'--name={name}',
              st.sampled_from(['t', 'global', 'a b', ''])))
#: A word fio may reject: bare options, unknown ones, file names
_FIO_ODD = st.one_of(
    st.builds(lambda name: f'--{name}', st.sampled_from(_FIO_OPTIONS)),
    st.sampled_from(['--section=t', '--output-format=json', '-', '--',
                     'job.fio', '-x', '--bogus=1', '/dev/zero', 'x' * 300]))
_FIO_WORD = st.one_of(_FIO_SETTING, _FIO_ODD)
_LAUNCHERS = st.sampled_from(
    [[], ['srun', '-N', '2', '-n', '4'], ['mpirun', '-np', '2'],
     ['mpiexec', '-n', '4', '-ppn', '2'], ['aprun', '-n', '2'],
     ['taskset', '-c', '0'], ['numactl', '-C', '0'], ['env', 'A=1'],
     ['timeout', '10'], ['jsrun', '-n', '2'], ['srun', '-N'],
     ['mpirun_rsh', '-np', '2', 'h1', 'h2']])


@PROPERTY
@given(_LAUNCHERS, st.lists(_FIO_SETTING, max_size=12),
       st.lists(_FIO_ODD, max_size=2), st.data())
def test_generated_fio_command_lines(launcher, words, odd, data):
    words = list(words)
    for word in odd:
        words.insert(data.draw(st.integers(0, len(words))), word)
    audit_words([*launcher, 'fio', *words])


def _word_mutation(draw, words):
    '''One change to a command line's words (never its program).'''
    index = draw(st.integers(1, max(len(words) - 1, 1)))
    kind = draw(st.sampled_from(['drop', 'twice', 'cut', 'junk', 'swap',
                                 'empty', 'value']))
    words = list(words)
    if index >= len(words):
        return words + [draw(_FIO_WORD)]
    word = words[index]
    if kind == 'drop':
        del words[index]
    elif kind == 'twice':
        words.insert(index, word)
    elif kind == 'cut':
        words[index] = word[:draw(st.integers(0, len(word)))]
    elif kind == 'junk':
        at = draw(st.integers(0, len(word)))
        words[index] = word[:at] + draw(st.sampled_from(
            ['=', '-', ' ', '"', '\x00', '$', '\u00e9', ',', ':'])) + word[at:]
    elif kind == 'swap' and index + 1 < len(words):
        words[index], words[index + 1] = words[index + 1], word
    elif kind == 'empty':
        words[index] = ''
    else:
        key = word.split('=', 1)[0]
        words[index] = f'{key}={draw(_VALUES)}'
    return words


def _command_lines(prefix):
    out = []
    for path in corpus('.cmd'):
        if os.path.basename(path).startswith(prefix):
            with open(path) as fp:
                text = fp.read().strip()
            out.append(shellwords.split(text.removeprefix('$ ')))
    return out


_FIO_LINES = _command_lines('fio-')


@PROPERTY
@given(st.sampled_from(_FIO_LINES), st.data())
def test_mutated_fio_command_lines(words, data):
    for _ in range(data.draw(st.integers(1, 3))):
        words = _word_mutation(data.draw, words)
    audit_words(words)


# ---- the corpus's files, broken byte by byte and line by line ----------

def _mutated(path, data):
    with open(path, 'rb') as fp:
        content = fp.read()
    mutation = data.draw(st.sampled_from(sorted(MUTATIONS_OF_ANY)))
    if mutation.startswith('number') and not any(c in b'0123456789'
                                                 for c in content):
        mutation = 'cut'
    _, content = MUTATIONS_OF_ANY[mutation](data.draw, content)
    return content


@PROPERTY
@given(st.sampled_from(corpus('.fio')), st.data())
def test_mutated_job_files(path, data):
    audit_data(path, _mutated(path, data))


@PROPERTY
@given(st.sampled_from(corpus('.sh', '.txt')), st.data())
def test_mutated_batch_scripts(path, data):
    audit_data(path, _mutated(path, data))


@PROPERTY
@given(st.sampled_from(corpus('.cmd')), st.data())
def test_mutated_command_files(path, data):
    audit_data(path, _mutated(path, data))


# ---- IOR, mdtest, OSU, fabtests, elbencho -------------------------------

def _table_words(table):
    names = sorted(table)
    return st.lists(st.one_of(
        st.sampled_from(names),
        st.builds(lambda name, value: f'{name}={value}' if
                  name.startswith('--') else f'{name}{value}',
                  st.sampled_from(names), _VALUES),
        _VALUES), max_size=10)


_TOOLS = {
    'ior': _table_words(options.getopt_table('ior')),
    'mdtest': _table_words(options.getopt_table('mdtest')),
    'elbencho': _table_words(options.getopt_table('elbencho')),
    'osu_bw': _table_words(network.osu_table('osu_bw')),
    'osu_alltoall': _table_words(network.osu_table('osu_alltoall')),
    'fi_msg_bw': _table_words(network.fabtests_table('fi_msg_bw')),
    'fi_rma_bw': _table_words(network.fabtests_table('fi_rma_bw')),
}


@PROPERTY
@given(_LAUNCHERS, st.sampled_from(sorted(_TOOLS)), st.data())
def test_generated_lines_of_the_other_tools(launcher, program, data):
    audit_words([*launcher, program, *data.draw(_TOOLS[program])])


_OTHER_LINES = [w for prefix in ('ior-', 'mdtest-', 'osu-', 'fabtests-',
                                 'elbencho-')
                for w in _command_lines(prefix)]


@PROPERTY
@given(st.sampled_from(_OTHER_LINES), st.data())
def test_mutated_lines_of_the_other_tools(words, data):
    for _ in range(data.draw(st.integers(1, 3))):
        words = _word_mutation(data.draw, words)
    audit_words(words)


# ---- batch scripts built from their pieces -----------------------------

_SCRIPT_LINE = st.sampled_from([
    '#SBATCH -N 2', '#SBATCH --ntasks-per-node=4', '#SBATCH -n', '#PBS -l '
    'select=2:ncpus=4:mpiprocs=4', '#BSUB -n 8', 'export SLURM_CPU_BIND=none',
    'N=4', 'BS=1m', 'A=$A$A', 'for i in 1 2 3; do', 'for bs in 4k 1m',
    'do', 'done', 'for i in $(seq 1 0 5); do', 'for i in {1..$N}; do',
    'for i in {9..1}; do', 'while true; do', 'if [ -f x ]; then', 'fi',
    'srun ior -w -r -t $BS -b 1g', 'mpirun -np $N osu_bw',
    'fio --name=t --rw=write --bs=$bs --size=1g', 'fio job.fio',
    'srun -N 2 -n 4 mdtest -n 100 -F', 'elbencho -w -s 1g /tmp/x',
    'fi_msg_bw -p tcp', 'echo "unclosed', 'cd ${DIR:-/tmp}', '${A:-',
    'fio --name=$i --rw=write --size=${SIZE:-1g}', 'lfs setstripe -c 4 .',
    'module load osu-micro-benchmarks/7.2', 'fio \\', '  --name=t \\',
    '  --rw=write', 'ior -C -Q 99999999999999999999999999999999999999',
    'srun -n 999999999999999999999999999999999999999 ior'])


@PROPERTY
@given(st.lists(_SCRIPT_LINE, min_size=1, max_size=14), st.booleans())
def test_generated_batch_scripts(lines, shebang):
    text = ('#!/bin/bash\n' if shebang else '') + '\n'.join(lines) + '\n'
    audit_data('job.sh' if shebang else 'job.cmd', text.encode())


# ---- the command itself ------------------------------------------------

@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.lists(st.one_of(_FIO_WORD, _VALUES), max_size=6))
def test_the_command_exits_0_1_or_2_and_refuses_in_one_line(words):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(['audit', '--memory', '24g', '--', 'fio', *words])
    assert code in (0, 1, 2)
    event(f'exit {code}')
    assert 'Traceback' not in out.getvalue() + err.getvalue()
    if code == 2:
        assert len(out.getvalue().strip().splitlines()) == 1, out.getvalue()


@pytest.mark.parametrize('limit', [bounds.EXCERPT_CHARS])
def test_a_message_quotes_a_long_word_cut(limit):
    '''A 1 MB option name is named in a message of a few hundred
    characters, not of a megabyte.'''
    report = audit_words(['fio', '--name=t', '--' + 'x' * 2**20 + '=1'])
    assert "fio has no option 'xxx" in report.error
    assert len(report.error) < 400 and '(1048576 characters)' in \
        report.error


# ---- issue 46's readers: IO500 drivers, IOR scripts, ReFrame checks ----

PROBES = [fixtures.path(os.path.join('audit', name))
          for name in ('probe', 'probe2', 'probe3', 'probe4')]


def probe():
    '''The probe sets' real inputs (io500.sh drivers, IOR scripts, other
    sites' ReFrame checks, batch scripts, fio job files, YAML specs), and
    the development halves of the corpora gathered after issue 46's rules
    (their held-out halves are only ever scored).'''
    later = []
    for name in ('corpus3', 'corpus4', 'corpus5', 'corpus6',
                 'corpus7', 'corpus8', 'corpus9', 'corpus10',
                 'corpus11', 'corpus12', 'corpus13', 'corpus14'):
        folder = fixtures.path(os.path.join('audit', name))
        with open(f'{folder}.yaml') as fp:
            later += [os.path.join(folder, entry['file'])
                      for entry in yaml.safe_load(fp)
                      if entry['split'] == 'dev']
    return sorted(os.path.join(folder, name) for folder in PROBES
                  for name in os.listdir(folder)
                  if name != 'SOURCES.tsv') + later


@PROPERTY
@given(st.sampled_from(probe()), st.data())
def test_mutated_drivers_scripts_and_checks(path, data):
    audit_data(path, _mutated(path, data))
