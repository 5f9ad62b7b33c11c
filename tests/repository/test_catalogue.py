'''The pitfall catalogue (reframe_tests/microbench/catalogue.py) is valid,
matches the checks and the audit, and the tables made from it are current.

- the catalogue: no member missing, no id, audit rule or check of an
  entry given twice, no witness microbench/witnesses.py lacks;
- the checks, read statically (an AST walk of reframe_tests/*.py): every
  check (a class declaring ``witnesses``, not a gap) is in the catalogue,
  every check of the catalogue is a class of its file, its witnesses are
  among those the class declares, its gap is a gap of a gap class of its
  check; and, through ReFrame (docs/catalogue_page.py's ``drift``, which
  the checks page refuses to be written against), every knob's values are
  the check's own;
- the audit: every rule id its code names has a catalogue entry, every
  rule id the catalogue names is the audit's, and the audit's entries are
  the catalogue's;
- the pitfall tables of README.md and docs/index.md are those
  docs/generate.py makes now;
- the operators' table of the checks (docs/operators/checks.md, a
  person's words) has a row for every check of the catalogue and no
  other, naming its pitfall ids.
'''

import ast
import glob
import importlib
import os
import re

import pytest

from microbench import catalogue, paths
from microbench.audit import findings

AUDIT = os.path.join(paths.LIBRARY, 'audit')


# -- what the code says, statically ----------------------------------------

def _literal_keys(node):
    return [k.value for k in node.keys if isinstance(k, ast.Constant)] \
        if isinstance(node, ast.Dict) else []


def check_classes(folder=paths.CHECKS):
    '''``{class: {'file', 'witnesses', 'pitfall', 'gaps'}}`` of every class
    of the check files in ``folder``, from their source.'''
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, '*.py'))):
        with open(path, encoding='utf-8') as fp:
            tree = ast.parse(fp.read(), path)
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            found = {'file': os.path.basename(path), 'witnesses': None,
                     'pitfall': None, 'gaps': []}
            for item in node.body:
                if not isinstance(item, ast.Assign):
                    continue
                for target in item.targets:
                    name = getattr(target, 'id', None)
                    if name == 'witnesses':
                        found['witnesses'] = ast.literal_eval(item.value)
                    elif name == 'pitfall':
                        found['pitfall'] = getattr(item.value, 'id', None)
                    elif name == 'gaps':
                        found['gaps'] = _literal_keys(item.value)
            out[node.name] = found
    return out


def mismatches(pitfalls, classes):
    '''Where ``pitfalls`` and the check classes disagree, one line each.'''
    checks = {name: found for name, found in classes.items()
              if found['witnesses'] is not None and not found['pitfall']}
    gaps = {}
    for found in classes.values():
        if found['pitfall']:
            gaps.setdefault(found['pitfall'], set()).update(found['gaps'])
    named = {check.name for entry in pitfalls for check in entry.checks}
    out = [f'{name} ({found["file"]}): no entry names it'
           for name, found in sorted(checks.items()) if name not in named]
    for entry in pitfalls:
        for check in entry.checks:
            found = checks.get(check.name)
            if found is None or found['file'] != check.file:
                out.append(f'{entry.id}: {check.name} is no check of '
                           f'{check.file}')
                continue
            out += [f'{entry.id}: {check.name} does not declare {w}'
                    for w in check.witnesses if w not in found['witnesses']]
            if check.gap and check.gap not in gaps.get(check.name, ()):
                out.append(f'{entry.id}: {check.gap} is no gap of '
                           f'{check.name}')
    return out


def audit_rules(folder=AUDIT):
    '''The rule ids the audit's code names: every string of the form S1,
    N3, M1 in its modules.'''
    found = set()
    for path in glob.glob(os.path.join(folder, '*.py')):
        with open(path, encoding='utf-8') as fp:
            tree = ast.parse(fp.read(), path)
        found |= {node.value for node in ast.walk(tree)
                  if isinstance(node, ast.Constant)
                  and isinstance(node.value, str)
                  and re.fullmatch(r'[A-Z]\d+', node.value)}
    return found


def audit_mismatches(pitfalls, rules):
    said = set(catalogue.audited(pitfalls))
    return ([f'{rule}: an audit rule no entry names'
             for rule in sorted(rules - said)]
            + [f'{rule}: named by the catalogue, no rule of the audit'
               for rule in sorted(said - rules)])


# -- the catalogue ---------------------------------------------------------

def test_the_catalogue_is_valid():
    assert catalogue.problems() == []
    assert len(catalogue.BY_ID) == len(catalogue.PITFALLS)


def _with(number, **changes):
    entries = list(catalogue.PITFALLS)
    entries[number] = entries[number]._replace(**changes)
    return tuple(entries)


def test_what_is_wrong_with_a_catalogue_is_found():
    s1, s2 = catalogue.BY_ID['S1'], catalogue.BY_ID['S2']
    check = s1.checks[0]
    for pitfalls, said in (
            (catalogue.PITFALLS + (s1,), 'S1: a second entry of that id'),
            (_with(0, name=''), 'S1: no name'),
            (_with(0, mechanism=''), 'S1: no mechanism'),
            (_with(0, mechanism='no full stop'), 'is no sentence'),
            (_with(0, references=()), 'S1: no references'),
            (_with(0, kind='disk'), "kind 'disk' is none of"),
            (_with(0, checks=()), 'S1: no check measures it'),
            (_with(0, checks=(check, check)), 'fio_cache_flags given twice'),
            (_with(1, audit=('S1',)), "S2: audit rule S1 is another entry's"),
            (_with(0, audit=('s1',)), "'s1' is no audit rule id"),
            (_with(0, checks=(check._replace(witnesses=('fincore',)),)),
             "'fincore' is no witness"),
            (_with(0, checks=(check._replace(knob=(('mode', 'buffered'),)),)),
             'is not (variable, (values, ...))'),
            ((s2, 'S3'), 'entry 1: not a Pitfall')):
        wrong = catalogue.problems(pitfalls)
        assert any(said in line for line in wrong), (said, wrong)


# -- the checks ------------------------------------------------------------

def test_the_catalogue_names_every_check_and_only_checks():
    classes = check_classes()
    assert mismatches(catalogue.PITFALLS, classes) == []
    files = {c.file for e in catalogue.PITFALLS for c in e.checks}
    assert files == {os.path.basename(p) for p in
                     glob.glob(os.path.join(paths.CHECKS, '*.py'))}


def test_a_mismatch_with_the_checks_is_found(tmp_path):
    classes = check_classes()
    s1 = catalogue.BY_ID['S1']
    check = s1.checks[0]
    s1_at = catalogue.PITFALLS.index(s1)
    for pitfalls, said in (
            (_with(s1_at, checks=(check._replace(name='fio_cache_flag'),)),
             'fio_cache_flags (fio_cache_flags.py): no entry names it'),
            (_with(s1_at, checks=(check._replace(file='fio_fallocate.py'),
                                  *s1.checks[1:])),
             'S1: fio_cache_flags is no check of fio_fallocate.py'),
            (_with(s1_at, checks=(check._replace(witnesses=('strace',)),
                                  *s1.checks[1:])),
             'S1: fio_cache_flags does not declare strace'),
            (_with(s1_at, checks=(check._replace(gap='direct_over_buffered'),
                                  *s1.checks[1:])),
             'S1: direct_over_buffered is no gap of fio_cache_flags')):
        assert said in mismatches(pitfalls, classes)
    # a new check file whose check no entry names
    (tmp_path / 'fio_new.py').write_text(
        "class fio_new(Check):\n    witnesses = ('strace',)\n")
    assert mismatches(catalogue.PITFALLS, {
        **classes, **check_classes(str(tmp_path))}) == [
        'fio_new (fio_new.py): no entry names it']


@pytest.fixture(scope='module')
def generator():
    '''docs/catalogue_page.py and the suite's test classes (through
    ReFrame, as docs/generate.py loads them).'''
    import sys
    sys.path.insert(0, os.path.join(paths.ROOT, 'docs'))
    try:
        pages = importlib.import_module('catalogue_page')
        parts = importlib.import_module('page_parts')
        yield pages, parts.test_classes()
    finally:
        sys.path.remove(os.path.join(paths.ROOT, 'docs'))


def test_the_knobs_gaps_and_witnesses_are_the_checks(generator):
    pages, classes = generator
    assert pages.drift(classes) == []


def test_a_knob_the_check_does_not_have_is_found(generator):
    pages, classes = generator
    s3 = catalogue.BY_ID['S3']
    at = catalogue.PITFALLS.index(s3)
    check = s3.checks[0]
    for knob, said in (
            ((('file', ('small', 'large')),), "knob file: ['small', 'large']"),
            ((('file', ('large', 'small', 'huge')),), 'knob file'),
            ((('size', ('large', 'small')),), 'size is no knob of the check'),
            ((('memory_floor', ()),), None)):
        wrong = pages.drift(classes, _with(at, checks=(
            check._replace(knob=knob),)))
        if said is None:                # a variable a sweep doubles
            assert wrong == []
        else:
            assert any(said in line for line in wrong), (said, wrong)
    dropped = catalogue.PITFALLS[:at] + catalogue.PITFALLS[at + 1:]
    assert ('fio_time_based_overwrite: a check of reframe_tests/'
            'fio_time_based_overwrite.py no entry of the catalogue names'
            in pages.drift(classes, dropped))


# -- the audit -------------------------------------------------------------

def test_the_audit_and_the_catalogue_name_the_same_rules():
    rules = audit_rules()
    assert rules >= {'S1', 'S4', 'N3', 'M1'}
    assert audit_mismatches(catalogue.PITFALLS, rules) == []
    assert list(findings.CATALOGUE) == list(catalogue.audited())
    for rule, entry in catalogue.audited().items():
        assert findings.CATALOGUE[rule].title == entry.name
        assert findings.CATALOGUE[rule].why.startswith(entry.mechanism[:-1])


def test_a_rule_the_catalogue_lacks_is_found(tmp_path):
    (tmp_path / 'new.py').write_text("PITFALL = 'S9'\n")
    rules = audit_rules() | audit_rules(str(tmp_path))
    assert audit_mismatches(catalogue.PITFALLS, rules) == [
        'S9: an audit rule no entry names']
    m1 = catalogue.PITFALLS.index(catalogue.BY_ID['M1'])
    assert audit_mismatches(_with(m1, audit=('M2',)), audit_rules()) == [
        'M1: an audit rule no entry names',
        'M2: named by the catalogue, no rule of the audit']


# -- the tables made from it -----------------------------------------------

def test_the_readme_and_home_page_tables_are_current(generator):
    pages, _ = generator
    made = pages.holders()
    assert set(made) == {os.path.join(paths.ROOT, 'README.md'),
                         os.path.join(paths.ROOT, 'docs', 'index.md')}
    for path, text in made.items():
        with open(path, encoding='utf-8') as fp:
            assert fp.read() == text, f'{path}: run docs/generate.py'
        block = text.split(pages.BEGIN)[1].split(pages.END)[0]
        for entry in catalogue.PITFALLS:
            for check in entry.checks:
                assert f'`{check.name}`' in block, (path, check.name)
            if entry.checks:
                assert pages.label(entry) in block, (path, entry.id)


def test_a_stale_table_is_made_anew_and_a_lost_marker_refused(generator):
    pages, _ = generator
    page = (f'# A page\n\nBefore.\n\n{pages.BEGIN}\n| old | table |\n'
            f'{pages.END}\n\nAfter.\n')
    made = pages.with_tables(page, 'reference/')
    assert made.startswith('# A page\n\nBefore.\n\n')
    assert made.endswith(f'{pages.END}\n\nAfter.\n')
    assert '| old | table |' not in made
    assert pages.label(catalogue.BY_ID['S1']) in made
    assert pages.with_tables(made, 'reference/') == made
    for broken in (page.replace(pages.END, ''),
                   page + pages.BEGIN + '\n',
                   f'{pages.END}\n{pages.BEGIN}\n'):
        with pytest.raises(pages.PageError):
            pages.with_tables(broken, 'reference/')


# -- the operators' table of the checks -----------------------------------

OPERATORS_CHECKS = os.path.join(paths.ROOT, 'docs', 'operators', 'checks.md')


def operators_rows(text):
    '''``{check: pitfall column}`` of the table of the checks in
    docs/operators/checks.md (the table of the section "The checks").'''
    rows = {}
    section = text.split('## The checks', 1)[1].split('\n## ', 1)[0]
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip('|').split('|')]
        if len(cells) < 2 or not cells[0].startswith('`'):
            continue
        for name in cells[0].split(','):
            rows[name.strip().strip('`')] = cells[1]
    return rows


def test_the_operators_table_names_every_check_with_its_id():
    '''The operators' table of the checks (its words are a person's) has
    a row for every check of the catalogue and no other, and the row of a
    check of a pitfall of the paper's ids (S1-S7, N1-N3) names its ids
    before its first colon.'''
    with open(OPERATORS_CHECKS, encoding='utf-8') as fp:
        rows = operators_rows(fp.read())
    ids = {}
    for entry in catalogue.PITFALLS:
        for check in entry.checks:
            ids.setdefault(check.name, []).append(entry.id)
    assert sorted(rows) == sorted(ids)
    for name, pitfall in rows.items():
        for found in ids[name]:
            if re.fullmatch(r'[SN]\d+', found):
                assert re.search(rf'\b{found}\b', pitfall.split(':')[0]), \
                    (name, found, pitfall)


def test_a_check_missing_from_the_operators_table_is_found():
    with open(OPERATORS_CHECKS, encoding='utf-8') as fp:
        text = fp.read()
    row = next(line for line in text.splitlines()
               if line.startswith('| `fio_fallocate` |'))
    rows = operators_rows(text.replace(row + '\n', ''))
    assert 'fio_fallocate' not in rows and 'fio_cache_flags' in rows
    wrong = text.replace('| `fio_fallocate` | S2', '| `fio_fallocate` | S3')
    assert not re.search(r'\bS2\b', operators_rows(wrong)[
        'fio_fallocate'].split(':')[0])
