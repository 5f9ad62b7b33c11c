'''The forms file of ``microbench audit --measure``
(microbench.audit.formsfile): what it writes reads back whole; what is not
one is one line naming the file and the member, never another exception;
the measured forms' check file registers nothing without one; and what
--measure measures is chosen from a finding's structured members, never
its prose.'''

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from microbench import paths
from microbench.audit import formsfile, judge

import fixtures

FIO = formsfile.document('fio', 'fio_cache_flags', 'buffered_over_direct', {
    'yours': {'name': 't', 'rw': 'randwrite', 'bs': '32k', 'size': '64m'},
    'realistic': {'name': 't', 'rw': 'randwrite', 'bs': '32k',
                  'size': '64m', 'direct': 1}}, {
    'page_cache_variants': ['yours'], 'overwrite_variants': [],
    'witness_syscall': None, 'runtime_s': 0, 'block_size': '32k',
    'darshan': [], 'filename': '', 'judge_overwrite': True})
IOR = formsfile.document('ior', 'ior_page_cache',
                         'easy_read_none_over_odirect', {
                             'yours': ['-w', '-r', '-F', '-b', '16m'],
                             'realistic': ['-w', '-r', '-F', '-b', '16m',
                                           '--posix.odirect']},
                         {'tasks_per_node': 4, 'figure': 'read'})


@pytest.mark.parametrize('doc', [FIO, IOR], ids=['fio', 'ior'])
def test_what_is_written_reads_back_whole(doc, tmp_path):
    path = tmp_path / 'forms.json'
    formsfile.write(str(path), doc)
    assert formsfile.read(str(path)) == doc
    assert formsfile.from_environment({formsfile.ENV: str(path)}) == doc
    assert formsfile.from_environment({}) is None


def _changed(doc, change):
    out = json.loads(json.dumps(doc))
    change(out)
    return out


@pytest.mark.parametrize('doc, change, said', [
    (FIO, lambda d: d.update(version=2), 'version 2; this microbench reads'),
    (FIO, lambda d: d.update(format='x'), 'no format'),
    (FIO, lambda d: d.update(tool='elbencho'), "tool is 'elbencho'"),
    (FIO, lambda d: d.pop('gap'), 'gap is None'),
    (FIO, lambda d: d['forms'].pop('realistic'), 'forms is'),
    (FIO, lambda d: d['forms'].update(yours=['-w']),
     'forms.yours is'),
    (FIO, lambda d: d['forms']['yours'].update(bs={'a': 1}),
     'not an object of fio options'),
    (FIO, lambda d: d['fio'].update(runtime_s=-1), 'fio.runtime_s is -1'),
    (FIO, lambda d: d['fio'].update(page_cache_variants=['mine']),
     'fio.page_cache_variants'),
    (FIO, lambda d: d['fio'].pop('filename'), "no member 'filename'"),
    (FIO, lambda d: d.update(extra=1), "unknown member 'extra'"),
    (IOR, lambda d: d['ior'].update(figure='stat'), "ior.figure is 'stat'"),
    (IOR, lambda d: d['ior'].update(tasks_per_node=True),
     'ior.tasks_per_node is True'),
    (IOR, lambda d: d['forms'].update(yours=[1]),
     'not a list of IOR arguments'),
])
def test_what_is_not_a_forms_file_is_one_line(doc, change, said, tmp_path):
    path = tmp_path / 'forms.json'
    path.write_text(json.dumps(_changed(doc, change)))
    with pytest.raises(formsfile.FormsError) as err:
        formsfile.read(str(path))
    text = str(err.value)
    assert '\n' not in text and text.startswith(f'{path}: '), text
    assert said in text, text


@pytest.mark.parametrize('data', [b'', b'{', b'\xff\xfe', b'[]', b'NaN',
                                  b'{"format": NaN}', b'null'])
def test_garbage_is_one_line(data, tmp_path):
    path = tmp_path / 'forms.json'
    path.write_bytes(data)
    with pytest.raises(formsfile.FormsError) as err:
        formsfile.read(str(path))
    assert '\n' not in str(err.value)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_read_or_refused_in_one_line(data):
    import tempfile
    with tempfile.NamedTemporaryFile(suffix='.json') as fp:
        fp.write(data)
        fp.flush()
        try:
            formsfile.read(fp.name)
        except formsfile.FormsError as err:
            assert '\n' not in str(err)


def test_too_long_is_refused(tmp_path):
    path = tmp_path / 'forms.json'
    path.write_bytes(b' ' * (formsfile.LONGEST + 1))
    with pytest.raises(formsfile.FormsError, match='more than'):
        formsfile.read(str(path))


def _listed(env):
    out = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), 'reframe'), '-C',
         paths.CONFIG, '-c', paths.AUDIT_CHECKS, '-l'],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, 'PYTHONPATH': paths.CHECKS, **env})
    return out.returncode, [line for line in out.stdout.splitlines()
                            if line.startswith('- ')]


def test_the_check_file_registers_nothing_without_a_forms_file():
    env = {k: v for k, v in os.environ.items() if k != formsfile.ENV}
    code, listed = _listed({**env, formsfile.ENV: ''})
    assert code == 0 and listed == []


@pytest.mark.parametrize('doc, names', [
    (FIO, ['audit_fio %form=realistic', 'audit_fio %form=yours',
           'audit_fio_gap']),
    (IOR, ['audit_ior %form=realistic', 'audit_ior %form=yours',
           'audit_ior_gap'])], ids=['fio', 'ior'])
def test_the_check_file_registers_the_forms_files_tool(doc, names,
                                                       tmp_path):
    path = tmp_path / 'forms.json'
    formsfile.write(str(path), doc)
    code, listed = _listed({formsfile.ENV: str(path)})
    assert code == 0
    assert sorted(line[2:].split(' /')[0] for line in listed) == names


def test_the_read_after_write_is_a_structured_member_of_its_finding():
    '''--measure measures IOR's read after write on one node against
    O_DIRECT: the finding says so in its measure, not only in its
    evidence.'''
    path = os.path.join(fixtures.path('audit'), 'corpus',
                        'ior-tutorial-fpp.cmd')
    with open(path, 'rb') as fp:
        data = fp.read()
    report = judge.audit_bytes(path, data, judge.new_context(
        path, 24 * 2**30, directory=os.path.dirname(path)))
    marked = [f for f in report.findings
              if (f.measure or {}).get('read_after_write')]
    assert [f.pitfall for f in marked] == ['S4']
    assert 'read after write' in marked[0].evidence
    others = [f for f in report.findings if f.pitfall == 'S4'
              and f not in marked]
    assert all(not (f.measure or {}).get('read_after_write')
               for f in others)
