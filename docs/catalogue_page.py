'''What docs/generate.py makes of the pitfall catalogue
(``reframe_tests/microbench/catalogue.py``): ``reference/pitfalls.md``,
``reference/catalogue.json``, the pitfall tables of README.md and
docs/index.md (between ``<!-- catalogue:begin -->`` and
``<!-- catalogue:end -->``), the catalogue lines of the checks page, and
:func:`drift`: where the catalogue and the checks' own code disagree (a
knob's values, a gap, a witness, a check file's docstring, a check the
catalogue lacks), which the checks page refuses to be written with.'''

import inspect
import json
import os
import re
import textwrap

from page_parts import HEAD, HERE, ROOT, PageError, cell, check_files, \
    fixtures, knob_values, table

from microbench import catalogue, witnesses

#: The marker lines around a generated table in a hand-written page
BEGIN, END = '<!-- catalogue:begin -->', '<!-- catalogue:end -->'
MADE = ('<!-- made by docs/generate.py from '
        'reframe_tests/microbench/catalogue.py: do not edit -->')

#: The hand-written pages that hold a pitfall table, and where the
#: reference pages are from each
HOLDERS = {os.path.join(ROOT, 'README.md'): 'docs/reference/',
           os.path.join(HERE, 'index.md'): 'reference/'}

#: The JSON export's format and version
FORMAT, VERSION = 'microbench pitfall catalogue', 1


def title(entry):
    '''Its name, and whether it is no pitfall.'''
    return entry.name + (' (not a pitfall)' if entry.kind == 'context'
                         else '')


def label(entry):
    '''``S1: its title`` (just the title where the id is a check's).'''
    return title(entry) if entry.id in {c.name for c in entry.checks} \
        else f'{entry.id}: {title(entry)}'


def _names(items):
    return ', '.join(f'`{item}`' for item in items)


def knob_text(check):
    '''A check's knob: ``\\`mode\\`: \\`buffered\\`, ...`` (x between
    variables).'''
    return ' x '.join(f'`{name}`: {_names(values)}' if values
                      else f'`{name}` (1, 2, 4, ... up to it)'
                      for name, values in check.knob)


def _per_check(entry, text):
    '''``text(check)`` of every check of ``entry`` that has one, each
    named where there are several.'''
    said = [(check.name, text(check)) for check in entry.checks]
    said = [(name, what) for name, what in said if what]
    if len(entry.checks) == 1 or (len(said) == len(entry.checks) and
                                  len({what for _, what in said}) == 1):
        return said[0][1] if said else '-'
    return '; '.join(f'{what} (`{name}`)' for name, what in said) or '-'


def tables(prefix):
    '''The block of a hand-written page: the table of every entry with a
    check, the links to the pages it comes from (``prefix``: the reference
    folder, from the page).'''
    listed = [e for e in catalogue.PITFALLS if e.checks]
    rows = [(_names(dict.fromkeys(c.name for c in e.checks)), label(e),
             _per_check(e, knob_text),
             _per_check(e, lambda c: _names(c.witnesses)))
            for e in listed]
    return (table(('check', 'pitfall', 'knob: values', 'witnesses'), rows)
            + '\n' + textwrap.fill(
                'The catalogue, each pitfall with its mechanism, gap, '
                'witnesses, audit rules and references (and as JSON): '
                f'[Pitfalls]({prefix}pitfalls.md).',
                79, break_long_words=False, break_on_hyphens=False) + '\n')


def with_tables(text, prefix, path='the page'):
    '''``text`` with the block between its markers made anew.'''
    if text.count(BEGIN) != 1 or text.count(END) != 1 or \
            text.index(BEGIN) > text.index(END):
        raise PageError(f'{path}: no single {BEGIN} ... {END} block')
    head, rest = text.split(BEGIN)
    tail = rest.split(END)[1]
    return f'{head}{BEGIN}\n{MADE}\n{tables(prefix)}{END}{tail}'


def holders():
    '''``{path: its text with its table made anew}`` of every hand-written
    page that holds a table.'''
    out = {}
    for path, prefix in HOLDERS.items():
        with open(path, encoding='utf-8') as fp:
            out[path] = with_tables(fp.read(), prefix, path)
    return out


def catalogue_json():
    return json.dumps({'format': FORMAT, 'version': VERSION,
                       'source': 'reframe_tests/microbench/catalogue.py',
                       'pitfalls': catalogue.as_data()}, indent=2) + '\n'


def _entry_section(entry):
    rows = [(f'`{c.name}`', f'`{c.file}`', knob_text(c) or '-',
             f'`{c.gap}`' if c.gap else '-', _names(c.witnesses) or '-')
            for c in entry.checks]
    seen = dict.fromkeys(w for c in entry.checks for w in c.witnesses)
    parts = [f'\n## {entry.id}\n\n',
             f'**{cell(label(entry))}** ({entry.kind}).  '
             f'{cell(entry.mechanism)}\n\n']
    if rows:
        parts.append(table(('check', 'file', 'knob: values', 'gap',
                            'witnesses'), rows) + '\n')
    else:
        parts.append('No check: every check takes `samples` rounds of '
                     'every variant, round-robin.\n\n')
    parts += [f'- `{name}`: {witnesses.WITNESSES[name].sees}.\n'
              for name in seen]
    parts.append('\n' if seen else '')
    parts.append(f'Audit rules: {_names(entry.audit)}.\n\n' if entry.audit
                 else 'No rule of the audit finds it.\n\n')
    parts.append('References: ' + '; '.join(entry.references) + '.\n')
    return ''.join(parts)


def pitfalls_page():
    rows = [(f'`{e.id}`', e.kind, cell(title(e)),
             _names(dict.fromkeys(c.name for c in e.checks)) or '-',
             _names(e.audit) or '-') for e in catalogue.PITFALLS]
    return (HEAD + '# Pitfalls\n\n'
            'The pitfall catalogue, from `reframe_tests/microbench/'
            'catalogue.py`, where it is declared once: the pitfall tables '
            'of the README and the home page, the catalogue lines of '
            '[Checks](checks.md), the titles and reasons of `microbench '
            'audit`\'s findings and this page are made from it, and '
            '`docs/generate.py --check` holds every knob, gap and witness '
            'to the checks\' own code.  As JSON: '
            '[catalogue.json](catalogue.json).  What each witness is and '
            'when it runs: [Checks](checks.md#witnesses).\n\n'
            + table(('id', 'kind', 'pitfall', 'checks', 'audit rules'),
                    rows)
            + ''.join(_entry_section(e) for e in catalogue.PITFALLS))


def check_file_lines(file_name):
    '''The catalogue lines of a check file's section of the checks page:
    each entry its checks measure, with their gaps and witnesses.'''
    lines = []
    for entry in catalogue.PITFALLS:
        said = []
        for check in entry.checks:
            if check.file != file_name:
                continue
            what = ([f'gap `{check.gap}`'] if check.gap else []) + (
                [f'witnesses {_names(check.witnesses)}']
                if check.witnesses else [])
            said.append(f'`{check.name}`'
                        + (f' ({"; ".join(what)})' if what else ''))
        if said:
            lines.append(f'- **{cell(label(entry))}**: {", ".join(said)}.\n')
    return ('Catalogue ([Pitfalls](pitfalls.md)):\n\n' + ''.join(lines)
            + '\n') if lines else ''


# -- the catalogue against the checks --------------------------------------

def drift(classes, pitfalls=catalogue.PITFALLS):
    '''Where ``pitfalls`` and the checks' code disagree, one line each:
    ``classes`` are the suite's test classes by name
    (:func:`page_parts.test_classes`).'''
    from microbench.suite.gap import GapCheck

    gaps = {}
    for cls in classes.values():
        if issubclass(cls, GapCheck) and cls.pitfall is not None:
            gaps.setdefault(cls.pitfall.__name__, set()).update(cls.gaps)
    out, named = [], set()
    for entry in pitfalls:
        for check in entry.checks:
            named.add(check.name)
            cls = classes.get(check.name)
            if cls is None:
                out.append(f'{entry.id}: {check.name} is no test class of '
                           f'reframe_tests/')
                continue
            where = f'{entry.id}: {check.name}'
            out += [f'{where}: {said}'
                    for said in _check_drift(check, cls, gaps)]
            doc = inspect.getdoc(inspect.getmodule(cls)) or ''
            if entry.id != check.file[:-3] and not re.search(
                    rf'\b{re.escape(entry.id)}\b', doc):
                out.append(f'{where}: the docstring of {check.file} does not '
                           f'name {entry.id}')
    rounds = fixtures(classes)
    out += [f'{name}: a check of reframe_tests/{cls.__module__}.py no entry '
            f'of the catalogue names' for name, cls in sorted(classes.items())
            if name not in named and name not in rounds
            and not issubclass(cls, GapCheck)]
    files = {c.file for e in pitfalls for c in e.checks}
    out += [f'{name}: a check file no entry of the catalogue names'
            for name in check_files() if name not in files]
    return out


def _check_drift(check, cls, gaps):
    out = []
    if f'{cls.__module__}.py' != check.file:
        out.append(f'is in {cls.__module__}.py, not {check.file}')
    knob = getattr(cls, 'knob', None)
    knobs = knob if isinstance(knob, tuple) else (knob,) if knob else ()
    values = knob_values(cls, knobs)
    for name, said in check.knob:
        if name in values:
            if tuple(values[name]) != said:
                out.append(f'knob {name}: {list(said)}, but the check\'s '
                           f'values are {values[name]}')
        elif said or name not in cls.var_space:
            out.append(f'{name} is no knob of the check, nor a variable '
                       f'its sweep doubles')
    if check.gap and check.gap not in gaps.get(check.name, ()):
        out.append(f'gap {check.gap} is no gap of {check.name}_gap '
                   f'({sorted(gaps.get(check.name, ()))})')
    declared = cls.__dict__.get('witnesses') or ()
    out += [f'witness {name} is not one it declares ({declared})'
            for name in check.witnesses if name not in declared]
    return out
