'''The acknowledgements files' reader (acks_yaml, acks.parse and
acks.load) on each kind of typo and attack of issue 42: an impossible
date unquoted, a date YAML does not turn into one, a member written as a
list or a mapping, a member given twice, an alias that expands, nesting
very deep, a huge file, bytes that are not UTF-8, a FIFO.  Each is one
line naming the file (and the entry, with its line), the entry (or the
file) left out, never an exception; both parsers PyYAML offers (libyaml's
and its own) read a file alike.'''

import os

import pytest
import yaml

from microbench.verdicts import acks, acks_yaml

HEAD = 'format: microbench acknowledgements\nversion: 1\nacks:\n'

#: An entry that applies (its night a session's UUID)
VALID = '''- partition: default
  check: fio_cache_flags
  variant: direct
  figure: write_median_mib_s
  night: 0c6f2a4e-9d1b-4c7e-8a3f-2b6d0e1c9a77
  kind: known
  reason: the RAID rebuild
'''

PARSERS = [yaml.SafeLoader] + (
    [yaml.CSafeLoader] if getattr(yaml, 'CSafeLoader', None) else [])


@pytest.fixture(params=PARSERS, ids=lambda p: p.__name__)
def parser(request, monkeypatch):
    '''Each parser PyYAML offers, as the one the reader uses.'''
    monkeypatch.setattr(acks_yaml, 'PARSER', request.param)
    return request.param


def one_entry_wrong(member, text):
    '''The file of :data:`VALID` and a second entry, the same with
    ``member`` written as ``text``.'''
    lines = ['  ' + line.lstrip('- ') for line in VALID.splitlines()]
    lines = [line for line in lines if not line.startswith(f'  {member}:')]
    lines.insert(1, f'  {member}: {text}')
    lines[0] = '- ' + lines[0][2:]
    return HEAD + VALID + '\n'.join(lines) + '\n'


def read(text):
    return acks.parse(text, 'local', 'local.yaml')


def left_out(text, said):
    '''The second entry is left out in one line that says ``said``; the
    first applies.'''
    found, problems = read(text)
    assert [a.index for a in found] == [1]
    line, = problems
    assert line.startswith('local.yaml #2 (line 11): '), line
    assert said in line and line.endswith(': left out'), line
    assert '\n' not in line
    return line


@pytest.mark.parametrize('text', ['2027-13-01', '2027-02-30', '2027-00-10',
                                  '2026-11-31', '"2027-13-01"'])
def test_an_impossible_day_unquoted_is_no_date(parser, text):
    # PyYAML's safe_load raises "month must be in 1..12" out of these
    left_out(one_entry_wrong('expires', text),
             f"expires '{text.strip(chr(34))}' is not a date (YYYY-MM-DD)")


@pytest.mark.parametrize('text', ['20270301', '2027-W09-1', '2027-060',
                                  '2027-3-1', '2027-03-01T00:00:00',
                                  '2027-03-01 00:00:00', '27-03-01',
                                  '"२०२७-०३-०१"', 'soon', '2027-03-01x'])
def test_an_expiry_in_another_form_is_no_date(parser, text):
    # Python's date.fromisoformat takes 20270301 and 2027-W09-1: compared
    # as text with YYYY-MM-DD days such an entry would never expire
    left_out(one_entry_wrong('expires', text), 'is not a date (YYYY-MM-DD)')


@pytest.mark.parametrize('text', ['20261120', '2026-13-01', 'yesterday',
                                  '2026-11-20 02:30', '0c6f2a4e',
                                  '0c6f2a4e9d1b4c7e8a3f2b6d0e1c9a77'])
def test_a_night_is_a_session_or_a_day(parser, text):
    left_out(one_entry_wrong('night', text), 'is neither a session (its '
             'UUID) nor a date (YYYY-MM-DD)')


@pytest.mark.parametrize('member', [*acks.REQUIRED, *acks.OPTIONAL])
@pytest.mark.parametrize('text, shape', [
    ('[known, noise]', 'a list'), ('{known: yes}', 'a mapping'),
    ('\n    - known\n    - noise', 'a list'),
    ('\n    known: yes', 'a mapping')])
def test_a_member_that_is_a_list_or_a_mapping_is_left_out(parser, member,
                                                          text, shape):
    left_out(one_entry_wrong(member, text), f'{member} is {shape}, not a '
             f'text')


def test_a_member_given_twice_is_left_out(parser):
    text = HEAD + VALID + VALID.replace('  kind: known',
                                        '  kind: known\n  kind: noise')
    left_out(text, "'kind' given twice (again at line 17)")


def test_a_member_named_by_a_list_is_left_out(parser):
    text = HEAD + VALID + VALID + '  ? [kind]\n  : noise\n'
    left_out(text, 'a member named by a list or a mapping (line 1')


def test_a_control_character_is_left_out_and_prose_is_one_line(parser):
    left_out(one_entry_wrong('reason', '"a bell \\a"'),
             "reason 'a bell \\x07' holds a control character")
    left_out(one_entry_wrong('check', '"fio\\ncache"'),
             "check 'fio\\ncache' holds a control character")
    found, problems = read(HEAD + VALID.replace(
        'reason: the RAID rebuild', 'reason: |\n    the RAID\n    rebuild\n'))
    assert problems == [] and found[0].reason == 'the RAID rebuild'


def file_out(text, said):
    '''The whole file is left out in one line that says ``said``.'''
    found, problems = read(text)
    assert found == []
    line, = problems
    assert line.startswith('local.yaml: ') and said in line, line
    assert line.endswith(': no acknowledgement of it applies')
    assert '\n' not in line
    return line


LAUGHS = HEAD + '- partition: &a ["lol","lol","lol","lol","lol","lol"]\n' + \
    ''.join(f'  x{i}: &a{i} [*a{i - 1 if i > 1 else ""},*a,*a,*a,*a,*a]\n'
            for i in range(1, 10))


@pytest.mark.parametrize('text, said', [
    (LAUGHS, 'line 4: a YAML anchor or alias (&, *)'),
    (HEAD + VALID.replace('  kind: known', '  kind: &k known') +
     VALID.replace('kind: known', 'kind: *k'), 'line 9: a YAML anchor'),
    (HEAD + VALID.replace('the RAID rebuild', '[' * 200_000 + ']' * 200_000),
     'line 10: nested deeper than 8 levels'),
    (HEAD + VALID.replace('the RAID rebuild', '{a: ' * 100_000),
     'nested deeper than 8 levels'),
    (HEAD + VALID + '---\n' + HEAD + VALID, 'line 11: a second YAML '
     'document'),
    (HEAD + VALID.replace('  kind', '\tkind'), 'not YAML'),
    (HEAD + VALID.replace('the RAID', 'the \x01 RAID'), 'not YAML ('),
    (HEAD + VALID + 'acks:\n' + VALID, "line 11: 'acks' given twice"),
    ('format: microbench acknowledgements\nversion: [1]\n',
     'acknowledgements version a list, this microbench reads version 1'),
    (HEAD.replace('format: microbench', 'format: [microbench'),
     'not YAML'),
])
def test_a_file_the_reader_refuses_is_one_line(parser, text, said):
    file_out(text, said)


def test_the_reader_stops_at_the_first_alias_or_the_depth_cap(monkeypatch):
    '''Bounded work: on a billion laughs or 200 000 levels of nesting the
    reader reads a few events and stops (the parsers' work on deep flow
    nesting grows with the square of the depth).'''
    seen = []
    parse = yaml.parse

    def counted(text, Loader):
        for event in parse(text, Loader=Loader):
            seen.append(event)
            yield event
    monkeypatch.setattr(yaml, 'parse', counted)
    for text in (LAUGHS, '[' * 200_000, '{a: ' * 200_000,
                 HEAD + VALID.replace('the RAID', '[' * 500_000)):
        seen.clear()
        with pytest.raises(acks_yaml.ReadError):
            acks_yaml.load(text)
        # the head and one entry's members (20 events), then the cap
        assert len(seen) <= 20 + acks_yaml.MAX_DEPTH + 2


@pytest.mark.parametrize('member, text', [
    ('kind', 'k' * 100_000), ('night', 'n' * 100_000),
    ('expires', '2' * 100_000), ('x' * 1000, 'y')])
def test_a_line_quotes_what_it_read_in_short(parser, member, text):
    line = left_out(one_entry_wrong(member, text), '...')
    assert len(line) < 300


def test_the_top_level_is_checked(parser):
    found, problems = read(HEAD.replace('acks:', 'ack: []\nacks:') + VALID)
    assert [a.index for a in found] == [1]
    assert problems == ["local.yaml: unknown member(s) 'ack' (known: "
                        "format, version, acks): ignored"]


def test_null_and_quoting(parser):
    found, problems = read(HEAD + VALID + '  link: ~\n  expires:\n  date: '
                           '"null"\n')
    assert problems == []
    assert (found[0].link, found[0].expires, found[0].date) == ('', '',
                                                                'null')


@pytest.fixture
def acks_dir(tmp_path, monkeypatch):
    monkeypatch.setenv('MICROBENCH_ACKS_DIR', str(tmp_path))
    return tmp_path


def test_a_file_larger_than_the_cap_is_one_line(acks_dir):
    (acks_dir / 'local.yaml').write_text(
        HEAD + VALID + '#' * acks_yaml.MAX_BYTES + '\n')
    found, (line,) = acks.load('local')
    assert found == [] and line == (
        f'{acks_dir}/local.yaml: larger than the 1024 KiB an '
        f'acknowledgements file may hold: no acknowledgement of it applies')


def test_bytes_not_utf8_name_their_line(acks_dir):
    (acks_dir / 'local.yaml').write_bytes(
        (HEAD + VALID).encode().replace(b'RAID', b'R\xffID'))
    found, (line,) = acks.load('local')
    assert found == [] and line == (
        f'{acks_dir}/local.yaml: line 10: not UTF-8 (byte 0xff): no '
        f'acknowledgement of it applies')


@pytest.mark.parametrize('make', [os.mkfifo, os.mkdir])
def test_a_fifo_or_a_folder_is_no_file(acks_dir, make):
    '''A FIFO is never opened: a reader would block until a writer came.'''
    make(acks_dir / 'local.yaml')
    found, (line,) = acks.load('local')
    assert found == [] and line == (
        f'{acks_dir}/local.yaml: not a regular file: no acknowledgement of '
        f'it applies')


def test_both_parsers_read_the_committed_example_alike(parser):
    with open(os.path.join(acks.directory(), 'examples',
                           'slurm_cluster.yaml')) as fp:
        found, problems = acks.parse(fp.read(), 'slurm_cluster', 'x')
    assert problems == []
    assert [(a.kind, a.night, a.expires) for a in found] == [
        ('expected', '2026-11-20', ''),
        ('noise', '5f0c2a4e-9d1b-4c7e-8a3f-2b6d0e1c9a77', ''),
        ('known', '2026-12-02', '2027-01-15')]
    assert found[1].reason == ('an OST failed over during the run; the '
                               'next night was at its level again')
